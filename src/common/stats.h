/* SPDX-License-Identifier: MIT */
/* stats.h - summaries of per-call samples.
 *
 * Percentiles interpolate linearly between order statistics (Hyndman & Fan
 * type 7, numpy's default): the p-quantile of sorted x[0..n-1] is
 * x[h] + (h - floor h)(x[floor h + 1] - x[floor h]) with h = (n - 1) p.
 * stddev is the sample standard deviation (divides by n - 1; 0 for n < 2).
 */
#ifndef MP_STATS_H
#define MP_STATS_H

#include <stddef.h>

typedef struct mp_summary {
    double p10, p50, p90, p99;
    double mean, min, max, stddev;
    size_t n;
} mp_summary;

/* Summarise x[0..n-1]; sorts x in place.  n == 0 gives all zeros, n = 0. */
void mp_summarize(double *x, size_t n, mp_summary *out);

/* Quantile p in [0,1] of an already sorted array (type 7). */
double mp_quantile_sorted(const double *x, size_t n, double p);

/* Median of x[0..n-1] (sorts in place). */
double mp_median(double *x, size_t n);


/* Statistics over replicates: a handful of values, one per repeat of a
 * cell (or one per run), each the median of many calls.  Per-call samples
 * are autocorrelated and drift between repeats, so intervals and tests take
 * the replicate as the unit, never the call. */

/* Distribution-free interval of the median of x[0..n-1] (not modified) from
 * order statistics: [x(k), x(n+1-k)] with the largest k whose coverage
 * 1 - 2 P(Bin(n, 1/2) <= k - 1) is at least level; *achieved is that
 * coverage.  With too few values for level (n < 6 at 0.95) the interval is
 * the whole range and *achieved its coverage, 1 - 2^(1-n).  The interval
 * is zero-width only when every value is equal: where the chosen order
 * statistics tie but others differ, each end moves out to the next distinct
 * value (the coverage only grows).  Returns 0, or -EINVAL for n < 2 or a
 * value that is not finite, -ENOMEM. */
#define MP_CI_LEVEL 0.95
/* How results.json names this interval (wall_p50_ci95_ns.method). */
#define MP_CI_METHOD "order statistics of the repeat medians"
int mp_median_ci_order(const double *x, size_t n, double level, double *lo, double *hi,
                       double *achieved);

/* Two-sided permutation test of x[0..nx-1] against y[0..ny-1] (positive,
 * not modified) on the difference of the means of their logarithms: every
 * split of the pooled values when there are at most MP_PERM_EXACT of them,
 * else MP_PERM_DRAWS random ones from a splitmix64 stream started at seed
 * (p = (1 + as extreme) / (1 + draws)).  Exact under exchangeability, ties
 * included.  Returns 0, -EINVAL for nx or ny 0 or a value not > 0, -ENOMEM. */
#define MP_PERM_EXACT 200000u
#define MP_PERM_DRAWS 20000u
int mp_perm_test(const double *x, size_t nx, const double *y, size_t ny,
                 unsigned long long seed, double *p);

/* Interval of the ratio y/x of two location parameters (Hodges-Lehmann):
 * the order statistics of the nx*ny pairwise log ratios log(yj / xi) cut at
 * the Mann-Whitney critical value for level (exact null distribution of U,
 * no-ties form), exponentiated; *est is the median pairwise ratio.  With too
 * few values for level, the whole range of pairwise ratios (coverage then
 * below level: *achieved says).  Returns 0, -EINVAL for nx or ny 0 or a
 * value not > 0, or more than MP_HL_MAX values on a side, -ENOMEM. */
#define MP_HL_MAX 256
#define MP_HL_EXACT 4096u   /* pairs up to which U's null distribution is exact */
int mp_ratio_ci_hl(const double *x, size_t nx, const double *y, size_t ny, double level,
                   double *est, double *lo, double *hi, double *achieved);

/* The ratio of two medians, y's over x's, as every output of muxprof gives
 * it: the Hodges-Lehmann estimate from the repeat medians (x[nx], y[ny])
 * with its interval at MP_CI_LEVEL (NaN when that level cannot be reached
 * with so few) where both sides have two or more; else py / px, with no
 * interval.  NaN when px is not above 0 or py is not finite. */
/* Whether an interval's achieved coverage reaches level (within rounding):
 * an HL interval is used only then; with few repeats the widest one, [min,
 * max], covers less (2 x 2 repeats: 67%, 3 x 3: 90%, 4 x 4: 97.1%). */
int mp_hl_level_ok(double achieved, double level);

double mp_ratio_est(const double *x, size_t nx, double px, const double *y, size_t ny,
                    double py, double *lo, double *hi);

/* The same interval for the shift y - x of two location parameters: the
 * order statistics of the pairwise differences yj - xi (values finite, of
 * any sign); *est their median.  Distribution-free for a shift between two
 * samples of independent values (here: repeat medians of two cells).
 * Returns as mp_ratio_ci_hl. */
int mp_shift_ci_hl(const double *x, size_t nx, const double *y, size_t ny, double level,
                   double *est, double *lo, double *hi, double *achieved);

/* The next value of a splitmix64 stream (Steele, Lea and Flood 2014):
 * deterministic draws for resampling, the same from the same seed. */
unsigned long long mp_splitmix64(unsigned long long *state);

#endif
