/* SPDX-License-Identifier: MIT */
/* internal.h - what the files of run/ share and nothing outside uses.
 *
 * counter_pass.c: a cell's counter passes (sweep.c runs them after its
 * last timing repeat).
 *
 * profile_pass.c: the sampling pass of `muxprof run --profile`: after a
 * cell's timing and counter passes, the same calls again with the waiter
 * thread sampled (pmu/profile.h); the result is the cell's "profile"
 * object (docs/profile.md).  Error convention: common/mp_err.h. */
#ifndef MP_RUN_INTERNAL_H
#define MP_RUN_INTERNAL_H

#include "run/sweep.h"

/* Sample the cell's calls until MP_PROFILE_TARGET samples, or about
 * MP_PROFILE_BUDGET_NS of wall time once MP_PROFILE_MIN_SAMPLES are in
 * (MP_PROFILE_MAX_NS at most), and set c->profile.  A sampler that
 * cannot open is not an error of the cell: the profile object then has
 * "samples": 0 and a "reason".  Returns 0, -EINTR when interrupted, or
 * the error of a call that went wrong (message in err). */
int mp__profile_pass(mp_cell *c, void *st, const mp_fdset *set, const mp_sweep_env *env,
                    int warmup, mp_err *err);

/* counter_pass.c: count events around each of `samples` calls, for every
 * pass of the plan, into the cell's metrics.  Returns 0, -EINTR, or the
 * error of a pass that could not sample (message in err); a pass that
 * cannot open is noted in the cell's reason and skipped. */
int mp__counter_passes(mp_cell *c, void *st, const mp_fdset *set, const mp_sweep_env *env,
                       int samples, int warmup, size_t cell, size_t ncells, mp_err *err);

/* sweep.c: tell the progress callback that a unit of cell c begins: "what i/n". */
void mp__sweep_progress(const mp_sweep_env *env, size_t cell, size_t ncells, const mp_cell *c,
                        const char *what, int i, int n);

/* Kernel symbols and phases are loaded once per process, on first use. */
#define MP_PROFILE_TARGET 3000
#define MP_PROFILE_MIN_SAMPLES 2000
#define MP_PROFILE_BUDGET_NS 500000000ull
#define MP_PROFILE_MAX_NS 2000000000ull


/* sim_import.c, sim_doc.c: a scripts/muxsim.sh directory as results.json
 * (run/sim_import.h).  sim_import.c reads and checks the inputs into an
 * mp__sim_in; sim_doc.c builds the document from it. */
#include <cjson/cJSON.h>
#include "common/stats.h"
#include "sim/model.h"

struct mp_sim_import;   /* run/sim_import.h */

#define MP__SIM_ENV_MAX 64
#define MP__SIM_NMETRICS 17

/* The metrics of a simulated cell: the name results.json gives each, and
 * the plugin's event it is read from (its "all" row: user + kernel). */
typedef struct mp__sim_metric {
    const char *metric, *event;
} mp__sim_metric;
extern const mp__sim_metric mp__sim_metrics[MP__SIM_NMETRICS];

/* One cell of muxsim.tsv: its metrics' summaries. */
typedef struct mp__sim_cell {
    long core;
    unsigned have;           /* bit i: mp__sim_metrics[i] was read */
    mp_summary s[MP__SIM_NMETRICS];
} mp__sim_cell;

/* A loop of cells.txt. */
typedef struct mp__sim_loop {
    char backend[32];
    long nfds, status;
} mp__sim_loop;

/* What DIR holds, read and checked. */
typedef struct mp__sim_in {
    const char *dir;
    char *envtext, *cellstext, *tsvtext;
    size_t nenv;
    const char *key[MP__SIM_ENV_MAX], *val[MP__SIM_ENV_MAX];
    mp__sim_loop *loops;
    size_t nloops;
    mp__sim_cell *cells;           /* the plugin's cells, one per loop that exited 0 */
    size_t ncells;
    mp_sim_geometry g;
    cJSON *fn;                     /* functions.json, checked; NULL when DIR has none */
} mp__sim_in;

/* plan.env's value of key, or NULL. */
const char *mp__sim_env(const mp__sim_in *in, const char *key);
/* The guest's ISA as results.json's context.arch names it: "x86_64" for
 * plan.env's arch=x86_64, else "aarch64" (arm64, or a directory from before
 * arch= was written). */
const char *mp__sim_guest_arch(const mp__sim_in *in);
/* s as a finite number: 0, or -1 when it is not one. */
int mp__sim_number(const char *s, double *out);
/* Why loop r failed: what it printed (one line, control characters as '?',
 * cut to fit len), else its exit status. */
void mp__sim_loop_reason(const mp__sim_in *in, const mp__sim_loop *r, char *out, size_t len);
/* The whole results.json of in; sum counts its cells.  NULL: out of memory. */
cJSON *mp__sim_document(const mp__sim_in *in, struct mp_sim_import *sum);

#endif
