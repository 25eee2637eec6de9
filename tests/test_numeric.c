/* SPDX-License-Identifier: MIT */
/* test_numeric.c - fits, fit validity, knees and the bytes/lines ABI
 * model (src/report/numeric.c) against synthetic data with known answers and
 * hand-computed values for x86_64 and arm64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "report/numeric.h"
#include "report/series.h"
#include "common/stats.h"

#define NEAR(a, b, tol) do { double a_ = (a), b_ = (b); \
    if (!(fabs(a_ - b_) <= (tol))) fail_msg("%s = %.10g, expected %.10g (+-%g)", #a, a_, b_, \
                                            (double)(tol)); } while (0)

static void fit_exact_line(void **st)
{
    (void)st;
    double x[] = {10, 100, 1000, 10000}, y[4];
    for (int i = 0; i < 4; i++)
        y[i] = 50 + 20 * x[i];           /* poll-like: 50 ns + 20 ns per fd */
    mp_fit f = mp_fit_linear(x, y, 4);
    assert_true(f.ok);
    NEAR(f.slope, 20, 1e-9);
    NEAR(f.intercept, 50, 1e-6);
    NEAR(f.r2, 1, 1e-12);
}

static void fit_flat_and_noisy(void **st)
{
    (void)st;
    double x[] = {10, 100, 1000, 10000}, flat[] = {300, 300, 300, 300};
    mp_fit f = mp_fit_linear(x, flat, 4);
    assert_true(f.ok);
    NEAR(f.slope, 0, 1e-12);
    assert_true(isnan(f.r2));            /* a constant series has no R² */
    assert_true(mp_series_constant(flat, 4));
    assert_false(mp_series_constant(x, 4));
    /* y = 2x + noise: r2 below 1, slope close to 2; computed by hand (sums of squares) */
    double xs[] = {1, 2, 3, 4, 5}, ys[] = {2.1, 3.9, 6.2, 7.8, 10.1};
    f = mp_fit_linear(xs, ys, 5);
    NEAR(f.slope, 1.99, 1e-9);
    NEAR(f.intercept, 0.05, 1e-9);
    NEAR(f.r2, 0.9973053289, 1e-9);
    /* degenerate inputs */
    assert_false(mp_fit_linear(xs, ys, 1).ok);
    double same[] = {3, 3, 3};
    assert_false(mp_fit_linear(same, ys, 3).ok);
}

/* The relative fit weighs every N alike: poll-like medians of 36 ns per fd
 * up to N = 5,000 and 84 ns per fd in the last interval.  Ordinary least
 * squares lets the last point decide (slope far above 36, negative
 * intercept); the relative fit stays near the small-N cost.  The marginal
 * costs are the per-interval slopes. */
static void fit_relative_weighs_n_alike(void **st)
{
    (void)st;
    double x[] = {10, 100, 1000, 2000, 5000, 10000};
    double y[] = {500, 3740, 36140, 72140, 180140, 600140};
    mp_fit ols = mp_fit_linear(x, y, 6), rel = mp_fit_relative(x, y, 6);
    assert_true(ols.ok && rel.ok);
    if (!(ols.slope > 55 && ols.intercept < 0))
        fail_msg("OLS slope %g, intercept %g: expected the last point to pull it", ols.slope,
                 ols.intercept);
    if (!(rel.slope > 34 && rel.slope < 40))
        fail_msg("relative slope %g: expected near 36 ns per fd", rel.slope);
    double mg[5];
    assert_int_equal(mp_marginal(x, y, 6, mg), 5);
    NEAR(mg[0], 36, 1e-9);
    NEAR(mg[3], 36, 1e-9);
    NEAR(mg[4], 84, 1e-9);
    assert_int_equal(mp_marginal(x, y, 1, mg), 0);
    /* an exact line: every fit recovers it */
    double z[6];
    for (int i = 0; i < 6; i++)
        z[i] = 200 + 30 * x[i];
    rel = mp_fit_relative(x, z, 6);
    NEAR(rel.slope, 30, 1e-9);
    NEAR(rel.intercept, 200, 1e-6);
    NEAR(rel.r2, 1, 1e-12);
}

