/* SPDX-License-Identifier: MIT */
/* internal.h - state shared by backends that differ only in their wait
 * call: poll/ppoll share the pollfd array, epoll/epoll-et/epoll-pwait2 share
 * the epoll set.  Internal to the backend_*.c files. */
#ifndef MP_BACKEND_IMPL_H
#define MP_BACKEND_IMPL_H

#include <poll.h>
#include <sys/epoll.h>

#include "backends/backend.h"

typedef struct {
    struct pollfd *pfd;
    int n;
} mp__poll_state;

int mp__poll_open(void **state, int max_fds, mp_err *err);
int mp__poll_add(void *state, int fd, mp_err *err);
int mp__poll_collect(void *state, int *fds, int max);
void mp__poll_close(void *state);

typedef struct {
    int epfd;
    unsigned flags;          /* EPOLLET or 0 */
    int max_events;          /* = the set size: every ready fd fits in one call */
    int last_n;
    struct epoll_event *ev;
} mp__ep_state;

int mp__ep_open(void **state, int max_fds, unsigned flags, mp_err *err);
int mp__ep_add(void *state, int fd, mp_err *err);
int mp__ep_collect(void *state, int *fds, int max);
void mp__ep_close(void *state);

#endif
