/* SPDX-License-Identifier: MIT */
/* ppoll.c - ppoll(2): poll with a timespec timeout and a signal
 * mask argument (NULL here, so it does what poll does).  Shares poll's
 * pollfd array; only the call differs. */
#include "backends/internal.h"

#include <signal.h>
#include <time.h>

static int ppoll_wait(void *state, int timeout_ms)
{
    mp__poll_state *s = state;
    struct timespec ts, *tsp = NULL;
    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        tsp = &ts;
    }
    int n = ppoll(s->pfd, (nfds_t)s->n, tsp, NULL);
    return n < 0 ? -errno : n;
}

const mp_backend_ops mp_backend_ppoll = {
    .name = "ppoll",
    .summary = "ppoll(2), POLLIN on every fd, timespec timeout, no signal mask",
    .open = mp__poll_open,
    .add = mp__poll_add,
    .wait = ppoll_wait,
    .collect = mp__poll_collect,
    .close = mp__poll_close,
};
