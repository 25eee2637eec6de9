/* SPDX-License-Identifier: MIT */
/* cpuwide.c - CPU-wide (uncore) events narrowed to the measured thread.
 *
 * An uncore PMU (a cpumask in sysfs) counts per CPU, CCX or socket, never
 * per thread: such an event is opened with pid -1 on the CPU the measuring
 * thread is pinned to, read with read() on its own fd around each call, and
 * narrowed as far as the hardware allows.
 *
 * AMD's L3 PMU (amd_l3, arch/x86/events/amd/uncore.c) counts the L3 of one
 * CCX and can filter by requesting core and thread:
 *   family 19h and later: coreid (config:42-44), threadmask (config:56-57),
 *     enallcores (config:47), enallslices (config:46), sliceid (config:48-50);
 *     threadmask 0 makes the kernel count every core, so it is always set;
 *   family 17h: threadmask (config:56-63, one bit per thread, two per core,
 *     core-major) and slicemask (config:48-51).
 * The core number these fields take is the core's place in its CCX, which
 * the kernel's core_id (from the APIC id) gives modulo the cores a CCX can
 * hold (8 on 19h: the width of coreid; 4 on 17h: threadmask bits / 2).
 * The bit positions are read from the PMU's format/ files, never assumed.
 * An amd_l3 without these fields is not opened: it would count the CCX. */
#include "internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPUS_DEFAULT "/sys/devices/system/cpu"
#define L3_SCOPE "L3 of the CCX, filtered to the waiter's core"

/* The CPU directory; MUXPROF_SYSFS_CPUS points the tests at a fake tree. */
static const char *sysfs_cpus(void)
{
    const char *e = getenv("MUXPROF_SYSFS_CPUS");
    return e && *e ? e : CPUS_DEFAULT;
}

/* The format spec of term t of pmu into fmt; 0 when it exists. */
static int format_of(const char *pmu, const char *t, char *fmt, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/format/%s", mp__sysfs_pmus(), pmu, t);
    return mp__read_line(path, fmt, n);
}

/* Number of bits a format spec such as "config:56-63" or "config:0-7,32-35"
 * names, 0 when it cannot be parsed. */
static unsigned format_bits(const char *fmt)
{
    const char *p = strchr(fmt, ':');
    unsigned bits = 0;
    if (!p) return 0;
    for (p++; *p;) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p) return 0;
        if (*end == '-') hi = strtoul(end + 1, &end, 10);
        if (hi < lo || hi > 63) return 0;
        bits += (unsigned)(hi - lo + 1);
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return 0;
    }
    return bits;
}

static int has_term(const char *pmu, const char *t)
{
    char fmt[128];
    return format_of(pmu, t, fmt, sizeof fmt) == 0 && format_bits(fmt) > 0;
}

void mp__cpu_wide_classify(mp__event *ev)
{
    char fmt[128];
    ev->cpu_filter = MP__FILTER_NONE;
    if (strcmp(ev->pmu, "amd_l3")) {
        snprintf(ev->cpu_scope, sizeof ev->cpu_scope, "every task on the waiter's CPU as "
                 "PMU %s sees it, not filtered to the thread", ev->pmu);
        return;
    }
    snprintf(ev->cpu_scope, sizeof ev->cpu_scope, "%s", L3_SCOPE);
    if (has_term(ev->pmu, "coreid") && has_term(ev->pmu, "threadmask") &&
        has_term(ev->pmu, "enallcores") && has_term(ev->pmu, "enallslices")) {
        ev->cpu_filter = MP__FILTER_L3_COREID;
        return;
    }
    if (format_of(ev->pmu, "threadmask", fmt, sizeof fmt) == 0 && format_bits(fmt) == 8 &&
        has_term(ev->pmu, "slicemask")) {
        ev->cpu_filter = MP__FILTER_L3_MASK8;
        return;
    }
    ev->available = 0;
    snprintf(ev->reason, sizeof ev->reason, "the amd_l3 PMU of this kernel offers no core "
             "filter (no coreid/enallcores or 8-bit threadmask in %s/amd_l3/format): it "
             "would count every core of the CCX, so it is not opened", mp__sysfs_pmus());
}

