/* pmu.c - PLACEHOLDER until the pmu issue lands: counts nothing. */
#include "pmu.h"

#include <stdlib.h>
#include <string.h>

struct mp_pmu_plan { char spec[64]; };

int mp_pmu_plan_new(mp_pmu_plan **out, const char *spec, mp_err *err)
{
    (void)err;
    *out = calloc(1, sizeof **out);
    if (!*out) return -ENOMEM;
    strncpy((*out)->spec, spec, sizeof (*out)->spec - 1);
    return 0;
}
void mp_pmu_plan_free(mp_pmu_plan *plan) { free(plan); }
unsigned mp_pmu_plan_passes(const mp_pmu_plan *plan) { (void)plan; return 0; }
const char *mp_pmu_plan_scope(const mp_pmu_plan *plan) { (void)plan; return "none"; }
cJSON *mp_pmu_plan_json(const mp_pmu_plan *plan)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "preset", plan->spec);
    cJSON_AddStringToObject(o, "scope", "none");
    cJSON_AddStringToObject(o, "note", "counters not implemented yet");
    return o;
}
int mp_pmu_pass_open(mp_pmu_pass **out, const mp_pmu_plan *plan, unsigned pass, mp_err *err)
{ (void)out; (void)plan; (void)pass; return mp_errf(err, -ENOSYS, "no counters"); }
void mp_pmu_pass_close(mp_pmu_pass *p) { (void)p; }
unsigned mp_pmu_pass_count(const mp_pmu_pass *p) { (void)p; return 0; }
const char *mp_pmu_pass_name(const mp_pmu_pass *p, unsigned i) { (void)p; (void)i; return ""; }
const char *mp_pmu_pass_read_path(const mp_pmu_pass *p) { (void)p; return "none"; }
int mp_pmu_pass_read(mp_pmu_pass *p, mp_pmu_snap *s) { (void)p; (void)s; return 0; }
int mp_pmu_pass_delta(const mp_pmu_pass *p, const mp_pmu_snap *a, const mp_pmu_snap *b, int64_t *out)
{ (void)p; (void)a; (void)b; (void)out; return 0; }
