/* SPDX-License-Identifier: MIT */
/* profile_pass.c - one sampling pass per cell for `muxprof run --profile`.
 *
 * Workload: exactly the timed block of the cell (mp_sample_ready or
 * mp_sample_wakeup, same backend state, same descriptor set), run in
 * chunks of about CHUNK_NS of wall time.  The sampling event is enabled
 * around each chunk only, and the ring buffer is drained between chunks
 * with the event disabled, so no sample sees the decoding.  Inside a chunk
 * each call's window is recorded (ready: the clock reads around the call,
 * the interval of the cell's wall_ns; wakeup: the waiter's bracket from
 * arming to return, the interval of waiter_ns) and only samples whose time
 * falls in one are kept: the answer check, the user-space scan of the
 * result, the wakeup handshake, getrusage and the drain of the ready fd
 * are counted as "outside_calls" and dropped.  The pass stops at
 * MP_PROFILE_TARGET samples, after MP_PROFILE_BUDGET_NS once it holds
 * MP_PROFILE_MIN_SAMPLES, and after MP_PROFILE_MAX_NS in any case (a
 * wakeup cell at 10,000 fds spends most of its wall time asleep).
 *
 * What it does not measure: the poker process (only the waiter is
 * sampled), and time the waiter spends asleep (cpu-clock ticks only while
 * the thread runs).  Shares are of the on-CPU samples inside the calls;
 * ns per call = share x the cell's wall p50 (docs/profile.md says when that is a
 * fair product and when not).
 */
#include "run/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "pmu/profile.h"
#include "run/profile_out.h"
#include "common/stats.h"

#define CHUNK_NS 40e6
#define MAX_CHUNK_CALLS 100000
#define WAKEUP_HARNESS_NS 20000.0   /* handshake cost per wakeup sample, rough */

static mp_ksyms *ksyms;
static mp_phases *phases;
static char ksyms_error[MP_ERR_MAX];
static int loaded;

static void load_once(void)
{
    mp_err e;
    if (loaded)
        return;
    loaded = 1;
    if (mp_ksyms_load(&ksyms, NULL, &e) < 0)
        snprintf(ksyms_error, sizeof ksyms_error, "%s", e.msg);
    if (mp_phases_builtin(&phases, &e) < 0)
        phases = NULL;   /* cannot happen with the file in the tree: tests parse it */
}

int mp__profile_pass(mp_cell *c, void *st, const mp_fdset *set, const mp_sweep_env *env,
                    int warmup, mp_err *err)
{
    const mp_metric *w = mp_cell_metric(c, "wall_ns");
    double p50 = w ? w->s.p50 : 0;
    double per_call = p50 > 1 ? p50 : 1;
    if (c->mode == MP_MODE_WAKEUP)
        per_call += WAKEUP_HARNESS_NS;
    size_t chunk = (size_t)(CHUNK_NS / per_call);
    chunk = chunk < 1 ? 1 : chunk > MAX_CHUNK_CALLS ? MAX_CHUNK_CALLS : chunk;

    load_once();
    mp_profile *p;
    mp_err perr;
    if (mp_profile_open(&p, ksyms, phases, &perr) < 0) {
        cJSON_Delete(c->profile);
        c->profile = mp_profile_unavailable_json(perr.msg);
        return 0;
    }
    double *scratch = malloc(sizeof *scratch * chunk);
    uint64_t *span = malloc(sizeof *span * 2 * chunk);
    if (!scratch || !span) {
        free(scratch);
        free(span);
        mp_profile_close(p);
        return mp_errf(err, -ENOMEM, "out of memory for the profile pass");
    }
    int rc = 0;
    uint64_t calls = 0, t0 = mp_now_ns();
    for (int first = 1;; first = 0) {
        mp_block blk = {.wall_ns = scratch};
        /* Warm-up runs outside the sampled window (and records no span). */
        int wu = first ? warmup : 0;
        if (wu) {
            rc = c->mode == MP_MODE_READY
                     ? mp_sample_ready(c->backend, st, set, wu, 0, NULL, &blk, err)
                     : mp_sample_wakeup(c->backend, st, set, env->poker, MP_CELL_DELAY(c),
                                        wu, 0, NULL, &blk, err);
            if (rc < 0)
                break;
        }
        blk.span = span;
        mp_profile_enable(p);
        rc = c->mode == MP_MODE_READY
                 ? mp_sample_ready(c->backend, st, set, 0, chunk, NULL, &blk, err)
                 : mp_sample_wakeup(c->backend, st, set, env->poker, MP_CELL_DELAY(c), 0,
                                    chunk, NULL, &blk, err);
        mp_profile_disable(p);
        mp_profile_drain_calls(p, span, blk.kept);
        if (rc < 0)
            break;
        calls += mp_profile_windowed(p) ? blk.kept : chunk;   /* the calls whose samples were kept */
        uint64_t got = mp_profile_samples(p), spent = mp_now_ns() - t0;
        if (got >= MP_PROFILE_TARGET || spent >= MP_PROFILE_MAX_NS ||
            (spent >= MP_PROFILE_BUDGET_NS && got >= MP_PROFILE_MIN_SAMPLES))
            break;
    }
    if (rc == 0) {
        mp_profile_info info;
        mp_profile_finish(p, &info);
        mp_profile_cell cell = {
            .calls = calls, .wall_p50_ns = p50, .nfds = c->nfds,
            .no_symbols = ksyms ? NULL : ksyms_error[0] ? ksyms_error
                                                        : "kernel symbols not loaded",
        };
        cJSON_Delete(c->profile);
        c->profile = mp_profile_pass_json(mp_profile_aggregate(p), &info, &cell);
    }
    free(scratch);
    free(span);
    mp_profile_close(p);
    return rc;
}
