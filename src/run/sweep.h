/* SPDX-License-Identifier: MIT */
/* sweep.h - run every cell of a run: descriptor sets, backends, timing
 * passes, counter passes, summaries.  Error convention: mp_err.h. */
#ifndef MP_SWEEP_H
#define MP_SWEEP_H

#include "run/journal.h"
#include "run/peer.h"
#include "pmu/pmu.h"
#include "run/results.h"
#include "run/sample.h"

typedef struct mp_sweep_env {
    mp_peer *peer;
    mp_poker *poker;           /* NULL when no wakeup mode is asked for */
    const mp_pmu_plan *plan;
    long rl_soft, rl_hard;     /* RLIMIT_NOFILE during the run */
    int base_fds;              /* descriptors open before any set is made */
    mp_journal *journal;       /* where each cell goes once final; NULL: nowhere */
    /* Progress callbacks (may be NULL): a unit of work (a timing repeat, a
     * counter pass, the profile pass) of a cell begins, with a label; a
     * cell is final (any status). */
    void (*progress)(size_t cell, size_t ncells, const char *label, void *ctx);
    void (*cell_done)(size_t cell, void *ctx);
    void *progress_ctx;
} mp_sweep_env;

/* Measure every cell of r in order; each cell once final goes to the
 * journal (its samples with it) before cell_done is called.  A cell that cannot run is marked
 * unsupported or error with its reason and the sweep goes on; returns
 * -EINTR when mp_sample_stop was set (r->interrupted_cell names the cell),
 * 0 otherwise. */
int mp_sweep(mp_results *r, const mp_sweep_env *env, mp_err *err);

#endif
