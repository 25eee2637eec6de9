/* counter_pass.c - the counter passes of a cell: each group of the event
 * plan opened, an empty read bracket calibrated, then `samples` calls
 * counted one by one (run/internal.h). */
#include "run/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/stats.h"
#include "run/sample.h"

#define BRACKETS 200          /* empty counter brackets per counter pass */

/* Count events around each of `samples` calls, for every pass of the plan. */
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
        blk = (mp_block){.counters = d};
        rc = c->mode == MP_MODE_READY
                 ? mp_sample_ready(c->backend, st, set, warmup, n, pass, &blk, err)
                 : mp_sample_wakeup(c->backend, st, set, env->poker, MP_CELL_DELAY(c),
                                    warmup, n, pass, &blk, err);
        if (rc < 0)
            goto done;
        for (unsigned k = 0; k < nc; k++) {
            mp_metric *m = mp_cell_add_metric(c, mp_pmu_pass_name(pass, k));
            if (!m) {
                rc = mp_errf(err, -ENOMEM, "out of memory");
                goto done;
            }
            /* No calibrated bracket: nothing to subtract is unknown, not 0,
             * so the counter is not reported. */
            size_t kept = isnan(bracket[k]) ? 0 : blk.kept;
            for (size_t i = 0; i < kept; i++)
                x[i] = (double)d[i * nc + k] - bracket[k];
            mp_summarize(x, kept, &m->s);   /* n == 0: written as null */
            m->is_counter = 1;
            m->pass = (int)p + 1;
            m->bracket = bracket[k];
            m->dropped = blk.dropped;
            snprintf(m->scope, sizeof m->scope, "%s", mp_pmu_pass_scope(pass, k));
            snprintf(m->read_path, sizeof m->read_path, "%s", mp_pmu_pass_read_path(pass));
        }
    done:
        free(d);
        free(x);
        mp_pmu_pass_close(pass);
        if (rc < 0)
            return rc;
    }
    return 0;
}
