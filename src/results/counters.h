/* SPDX-License-Identifier: MIT */
/* counters.h - the "counters" object of results.json
 * (docs/results-schema.md): the counter plan, its budget, and every event
 * with where it is measured or why not.  One model, mp_rcounters, that
 * run/ fills from pmu/'s plan and writes, and report/ reads back, through
 * the tables of its fields. */
#ifndef MP_RESULTS_COUNTERS_H
#define MP_RESULTS_COUNTERS_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/table.h"

#define MP_RCNT_MAX_SOFTWARE 8

/* counters.events[] */
typedef struct mp_rcounter_event {
    int simulated;                /* sim-import's: no event or origin */
    const char *name, *event, *origin;
    int encoded;                  /* pmu ... scope are there */
    const char *pmu, *encoding;
    long long type;
    unsigned long long config, config1;   /* config1: left out when 0 */
    int exclude_user, exclude_kernel, exclude_hv;
    const char *scope;
    const char *unit;             /* what one count is: "ns" or "events" */
    int cpu_wide;                 /* written only when true, with cpu_scope */
    const char *cpu_scope;
    int opened;                   /* status: 1 "opened", 0 "unavailable", -1 neither */
    long long pass, group;        /* opened; left out below 0 (simulated) */
    const char *access;           /* opened; left out when "" */
    const char *reason;           /* not opened */
    const char *source;           /* sim-import: "simulated" */
} mp_rcounter_event;

typedef struct mp_rbudget {
    long long general, fixed;
    int nmi_watchdog;
    const char *note;
} mp_rbudget;

typedef struct mp_rcounters {
    int simulated;                /* sim-import's: no spec, scope_note or passes */
    const char *spec, *preset, *scope, *scope_note;
    const char *note;             /* older and simulated files: a note on the counts */
    long long passes;
    int planned;                  /* preset_file ... software_why are there (not "none") */
    const char *preset_file, *preset_source, *libpfm4_pmu;
    mp_rbudget budget;
    const char *software_added[MP_RCNT_MAX_SOFTWARE];
    size_t nsoftware_added;
    const char *software_why;
    const mp_rcounter_event *events;
    size_t nevents;
} mp_rcounters;

extern const mp_rtable mp_rcounters_table;
extern const mp_rtable mp_rcounter_event_table;

cJSON *mp_rcounters_json(const mp_rcounters *c);
/* counters o into c, unchecked (results/table.h: mp_rtable_read), events
 * left out (c->events NULL); c's strings point into o. */
void mp_rcounters_read(const cJSON *o, mp_rcounters *c);
/* counters.events[i] e into ev, unchecked, the same way. */
void mp_rcounter_event_read(const cJSON *e, mp_rcounter_event *ev);

#endif
