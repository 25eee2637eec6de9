/* SPDX-License-Identifier: MIT */
/* test_bench_overhead.c - bench/overhead.h, the harness-overhead statistic
 * of bench_sweep: from the repeats, not from means.  A cell whose per-call
 * mean a few interrupts blew up (mean / bare-loop mean 4.6, the old check's
 * MISSED) is met when every repeat median sits near the bare loop; a cell
 * whose repeat ratios straddle the band is not resolved; one wholly above
 * it is missed; and too few repeats give no statistic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>

#include "../bench/overhead.h"

static cJSON *cell(const char *repeats, double bare, double mean, double bare_mean)
{
    char buf[512];
    snprintf(buf, sizeof buf, "{\"bare_loop_ns\": %g, \"bare_loop_mean_ns\": %g,"
             " \"repeat_medians_ns\": %s, \"metrics\": {\"wall_ns\": {\"mean\": %g}}}",
             bare, bare_mean, repeats, mean);
    cJSON *c = cJSON_Parse(buf);
    assert_non_null(c);
    return c;
}

static void verdicts(void **state)
{
    (void)state;
    mp_overhead o;
    /* per-call mean 2,000 ns against a bare-loop mean of 430: 4.6 by means */
    cJSON *c = cell("[431, 433, 428, 440, 436, 429, 432, 438, 435]", 430, 2000, 430);
    assert_int_equal(mp_overhead_of(c, &o), 0);
    assert_int_equal(o.repeats, 9);
    assert_true(o.ratio > 1.0 && o.ratio < 1.02);
    assert_true(o.lo <= o.ratio && o.ratio <= o.hi);
    assert_int_equal(mp_overhead_verdict(&o, 0.85, 1.15), MP_OVERHEAD_MET);
    cJSON_Delete(c);

    c = cell("[400, 450, 480, 500, 520, 540, 470, 530, 510]", 430, 480, 430);
    assert_int_equal(mp_overhead_of(c, &o), 0);
    assert_int_equal(mp_overhead_verdict(&o, 0.85, 1.15), MP_OVERHEAD_UNRESOLVED);
    cJSON_Delete(c);

    c = cell("[600, 610, 620, 605, 615, 625, 630, 612, 618]", 430, 615, 430);
    assert_int_equal(mp_overhead_of(c, &o), 0);
    assert_int_equal(mp_overhead_verdict(&o, 0.85, 1.15), MP_OVERHEAD_MISSED);
    cJSON_Delete(c);

    c = cell("[431, null]", 430, 431, 430);
    assert_int_equal(mp_overhead_of(c, &o), -EINVAL);
    cJSON_Delete(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(verdicts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
