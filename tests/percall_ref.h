/* SPDX-License-Identifier: MIT */
/* percall_ref.h - the statistics muxprof took over per-call samples before
 * it took the repeat as the unit: the Mann-Whitney U test over calls and the
 * percentile bootstrap of the pooled median.  Kept for the tests that show
 * why they are wrong for autocorrelated, drifting samples (test_replicates)
 * and that they are right for independent ones (test_stats). */
#ifndef MP_TEST_PERCALL_REF_H
#define MP_TEST_PERCALL_REF_H

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/stats.h"

static int ref_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned long long ref_splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct {
    double v;
    int from_x;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    return ref_cmp_double(&((const ranked *)a)->v, &((const ranked *)b)->v);
}

static int mp_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, double *u,
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

static int mp_bootstrap_median_ci(double *x, size_t n, unsigned resamples, double level,
                           unsigned long long seed, double *lo, double *hi)
{
    if (n == 0 || resamples < 2 || !(level > 0 && level < 1))
        return -EINVAL;
    qsort(x, n, sizeof *x, ref_cmp_double);
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
            counts[ref_splitmix64(&st) % n]++;
        med[r] = counted_median(x, counts, n);
    }
    qsort(med, resamples, sizeof *med, ref_cmp_double);
    *lo = mp_quantile_sorted(med, resamples, (1 - level) / 2);
    *hi = mp_quantile_sorted(med, resamples, (1 + level) / 2);
    free(counts);
    free(med);
    return 0;
}

#endif
