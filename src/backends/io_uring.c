/* SPDX-License-Identifier: MIT */
/* io_uring.c - io_uring multishot poll (Linux 5.13+), via liburing.
 *
 * Registration: one IORING_OP_POLL_ADD with IORING_POLL_ADD_MULTI per fd,
 * submitted one by one (so a registration costs N io_uring_enter calls,
 * like N epoll_ctl calls).  A call: with timeout 0, reap the completion
 * ring in user memory (no system call at all); blocking, io_uring_enter
 * waits for one completion, then the ring is reaped.  The count returned
 * is the number of POLLIN completions reaped.
 *
 * Ready mode is unsupported, as for epoll-et: a multishot poll posts a
 * completion when the fd's wait queue is woken, not while the fd merely
 * stays readable, so repeated timeout-0 calls would time an empty ring.
 *
 * A completion without IORING_CQE_F_MORE means the kernel ended the
 * multishot request; collect() re-arms it outside the timed call.
 */
#include "backends/backend.h"

#include <liburing.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define URING_ENTRIES 256
#define URING_REAP 64

typedef struct {
    struct io_uring ring;
    int inited;
    int last_n;
    int last_fd[URING_REAP];
    int rearm[URING_REAP];
    int nrearm;
} uring_state;

static int arm(uring_state *s, int fd, mp_err *err)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
    if (!sqe) {
        io_uring_submit(&s->ring);
        sqe = io_uring_get_sqe(&s->ring);
    }
    if (!sqe)
        return mp_errf(err, -EBUSY, "io_uring: no free submission entry");
    io_uring_prep_poll_multishot(sqe, fd, POLLIN);
    io_uring_sqe_set_data64(sqe, (uint64_t)fd);
    int rc = io_uring_submit(&s->ring);
    if (rc < 0)
        return mp_errf(err, rc, "io_uring: submitting the poll of fd %d: %s", fd, strerror(-rc));
    return 0;
}

static int uring_open(void **state, int max_fds, mp_err *err)
{
    (void)max_fds;
    uring_state *s = calloc(1, sizeof *s);
    if (!s)
        return mp_errf(err, -ENOMEM, "io_uring: out of memory");
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE;
    p.cq_entries = 4096;
    int rc = io_uring_queue_init_params(URING_ENTRIES, &s->ring, &p);
    if (rc < 0) {
        free(s);
        const char *why = rc == -ENOSYS ? "this kernel has no io_uring"
                          : rc == -EPERM ? "io_uring is disabled here "
                                           "(kernel.io_uring_disabled, or a seccomp filter)"
                                         : strerror(-rc);
        return mp_errf(err, rc, "io_uring_queue_init: %s", why);
    }
    if (!(p.features & IORING_FEAT_FAST_POLL)) {
        io_uring_queue_exit(&s->ring);
        free(s);
        return mp_errf(err, -EOPNOTSUPP, "io_uring here lacks fast poll (Linux 5.7+); "
                       "multishot poll needs Linux 5.13+");
    }
    s->inited = 1;
    *state = s;
    return 0;
}

static int uring_add(void *state, int fd, mp_err *err)
{
    return arm(state, fd, err);
}

static int reap(uring_state *s)
{
    struct io_uring_cqe *cqes[URING_REAP];
    unsigned n = io_uring_peek_batch_cqe(&s->ring, cqes, URING_REAP);
    int k = 0, bad = 0;
    for (unsigned i = 0; i < n; i++) {
        int fd = (int)io_uring_cqe_get_data64(cqes[i]);
        if (cqes[i]->res < 0)
            bad = cqes[i]->res;
        else if (cqes[i]->res & POLLIN)
            s->last_fd[k++] = fd;
        if (!(cqes[i]->flags & IORING_CQE_F_MORE) && s->nrearm < URING_REAP)
            s->rearm[s->nrearm++] = fd;
    }
    io_uring_cq_advance(&s->ring, n);
    s->last_n = k;
    return bad && !k ? bad : k;
}

static int uring_wait(void *state, int timeout_ms)
{
    uring_state *s = state;
    if (timeout_ms != 0) {
        struct io_uring_cqe *cqe;
        int rc;
        if (timeout_ms < 0) {
            rc = io_uring_wait_cqe(&s->ring, &cqe);
        } else {
            struct __kernel_timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000LL};
            rc = io_uring_wait_cqe_timeout(&s->ring, &cqe, &ts);
            if (rc == -ETIME)
                return 0;
        }
        if (rc < 0)
            return rc;
    }
    return reap(s);
}

static int uring_collect(void *state, int *fds, int max)
{
    uring_state *s = state;
    int k = 0;
    for (; k < s->last_n && k < max; k++)
        fds[k] = s->last_fd[k];
    for (int i = 0; i < s->nrearm; i++) {
        mp_err e;
        arm(s, s->rearm[i], &e);
    }
    s->nrearm = 0;
    return k;
}

static void uring_close(void *state)
{
    uring_state *s = state;
    if (s && s->inited)
        io_uring_queue_exit(&s->ring);
    free(s);
}

static const char *uring_unsupported_mode(const char *mode)
{
    if (!strcmp(mode, "ready"))
        return "io_uring multishot poll posts a completion when the fd is woken, not while it "
               "stays readable, so repeated timeout-0 calls would time an empty completion "
               "ring; io_uring is measured in wakeup mode";
    return NULL;
}

const mp_backend_ops mp_backend_io_uring = {
    .name = "io_uring",
    .summary = "io_uring multishot poll (liburing), one submission per fd at registration",
    .unsupported_mode = uring_unsupported_mode,
    .open = uring_open,
    .add = uring_add,
    .wait = uring_wait,
    .collect = uring_collect,
    .close = uring_close,
};
