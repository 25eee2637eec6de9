/* SPDX-License-Identifier: MIT */
/* epoll_pwait2.c - epoll_pwait2(2) (Linux 5.11+): epoll_wait with a
 * timespec timeout, level-triggered.  Called through syscall() so that a
 * kernel without it is detected at open (ENOSYS -> "unsupported") whatever
 * the C library. */
#include "backends/internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441   /* the same number on every architecture */
#endif

static int pwait2(mp__ep_state *s, const struct timespec *ts)
{
    long n = syscall(SYS_epoll_pwait2, s->epfd, s->ev, s->max_events, ts, NULL, (size_t)0);
    return n < 0 ? -errno : (int)n;
}

static int pw2_open(void **state, int max_fds, mp_err *err)
{
    int rc = mp__ep_open(state, max_fds, 0, err);
    if (rc < 0)
        return rc;
    struct timespec zero = {0, 0};
    rc = pwait2(*state, &zero);
    if (rc == -ENOSYS) {
        mp__ep_close(*state);
        *state = NULL;
        return mp_errf(err, -ENOSYS, "epoll_pwait2 is not in this kernel (Linux 5.11 or later "
                       "has it): ENOSYS");
    }
    return 0;
}

static int pw2_wait(void *state, int timeout_ms)
{
    mp__ep_state *s = state;
    struct timespec ts;
    int n;
    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        n = pwait2(s, &ts);
    } else {
        n = pwait2(s, NULL);
    }
    if (n >= 0)
        s->last_n = n;
    return n;
}

const mp_backend_ops mp_backend_epoll_pwait2 = {
    .name = "epoll-pwait2",
    .summary = "epoll_pwait2(2), level-triggered, timespec timeout",
    .open = pw2_open,
    .add = mp__ep_add,
    .wait = pw2_wait,
    .collect = mp__ep_collect,
    .close = mp__ep_close,
};
