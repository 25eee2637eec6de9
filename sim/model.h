/* SPDX-License-Identifier: MIT */
/* model.h - muxprof's cache and TLB model, with no emulator in it.
 *
 * Per core: L1i, L1d, L2 (set-associative, LRU, one line size for every
 * level), an L1 iTLB, an L1 dTLB and a unified L2 TLB; shared by every core:
 * one L3 (the last level, LLC), inclusive (an L3 eviction invalidates the
 * line in every core's L1i, L1d and L2) or an exclusive victim cache (filled
 * only by L2 evictions; a hit moves the line back to the L2, as AMD Zen's L3
 * does).  L1 and L2 are non-inclusive of each other and evict silently.
 * Caches are indexed by the physical address the caller gives, TLBs by the
 * virtual page.  An optional next-line prefetcher per level (L1d, L2) brings
 * line+1 in on every demand access that reaches that level; its fills are
 * not counted as accesses or misses, only as prefetches.
 *
 * Counts are kept per core and per privilege (user, kernel: the caller
 * decides from the instruction's address).  Not modelled: coherence
 * traffic, dirty lines and write-backs, timing and out-of-order overlap,
 * ASIDs (a TLB entry is a virtual page, whoever mapped it), the hardware's
 * real replacement policies (LRU here), page sizes other than one per model.
 */
#ifndef MP_SIM_MODEL_H
#define MP_SIM_MODEL_H

#include <stdint.h>

#include "common/mp_err.h"

#define MP_SIM_CORES_MAX 64

typedef enum { MP_SIM_INCLUSIVE, MP_SIM_VICTIM } mp_sim_policy;

/* Prefetcher bits (mp_sim_geometry.prefetch). */
#define MP_SIM_PF_L1D 1u
#define MP_SIM_PF_L2 2u

typedef struct mp_sim_cache_geo {
    uint64_t size;      /* bytes */
    unsigned ways;
} mp_sim_cache_geo;

typedef struct mp_sim_tlb_geo {
    unsigned entries, ways;   /* ways == entries: fully associative */
} mp_sim_tlb_geo;

typedef struct mp_sim_geometry {
    char name[64];
    char description[192];
    unsigned line;                          /* bytes, every cache level */
    mp_sim_cache_geo l1i, l1d, l2, l3;
    mp_sim_policy l3_policy;
    mp_sim_tlb_geo itlb, dtlb, l2tlb;
    uint64_t page;                          /* bytes, the one page size */
    unsigned prefetch;                      /* MP_SIM_PF_* */
    char isa[16];                           /* the guest's ISA: arm64 or x86_64 */
} mp_sim_geometry;

/* What is counted, per core and privilege. */
enum mp_sim_event {
    MP_SIM_INSNS,
    MP_SIM_L1I_ACC, MP_SIM_L1I_MISS,
    MP_SIM_L1D_ACC, MP_SIM_L1D_MISS,        /* loads and stores */
    MP_SIM_L1D_LOADS, MP_SIM_L1D_LOAD_MISS,
    MP_SIM_L2_ACC, MP_SIM_L2_MISS,          /* demand: L1i and L1d misses */
    MP_SIM_L3_ACC, MP_SIM_L3_MISS,          /* demand: L2 misses */
    MP_SIM_LLC_LOADS, MP_SIM_LLC_LOAD_MISS, /* the L3's, from data loads */
    MP_SIM_DTLB_ACC, MP_SIM_DTLB_MISS, MP_SIM_DTLB_WALK,   /* L1 dTLB; walks: L2 TLB misses */
    MP_SIM_ITLB_ACC, MP_SIM_ITLB_MISS, MP_SIM_ITLB_WALK,
    MP_SIM_PREFETCH,                        /* lines the prefetchers brought in */
    MP_SIM_NEVENTS
};

/* Names as the simulated metrics carry them (after "sim:"). */
extern const char *const mp_sim_event_names[MP_SIM_NEVENTS];

/* Levels for mp_sim_holds. */
enum mp_sim_level { MP_SIM_LVL_L1I, MP_SIM_LVL_L1D, MP_SIM_LVL_L2, MP_SIM_LVL_L3 };

typedef struct mp_sim mp_sim;

/* A model of g for `cores` cores (1..MP_SIM_CORES_MAX).  Returns 0,
 * MP_EUSAGE for a geometry that does not check (mp_sim_geometry_check),
 * -ENOMEM. */
int mp_sim_new(mp_sim **out, const mp_sim_geometry *g, unsigned cores, mp_err *err);
void mp_sim_free(mp_sim *s);

/* One data access by core (kernel: 0 user, 1 kernel) at virtual address
 * vaddr (the TLBs) and physical address paddr (the caches). */
void mp_sim_data(mp_sim *s, unsigned core, int kernel, uint64_t vaddr, uint64_t paddr,
                 int store);
/* One instruction fetched and executed (counts one instruction). */
void mp_sim_fetch(mp_sim *s, unsigned core, int kernel, uint64_t vaddr, uint64_t paddr);

/* The counters of core and privilege: MP_SIM_NEVENTS values. */
const uint64_t *mp_sim_counts(const mp_sim *s, unsigned core, int kernel);

/* Whether the cache at level (of core, for the private ones) holds the line
 * of paddr.  For tests and checks; changes nothing. */
int mp_sim_holds(const mp_sim *s, unsigned core, enum mp_sim_level level, uint64_t paddr);

/* Geometry files (sim/geometries/NAME.conf): "key=value" lines, '#'
 * comments.  Keys: description, source (any number), line, l1i, l1d, l2,
 * l3 (SIZE,WAYS; SIZE in bytes or with K or M), l3_policy (inclusive,
 * victim), itlb, dtlb, l2tlb (ENTRIES,WAYS), page (bytes, K or M), prefetch
 * (none, l1d, l2, l1d+l2), isa (arm64, x86_64: the guest that runs on
 * it; absent, g->isa is empty).  Every key but source, prefetch and isa is
 * required.
 * name names the text in messages and fills g->name.  Returns 0 or
 * MP_EUSAGE with the line that is wrong. */
int mp_sim_geometry_parse(const char *text, const char *name, mp_sim_geometry *g,
                          mp_err *err);
/* The file at path; g->name is its base name without ".conf".  Returns 0,
 * MP_EUSAGE, or a negative errno when it cannot be read. */
int mp_sim_geometry_load(const char *path, mp_sim_geometry *g, mp_err *err);
/* A prefetch value (none, l1d, l2, l1d+l2) into *bits; 0 or MP_EUSAGE. */
int mp_sim_prefetch_parse(const char *v, unsigned *bits, mp_err *err);
/* Sizes, ways, line and entries consistent (every level a whole number of
 * sets, the line a power of two).  0 or MP_EUSAGE naming the level. */
int mp_sim_geometry_check(const mp_sim_geometry *g, mp_err *err);

#endif
