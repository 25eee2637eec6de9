/* SPDX-License-Identifier: MIT */
/* peer.h - the helper process that holds the far ends of watched
 * descriptors, so the measuring process holds only what it watches (plus a
 * small constant), as a real server does.  Ends are passed over a UNIX
 * socket with SCM_RIGHTS.  Error convention: mp_err.h.
 *
 * The helper exits when its socket closes, ignores SIGINT/SIGTERM (the
 * parent decides when to stop), and is killed if the parent dies
 * (PR_SET_PDEATHSIG, set before anything else).  mp_peer_stop() always
 * reaps it.  No call waits on the helper for longer than the timeout
 * (MP_PEER_TIMEOUT_MS unless set): a helper that does not answer fails the
 * call with a message naming it, and is killed by mp_peer_start (no hello)
 * and mp_peer_stop (no exit).
 */
#ifndef MP_PEER_H
#define MP_PEER_H

#include <sys/types.h>
#include "common/mp_err.h"

#define MP_PEER_TIMEOUT_MS 10000

typedef struct mp_peer {
    pid_t pid;     /* 0 when not running */
    int sock;      /* our end of the socket pair, -1 when closed */
    char death[48];/* how it ended, once mp_peer_alive() has seen it die */
} mp_peer;

/* Bound on every wait for the helper, for the whole process (ms; <= 0
 * restores MP_PEER_TIMEOUT_MS). */
void mp_peer_set_timeout_ms(int ms);

/* Fork the helper and wait for its hello.  Call before any thread exists. */
int mp_peer_start(mp_peer *p, mp_err *err);

/* Hand n descriptors to the helper, which keeps them open.  The caller
 * still owns (and should close) its own copies. */
int mp_peer_give(mp_peer *p, const int *fds, int n, mp_err *err);

/* Ask the helper to close everything it holds; returns once it has. */
int mp_peer_release(mp_peer *p, mp_err *err);

/* 1 while the helper runs; 0 once it has died (it is then reaped and
 * *how says why: "exit status N" or "killed by signal N"). */
int mp_peer_alive(mp_peer *p, char *how, size_t len);

/* Stop and reap the helper; safe to call twice or when never started. */
void mp_peer_stop(mp_peer *p);

#endif
