/* progress.h - progress of a sweep on stderr: one line updated in place on
 * a terminal, plain lines otherwise, nothing when quiet. */
#ifndef MP_PROGRESS_H
#define MP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mp_progress {
    int quiet, tty;
    uint64_t start_ns;
    size_t seen;   /* cells announced so far (plain output) */
} mp_progress;

void mp_progress_init(mp_progress *p, int quiet);
/* Matches mp_sweep_env.progress. */
void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx);
/* End the line in place (terminal) and say how long it took. */
void mp_progress_done(mp_progress *p, const char *what);

#endif
