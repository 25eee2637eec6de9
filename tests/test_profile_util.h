/* SPDX-License-Identifier: MIT */
/* test_profile_util.h - small helpers shared by the profile tests: an
 * aggregate's share of a phase and its top functions (pmu/profile.h). */
#ifndef MP_TEST_PROFILE_UTIL_H
#define MP_TEST_PROFILE_UTIL_H

#include <math.h>
#include <string.h>

#include "pmu/profile.h"

/* The share of a's samples charged to phase NAME; NaN when a lists no such phase. */
static inline double tp_phase_share(const mp_profile_agg *a, const char *name)
{
    mp_profile_count c[MP_PROFILE_MAX_PHASES];
    size_t n = mp_profile_agg_phases(a, c, MP_PROFILE_MAX_PHASES);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, name))
            return (double)c[i].samples / (double)mp_profile_agg_samples(a);
    return NAN;
}

/* a's function of rank i (0: the most samples) into *out; 0 when a lists fewer. */
static inline int tp_function(const mp_profile_agg *a, size_t i, mp_profile_count *out)
{
    mp_profile_count c[MP_PROFILE_TOP];
    if (i >= mp_profile_agg_functions(a, c, MP_PROFILE_TOP))
        return 0;
    *out = c[i];
    return 1;
}

#endif
