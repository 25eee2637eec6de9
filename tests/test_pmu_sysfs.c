/* SPDX-License-Identifier: MIT */
/* test_pmu_sysfs.c - a non-software PMU through the sysfs pmu/event/ path:
 * msr/tsc/ (type from /sys/bus/event_source/devices/msr/type, terms from
 * its events/ and format/ files) counts something nonzero per task, read
 * through a pass like any counter.  Skips (77) where no msr PMU exists. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <unistd.h>

#include "test_pmu_util.h"

static void msr_tsc_counts(void **state)
{
    mp_pmu_plan *pl;
    mp_pmu_pass *p;
    mp_pmu_snap a, b;
    int64_t d[MP_PMU_MAX_COUNTERS];
    mp_err err;
    const mp__event *ev;
    FILE *f;
    unsigned type = 0;
    int idx = -1;
    volatile unsigned long sink = 0;
    (void)state;

    f = fopen("/sys/bus/event_source/devices/msr/type", "r");
    if (!f) tp_skip("no msr PMU in /sys/bus/event_source/devices on this host");
    if (fscanf(f, "%u", &type) != 1) type = 0;
    fclose(f);

    if (mp_pmu_plan_new(&pl, "msr/tsc/", &err)) fail_msg("plan: %s", err.msg);
    ev = tp_find(pl, "msr/tsc/");
    assert_non_null(ev);
    assert_int_equal(ev->attr.type, type);
    assert_int_equal(ev->attr.config, 0); /* events/tsc is event=0x00 */
    if (!ev->available) {
        printf("SKIP: msr/tsc/ did not open: %s\n", ev->reason);
        mp_pmu_plan_free(pl);
        exit(77);
    }
    assert_int_equal(ev->pass, 0);
    if (mp_pmu_pass_open(&p, pl, (unsigned)ev->pass, &err)) fail_msg("open: %s", err.msg);
    for (unsigned i = 0; i < mp_pmu_pass_count(p); i++)
        if (!strcmp(mp_pmu_pass_name(p, i), "msr/tsc/")) idx = (int)i;
    assert_true(idx >= 0);
    assert_int_equal(mp_pmu_pass_read(p, &a), 0);
    for (unsigned long i = 0; i < 100000; i++) sink += i;
    assert_int_equal(mp_pmu_pass_read(p, &b), 0);
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 0);
    print_message("msr/tsc/ delta over a short loop: %lld\n", (long long)d[idx]);
    if (d[idx] <= 0) fail_msg("msr/tsc/ delta %lld, want > 0", (long long)d[idx]);
    mp_pmu_pass_close(p);
    mp_pmu_plan_free(pl);
}

static void sysfs_terms(void **state)
{
    mp_pmu_plan *pl;
    mp_err err;
    const mp__event *ev;
    (void)state;
    if (access("/sys/bus/event_source/devices/msr/format/event", R_OK))
        tp_skip("no msr PMU format files on this host");
    /* A term list: event=0x1 lands in config bits 0-63 per format/event. */
    if (mp_pmu_plan_new(&pl, "msr/event=0x1/u", &err)) fail_msg("plan: %s", err.msg);
    ev = tp_find(pl, "msr/event=0x1/u");
    assert_int_equal(ev->attr.config, 1);
    assert_int_equal(ev->attr.exclude_kernel, 1);
    mp_pmu_plan_free(pl);
    /* A direct config term, and an event the PMU lacks (unavailable, not usage). */
    if (mp_pmu_plan_new(&pl, "msr/config=0x2/,msr/nosuch/", &err)) fail_msg("plan: %s", err.msg);
    assert_int_equal(tp_find(pl, "msr/config=0x2/")->attr.config, 2);
    assert_int_equal(tp_find(pl, "msr/nosuch/")->available, 0);
    mp_pmu_plan_free(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sysfs_terms),
        cmocka_unit_test(msr_tsc_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
