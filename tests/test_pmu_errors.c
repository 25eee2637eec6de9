/* SPDX-License-Identifier: MIT */
/* test_pmu_errors.c - each perf_event_open errno gives the right class and
 * a message that says what failed, why and what to change. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "pmu/pmu.h"

static const struct row {
    int line, err, hw, kernel, core_pmu, hypervisor;
    mp_pmu_errclass want;
    const char *must[3];
} rows[] = {
    {__LINE__, ENOENT, 1, 1, 0, 1, MP_PMU_ERR_NO_PMU,
     {"no hardware PMU", "ENOENT", "a VM without a virtual PMU"}},
    {__LINE__, ENODEV, 1, 1, 0, 0, MP_PMU_ERR_NO_PMU, {"no hardware PMU", "ENODEV", NULL}},
    {__LINE__, ENXIO, 1, 0, 0, 0, MP_PMU_ERR_NO_PMU, {"no hardware PMU", "ENXIO", NULL}},
    {__LINE__, EOPNOTSUPP, 1, 0, 0, 1, MP_PMU_ERR_NO_PMU, {"no hardware PMU", "EOPNOTSUPP", NULL}},
    {__LINE__, ENOENT, 1, 1, 1, 0, MP_PMU_ERR_NO_EVENT, {"event unknown to this PMU", "cpu", "muxprof events --all"}},
    {__LINE__, EOPNOTSUPP, 1, 1, 1, 0, MP_PMU_ERR_NO_EVENT, {"event unknown", "EOPNOTSUPP", NULL}},
    {__LINE__, ENOENT, 0, 1, 0, 0, MP_PMU_ERR_NO_EVENT, {"event unknown", NULL, NULL}},
    {__LINE__, EACCES, 1, 1, 1, 0, MP_PMU_ERR_PERMISSION,
     {"perf_event_paranoid=2", "sysctl -w kernel.perf_event_paranoid=1", "CAP_PERFMON"}},
    {__LINE__, EPERM, 1, 1, 1, 0, MP_PMU_ERR_PERMISSION, {"permission", "EPERM", "CAP_PERFMON"}},
    {__LINE__, EACCES, 0, 0, 1, 0, MP_PMU_ERR_PERMISSION, {"permission", "level 3", NULL}},
    {__LINE__, EINVAL, 1, 1, 1, 0, MP_PMU_ERR_CONFIG, {"invalid configuration", "EINVAL", "no room"}},
    {__LINE__, EBUSY, 1, 1, 1, 0, MP_PMU_ERR_BUSY, {"PMU busy", "EBUSY", "nmi_watchdog"}},
    {__LINE__, EMFILE, 1, 1, 1, 0, MP_PMU_ERR_NO_FDS, {"file descriptors", "ulimit -n", NULL}},
    {__LINE__, ENOSYS, 0, 1, 0, 0, MP_PMU_ERR_NO_SYSCALL, {"ENOSYS", "qemu-user", NULL}},
    {__LINE__, E2BIG, 1, 1, 1, 0, MP_PMU_ERR_OTHER, {"E2BIG", NULL, NULL}},
};

static void classify_table(void **state)
{
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *r = &rows[i];
        mp_pmu_host h;
        char buf[512];
        mp_pmu_errclass c;
        memset(&h, 0, sizeof h);
        h.paranoid = 2;
        h.core_pmu = r->core_pmu;
        strcpy(h.core_pmu_name, "cpu");
        h.hypervisor = r->hypervisor;
        h.nmi_watchdog = 1;
        c = mp_pmu_classify(r->err, &h, r->hw, r->kernel, buf, sizeof buf);
        if (c != r->want) {
            print_error("%s:%d: errno %s: class %s, want %s\n", __FILE__, r->line,
                        strerrorname_np(r->err), mp_pmu_errclass_name(c),
                        mp_pmu_errclass_name(r->want));
            failures++;
        }
        for (int k = 0; k < 3; k++)
            if (r->must[k] && !strstr(buf, r->must[k])) {
                print_error("%s:%d: message lacks '%s': %s\n", __FILE__, r->line,
                            r->must[k], buf);
                failures++;
            }
        /* The advice is the group setup, never a capability for every user. */
        if (strstr(buf, "setcap cap_")) {
            print_error("%s:%d: advises an ungrouped setcap: %s\n", __FILE__, r->line, buf);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

static void host_probe_sane(void **state)
{
    mp_pmu_host h;
    (void)state;
    mp_pmu_host_probe(&h);
    assert_true(h.paranoid >= -1 && h.paranoid <= 4);
    if (h.core_pmu) assert_true(h.core_pmu_name[0] != '\0');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classify_table),
        cmocka_unit_test(host_probe_sane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
