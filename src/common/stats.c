/* stats.c - percentiles, mean and spread of per-call samples; see stats.h. */
#include "common/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mp_quantile_sorted(const double *x, size_t n, double p)
{
    if (n == 0)
        return 0.0;
    if (p <= 0)
        return x[0];
    if (p >= 1)
        return x[n - 1];
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return x[n - 1];
    return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

double mp_median(double *x, size_t n)
{
    qsort(x, n, sizeof *x, cmp_double);
    return mp_quantile_sorted(x, n, 0.5);
}

void mp_summarize(double *x, size_t n, mp_summary *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    qsort(x, n, sizeof *x, cmp_double);
    out->n = n;
    out->min = x[0];
    out->max = x[n - 1];
    out->p10 = mp_quantile_sorted(x, n, 0.10);
    out->p50 = mp_quantile_sorted(x, n, 0.50);
    out->p90 = mp_quantile_sorted(x, n, 0.90);
    out->p99 = mp_quantile_sorted(x, n, 0.99);
    /* Welford: stable for large values with small spread. */
    double mean = 0, m2 = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - mean;
        mean += d / (double)(i + 1);
        m2 += d * (x[i] - mean);
    }
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
}

static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The type-7 median of a resample given as counts[i] copies of sorted x[i]:
 * the order statistics at floor(h) and floor(h) + 1, h = (n - 1) / 2. */
static double counted_median(const double *x, const unsigned *counts, size_t n)
{
    double h = (double)(n - 1) * 0.5;
    size_t lo = (size_t)floor(h), seen = 0;
    double a = NAN, b = NAN;
    for (size_t i = 0; i < n; i++) {
        seen += counts[i];
        if (isnan(a) && seen > lo)
            a = x[i];
        if (seen > lo + 1 || (lo + 1 >= n && !isnan(a))) {
            b = x[i];
            break;
        }
    }
    if (isnan(b))
        b = a;
    return a + (h - (double)lo) * (b - a);
}

int mp_bootstrap_median_ci(double *x, size_t n, unsigned resamples, double level,
                           unsigned long long seed, double *lo, double *hi)
{
    if (n == 0 || resamples < 2 || !(level > 0 && level < 1))
        return -EINVAL;
    qsort(x, n, sizeof *x, cmp_double);
    unsigned *counts = malloc(n * sizeof *counts);
    double *med = malloc(resamples * sizeof *med);
    if (!counts || !med) {
        free(counts);
        free(med);
        return -ENOMEM;
    }
    unsigned long long st = seed;
    for (unsigned r = 0; r < resamples; r++) {
        memset(counts, 0, n * sizeof *counts);
        for (size_t k = 0; k < n; k++)
            counts[splitmix64(&st) % n]++;
        med[r] = counted_median(x, counts, n);
    }
    qsort(med, resamples, sizeof *med, cmp_double);
    *lo = mp_quantile_sorted(med, resamples, (1 - level) / 2);
    *hi = mp_quantile_sorted(med, resamples, (1 + level) / 2);
    free(counts);
    free(med);
    return 0;
}
