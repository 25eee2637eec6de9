/* SPDX-License-Identifier: MIT */
/* fdtable.c - the parked thread of --fd-table shared; see fdtable.h.  It
 * blocks in read() on a pipe, so it never runs (no timer, no spinning)
 * until the write end closes. */
#include "run/fdtable.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mp_parked {
    pthread_t thread;
    int pipe[2];
};

static void *parked_main(void *arg)
{
    mp_parked *p = arg;
    char c;
    while (read(p->pipe[0], &c, 1) < 0 && errno == EINTR)
        ;
    return NULL;
}

int mp_parked_start(mp_parked **out, mp_err *err)
{
    mp_parked *p = calloc(1, sizeof *p);
    if (!p)
        return mp_errf(err, -ENOMEM, "out of memory for the parked thread");
    if (pipe2(p->pipe, O_CLOEXEC) < 0) {
        int e = errno;
        free(p);
        return mp_errf(err, -e, "parked thread: pipe2: %s", strerror(e));
    }
    /* Signals (SIGINT, the watchdog's SIGUSR1) go to the measuring thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&p->thread, NULL, parked_main, p);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        close(p->pipe[0]);
        close(p->pipe[1]);
        free(p);
        return mp_errf(err, -rc, "cannot start the parked thread (--fd-table shared): %s",
                       strerror(rc));
    }
    *out = p;
    return 0;
}

void mp_parked_stop(mp_parked *p)
{
    if (!p)
        return;
    close(p->pipe[1]);   /* its read returns 0 */
    pthread_join(p->thread, NULL);
    close(p->pipe[0]);
    free(p);
}
