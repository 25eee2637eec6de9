/* SPDX-License-Identifier: MIT */
/* errors.c - what the host offers for counting (paranoid level, PMUs,
 * capabilities) and the translation of a perf_event_open errno into a
 * class and one line of words: what failed, why, what to change. */
#include "internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mp__read_int(const char *path, int dflt)
{
    FILE *f = fopen(path, "r");
    int v = dflt;
    if (!f) return dflt;
    if (fscanf(f, "%d", &v) != 1) v = dflt;
    fclose(f);
    return v;
}

unsigned long long mp__cap_eff(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long m = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "CapEff:", 7)) {
            m = strtoull(line + 7, NULL, 16);
            break;
        }
    fclose(f);
    return m;
}

/* A CPU PMU in sysfs: "cpu" (x86), "cpu_core"/"cpu_atom" (hybrid),
 * "armv8_*"/"armv9_*" or "arm_*" core PMUs (arm64). */
static int find_core_pmu(char *name, size_t n)
{
    DIR *d = opendir("/sys/bus/event_source/devices");
    struct dirent *e;
    int found = 0;
    if (!d) return 0;
    while (!found && (e = readdir(d))) {
        const char *s = e->d_name;
        if (!strcmp(s, "cpu") || !strcmp(s, "cpu_core") || !strcmp(s, "cpu_atom") ||
            !strncmp(s, "armv8_", 6) || !strncmp(s, "armv9_", 6) ||
            !strncmp(s, "arm_cortex", 10) || !strncmp(s, "arm_neoverse", 12)) {
            snprintf(name, n, "%s", s);
            found = 1;
        }
    }
    closedir(d);
    return found;
}

static int cpuinfo_hypervisor(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int r = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "flags", 5)) {
            r = strstr(line, " hypervisor") != NULL;
            break;
        }
    }
    fclose(f);
    return r;
}

void mp_pmu_host_probe(mp_pmu_host *h)
{
    memset(h, 0, sizeof *h);
    h->paranoid = mp__read_int("/proc/sys/kernel/perf_event_paranoid", -99);
    h->core_pmu = find_core_pmu(h->core_pmu_name, sizeof h->core_pmu_name);
    h->hypervisor = cpuinfo_hypervisor();
    /* CAP_SYS_ADMIN is 21, CAP_PERFMON 38. */
    h->cap_perfmon = (mp__cap_eff() & (1ull << 21 | 1ull << 38)) != 0;
    h->nmi_watchdog = mp__read_int("/proc/sys/kernel/nmi_watchdog", 0) > 0;
    h->rdpmc_sysfs = mp__read_int("/sys/bus/event_source/devices/cpu/rdpmc", -1);
    h->perf_user_access = mp__read_int("/proc/sys/kernel/perf_user_access", -1);
}

const char *mp_pmu_errclass_name(mp_pmu_errclass c)
{
    switch (c) {
    case MP_PMU_ERR_NONE: return "none";
    case MP_PMU_ERR_NO_PMU: return "no-pmu";
    case MP_PMU_ERR_NO_EVENT: return "unknown-event";
    case MP_PMU_ERR_PERMISSION: return "permission";
    case MP_PMU_ERR_CONFIG: return "bad-config";
    case MP_PMU_ERR_BUSY: return "busy";
    case MP_PMU_ERR_NO_FDS: return "no-fds";
    case MP_PMU_ERR_NO_SYSCALL: return "no-syscall";
    case MP_PMU_ERR_BUDGET: return "counter-budget";
    case MP_PMU_ERR_OTHER: return "other";
    }
    return "other";
}

mp_pmu_errclass mp_pmu_classify(int errnum, const mp_pmu_host *h, int hw, int kernel,
                                char *buf, size_t n)
{
    const char *en = strerrorname_np(errnum);
    if (!en) en = "errno";
    switch (errnum) {
    case 0:
        snprintf(buf, n, "opened");
        return MP_PMU_ERR_NONE;
    case ENOENT: case ENODEV: case ENXIO: case EOPNOTSUPP:
        if (hw && !h->core_pmu) {
            snprintf(buf, n, "no hardware PMU: perf_event_open gave %s and "
                     "/sys/bus/event_source/devices has no CPU PMU%s; software counts "
                     "are still measured (give the VM a virtual PMU, or run on bare metal)",
                     en, h->hypervisor ? " (a VM without a virtual PMU)" : "");
            return MP_PMU_ERR_NO_PMU;
        }
        snprintf(buf, n, "event unknown to this PMU: perf_event_open gave %s (the %s "
                 "PMU driver does not support this event or encoding); pick another "
                 "event from 'muxprof events --all'", en,
                 h->core_pmu ? h->core_pmu_name : "kernel's");
        return MP_PMU_ERR_NO_EVENT;
    case EACCES: case EPERM:
        if (kernel)
            snprintf(buf, n, "permission: perf_event_open gave %s with "
                     "kernel.perf_event_paranoid=%d; counting kernel work needs paranoid "
                     "<= 1 or CAP_PERFMON: %s; else use :u events", en, h->paranoid,
                     MP_PMU_GRANT_HINT);
        else
            snprintf(buf, n, "permission: perf_event_open gave %s with "
                     "kernel.perf_event_paranoid=%d; user counting needs paranoid <= 2 "
                     "(level 3 forbids it: sysctl -w kernel.perf_event_paranoid=2) or "
                     "CAP_PERFMON: %s", en, h->paranoid, MP_PMU_GRANT_HINT);
        return MP_PMU_ERR_PERMISSION;
    case EINVAL:
        snprintf(buf, n, "invalid configuration: perf_event_open gave EINVAL (the PMU "
                 "rejects this encoding or its modifiers, or the group has no room for "
                 "it); check the event with 'muxprof events --events NAME'");
        return MP_PMU_ERR_CONFIG;
    case EBUSY:
        snprintf(buf, n, "PMU busy: perf_event_open gave EBUSY (another user holds the "
                 "counters exclusively, e.g. an exclusive or pinned event%s); stop it "
                 "and retry", h->nmi_watchdog ? " or the NMI watchdog: sysctl -w "
                 "kernel.nmi_watchdog=0" : "");
        return MP_PMU_ERR_BUSY;
    case EMFILE: case ENFILE:
        snprintf(buf, n, "out of file descriptors: perf_event_open gave %s; raise "
                 "RLIMIT_NOFILE (ulimit -n) or count fewer events", en);
        return MP_PMU_ERR_NO_FDS;
    case ENOSYS:
        snprintf(buf, n, "no perf_event_open: the call gave ENOSYS (a kernel built "
                 "without CONFIG_PERF_EVENTS, or a binary under qemu-user); no counter "
                 "can be measured here");
        return MP_PMU_ERR_NO_SYSCALL;
    default:
        snprintf(buf, n, "perf_event_open gave %s (%s)", en, strerror(errnum));
        return MP_PMU_ERR_OTHER;
    }
}
