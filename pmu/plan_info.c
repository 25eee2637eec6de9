/* SPDX-License-Identifier: MIT */
/* plan_info.c - what a plan knows, as plain C for results.json's
 * "counters" (results/counters.h writes it): the plan, its budget and
 * every event with where it is measured or why not. */
#include "internal.h"

#include <string.h>

/* Why every plan but "none" counts the software group (`events`, results.json). */
#define SOFTWARE_WHY "always counted, in pass 0 beside any hardware counter: they need no " \
    "PMU and tell whether the waiter slept (task-clock below the wall time, " \
    "context-switches), moved or faulted during the interval"

void mp_pmu_plan_describe(const mp_pmu_plan *plan, mp_pmu_plan_info *info)
{
    memset(info, 0, sizeof *info);
    info->spec = plan->spec;
    info->preset = plan->preset;
    info->scope = mp_pmu_plan_scope(plan);
    info->scope_note = plan->scope_note;
    info->passes = plan->npasses;
    if (!strcmp(plan->preset, "none"))
        return;
    info->planned = 1;
    info->preset_file = plan->model;
    info->preset_source = plan->model_source;
    info->libpfm4_pmu = plan->libpfm_pmu[0] ? plan->libpfm_pmu : "none";
    info->budget_general = plan->budget_general;
    info->budget_fixed = plan->budget_fixed;
    info->nmi_watchdog = plan->host.nmi_watchdog;
    info->budget_note = plan->budget_note;
    for (unsigned i = 0; i < MP__SOFTWARE_GROUP_N; i++)
        if (plan->sw_added & (1u << i))
            info->software_added[info->nsoftware_added++] = mp__software_group[i];
    info->software_why = SOFTWARE_WHY;
    info->nevents = plan->nev;
}

void mp_pmu_plan_event(const mp_pmu_plan *plan, unsigned i, mp_pmu_event_info *out)
{
    const mp__event *ev = &plan->ev[i];
    memset(out, 0, sizeof *out);
    out->name = ev->name;
    out->event = ev->spec;
    out->origin = ev->origin;
    out->encoded = strcmp(ev->spec, "-") != 0 && ev->encoding[0];
    if (out->encoded) {
        out->pmu = ev->pmu;
        out->encoding = ev->encoding;
        out->type = ev->attr.type;
        out->config = (unsigned long long)ev->attr.config;
        out->config1 = (unsigned long long)ev->attr.config1;
        out->exclude_user = ev->attr.exclude_user;
        out->exclude_kernel = ev->attr.exclude_kernel;
        out->exclude_hv = ev->attr.exclude_hv;
        out->scope = mp__event_scope(ev);
        out->unit = mp__event_unit(ev);
    }
    out->cpu_wide = ev->cpu_wide;
    out->cpu_scope = ev->cpu_scope;
    out->opened = ev->available;
    out->pass = ev->pass;
    out->group = ev->group;
    out->access = ev->access;
    out->reason = ev->reason;
}
