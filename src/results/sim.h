/* SPDX-License-Identifier: MIT */
/* sim.h - a cell of a simulated run (docs/results-schema.md, "Simulated
 * runs"): counts of muxprof's cache and TLB model per call, imported by
 * `muxprof sim-import` from the QEMU plugin's summaries.  Such a cell holds
 * only the fields of mp_rcell_fields[] that a counting window gives (no
 * wall time, repeats, descriptor numbers or limits: the guest's loop
 * measured none of them), and each metric says where it was counted.  The
 * run's config is its own table: what plan.env asked the guest's loop for. */
#ifndef MP_RESULTS_SIM_H
#define MP_RESULTS_SIM_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "results/cell.h"
#include "results/table.h"

/* Every metric of a simulated cell is named with this prefix, never mixed
 * with a real counter's name. */
#define MP_RSIM_PREFIX "sim:"

/* c as results[] holds a simulated cell: the fields of mp_rcell_fields[]
 * such a cell holds, in the table's order, written by the table's writer;
 * each metric's <summary> followed by "scope" (scope) and "source":
 * "simulated".  c->metrics are plain summaries (is_counter 0); p99 and
 * stddev NaN when the model did not give them (written as null).  NULL
 * when out of memory. */
cJSON *mp_rsim_cell_json(const mp_rcell *c, const char *scope);

/* The most elements of a list of plan.env (backends=, fds=): one per two of
 * the 4096 bytes a value is split in. */
#define MP_RSIM_MAX_LIST 2048

/* The "config" object of a simulated run: what plan.env asked the guest's
 * loop for, in ready mode with one descriptor ready, the last. */
typedef struct mp_rsim_config {
    const char *backends[MP_RSIM_MAX_LIST];
    size_t nbackends;
    long long fds[MP_RSIM_MAX_LIST];
    size_t nfds;
    long long active[1];
    size_t nactive;
    const char *modes[1];
    size_t nmodes;
    const char *fd_kinds[1];
    size_t nfd_kinds;
    const char *fd_kind;
    long long calls;
    const char *ready_pos;
    const char *events;           /* context.label */
} mp_rsim_config;

extern const mp_rtable mp_rsim_config_table;

/* c as a simulated run's "config", through mp_rsim_config_table; NULL
 * when out of memory. */
cJSON *mp_rsim_config_json(const mp_rsim_config *c);

/* context.geometry's cache levels: l1d, l1i, l2, l3. */
typedef struct mp_rsim_level {
    long long size_bytes, ways;
    const char *policy;           /* the last level's; left out when NULL or "" */
} mp_rsim_level;

/* context.geometry: the modelled caches, TLBs, page and prefetcher. */
typedef struct mp_rsim_geometry {
    const char *name, *description;
    long long line_bytes;
    mp_rsim_level l1d, l1i, l2, l3;
    const char *dtlb, *itlb, *l2tlb;   /* "ENTRIES,WAYS" */
    long long page_bytes;
    const char *prefetch;
} mp_rsim_geometry;

extern const mp_rtable mp_rsim_geometry_table;

/* g as a simulated run's context.geometry, through mp_rsim_geometry_table;
 * NULL when out of memory. */
cJSON *mp_rsim_geometry_json(const mp_rsim_geometry *g);

#endif