static void fit_stops_holding(void **st)
{
    (void)st;
    /* misses = 5 + 1 per line up to 5 points, then a jump at the sixth */
    double x[] = {2, 13, 125, 250, 625, 1250}, y[6];
    for (int i = 0; i < 6; i++)
        y[i] = 5 + x[i];
    y[5] += 2000;
    mp_fit f;
    size_t k = mp_fit_holds(x, y, 6, 0.95, 0.25, &f);
    assert_int_equal(k, 5);               /* holds through x[4]; stops at x[5] */
    NEAR(f.slope, 1, 1e-9);
    NEAR(f.intercept, 5, 1e-6);
    y[5] -= 2000;                         /* now it holds everywhere */
    assert_int_equal(mp_fit_holds(x, y, 6, 0.95, 0.25, &f), 6);
    double z[] = {100, 1, 500, 3};        /* nothing linear at all */
    assert_int_equal(mp_fit_holds(x, z, 4, 0.95, 0.25, &f), 0);
    assert_int_equal(mp_fit_holds(x, y, 2, 0.95, 0.25, &f), 0);   /* too few points */
}

static void knees_found_where_built(void **st)
{
    (void)st;
    /* linear up to 2000, then three times steeper: knee in (2000, 5000] */
    double x[] = {10, 100, 1000, 2000, 5000, 10000}, y[6];
    for (int i = 0; i < 6; i++)
        y[i] = x[i] <= 2000 ? 2000 + 60 * x[i] : 2000 + 180 * x[i];
    mp_knee k[4];
    size_t n = mp_find_knees(x, y, 6, MP_KNEE_SLOPE, k, 4);
    assert_int_equal(n, 1);
    NEAR(k[0].x0, 2000, 0);
    NEAR(k[0].x1, 5000, 0);
    /* slope = ln(902000/122000) / ln(2.5) */
    NEAR(k[0].slope, log(902000.0 / 122000.0) / log(2.5), 1e-12);
    /* a pure power law y = x^1.5 is one long knee; y = x is none */
    double p[6], lin[6];
    for (int i = 0; i < 6; i++) {
        p[i] = pow(x[i], 1.5);
        lin[i] = 7 * x[i];
    }
    assert_int_equal(mp_find_knees(x, p, 6, MP_KNEE_SLOPE, k, 4), 5);
    assert_int_equal(mp_find_knees(x, lin, 6, MP_KNEE_SLOPE, k, 4), 0);
    NEAR(mp_loglog_slope(10, 100, 100, 1000), 1, 1e-12);
    assert_true(isnan(mp_loglog_slope(10, 0, 100, 5)));   /* non-positive: no slope */
}

static void abi_bytes_and_lines(void **st)
{
    (void)st;
    assert_int_equal(mp_abi_from_arch("x86_64"), MP_ABI_X86_64);
    assert_int_equal(mp_abi_from_arch("aarch64"), MP_ABI_ARM64);
    assert_int_equal(mp_abi_from_arch("arm64"), MP_ABI_ARM64);
    assert_int_equal(mp_abi_from_arch(NULL), MP_ABI_OTHER);
    assert_int_equal(mp_abi_epoll_event_bytes(MP_ABI_X86_64), 12);
    assert_int_equal(mp_abi_epoll_event_bytes(MP_ABI_ARM64), 16);

    /* seed 000: 10,000 fds = 80,000 bytes; 20,000 fds = 160,000 bytes = 2,500 lines */
    mp_move p = mp_move_poll(10000, 64);
    assert_int_equal(p.bytes_in, 80000);
    assert_int_equal(p.bytes_out, 20000);   /* only the 2-byte revents is written back */
    assert_int_equal(p.lines_in, 1250);
    assert_int_equal(p.lines_out, 1250);    /* ... but into every line */
    p = mp_move_poll(20000, 64);
    assert_int_equal(p.bytes_in, 160000);
    assert_int_equal(p.lines_in, 2500);
    p = mp_move_poll(20000, 128);         /* arm64 hosts with 128-byte lines */
    assert_int_equal(p.lines_in, 1250);
    p = mp_move_poll(10, 64);             /* 80 bytes span 2 lines */
    assert_int_equal(p.lines_in, 2);

    /* select, read set only: maxfd 1023 -> 16 words = 128 bytes = 2 lines */
    mp_move s = mp_move_select(1023, 1, 64);
    assert_int_equal(s.bytes_in, 128);
    assert_int_equal(s.lines_in, 2);
    s = mp_move_select(12, 1, 64);        /* fds 0..12: one word */
    assert_int_equal(s.bytes_in, 8);
    assert_int_equal(s.lines_out, 1);
    s = mp_move_select(1023, 3, 64);      /* all three sets: 384 bytes, 6 lines */
    assert_int_equal(s.bytes_in, 384);
    assert_int_equal(s.lines_in, 6);

    /* seed 000's "384 bytes for 3 ready events": really 36 (x86_64), 48 (arm64) */
    mp_move e = mp_move_epoll(3, MP_ABI_X86_64, 64);
    assert_int_equal(e.bytes_in, 0);
    assert_int_equal(e.bytes_out, 36);
    assert_int_equal(e.lines_out, 1);
    e = mp_move_epoll(3, MP_ABI_ARM64, 64);
    assert_int_equal(e.bytes_out, 48);
    e = mp_move_epoll(6, MP_ABI_X86_64, 64);   /* 72 bytes: 2 lines */
    assert_int_equal(e.lines_out, 2);
}

