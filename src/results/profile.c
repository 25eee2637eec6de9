/* SPDX-License-Identifier: MIT */
/* profile.c - a cell's "profile" object through the tables of its fields;
 * see results/profile.h. */
#include "results/profile.h"

#include <string.h>

#define E(key, member, type, absent, unit, doc) \
    {key, type, absent, offsetof(mp_rprof_entry, member), 0, 0, 0, 0, NULL, NULL, unit, doc, 0}

static const mp_rtfield function_fields[] = {
    E("name", name, MP_RT_STR, MP_RT_ALWAYS, "", "the kernel function, or [unknown kernel "
      "address]"),
    E("share", share, MP_RT_NUMBER, MP_RT_ALWAYS, "", "its share of the samples kept (self "
      "time)"),
    E("ns_per_call", ns_per_call, MP_RT_NUMBER, MP_RT_NULL_NAN, "ns", "share x the cell's "
      "wall p50; null without one"),
    E("phase", phase, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "its phase (pmu/phases.txt), =caller "
      "for a generic helper"),
};

static const mp_rtfield phase_fields[] = {
    E("phase", name, MP_RT_STR, MP_RT_ALWAYS, "", "the phase, in pmu/phases.txt's order, "
      "other last"),
    E("share", share, MP_RT_NUMBER, MP_RT_ALWAYS, "", "its share of the samples kept"),
    E("ns_per_call", ns_per_call, MP_RT_NUMBER, MP_RT_NULL_NAN, "ns", "share x the cell's "
      "wall p50; null without one"),
    E("ns_per_fd", ns_per_fd, MP_RT_NUMBER, MP_RT_OMIT_NAN, "ns", "ns_per_call over the "
      "descriptors watched"),
};
#undef E

static const mp_rtable function_table = {"profile.functions[]", function_fields,
                                         sizeof function_fields / sizeof function_fields[0]};
static const mp_rtable phase_table = {"profile.phases[]", phase_fields,
                                      sizeof phase_fields / sizeof phase_fields[0]};

static const char *const window_names[] = {"blocks", "calls", NULL};

#define ROW(k, type, absent, when, unit, doc) \
    {#k, type, absent, offsetof(mp_rprofile, k), 0, 0, when, 0, NULL, NULL, unit, doc, 0}
#define SAMPLED MP_RT_WHEN(mp_rprofile, sampled)
#define LIST(k, sub, doc) \
    {#k, MP_RT_OBJECT_LIST, MP_RT_ALWAYS, offsetof(mp_rprofile, k), sizeof(mp_rprof_entry), \
     offsetof(mp_rprofile, n##k), SAMPLED, 0, NULL, &sub, "", doc, 0}
static const mp_rtfield fields[] = {
    ROW(event, MP_RT_STR, MP_RT_ALWAYS, SAMPLED, "", "the sampling event: cycles or "
        "cpu-clock"),
    ROW(period, MP_RT_COUNT, MP_RT_OMIT_ZERO, SAMPLED, "", "its sample period: ns for "
        "cpu-clock, events for cycles"),
    ROW(scope, MP_RT_STR, MP_RT_ALWAYS, SAMPLED, "", "user+kernel, or user when kernel "
        "samples were refused (note says why)"),
    ROW(samples, MP_RT_COUNT, MP_RT_ALWAYS, 0, "samples", "samples kept: taken inside the "
        "calls"),
    ROW(lost, MP_RT_COUNT, MP_RT_ALWAYS, SAMPLED, "samples", "samples the kernel dropped "
        "(PERF_RECORD_LOST)"),
    ROW(truncated, MP_RT_COUNT, MP_RT_OMIT_ZERO, SAMPLED, "records", "malformed records "
        "skipped, when any"),
    ROW(calls, MP_RT_COUNT, MP_RT_ALWAYS, SAMPLED, "calls", "calls whose samples were kept"),
    {"window", MP_RT_CHOICE, MP_RT_ALWAYS, offsetof(mp_rprofile, window), 0, 0, SAMPLED, 0,
     window_names, NULL, "", "calls: only samples inside a call's window are kept; blocks: "
     "no sample times, the harness is in the shares", 0},
    ROW(outside_calls, MP_RT_COUNT, MP_RT_ALWAYS, MP_RT_WHEN(mp_rprofile, window), "samples",
        "window calls: samples taken between calls, left out"),
    ROW(wall_p50_ns, MP_RT_NUMBER, MP_RT_OMIT_NAN, SAMPLED, "ns", "the cell's wall_ns p50, "
        "used for ns_per_call"),
    ROW(on_cpu_ns_per_call, MP_RT_NUMBER, MP_RT_OMIT_NAN, SAMPLED, "ns", "cpu-clock: "
        "samples x period / calls"),
    ROW(symbols, MP_RT_STR, MP_RT_ALWAYS, SAMPLED, "", "kallsyms, or hidden: why the kernel's "
        "addresses are not usable"),
    ROW(note, MP_RT_STR, MP_RT_OMIT_EMPTY, SAMPLED, "", "a sentence on the pass (kernel "
        "samples refused)"),
    ROW(user_share, MP_RT_NUMBER, MP_RT_NULL_NAN, SAMPLED, "", "share of the samples in user "
        "space; null without samples"),
    ROW(kernel_share, MP_RT_NUMBER, MP_RT_OMIT_NAN, SAMPLED, "", "share in the kernel"),
    LIST(functions, function_table, "the top 15 kernel functions by share"),
    LIST(phases, phase_table, "every phase, in pmu/phases.txt's order"),
    ROW(throttled, MP_RT_COUNT, MP_RT_OMIT_ZERO, SAMPLED, "records", "times the kernel slowed "
        "the sampling (PERF_RECORD_THROTTLE), when any"),
    {"reason", MP_RT_STR, MP_RT_ALWAYS, offsetof(mp_rprofile, reason), 0, 0, SAMPLED, 1, NULL,
     NULL, "", "no sampling event opened: why", 0},
};
#undef ROW
#undef SAMPLED
#undef LIST

const mp_rtable mp_rprofile_table = {"profile", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rprofile_json(const mp_rprofile *p)
{
    return mp_rtable_json(&mp_rprofile_table, p);
}

int mp_rprofile_read(const cJSON *o, mp_rprofile *p)
{
    memset(p, 0, sizeof *p);
    mp_rtable_read(&mp_rprofile_table, o, p);
    p->sampled = cJSON_GetObjectItemCaseSensitive(o, "event") != NULL;
    return mp_rtable_read_lists(&mp_rprofile_table, o, p);
}

void mp_rprofile_free(mp_rprofile *p)
{
    mp_rtable_free_lists(&mp_rprofile_table, p);
}

const char *mp_rprofile_window(const mp_rprofile *p)
{
    return p->window == MP_RPROF_BLOCKS || p->window == MP_RPROF_CALLS
               ? window_names[p->window] : NULL;
}
