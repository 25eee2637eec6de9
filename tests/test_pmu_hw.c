/* SPDX-License-Identifier: MIT */
/* test_pmu_hw.c - hardware counters for real: cycles and instructions of a
 * known loop through the preset "minimal", per read path (the mmap/rdpmc
 * path and read()).  Needs a CPU PMU: skips (77) and says why without one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_pmu_util.h"

static void count_loop(const char *path_env)
{
    mp_pmu_plan *pl;
    mp_pmu_pass *p;
    mp_pmu_snap a, b;
    int64_t d[MP_PMU_MAX_COUNTERS];
    mp_err err;
    const mp__event *ev;
    volatile unsigned long sink = 0;
    if (path_env) setenv("MUXPROF_PMU_READ", path_env, 1);
    else unsetenv("MUXPROF_PMU_READ");
    if (mp_pmu_plan_new(&pl, "minimal", &err)) fail_msg("plan: %s", err.msg);
    ev = tp_find(pl, "instructions");
    if (!ev || !ev->available) {
        printf("SKIP: instructions did not open: %s\n", ev ? ev->reason : "not in plan");
        exit(77);
    }
    if (mp_pmu_pass_open(&p, pl, (unsigned)ev->pass, &err)) fail_msg("open: %s", err.msg);
    print_message("read path: %s\n", mp_pmu_pass_read_path(p));
    if (path_env) assert_string_equal(mp_pmu_pass_read_path(p), "read");
    assert_int_equal(mp_pmu_pass_read(p, &a), 0);
    for (unsigned long i = 0; i < 1000000; i++) sink += i;
    assert_int_equal(mp_pmu_pass_read(p, &b), 0);
    if (mp_pmu_pass_delta(p, &a, &b, d) == 0) {
        for (unsigned i = 0; i < mp_pmu_pass_count(p); i++) {
            print_message("%s: %lld\n", mp_pmu_pass_name(p, i), (long long)d[i]);
            if (!strcmp(mp_pmu_pass_name(p, i), "instructions") && d[i] < 1000000)
                fail_msg("instructions %lld for a 1e6-iteration loop", (long long)d[i]);
        }
    }
    mp_pmu_pass_close(p);
    mp_pmu_plan_free(pl);
}

/* Groups of 2 .. 12 instruction counters, one group per pass: a group
 * larger than the counters either does not open or opens and never runs;
 * whichever, a delta it gives is refused, and an accepted delta counted. */
static void oversized_group(void **state)
{
    mp_pmu_plan *pl;
    mp_err err;
    (void)state;
    unsetenv("MUXPROF_PMU_READ");
    if (mp_pmu_plan_new(&pl, "instructions", &err)) fail_msg("plan: %s", err.msg);
    const mp__event *ins = tp_find(pl, "instructions");
    if (!ins || !ins->available) {
        mp_pmu_plan_free(pl);
        skip();
    }
    mp__event one = *ins;
    int refused_any = 0;
    for (unsigned n = 2; n <= 12; n++) {
        mp_pmu_pass *p;
        mp_pmu_snap a, b;
        int64_t d[MP_PMU_MAX_COUNTERS];
        volatile unsigned long sink = 0;
        pl->nev = n;
        for (unsigned k = 0; k < n; k++) {
            pl->ev[k] = one;
            snprintf(pl->ev[k].name, sizeof pl->ev[k].name, "instructions-%u", k);
            pl->ev[k].pass = 0;
            pl->ev[k].group = 0;
            pl->pass[0].g[0].ev[k] = k;
        }
        pl->npasses = 1;
        pl->pass[0].ngroups = 1;
        pl->pass[0].g[0].nev = n;
        pl->pass[0].g[0].kind = MP__KIND_CORE;
        if (mp_pmu_pass_open(&p, pl, 0, &err)) {
            print_message("group of %u: does not open (%s)\n", n, err.msg);
            continue;
        }
        int ra = mp_pmu_pass_read(p, &a);
        for (unsigned long i = 0; i < 1000000; i++) sink += i;
        int rb = mp_pmu_pass_read(p, &b);
        int refused = mp_pmu_pass_delta(p, &a, &b, d);
        print_message("group of %u: opened, read %d/%d, running %llu of %llu ns: %s\n", n, ra,
                      rb, (unsigned long long)(b.running_ns[0] - a.running_ns[0]),
                      (unsigned long long)(b.enabled_ns[0] - a.enabled_ns[0]),
                      refused ? "refused" : "kept");
        if (!refused)
            for (unsigned k = 0; k < n; k++)
                if (d[k] < 1000000)
                    fail_msg("group of %u kept with %s = %lld for a 1e6-iteration loop", n,
                             mp_pmu_pass_name(p, k), (long long)d[k]);
        refused_any |= refused;
        mp_pmu_pass_close(p);
    }
    print_message("%s\n", refused_any ? "an oversized group opened and was refused"
                                       : "no group that opened was refused");
    mp_pmu_plan_free(pl);
}

static void user_read_path(void **state) { (void)state; count_loop(NULL); }
static void syscall_read_path(void **state) { (void)state; count_loop("read"); }

int main(void)
{
    mp_pmu_host h;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(user_read_path),
        cmocka_unit_test(syscall_read_path),
        cmocka_unit_test(oversized_group),
    };
    mp_pmu_host_probe(&h);
    if (!h.core_pmu)
        tp_skip("no CPU PMU in /sys/bus/event_source/devices (a VM without a virtual "
                "PMU?): hardware counting cannot be tested here");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
