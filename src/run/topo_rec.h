/* SPDX-License-Identifier: MIT */
/* topo_rec.h - results.json's "topology" object (results/topology.h) of a
 * loaded topology: its model filled from topology/'s accessors, for a run
 * and for `muxprof topology --json`. */
#ifndef MP_RUN_TOPO_REC_H
#define MP_RUN_TOPO_REC_H

#include "results/topology.h"
#include "topology/topology.h"

/* The model and what its strings and lists point into (and into the
 * topology it was filled from, which must outlive it). */
typedef struct mp_topo_rec {
    mp_rtopology m;
    mp_rtopo_cache *caches;          /* m.ncaches, allocated */
    char (*groups)[512];             /* the caches' cpulists, allocated */
    mp_rtopo_offer offered[MP_TOPO_NPLACEMENTS];
    mp_pu_pair pairs[MP_TOPO_NPLACEMENTS];
    char usable[512];
} mp_topo_rec;

/* t's summary into rec, no pair chosen; 0 or -ENOMEM.  Freed with
 * mp_topo_rec_free either way. */
int mp_topo_rec_fill(mp_topo_rec *rec, const mp_topo *t);

/* A run's pair: placement ... poker_pu into rec->m, pointing into pair;
 * the binding (warnings, bound) is the caller's to set. */
void mp_topo_rec_place(mp_topo_rec *rec, const mp_pu_pair *pair, int fell_back);

/* What fill allocated; rec zeroed, or filled, or freed already. */
void mp_topo_rec_free(mp_topo_rec *rec);

#endif
