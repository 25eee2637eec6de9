/* stats.c - percentiles, mean and spread of per-call samples; see stats.h. */
#include "common/stats.h"

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
