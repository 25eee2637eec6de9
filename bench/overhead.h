/* SPDX-License-Identifier: MIT */
/* overhead.h - the harness-overhead statistic of bench_sweep: how much a
 * timed ready-mode call costs over the same call in a bare loop, from the
 * repeats.  Each repeat's median (wall_ns, the clock bracket subtracted)
 * over the bare loop's ns per call (bare_loop_ns, the median loop's mean),
 * then the median of those ratios with its order-statistic interval
 * (common/stats.h, mp_median_ci_order).  A mean of per-call samples is
 * moved by a single interrupt, a bare loop's mean by one slow loop: mean
 * against mean ranged 0.04 to 34.9 over 30 runs of one host.  The target is
 * met when the whole interval lies inside it, missed when the interval lies
 * wholly outside, and "not resolved" when it straddles an edge. */
#ifndef MP_BENCH_OVERHEAD_H
#define MP_BENCH_OVERHEAD_H

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "common/stats.h"

typedef struct mp_overhead {
    double ratio, lo, hi, level;   /* median ratio, its interval and the interval's coverage */
    size_t repeats;
} mp_overhead;

enum { MP_OVERHEAD_MET, MP_OVERHEAD_MISSED, MP_OVERHEAD_UNRESOLVED };

/* The statistic of one results.json cell: 0, or -EINVAL when the cell has
 * no bare loop or fewer than 2 repeat medians. */
static inline int mp_overhead_of(const cJSON *cell, mp_overhead *o)
{
    const cJSON *bl = cJSON_GetObjectItemCaseSensitive(cell, "bare_loop_ns");
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(cell, "repeat_medians_ns"), *x;
    double r[64];
    size_t n = 0;
    if (!cJSON_IsNumber(bl) || !(bl->valuedouble > 0))
        return -EINVAL;
    cJSON_ArrayForEach(x, rm)
        if (cJSON_IsNumber(x) && n < sizeof r / sizeof r[0])
            r[n++] = x->valuedouble / bl->valuedouble;
    if (n < 2 || mp_median_ci_order(r, n, MP_CI_LEVEL, &o->lo, &o->hi, &o->level) < 0)
        return -EINVAL;
    o->ratio = mp_median(r, n);
    o->repeats = n;
    return 0;
}

/* Met, missed or unresolved against the band [lo_ok, hi_ok]. */
static inline int mp_overhead_verdict(const mp_overhead *o, double lo_ok, double hi_ok)
{
    if (o->lo >= lo_ok && o->hi <= hi_ok)
        return MP_OVERHEAD_MET;
    if (o->hi < lo_ok || o->lo > hi_ok)
        return MP_OVERHEAD_MISSED;
    return MP_OVERHEAD_UNRESOLVED;
}

#endif
