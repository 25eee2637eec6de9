/* SPDX-License-Identifier: MIT */
/* test_pmu_privilege.c - who may count what (kernel work, CPU-wide events),
 * which PMUs are CPU-wide, how the binary's setup is judged (never advising
 * a capability on a binary every user may run), and the reading of file
 * capabilities from security.capability. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "pmu/pmu.h"

static const struct prow {
    int line, paranoid, cap, kernel, cpu_wide;
} prows[] = {
    {__LINE__, -1, 0, 1, 1},
    {__LINE__, 0, 0, 1, 1},
    {__LINE__, 1, 0, 1, 0},
    {__LINE__, 2, 0, 0, 0},
    {__LINE__, 3, 0, 0, 0},
    {__LINE__, 2, 1, 1, 1},
    {__LINE__, 4, 1, 1, 1},
    {__LINE__, -99, 0, 0, 0}, /* unreadable: assume nothing */
};

static void allowed_table(void **state)
{
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof prows / sizeof prows[0]; i++) {
        const struct prow *r = &prows[i];
        mp_pmu_host h;
        char why[512] = "x";
        memset(&h, 0, sizeof h);
        h.paranoid = r->paranoid;
        h.cap_perfmon = r->cap;
        int k = mp_pmu_kernel_allowed(&h), c = mp_pmu_cpu_wide_allowed(&h, why, sizeof why);
        if (k != r->kernel || c != r->cpu_wide) {
            print_error("%s:%d: paranoid %d cap %d: kernel %d cpu-wide %d, want %d %d\n",
                        __FILE__, r->line, r->paranoid, r->cap, k, c, r->kernel, r->cpu_wide);
            failures++;
        }
        if (c && why[0]) {
            print_error("%s:%d: allowed but a reason was written: %s\n", __FILE__, r->line, why);
            failures++;
        }
        if (!c && (!strstr(why, "CPU-wide") || !strstr(why, "grant-perfmon.sh") ||
                   strstr(why, "setcap"))) {
            print_error("%s:%d: reason lacks the rule or the grouped advice: %s\n", __FILE__,
                        r->line, why);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

/* A sysfs tree: amd_l3 and uncore_imc_0 carry a cpumask (uncore), cpu and
 * msr do not. */
static void cpu_wide_pmus(void **state)
{
    char root[] = "/tmp/mp-sysfs-XXXXXX", p[512];
    const char *pmus[] = {"amd_l3", "uncore_imc_0", "cpu", "msr"};
    (void)state;
    assert_non_null(mkdtemp(root));
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", root, pmus[i]);
        assert_int_equal(mkdir(p, 0755), 0);
        if (i < 2) {
            snprintf(p, sizeof p, "%s/%s/cpumask", root, pmus[i]);
            int fd = open(p, O_CREAT | O_WRONLY, 0644);
            assert_true(fd >= 0);
            assert_int_equal(write(fd, "0,8\n", 4), 4);
            close(fd);
        }
    }
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, "amd_l3"), 1);
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, "uncore_imc_0"), 1);
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, "cpu"), 0);
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, "msr"), 0);
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, "absent"), 0);
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, "../amd_l3"), 0);
    assert_int_equal(mp_pmu_pmu_is_cpu_wide(root, ""), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s/cpumask", root, pmus[i]);
        unlink(p);
        snprintf(p, sizeof p, "%s/%s", root, pmus[i]);
        rmdir(p);
    }
    rmdir(root);
}

#define PERFMON (1ull << 38)
#define SYSLOG (1ull << 34)
#define SYSADMIN (1ull << 21)

static const struct jrow {
    int line;
    int paranoid;
    unsigned mode;
    int file_caps;
    unsigned long long permitted;
    int effective_flag, held, nosuid, nnp, cap_last_cap;
    const char *status, *setup;
    const char *must[2];
} jrows[] = {
    /* The perf-security guide's setup, in use by a member. */
    {__LINE__, 2, 0750, 1, PERFMON, 1, 1, 0, 0, 40, "OK", "grouped", {"perf_users", NULL}},
    {__LINE__, 2, 0750, 1, PERFMON | SYSLOG, 1, 1, 0, 0, 40, "OK", "grouped", {"cap_syslog", NULL}},
    /* Grouped, but the capability does not reach the process: say why. */
    {__LINE__, 2, 0750, 1, PERFMON, 0, 0, 0, 0, 40, "FIX", "grouped", {"effective flag", NULL}},
    {__LINE__, 2, 0750, 1, PERFMON, 1, 0, 1, 0, 40, "FIX", "grouped", {"nosuid", NULL}},
    {__LINE__, 2, 0750, 1, PERFMON, 1, 0, 0, 1, 40, "FIX", "grouped", {"no_new_privs", NULL}},
    {__LINE__, 2, 0750, 1, PERFMON, 1, 0, 0, 0, 37, "FIX", "grouped", {"5.8", NULL}},
    /* Every user may run it: the setup the old advice produced. */
    {__LINE__, 2, 0755, 1, PERFMON, 1, 1, 0, 0, 40, "FIX", "ungrouped capability",
     {"any local user", "grant-perfmon.sh perf_users"}},
    {__LINE__, 2, 0751, 1, SYSADMIN, 1, 1, 0, 0, 40, "FIX", "ungrouped capability",
     {"cap_sys_admin", "setcap -r"}},
    {__LINE__, 2, 0750, 1, SYSADMIN, 1, 1, 0, 0, 40, "FIX", "grouped, too broad",
     {"cap_sys_admin", "cap_perfmon only"}},
    /* No file capability. */
    {__LINE__, 2, 0755, 0, 0, 0, 1, 0, 0, 40, "OK", "root", {"CAP_PERFMON", "perf_users"}},
    {__LINE__, 1, 0755, 0, 0, 0, 0, 0, 0, 40, "OK", "sysctl", {"every local user", "single-user"}},
    {__LINE__, 0, 0755, 0, 0, 0, 0, 0, 0, 40, "OK", "sysctl", {"CPU-wide", NULL}},
    {__LINE__, 2, 0755, 0, 0, 0, 0, 0, 0, 40, "FIX", "none",
     {"user-only", "grant-perfmon.sh perf_users"}},
    {__LINE__, 3, 0755, 0, 0, 0, 0, 0, 0, 37, "FIX", "none", {"predates CAP_PERFMON", NULL}},
};