static void cache_crossings(void **st)
{
    (void)st;
    /* a 48 KiB L1d holds the pollfd array up to 6144 fds */
    NEAR(mp_cross_nfds(49152, MP_POLLFD_BYTES), 6144, 0);
    assert_int_equal(mp_kernel_bytes_per_fd(0), 136);
    assert_int_equal(mp_kernel_bytes_per_fd(1), 264);
    NEAR(mp_cross_nfds(1048576, 8 + 136), 1048576.0 / 144, 1e-9);
    assert_true(isnan(mp_cross_nfds(100, 0)));
    assert_int_equal(mp_lines(0, 64), 0);
    assert_int_equal(mp_lines(65, 0), 2);   /* 0 = unknown: 64 assumed */
}

/* epoll = 300 + 200 (K-1) against poll = 2050 + 10 (K-1): equal at
 * K = 1 + 1750/190, found between the measured K = 4 and 16. */
static void crossing_of_two_lines(void **st)
{
    (void)st;
    double k[] = {1, 4, 16, 64}, e[4], p[4], at = 0;
    for (int i = 0; i < 4; i++) {
        e[i] = 300 + 200 * (k[i] - 1);
        p[i] = 2050 + 10 * (k[i] - 1);
    }
    assert_int_equal(mp_crossing(k, e, p, 4, &at), MP_CROSS_AT);
    assert_true(fabs(at - (1 + 1750.0 / 190)) < 1e-9);
    /* already above at the first point */
    double p2[] = {250, 280, 400, 900};
    assert_int_equal(mp_crossing(k, e, p2, 4, &at), MP_CROSS_BEFORE);
    assert_true(at == 1);
    /* never reached */
    double p3[] = {1e6, 1e6, 1e6, 1e6};
    assert_int_equal(mp_crossing(k, e, p3, 4, &at), MP_CROSS_NONE);
    /* equal at a measured point counts as reached there */
    double p4[] = {2000, 2000, 3300, 5000};
    assert_int_equal(mp_crossing(k, e, p4, 4, &at), MP_CROSS_AT);
    assert_true(at == 16);
    double bad[] = {1, NAN, 3, 4};
    assert_int_equal(mp_crossing(k, e, bad, 4, &at), MP_CROSS_NODATA);
    assert_int_equal(mp_crossing(k, e, p, 0, &at), MP_CROSS_NODATA);
}

/* The K-of-N crossing in the space the figure is drawn in: epoll 900 ->
 * 3,300 and poll 2,080 -> 2,200 between K = 4 and 16 meet where
 * ln(epoll/poll) = 0 along ln K: K = 10.18 (linear in K it is 10.2). */
static void crossing_loglog(void **st)
{
    (void)st;
    double k[] = {1, 4, 16, 64}, e[] = {300, 900, 3300, 12900}, p[] = {2050, 2080, 2200, 2680};
    double at = 0;
    assert_int_equal(mp_crossing_loglog(k, e, p, 4, &at), MP_CROSS_AT);
    NEAR(at, 10.1803, 1e-4);
    double lin = 0;
    assert_int_equal(mp_crossing(k, e, p, 4, &lin), MP_CROSS_AT);
    assert_true(fabs(lin - at) > 0.02);
    /* two power laws cross exactly where the log-log interpolation says */
    double a2[2] = {1, 100}, b2[2] = {10, 10};   /* y = x against y = 10 */
    double x2[2] = {1, 100};
    assert_int_equal(mp_crossing_loglog(x2, a2, b2, 2, &at), MP_CROSS_AT);
    NEAR(at, 10, 1e-9);
    double z[2] = {0, 5};
    assert_int_equal(mp_crossing_loglog(x2, z, b2, 2, &at), MP_CROSS_NODATA);
}

