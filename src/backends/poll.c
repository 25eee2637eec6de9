/* SPDX-License-Identifier: MIT */
/* poll.c - poll(2) on an array of struct pollfd (8 bytes each).
 *
 * The array is built once; the kernel copies it in on every call and
 * writes every revents back, so nothing is reset between calls.
 */
#include "backends/internal.h"

#include <stdlib.h>

typedef mp__poll_state poll_state;

int mp__poll_open(void **state, int max_fds, mp_err *err)
{
    poll_state *s = calloc(1, sizeof *s);
    if (s)
        s->pfd = calloc((size_t)max_fds, sizeof *s->pfd);
    if (!s || !s->pfd) {
        free(s);
        return mp_errf(err, -ENOMEM, "poll: out of memory for %d pollfd entries", max_fds);
    }
    *state = s;
    return 0;
}

int mp__poll_add(void *state, int fd, mp_err *err)
{
    (void)err;
    poll_state *s = state;
    s->pfd[s->n].fd = fd;
    s->pfd[s->n].events = POLLIN;
    s->pfd[s->n].revents = 0;
    s->n++;
    return 0;
}

static int poll_wait(void *state, int timeout_ms)
{
    poll_state *s = state;
    int n = poll(s->pfd, (nfds_t)s->n, timeout_ms);
    return n < 0 ? -errno : n;
}

int mp__poll_collect(void *state, int *fds, int max)
{
    poll_state *s = state;
    int k = 0;
    for (int i = 0; i < s->n && k < max; i++)
        if (s->pfd[i].revents)
            fds[k++] = s->pfd[i].fd;
    return k;
}

void mp__poll_close(void *state)
{
    poll_state *s = state;
    if (s)
        free(s->pfd);
    free(s);
}

const mp_backend_ops mp_backend_poll = {
    .name = "poll",
    .summary = "poll(2), POLLIN on every fd, array built once",
    .open = mp__poll_open,
    .add = mp__poll_add,
    .wait = poll_wait,
    .collect = mp__poll_collect,
    .close = mp__poll_close,
};
