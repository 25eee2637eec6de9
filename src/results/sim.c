/* sim.c - a simulated run's cells; see results/sim.h. */
#include "results/sim.h"

#include <string.h>

/* The fields of mp_rcell_fields[] a simulated cell holds. */
static const char *const sim_fields[] = {
    "backend", "fd_kind", "mode", "nfds", "active", "status", "reason", "metrics",
};

static int held(const char *key)
{
    for (size_t i = 0; i < sizeof sim_fields / sizeof sim_fields[0]; i++)
        if (!strcmp(key, sim_fields[i]))
            return 1;
    return 0;
}

cJSON *mp_rsim_cell_json(const mp_rcell *c, const char *scope)
{
    cJSON *all = mp_rcell_json(c), *o = cJSON_CreateObject();
    if (!all || !o) {
        cJSON_Delete(all);
        cJSON_Delete(o);
        return NULL;
    }
    for (size_t i = 0; i < mp_nrcell_fields; i++) {
        const char *key = mp_rcell_fields[i].key;
        cJSON *v = held(key) ? cJSON_DetachItemFromObjectCaseSensitive(all, key) : NULL;
        if (v)
            cJSON_AddItemToObject(o, key, v);
    }
    cJSON_Delete(all);
    cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "metrics"), *s;
    cJSON_ArrayForEach(s, m) {
        if (!cJSON_AddStringToObject(s, "scope", scope) ||
            !cJSON_AddStringToObject(s, "source", "simulated")) {
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}
