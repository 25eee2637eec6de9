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

typedef struct {
    double v;
    int from_x;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    return cmp_double(&((const ranked *)a)->v, &((const ranked *)b)->v);
}

int mp_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, double *u,
                    double *p)
{
    if (!nx || !ny)
        return -EINVAL;
    /* NaN compares unequal to itself: the tie loop below would never advance. */
    for (size_t i = 0; i < nx; i++)
        if (!isfinite(x[i]))
            return -EINVAL;
    for (size_t i = 0; i < ny; i++)
        if (!isfinite(y[i]))
            return -EINVAL;
    size_t n = nx + ny;
    ranked *r = malloc(sizeof *r * n);
    if (!r)
        return -ENOMEM;
    for (size_t i = 0; i < nx; i++)
        r[i] = (ranked){x[i], 1};
    for (size_t i = 0; i < ny; i++)
        r[nx + i] = (ranked){y[i], 0};
    qsort(r, n, sizeof *r, cmp_ranked);
    /* Ranks 1..n, ties sharing their mean rank; sum of t^3 - t per tie. */
    double rank_x = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && r[j].v == r[i].v)
            j++;
        double t = (double)(j - i), mean_rank = (double)(i + 1 + j) / 2.0;
        for (size_t k = i; k < j; k++)
            if (r[k].from_x)
                rank_x += mean_rank;
        ties += t * t * t - t;
        i = j;
    }
    free(r);
    double dx = (double)nx, dy = (double)ny, dn = (double)n;
    *u = rank_x - dx * (dx + 1) / 2.0;
    double mu = dx * dy / 2.0;
    double var = dx * dy / 12.0 * ((dn + 1) - ties / (dn * (dn - 1)));
    if (!(var > 0)) {   /* every value equal: no evidence of a difference */
        *p = 1.0;
        return 0;
    }
    double z = (fabs(*u - mu) - 0.5) / sqrt(var);
    *p = z <= 0 ? 1.0 : fmin(1.0, erfc(z / sqrt(2.0)));
    return 0;
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
