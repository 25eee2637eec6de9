/* SPDX-License-Identifier: MIT */
/* experiment.h - what a run can measure, as one registry: the per-call sweep
 * (run/), and measurements beyond one call of one backend: the cost of
 * registering N fds, the thundering herd of M waiters on one fd, and
 * level- vs edge-triggered delivery of partly consumed data.  Each of the
 * latter writes one object under "experiments" in results.json
 * (docs/experiments.md), with a table that describes itself
 * (experiments/table.h).  experiments/ uses run/ and below, never cmd/.
 * Adding an experiment: its file here (its run function and its table's
 * description) and one registry row (registry.c); the report and compare
 * draw it from its table (report/sec_xtable.c, compare/xtable.c).
 * Error convention: common/mp_err.h. */
#ifndef MP_EXPERIMENT_H
#define MP_EXPERIMENT_H

#include <cjson/cJSON.h>
#include <sched.h>

#include "experiments/table.h"
#include "run/config.h"
#include "run/measure.h"
#include "run/peer.h"
#include "pmu/pmu.h"

typedef struct mp_exp_env {
    const mp_run_config *cfg;
    mp_peer *peer;
    const mp_pmu_plan *plan;     /* counters around each registration */
    /* CPUs the herd's waiters may run on (the process's, before the main
     * thread was pinned); NULL: inherit the caller's. */
    const cpu_set_t *cpus;
} mp_exp_env;

typedef int (*mp_exp_fn)(const mp_exp_env *env, cJSON **out, mp_err *err);

/* One row of the registry. */
typedef struct mp_experiment {
    const char *name;       /* --experiment NAME, and its key in results.json */
    const char *summary;    /* for --help */
    mp_exp_fn run;          /* NULL for "calls", the sweep run/ does itself */
    const mp_exp_table *table;   /* its table's description; NULL for "calls" */
} mp_experiment;

/* The registry, ended by a row with a NULL name.  Row i is bit i of
 * mp_run_config.experiments; row 0 is "calls" (MP_EXP_CALLS). */
extern const mp_experiment mp_experiments[];

/* The row named name, or NULL; *bit gets its bit. */
const mp_experiment *mp_experiment_find(const char *name, unsigned *bit);
/* "calls, register, ..." for messages. */
const char *mp_experiment_names(void);
/* "calls (the per-call sweep), register (...), ..." for --help. */
const char *mp_experiment_help(void);

/* The terminal summary of every experiment in the "experiments" object of
 * results.json, in registry order. */
void mp_experiments_print(const cJSON *experiments, FILE *f);

/* Each returns -EINTR, having stopped early, once mp_sample_stop is set. */

/* "register": per backend and N, ns to build the watched set (open + N adds). */
int mp_exp_register(const mp_exp_env *env, cJSON **out, mp_err *err);
extern const mp_exp_table mp_exp_register_table;

/* "herd": M waiters on one fd, four epoll arrangements; per event, waiters
 * woken, woken for nothing, latency to the first. */
int mp_exp_herd(const mp_exp_env *env, cJSON **out, mp_err *err);
extern const mp_exp_table mp_exp_herd_table;
/* One arrangement ("own-sets", "own-sets-exclusive", "shared-set",
 * "shared-set-oneshot") with m waiters for `rounds` rounds. */
int mp_exp_herd_one(const char *arrangement, int m, int rounds, const cpu_set_t *cpus,
                    cJSON **out, mp_err *err);

/* "ltet": a reader consuming `chunk` bytes per read of a 4096-byte write:
 * system calls and ns per delivered write, epoll LT vs ET. */
int mp_exp_ltet(const mp_exp_env *env, cJSON **out, mp_err *err);
extern const mp_exp_table mp_exp_ltet_table;

/* Each experiment st->cfg asks for, in registry order, until one is
 * interrupted; one that fails is kept as {"status": "error", "reason"}
 * (matches run/measure.h's mp_run_steps.experiments). */
int mp_experiments_run(const mp_run_stage *st, mp_err *err);

#endif
