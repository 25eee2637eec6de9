/* peer.h - the helper process that holds the far ends of watched
 * descriptors, so the measuring process holds only what it watches (plus a
 * small constant), as a real server does.  Ends are passed over a UNIX
 * socket with SCM_RIGHTS.  Error convention: mp_err.h.
 *
 * The helper exits when its socket closes, ignores SIGINT/SIGTERM (the
 * parent decides when to stop), and is killed if the parent dies
 * (PR_SET_PDEATHSIG).  mp_peer_stop() always reaps it.
 */
#ifndef MP_PEER_H
#define MP_PEER_H

#include <sys/types.h>
#include "common/mp_err.h"

typedef struct mp_peer {
    pid_t pid;     /* 0 when not running */
    int sock;      /* our end of the socket pair, -1 when closed */
    char death[48];/* how it ended, once mp_peer_alive() has seen it die */
} mp_peer;

/* Fork the helper.  Call before any thread exists. */
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
