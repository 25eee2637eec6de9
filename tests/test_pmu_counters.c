/* SPDX-License-Identifier: MIT */
/* test_pmu_counters.c - plan, group open, group read and per-call deltas
 * with the software events every host has; multiplex refusal with
 * synthetic snapshots; spec errors (MP_EUSAGE); `--events cache` on a host
 * without a PMU still measures the software counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_pmu_util.h"

static int find_idx(const mp_pmu_pass *p, const char *name)
{
    for (unsigned i = 0; i < mp_pmu_pass_count(p); i++)
        if (!strcmp(mp_pmu_pass_name(p, i), name)) return (int)i;
    return -1;
}

static void software_deltas(void **state)
{
    mp_pmu_plan *pl;
    mp_pmu_pass *p;
    mp_pmu_snap a, b;
    int64_t d[MP_PMU_MAX_COUNTERS];
    mp_err err;
    volatile unsigned long sink = 0;
    int tc, pf, cs;
    (void)state;

    assert_int_equal(mp_pmu_plan_new(&pl, "software", &err), 0);
    assert_int_equal(mp_pmu_plan_passes(pl), 1);
    if (mp_pmu_pass_open(&p, pl, 0, &err)) fail_msg("pass_open: %s", err.msg);
    assert_int_equal(mp_pmu_pass_count(p), 4);
    assert_string_equal(mp_pmu_pass_read_path(p), "read");
    tc = find_idx(p, "task-clock");
    pf = find_idx(p, "page-faults");
    cs = find_idx(p, "context-switches");
    assert_true(tc >= 0 && pf >= 0 && cs >= 0);

    assert_int_equal(mp_pmu_pass_read(p, &a), 0);
    {
        /* Work to count: 4 fresh pages (4 faults) and a short spin. */
        long ps = sysconf(_SC_PAGESIZE);
        char *m = mmap(NULL, (size_t)ps * 4, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(m != MAP_FAILED);
        for (int i = 0; i < 4; i++) m[(long)i * ps] = 1;
        for (unsigned long i = 0; i < 200000; i++) sink += i;
        munmap(m, (size_t)ps * 4);
    }
    assert_int_equal(mp_pmu_pass_read(p, &b), 0);
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 0);
    print_message("task-clock %lld ns, page-faults %lld, context-switches %lld\n",
                  (long long)d[tc], (long long)d[pf], (long long)d[cs]);
    if (d[tc] <= 0) fail_msg("task-clock delta %lld, want > 0", (long long)d[tc]);
    if (d[pf] < 4) fail_msg("page-faults delta %lld, want >= 4", (long long)d[pf]);
    if (d[cs] < 0) fail_msg("context-switches delta %lld, want >= 0", (long long)d[cs]);

    /* An empty bracket: task-clock small, no faults. */
    assert_int_equal(mp_pmu_pass_read(p, &a), 0);
    assert_int_equal(mp_pmu_pass_read(p, &b), 0);
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 0);
    if (d[pf] != 0) fail_msg("empty bracket: page-faults %lld, want 0", (long long)d[pf]);
    mp_pmu_pass_close(p);
    mp_pmu_plan_free(pl);
}

