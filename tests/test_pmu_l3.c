/* SPDX-License-Identifier: MIT */
/* test_pmu_l3.c - CPU-wide (uncore) events narrowed to the measured thread:
 * AMD's amd_l3 PMU filtered to the waiter's core, against fake sysfs trees
 * (tests/fixtures/sysfs_amd: family 19h and 17h format fields, a kernel
 * without them, and CPU topology), cross-checked with libpfm4's
 * amd64_fam19h_zen3_l3 table; CPU-wide passes packed apart from per-thread
 * groups; and the CPU-wide open and read() path run for real through the
 * kernel with the msr PMU given a cpumask in a fake tree.
 * argv[1]: the fixture directory tests/fixtures/sysfs_amd. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfmon/pfmlib.h>

#include "test_pmu_util.h"

#define SCOPE "L3 of the CCX, filtered to the waiter's core"

static const char *fixtures;

static void use_tree(const char *pmus)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", fixtures, pmus);
    setenv("MUXPROF_SYSFS_PMUS", p, 1);
    snprintf(p, sizeof p, "%s/cpu", fixtures);
    setenv("MUXPROF_SYSFS_CPUS", p, 1);
}

static void encode(mp__event *ev, const char *spec)
{
    mp_err err;
    memset(ev, 0, sizeof *ev);
    ev->available = 1;
    if (mp__encode(ev, spec, &err)) fail_msg("%s: %s", spec, err.msg);
    ev->cpu_wide = mp_pmu_pmu_is_cpu_wide(NULL, ev->pmu);
    assert_int_equal(ev->cpu_wide, 1);
    mp__cpu_wide_classify(ev);
}

static uint64_t filtered(const mp__event *ev, int cpu)
{
    struct perf_event_attr a;
    char why[400] = "";
    if (mp__cpu_wide_attr(ev, cpu, &a, why, sizeof why)) fail_msg("cpu %d: %s", cpu, why);
    return a.config;
}

/* Family 19h: coreid = the core's place in its CCX, both threads of it,
 * every slice, enallcores cleared (also when the user set it). */
static void zen3_core_filter(void **state)
{
    mp__event ev;
    (void)state;
    use_tree("zen3");
    encode(&ev, "amd_l3/event=0x04,umask=0x01/");
    assert_int_equal(ev.available, 1);
    assert_int_equal(ev.cpu_filter, MP__FILTER_L3_COREID);
    assert_string_equal(ev.cpu_scope, SCOPE);
    assert_int_equal(ev.attr.config, 0x104);
    /* cpu 11 is core 11: the fourth core (3) of the second CCX. */
    assert_int_equal(filtered(&ev, 11),
                     0x104 | 3ull << 42 | 1ull << 46 | 0ull << 47 | 3ull << 56);
    /* cpu 21, an SMT sibling of core 5. */
    assert_int_equal(filtered(&ev, 21), 0x104 | 5ull << 42 | 1ull << 46 | 3ull << 56);
    encode(&ev, "amd_l3/event=0x04,umask=0xff,enallcores=1,sliceid=2/");
    assert_int_equal(filtered(&ev, 0), 0xff04 | 1ull << 46 | 3ull << 56);
}

/* Family 17h: an 8-bit threadmask, two bits per core, and every slice. */
static void zen2_thread_mask(void **state)
{
    mp__event ev;
    (void)state;
    use_tree("zen2");
    encode(&ev, "amd_l3/event=0x06,umask=0x01/");
    assert_int_equal(ev.available, 1);
    assert_int_equal(ev.cpu_filter, MP__FILTER_L3_MASK8);
    assert_string_equal(ev.cpu_scope, SCOPE);
    /* cpu 6 is core 6: the third core (2) of its four-core CCX. */
    assert_int_equal(filtered(&ev, 6), 0x106 | 0xfull << 48 | 0x30ull << 56);
    assert_int_equal(filtered(&ev, 0), 0x106 | 0xfull << 48 | 0x03ull << 56);
}

