/* SPDX-License-Identifier: MIT */
/* test_stats.c - percentiles, mean and stddev against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <unistd.h>

#include "common/stats.h"
#include "percall_ref.h"

static void test_known_set(void **state)
{
    (void)state;
    /* 1..10 shuffled: type-7 p50 = 5.5, p90 = 9.1, p10 = 1.9, p99 = 9.91;
     * mean 5.5; sample stddev sqrt(82.5/9) = 3.0276503540974917 */
    double x[] = {7, 3, 10, 1, 9, 2, 8, 4, 6, 5};
    mp_summary s;
    mp_summarize(x, 10, &s);
    assert_int_equal(s.n, 10);
    assert_float_equal(s.min, 1, 1e-12);
    assert_float_equal(s.max, 10, 1e-12);
    assert_float_equal(s.p50, 5.5, 1e-12);
    assert_float_equal(s.p90, 9.1, 1e-12);
    assert_float_equal(s.p10, 1.9, 1e-12);
    assert_float_equal(s.p99, 9.91, 1e-12);
    assert_float_equal(s.mean, 5.5, 1e-12);
    assert_float_equal(s.stddev, 3.0276503540974917, 1e-12);
}

static void test_single_and_empty(void **state)
{
    (void)state;
    double one[] = {42};
    mp_summary s;
    mp_summarize(one, 1, &s);
    assert_float_equal(s.p50, 42, 0);
    assert_float_equal(s.p99, 42, 0);
    assert_float_equal(s.stddev, 0, 0);
    mp_summarize(NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_float_equal(s.mean, 0, 0);
}

static void test_quantile_edges(void **state)
{
    (void)state;
    double x[] = {10, 20, 30, 40};
    /* h = 3 * 0.25 = 0.75 -> 10 + 0.75 * 10 = 17.5 */
    assert_float_equal(mp_quantile_sorted(x, 4, 0.25), 17.5, 1e-12);
    assert_float_equal(mp_quantile_sorted(x, 4, 0.0), 10, 0);
    assert_float_equal(mp_quantile_sorted(x, 4, 1.0), 40, 0);
    double y[] = {4, 1, 3, 2};
    assert_float_equal(mp_median(y, 4), 2.5, 1e-12);
}

static void test_large_offset_stddev(void **state)
{
    (void)state;
    /* Welford keeps precision with a large common offset. */
    double x[] = {1e12 + 1, 1e12 + 2, 1e12 + 3};
    mp_summary s;
    mp_summarize(x, 3, &s);
    assert_float_equal(s.stddev, 1.0, 1e-6);
}

/* Mann-Whitney U against R's wilcox.test(exact = FALSE, correct = TRUE):
 * 1:10 vs 11:20 gives W = 0, p = 0.0001827; with ties, U counted by hand
 * (pairs x > y, ties one half) and p from the tie-corrected variance. */
static void test_mann_whitney(void **state)
{
    (void)state;
    double a[10], b[10], u, p;
    for (int i = 0; i < 10; i++) {
        a[i] = i + 1;
        b[i] = i + 11;
    }
    assert_int_equal(mp_mann_whitney(a, 10, b, 10, &u, &p), 0);
    assert_float_equal(u, 0, 1e-12);
    assert_float_equal(p, 0.0001826717911095504, 1e-9);
    assert_int_equal(mp_mann_whitney(b, 10, a, 10, &u, &p), 0);   /* symmetric */
    assert_float_equal(u, 100, 1e-12);
    assert_float_equal(p, 0.0001826717911095504, 1e-9);
    double x[] = {1, 2, 2, 3, 3, 3, 7}, y[] = {2, 3, 4, 4, 5, 6, 8, 9};
    assert_int_equal(mp_mann_whitney(x, 7, y, 8, &u, &p), 0);
    assert_float_equal(u, 11.5, 1e-12);
    assert_float_equal(p, 0.06052514870791005, 1e-9);
    /* one sample against itself: no difference; all equal: p = 1 */
    assert_int_equal(mp_mann_whitney(a, 10, a, 10, &u, &p), 0);
    assert_float_equal(u, 50, 1e-12);
    assert_true(p > 0.99);
    double c[] = {5, 5, 5}, d[] = {5, 5};
    assert_int_equal(mp_mann_whitney(c, 3, d, 2, &u, &p), 0);
    assert_float_equal(p, 1, 1e-12);
    assert_int_equal(mp_mann_whitney(c, 0, d, 2, &u, &p), -EINVAL);
    /* a value that is not finite is refused (a NaN never ties with itself:
     * the tie loop would not advance; the alarm bounds that) */
    double e[] = {1, NAN, 3}, f[] = {2, INFINITY};
    alarm(30);
    assert_int_equal(mp_mann_whitney(e, 3, d, 2, &u, &p), -EINVAL);
    assert_int_equal(mp_mann_whitney(c, 3, f, 2, &u, &p), -EINVAL);
    alarm(0);
}

/* The bootstrap interval of the median: deterministic for one seed, around
 * the median, about as wide as theory says (uniform 0..1, n = 1000: the
 * median's standard error is 1/(2 sqrt(n)) = 0.0158, so a 95% interval is
 * about 0.062 wide), one point for a single sample, refused for nothing. */
static void test_bootstrap_median_ci(void **state)
{
    (void)state;
    enum { N = 1000 };
    static double x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = y[i] = (double)((i * 7919) % N) / N;   /* 0..0.999 shuffled */
    double lo, hi, lo2, hi2;
    assert_int_equal(mp_bootstrap_median_ci(x, N, 1000, 0.95, 42, &lo, &hi), 0);
    assert_int_equal(mp_bootstrap_median_ci(y, N, 1000, 0.95, 42, &lo2, &hi2), 0);
    assert_float_equal(lo, lo2, 0);
    assert_float_equal(hi, hi2, 0);
    double med = mp_quantile_sorted(x, N, 0.5);
    if (!(lo < med && med < hi) || !(hi - lo > 0.04 && hi - lo < 0.09))
        fail_msg("CI [%g, %g] around median %g: expected it to hold the median and be "
                 "0.04..0.09 wide", lo, hi, med);
    double one = 7;
    assert_int_equal(mp_bootstrap_median_ci(&one, 1, 100, 0.95, 1, &lo, &hi), 0);
    assert_float_equal(lo, 7, 0);
    assert_float_equal(hi, 7, 0);
    /* two values: resample medians are 1, 1.5 or 2; the interval spans them */
    double two[] = {2, 1};
    assert_int_equal(mp_bootstrap_median_ci(two, 2, 1000, 0.95, 1, &lo, &hi), 0);
    assert_float_equal(lo, 1, 0);
    assert_float_equal(hi, 2, 0);
    assert_int_equal(mp_bootstrap_median_ci(x, 0, 100, 0.95, 1, &lo, &hi), -22);
    assert_int_equal(mp_bootstrap_median_ci(x, N, 1, 0.95, 1, &lo, &hi), -22);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_set),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_bootstrap_median_ci),
        cmocka_unit_test(test_single_and_empty),
        cmocka_unit_test(test_quantile_edges),
        cmocka_unit_test(test_large_offset_stddev),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