int mp__pinned_cpu(char *why, size_t n)
{
    cpu_set_t set;
    int count;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        snprintf(why, n, "cannot read this thread's CPU affinity");
        return -1;
    }
    count = CPU_COUNT(&set);
    if (count != 1) {
        snprintf(why, n, "a CPU-wide counter opens on the CPU the measured thread is pinned "
                 "to, and this thread may run on %d CPUs (muxprof run pins the waiter "
                 "unless --placement none, or no pair of PUs could be bound)", count);
        return -1;
    }
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) return c;
    return -1;
}

int mp__pmu_first_cpu(const char *pmu)
{
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/%s/cpumask", mp__sysfs_pmus(), pmu);
    if (mp__read_line(path, line, sizeof line) != 0 || !line[0]) return -1;
    return atoi(line);
}

/* The core_id of cpu (the kernel's, from the APIC id), or -1. */
static int core_id(int cpu)
{
    char path[512], line[64], *end;
    long v;
    snprintf(path, sizeof path, "%s/cpu%d/topology/core_id", sysfs_cpus(), cpu);
    if (mp__read_line(path, line, sizeof line) != 0) return -1;
    v = strtol(line, &end, 10);
    return end == line || v < 0 ? -1 : (int)v;
}

/* Set term t of ev's PMU to v in a.  0, or -1 with why filled. */
static int put(const mp__event *ev, struct perf_event_attr *a, const char *t, uint64_t v,
               char *why, size_t n)
{
    char fmt[128];
    if (format_of(ev->pmu, t, fmt, sizeof fmt) != 0 || mp__put_bits(a, fmt, v) != 0) {
        snprintf(why, n, "cannot set %s of %s (%s/%s/format/%s)", t, ev->pmu,
                 mp__sysfs_pmus(), ev->pmu, t);
        return -1;
    }
    return 0;
}

int mp__cpu_wide_attr(const mp__event *ev, int cpu, struct perf_event_attr *out, char *why,
                      size_t n)
{
    char fmt[128];
    int core;
    *out = ev->attr;
    if (ev->cpu_filter == MP__FILTER_NONE) return 0;
    core = core_id(cpu);
    if (core < 0) {
        snprintf(why, n, "cannot read the core of CPU %d (%s/cpu%d/topology/core_id): the "
                 "L3 filter needs it", cpu, sysfs_cpus(), cpu);
        return -1;
    }
    if (ev->cpu_filter == MP__FILTER_L3_COREID) {
        unsigned w = format_of(ev->pmu, "coreid", fmt, sizeof fmt) == 0 ? format_bits(fmt) : 0;
        if (w == 0 || w > 8) {
            snprintf(why, n, "cannot parse %s/%s/format/coreid", mp__sysfs_pmus(), ev->pmu);
            return -1;
        }
        if (put(ev, out, "coreid", (uint64_t)core % (1u << w), why, n) ||
            put(ev, out, "threadmask", 0x3, why, n) ||
            put(ev, out, "enallcores", 0, why, n) ||
            put(ev, out, "enallslices", 1, why, n))
            return -1;
        if (has_term(ev->pmu, "sliceid") && put(ev, out, "sliceid", 0, why, n)) return -1;
        return 0;
    }
    /* family 17h: two threadmask bits per core, every slice. */
    {
        unsigned cores = 8 / 2;
        unsigned sw = format_of(ev->pmu, "slicemask", fmt, sizeof fmt) == 0
                          ? format_bits(fmt) : 0;
        if (sw == 0 || sw > 16) {
            snprintf(why, n, "cannot parse %s/%s/format/slicemask", mp__sysfs_pmus(),
                     ev->pmu);
            return -1;
        }
        if (put(ev, out, "threadmask", (uint64_t)0x3 << (2 * ((unsigned)core % cores)), why,
                n) ||
            put(ev, out, "slicemask", ((uint64_t)1 << sw) - 1, why, n))
            return -1;
    }
    return 0;
}
