/* SPDX-License-Identifier: MIT */
/* placement.c - waiter/poker placements: which PU pair each kind maps to
 * on a topology, which kinds a topology offers, and why it refuses others.
 *
 * Kinds (PUs are always two usable PUs; see docs/topology.md):
 *   smt         same core (SMT siblings)
 *   same-l2     different cores sharing one L2
 *   same-l3     different cores that share an L3 but not an L2, one NUMA node
 *   cross-l3    different L3 caches within one NUMA node (AMD CCXs)
 *   cross-numa  PUs whose NUMA nodes differ
 *   none        no binding (-1, -1)
 *   auto        different cores sharing the last-level cache, preferring a
 *               pair that shares nothing nearer; falls back to SMT siblings,
 *               then two cores sharing no cache, then none.
 * The pair is the first one in hwloc's logical PU order (waiter first). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

const char *const mp_topo_placement_names[MP_TOPO_NPLACEMENTS] = {
    "auto", "smt", "same-l2", "same-l3", "cross-l3", "cross-numa", "none",
};

static hwloc_obj_t anc(const mp_topo *t, hwloc_obj_t pu, hwloc_obj_type_t type)
{
    return hwloc_get_ancestor_obj_by_type(t->topo, type, pu);
}

/* Both PUs under one object of this type. */
static int share(const mp_topo *t, hwloc_obj_t a, hwloc_obj_t b, hwloc_obj_type_t type)
{
    hwloc_obj_t x = anc(t, a, type);
    return x && x == anc(t, b, type);
}

static int same_numa(hwloc_obj_t a, hwloc_obj_t b)
{
    return hwloc_bitmap_intersects(a->nodeset, b->nodeset);
}

/* Does the pair (a, b) have this kind? */
static int is_kind(const mp_topo *t, hwloc_obj_t a, hwloc_obj_t b, enum mp__kind k)
{
    int same_core = mp__core_of(t, a) == mp__core_of(t, b);
    switch (k) {
    case MP__SMT:
        return same_core;
    case MP__SAME_L2:
        return !same_core && share(t, a, b, HWLOC_OBJ_L2CACHE);
    case MP__SAME_L3:
        return !same_core && !share(t, a, b, HWLOC_OBJ_L2CACHE)
               && share(t, a, b, HWLOC_OBJ_L3CACHE) && same_numa(a, b);
    case MP__CROSS_L3: {
        hwloc_obj_t la = anc(t, a, HWLOC_OBJ_L3CACHE), lb = anc(t, b, HWLOC_OBJ_L3CACHE);
        return la && lb && la != lb && same_numa(a, b);
    }
    case MP__CROSS_NUMA:
        return !same_numa(a, b);
    default:
        return 0;
    }
}

/* The named kind of a pair, or MP__OTHER. */
static enum mp__kind classify(const mp_topo *t, hwloc_obj_t a, hwloc_obj_t b)
{
    for (int k = MP__SMT; k <= MP__CROSS_NUMA; k++)
        if (is_kind(t, a, b, (enum mp__kind)k))
            return (enum mp__kind)k;
    return MP__OTHER;
}

/* Auto's preference tiers, best first. */
enum { AUTO_LLC_ONLY, AUTO_LLC, AUTO_SMT, AUTO_CORES_NUMA, AUTO_CORES, AUTO_TIERS };

static int auto_tier_ok(const mp_topo *t, hwloc_obj_t a, hwloc_obj_t b, int tier, int llc)
{
    int same_core = mp__core_of(t, a) == mp__core_of(t, b);
    switch (tier) {
    case AUTO_LLC_ONLY:   /* share the LLC and no cache nearer to the cores */
        if (same_core || llc < 2 || !share(t, a, b, mp__cache_type(llc)) || !same_numa(a, b))
            return 0;
        for (int level = 1; level < llc; level++)
            if (share(t, a, b, mp__cache_type(level)))
                return 0;
        return 1;
    case AUTO_LLC:
        return !same_core && llc >= 2 && share(t, a, b, mp__cache_type(llc));
    case AUTO_SMT:
        return same_core;
    case AUTO_CORES_NUMA:
        return !same_core && same_numa(a, b);
    default:
        return !same_core;
    }
}

