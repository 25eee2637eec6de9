/* SPDX-License-Identifier: MIT */
/* pool.c - several runs of one side pooled into one input: the run is the
 * unit of replication.  Each cell's "repeat medians" become the runs'
 * medians of that cell, its median their median and its interval their
 * order-statistic interval, so that the test, the ratio's interval, the
 * threshold and "could show" of change.c are those of k runs against k
 * runs.  See compare.h. */
#include "compare/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/stats.h"

int mp_cmp_pool(mp_cmp_host *hs, size_t k, mp_err *err)
{
    mp_cmp_host *h = &hs[0];
    if (k > MP_RM_MAX_REP)
        return mp_errf(err, -EINVAL, "--pool %zu: at most %d runs a side", k, MP_RM_MAX_REP);
    for (size_t j = 0; j < k; j++)
        if (hs[j].reference)
            return mp_errf(err, -EINVAL, "%s is a published reference (one number per cell): "
                           "only runs are pooled", hs[j].arg);
    for (size_t i = 0; i < h->m.ncells; i++) {
        mp_rcell *x = &h->m.cells[i];
        if (x->status != MP_CELL_OK)
            continue;
        double v[MP_RM_MAX_REP], w[MP_RM_MAX_REP];
        size_t n = 0;
        for (size_t j = 0; j < k; j++) {
            const mp_rcell *y = mp_rm_find(&hs[j].m, x->mode, x->fd_kind, x->backend, x->nfds);
            if (y && y->wall.p50 > 0)
                v[n++] = y->wall.p50;
        }
        memcpy(x->rep, v, n * sizeof *v);
        x->nrep = n;
        memcpy(w, v, n * sizeof *v);
        x->wall.p50 = n ? mp_median(w, n) : NAN;
        x->ci_kind = MP_CI_NONE;
        if (n >= 2 && mp_median_ci_order(v, n, 0.95, &x->ci_lo, &x->ci_hi, &x->ci_level) == 0)
            x->ci_kind = MP_CI_REPEATS;
    }
    /* the host's level: each canary quantity's median over the runs that have it all */
    for (int q = 0; q < MP_RCANARY_N; q++) {
        double v[MP_RM_MAX_REP];
        size_t n = 0;
        for (size_t j = 0; j < k; j++)
            if (isfinite(hs[j].m.noise.canary[q]))
                v[n++] = hs[j].m.noise.canary[q];
        h->m.noise.canary[q] = n == k ? mp_median(v, n) : NAN;
    }
    h->pooled = k;
    char tmp[sizeof h->label];
    snprintf(tmp, sizeof tmp, "%.150s, %zu runs", h->label, k);
    snprintf(h->label, sizeof h->label, "%s", tmp);
    return 0;
}
