/* SPDX-License-Identifier: MIT */
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
/* Lines of the per-descriptor array a call of backend reads in user space:
 * select's read-set bitmap, poll's pollfd array; NaN for a backend with none
 * (epoll and io_uring keep their interest set in the kernel). */
double mp_rc_array_lines(const mp_rmodel *m, const mp_rcell *c, const char *backend);

/* Highest fd number a cell watched: fd_hi when recorded, else an estimate
 * (fds 0..2 are stdio, so N watched fds end at N + 2). */
long long mp_rc_maxfd(const mp_rcell *c);

/* The one estimator of a ratio of two cells' medians, p50(b) / p50(a):
 * the Hodges-Lehmann estimate from their repeat medians where both cells
 * have at least 2 (the estimate the interval mp_rc_ratio_ci is built
 * around, so the two always agree), p50(b) / p50(a) otherwise.  The
 * report's ratios to epoll, its growth factors and log-log slopes over a
 * range, the terminal's findings and compare's change all use it.  NaN
 * when a cell is missing or a value not positive; [lo, hi] its 95%
 * interval (NaN: none). */
double mp_rc_ratio_est(const mp_rcell *a, const mp_rcell *b, double *lo, double *hi);

/* mp_rc_ratio_est of backend's cell over epoll's at the same mode, kind
 * and N; NaN if either is missing or epoll's is not positive. */
double mp_rc_ratio(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, long long nfds);

/* The 95% interval of that ratio: Hodges-Lehmann, from the two cells'
 * repeat medians (mp_rc_ratio_ci).  1 when both ends are finite, else 0 (a
 * cell missing, or too few repeat medians for a 95% interval). */
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

/* The cost of one series against N, two ways: the marginal cost of each
 * interval between neighbouring N (measured medians, no model), and a line
 * fitted on relative error so every N counts alike (a model).  This is the
 * one per-fd fit: the report and compare both print it. */
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
    /* Intervals (wall_ns only, and only when every point's cell has at least
     * 2 repeat medians: has_ci; else NaN).  marg_ci[i]: the Hodges-Lehmann
     * interval, at mp_rc_family_level(n - 1), of the shift between the repeat
     * medians of the cells at nfds[i] and nfds[i+1] (mp_shift_ci_hl), over
     * their distance;
     * slope_ci: the percentile interval of fit.slope over MP_RC_BOOT fits of
     * resampled repeats (mp_rc_boot_slope). */
    int has_ci;
    double marg_ci[MP_RC_MAXPTS][2];
    double slope_ci[2];
} mp_rcost;

/* 1 when the series has at least 2 points, else 0. */
int mp_rc_cost(const mp_rmodel *m, const char *mode, const char *kind, const char *backend,
               const char *metric, mp_rcost *out);

/* The verdict on interval cost i of c: "grows" (its interval lies above
 * 0), "falls" (below), "within noise" (it includes 0), "interval not
 * available" (no repeat medians). */
const char *mp_rc_marg_verdict(const mp_rcost *c, size_t i);
/* " [lo, hi]" of interval cost i, with ", within noise" when it includes 0;
 * "" when it has no interval.  Returns buf. */
const char *mp_rc_marg_text(const mp_rcost *c, size_t i, char *buf, size_t len);

/* ---- verdicts on intervals ------------------------------------------------
 * A verdict compares a statistic with a threshold through the statistic's
 * interval: above or below only when the whole interval is; an interval
 * that contains the threshold is not resolved. */
enum { MP_RC_BELOW = -1, MP_RC_STRADDLES = 0, MP_RC_ABOVE = 1, MP_RC_NO_CI = 2 };
/* Where [lo, hi] lies against threshold: MP_RC_NO_CI when either end is
 * not finite. */
int mp_rc_side(double lo, double hi, double threshold);

/* 1 when c is an ok cell with at least 2 repeat medians (the least an
 * interval over repeats is computed from). */
/* Why a Hodges-Lehmann interval is missing between cells that have repeats:
 * below 4 repeat medians in each cell the widest interval, [min, max] of
 * the pairwise values, covers less than 95% (2 x 2: 67%, 3 x 3: 90%,
 * 3 x 4: 94%; 4 x 4: 97%). */
#define MP_RC_FEW_REPS "fewer repeat medians than a 95% interval needs (at least 4 per cell)"
int mp_rc_has_reps(const mp_rcell *c);

/* The slope of mp_fit_relative through (x[i], median of a resample of
 * cells[i]'s repeat medians), B times, resampling each cell's repeats with
 * replacement from a splitmix64 stream at a fixed seed (the same file gives
 * the same interval); [lo, hi] the 2.5th and 97.5th percentiles of the B
 * slopes.  0, or -EINVAL when a cell has fewer than 2 repeat medians or
 * n < 2, -ENOMEM. */
#define MP_RC_BOOT 2000
int mp_rc_boot_slope(const double *x, const mp_rcell *const *cells, size_t n, size_t B,
                     double *lo, double *hi);

/* The level each of m intervals of one series is taken at so that all m
 * cover together at MP_CI_LEVEL (Bonferroni: 1 - (1 - MP_CI_LEVEL) / m).
 * A series' interval costs and its knees are m such intervals: at 95% each,
 * a flat series of 9 intervals shows one "grows" or "falls" in a quarter
 * of runs, and identical runs disagree. */
double mp_rc_family_level(size_t m);

/* Why a series of n points has interval costs without an interval: its
 * n - 1 intervals at mp_rc_family_level(n - 1) need more repeat medians
 * than a cell has (MP_RC_FEW_REPS for one interval; for 2 intervals, each
 * at 97.5%, at least 5 per cell; for 9, each at 99.4%, at least 6).
 * Returns buf. */
const char *mp_rc_few_reps_family(size_t n, char *buf, size_t len);

/* The interval at level (MP_CI_LEVEL, or a family's) of the log-log slope
 * between cells a (at x0) and b (at x1): ln of the Hodges-Lehmann interval
 * of the ratio of their repeat medians over ln(x1 / x0).  0, or -EINVAL
 * (fewer than 2 repeats, a value not positive), -ERANGE (too few repeats
 * for the level: MP_RC_FEW_REPS). */
int mp_rc_loglog_ci(const mp_rcell *a, double x0, const mp_rcell *b, double x1, double level,
                    double *lo, double *hi);

/* The 95% Hodges-Lehmann interval of p50(b) / p50(a) from the two cells'
 * repeat medians (mp_ratio_ci_hl).  0, or -EINVAL (fewer than 2 repeats),
 * -ERANGE (too few repeats for 95%: MP_RC_FEW_REPS); NaN on failure. */
int mp_rc_ratio_ci(const mp_rcell *a, const mp_rcell *b, double *lo, double *hi);

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

/* How many ok cells of (mode, kind) carry an interval of the median from their
 * repeats (*reps) and how many none (*none), and the lowest coverage among the
 * first (*level, NaN when there are none: the fewest repeats decide it). */
void mp_rc_ci_kinds(const mp_rmodel *m, const char *mode, const char *kind, size_t *reps,
                    size_t *none, double *level);

/* 1 when the run has a backend named so. */
int mp_rc_has_backend(const mp_rmodel *m, const char *name);

#endif
