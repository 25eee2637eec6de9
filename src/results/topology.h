/* SPDX-License-Identifier: MIT */
/* topology.h - the "topology" object of results.json
 * (docs/results-schema.md) and of `muxprof topology --json`: the machine's
 * counts, its data caches, the placements it offers and, in a run, the pair
 * chosen and how the threads were bound.  One model, mp_rtopology, that
 * run/ fills from topology/'s accessors and writes through the tables of its
 * fields. */
#ifndef MP_RESULTS_TOPOLOGY_H
#define MP_RESULTS_TOPOLOGY_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/table.h"

/* The most PU groups a cache level lists: one per cache, and no two caches
 * of a level share a PU (topology/ loads at most MP_TOPO_MAX_PUS PUs). */
#define MP_RTOPO_MAX_SHARED 4096

/* topology.caches[] */
typedef struct mp_rtopo_cache {
    int simulated;                 /* sim-import's: ways and policy, no instances */
    long long level;
    const char *type;              /* "unified" or "data"; simulated: also "instruction" */
    long long size_bytes;
    int sized_apart;               /* size_min_bytes, size_max_bytes are there */
    long long size_min_bytes, size_max_bytes;
    long long ways;                /* simulated; left out when 0 */
    const char *policy;            /* simulated, the last level; left out when NULL or "" */
    long long line_bytes, instances, pus_per_instance;
    const char *shared_by[MP_RTOPO_MAX_SHARED];   /* each cache's PUs, a cpulist */
    size_t nshared_by;
} mp_rtopo_cache;

/* topology.placements_offered.NAME: the member named by the placement asked
 * for ("auto", "smt", ...). */
typedef struct mp_rtopo_offer {
    const char *requested;         /* the member's name (first: results/table.h) */
    const char *kind;              /* what the pair turned out to be */
    long long waiter_pu, poker_pu;
} mp_rtopo_offer;

typedef struct mp_rtopology {
    int simulated;                 /* sim-import's: line_bytes and caches only */
    const char *source;
    int has_cpu_model;             /* cpu_model is there */
    const char *cpu_model;
    long long packages, numa_nodes, cores, pus, usable_pus;
    const char *usable_cpus;
    int restricted;
    long long line_bytes;
    int line_bytes_known;
    const mp_rtopo_cache *caches;
    size_t ncaches;
    const mp_rtopo_offer *offered;
    size_t noffered;
    /* A run's: the pair chosen and the binding (placement ... bound). */
    int placed;
    const char *placement, *placement_requested, *placement_detail;
    int placement_fell_back;
    long long waiter_pu, poker_pu;
    const char *poker_binding_warning, *binding_warning;   /* left out when "" */
    int bound;
} mp_rtopology;

extern const mp_rtable mp_rtopology_table;

cJSON *mp_rtopology_json(const mp_rtopology *t);

#endif
