/* SPDX-License-Identifier: MIT */
/* poker.h - the poker of wakeup mode: a separate process that makes the
 * watched fd readable once the waiter sleeps.
 *
 * It is a process, not a thread, so that the measuring process keeps a
 * descriptor table with one user in every timed block (the kernel's fd
 * lookup takes and drops a file reference per fd and call when the table
 * is shared; see docs/methodology.md).  It is forked once, before the
 * sweep, and blocks on its socket between wakeup blocks.  The per-sample
 * handshake lives in one MAP_SHARED page (struct mp_poke_page); the
 * descriptor to write is passed for each block with SCM_RIGHTS.
 *
 * Its liveness is watched without touching the watched set: while a block
 * runs, a timer interrupts the waiter thread once per MP_POKER_TICK_MS
 * (SIGUSR1, whose handler does nothing), so that a wait with no timeout
 * returns EINTR and the waiter asks mp_poker_check whether the poker still
 * lives and has poked within its limit.  A poker that died, stopped
 * answering or missed the limit is killed and remembered as gone: later
 * blocks fail at once with the reason.
 * Error convention: mp_err.h.
 */
#ifndef MP_POKER_H
#define MP_POKER_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "common/mp_err.h"
#include "pmu/pmu.h"
#include "run/fdset.h"

/* Shared between the measuring process and the poker (one page). */
typedef struct mp_poke_page {
    _Atomic uint64_t armed;      /* sample number the waiter is about to wait for */
    _Atomic uint64_t done;       /* sample number poked */
    _Atomic uint64_t returned;   /* sample number the waiter returned from */
    _Atomic uint64_t t0;         /* poker's CLOCK_MONOTONIC just before the write */
    _Atomic uint64_t t_asleep;   /* the same when it saw the waiter asleep (before t0 by
                                  * the block's delay, at least) */
    _Atomic int busy;            /* a wakeup block is running */
    _Atomic int quit;
    _Atomic int stuck;           /* the watchdog interrupted the waiter */
    _Atomic int write_errno;
    _Atomic int bind_done;       /* the poker has tried to bind */
    int bind_rc;                 /* written before bind_done */
    char bind_msg[MP_ERR_MAX];
    /* The poker's own counters in a counter pass (mp_poker.count_pass):
     * written at the block's start, then per sample before `done`. */
    int count_n;                 /* counters it opened (0: none) */
    int count_rc;                /* 0, or why it could not open them (-errno) ... */
    char count_msg[MP_ERR_MAX];  /* ... with the reason */
    double count_bracket[MP_PMU_MAX_COUNTERS];   /* its empty read bracket, median */
    int count_ok;                /* this sample's deltas are whole (else dropped) */
    int64_t count_delta[MP_PMU_MAX_COUNTERS];    /* around this sample's write */
} mp_poke_page;

/* The period of the waiter's liveness tick during a wakeup block. */
#define MP_POKER_TICK_MS 1000

typedef struct mp_poker {
    pid_t pid;                   /* 0 once it is gone (death says why) */
    int sock;                    /* our end of the command socket */
    int pu;
    int nfds;                    /* of the block running: scales the limits */
    mp_poke_page *pg;
    timer_t tick;                /* the waiter's liveness tick, while a block runs */
    int ticking;
    uint64_t check_seq;          /* the sample mp_poker_check first saw unpoked ... */
    uint64_t check_since;        /* ... and when (mp_now_ns) */
    /* Set by the caller before a block: the pass of the event plan the
     * poker opens on itself and reads around each write (-1: none). */
    int count_pass;
    const mp_pmu_plan *plan;
    char death[160];
} mp_poker;

/* Fork the poker, bound (in the child) with bind(pu, ctx) unless pu < 0.
 * plan (may be NULL) is the run's event plan, whose passes the poker can
 * count on its own side (count_pass).  Returns once the child has tried to
 * bind (see mp_poker_bind_result). */
int mp_poker_start(mp_poker **out, int pu, int (*bind)(int pu, void *ctx, mp_err *err),
                   void *bind_ctx, const mp_pmu_plan *plan, mp_err *err);
/* Stop and reap the poker; NULL is fine. */
void mp_poker_stop(mp_poker *p);
/* Whether the poker's binding worked (0) or -errno; message in err. */
int mp_poker_bind_result(const mp_poker *p, mp_err *err);

/* Start a block: the poker will write the set's first active poke end
 * whenever `armed` moves past `done` and thread `tid` of this process
 * sleeps, delay_ns (0..MP_WAKE_DELAY_MAX_NS) after it first saw it asleep;
 * thread tid gets the liveness tick until mp_poker_end.  A poker that is
 * gone fails at once (-EPIPE, with the reason). */
int mp_poker_begin(mp_poker *p, const mp_fdset *set, int tid, uint64_t delay_ns, mp_err *err);
/* While the waiter waits for sample `seq`: 0 if the poker lives and has
 * poked seq, or has not yet been waited for longer than its limit (5 s
 * plus 10 us per watched fd, counted from the first call for seq);
 * otherwise the poker is killed and gone, and -EPIPE (it died) or
 * -ETIMEDOUT (it did not poke) with the reason. */
int mp_poker_check(mp_poker *p, uint64_t seq, mp_err *err);
/* End the block: the tick stops; returns once the poker has let go of the
 * descriptor.  The wait is bounded (10 s; 1 s when `interrupted`, as the
 * run is ending) and ends early when the poker dies; a poker that does
 * not answer is killed and gone (-ETIMEDOUT, -EPIPE). */
int mp_poker_end(mp_poker *p, int interrupted, mp_err *err);

#endif
