/* SPDX-License-Identifier: MIT */
/* test_pmu_armv8.c - the architected ARMv8 common events through the sysfs
 * PMU (armv8_pmuv3*, the first PMU named so), against a fake sysfs tree
 * (tests/fixtures/sysfs_arm): an event the PMU lists in events/ (its
 * PMCEID bitmap) encodes with the PMU's type and is labelled architected;
 * one it does not list is unavailable with that reason. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pmu/internal.h"

static void encode(mp__event *ev, const char *spec)
{
    mp_err err;
    memset(ev, 0, sizeof *ev);
    if (mp__encode(ev, spec, &err)) fail_msg("%s: %s", spec, err.msg);
}

static void listed_event_opens(void **state)
{
    mp__event ev;
    (void)state;
    encode(&ev, "armv8_pmuv3*/event=0x03/");
    assert_int_equal(ev.available, 1);
    assert_string_equal(ev.pmu, "armv8_pmuv3_0");
    assert_int_equal(ev.attr.type, 8);
    assert_int_equal(ev.attr.config, 0x03);
    assert_int_equal(ev.kind, MP__KIND_CORE);
    assert_non_null(strstr(ev.encoding, "architected ARMv8 common event 0x03 L1D_CACHE_REFILL"));
}

static void unlisted_event_refused(void **state)
{
    mp__event ev;
    (void)state;
    encode(&ev, "armv8_pmuv3*/event=0x17/");
    assert_int_equal(ev.available, 0);
    assert_non_null(strstr(ev.reason, "does not implement common event 0x17 L2D_CACHE_REFILL"));
    assert_non_null(strstr(ev.reason, "PMCEID"));
}

static void no_such_pmu(void **state)
{
    mp__event ev;
    (void)state;
    encode(&ev, "armv9_nothing*/event=0x03/");
    assert_int_equal(ev.available, 0);
    assert_non_null(strstr(ev.reason, "no PMU named armv9_nothing*"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(listed_event_opens),
        cmocka_unit_test(unlisted_event_refused),
        cmocka_unit_test(no_such_pmu),
    };
    setenv("MUXPROF_SYSFS_PMUS", MP_TEST_FIXTURES "/sysfs_arm", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
