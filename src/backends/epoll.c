/* SPDX-License-Identifier: MIT */
/* epoll.c - epoll_wait(2), level-triggered ("epoll") and
 * edge-triggered ("epoll-et").
 *
 * The two differ by one flag at registration, so they share this file and
 * expose two ops tables (epoll_pwait2 reuses the set: backends/epoll_pwait2.c).
 * Registration (epoll_ctl ADD per fd) is done once and is not part of a
 * measured call; each call asks for as many events as fds are watched, so
 * any number of ready fds is reported by one call.
 *
 * epoll-et in ready mode: an edge-triggered item is queued when the fd
 * becomes readable and reported once; a fd that simply stays readable is
 * never reported again, so ready mode's repeated timeout-0 call would time
 * an empty ready list, not "one ready fd".  It is therefore unsupported in
 * ready mode; in wakeup mode every poke is a new edge and ET is measured.
 */
#include "backends/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef mp__ep_state ep_state;

int mp__ep_open(void **state, int max_fds, unsigned flags, mp_err *err)
{
    ep_state *s = calloc(1, sizeof *s);
    if (s)
        s->ev = calloc((size_t)(max_fds > 0 ? max_fds : 1), sizeof *s->ev);
    if (!s || !s->ev) {
        free(s);
        return mp_errf(err, -ENOMEM, "epoll: out of memory");
    }
    s->max_events = max_fds > 0 ? max_fds : 1;
    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (s->epfd < 0) {
        int e = errno;
        free(s->ev);
        free(s);
        return mp_errf(err, -e, "epoll_create1: %s", strerror(e));
    }
    s->flags = flags;
    *state = s;
    return 0;
}

static int ep_open_lt(void **state, int max_fds, mp_err *err)
{
    return mp__ep_open(state, max_fds, 0, err);
}

static int ep_open_et(void **state, int max_fds, mp_err *err)
{
    return mp__ep_open(state, max_fds, EPOLLET, err);
}

#define EP_WATCHES_SYSCTL "/proc/sys/fs/epoll/max_user_watches"

/* ENOSPC from epoll_ctl ADD: this user's watches, over every epoll
 * instance, reached the sysctl fs.epoll.max_user_watches (its default scales
 * with memory).  The message names the limit, its value, and a value that
 * leaves room for this set. */
static int ep_enospc(const ep_state *s, int fd, mp_err *err)
{
    long long cur = -1;
    FILE *f = fopen(EP_WATCHES_SYSCTL, "r");
    if (f) {
        if (fscanf(f, "%lld", &cur) != 1)
            cur = -1;
        fclose(f);
    }
    if (cur < 0)
        return mp_errf(err, -ENOSPC, "epoll_ctl(ADD, fd %d): %s: the epoll watch limit "
                       "fs.epoll.max_user_watches is reached (" EP_WATCHES_SYSCTL " unreadable); "
                       "raise it as root (sysctl -w fs.epoll.max_user_watches=...) or watch "
                       "fewer fds", fd, strerror(ENOSPC));
    return mp_errf(err, -ENOSPC, "epoll_ctl(ADD, fd %d): %s: this user's epoll watches reached "
                   "fs.epoll.max_user_watches (%lld); raise it as root (sysctl -w "
                   "fs.epoll.max_user_watches=%lld) or watch fewer fds", fd, strerror(ENOSPC),
                   cur, cur + s->max_events);
}

int mp__ep_add(void *state, int fd, mp_err *err)
{
    ep_state *s = state;
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN | s->flags;
    ev.data.fd = fd;
    if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
        int e = errno;
        if (e == ENOSPC)
            return ep_enospc(s, fd, err);
        return mp_errf(err, -e, "epoll_ctl(ADD, fd %d): %s", fd, strerror(e));
    }
    return 0;
}

static int ep_wait(void *state, int timeout_ms)
{
    ep_state *s = state;
    int n = epoll_wait(s->epfd, s->ev, s->max_events, timeout_ms);
    if (n < 0)
        return -errno;
    s->last_n = n;
    return n;
}

int mp__ep_collect(void *state, int *fds, int max)
{
    ep_state *s = state;
    int k = 0;
    for (; k < s->last_n && k < max; k++)
        fds[k] = s->ev[k].data.fd;
    return k;
}

void mp__ep_close(void *state)
{
    ep_state *s = state;
    if (s && s->epfd >= 0)
        close(s->epfd);
    if (s)
        free(s->ev);
    free(s);
}

static const char *ep_et_unsupported_mode(const char *mode)
{
    if (!strcmp(mode, "ready"))
        return "edge-triggered epoll reports a descriptor that stays readable only once, so "
               "repeated timeout-0 calls on one ready fd would time an empty ready list; "
               "epoll-et is measured in wakeup mode, where every poke is a new edge";
    return NULL;
}

const mp_backend_ops mp_backend_epoll = {
    .name = "epoll",
    .summary = "epoll_wait(2), level-triggered",
    .open = ep_open_lt,
    .add = mp__ep_add,
    .wait = ep_wait,
    .collect = mp__ep_collect,
    .close = mp__ep_close,
};

const mp_backend_ops mp_backend_epoll_et = {
    .name = "epoll-et",
    .summary = "epoll_wait(2), edge-triggered (EPOLLET)",
    .unsupported_mode = ep_et_unsupported_mode,
    .open = ep_open_et,
    .add = mp__ep_add,
    .wait = ep_wait,
    .collect = mp__ep_collect,
    .close = mp__ep_close,
};
