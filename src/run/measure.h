/* SPDX-License-Identifier: MIT */
/* measure.h - one run of `muxprof run` from its directory on: what it
 * measures, the files it writes, and what it leaves for the summary.  The
 * steps that belong to the layers above run/ (the experiments, the
 * --anonymize rewrite, the report) are given by the caller as functions.
 * Error convention: common/mp_err.h. */
#ifndef MP_RUN_MEASURE_H
#define MP_RUN_MEASURE_H

#include <sched.h>

#include "common/file.h"
#include "common/mp_err.h"
#include "pmu/pmu.h"
#include "run/config.h"
#include "run/journal.h"
#include "run/peer.h"
#include "run/results.h"
#include "topology/topology.h"

/* The run as its steps see it (mp_run_steps). */
typedef struct mp_run_stage {
    const mp_run_config *cfg;
    mp_peer *peer;            /* the helper process holding the far ends */
    const mp_pmu_plan *plan;
    const cpu_set_t *cpus;    /* the process's CPUs, before the waiter was pinned */
    mp_results *results;
    mp_journal *journal;
} mp_run_stage;

/* What a run does through the layers above run/: its caller gives each. */
typedef struct mp_run_steps {
    /* After the sweep, when cfg->experiments asks for more than the calls:
     * the experiments, into results->experiments and one journal record
     * each; 0, -EINTR once stopped, or a failure with its message. */
    int (*experiments)(const mp_run_stage *st, mp_err *err);
    /* --anonymize: SRC/results.json rewritten into DST. */
    int (*anonymize)(const char *src, mp_dir *dst, mp_err *err);
    /* DIR/report.md and DIR/figures/ from the results.json just written;
     * figures: MP_RUN_FIG_DRAW (drawn), MP_RUN_FIG_PAPER (PDFs for a paper). */
    int (*report)(mp_dir *dir, int figures, mp_err *err);
} mp_run_steps;

/* The report step's figures: drawn (no --no-plots), and their PDFs laid
 * out for a paper (--paper).  The values of report/fig.h's MP_RFIG_DRAW
 * and MP_RFIG_PAPER, to which cmd/run.c holds them. */
#define MP_RUN_FIG_DRAW 1
#define MP_RUN_FIG_PAPER 2

/* What a run that measured leaves for its summary. */
typedef struct mp_run_outcome {
    mp_results results;   /* what was measured */
    mp_journal journal;   /* its records; journal.failed: an append that failed */
    int bound;            /* the waiter and the poker pinned as placed */
    int saved;            /* results.json, results.csv and samples.csv written */
    int report_rc;        /* of steps->report: 0, or negative with report_err */
    mp_err report_err;
    int exit_code;        /* so far: 0, 1 (a failure) or 128 + the stop signal */
} mp_run_outcome;

/* The units of work of each cell, which the progress counts as passes:
 * its timing repeats, the plan's counter passes, and the profile pass with
 * --profile. */
size_t mp_run_units_per_cell(const mp_run_config *cfg, const mp_pmu_plan *plan);

/* The default run directory, reports/runs/<host>-<stamp>, created by
 * mkdir itself so that two runs started in the same second cannot both
 * take it: the second gets <host>-<stamp>-2, and so on; its name goes to
 * cfg->out_dir. */
int mp_run_default_dir(mp_run_config *cfg, mp_dir *out, mp_err *err);
/* A run directory given with --force over a run muxprof wrote: that run's
 * outputs and figures removed first (its journal is kept, and refused
 * later); nothing for a directory just created. */
void mp_run_dir_clear(mp_dir *out);

/* "auto" is a request for the best pair; it falls back when no pair at
 * all could be bound (one usable PU). */
int mp_run_placement_fell_back(const mp_pu_pair *pair);

/* Everything after the run directory exists: 0 once the run measured (o
 * filled, to be freed with mp_run_outcome_free, also when o->exit_code
 * says it failed), or a negative errno before that, with the message in
 * err (the directory is removed, unless a journal left in it is kept). */
int mp_run_measure(mp_run_config *cfg, mp_dir *out, mp_pmu_plan *plan, mp_topo *topo,
                   const mp_pu_pair *pair, const mp_run_steps *steps, mp_run_outcome *o,
                   mp_err *err);
void mp_run_outcome_free(mp_run_outcome *o);

#endif
