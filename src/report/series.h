/* series.h - the analysis of one run, shared by the Markdown writer and
 * the figure writer: series of points, slopes, ratios to epoll, and fits of
 * counters against pollfd cache lines, all from a checked mp_rmodel. */
#ifndef MP_REPORT_SERIES_H
#define MP_REPORT_SERIES_H

#include "report/numeric.h"
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

/* The range of that ratio from the two medians' intervals: backend's
 * lowest over epoll's highest to backend's highest over epoll's lowest.
 * 1 when both ends are finite, else 0 (a cell missing or without an
 * interval). */
int mp_rc_ratio_range(const mp_rmodel *m, const char *mode, const char *kind,
                      const char *backend, long long nfds, double *lo, double *hi);

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

/* The cost of one series against N, three ways: the marginal cost of each
 * interval between neighbouring N (measured medians, no model), and a line
 * fitted on relative error so every N counts alike (a model). */
#define MP_RC_SPREAD 2.0      /* warn when interval costs differ more than this */
#define MP_RC_FLAT 0.10       /* "flat": the median changes less than 10% over the sweep */
typedef struct mp_rcost {
    size_t n;                         /* points */
    double nfds[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
    double marg[MP_RC_MAXPTS];        /* n - 1 marginal costs, y units per fd */
    int constant;                     /* every median equal: no fit, no R² */
    int flat;                         /* median changes < MP_RC_FLAT first to last */
    mp_fit fit;                       /* mp_fit_relative over every point */
    double marg_lo, marg_hi;          /* smallest and largest marginal cost */
} mp_rcost;

/* 1 when the series has at least 2 points, else 0. */
int mp_rc_cost(const mp_rmodel *m, const char *mode, const char *kind, const char *backend,
               const char *metric, mp_rcost *out);

/* The warnings that belong next to c's fit, "; "-separated, each starting
 * with "⚠": a negative intercept, R² below MP_RC_MIN_R2, interval costs
 * differing more than MP_RC_SPREAD× (or changing sign).  "" when none, or
 * for a constant or flat series (no fit to warn about).  Returns buf. */
const char *mp_rc_fit_warnings(const mp_rcost *c, const char *unit, char *buf, size_t len);

/* Repeat medians of a cell: their range and (max - min) / their median;
 * NaN when fewer than 2 repeats kept samples. */
#define MP_RC_NOISY 0.10      /* repeat medians differing more than this: noisy */
double mp_rc_rep_spread(const mp_rcell *c, double *lo, double *hi);
/* 1 when the cell's repeat medians differ by more than MP_RC_NOISY. */
int mp_rc_noisy(const mp_rcell *c);

/* Cache regimes of a per-descriptor footprint: regime i (0..ncaches)
 * holds N below bound[i] (bound[ncaches] = infinity) and at or above
 * bound[i-1]; bound[i] = size of the i-th smallest cache / bytes_per_fd.
 * names[i] points into the model's caches ("L1d"), NULL for beyond the
 * last.  Returns the number of regimes (ncaches + 1). */
size_t mp_rc_regimes(const mp_rmodel *m, double bytes_per_fd, double *bound,
                     const char **names, size_t max);

/* 1 when metric's median is 0 in every ok cell of (mode, kind) that has it
 * (a counter that never ticked: fits and figures of it say nothing). */
int mp_rc_all_zero(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *metric);

/* "CPU model (arch)" of the run for figure titles and captions, without
 * characters a gnuplot string cannot hold.  Returns buf. */
const char *mp_rc_host_cpu(const mp_rmodel *m, char *buf, size_t len);

/* 1 when the run has a backend named so. */
int mp_rc_has_backend(const mp_rmodel *m, const char *name);

#endif
