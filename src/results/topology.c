/* SPDX-License-Identifier: MIT */
/* topology.c - the "topology" object through the tables of its fields; see
 * results/topology.h. */
#include "results/topology.h"

#define CACHE(k, type, when, unit, doc) \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rtopo_cache, k), 0, 0, when, 0, NULL, NULL, unit, doc, 0}
/* a field of a simulated cache only, left out when 0 or "" */
#define MODELLED(k, type, absent, doc) \
    {#k, type, absent, offsetof(mp_rtopo_cache, k), 0, 0, 0, 0, NULL, NULL, "", doc, 0}
/* a field of a host's cache only */
#define HOSTS(k, type, unit, doc)                                                             \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rtopo_cache, k), 0, 0,                              \
     MP_RT_WHEN(mp_rtopo_cache, simulated), 1, NULL, NULL, unit, doc, 0}
#define APART MP_RT_WHEN(mp_rtopo_cache, sized_apart)

static const mp_rtfield cache_fields[] = {
    CACHE(level, MP_RT_COUNT, 0, "", "1 to 5"),
    CACHE(type, MP_RT_STR, 0, "", "unified or data (simulated: also instruction)"),
    CACHE(size_bytes, MP_RT_COUNT, 0, "bytes", "size of the level's first cache, 0 unknown"),
    CACHE(size_min_bytes, MP_RT_COUNT, APART, "bytes", "the smallest, when the caches of the "
          "level differ (hybrid CPUs)"),
    CACHE(size_max_bytes, MP_RT_COUNT, APART, "bytes", "the largest, when they differ"),
    MODELLED(ways, MP_RT_COUNT, MP_RT_OMIT_ZERO, "simulated: the model's associativity"),
    MODELLED(policy, MP_RT_STR, MP_RT_OMIT_EMPTY, "simulated, the last level: inclusive or "
             "victim"),
    CACHE(line_bytes, MP_RT_COUNT, 0, "bytes", "line size, 0 when hwloc does not know it"),
    HOSTS(instances, MP_RT_COUNT, "caches", "caches of this level"),
    HOSTS(pus_per_instance, MP_RT_COUNT, "PUs", "PUs sharing the first cache"),
    {"shared_by", MP_RT_TEXT_LIST, MP_RT_ALWAYS, offsetof(mp_rtopo_cache, shared_by),
     MP_RTOPO_MAX_SHARED, offsetof(mp_rtopo_cache, nshared_by),
     MP_RT_WHEN(mp_rtopo_cache, simulated), 1, NULL, NULL, "", "each cache's PUs, as a cpulist", 0},
};
#undef CACHE
#undef MODELLED
#undef HOSTS
#undef APART

static const mp_rtable cache_table = {"topology.caches[]", cache_fields,
                                      sizeof cache_fields / sizeof cache_fields[0]};

static const mp_rtfield offer_fields[] = {
    {"kind", MP_RT_STR, MP_RT_ALWAYS, offsetof(mp_rtopo_offer, kind), 0, 0, 0, 0, NULL, NULL,
     "", "what the pair is: smt, same-l2, same-l3, cross-l3, cross-numa, none, or auto", 0},
    {"waiter_pu", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(mp_rtopo_offer, waiter_pu), 0, 0, 0, 0,
     NULL, NULL, "", "the waiter's PU (OS index), -1 unbound", 0},
    {"poker_pu", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(mp_rtopo_offer, poker_pu), 0, 0, 0, 0,
     NULL, NULL, "", "the poker's PU, -1 unbound", 0},
};

static const mp_rtable offer_table = {"topology.placements_offered.NAME", offer_fields,
                                      sizeof offer_fields / sizeof offer_fields[0]};

#define ROW(k, type, absent, when, unit, doc) \
    {#k, type, absent, offsetof(mp_rtopology, k), 0, 0, when, 0, NULL, NULL, unit, doc, 0}
#define PLACED MP_RT_WHEN(mp_rtopology, placed)
/* a field of a host's topology only, left out of a simulated one */
#define HOST(k, type, unit, doc)                                                              \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rtopology, k), 0, 0,                                \
     MP_RT_WHEN(mp_rtopology, simulated), 1, NULL, NULL, unit, doc, 0}