/* Without filter fields the event would count the whole CCX: not opened. */
static void no_filter_refused(void **state)
{
    mp__event ev;
    (void)state;
    use_tree("nofilter");
    encode(&ev, "amd_l3/event=0x04,umask=0x01/");
    assert_int_equal(ev.available, 0);
    assert_non_null(strstr(ev.reason, "no core filter"));
    assert_non_null(strstr(ev.reason, "every core of the CCX"));
}

static void unknown_cpu(void **state)
{
    mp__event ev;
    struct perf_event_attr a;
    char why[400] = "";
    (void)state;
    use_tree("zen3");
    encode(&ev, "amd_l3/event=0x04,umask=0x01/");
    assert_int_equal(mp__cpu_wide_attr(&ev, 99, &a, why, sizeof why), -1);
    assert_non_null(strstr(why, "cpu99/topology/core_id"));
}

/* The zen3 preset under a forced Zen 3 core: L3 rows are CPU-wide amd_l3
 * events with their scope, LLC rows point at them. */
static void preset_rows(void **state)
{
    mp_pmu_plan *pl;
    mp_err err;
    const mp__event *acc, *miss, *llc;
    mp_pmu_plan_info info;
    mp_pmu_event_info e;
    int seen = 0;
    (void)state;
#if !defined(__x86_64__)
    skip();   /* the AMD models are forced only in an x86 build of libpfm4 */
#endif
    use_tree("zen3");
    if (mp_pmu_plan_new(&pl, "cache", &err)) fail_msg("plan: %s", err.msg);
    assert_string_equal(pl->model, "amd_zen3");
    acc = tp_find(pl, "L3-accesses");
    miss = tp_find(pl, "L3-misses");
    llc = tp_find(pl, "LLC-load-misses");
    assert_non_null(acc);
    assert_non_null(miss);
    assert_non_null(llc);
    assert_int_equal(acc->attr.type, 11);
    assert_int_equal(acc->attr.config, 0xff04);
    assert_int_equal(miss->attr.config, 0x104);
    assert_int_equal(acc->cpu_wide, 1);
    assert_int_equal(miss->cpu_wide, 1);
    assert_string_equal(miss->cpu_scope, SCOPE);
    assert_int_equal(llc->available, 0);
    assert_non_null(strstr(llc->reason, "see L3-misses"));
    mp_pmu_plan_describe(pl, &info);
    for (unsigned i = 0; i < info.nevents; i++) {
        mp_pmu_plan_event(pl, i, &e);
        if (strncmp(e.name, "L3-", 3)) continue;
        seen++;
        assert_true(e.cpu_wide);
        assert_string_equal(e.cpu_scope, SCOPE);
    }
    assert_int_equal(seen, 2);
    mp_pmu_plan_free(pl);
}

/* libpfm4's own table agrees on the accesses encoding, and its
 * UNC_L3_MISSES is the unfilterable 0x9a, which the preset must not use.
 * In a child: libpfm4 takes one forced PMU per process. */
