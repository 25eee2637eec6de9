/* SPDX-License-Identifier: MIT */
/* progress.h - progress of a sweep on stderr, by pass: a cell's units (its
 * repeats, counter passes, profile pass) run one pass at a time over the
 * cells, so "pass 3/9, cell 17/60" says where the sweep is long before a
 * cell is final.  On a terminal one line, rewritten in place at every unit:
 * the pass and the cell within it, the cells finished, the unit being
 * measured, the time so far and an estimate of the time left (each cell's
 * cost from its N, mode and backend, by what has been measured).  Not on a
 * terminal: the same line, one at least every MP_PROGRESS_PLAIN_S seconds
 * of units, and one line per cell once it is final, numbered 1..ncells in
 * order without gaps.  Nothing when quiet. */
#ifndef MP_PROGRESS_H
#define MP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "run/results.h"

#define MP_PROGRESS_PLAIN_S 5   /* plain output: at most this long between lines */

/* Unit durations seen so far for one (mode, backend), by N. */
#define MP_PROGRESS_PTS 64     /* distinct N kept per fit */
#define MP_PROGRESS_PER_N 16   /* units kept per N */
typedef struct mp_progress_fit {
    int mode;
    const void *backend;
    size_t npts;
    double x[MP_PROGRESS_PTS];                      /* the N seen, in order */
    double y[MP_PROGRESS_PTS][MP_PROGRESS_PER_N];   /* seconds of its units */
    size_t ny[MP_PROGRESS_PTS];
} mp_progress_fit;

typedef struct mp_progress {
    int quiet, tty;
    uint64_t start_ns;
    const mp_results *r;
    size_t per_cell;        /* work units of a cell: repeats + counter passes (+ profile) */
    size_t units_done;
    size_t cells_done;      /* cells final, of any status: only ever grows */
    unsigned char *used;    /* per cell: units begun */
    unsigned char *final;   /* per cell: finished */
    size_t next_line;       /* plain output: the next cell to print */
    size_t cur;             /* the cell of the unit in progress; SIZE_MAX: none */
    uint64_t cur_begin_ns;
    uint64_t last_line_ns;  /* plain output: when the last line was written */
    mp_progress_fit *fits;  /* one per (mode, backend) seen */
    size_t maxfits;
    size_t nfits;
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

/* The same two events at a given time (what the callbacks call with the
 * clock), and the estimate of the seconds left at that time: each cell's
 * units left, each priced from the unit times measured so far for its mode
 * and backend as a line in N (the median slope between the medians at each N:
 * one noisy unit moves it little); negative until some cost has been seen
 * over a tenfold range of N (a shorter one cannot say how it grows). */
void mp_progress_unit_at(mp_progress *p, size_t cell, uint64_t now_ns);
void mp_progress_cell_done_at(mp_progress *p, size_t cell, uint64_t now_ns);
double mp_progress_eta_s(const mp_progress *p, uint64_t now_ns);
/* Where a unit of `cell` that has just begun stands: its pass (1-based, of
 * per_cell) and, into *k and *n, how many cells have begun that pass and how
 * many will have units at all (cells final without one, or refused outright,
 * left out). */
size_t mp_progress_pass(const mp_progress *p, size_t cell, size_t *k, size_t *n);
/* Plain output: 1 when a line is due at now_ns (MP_PROGRESS_PLAIN_S since
 * the last), which it then records as written. */
int mp_progress_line_due(mp_progress *p, uint64_t now_ns);

#endif
