/* progress.h - progress of a sweep on stderr.  On a terminal one line,
 * rewritten in place: the cell, the repeat or counter pass being measured,
 * the time so far and an estimate of the time left from the work done so
 * far.  Not on a terminal: one line per cell once it is final, numbered
 * 1..ncells in order without gaps.  Nothing when quiet. */
#ifndef MP_PROGRESS_H
#define MP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "run/results.h"

typedef struct mp_progress {
    int quiet, tty;
    uint64_t start_ns;
    const mp_results *r;
    size_t per_cell;        /* work units of a cell: repeats + counter passes (+ profile) */
    size_t units_total;     /* estimate, lowered as cells finish with units unused */
    size_t units_done;
    unsigned char *used;    /* per cell: units begun */
    unsigned char *final;   /* per cell: finished */
    size_t next_line;       /* plain output: the next cell to print */
} mp_progress;

/* units_per_cell: repeats + counter passes (+ 1 with --profile). */
void mp_progress_init(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell);
void mp_progress_free(mp_progress *p);
/* Matches mp_sweep_env.progress: a unit of cell `cell` begins. */
void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx);
/* Matches mp_sweep_env.cell_done: cell `cell` is final (any status). */
void mp_progress_cell_done(size_t cell, void *ctx);
/* End the line in place (terminal) and say how long it took. */
void mp_progress_done(mp_progress *p, const char *what);

#endif
