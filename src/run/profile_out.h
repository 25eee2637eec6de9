/* SPDX-License-Identifier: MIT */
/* profile_out.h - a cell's "profile" object of results.json
 * (results/profile.h) from a profile pass: what pmu/'s sampler counted,
 * turned into shares of the samples kept and the nanoseconds per call and
 * per descriptor they stand for. */
#ifndef MP_RUN_PROFILE_OUT_H
#define MP_RUN_PROFILE_OUT_H

#include <stdint.h>
#include <cjson/cJSON.h>
#include "pmu/profile.h"

/* What the cell adds to the sampler's counts. */
typedef struct mp_profile_cell {
    uint64_t calls;           /* the calls whose samples were kept */
    double wall_p50_ns;       /* the cell's wall p50: ns per call = share x it */
    long long nfds;           /* descriptors watched: a phase's ns per fd (0: none) */
    const char *no_symbols;   /* why no symbol table was loaded, NULL when one was */
} mp_profile_cell;

/* The object of a pass: its facts, the aggregate's counts, the cell's. */
cJSON *mp_profile_pass_json(const mp_profile_agg *a, const mp_profile_info *pass,
                            const mp_profile_cell *cell);
/* The object of a cell whose sampling event did not open: why. */
cJSON *mp_profile_unavailable_json(const char *why);

#endif
