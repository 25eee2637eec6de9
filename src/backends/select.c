/* SPDX-License-Identifier: MIT */
/* select.c - select(2) on a read set.
 *
 * Each call copies the master set into the working set (every select()
 * user must: the kernel overwrites it) and passes maxfd+1; write and except
 * sets are NULL.  select cannot watch a descriptor numbered FD_SETSIZE
 * (1024) or above: FD_SET on one is undefined behaviour (with
 * _FORTIFY_SOURCE glibc aborts), so such sets are refused up front by
 * unsupported_fds() and add() refuses again, never reaching FD_SET.
 */
#include "backends/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

typedef struct {
    fd_set master;
    fd_set work;
    int maxfd;
    int nfds;
    int *fds;     /* watched, in order added: collect() scans these */
} sel_state;

static const char *sel_unsupported_fds(int fd_lo, int fd_hi, char *buf, size_t len)
{
    (void)fd_lo;
    if (fd_hi < FD_SETSIZE)
        return NULL;
    snprintf(buf, len, "select() cannot watch fd %d: fd_set holds descriptors 0..%d "
             "(FD_SETSIZE %d), and FD_SET beyond it is undefined behaviour",
             fd_hi, FD_SETSIZE - 1, FD_SETSIZE);
    return buf;
}

static int sel_open(void **state, int max_fds, mp_err *err)
{
    sel_state *s = calloc(1, sizeof *s);
    if (s)
        s->fds = calloc((size_t)max_fds, sizeof *s->fds);
    if (!s || !s->fds) {
        free(s);
        return mp_errf(err, -ENOMEM, "select: out of memory for %d fds", max_fds);
    }
    FD_ZERO(&s->master);
    s->maxfd = -1;
    *state = s;
    return 0;
}

static int sel_add(void *state, int fd, mp_err *err)
{
    sel_state *s = state;
    if (fd < 0 || fd >= FD_SETSIZE)
        return mp_errf(err, -EINVAL, "select: fd %d is outside 0..%d (FD_SETSIZE)", fd,
                       FD_SETSIZE - 1);
    FD_SET(fd, &s->master);
    s->fds[s->nfds++] = fd;
    if (fd > s->maxfd)
        s->maxfd = fd;
    return 0;
}

static int sel_wait(void *state, int timeout_ms)
{
    sel_state *s = state;
    struct timeval tv = {0, 0}, *tvp = NULL;
    if (timeout_ms >= 0) {
        tv.tv_sec = timeout_ms / 1000;
        tv.tv_usec = (timeout_ms % 1000) * 1000;
        tvp = &tv;
    }
    /* The whole 128-byte fd_set, as `work = master` does in any select() loop;
     * the kernel itself reads only the words covering 0..maxfd. */
    s->work = s->master;
    int n = select(s->maxfd + 1, &s->work, NULL, NULL, tvp);
    return n < 0 ? -errno : n;
}

static int sel_collect(void *state, int *fds, int max)
{
    sel_state *s = state;
    int k = 0;
    for (int i = 0; i < s->nfds && k < max; i++)
        if (FD_ISSET(s->fds[i], &s->work))
            fds[k++] = s->fds[i];
    return k;
}

static void sel_close(void *state)
{
    sel_state *s = state;
    if (s)
        free(s->fds);
    free(s);
}

const mp_backend_ops mp_backend_select = {
    .name = "select",
    .summary = "select(2), read set only, master set copied before each call",
    .unsupported_fds = sel_unsupported_fds,
    .open = sel_open,
    .add = sel_add,
    .wait = sel_wait,
    .collect = sel_collect,
    .close = sel_close,
};
