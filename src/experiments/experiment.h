/* experiment.h - measurements beyond one call of one backend: the cost of
 * registering N fds, the thundering herd of M waiters on one fd, and
 * level- vs edge-triggered delivery of partly consumed data.  Each writes
 * one object under "experiments" in results.json (docs/experiments.md).
 * Error convention: mp_err.h. */
#ifndef MP_EXPERIMENT_H
#define MP_EXPERIMENT_H

#include <cjson/cJSON.h>
#include <sched.h>

#include "run/config.h"
#include "run/peer.h"
#include "pmu.h"

typedef struct mp_exp_env {
    const mp_run_config *cfg;
    mp_peer *peer;
    const mp_pmu_plan *plan;     /* counters around each registration */
    /* CPUs the herd's waiters may run on (the process's, before the main
     * thread was pinned); NULL: inherit the caller's. */
    const cpu_set_t *cpus;
} mp_exp_env;

/* Each returns -EINTR, having stopped early, once mp_sample_stop is set. */

/* "register": per backend and N, ns to build the watched set (open + N adds). */
int mp_exp_register(const mp_exp_env *env, cJSON **out, mp_err *err);

/* "herd": M waiters on one fd, four epoll arrangements; per event, waiters
 * woken, woken for nothing, latency to the first. */
int mp_exp_herd(const mp_exp_env *env, cJSON **out, mp_err *err);
/* One arrangement ("own-sets", "own-sets-exclusive", "shared-set",
 * "shared-set-oneshot") with m waiters for `rounds` rounds. */
int mp_exp_herd_one(const char *arrangement, int m, int rounds, const cpu_set_t *cpus,
                    cJSON **out, mp_err *err);

/* "ltet": a reader consuming `chunk` bytes per read of a 4096-byte write:
 * system calls and ns per delivered write, epoll LT vs ET. */
int mp_exp_ltet(const mp_exp_env *env, cJSON **out, mp_err *err);

#endif
