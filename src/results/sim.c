/* SPDX-License-Identifier: MIT */
/* sim.c - a simulated run's cells; see results/sim.h. */
#include "results/sim.h"

#include <string.h>

/* The fields of mp_rcell_fields[] a simulated cell holds. */
static const char *const sim_fields[] = {
    "backend", "fd_kind", "mode", "nfds", "active", "status", "reason", "metrics",
};

cJSON *mp_rsim_cell_json(const mp_rcell *c, const char *scope)
{
    cJSON *o = mp_rcell_json_of(c, sim_fields, sizeof sim_fields / sizeof sim_fields[0]);
    if (!o)
        return NULL;
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

/* a list of mp_rsim_config, its capacity the member's */
#define LIST(k, kind, u, d)                                                                  \
    {.key = #k, .type = kind, .off = offsetof(mp_rsim_config, k),                           \
     .len = sizeof ((mp_rsim_config *)0)->k / sizeof ((mp_rsim_config *)0)->k[0],          \
     .count_off = offsetof(mp_rsim_config, n##k), .unit = u, .doc = d}
#define ROW(k, kind, u, d) {.key = #k, .type = kind, .off = offsetof(mp_rsim_config, k),     \
                            .unit = u, .doc = d}
static const mp_rtfield config_fields[] = {
    LIST(backends, MP_RT_TEXT_LIST, "", "plan.env's backends="),
    LIST(fds, MP_RT_COUNT_LIST, "fds", "plan.env's fds=: the N measured"),
    LIST(active, MP_RT_COUNT_LIST, "fds", "K ready at once: 1"),
    LIST(modes, MP_RT_TEXT_LIST, "", "ready"),
    LIST(fd_kinds, MP_RT_TEXT_LIST, "", "plan.env's fd_kind="),
    ROW(fd_kind, MP_RT_STR, "", "the first of fd_kinds"),
    ROW(calls, MP_RT_COUNT, "calls", "plan.env's calls=: calls per cell, the warm-up's "
        "included"),
    ROW(ready_pos, MP_RT_STR, "", "where the ready descriptor lies: last"),
    ROW(events, MP_RT_STR, "", "context.label: simulated (GEOMETRY)"),
};
#undef LIST
#undef ROW

const mp_rtable mp_rsim_config_table = {"config (simulated)", config_fields,
                                        sizeof config_fields / sizeof config_fields[0]};

cJSON *mp_rsim_config_json(const mp_rsim_config *c)
{
    return mp_rtable_json(&mp_rsim_config_table, c);
}

#define LEVEL(k, kind, left_out, u, d) \
    {.key = #k, .type = kind, .absent = left_out, .off = offsetof(mp_rsim_level, k), .unit = u, \
     .doc = d}
static const mp_rtfield level_fields[] = {
    LEVEL(size_bytes, MP_RT_COUNT, MP_RT_ALWAYS, "bytes", "the level's size"),
    LEVEL(ways, MP_RT_COUNT, MP_RT_ALWAYS, "", "its associativity"),
    LEVEL(policy, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "l3: inclusive or victim"),
};
#undef LEVEL
static const mp_rtable level_table = {"context.geometry.LEVEL", level_fields,
                                      sizeof level_fields / sizeof level_fields[0]};

#define GEO(k, kind, u, d) \
    {.key = #k, .type = kind, .off = offsetof(mp_rsim_geometry, k), .unit = u, .doc = d}
#define LEVEL(k, d)                                                                          \
    {.key = #k, .type = MP_RT_OBJECT, .off = offsetof(mp_rsim_geometry, k),                 \
     .sub = &level_table, .unit = "", .doc = d}
static const mp_rtfield geometry_fields[] = {
    GEO(name, MP_RT_STR, "", "the geometry file's name (sim/geometries/NAME.conf)"),
    GEO(description, MP_RT_STR, "", "the CPU it models"),
    GEO(line_bytes, MP_RT_COUNT, "bytes", "the line of every cache level"),
    LEVEL(l1d, "the L1 data cache: {size_bytes, ways}"),
    LEVEL(l1i, "the L1 instruction cache: {size_bytes, ways}"),
    LEVEL(l2, "the L2: {size_bytes, ways}"),
    LEVEL(l3, "the L3: {size_bytes, ways, policy}"),
    GEO(dtlb, MP_RT_STR, "", "the L1 dTLB: ENTRIES,WAYS"),
    GEO(itlb, MP_RT_STR, "", "the L1 iTLB: ENTRIES,WAYS"),
    GEO(l2tlb, MP_RT_STR, "", "the unified L2 TLB: ENTRIES,WAYS"),
    GEO(page_bytes, MP_RT_COUNT, "bytes", "the one page size"),
    GEO(prefetch, MP_RT_STR, "", "plan.env's prefetch=: none, l1d, l2 or l1d+l2"),
};
#undef GEO
#undef LEVEL

const mp_rtable mp_rsim_geometry_table = {"context.geometry", geometry_fields,
                                          sizeof geometry_fields / sizeof geometry_fields[0]};

cJSON *mp_rsim_geometry_json(const mp_rsim_geometry *g)
{
    return mp_rtable_json(&mp_rsim_geometry_table, g);
}
