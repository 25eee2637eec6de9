/* SPDX-License-Identifier: MIT */
/* sample.h - timed blocks of calls of one backend on one descriptor set.
 *
 * One "call" is one backend wait():
 *  - ready mode: timeout 0 while the set's `active` ready fds stay
 *    readable; the sample is the time between two clock reads around the call;
 *  - wakeup mode: the waiter (calling thread) blocks with no timeout; the
 *    poker process (poker.h) waits until the waiter sleeps, then the
 *    block's delay, reads the clock, writes one byte; the sample is the
 *    poker's clock read to the waiter's return.  A
 *    sample in which the waiter never went to sleep (no voluntary context
 *    switch during the call) is discarded and counted.
 * Every call's answer is checked: exactly the active ready fds (wakeup: one).
 * Error convention: mp_err.h.
 */
#ifndef MP_SAMPLE_H
#define MP_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backends/backend.h"
#include "run/fdset.h"
#include "run/poker.h"
#include "pmu/pmu.h"

/* Set by the signal handler: blocks stop early and return -EINTR. */
extern volatile int mp_sample_stop;

/* From now on count the process's stops (a SIGCONT handler), so that a
 * timed sample that spans a SIGSTOP ... SIGCONT is counted in
 * mp_block.stopped.  Called once the helper processes exist (they do not
 * inherit the handler); it restarts interrupted system calls. */
void mp_sample_watch_stops(void);

/* Output of one block.  wall_ns has room for n samples; counters, when a
 * pass is given, for n * mp_pmu_pass_count(pass) deltas (row-major). */
typedef struct mp_block {
    double *wall_ns;
    /* wakeup, when not NULL: [n] the waiter's own bracket of each kept
     * sample, from just before it arms to just after it returns: the
     * interval a counter pass brackets (wall_ns starts at the poke). */
    double *waiter_ns;
    /* when not NULL: [2n] each kept sample's call window on mp_now_ns's
     * clock, begin then end: ready, the clock reads around the call;
     * wakeup, the waiter's bracket (as waiter_ns).  The profile pass keeps
     * only the samples that fall inside them. */
    uint64_t *span;
    /* wakeup, when not NULL: [n] how long before its write the poker had
     * seen the waiter asleep (t0 - t_asleep of mp_poke_page): at least the
     * delay asked for. */
    double *asleep_ns;
    size_t kept;          /* samples written */
    size_t discarded;     /* wakeup: waiter was not asleep */
    size_t stopped;       /* timed: kept samples during which the process was stopped
                           * (SIGSTOP ... SIGCONT, mp_sample_watch_stops) */
    size_t preempted;     /* timed, wakeup: kept samples during which the waiter was
                           * switched out involuntarily (another task took its CPU) */
    int64_t *counters;
    size_t dropped;       /* counter samples refused (multiplexed) */
    /* wakeup, counted, when not NULL: the poker's own deltas around its
     * write for each kept sample (row-major, poker->pg->count_n per row;
     * INT64_MIN where its read failed), when the poker counts this block
     * (mp_poker.count_pass). */
    int64_t *poker_counters;
} mp_block;

/* Warm-up lasts at least this long as well as at least `warmup` calls: a
 * fixed count is microseconds for a cheap call and the CPU may not be up
 * to speed yet.  warmup 0 means no warm-up at all. */
#define MP_WARMUP_NS 2000000ull

/* Run the warm-up (untimed) then n timed calls.  With pass != NULL the
 * block counts events around each call instead of timing it (counter
 * passes are separate from timing passes so reads never inflate times). */
int mp_sample_ready(const mp_backend_ops *b, void *st, const mp_fdset *set, int warmup,
                    size_t n, mp_pmu_pass *pass, mp_block *out, mp_err *err);
/* Wakeup: the poker writes delay_ns after it sees the waiter asleep. */
int mp_sample_wakeup(const mp_backend_ops *b, void *st, const mp_fdset *set, mp_poker *poker,
                     uint64_t delay_ns, int warmup, size_t n, mp_pmu_pass *pass,
                     mp_block *out, mp_err *err);

/* Check one ready-mode call that returned n: exactly the set's active
 * fds, collected into got (room for set->active + 1).  0 or -EPROTO. */
int mp_sample_check_answer(const mp_backend_ops *b, void *st, const mp_fdset *set, int n,
                           int *got, mp_err *err);

/* ns per call of back-to-back ready-mode calls: n calls in 10 loops, each
 * timed as one interval (one clock pair per loop); *ns_per_call is the
 * median loop's mean, *mean_ns all loops' time over all calls (to set
 * against the mean of per-call samples: like with like). */
int mp_sample_bare_loop(const mp_backend_ops *b, void *st, size_t n, double *ns_per_call,
                        double *mean_ns, mp_err *err);

/* n empty brackets (two clock reads back to back), in ns. */
void mp_sample_empty_brackets(double *out, size_t n);

#endif
