/* plan_json.c - the "counters" object of results.json: the plan, its budget
 * and every event with where it is measured or why not. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* Why every plan but "none" counts the software group (`events`, results.json). */
#define SOFTWARE_WHY "always counted, in pass 0 beside any hardware counter: they need no " \
    "PMU and tell whether the waiter slept (task-clock below the wall time, " \
    "context-switches), moved or faulted during the interval"

cJSON *mp_pmu_plan_json(const mp_pmu_plan *plan)
{
    cJSON *o = cJSON_CreateObject(), *arr, *b;
    char hex[32];
    cJSON_AddStringToObject(o, "spec", plan->spec);
    cJSON_AddStringToObject(o, "preset", plan->preset);
    cJSON_AddStringToObject(o, "scope", mp_pmu_plan_scope(plan));
    cJSON_AddStringToObject(o, "scope_note", plan->scope_note);
    cJSON_AddNumberToObject(o, "passes", plan->npasses);
    if (!strcmp(plan->preset, "none")) {
        cJSON_AddItemToObject(o, "events", cJSON_CreateArray());
        return o;
    }
    cJSON_AddStringToObject(o, "preset_file", plan->model);
    cJSON_AddStringToObject(o, "preset_source", plan->model_source);
    cJSON_AddStringToObject(o, "libpfm4_pmu", plan->libpfm_pmu[0] ? plan->libpfm_pmu : "none");
    b = cJSON_AddObjectToObject(o, "budget");
    cJSON_AddNumberToObject(b, "general", plan->budget_general);
    cJSON_AddNumberToObject(b, "fixed", plan->budget_fixed);
    cJSON_AddBoolToObject(b, "nmi_watchdog", plan->host.nmi_watchdog);
    cJSON_AddStringToObject(b, "note", plan->budget_note);
    arr = cJSON_AddArrayToObject(o, "software_added");
    for (unsigned i = 0; i < MP__SOFTWARE_GROUP_N; i++)
        if (plan->sw_added & (1u << i))
            cJSON_AddItemToArray(arr, cJSON_CreateString(mp__software_group[i]));
    cJSON_AddStringToObject(o, "software_why", SOFTWARE_WHY);
    arr = cJSON_AddArrayToObject(o, "events");
    for (unsigned i = 0; i < plan->nev; i++) {
        const mp__event *ev = &plan->ev[i];
        cJSON *e = cJSON_CreateObject();
        int encoded = strcmp(ev->spec, "-") != 0 && ev->encoding[0];
        cJSON_AddStringToObject(e, "name", ev->name);
        cJSON_AddStringToObject(e, "event", ev->spec);
        cJSON_AddStringToObject(e, "origin", ev->origin);
        if (encoded) {
            cJSON_AddStringToObject(e, "pmu", ev->pmu);
            cJSON_AddStringToObject(e, "encoding", ev->encoding);
            cJSON_AddNumberToObject(e, "type", ev->attr.type);
            snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)ev->attr.config);
            cJSON_AddStringToObject(e, "config", hex);
            if (ev->attr.config1) {
                snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)ev->attr.config1);
                cJSON_AddStringToObject(e, "config1", hex);
            }
            cJSON_AddBoolToObject(e, "exclude_user", ev->attr.exclude_user);
            cJSON_AddBoolToObject(e, "exclude_kernel", ev->attr.exclude_kernel);
            cJSON_AddBoolToObject(e, "exclude_hv", ev->attr.exclude_hv);
            cJSON_AddStringToObject(e, "scope", mp__event_scope(ev));
        }
        if (ev->cpu_wide) {
            cJSON_AddBoolToObject(e, "cpu_wide", 1);
            cJSON_AddStringToObject(e, "cpu_scope", ev->cpu_scope);
        }
        cJSON_AddStringToObject(e, "status", ev->available ? "opened" : "unavailable");
        if (ev->available) {
            cJSON_AddNumberToObject(e, "pass", ev->pass);
            cJSON_AddNumberToObject(e, "group", ev->group);
            if (ev->access[0])
                cJSON_AddStringToObject(e, "access", ev->access);
        } else {
            cJSON_AddStringToObject(e, "reason", ev->reason);
        }
        cJSON_AddItemToArray(arr, e);
    }
    return o;
}
