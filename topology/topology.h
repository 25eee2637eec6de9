/* SPDX-License-Identifier: MIT */
/* topology.h - host topology through hwloc: caches, PUs, waiter/poker
 * placements and thread binding.  The only module that includes hwloc.h.
 * Error convention: see src/common/mp_err.h.
 */
#ifndef MP_TOPOLOGY_H
#define MP_TOPOLOGY_H

#include <stdio.h>

#include "common/mp_err.h"

typedef struct mp_topo mp_topo;

/* A waiter/poker PU pair for one placement kind.  PUs are OS indexes
 * (what sched_setaffinity and /proc call CPU numbers); -1 = unbound. */
typedef struct mp_pu_pair {
    char placement[16];   /* "smt", "same-l2", ..., "none"; for "auto" the
                             kind the pair turned out to be, or "auto" when
                             it is none of the named kinds (docs/topology.md) */
    int waiter_pu;
    int poker_pu;
    char requested[16];   /* the name asked for ("auto", "smt", ...) */
    char detail[160];     /* one line: why this pair is of that kind */
} mp_pu_pair;

/* Load the topology of this host (synthetic == NULL), or of an hwloc
 * synthetic description such as "package:2 l3:2 l2:4 core:1 pu:2". */
int mp_topo_load(mp_topo **out, const char *synthetic, mp_err *err);
/* Limits on a loaded topology: PUs in all (the placement search looks at
 * pairs of them), and, for a synthetic description, objects under one
 * parent (hwloc builds a level in time that grows with its square).  Past
 * either the load is refused (MP_EUSAGE) with the numbers. */
#define MP_TOPO_MAX_PUS 4096
#define MP_TOPO_SYNTHETIC_MAX_ARITY 1024
void mp_topo_free(mp_topo *t);

/* Load an hwloc XML export (lstopo --of xml FILE), with the allowed cpuset
 * it records.  Such a topology, like a synthetic one, cannot be bound to.
 * The file must be a regular file (a FIFO is refused, never waited on) of
 * at most MP_TOPO_XML_MAX_BYTES. */
#define MP_TOPO_XML_MAX_BYTES (64u << 20)
int mp_topo_load_xml(mp_topo **out, const char *path, mp_err *err);

/* Pick the PU pair for a placement name: auto, smt, same-l2, same-l3,
 * cross-l3, cross-numa, none.  Returns MP_EUSAGE with a message naming the
 * placements this host offers when it cannot offer the one asked for. */
int mp_topo_pick(const mp_topo *t, const char *placement, mp_pu_pair *out,
                 mp_err *err);

/* Bind the calling thread to one PU and check where it runs afterwards.
 * pu < 0: do nothing.  Fails with -ENOSYS/-EXDEV/-EPERM etc.; the caller
 * then runs unbound and says so. */
int mp_topo_bind_thread(const mp_topo *t, int pu, mp_err *err);

/* Data cache line size in bytes; *known = 0 when hwloc does not know and
 * 64 is assumed. */
unsigned mp_topo_line_bytes(const mp_topo *t, int *known);

/* ---- Additions for the topology verb, tests and later analysis ---- */

/* Every placement name, in the order they are listed and tried. */
#define MP_TOPO_NPLACEMENTS 7
extern const char *const mp_topo_placement_names[MP_TOPO_NPLACEMENTS];

/* The placements this topology offers, with their pairs, in the order of
 * mp_topo_placement_names ("auto" and "none" are always offered).  Writes
 * at most max pairs; returns how many are offered. */
int mp_topo_offered(const mp_topo *t, mp_pu_pair *out, int max);

/* Why a placement is not offered here (static text), or NULL when it is
 * offered or the name is unknown. */
const char *mp_topo_refusal(const mp_topo *t, const char *placement);

/* Where the topology comes from: "host", "synthetic: DESC" or "xml: FILE". */
const char *mp_topo_source(const mp_topo *t);

/* hwloc's CPUModel of the first package (else of the machine), NULL when
 * hwloc has none. */
const char *mp_topo_cpu_model(const mp_topo *t);

/* Counts of the whole machine (hwloc objects), and of the PUs this process
 * may use (cgroup cpuset and affinity; equal to pus when unrestricted). */
typedef struct mp_topo_counts {
    int packages, numa_nodes, cores, pus, usable_pus;
} mp_topo_counts;
void mp_topo_get_counts(const mp_topo *t, mp_topo_counts *out);

/* The usable PUs as a Linux cpulist ("0-3,8"); returns snprintf's value. */
int mp_topo_usable_list(const mp_topo *t, char *buf, size_t len);

/* One level of data (or unified) cache, L1d to L5. */
typedef struct mp_cache_level {
    int level;                     /* 1..5 */
    int unified;                   /* 1 unified, 0 data */
    unsigned long long size_bytes; /* of the first instance; 0 unknown */
    unsigned long long size_min_bytes, size_max_bytes; /* differ on hybrids */
    unsigned line_bytes;           /* 0 when hwloc does not know */
    int instances;                 /* how many caches of this level */
    int pus_per_instance;          /* PUs sharing the first instance */
} mp_cache_level;

/* Data cache levels from L1 outwards; returns how many (at most max are
 * written). */
int mp_topo_caches(const mp_topo *t, mp_cache_level *out, int max);

/* The PUs sharing cache i (0-based, in hwloc's order) of data cache level
 * level, as a cpulist into buf; returns snprintf's value, or -1 when that
 * level has no cache i. */
int mp_topo_cache_cpus(const mp_topo *t, int level, int i, char *buf, size_t len);

/* Size in bytes of the level-N data cache serving PU pu (pu < 0: the first
 * usable PU); 0 when there is none. */
unsigned long long mp_topo_cache_bytes(const mp_topo *t, int level, int pu);

/* One cache on the first usable PU's path to the root, as hwloc has it. */
typedef struct mp_cache_geo {
    int level;                     /* 1..5 */
    char kind;                     /* 'd' data, 'i' instruction, 'u' unified */
    unsigned long long size_bytes; /* 0 unknown */
    unsigned line_bytes;           /* 0 unknown */
    int ways;                      /* 0 unknown, -1 fully associative */
    int inclusive;                 /* hwloc's "Inclusive" info: 1, 0, or -1 not given */
} mp_cache_geo;

/* The caches above the first usable PU, L1 outwards (at most max written);
 * returns how many. */
int mp_topo_pu_caches(const mp_topo *t, mp_cache_geo *out, int max);

/* 1 when the topology was discovered on this host (binding possible), 0
 * for synthetic and XML topologies. */
int mp_topo_is_host(const mp_topo *t);

/* Human-readable description for `muxprof topology`. */
void mp_topo_print(const mp_topo *t, FILE *f);

#endif