static void libpfm_agrees(void **state)
{
    int fd[2];
    pid_t pid;
    uint64_t codes[2] = {0, 0};
    (void)state;
#if !defined(__x86_64__)
    skip();
#endif
    assert_int_equal(pipe(fd), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char *ev[2] = {"amd64_fam19h_zen3_l3::UNC_L3_REQUESTS",
                             "amd64_fam19h_zen3_l3::UNC_L3_MISSES"};
        uint64_t out[2] = {0, 0};
        setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3_l3", 1);
        if (pfm_initialize() != PFM_SUCCESS) _exit(3);
        for (int i = 0; i < 2; i++) {
            uint64_t *c = NULL;
            int n = 0;
            if (pfm_get_event_encoding(ev[i], PFM_PLM0 | PFM_PLM3, NULL, NULL, &c, &n) !=
                    PFM_SUCCESS || n < 1)
                _exit(4);
            out[i] = c[0];
            free(c);
        }
        if (write(fd[1], out, sizeof out) != sizeof out) _exit(5);
        _exit(0);
    }
    close(fd[1]);
    {
        int st;
        ssize_t got = read(fd[0], codes, sizeof codes);
        close(fd[0]);
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 3) skip();  /* libpfm4 without the table */
        assert_int_equal(got, (ssize_t)sizeof codes);
    }
    {
        mp_pmu_plan *pl;
        mp_err err;
        use_tree("zen3");
        if (mp_pmu_plan_new(&pl, "cache", &err)) fail_msg("plan: %s", err.msg);
        assert_int_equal(codes[0] & 0xffff, tp_find(pl, "L3-accesses")->attr.config & 0xffff);
        assert_int_equal(codes[1] & 0xff, 0x9a);
        assert_int_not_equal(codes[1] & 0xff, tp_find(pl, "L3-misses")->attr.config & 0xff);
        mp_pmu_plan_free(pl);
    }
}

static void add(mp_pmu_plan *pl, const char *name, enum mp__kind kind, uint32_t type,
                int cpu_wide)
{
    mp__event *ev = &pl->ev[pl->nev++];
    memset(ev, 0, sizeof *ev);
    snprintf(ev->name, sizeof ev->name, "%s", name);
    ev->kind = kind;
    ev->attr.type = type;
    ev->cpu_wide = cpu_wide;
    ev->available = 1;
    ev->pass = ev->group = -1;
}

/* CPU-wide events never share a group or pass with per-thread events. */
static void packed_apart(void **state)
{
    mp_pmu_plan *pl = calloc(1, sizeof *pl);
    mp_err err;
    (void)state;
    pl->budget_general = 6;
    add(pl, "cycles", MP__KIND_CORE, 0, 0);
    add(pl, "L3-accesses", MP__KIND_OTHER, 11, 1);
    add(pl, "task-clock", MP__KIND_SOFTWARE, 1, 0);
    add(pl, "L3-misses", MP__KIND_OTHER, 11, 1);
    add(pl, "tsc", MP__KIND_OTHER, 9, 0);
    assert_int_equal(mp__plan_pack(pl, &err), 0);
    assert_int_equal(pl->npasses, 3);
    assert_int_equal(pl->ev[2].pass, 0);
    assert_int_equal(pl->ev[4].pass, 0);
    assert_int_equal(pl->ev[0].pass, 1);
    assert_int_equal(pl->ev[1].pass, 2);
    assert_int_equal(pl->ev[3].pass, 2);
    assert_int_equal(pl->pass[2].ngroups, 1);
    assert_int_equal(pl->pass[2].g[0].cpu_wide, 1);
    assert_int_equal(pl->pass[2].g[0].nev, 2);
    for (unsigned p = 0; p < 2; p++)
        for (unsigned g = 0; g < pl->pass[p].ngroups; g++)
            assert_int_equal(pl->pass[p].g[g].cpu_wide, 0);
    free(pl);
}

static int pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    if (cpu >= 0) {
        CPU_SET(cpu, &s);
    } else {
        for (int c = 0; c < (int)sysconf(_SC_NPROCESSORS_ONLN) && c < CPU_SETSIZE; c++)
            CPU_SET(c, &s);
    }
    return sched_setaffinity(0, sizeof s, &s);
}

/* The kernel path: a fake tree whose "msrcpu" PMU is the host's msr PMU
 * with a cpumask, so its event is CPU-wide: opened with pid -1 on the
 * pinned thread's CPU, read with read(), and refused when not pinned. */