/* Where b must lie for (a, b) to have kind k (or auto tier `tier` when
 * >= 0): under the returned object when the kind shares one, anywhere when
 * *anywhere is set; NULL without *anywhere: no b can do (a lacks the object
 * the kind needs).  This keeps the pair search within a's core or cache
 * instead of trying every PU against every PU. */
static hwloc_obj_t scope_of(const mp_topo *t, hwloc_obj_t a, enum mp__kind k, int tier,
                            int llc, int *anywhere)
{
    *anywhere = 0;
    if (tier == AUTO_LLC_ONLY || tier == AUTO_LLC)
        return llc >= 2 ? anc(t, a, mp__cache_type(llc)) : NULL;
    if (tier == AUTO_SMT || (tier < 0 && k == MP__SMT))
        return anc(t, a, HWLOC_OBJ_CORE);
    if (tier < 0 && k == MP__SAME_L2)
        return anc(t, a, HWLOC_OBJ_L2CACHE);
    if (tier < 0 && k == MP__SAME_L3)
        return anc(t, a, HWLOC_OBJ_L3CACHE);
    if (tier < 0 && k == MP__CROSS_L3 && !anc(t, a, HWLOC_OBJ_L3CACHE))
        return NULL;
    *anywhere = 1;
    return NULL;
}

/* Kinds that need two objects of a type the topology has fewer of. */
static int impossible(const mp_topo *t, enum mp__kind k, int tier)
{
    if (tier >= 0)
        return 0;
    if (k == MP__CROSS_L3)
        return hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_L3CACHE) < 2;
    if (k == MP__CROSS_NUMA)
        return hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_NUMANODE) < 2;
    return 0;
}

/* First usable pair in logical order for a kind (or an auto tier when
 * tier >= 0).  Returns 1 and sets *wa, *pb when found. */
static int first_pair(const mp_topo *t, enum mp__kind k, int tier,
                      hwloc_obj_t *wa, hwloc_obj_t *pb)
{
    int llc = mp__llc_level(t);
    hwloc_obj_t a = NULL;
    if (impossible(t, k, tier))
        return 0;
    while ((a = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_PU, a))) {
        if (!mp__usable(t, a))
            continue;
        int anywhere;
        hwloc_obj_t scope = scope_of(t, a, k, tier, llc, &anywhere);
        if (!scope && !anywhere)
            continue;
        hwloc_obj_t b = NULL;
        while ((b = anywhere ? hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_PU, b)
                             : hwloc_get_next_obj_inside_cpuset_by_type(
                                   t->topo, scope->cpuset, HWLOC_OBJ_PU, b))) {
            if (b == a || !mp__usable(t, b))
                continue;
            if (tier >= 0 ? auto_tier_ok(t, a, b, tier, llc) : is_kind(t, a, b, k)) {
                *wa = a;
                *pb = b;
                return 1;
            }
        }
    }
    return 0;
}

static int kind_of_name(const char *name)
{
    for (int k = 0; k < MP_TOPO_NPLACEMENTS; k++)
        if (!strcmp(name, mp_topo_placement_names[k]))
            return k;
    return -1;
}

static void describe(const mp_topo *t, hwloc_obj_t a, hwloc_obj_t b, enum mp__kind k,
                     mp_pu_pair *out)
{
    char sz[32];
    hwloc_obj_t c;
    switch (k) {
    case MP__SMT:
        snprintf(out->detail, sizeof out->detail,
                 "PU %u and PU %u are SMT siblings on one core", a->os_index, b->os_index);
        break;
    case MP__SAME_L2:
        c = anc(t, a, HWLOC_OBJ_L2CACHE);
        snprintf(out->detail, sizeof out->detail,
                 "PU %u and PU %u are on different cores sharing one L2 (%s)",
                 a->os_index, b->os_index, mp__fmt_bytes(c->attr->cache.size, sz, sizeof sz));
        break;
    case MP__SAME_L3:
        c = anc(t, a, HWLOC_OBJ_L3CACHE);
        snprintf(out->detail, sizeof out->detail,
                 "PU %u and PU %u are on different cores and L2s sharing one L3 (%s)",
                 a->os_index, b->os_index, mp__fmt_bytes(c->attr->cache.size, sz, sizeof sz));
        break;
    case MP__CROSS_L3:
        snprintf(out->detail, sizeof out->detail,
                 "PU %u and PU %u are under different L3 caches in one NUMA node",
                 a->os_index, b->os_index);
        break;
    case MP__CROSS_NUMA:
        snprintf(out->detail, sizeof out->detail,
                 "PU %u and PU %u are in different NUMA nodes", a->os_index, b->os_index);
        break;
    default:
        snprintf(out->detail, sizeof out->detail,
                 "PU %u and PU %u are on different cores that share no cache hwloc knows of",
                 a->os_index, b->os_index);
        break;
    }
}

