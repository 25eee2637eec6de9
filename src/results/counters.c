/* SPDX-License-Identifier: MIT */
/* counters.c - the "counters" object through the tables of its fields; see
 * results/counters.h. */
#include "results/counters.h"

#include <string.h>

#define EV(k, type, absent, when, unless, unit, doc) \
    {#k, type, absent, offsetof(mp_rcounter_event, k), 0, 0, when, unless, NULL, NULL, unit, doc, 0}
#define ENCODED MP_RT_WHEN(mp_rcounter_event, encoded)
#define OPENED MP_RT_WHEN(mp_rcounter_event, opened)
#define SIMULATED MP_RT_WHEN(mp_rcounter_event, simulated)
static const char *const status_names[] = {"unavailable", "opened", NULL};

static const mp_rtfield event_fields[] = {
    EV(name, MP_RT_STR, MP_RT_ALWAYS, 0, 0, "", "the metric's name, as --events or the preset "
       "named it"),
    EV(event, MP_RT_STR, MP_RT_ALWAYS, SIMULATED, 1, "", "the event string resolved (\"-\": the "
       "preset's event this model lacks)"),
    EV(origin, MP_RT_STR, MP_RT_ALWAYS, SIMULATED, 1, "", "generic, libpfm4, sysfs, raw or preset"),
    EV(pmu, MP_RT_STR, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: the PMU it belongs to"),
    EV(encoding, MP_RT_STR, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: libpfm4's canonical "
       "string or a description"),
    EV(type, MP_RT_COUNT, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: perf_event_attr.type"),
    EV(config, MP_RT_HEX, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: perf_event_attr.config"),
    EV(config1, MP_RT_HEX, MP_RT_OMIT_ZERO, ENCODED, 0, "", "encoded: perf_event_attr.config1, "
       "when not 0"),
    EV(exclude_user, MP_RT_BOOL, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: user mode not counted"),
    EV(exclude_kernel, MP_RT_BOOL, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: kernel mode not "
       "counted"),
    EV(exclude_hv, MP_RT_BOOL, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: hypervisor not counted"),
    EV(scope, MP_RT_STR, MP_RT_ALWAYS, ENCODED, 0, "", "encoded: what it really counts: user, "
       "kernel, user+kernel"),
    EV(unit, MP_RT_STR, MP_RT_OMIT_EMPTY, ENCODED, 0, "", "encoded: what one count is: ns "
       "(task-clock, cpu-clock) or events"),
    EV(cpu_wide, MP_RT_BOOL, MP_RT_OMIT_ZERO, 0, 0, "", "true: an uncore event counting all "
       "work on its CPUs"),
    EV(cpu_scope, MP_RT_STR, MP_RT_ALWAYS, MP_RT_WHEN(mp_rcounter_event, cpu_wide), 0, "",
       "cpu_wide: what it counts, in words"),
    {"status", MP_RT_CHOICE, MP_RT_ALWAYS, offsetof(mp_rcounter_event, opened), 0, 0, 0, 0,
     status_names, NULL, "", "opened or unavailable", 0},
    EV(pass, MP_RT_COUNT, MP_RT_OMIT_NEGATIVE, OPENED, 0, "", "opened: the 1-based pass "
       "measuring it (0: the software pass; simulated: none)"),
    EV(group, MP_RT_COUNT, MP_RT_OMIT_NEGATIVE, OPENED, 0, "", "opened: its group in the pass "
       "(simulated: none)"),
    EV(access, MP_RT_STR, MP_RT_OMIT_EMPTY, OPENED, 0, "", "opened: how its pass read it "
       "(rdpmc, mrs, read())"),
    EV(reason, MP_RT_STR, MP_RT_ALWAYS, OPENED, 1, "", "unavailable: why"),
    EV(source, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, 0, "", "sim-import: simulated"),
};
#undef EV
#undef ENCODED
#undef OPENED
#undef SIMULATED

const mp_rtable mp_rcounter_event_table = {"counters.events[]", event_fields,
                                           sizeof event_fields / sizeof event_fields[0]};

#define B(k, type, unit, doc) \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rbudget, k), 0, 0, 0, 0, NULL, NULL, unit, doc, 0}
static const mp_rtfield budget_fields[] = {
    B(general, MP_RT_COUNT, "counters", "general-purpose counters a pass may use"),
    B(fixed, MP_RT_COUNT, "counters", "fixed counters (Intel cycles, instructions)"),
    B(nmi_watchdog, MP_RT_BOOL, "", "kernel.nmi_watchdog holds a counter"),
    B(note, MP_RT_STR, "", "where the budget comes from"),
};
#undef B
static const mp_rtable budget_table = {"counters.budget", budget_fields,
                                       sizeof budget_fields / sizeof budget_fields[0]};

#define ROW(k, type, absent, when, unit, doc) \
    {#k, type, absent, offsetof(mp_rcounters, k), 0, 0, when, 0, NULL, NULL, unit, doc, 0}
#define PLANNED MP_RT_WHEN(mp_rcounters, planned)
/* a field of a run's counters only, left out of a simulated run's */
#define RUNS(k, type, unit, doc)                                                              \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rcounters, k), 0, 0,                                \
     MP_RT_WHEN(mp_rcounters, simulated), 1, NULL, NULL, unit, doc, 0}
static const mp_rtfield fields[] = {
    RUNS(spec, MP_RT_STR, "", "--events as given"),
    ROW(preset, MP_RT_STR, MP_RT_ALWAYS, 0, "", "the preset's name, or list"),
    ROW(scope, MP_RT_STR, MP_RT_ALWAYS, 0, "", "what the opened counters include: user+kernel, "
        "user, none"),
    RUNS(scope_note, MP_RT_STR, "", "why that scope (the privilege seen)"),
    ROW(note, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, "", "older and simulated files: a note on the "
        "counts"),
    RUNS(passes, MP_RT_COUNT, "passes", "counter passes per cell"),
    ROW(preset_file, MP_RT_STR, MP_RT_ALWAYS, PLANNED, "", "the preset data file chosen "
        "(pmu/presets/)"),
    ROW(preset_source, MP_RT_STR, MP_RT_ALWAYS, PLANNED, "", "that file's source line"),
    ROW(libpfm4_pmu, MP_RT_STR, MP_RT_ALWAYS, PLANNED, "", "the core PMU libpfm4 detected, or "
        "none"),
    {"budget", MP_RT_OBJECT, MP_RT_ALWAYS, offsetof(mp_rcounters, budget), 0, 0, PLANNED, 0,
     NULL, &budget_table, "", "the counters a pass may use: {general, fixed, nmi_watchdog, "
     "note}", 0},
    {"software_added", MP_RT_TEXT_LIST, MP_RT_ALWAYS, offsetof(mp_rcounters, software_added),
     MP_RCNT_MAX_SOFTWARE, offsetof(mp_rcounters, nsoftware_added), PLANNED, 0, NULL, NULL, "",
     "software events the plan added that --events did not name", 0},
    ROW(software_why, MP_RT_STR, MP_RT_ALWAYS, PLANNED, "", "why they are always counted"),
    {"events", MP_RT_OBJECT_LIST, MP_RT_ALWAYS, offsetof(mp_rcounters, events),
     sizeof(mp_rcounter_event), offsetof(mp_rcounters, nevents), 0, 0, NULL,
     &mp_rcounter_event_table, "", "every event: where it is measured, or why not", 0},
};
#undef ROW
#undef PLANNED
#undef RUNS

const mp_rtable mp_rcounters_table = {"counters", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rcounters_json(const mp_rcounters *c)
{
    return mp_rtable_json(&mp_rcounters_table, c);
}

void mp_rcounters_read(const cJSON *o, mp_rcounters *c)
{
    memset(c, 0, sizeof *c);
    mp_rtable_read(&mp_rcounters_table, o, c);
    c->planned = cJSON_GetObjectItemCaseSensitive(o, "preset_file") != NULL;
}

void mp_rcounter_event_read(const cJSON *e, mp_rcounter_event *ev)
{
    memset(ev, 0, sizeof *ev);
    mp_rtable_read(&mp_rcounter_event_table, e, ev);
    ev->encoded = cJSON_GetObjectItemCaseSensitive(e, "encoding") != NULL;
}
