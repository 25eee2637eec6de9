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

#endif
