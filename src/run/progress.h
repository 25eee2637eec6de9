/* SPDX-License-Identifier: MIT */
/* progress.h - progress of a sweep on stderr, by pass: a cell's units (its
 * repeats, counter passes, profile pass) run one pass at a time over the
 * cells, so "pass 3/9, cell 17/60" says where the sweep is long before a
 * cell is final.  On a terminal one line, rewritten in place at every unit:
 * the pass and the cell within it, the cells finished, the unit being
 * measured, the time so far and an estimate of the time left (each cell's
 * cost from its N, mode and backend, by what has been measured).  Not on a
 * terminal: the same line at the first unit MP_PROGRESS_PLAIN_S seconds or
 * more after the last line, and one line per cell once it is final,
 * numbered 1..ncells in order without gaps.  Nothing when quiet.
 *
 * Between units (a long unit, a large descriptor set being built) the
 * ticker keeps the line moving: a child process, forked with the run's
 * other helpers (mp_progress_ticker_start), that redraws the terminal line
 * on every whole second of the run and at each unit, and off a terminal
 * writes the line when MP_PROGRESS_PLAIN_S would otherwise pass without one.
 * A process, not a thread: a second thread would share the measuring
 * process's descriptor table and make every fd of every call pay a
 * reference (docs/methodology.md, "Who shares the descriptor table").  The
 * measuring thread publishes what the line says into one shared page
 * (mp_progress_shm) and never waits on the ticker; on a terminal the ticker
 * is then the only writer of the line. */
#ifndef MP_PROGRESS_H
#define MP_PROGRESS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "common/mp_err.h"
#include "run/results.h"

#define MP_PROGRESS_PLAIN_S 5   /* plain output: at most this long between lines */
/* The ticker's plain line falls due this much before MP_PROGRESS_PLAIN_S,
 * so that a wake-up late by less still keeps the gap within it. */
#define MP_PROGRESS_EARLY_NS 250000000u
#define MP_PROGRESS_TICK_NS 1000000000u   /* terminal: redrawn at least this often */
#define MP_PROGRESS_STOP_MS 1000          /* the ticker's end awaited this long, then killed */
#define MP_PROGRESS_HEAD 320              /* bytes of the line before its times */

/* What the line says, in a page shared with the ticker process.  seq is a
 * sequence lock (odd while the measuring thread writes the fields under it)
 * and the futex the ticker waits on. */
typedef struct mp_progress_shm {
    _Atomic uint32_t seq;
    _Atomic uint32_t stop;           /* 1: the ticker ends */
    _Atomic uint64_t last_line_ns;   /* plain output: the last line, written by either side */
    _Atomic uint64_t ticker_lines;   /* lines the ticker wrote */
    _Atomic uint64_t ticker_wakes;   /* times the ticker woke */
    /* under seq: */
    uint64_t start_ns;
    uint64_t cur_begin_ns;   /* the unit under way began */
    double eta_base_s;       /* seconds left besides the unit under way; negative: unknown */
    double cur_price_s;      /* the unit under way's price; negative: none */
    char head[MP_PROGRESS_HEAD];   /* "[pass 3/9, cell 17/60; 12/60 cells done] LABEL" */
} mp_progress_shm;

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
    int fd;                 /* where the lines go: stderr */
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
    mp_progress_shm *shm;   /* shared with the ticker (NULL: out of memory) */
    int shm_mapped;         /* shm is a shared mapping (else calloc'd: no ticker) */
    int ticker_pid;         /* 0: none */
    char label[192];        /* the last unit's */
    size_t label_cell;      /* its cell; SIZE_MAX: no unit yet */
    mp_progress_fit *fits;  /* one per (mode, backend) seen */
    size_t maxfits;
    size_t nfits;
} mp_progress;

/* units_per_cell: repeats + counter passes (+ 1 with --profile).  The
 * lines go to fd (stderr: STDERR_FILENO), a terminal when isatty(fd). */
void mp_progress_init(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell);
void mp_progress_init_fd(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell,
                         int fd);
/* Stops the ticker if it runs. */
void mp_progress_free(mp_progress *p);

/* Forks the ticker (nothing when quiet); it runs on cpus (NULL: those
 * this thread may run on), which should leave out the measuring CPU.  It
 * ignores the stop signals (the run ends it) and dies with this process.
 * Fork while no other thread exists.  0, or a negative errno with err
 * filled: the line then moves only at units, as the measuring thread
 * writes it. */
int mp_progress_ticker_start(mp_progress *p, const cpu_set_t *cpus, mp_err *err);
/* Ends the ticker: asks, waits up to MP_PROGRESS_STOP_MS, then kills it
 * and waits as long again; the ticker draws nothing more once asked (the
 * run's final line is mp_progress_done's).  Nothing when none runs. */
void mp_progress_ticker_stop(mp_progress *p);
/* The ticker's own: what it last drew and when it next draws anyway. */
typedef struct mp_progress_tickst {
    uint32_t drawn_seq;
    uint64_t due_ns;
} mp_progress_tickst;
/* What the ticker does when it wakes at now_ns: writes the line to fd when
 * it is due (tty: anything published since it last drew, or a new whole
 * second of the run; else MP_PROGRESS_PLAIN_S less MP_PROGRESS_EARLY_NS
 * since the last line) and returns when it is next due; 0 when fd took no
 * line (the reader went away: the ticker ends).  st starts zeroed. */
uint64_t mp_progress_tick(mp_progress_shm *shm, int fd, int tty, uint64_t now_ns,
                          mp_progress_tickst *st);
/* Matches mp_sweep_env.progress: a unit of cell `cell` begins. */
void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx);
/* Matches mp_sweep_env.cell_done: cell `cell` is final (any status). */
void mp_progress_cell_done(size_t cell, void *ctx);
/* Stop the ticker, end the line in place (terminal), say how long it took. */
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
