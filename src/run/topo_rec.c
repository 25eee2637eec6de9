/* SPDX-License-Identifier: MIT */
/* topo_rec.c - the "topology" object's model from a loaded topology; see
 * run/topo_rec.h. */
#include "run/topo_rec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 5

/* One cache level's row, its cpulists written into groups (one per cache,
 * at most room of them); returns how many groups it used. */
static size_t cache_row(const mp_topo *t, const mp_cache_level *c, mp_rtopo_cache *row,
                        char (*groups)[512], size_t room)
{
    *row = (mp_rtopo_cache){.level = c->level, .type = c->unified ? "unified" : "data",
                            .size_bytes = (long long)c->size_bytes,
                            .sized_apart = c->size_min_bytes != c->size_max_bytes,
                            .size_min_bytes = (long long)c->size_min_bytes,
                            .size_max_bytes = (long long)c->size_max_bytes,
                            .line_bytes = c->line_bytes, .instances = c->instances,
                            .pus_per_instance = c->pus_per_instance};
    size_t n = 0;
    while (n < room && n < MP_RTOPO_MAX_SHARED &&
           mp_topo_cache_cpus(t, c->level, (int)n, groups[n], sizeof groups[n]) >= 0) {
        row->shared_by[n] = groups[n];
        n++;
    }
    row->nshared_by = n;
    return n;
}

static int fill_caches(mp_topo_rec *rec, const mp_topo *t)
{
    mp_cache_level lv[MAX_LEVELS];
    int nc = mp_topo_caches(t, lv, MAX_LEVELS);
    size_t n = nc < MAX_LEVELS ? (size_t)nc : MAX_LEVELS, room = 0;
    for (size_t i = 0; i < n; i++)
        room += lv[i].instances > 0 ? (size_t)lv[i].instances : 0;
    rec->caches = calloc(n ? n : 1, sizeof *rec->caches);
    rec->groups = calloc(room ? room : 1, sizeof *rec->groups);
    if (!rec->caches || !rec->groups)
        return -ENOMEM;
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += cache_row(t, &lv[i], &rec->caches[i], rec->groups + used, room - used);
    rec->m.caches = rec->caches;
    rec->m.ncaches = n;
    return 0;
}

static void fill_offered(mp_topo_rec *rec, const mp_topo *t)
{
    int np = mp_topo_offered(t, rec->pairs, MP_TOPO_NPLACEMENTS);
    for (int i = 0; i < np && i < MP_TOPO_NPLACEMENTS; i++) {
        const mp_pu_pair *p = &rec->pairs[i];
        rec->offered[i] = (mp_rtopo_offer){.requested = p->requested, .kind = p->placement,
                                           .waiter_pu = p->waiter_pu, .poker_pu = p->poker_pu};
    }
    rec->m.offered = rec->offered;
    rec->m.noffered = np < MP_TOPO_NPLACEMENTS ? (size_t)np : MP_TOPO_NPLACEMENTS;
}

int mp_topo_rec_fill(mp_topo_rec *rec, const mp_topo *t)
{
    mp_topo_counts n;
    int known;
    memset(rec, 0, sizeof *rec);
    mp_topo_get_counts(t, &n);
    mp_topo_usable_list(t, rec->usable, sizeof rec->usable);
    const char *model = mp_topo_cpu_model(t);
    rec->m = (mp_rtopology){.source = mp_topo_source(t), .has_cpu_model = model != NULL,
                            .cpu_model = model, .packages = n.packages,
                            .numa_nodes = n.numa_nodes, .cores = n.cores, .pus = n.pus,
                            .usable_pus = n.usable_pus, .usable_cpus = rec->usable,
                            .restricted = n.usable_pus < n.pus};
    rec->m.line_bytes = mp_topo_line_bytes(t, &known);
    rec->m.line_bytes_known = known;
    fill_offered(rec, t);
    return fill_caches(rec, t);
}

void mp_topo_rec_place(mp_topo_rec *rec, const mp_pu_pair *pair, int fell_back)
{
    rec->m.placed = 1;
    rec->m.placement = pair->placement;
    rec->m.placement_requested = pair->requested;
    rec->m.placement_detail = pair->detail;
    rec->m.placement_fell_back = fell_back;
    rec->m.waiter_pu = pair->waiter_pu;
    rec->m.poker_pu = pair->poker_pu;
}

void mp_topo_rec_free(mp_topo_rec *rec)
{
    free(rec->caches);
    free(rec->groups);
    rec->caches = NULL;
    rec->groups = NULL;
}
