/* SPDX-License-Identifier: MIT */
/* test_replicates.c - statistics over repeats: the order-statistic interval
 * of the median, the permutation test, the Hodges-Lehmann ratio and shift
 * intervals, and, on synthetic runs whose per-call samples are
 * autocorrelated and whose repeat medians drift, how often each interval
 * holds the truth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/stats.h"
#include "report/series.h"
#include "percall_ref.h"

/* A deterministic normal stream: splitmix64 and Box-Muller. */
typedef struct { unsigned long long s; } rng;

static double uniform(rng *r)
{
    unsigned long long z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(rng *r)
{
    return sqrt(-2 * log(uniform(r))) * cos(6.283185307179586 * uniform(r));
}

static void test_order_interval(void **state)
{
    (void)state;
    double lo, hi, cov;
    /* n = 9: P(Bin(9, 1/2) <= 1) = 10/512, so [x(2), x(8)] covers 1 - 20/512. */
    double nine[] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    assert_int_equal(mp_median_ci_order(nine, 9, 0.95, &lo, &hi, &cov), 0);
    assert_float_equal(lo, 2, 0);
    assert_float_equal(hi, 8, 0);
    assert_float_equal(cov, 1 - 20.0 / 512, 1e-12);
    assert_float_equal(nine[0], 9, 0);   /* not modified */
    /* n = 5 cannot reach 95%: the whole range, which covers 1 - 2^-4. */
    double five[] = {3, 1, 2, 5, 4};
    assert_int_equal(mp_median_ci_order(five, 5, 0.95, &lo, &hi, &cov), 0);
    assert_float_equal(lo, 1, 0);
    assert_float_equal(hi, 5, 0);
    assert_float_equal(cov, 0.9375, 1e-12);
    /* tied order statistics but not every value equal: out to distinct values */
    double tie[] = {2, 2, 1, 2, 2, 2, 2, 2, 3};
    assert_int_equal(mp_median_ci_order(tie, 9, 0.95, &lo, &hi, &cov), 0);
    assert_float_equal(lo, 1, 0);
    assert_float_equal(hi, 3, 0);
    double tie_hi[] = {2, 2, 2, 2, 2, 2, 2, 2, 3};
    assert_int_equal(mp_median_ci_order(tie_hi, 9, 0.95, &lo, &hi, &cov), 0);
    assert_float_equal(lo, 2, 0);
    assert_float_equal(hi, 3, 0);
    /* zero width only when every repeat agrees */
    double same[] = {7, 7, 7, 7, 7, 7};
    assert_int_equal(mp_median_ci_order(same, 6, 0.95, &lo, &hi, &cov), 0);
    assert_float_equal(lo, 7, 0);
    assert_float_equal(hi, 7, 0);
    assert_int_equal(mp_median_ci_order(same, 1, 0.95, &lo, &hi, &cov), -EINVAL);
    double bad[] = {1, NAN, 3};
    assert_int_equal(mp_median_ci_order(bad, 3, 0.95, &lo, &hi, &cov), -EINVAL);
}

static void test_permutation(void **state)
{
    (void)state;
    double p;
    double a[] = {1, 2, 3, 4, 5}, b[] = {10, 11, 12, 13, 14};
    /* complete separation of 5 and 5: the two extreme splits of C(10, 5) = 252 */
    assert_int_equal(mp_perm_test(a, 5, b, 5, 1, &p), 0);
    assert_float_equal(p, 2.0 / 252, 1e-12);
    assert_int_equal(mp_perm_test(b, 5, a, 5, 1, &p), 0);
    assert_float_equal(p, 2.0 / 252, 1e-12);
    double c[] = {5, 5, 5};
    assert_int_equal(mp_perm_test(c, 3, c, 3, 1, &p), 0);
    assert_float_equal(p, 1, 0);
    /* 3 against 3 can never reach p < 0.05 (2 / 20 at best) */
    double d[] = {1, 2, 3}, e[] = {7, 8, 9};
    assert_int_equal(mp_perm_test(d, 3, e, 3, 1, &p), 0);
    assert_float_equal(p, 0.1, 1e-12);
    /* too many splits to enumerate: random ones, deterministic for one seed */
    static double x[40], y[40];
    rng r = {7};
    for (int i = 0; i < 40; i++) {
        x[i] = 100 * (1 + 0.02 * normal(&r));
        y[i] = 103 * (1 + 0.02 * normal(&r));
    }
    double p1, p2;
    assert_int_equal(mp_perm_test(x, 40, y, 40, 9, &p1), 0);
    assert_int_equal(mp_perm_test(x, 40, y, 40, 9, &p2), 0);
    assert_float_equal(p1, p2, 0);
    assert_true(p1 < 0.001);
    assert_int_equal(mp_perm_test(a, 0, b, 5, 1, &p), -EINVAL);
    double neg[] = {1, -1};
    assert_int_equal(mp_perm_test(neg, 2, b, 5, 1, &p), -EINVAL);
}

static void test_ratio_interval(void **state)
{
    (void)state;
    double est, lo, hi, cov;
    double x[] = {100, 100, 100, 100, 100}, y[] = {110, 110, 110, 110, 110};
    assert_int_equal(mp_ratio_ci_hl(x, 5, y, 5, 0.95, &est, &lo, &hi, &cov), 0);
    assert_float_equal(est, 1.1, 1e-12);
    assert_float_equal(lo, 1.1, 1e-12);
    assert_float_equal(hi, 1.1, 1e-12);
    /* 5 and 5: P(U <= 2) = 4/252, P(U <= 3) = 7/252: c = 3, cover 1 - 8/252 */
    assert_float_equal(cov, 1 - 8.0 / 252, 1e-12);
    /* y = 2x, spread: the interval holds 2 and lies inside the pairwise range */
    double u[] = {90, 95, 100, 105, 110, 98, 102, 99, 101}, v[9];
    for (int i = 0; i < 9; i++)
        v[i] = 2 * u[(i + 4) % 9];
    assert_int_equal(mp_ratio_ci_hl(u, 9, v, 9, 0.95, &est, &lo, &hi, &cov), 0);
    assert_float_equal(est, 2, 1e-12);
    assert_true(lo < 2 && 2 < hi && lo > 180.0 / 110 && hi < 220.0 / 90);
    assert_true(cov >= 0.95);
    /* large sides: the normal approximation of U, still around the ratio */
    static double a[100], b[100];
    rng r = {3};
    for (int i = 0; i < 100; i++) {
        a[i] = 100 * (1 + 0.01 * normal(&r));
        b[i] = 105 * (1 + 0.01 * normal(&r));
    }
    assert_int_equal(mp_ratio_ci_hl(a, 100, b, 100, 0.95, &est, &lo, &hi, &cov), 0);
    assert_true(lo < 1.05 && 1.05 < hi && hi - lo < 0.01);
    assert_true(fabs(cov - 0.95) < 0.01);
    assert_int_equal(mp_ratio_ci_hl(x, 0, y, 5, 0.95, &est, &lo, &hi, &cov), -EINVAL);
}

/* One synthetic run: R repeats of S calls.  Each repeat's level is the true
 * median times a drift drawn afresh per repeat (sd 2%); the calls of a
 * repeat are an AR(1) series around that level (phi 0.6, sd 5%), so calls
 * are autocorrelated and repeats differ by more than the calls suggest. */
enum { R = 9, S = 100, RUNS = 300 };
#define TRUTH 1000.0

static void synthetic_run_at(rng *r, double truth, double *calls, double *rep_medians)
{
    double tmp[S];
    for (int k = 0; k < R; k++) {
        double level = truth * (1 + 0.02 * normal(r)), e = 0;
        for (int i = 0; i < S; i++) {
            e = 0.6 * e + sqrt(1 - 0.36) * 0.05 * normal(r);
            calls[k * S + i] = tmp[i] = level * (1 + e);
        }
        rep_medians[k] = mp_median(tmp, S);
    }
}

static void synthetic_run(rng *r, double *calls, double *rep_medians)
{
    synthetic_run_at(r, TRUTH, calls, rep_medians);
}

/* The bootstrap over calls (the interval muxprof gave before it took the
 * repeat as the unit) covers the truth far less often than it claims; the
 * order-statistic interval over repeat medians at least as often. */
static void test_coverage_synthetic(void **state)
{
    (void)state;
    static double calls[R * S];
    double reps[R];
    rng r = {2026};
    int old_hits = 0, new_hits = 0;
    alarm(60);
    for (int run = 0; run < RUNS; run++) {
        synthetic_run(&r, calls, reps);
        double lo, hi, cov;
        assert_int_equal(mp_bootstrap_median_ci(calls, R * S, 200, 0.95, 1 + run, &lo, &hi), 0);
        old_hits += lo <= TRUTH && TRUTH <= hi;
        assert_int_equal(mp_median_ci_order(reps, R, 0.95, &lo, &hi, &cov), 0);
        new_hits += lo <= TRUTH && TRUTH <= hi;
    }
    alarm(0);
    double old_cov = (double)old_hits / RUNS, new_cov = (double)new_hits / RUNS;
    print_message("coverage of the truth: calls bootstrap %.1f%%, repeat medians %.1f%%\n",
                  100 * old_cov, 100 * new_cov);
    assert_true(old_cov < 0.60);
    assert_true(new_cov >= 0.90);
}

/* The shift interval (a per-interval cost's): exact on constant samples,
 * around the shift otherwise, and on synthetic cells whose medians differ by
 * 3% (a cost of 30 ns over the interval) it covers that difference at
 * least 90% of the time, while on cells that differ by nothing it
 * includes 0 (within noise) at least 90% of the time. */
static void test_shift_interval(void **state)
{
    (void)state;
    double est, lo, hi, cov;
    double x[] = {100, 100, 100, 100, 100}, y[] = {130, 130, 130, 130, 130};
    assert_int_equal(mp_shift_ci_hl(x, 5, y, 5, 0.95, &est, &lo, &hi, &cov), 0);
    assert_float_equal(est, 30, 1e-12);
    assert_float_equal(lo, 30, 1e-12);
    assert_float_equal(hi, 30, 1e-12);
    assert_float_equal(cov, 1 - 8.0 / 252, 1e-12);
    double u[] = {-5, 3, 0, 2, -1, 4, 1, -2, -3}, v[9];
    for (int i = 0; i < 9; i++)
        v[i] = u[(i + 2) % 9] - 10;   /* a shift of -10, values of either sign */
    assert_int_equal(mp_shift_ci_hl(u, 9, v, 9, 0.95, &est, &lo, &hi, &cov), 0);
    assert_float_equal(est, -10, 1e-12);
    assert_true(lo < -10 && -10 < hi && lo >= -19 && hi <= -1);
    assert_int_equal(mp_shift_ci_hl(x, 0, y, 5, 0.95, &est, &lo, &hi, &cov), -EINVAL);
    double bad[] = {1, NAN};
    assert_int_equal(mp_shift_ci_hl(bad, 2, y, 5, 0.95, &est, &lo, &hi, &cov), -EINVAL);

    static double calls[R * S];
    double a[R], b[R];
    rng r = {4242};
    int cover = 0, noise = 0;
    alarm(60);
    for (int run = 0; run < RUNS; run++) {
        synthetic_run_at(&r, TRUTH, calls, a);
        synthetic_run_at(&r, TRUTH + 30, calls, b);
        assert_int_equal(mp_shift_ci_hl(a, R, b, R, 0.95, &est, &lo, &hi, &cov), 0);
        cover += lo <= 30 && 30 <= hi;
        synthetic_run_at(&r, TRUTH, calls, b);
        assert_int_equal(mp_shift_ci_hl(a, R, b, R, 0.95, &est, &lo, &hi, &cov), 0);
        noise += lo <= 0 && 0 <= hi;
    }
    alarm(0);
    print_message("shift interval: covers a shift of 30 in %.1f%%, holds 0 between identical "
                  "cells in %.1f%%\n", 100.0 * cover / RUNS, 100.0 * noise / RUNS);
    assert_true(cover >= RUNS * 90 / 100);
    assert_true(noise >= RUNS * 90 / 100);
}

/* Identical synthetic runs compared: the permutation test on repeat medians
 * flags about alpha of them, the per-call U test nearly all. */
static void test_aa_synthetic(void **state)
{
    (void)state;
    static double ca[R * S], cb[R * S];
    double ra[R], rb[R];
    rng r = {77};
    int perm_flags = 0, mw_flags = 0, pairs = 200;
    alarm(120);
    for (int i = 0; i < pairs; i++) {
        synthetic_run(&r, ca, ra);
        synthetic_run(&r, cb, rb);
        double p, u;
        assert_int_equal(mp_perm_test(ra, R, rb, R, 1, &p), 0);
        perm_flags += p < 0.05;
        assert_int_equal(mp_mann_whitney(ca, R * S, cb, R * S, &u, &p), 0);
        mw_flags += p < 0.05;
    }
    alarm(0);
    print_message("A/A flagged at p < 0.05: repeat permutation %d/%d, per-call U %d/%d\n",
                  perm_flags, pairs, mw_flags, pairs);
    assert_true(perm_flags <= pairs * 8 / 100);
    assert_true(mw_flags >= pairs / 2);
}

/* A flat series (ten cells, the same truth) has nine interval costs.  Each
 * at 95%, one of them or more excludes 0 -- a cost that "grows" or "falls"
 * -- in a fifth or more of such series, so identical runs disagree; at the
 * family's level (mp_rc_family_level) in about 5% at most. */
static void test_family_level(void **state)
{
    (void)state;
    enum { NPTS = 10 };
    static double calls[R * S];
    double reps[NPTS][R];
    rng r = {9};
    int any95 = 0, anyfam = 0, series = 300;
    double fam = mp_rc_family_level(NPTS - 1);
    assert_float_equal(fam, 1 - 0.05 / 9, 1e-12);
    assert_float_equal(mp_rc_family_level(1), 0.95, 1e-12);
    alarm(60);
    for (int k = 0; k < series; k++) {
        for (int i = 0; i < NPTS; i++)
            synthetic_run(&r, calls, reps[i]);
        int hit95 = 0, hitfam = 0;
        for (int i = 0; i + 1 < NPTS; i++) {
            double est, lo, hi, cov;
            assert_int_equal(mp_shift_ci_hl(reps[i], R, reps[i + 1], R, 0.95, &est, &lo, &hi,
                                            &cov), 0);
            hit95 |= lo > 0 || hi < 0;
            assert_int_equal(mp_shift_ci_hl(reps[i], R, reps[i + 1], R, fam, &est, &lo, &hi,
                                            &cov), 0);
            assert_true(cov >= fam - 1e-12);
            hitfam |= lo > 0 || hi < 0;
        }
        any95 += hit95;
        anyfam += hitfam;
    }
    alarm(0);
    print_message("flat series with a cost that grows or falls: %d/%d at 95%% each, %d/%d at "
                  "the family's level\n", any95, series, anyfam, series);
    assert_true(any95 >= series / 5);
    assert_true(anyfam <= series * 7 / 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_interval),
        cmocka_unit_test(test_permutation),
        cmocka_unit_test(test_ratio_interval),
        cmocka_unit_test(test_shift_interval),
        cmocka_unit_test(test_coverage_synthetic),
        cmocka_unit_test(test_aa_synthetic),
        cmocka_unit_test(test_family_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
