/* SPDX-License-Identifier: MIT */
/* test_pmu_pack.c - grouping into passes within the counter budget, on a
 * synthetic plan (no PMU needed): fixed counters used first, the NMI
 * watchdog's counter left free, software and other-PMU groups in pass 0,
 * every available event placed exactly once, unavailable ones nowhere. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_pmu_util.h"

static void add(mp_pmu_plan *pl, const char *name, enum mp__kind kind, int fixed,
                uint32_t type, int available)
{
    mp__event *ev = &pl->ev[pl->nev++];
    memset(ev, 0, sizeof *ev);
    snprintf(ev->name, sizeof ev->name, "%s", name);
    snprintf(ev->spec, sizeof ev->spec, "%s", name);
    ev->kind = kind;
    ev->fixed = fixed;
    ev->attr.type = type;
    ev->available = available;
    ev->pass = ev->group = -1;
}

static void check_placement(const mp_pmu_plan *pl)
{
    unsigned seen[MP__MAX_EVENTS] = {0};
    for (unsigned p = 0; p < pl->npasses; p++)
        for (unsigned g = 0; g < pl->pass[p].ngroups; g++)
            for (unsigned k = 0; k < pl->pass[p].g[g].nev; k++) {
                unsigned i = pl->pass[p].g[g].ev[k];
                seen[i]++;
                assert_int_equal(pl->ev[i].pass, (int)p);
                assert_int_equal(pl->ev[i].group, (int)g);
                if (k > 0 && pl->pass[p].g[g].kind != MP__KIND_CORE) /* one PMU per group */
                    assert_int_equal(pl->ev[i].attr.type,
                                     pl->ev[pl->pass[p].g[g].ev[0]].attr.type);
            }
    for (unsigned i = 0; i < pl->nev; i++) {
        if (seen[i] != (pl->ev[i].available ? 1u : 0u))
            fail_msg("event %s placed %u times (available %d)", pl->ev[i].name, seen[i],
                     pl->ev[i].available);
    }
}

static void intel_like_with_watchdog(void **state)
{
    mp_pmu_plan *pl = calloc(1, sizeof *pl);
    mp_err err;
    unsigned core_in_pass[MP__MAX_PASSES] = {0};
    (void)state;
    snprintf(pl->model, sizeof pl->model, "test");
    pl->budget_general = 4;
    pl->budget_fixed = 3;
    pl->host.nmi_watchdog = 1; /* leaves 3 general counters */
    add(pl, "cycles", MP__KIND_CORE, 1, 0, 1);
    add(pl, "instructions", MP__KIND_CORE, 1, 0, 1);
    for (int i = 0; i < 6; i++) {
        char n[16];
        snprintf(n, sizeof n, "raw%d", i);
        add(pl, n, MP__KIND_CORE, 0, 4, 1);
    }
    add(pl, "gone", MP__KIND_CORE, 0, 4, 0);
    add(pl, "task-clock", MP__KIND_SOFTWARE, 0, 1, 1);
    add(pl, "page-faults", MP__KIND_SOFTWARE, 0, 1, 1);
    add(pl, "msr/tsc/", MP__KIND_OTHER, 0, 9, 1);
    assert_int_equal(mp__plan_pack(pl, &err), 0);
    /* pass 0: software + msr groups; pass 1: 2 fixed + 3 general; pass 2: 3 general */
    assert_int_equal(pl->npasses, 3);
    assert_int_equal(pl->pass[0].ngroups, 2);
    check_placement(pl);
    for (unsigned i = 0; i < pl->nev; i++)
        if (pl->ev[i].available && pl->ev[i].kind == MP__KIND_CORE)
            core_in_pass[pl->ev[i].pass]++;
    assert_int_equal(core_in_pass[0], 0);
    assert_int_equal(core_in_pass[1], 5);
    assert_int_equal(core_in_pass[2], 3);
    assert_int_equal(tp_find(pl, "cycles")->pass, 1);
    assert_int_equal(tp_find(pl, "gone")->pass, -1);
    assert_non_null(strstr(pl->budget_note, "NMI watchdog"));
    free(pl);
}

static void amd_like_no_fixed(void **state)
{
    mp_pmu_plan *pl = calloc(1, sizeof *pl);
    mp_err err;
    (void)state;
    snprintf(pl->model, sizeof pl->model, "test");
    pl->budget_general = 6;
    pl->budget_fixed = 0;
    for (int i = 0; i < 13; i++) {
        char n[16];
        snprintf(n, sizeof n, "ev%d", i);
        add(pl, n, MP__KIND_CORE, i < 2, 4, 1);
    }
    assert_int_equal(mp__plan_pack(pl, &err), 0);
    assert_int_equal(pl->npasses, 3); /* 6 + 6 + 1, no software pass */
    assert_int_equal(pl->pass[0].g[0].nev, 6);
    assert_int_equal(pl->pass[2].g[0].nev, 1);
    check_placement(pl);
    free(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intel_like_with_watchdog),
        cmocka_unit_test(amd_like_no_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
