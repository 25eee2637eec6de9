/* SPDX-License-Identifier: MIT */
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

static int all_finite(const double *x, size_t n, int positive)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || (positive && !(x[i] > 0)))
            return 0;
    return 1;
}

/* P(Bin(n, 1/2) <= j) for j = 0 .. n-1 into cdf[] (n <= 1024 keeps 2^-n > 0). */
static void binom_half_cdf(size_t n, double *cdf)
{
    double term = ldexp(1.0, -(int)n), acc = 0;   /* C(n, 0) / 2^n */
    for (size_t j = 0; j < n; j++) {
        acc += term;
        cdf[j] = acc;
        term = term * (double)(n - j) / (double)(j + 1);
    }
}

int mp_median_ci_order(const double *x, size_t n, double level, double *lo, double *hi,
                       double *achieved)
{
    if (n < 2 || n > 1024 || !all_finite(x, n, 0) || !(level > 0 && level < 1))
        return -EINVAL;
    double *s = malloc(n * sizeof *s), *cdf = malloc(n * sizeof *cdf);
    if (!s || !cdf) {
        free(s);
        free(cdf);
        return -ENOMEM;
    }
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    binom_half_cdf(n, cdf);
    size_t k = 1;   /* 1-based order statistic; k = 1 is the whole range */
    while (k + 1 <= n / 2 && 1 - 2 * cdf[k] >= level)
        k++;
    *achieved = 1 - 2 * (k >= 2 ? cdf[k - 1] : cdf[0]);
    size_t a = k - 1, b = n - k;
    if (s[a] == s[b] && s[0] != s[n - 1]) {   /* a tie inside: out to distinct values */
        double v = s[a];
        while (a > 0 && s[a] == v)
            a--;
        while (b < n - 1 && s[b] == v)
            b++;
    }
    *lo = s[a];
    *hi = s[b];
    free(s);
    free(cdf);
    return 0;
}

static double mean_of(const double *v, const size_t *idx, size_t k)
{
    double m = 0;
    for (size_t i = 0; i < k; i++)
        m += v[idx[i]];
    return m / (double)k;
}

/* C(n, k) as a double, stopping once it passes cap. */
static double choose_capped(size_t n, size_t k, double cap)
{
    double c = 1;
    for (size_t i = 1; i <= k && c <= cap; i++)
        c = c * (double)(n - k + i) / (double)i;
    return c;
}

int mp_perm_test(const double *x, size_t nx, const double *y, size_t ny,
                 unsigned long long seed, double *p)
{
    if (nx == 0 || ny == 0 || !all_finite(x, nx, 1) || !all_finite(y, ny, 1))
        return -EINVAL;
    size_t n = nx + ny;
    double *v = malloc(n * sizeof *v);
    size_t *idx = malloc(n * sizeof *idx);
    if (!v || !idx) {
        free(v);
        free(idx);
        return -ENOMEM;
    }
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        v[i] = log(i < nx ? x[i] : y[i - nx]);
        total += v[i];
    }
    /* The statistic of a split: mean of the ny chosen minus mean of the rest. */
    double obs = 0;
    for (size_t i = nx; i < n; i++)
        obs += v[i];
    obs = fabs(obs / (double)ny - (total - obs) / (double)nx);
    double tol = 1e-9 * (fabs(obs) + 1e-300) + 1e-12;
    unsigned long long extreme = 0, draws = 0;
    if (choose_capped(n, ny, MP_PERM_EXACT) <= MP_PERM_EXACT) {
        for (size_t i = 0; i < ny; i++)   /* the first combination: 0 .. ny-1 */
            idx[i] = i;
        for (;;) {
            double m = mean_of(v, idx, ny), rest = (total - m * (double)ny) / (double)nx;
            extreme += fabs(m - rest) >= obs - tol;
            draws++;
            size_t i = ny;   /* next combination in lexicographic order */
            while (i > 0 && idx[i - 1] == n - ny + i - 1)
                i--;
            if (i == 0)
                break;
            idx[i - 1]++;
            for (size_t j = i; j < ny; j++)
                idx[j] = idx[j - 1] + 1;
        }
        *p = (double)extreme / (double)draws;
    } else {
        unsigned long long st = seed;
        for (size_t i = 0; i < n; i++)
            idx[i] = i;
        for (unsigned d = 0; d < MP_PERM_DRAWS; d++) {
            for (size_t i = 0; i < ny; i++) {   /* a partial Fisher-Yates shuffle */
                size_t j = i + (size_t)(splitmix64(&st) % (n - i));
                size_t t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
            double m = mean_of(v, idx, ny), rest = (total - m * (double)ny) / (double)nx;
            extreme += fabs(m - rest) >= obs - tol;
        }
        *p = (double)(1 + extreme) / (double)(1 + MP_PERM_DRAWS);
    }
    free(v);
    free(idx);
    return 0;
}

/* x with erfc(x) = q, 0 < q < 2, by bisection (erfc is decreasing). */
static double erfcinv_approx(double q)
{
    double a = -10, b = 10;
    for (int i = 0; i < 200; i++) {
        double m = (a + b) / 2;
        if (erfc(m) > q)
            a = m;
        else
            b = m;
    }
    return (a + b) / 2;
}

/* The exact null distribution of Mann-Whitney's U for samples of m and n
 * (no ties): cdf[u] = P(U <= u), u = 0 .. m n.  Counts by the recurrence
 * f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u), one row per m. */
