/* test_stats.c - percentiles, mean and stddev against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/stats.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_set),
        cmocka_unit_test(test_single_and_empty),
        cmocka_unit_test(test_quantile_edges),
        cmocka_unit_test(test_large_offset_stddev),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