static void cpu_wide_open_and_read(void **state)
{
    char tmpl[] = "/tmp/mp_test_l3.XXXXXX", p[600], type[32] = "";
    const char *root;
    FILE *f;
    mp_pmu_plan *pl;
    mp_pmu_pass *ps = NULL;
    mp_pmu_snap a, b;
    mp_err err;
    int64_t d[MP_PMU_MAX_COUNTERS];
    const mp__event *ev;
    (void)state;
    unsetenv("MUXPROF_SYSFS_CPUS");
    f = fopen("/sys/bus/event_source/devices/msr/type", "r");
    if (!f) skip();
    if (!fgets(type, sizeof type, f)) type[0] = '\0';
    fclose(f);
    root = mkdtemp(tmpl);
    assert_non_null(root);
    snprintf(p, sizeof p, "mkdir -p %s/msrcpu/events %s/msrcpu/format && printf '%s' > "
             "%s/msrcpu/type && echo event=0x00 > %s/msrcpu/events/tsc && echo config:0-63 "
             "> %s/msrcpu/format/event && echo 0 > %s/msrcpu/cpumask", root, root, type, root,
             root, root, root);
    assert_int_equal(system(p), 0);
    setenv("MUXPROF_SYSFS_PMUS", root, 1);
    assert_int_equal(pin(0), 0);
    if (mp_pmu_plan_new(&pl, "msrcpu/tsc/", &err)) fail_msg("plan: %s", err.msg);
    ev = tp_find(pl, "msrcpu/tsc/");
    assert_non_null(ev);
    assert_int_equal(ev->cpu_wide, 1);
    if (!ev->available) {
        printf("SKIP: the CPU-wide msr event did not open here: %s\n", ev->reason);
        mp_pmu_plan_free(pl);
        snprintf(p, sizeof p, "rm -rf %s", root);
        assert_int_equal(system(p), 0);
        skip();
    }
    assert_true(ev->pass >= 1);   /* a pass of its own, after the software pass */
    assert_int_equal(mp_pmu_pass_open(&ps, pl, (unsigned)ev->pass, &err), 0);
    assert_int_equal(mp_pmu_pass_count(ps), 1);
    assert_non_null(strstr(mp_pmu_pass_access(ps, 0), "CPU-wide"));
    assert_string_equal(mp_pmu_pass_read_path(ps), "read");
    /* CPU-wide, not per task: the TSC counts on while the thread sleeps
     * (20 ms are over 10^7 ticks at any TSC rate above 0.5 GHz; a per-task
     * count would see only the few microseconds the thread ran). */
    assert_int_equal(mp_pmu_pass_read(ps, &a), 0);
    usleep(20000);
    assert_int_equal(mp_pmu_pass_read(ps, &b), 0);
    assert_int_equal(mp_pmu_pass_delta(ps, &a, &b, d), 0);
    if (d[0] < 10000000) fail_msg("CPU-wide tsc counted %lld over a 20 ms sleep", (long long)d[0]);
    mp_pmu_pass_close(ps);
    /* Not pinned: refused with the reason, never opened per thread instead. */
    if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
        assert_int_equal(pin(-1), 0);
        assert_true(mp_pmu_pass_open(&ps, pl, (unsigned)ev->pass, &err) < 0);
        assert_null(ps);
        assert_non_null(strstr(err.msg, "CPU-wide"));
        assert_non_null(strstr(err.msg, "may run on"));
    }
    mp_pmu_plan_free(pl);
    snprintf(p, sizeof p, "rm -rf %s", root);
    assert_int_equal(system(p), 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(libpfm_agrees),   /* first: before this process starts libpfm4 */
        cmocka_unit_test(zen3_core_filter),
        cmocka_unit_test(zen2_thread_mask),
        cmocka_unit_test(no_filter_refused),
        cmocka_unit_test(unknown_cpu),
        cmocka_unit_test(preset_rows),
        cmocka_unit_test(packed_apart),
        cmocka_unit_test(cpu_wide_open_and_read),
    };
    if (argc < 2) {
        fprintf(stderr, "usage: test_pmu_l3 FIXTURE_DIR\n");
        return 2;
    }
    fixtures = argv[1];
    setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
