/* SPDX-License-Identifier: MIT */
/* run_all.c - the experiments a run asks for, one after another (run/'s
 * mp_run_steps.experiments).  Error convention: common/mp_err.h. */
#include <errno.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "experiments/experiment.h"
#include "run/journal.h"
#include "run/measure.h"
#include "run/results.h"
#include "run/sample.h"

/* "experiment NAME" for each experiment cfg asks for, in registry order,
 * until one is interrupted; one that fails is kept as {"status": "error"}. */
int mp_experiments_run(const mp_run_stage *st, mp_err *err)
{
    const mp_run_config *cfg = st->cfg;
    mp_results *r = st->results;
    mp_exp_env xenv = {.cfg = cfg, .peer = st->peer, .plan = st->plan, .cpus = st->cpus};
    int rc = 0;
    r->experiments = cJSON_CreateObject();
    for (size_t i = 0; mp_experiments[i].name && !mp_sample_stop; i++) {
        const mp_experiment *x = &mp_experiments[i];
        if (!x->run || !(cfg->experiments & (1u << i)))
            continue;
        cJSON *o = NULL;
        mp_err xerr;
        if (!cfg->quiet)
            fprintf(stderr, "experiment %s...\n", x->name);
        int xrc = x->run(&xenv, &o, &xerr);
        if (xrc == -EINTR) {
            snprintf(r->interrupted_what, sizeof r->interrupted_what, "experiment %s",
                     x->name);
            break;
        }
        if (xrc < 0) {
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "status", "error");
            cJSON_AddStringToObject(o, "reason", xerr.msg);
            fprintf(stderr, "muxprof: experiment %s: %s\n", x->name, xerr.msg);
        }
        cJSON_AddItemToObject(r->experiments, x->name, o);
        if (mp_journal_experiment(st->journal, x->name, o) < 0) {
            rc = mp_errf(err, -ENOMEM, "out of memory keeping experiment %s", x->name);
            break;
        }
    }
    return rc;
}
