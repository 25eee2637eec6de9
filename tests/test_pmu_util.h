/* SPDX-License-Identifier: MIT */
/* test_pmu_util.h - small helpers shared by the pmu tests: find an event of
 * a plan by metric name, and skip (exit 77) with the reason printed. */
#ifndef MP_TEST_PMU_UTIL_H
#define MP_TEST_PMU_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/internal.h"

static inline const mp__event *tp_find(const mp_pmu_plan *pl, const char *name)
{
    for (unsigned i = 0; i < pl->nev; i++)
        if (!strcmp(pl->ev[i].name, name)) return &pl->ev[i];
    return NULL;
}

static inline void tp_skip(const char *why)
{
    printf("SKIP: %s\n", why);
    fflush(stdout);
    exit(77);
}

#endif