static const mp_rtfield fields[] = {
    ROW(simulated, MP_RT_BOOL, MP_RT_OMIT_ZERO, 0, "", "sim-import: true, the caches are the "
        "model's (no host fields, no placements)"),
    HOST(source, MP_RT_STR, "", "host, synthetic: DESC or xml: FILE"),
    ROW(cpu_model, MP_RT_STR, MP_RT_ALWAYS, MP_RT_WHEN(mp_rtopology, has_cpu_model), "",
        "hwloc's CPUModel, when it has one"),
    HOST(packages, MP_RT_COUNT, "", "packages (sockets)"),
    HOST(numa_nodes, MP_RT_COUNT, "", "NUMA nodes"),
    HOST(cores, MP_RT_COUNT, "", "cores"),
    HOST(pus, MP_RT_COUNT, "PUs", "PUs (hardware threads) of the machine"),
    HOST(usable_pus, MP_RT_COUNT, "PUs", "the PUs this process may use "
        "(cgroup cpuset and affinity)"),
    HOST(usable_cpus, MP_RT_STR, "", "those PUs as a cpulist"),
    HOST(restricted, MP_RT_BOOL, "", "fewer usable PUs than the machine has"),
    ROW(line_bytes, MP_RT_COUNT, MP_RT_ALWAYS, 0, "bytes", "the cache line the analysis uses"),
    HOST(line_bytes_known, MP_RT_BOOL, "", "false: hwloc does not know it, 64 "
        "assumed"),
    {"caches", MP_RT_OBJECT_LIST, MP_RT_ALWAYS, offsetof(mp_rtopology, caches),
     sizeof(mp_rtopo_cache), offsetof(mp_rtopology, ncaches), 0, 0, NULL, &cache_table, "",
     "every data cache level, L1 outwards", 0},
    {"placements_offered", MP_RT_KEYED_LIST, MP_RT_ALWAYS, offsetof(mp_rtopology, offered),
     sizeof(mp_rtopo_offer), offsetof(mp_rtopology, noffered), MP_RT_WHEN(mp_rtopology, simulated),
     1, NULL, &offer_table, "",
     "each placement offered here, by the name asked for: its pair", 0},
    ROW(placement, MP_RT_STR, MP_RT_ALWAYS, PLACED, "", "a run: what the pair chosen turned "
        "out to be"),
    ROW(placement_requested, MP_RT_STR, MP_RT_ALWAYS, PLACED, "", "a run: --placement"),
    ROW(placement_detail, MP_RT_STR, MP_RT_ALWAYS, PLACED, "", "a run: why the pair is of that "
        "kind"),
    ROW(placement_fell_back, MP_RT_BOOL, MP_RT_ALWAYS, PLACED, "", "a run: a pair was asked "
        "for and the threads ran unbound"),
    ROW(waiter_pu, MP_RT_COUNT, MP_RT_ALWAYS, PLACED, "", "a run: the waiter's PU, -1 unbound"),
    ROW(poker_pu, MP_RT_COUNT, MP_RT_ALWAYS, PLACED, "", "a run: the poker's PU, -1 unbound"),
    ROW(poker_binding_warning, MP_RT_STR, MP_RT_OMIT_EMPTY, PLACED, "", "a run: why the poker "
        "runs unpinned"),
    ROW(binding_warning, MP_RT_STR, MP_RT_OMIT_EMPTY, PLACED, "", "a run: why the waiter runs "
        "unpinned"),
    ROW(bound, MP_RT_BOOL, MP_RT_ALWAYS, PLACED, "", "a run: the waiter and the poker ran pinned to their PUs"),
};
#undef ROW
#undef PLACED
#undef HOST

const mp_rtable mp_rtopology_table = {"topology", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rtopology_json(const mp_rtopology *t)
{
    return mp_rtable_json(&mp_rtopology_table, t);
}