static void set_none(mp_pu_pair *out, const char *detail)
{
    snprintf(out->placement, sizeof out->placement, "none");
    out->waiter_pu = out->poker_pu = -1;
    snprintf(out->detail, sizeof out->detail, "%s", detail);
}

/* Fill *out for kind k; returns 1 when the topology offers it. */
static int resolve(const mp_topo *t, int k, mp_pu_pair *out)
{
    hwloc_obj_t a = NULL, b = NULL;
    memset(out, 0, sizeof *out);
    snprintf(out->requested, sizeof out->requested, "%s", mp_topo_placement_names[k]);
    if (k == MP__NONE) {
        set_none(out, "threads not bound; the scheduler places them");
        return 1;
    }
    if (k == MP__AUTO) {
        int found = 0;
        for (int tier = 0; tier < AUTO_TIERS && !found; tier++)
            found = first_pair(t, MP__AUTO, tier, &a, &b);
        if (!found) {
            set_none(out, "only one usable PU: threads not bound");
            return 1;
        }
    } else if (!first_pair(t, (enum mp__kind)k, -1, &a, &b)) {
        return 0;
    }
    enum mp__kind got = classify(t, a, b);
    snprintf(out->placement, sizeof out->placement, "%s",
             got == MP__OTHER ? "auto" : mp_topo_placement_names[got]);
    out->waiter_pu = (int)a->os_index;
    out->poker_pu = (int)b->os_index;
    describe(t, a, b, got, out);
    return 1;
}

int mp_topo_offered(const mp_topo *t, mp_pu_pair *out, int max)
{
    int n = 0;
    for (int k = 0; k < MP_TOPO_NPLACEMENTS; k++) {
        mp_pu_pair p;
        if (!resolve(t, k, &p))
            continue;
        if (n < max)
            out[n] = p;
        n++;
    }
    return n;
}

const char *mp_topo_refusal(const mp_topo *t, const char *placement)
{
    mp_pu_pair p;
    int k = kind_of_name(placement);
    if (k < 0 || resolve(t, k, &p))
        return NULL;
    switch (k) {
    case MP__SMT:
        return "no usable core has two usable PUs (no SMT, SMT off, or the siblings "
               "are outside this process's cpuset)";
    case MP__SAME_L2:
        return "no two usable cores share an L2 cache (L2 is per core here, or hwloc "
               "reports none)";
    case MP__SAME_L3:
        return "no two usable cores with separate L2s share an L3 within one NUMA node "
               "(no L3 reported, or one core per L3)";
    case MP__CROSS_L3:
        return "no NUMA node has usable PUs under two different L3 caches (one L3 per "
               "NUMA node, or no L3 reported)";
    default:
        return "all usable PUs are in one NUMA node";
    }
}

/* "auto, smt, none" into buf. */
static void offered_names(const mp_topo *t, char *buf, size_t len)
{
    mp_pu_pair pairs[MP_TOPO_NPLACEMENTS];
    int n = mp_topo_offered(t, pairs, MP_TOPO_NPLACEMENTS);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 pairs[i].requested);
}

int mp_topo_pick(const mp_topo *t, const char *placement, mp_pu_pair *out, mp_err *err)
{
    char names[128];
    int k = placement ? kind_of_name(placement) : -1;
    if (k < 0)
        return mp_errf(err, MP_EUSAGE,
                       "unknown placement '%s': use one of auto, smt, same-l2, same-l3, "
                       "cross-l3, cross-numa, none (muxprof topology lists what this "
                       "host offers)", placement ? placement : "(null)");
    if (resolve(t, k, out))
        return 0;
    offered_names(t, names, sizeof names);
    return mp_errf(err, MP_EUSAGE,
                   "placement '%s' is not possible here: %s; this host offers: %s",
                   placement, mp_topo_refusal(t, placement), names);
}
