/* progress.c - see progress.h. */
#include "run/progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"

void mp_progress_init(mp_progress *p, int quiet)
{
    memset(p, 0, sizeof *p);
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->start_ns = mp_now_ns();
}

void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx)
{
    mp_progress *p = ctx;
    if (p->quiet)
        return;
    double s = (double)(mp_now_ns() - p->start_ns) / 1e9;
    if (p->tty) {
        fprintf(stderr, "\r\033[K[%zu/%zu %5.1fs] %s", cell + 1, ncells, s, label);
        fflush(stderr);
        return;
    }
    /* Plain output: one line per cell (its first repeat), not per repeat. */
    if (cell + 1 > p->seen) {
        p->seen = cell + 1;
        fprintf(stderr, "[%zu/%zu %5.1fs] %s\n", cell + 1, ncells, s, label);
    }
}

void mp_progress_done(mp_progress *p, const char *what)
{
    if (p->quiet)
        return;
    double s = (double)(mp_now_ns() - p->start_ns) / 1e9;
    fprintf(stderr, "%s%s in %.1f s\n", p->tty ? "\r\033[K" : "", what, s);
}