static int mw_null_cdf(size_t m, size_t n, double *cdf)
{
    size_t top = m * n;
    double *f = calloc((n + 1) * (top + 1), sizeof *f);   /* f[j][u] for the current m */
    double *g = calloc((n + 1) * (top + 1), sizeof *g);
    if (!f || !g) {
        free(f);
        free(g);
        return -ENOMEM;
    }
#define F(a, j, u) (a)[(j) * (top + 1) + (u)]
    for (size_t j = 0; j <= n; j++)
        F(f, j, 0) = 1;   /* m = 0: U = 0 in one way */
    for (size_t i = 1; i <= m; i++) {
        for (size_t j = 0; j <= n; j++)
            for (size_t u = 0; u <= top; u++) {
                double a = u >= j ? F(f, j, u - j) : 0;    /* the largest value is an x */
                double b = j > 0 ? F(g, j - 1, u) : 0;     /* the largest value is a y */
                F(g, j, u) = j == 0 ? (u == 0) : a + b;
            }
        double *t = f;
        f = g;
        g = t;
    }
    double total = 0;
    for (size_t u = 0; u <= top; u++)
        total += F(f, n, u);
    double acc = 0;
    for (size_t u = 0; u <= top; u++) {
        acc += F(f, n, u);
        cdf[u] = acc / total;
    }
#undef F
    free(f);
    free(g);
    return 0;
}

/* The Hodges-Lehmann interval over the np = nx * ny pairwise values d[]
 * (sorted here): their order statistics cut at the Mann-Whitney critical
 * value for level; *est their median. */
static int hl_interval(double *d, size_t nx, size_t ny, double level, double *est,
                       double *lo, double *hi, double *achieved)
{
    size_t np = nx * ny;
    int exact = np <= MP_HL_EXACT;
    double *cdf = exact ? malloc((np + 1) * sizeof *cdf) : NULL;
    if (exact && (!cdf || mw_null_cdf(nx, ny, cdf) < 0)) {
        free(cdf);
        return -ENOMEM;
    }
    qsort(d, np, sizeof *d, cmp_double);
    /* The interval [d(c), d(np + 1 - c)] covers with 1 - 2 P(U <= c - 1). */
    size_t c = 1;
    if (exact) {
        while (c + 1 <= np / 2 && 1 - 2 * cdf[c] >= level)
            c++;
        *achieved = 1 - 2 * cdf[c - 1];
    } else {   /* U's normal approximation, with a continuity correction */
        double mu = (double)np / 2, sd = sqrt((double)np * (double)(nx + ny + 1) / 12);
        double z = -sqrt(2.0) * erfcinv_approx(1 - level);
        double k = floor(mu + z * sd + 0.5);
        c = k < 1 ? 1 : (size_t)k;
        *achieved = 1 - erfc((mu - (double)c + 0.5) / sd / sqrt(2.0));
    }
    *est = mp_quantile_sorted(d, np, 0.5);
    *lo = d[c - 1];
    *hi = d[np - c];
    free(cdf);
    return 0;
}

/* The HL interval of y[j] - x[i] over all pairs, or of log(y[j] / x[i])
 * when logs (x and y then positive). */
static int hl_of_pairs(const double *x, size_t nx, const double *y, size_t ny, int logs,
                       double level, double *est, double *lo, double *hi, double *achieved)
{
    if (nx == 0 || ny == 0 || nx > MP_HL_MAX || ny > MP_HL_MAX || !all_finite(x, nx, logs) ||
        !all_finite(y, ny, logs) || !(level > 0 && level < 1))
        return -EINVAL;
    double *d = malloc(nx * ny * sizeof *d);
    if (!d)
        return -ENOMEM;
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            d[i * ny + j] = logs ? log(y[j] / x[i]) : y[j] - x[i];
    int rc = hl_interval(d, nx, ny, level, est, lo, hi, achieved);
    free(d);
    return rc;
}

int mp_ratio_ci_hl(const double *x, size_t nx, const double *y, size_t ny, double level,
                   double *est, double *lo, double *hi, double *achieved)
{
    int rc = hl_of_pairs(x, nx, y, ny, 1, level, est, lo, hi, achieved);
    if (rc < 0)
        return rc;
    *est = exp(*est);
    *lo = exp(*lo);
    *hi = exp(*hi);
    return 0;
}

int mp_hl_level_ok(double achieved, double level)
{
    return achieved >= level - 1e-12;
}

double mp_ratio_est(const double *x, size_t nx, double px, const double *y, size_t ny,
                    double py, double *lo, double *hi)
{
    double est = NAN, ach;
    *lo = *hi = NAN;
    if (!(px > 0) || !isfinite(py))
        return NAN;
    if (nx >= 2 && ny >= 2 &&
        mp_ratio_ci_hl(x, nx, y, ny, MP_CI_LEVEL, &est, lo, hi, &ach) == 0) {
        if (!mp_hl_level_ok(ach, MP_CI_LEVEL))
            *lo = *hi = NAN;
        return est;
    }
    *lo = *hi = NAN;
    return py / px;
}

int mp_shift_ci_hl(const double *x, size_t nx, const double *y, size_t ny, double level,
                   double *est, double *lo, double *hi, double *achieved)
{
    return hl_of_pairs(x, nx, y, ny, 0, level, est, lo, hi, achieved);
}

unsigned long long mp_splitmix64(unsigned long long *state)
{
    return splitmix64(state);
}