static void judge_table(void **state)
{
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof jrows / sizeof jrows[0]; i++) {
        const struct jrow *r = &jrows[i];
        mp_pmu_setup s;
        mp_pmu_verdict v;
        char all[1100];
        memset(&s, 0, sizeof s);
        s.paranoid = r->paranoid;
        s.cap_last_cap = r->cap_last_cap;
        s.euid = r->held ? 0 : 1000;
        s.eff_perfmon = r->held;
        s.no_new_privs = r->nnp;
        snprintf(s.exe, sizeof s.exe, "/usr/local/bin/muxprof");
        s.exe_known = 1;
        s.mode = r->mode;
        s.gid = 1001;
        snprintf(s.group, sizeof s.group, "perf_users");
        s.nosuid = r->nosuid;
        s.file_caps = r->file_caps;
        s.file_permitted = r->permitted;
        s.file_effective = r->effective_flag;
        mp_pmu_setup_judge(&s, &v);
        snprintf(all, sizeof all, "%s | %s", v.what, v.advice);
        if (strcmp(v.status, r->status) || strcmp(v.setup, r->setup)) {
            print_error("%s:%d: %s/%s, want %s/%s: %s\n", __FILE__, r->line, v.status,
                        v.setup, r->status, r->setup, all);
            failures++;
        }
        for (int k = 0; k < 2; k++)
            if (r->must[k] && !strstr(all, r->must[k])) {
                print_error("%s:%d: '%s' missing from: %s\n", __FILE__, r->line, r->must[k], all);
                failures++;
            }
        /* Never advise a capability on a binary without the group. */
        if (strstr(all, "setcap cap_perfmon") || strstr(all, "setcap cap_")) {
            print_error("%s:%d: advises an ungrouped setcap: %s\n", __FILE__, r->line, all);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

/* security.capability as setcap writes it (revision 2, little-endian):
 * cap_perfmon+ep and cap_perfmon+p. */
static void file_caps_parsed(void **state)
{
    char path[] = "/tmp/mp-caps-XXXXXX";
    unsigned char v2[20] = {0};
    mp_pmu_setup s;
    (void)state;
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    v2[0] = 0x01; v2[3] = 0x02;        /* VFS_CAP_REVISION_2 | effective */
    v2[12] = 0x40;                     /* permitted high word: bit 38 - 32 = 6 */
    if (setxattr(path, "security.capability", v2, sizeof v2, 0) != 0) {
        int e = errno;
        unlink(path);
        print_message("skipped: cannot write security.capability here (%s: needs root "
                      "with CAP_SETFCAP and a file system with xattrs)\n", strerror(e));
        skip();
    }
    mp_pmu_setup_probe(&s, path);
    assert_int_equal(s.exe_known, 1);
    assert_int_equal(s.file_caps, 1);
    assert_true(s.file_permitted == PERFMON);
    assert_int_equal(s.file_effective, 1);
    v2[0] = 0x00;                      /* without the effective flag */
    assert_int_equal(setxattr(path, "security.capability", v2, sizeof v2, 0), 0);
    mp_pmu_setup_probe(&s, path);
    assert_int_equal(s.file_effective, 0);
    assert_true(s.file_permitted == PERFMON);
    assert_int_equal(removexattr(path, "security.capability"), 0);
    mp_pmu_setup_probe(&s, path);
    assert_int_equal(s.file_caps, 0);
    unlink(path);
}

/* The running test binary: this process's own facts are consistent. */
static void probe_self(void **state)
{
    mp_pmu_setup s;
    mp_pmu_verdict v;
    (void)state;
    mp_pmu_setup_probe(&s, NULL);
    assert_int_equal(s.exe_known, 1);
    assert_true(s.euid == (long)geteuid());
    mp_pmu_setup_judge(&s, &v);
    assert_non_null(v.status);
    assert_true(v.what[0] != '\0');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(allowed_table),
        cmocka_unit_test(cpu_wide_pmus),
        cmocka_unit_test(judge_table),
        cmocka_unit_test(file_caps_parsed),
        cmocka_unit_test(probe_self),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
