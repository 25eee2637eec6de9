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

/* Mann-Whitney U test, two-sided, of x[0..nx-1] against y[0..ny-1] (not
 * modified): *u is U of x (pairs (xi, yj) with xi > yj, ties counting one
 * half), *p the p-value from the normal approximation with the tie
 * correction and a continuity correction of 0.5 (scipy.stats.mannwhitneyu,
 * method="asymptotic").  Returns 0, -EINVAL when nx or ny is 0 or a value
 * is not finite, -ENOMEM. */
int mp_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, double *u,
                    double *p);

/* Percentile bootstrap confidence interval of the median of x[0..n-1]
 * (sorted in place): `resamples` resamples of n draws with replacement,
 * their type-7 medians, and the (1-level)/2 and (1+level)/2 quantiles of
 * those.  Deterministic: the draws come from a splitmix64 stream started at
 * seed, so the same samples and seed give the same interval.  Returns 0, or
 * -EINVAL for n == 0, resamples < 2 or level outside (0,1), -ENOMEM. */
#define MP_BOOT_RESAMPLES 1000
#define MP_BOOT_SEED 0x6d75787072ull   /* "muxpr" */
int mp_bootstrap_median_ci(double *x, size_t n, unsigned resamples, double level,
                           unsigned long long seed, double *lo, double *hi);

#endif