static void multiplex_refused(void **state)
{
    mp_pmu_plan *pl;
    mp_pmu_pass *p;
    mp_pmu_snap a, b;
    int64_t d[MP_PMU_MAX_COUNTERS];
    mp_err err;
    (void)state;
    assert_int_equal(mp_pmu_plan_new(&pl, "software", &err), 0);
    if (mp_pmu_pass_open(&p, pl, 0, &err)) fail_msg("pass_open: %s", err.msg);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    for (unsigned i = 0; i < MP_PMU_MAX_COUNTERS; i++) { a.value[i] = 10; b.value[i] = 25; }
    a.ok = b.ok = 1;
    a.enabled_ns[0] = 1000; a.running_ns[0] = 1000;
    b.enabled_ns[0] = 2000; b.running_ns[0] = 2000;
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 0);
    assert_int_equal(d[0], 15);
    /* Ran 600 of 1000 ns: multiplexed, must be refused, never scaled. */
    b.running_ns[0] = 1600;
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 1);
    assert_int_equal(d[0], 15);
    /* Not running at all. */
    b.running_ns[0] = 1000;
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 1);
    /* Already behind before the interval, fully running during it: kept. */
    a.running_ns[0] = 500; b.running_ns[0] = 1500;
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 0);
    /* A window in which the group was never on the counters, not even
     * enabled time passing (an oversized group): no count, refused. */
    b.enabled_ns[0] = a.enabled_ns[0]; b.running_ns[0] = a.running_ns[0];
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 1);
    /* A snapshot that was not read whole (read() failed: group in error). */
    b.enabled_ns[0] = 2000; b.running_ns[0] = 1500;
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 0);
    b.ok = 0;
    assert_int_equal(mp_pmu_pass_delta(p, &a, &b, d), 1);
    mp_pmu_pass_close(p);
    mp_pmu_plan_free(pl);
}

static void cache_without_pmu(void **state)
{
    mp_pmu_plan *pl;
    mp_err err;
    mp_pmu_plan_info info;
    mp_pmu_event_info e;
    int sw = 0, hw_unavail = 0;
    (void)state;
    assert_int_equal(mp_pmu_plan_new(&pl, "cache", &err), 0);
    assert_true(mp_pmu_plan_passes(pl) >= 1);
    mp_pmu_plan_describe(pl, &info);
    assert_string_equal(info.preset, "cache");
    assert_true(info.planned);
    for (unsigned i = 0; i < info.nevents; i++) {
        mp_pmu_plan_event(pl, i, &e);
        if (!strcmp(e.name, "task-clock") || !strcmp(e.name, "page-faults") ||
            !strcmp(e.name, "context-switches") || !strcmp(e.name, "cpu-migrations")) {
            assert_true(e.opened);
            sw++;
        } else if (!pl->host.core_pmu) {
            assert_false(e.opened);
            assert_true(strlen(e.reason) > 10);
            if (strstr(e.reason, "no hardware PMU")) hw_unavail++;
        }
    }
    assert_int_equal(sw, 4);
    if (!pl->host.core_pmu) {
        assert_true(hw_unavail >= 2);
        assert_int_equal(mp_pmu_plan_passes(pl), 1);
    }
    mp_pmu_plan_free(pl);
}

static void none_and_scope(void **state)
{
    mp_pmu_plan *pl;
    mp_err err;
    (void)state;
    assert_int_equal(mp_pmu_plan_new(&pl, "none", &err), 0);
    assert_int_equal(mp_pmu_plan_passes(pl), 0);
    assert_string_equal(mp_pmu_plan_scope(pl), "none");
    mp_pmu_plan_free(pl);

    assert_int_equal(mp_pmu_plan_new(&pl, "software", &err), 0);
    /* Root or paranoid <= 1: user+kernel; otherwise user, and the JSON says so. */
    if (pl->host.cap_perfmon || pl->host.paranoid <= 1)
        assert_string_equal(mp_pmu_plan_scope(pl), "user+kernel");
    else
        assert_string_equal(mp_pmu_plan_scope(pl), "user");
    mp_pmu_plan_free(pl);

    /* Explicit modifiers are kept per event. */
    assert_int_equal(mp_pmu_plan_new(&pl, "page-faults:u,cycles:k", &err), 0);
    assert_int_equal(tp_find(pl, "page-faults:u")->attr.exclude_kernel, 1);
    assert_int_equal(tp_find(pl, "page-faults:u")->attr.exclude_user, 0);
    assert_int_equal(tp_find(pl, "cycles:k")->attr.exclude_user, 1);
    mp_pmu_plan_free(pl);
}