/* A deterministic normal stream: splitmix64 and Box-Muller. */
static double normal01(unsigned long long *s)
{
    double u = ((double)(mp_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(mp_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* The slope's bootstrap interval over repeats: exact when every repeat
 * agrees, refused with too few repeats, deterministic, and on synthetic
 * series (400 + 30 N at N = 10 .. 10,000, 9 repeat medians per cell, each
 * drifting 2% on its own) it covers the true 30 ns per fd in at least 90%
 * of 200 runs.  The log-log slope interval of two cells holds the slope
 * built into them. */
static void slope_intervals_over_repeats(void **state)
{
    (void)state;
    static const double n[] = {10, 100, 1000, 2000, 10000};
    enum { NP = 5, REPS = 9, RUNS = 200 };
    static mp_rcell cells[NP];
    const mp_rcell *cp[NP];
    for (int i = 0; i < NP; i++) {
        cells[i].status = MP_CELL_OK;
        cells[i].nrep = REPS;
        for (int k = 0; k < REPS; k++)
            cells[i].rep[k] = 400 + 30 * n[i];
        cp[i] = &cells[i];
    }
    double lo, hi, lo2, hi2;
    assert_int_equal(mp_rc_boot_slope(n, cp, NP, MP_RC_BOOT, &lo, &hi), 0);
    assert_float_equal(lo, 30, 1e-9);
    assert_float_equal(hi, 30, 1e-9);
    cells[2].nrep = 1;
    assert_int_equal(mp_rc_boot_slope(n, cp, NP, MP_RC_BOOT, &lo, &hi), -22);
    cells[2].nrep = REPS;
    unsigned long long st = 99;
    int cover = 0;
    for (int run = 0; run < RUNS; run++) {
        for (int i = 0; i < NP; i++)
            for (int k = 0; k < REPS; k++)
                cells[i].rep[k] = (400 + 30 * n[i]) * (1 + 0.02 * normal01(&st));
        assert_int_equal(mp_rc_boot_slope(n, cp, NP, 500, &lo, &hi), 0);
        assert_int_equal(mp_rc_boot_slope(n, cp, NP, 500, &lo2, &hi2), 0);
        assert_true(lo == lo2 && hi == hi2);   /* the same cells, the same interval */
        cover += lo <= 30 && 30 <= hi;
    }
    print_message("slope bootstrap over repeats covers the true slope in %d of %d runs\n",
                  cover, RUNS);
    assert_true(cover >= RUNS * 90 / 100);
    /* log-log: y = N^1.5 between N = 1,000 and 4,000, repeats ±1% */
    for (int k = 0; k < REPS; k++) {
        cells[0].rep[k] = pow(1000, 1.5) * (1 + 0.01 * (k - 4) / 4);
        cells[1].rep[k] = pow(4000, 1.5) * (1 + 0.01 * ((k + 3) % REPS - 4) / 4);
    }
    assert_int_equal(mp_rc_loglog_ci(&cells[0], 1000, &cells[1], 4000, MP_CI_LEVEL, &lo, &hi), 0);
    assert_true(lo < 1.5 && 1.5 < hi && hi - lo < 0.02);
    assert_int_equal(mp_rc_side(lo, hi, 1.2), MP_RC_ABOVE);
    assert_int_equal(mp_rc_side(lo, hi, 1.5), MP_RC_STRADDLES);
    assert_int_equal(mp_rc_side(lo, hi, 2), MP_RC_BELOW);
    assert_int_equal(mp_rc_side(NAN, hi, 2), MP_RC_NO_CI);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fit_exact_line),
        cmocka_unit_test(slope_intervals_over_repeats),
        cmocka_unit_test(fit_flat_and_noisy),
        cmocka_unit_test(fit_relative_weighs_n_alike),
        cmocka_unit_test(fit_stops_holding),
        cmocka_unit_test(crossing_loglog),
        cmocka_unit_test(knees_found_where_built),
        cmocka_unit_test(abi_bytes_and_lines),
        cmocka_unit_test(cache_crossings),
        cmocka_unit_test(crossing_of_two_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
