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
 * Error convention: mp_err.h.
 */
#ifndef MP_POKER_H
#define MP_POKER_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/mp_err.h"
#include "run/fdset.h"

/* Shared between the measuring process and the poker (one page). */
typedef struct mp_poke_page {
    _Atomic uint64_t armed;      /* sample number the waiter is about to wait for */
    _Atomic uint64_t done;       /* sample number poked */
    _Atomic uint64_t returned;   /* sample number the waiter returned from */
    _Atomic uint64_t t0;         /* poker's CLOCK_MONOTONIC just before the write */
    _Atomic int busy;            /* a wakeup block is running */
    _Atomic int quit;
    _Atomic int stuck;           /* the watchdog interrupted the waiter */
    _Atomic int write_errno;
    _Atomic int bind_done;       /* the poker has tried to bind */
    int bind_rc;                 /* written before bind_done */
    char bind_msg[MP_ERR_MAX];
} mp_poke_page;

typedef struct mp_poker {
    pid_t pid;
    int sock;                    /* our end of the command socket */
    int pu;
    mp_poke_page *pg;
} mp_poker;

/* Fork the poker, bound (in the child) with bind(pu, ctx) unless pu < 0.
 * Returns once the child has tried to bind (see mp_poker_bind_result). */
int mp_poker_start(mp_poker **out, int pu, int (*bind)(int pu, void *ctx, mp_err *err),
                   void *bind_ctx, mp_err *err);
/* Stop and reap the poker; NULL is fine. */
void mp_poker_stop(mp_poker *p);
/* Whether the poker's binding worked (0) or -errno; message in err. */
int mp_poker_bind_result(const mp_poker *p, mp_err *err);

/* Start a block: the poker will write the set's first active poke end
 * whenever `armed` moves past `done` and thread `tid` of this process sleeps. */
int mp_poker_begin(mp_poker *p, const mp_fdset *set, int tid, mp_err *err);
/* End the block; returns once the poker has let go of the descriptor (or
 * after a bounded wait: -ETIMEDOUT). */
int mp_poker_end(mp_poker *p, mp_err *err);

#endif
