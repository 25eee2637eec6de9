/* calc.h - the analysis of one run, shared by the Markdown writer and
 * the figure writer: series of points, slopes, ratios to epoll, and fits of
 * counters against pollfd cache lines, all from a checked mp_rmodel. */
#ifndef MP_REPORT_CALC_H
#define MP_REPORT_CALC_H

#include "report/analysis.h"
#include "report/model.h"

#define MP_RC_MAXPTS 64
#define MP_RC_MIN_R2 0.95     /* a linear fit "holds" at this R^2 ... */
#define MP_RC_MAX_REL 0.25    /* ... with no point further than 25% from it */

/* (nfds, p50 of metric) for the ok cells of a series, sorted by nfds,
 * skipping cells without the metric.  Returns the number of points. */
size_t mp_rc_points(const mp_rmodel *m, const char *mode, const char *kind,
                    const char *backend, const char *metric, double *nfds, double *y,
                    size_t max);

/* Lines of the pollfd array for N descriptors at this run's line size. */
double mp_rc_pollfd_lines(const mp_rmodel *m, double nfds);
/* Lines of select's read-set bitmap for cell c (its fd_hi; nfds + 2 when c
 * is NULL or has none). */
double mp_rc_select_lines(const mp_rmodel *m, const mp_rcell *c, double nfds);

/* Highest fd number a cell watched: fd_hi when recorded, else an estimate
 * (fds 0..2 are stdio, so N watched fds end at N + 2). */
long long mp_rc_maxfd(const mp_rcell *c);

/* p50(backend) / p50(epoll) at the same mode, kind and N; NaN if either
 * is missing or epoll's is not positive. */
double mp_rc_ratio(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, long long nfds);

/* A counter (or wall_ns) of one series fitted against pollfd lines. */
typedef struct mp_rlinefit {
    mp_fit all;          /* over every point */
    mp_fit held;         /* over the prefix where the fit holds (k points) */
    size_t n, k;         /* points, points in that prefix (0: never holds) */
    double last_nfds;    /* N of the last point where it holds (NaN if k = 0) */
    double break_nfds;   /* first N where it stops holding (NaN if never) */
    double lo_lines, hi_lines;   /* x range of the held fit */
} mp_rlinefit;

/* 1 when at least 2 points were fitted, else 0. */
int mp_rc_linefit(const mp_rmodel *m, const char *mode, const char *kind,
                  const char *backend, const char *metric, mp_rlinefit *out);

/* The series' fit of metric against N (ns per fd for wall_ns). */
mp_fit mp_rc_slope(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, const char *metric, size_t *npts);

/* 1 when metric's median is 0 in every ok cell of (mode, kind) that has it
 * (a counter that never ticked: fits and figures of it say nothing). */
int mp_rc_all_zero(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *metric);

/* 1 when the run has a backend named so. */
int mp_rc_has_backend(const mp_rmodel *m, const char *name);

#endif
