/* SPDX-License-Identifier: MIT */
/* counter_pass.c - the counter passes of a cell: each group of the event
 * plan opened, an empty read bracket calibrated, then `samples` calls
 * counted one by one (run/internal.h). */
#include "run/internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/stats.h"
#include "run/sample.h"

#define BRACKETS 200          /* empty counter brackets per counter pass */

/* A metric of counter k's kept samples (row-major, nc per row), the
 * bracket subtracted; INT64_MIN marks a sample without a count. */
static int add_counter(mp_cell *c, const char *name, const int64_t *d, size_t kept,
                       unsigned nc, unsigned k, double bracket, size_t dropped,
                       const mp_pmu_pass *pass, double *x, mp_err *err)
{
    mp_metric *m = mp_cell_add_metric(c, name);
    if (!m)
        return mp_errf(err, -ENOMEM, "out of memory");
    /* No calibrated bracket: nothing to subtract is unknown, not 0, so the
     * counter is not reported. */
    size_t n = 0;
    for (size_t i = 0; !isnan(bracket) && i < kept; i++)
        if (d[i * nc + k] != INT64_MIN)
            x[n++] = (double)d[i * nc + k] - bracket;
        else
            dropped++;
    mp_summarize(x, n, &m->s);   /* n == 0: written as null */
    m->is_counter = 1;
    m->bracket = bracket;
    m->dropped = dropped;
    snprintf(m->scope, sizeof m->scope, "%s", mp_pmu_pass_scope(pass, k));
    snprintf(m->read_path, sizeof m->read_path, "%s", mp_pmu_pass_read_path(pass));
    snprintf(m->unit, sizeof m->unit, "%s", mp_pmu_pass_unit(pass, k));
    return 0;
}

/* Count events around each of `samples` calls, for every pass of the plan;
 * in wakeup mode the poker counts the same pass around its write. */
int mp__counter_passes(mp_cell *c, void *st, const mp_fdset *set, const mp_sweep_env *env,
                       int samples, int warmup, size_t cell, size_t ncells, mp_err *err)
{
    unsigned npass = mp_pmu_plan_passes(env->plan);
    for (unsigned p = 0; p < npass; p++) {
        mp_pmu_pass *pass;
        mp_err perr;
        mp__sweep_progress(env, cell, ncells, c, "counter pass", (int)p + 1, (int)npass);
        if (mp_pmu_pass_open(&pass, env->plan, p, &perr) < 0) {
            snprintf(c->reason, sizeof c->reason, "counter pass %u not measured: %.400s", p + 1,
                     perr.msg);
            continue;
        }
        unsigned nc = mp_pmu_pass_count(pass);
        size_t n = (size_t)samples;
        int64_t *d = malloc(sizeof *d * (n > BRACKETS ? n : BRACKETS) * (nc ? nc : 1));
        double *x = malloc(sizeof *x * (n > BRACKETS ? n : BRACKETS));
        int64_t *pd = NULL;
        double bracket[MP_PMU_MAX_COUNTERS];
        int rc = 0;
        if (!d || !x) {
            rc = mp_errf(err, -ENOMEM, "out of memory for counter samples");
            goto done;
        }
        /* Calibrate: the counts of an empty read bracket, per counter. */
        mp_block blk = {.counters = d};
        for (size_t i = 0; i < BRACKETS; i++) {
            mp_pmu_snap a, b;
            int ra = mp_pmu_pass_read(pass, &a);
            int rb = mp_pmu_pass_read(pass, &b);
            if (ra == 0 && rb == 0 && mp_pmu_pass_delta(pass, &a, &b, d + blk.kept * nc) == 0)
                blk.kept++;
        }
        for (unsigned k = 0; k < nc; k++) {
            for (size_t i = 0; i < blk.kept; i++)
                x[i] = (double)d[i * nc + k];
            bracket[k] = blk.kept ? mp_median(x, blk.kept) : NAN;
        }
        int wake = c->mode == MP_MODE_WAKEUP;
        if (wake && !(pd = malloc(sizeof *pd * n * MP_PMU_MAX_COUNTERS))) {
            rc = mp_errf(err, -ENOMEM, "out of memory for counter samples");
            goto done;
        }
        blk = (mp_block){.counters = d, .poker_counters = pd};
        if (wake)
            env->poker->count_pass = (int)p;
        rc = !wake ? mp_sample_ready(c->backend, st, set, warmup, n, pass, &blk, err)
                   : mp_sample_wakeup(c->backend, st, set, env->poker, MP_CELL_DELAY(c),
                                      warmup, n, pass, &blk, err);
        if (wake)
            env->poker->count_pass = -1;
        if (rc < 0)
            goto done;
        size_t first = c->nmetrics;
        for (unsigned k = 0; k < nc && rc == 0; k++)
            rc = add_counter(c, mp_pmu_pass_name(pass, k), d, blk.kept, nc, k, bracket[k],
                             blk.dropped, pass, x, err);
        /* The poker's side of the same pass: its write, the callbacks and
         * the wakeup it does for the waiter, named poker:COUNTER. */
        const mp_poke_page *pg = wake ? env->poker->pg : NULL;
        for (unsigned k = 0; pg && pg->count_n == (int)nc && k < nc && rc == 0; k++) {
            char name[MP_RM_NAME];
            snprintf(name, sizeof name, "poker:%s", mp_pmu_pass_name(pass, k));
            rc = add_counter(c, name, pd, blk.kept, nc, k, pg->count_bracket[k], blk.dropped,
                             pass, x, err);
        }
        if (pg && pg->count_rc < 0 && !c->reason[0])
            snprintf(c->reason, sizeof c->reason, "the poker's counters of pass %u not "
                     "measured: %.400s", p + 1, pg->count_msg);
        for (size_t i = first; i < c->nmetrics; i++)
            c->metrics[i].pass = (int)p + 1;
    done:
        free(d);
        free(x);
        free(pd);
        mp_pmu_pass_close(pass);
        if (rc < 0)
            return rc;
    }
    return 0;
}
