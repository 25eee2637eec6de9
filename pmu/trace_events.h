// SPDX-License-Identifier: MIT
/* trace_events.h - what `muxprof trace` needs of pmu/: the privilege to
 * load a tracing BPF program and read counters CPU-wide, and one counter
 * per CPU for each of its counters (task-clock, context-switches,
 * page-faults, then cycles, instructions, L1d, LLC and dTLB load misses
 * where a PMU has them), which trace/ hands to its BPF program.  Each is a
 * CPU-wide count (pid -1): over a call it counts whatever ran on that CPU,
 * the caller and, while the caller slept, other tasks. */
#ifndef MP_PMU_TRACE_EVENTS_H
#define MP_PMU_TRACE_EVENTS_H

#include <stddef.h>

#include "common/mp_err.h"

#define MP_PMU_TRACE_MAX_EVENTS 8

typedef struct mp_pmu_trace_events {
    int ncpus;
    size_t nevents;                            /* the counters that opened */
    char name[MP_PMU_TRACE_MAX_EVENTS][32];
    int *fd;                                   /* [event * ncpus + cpu], -1: that CPU's
                                                * did not open (offline) */
    size_t nmissing;                           /* those that did not open */
    char missing[MP_PMU_TRACE_MAX_EVENTS][32];
    char missing_why[MP_PMU_TRACE_MAX_EVENTS][128];
} mp_pmu_trace_events;

/* 1 when this process holds CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN);
 * 0 with one line saying what is missing and how to get it in why. */
int mp_pmu_trace_allowed(char *why, size_t n);

/* Open every counter on CPUs 0..ncpus-1; a counter that does not open on
 * some online CPU is left out whole and listed in missing[] with why.
 * 0, or -ENOMEM. */
int mp_pmu_trace_events_open(mp_pmu_trace_events *t, int ncpus, mp_err *err);
void mp_pmu_trace_events_close(mp_pmu_trace_events *t);

#endif
