/* backend_epoll.c - epoll_wait(2), level-triggered ("epoll") and
 * edge-triggered ("epoll-et").
 *
 * The two differ by one flag at registration, so they share this file and
 * expose two ops tables.  Registration (epoll_ctl ADD per fd) is done once
 * and is not part of a measured call; each call asks for up to 64 events.
 *
 * epoll-et in ready mode: an edge-triggered item is queued when the fd
 * becomes readable and reported once; a fd that simply stays readable is
 * never reported again, so ready mode's repeated timeout-0 call would time
 * an empty ready list, not "one ready fd".  It is therefore unsupported in
 * ready mode; in wakeup mode every poke is a new edge and ET is measured.
 */
#include "backend.h"

#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#define EP_MAX_EVENTS 64

typedef struct {
    int epfd;
    unsigned flags;
    int last_n;
    struct epoll_event ev[EP_MAX_EVENTS];
} ep_state;

static int ep_open_flags(void **state, unsigned flags, mp_err *err)
{
    ep_state *s = calloc(1, sizeof *s);
    if (!s)
        return mp_errf(err, -ENOMEM, "epoll: out of memory");
    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (s->epfd < 0) {
        int e = errno;
        free(s);
        return mp_errf(err, -e, "epoll_create1: %s", strerror(e));
    }
    s->flags = flags;
    *state = s;
    return 0;
}

static int ep_open_lt(void **state, int max_fds, mp_err *err)
{
    (void)max_fds;
    return ep_open_flags(state, 0, err);
}

static int ep_open_et(void **state, int max_fds, mp_err *err)
{
    (void)max_fds;
    return ep_open_flags(state, EPOLLET, err);
}

static int ep_add(void *state, int fd, mp_err *err)
{
    ep_state *s = state;
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN | s->flags;
    ev.data.fd = fd;
    if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
        int e = errno;
        return mp_errf(err, -e, "epoll_ctl(ADD, fd %d): %s", fd, strerror(e));
    }
    return 0;
}

static int ep_wait(void *state, int timeout_ms)
{
    ep_state *s = state;
    int n = epoll_wait(s->epfd, s->ev, EP_MAX_EVENTS, timeout_ms);
    if (n < 0)
        return -errno;
    s->last_n = n;
    return n;
}

static int ep_collect(void *state, int *fds, int max)
{
    ep_state *s = state;
    int k = 0;
    for (; k < s->last_n && k < max; k++)
        fds[k] = s->ev[k].data.fd;
    return k;
}

static void ep_close(void *state)
{
    ep_state *s = state;
    if (s && s->epfd >= 0)
        close(s->epfd);
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
    .summary = "epoll_wait(2), level-triggered, up to 64 events per call",
    .open = ep_open_lt,
    .add = ep_add,
    .wait = ep_wait,
    .collect = ep_collect,
    .close = ep_close,
};

const mp_backend_ops mp_backend_epoll_et = {
    .name = "epoll-et",
    .summary = "epoll_wait(2), edge-triggered (EPOLLET), up to 64 events per call",
    .unsupported_mode = ep_et_unsupported_mode,
    .open = ep_open_et,
    .add = ep_add,
    .wait = ep_wait,
    .collect = ep_collect,
    .close = ep_close,
};