static void bad_specs(void **state)
{
    static const char *bad[] = {
        "foo", "cachee", "", ",", "cycles,,instructions", "cycles:x", "cycles:",
        "msr/", "/tsc/", "msr/tsc/q", "none,cycles", "cycles:uq",
        "cycles;rm", "amd64_fam19h_zen3::NO_SUCH_EVENT",
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mp_pmu_plan *pl = NULL;
        mp_err err;
        int r;
        mp_err_clear(&err);
        r = mp_pmu_plan_new(&pl, bad[i], &err);
        if (!strcmp(bad[i], "amd64_fam19h_zen3::NO_SUCH_EVENT") && !r) {
            /* Not this host's PMU: recorded unavailable instead. */
            assert_int_equal(tp_find(pl, bad[i])->available, 0);
            mp_pmu_plan_free(pl);
            continue;
        }
        if (r != MP_EUSAGE) fail_msg("spec '%s': got %d (%s), want MP_EUSAGE", bad[i], r, err.msg);
        if (!err.msg[0]) fail_msg("spec '%s': no message", bad[i]);
        print_message("'%s' -> %s\n", bad[i], err.msg);
        assert_null(pl);
    }
}

static void host_cannot_count(void **state)
{
    mp_pmu_plan *pl;
    mp_err err;
    const mp__event *ev;
    (void)state;
    /* Events of PMUs this host lacks are not errors: unavailable, with why. */
    assert_int_equal(mp_pmu_plan_new(&pl, "arm_n1::L2D_CACHE_REFILL,nosuchpmu/ev/,"
                                          "skl::L2_RQSTS:MISS", &err), 0);
    ev = tp_find(pl, "arm_n1::L2D_CACHE_REFILL");
    assert_non_null(ev);
    if (!ev->available) assert_non_null(strstr(ev->reason, "arm_n1"));
    ev = tp_find(pl, "nosuchpmu/ev/");
    assert_int_equal(ev->available, 0);
    assert_non_null(strstr(ev->reason, "no PMU named 'nosuchpmu'"));
    ev = tp_find(pl, "skl::L2_RQSTS:MISS");
    assert_non_null(ev);
    mp_pmu_plan_free(pl);
}

/* Without privilege (paranoid >= 2, no capability) the scope drops to user
 * and the plan says so loudly.  Needs root to become nobody in a child. */
static void user_only_when_refused(void **state)
{
    mp_pmu_host h;
    pid_t pid;
    int st = 0;
    (void)state;
    mp_pmu_host_probe(&h);
    if (geteuid() != 0 || h.paranoid < 2) {
        print_message("skipped: needs root and perf_event_paranoid >= 2 (have uid %u, "
                      "paranoid %d)\n", (unsigned)geteuid(), h.paranoid);
        return;
    }
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        mp_pmu_plan *pl;
        mp_err err;
        mp_pmu_plan_info info;
        const char *note;
        if (setgid(65534) || setuid(65534)) _exit(10);
        if (mp_pmu_plan_new(&pl, "software", &err)) _exit(11);
        if (strcmp(mp_pmu_plan_scope(pl), "user")) _exit(12);
        mp_pmu_plan_describe(pl, &info);
        note = info.scope_note;
        if (!strstr(note, "USER-ONLY") || !strstr(note, "perf_event_paranoid")) _exit(13);
        if (!tp_find(pl, "task-clock")->attr.exclude_kernel) _exit(14);
        if (mp_pmu_plan_passes(pl) != 1) _exit(15);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st)) fail_msg("unprivileged child: check %d failed", WEXITSTATUS(st));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(software_deltas),
        cmocka_unit_test(multiplex_refused),
        cmocka_unit_test(cache_without_pmu),
        cmocka_unit_test(none_and_scope),
        cmocka_unit_test(bad_specs),
        cmocka_unit_test(host_cannot_count),
        cmocka_unit_test(user_only_when_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
