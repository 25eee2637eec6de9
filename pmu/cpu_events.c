// SPDX-License-Identifier: MIT
/* cpu_events.c - the CPU-wide counters `muxprof trace` reads from its BPF
 * program (bpf_perf_event_read_value on a perf event array), one event per
 * CPU for each counter that opens, and the privilege trace needs; see
 * pmu/trace_events.h. */
#include "pmu/trace_events.h"

#include "internal.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#define CAP_SYS_ADMIN_BIT 21

/* The counters trace asks for, in this order: the software ones first,
 * which every kernel has, then those that need a PMU. */
static const struct {
    const char *name;
    unsigned type;
    unsigned long long config;
} wanted[] = {
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
     PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
         PERF_COUNT_HW_CACHE_RESULT_MISS << 16},
    {"LLC-load-misses", PERF_TYPE_HW_CACHE,
     PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_READ << 8 |
         PERF_COUNT_HW_CACHE_RESULT_MISS << 16},
    {"dTLB-load-misses", PERF_TYPE_HW_CACHE,
     PERF_COUNT_HW_CACHE_DTLB | PERF_COUNT_HW_CACHE_OP_READ << 8 |
         PERF_COUNT_HW_CACHE_RESULT_MISS << 16},
};
#define NWANTED (sizeof wanted / sizeof wanted[0])
_Static_assert(NWANTED <= MP_PMU_TRACE_MAX_EVENTS, "more counters than trace reads");

int mp_pmu_trace_allowed(char *why, size_t n)
{
    unsigned long long eff = mp__cap_eff();
    int admin = (eff >> CAP_SYS_ADMIN_BIT) & 1;
    int bpf = admin || ((eff >> CAP_BPF) & 1);
    int perfmon = admin || ((eff >> CAP_PERFMON) & 1);
    if (bpf && perfmon)
        return 1;
    snprintf(why, n, "tracing needs CAP_BPF and CAP_PERFMON (or root); this process lacks %s%s%s"
             ": run muxprof trace as root (scripts/grant-perfmon.sh grants CAP_PERFMON only; "
             "see muxprof doctor and docs/trace.md)",
             bpf ? "" : "CAP_BPF", !bpf && !perfmon ? " and " : "", perfmon ? "" : "CAP_PERFMON");
    return 0;
}

void mp_pmu_trace_events_close(mp_pmu_trace_events *t)
{
    if (t->fd)
        for (size_t i = 0; i < t->nevents * (size_t)t->ncpus; i++)
            if (t->fd[i] >= 0)
                close(t->fd[i]);
    free(t->fd);
    t->fd = NULL;
    t->nevents = 0;
}

static int open_one(unsigned type, unsigned long long config, int cpu)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

int mp_pmu_trace_events_open(mp_pmu_trace_events *t, int ncpus, mp_err *err)
{
    memset(t, 0, sizeof *t);
    t->ncpus = ncpus;
    t->fd = malloc(sizeof *t->fd * NWANTED * (size_t)ncpus);
    if (!t->fd)
        return mp_errf(err, -ENOMEM, "out of memory opening the trace's counters");
    for (size_t w = 0; w < NWANTED; w++) {
        int *row = t->fd + t->nevents * (size_t)ncpus, bad = 0, cpus = 0;
        for (int c = 0; c < ncpus; c++) {
            row[c] = open_one(wanted[w].type, wanted[w].config, c);
            if (row[c] >= 0)
                cpus++;
            else if (row[c] != -ENODEV && row[c] != -ENXIO)
                bad = -row[c];   /* an offline CPU (ENODEV) is no failure */
        }
        if (cpus && !bad) {
            snprintf(t->name[t->nevents], sizeof t->name[0], "%s", wanted[w].name);
            t->nevents++;
            continue;
        }
        for (int c = 0; c < ncpus; c++)
            if (row[c] >= 0)
                close(row[c]);
        int m = t->nmissing++;
        snprintf(t->missing[m], sizeof t->missing[0], "%s", wanted[w].name);
        snprintf(t->missing_why[m], sizeof t->missing_why[0], "perf_event_open (CPU-wide) "
                 "gave %s%s", strerror(bad ? bad : ENODEV),
                 wanted[w].type != PERF_TYPE_SOFTWARE && (!bad || bad == ENOENT ||
                                                          bad == EOPNOTSUPP)
                     ? ": no PMU counts it here (a VM without a virtual PMU?)" : "");
    }
    return 0;
}
