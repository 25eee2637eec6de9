/* SPDX-License-Identifier: MIT */
/* results.h - the in-memory results of a run: context, calibration and one
 * cell per (fd kind, N, mode, backend).  Writers (out_json.c, out_csv.c,
 * out_table.c) turn it into files and tables; docs/results-schema.md is
 * the contract. */
#ifndef MP_RESULTS_H
#define MP_RESULTS_H

#include <stdio.h>

#include <cjson/cJSON.h>
#include "run/canary.h"
#include "run/config.h"
#include "common/file.h"
#include "common/stats.h"
#include "pmu/pmu.h"
#include "results/cell.h"
#include "results/summary.h"

typedef struct mp_cell {
    const mp_backend_ops *backend;
    mp_fd_kind kind;
    mp_mode mode;
    long long wake_delay_ns;  /* wakeup: how long the waiter slept before the poke; ready: -1 */
    int nfds;
    int active;               /* ready fds at once (1 unless --active) */
    mp_cell_status status;
    int failed;               /* ok from the repeats timed before it failed: an error of the run */
    char reason[MP_CELL_REASON];
    int fd_lo, fd_hi, ready_fd;
    long rl_soft, rl_hard;
    int watch_sets;           /* epoll/io_uring instances open at its first timed block; -1 */
    mp_fd_table fd_table;     /* asked for: private or shared */
    int process_threads;      /* most threads seen in this process at its timed blocks; -1 unread */
    size_t kept, discarded;
    size_t stopped;           /* kept samples that spanned a stop of the process */
    size_t preempted;         /* wakeup: kept samples in which the waiter was preempted */
    double *repeat_medians;   /* [repeats], on wall_ns's scale once summarised */
    double *bare_loop;        /* [repeats], ready mode: ns per call in a tight loop */
    double *bare_loop_mean;   /* [repeats], ready mode: the same, all loops' mean */
    /* Interval of wall_ns's median from the repeat medians (order
     * statistics, common/stats.h) and its coverage, at least MP_CI_LEVEL
     * with enough repeats; NaN until summarised or with one repeat. */
    double p50_ci_lo, p50_ci_hi, p50_ci_level;
    /* Kept per-call wall samples (raw ns) and the repeat each came from. */
    double *samples;
    double *waiter;           /* wakeup: the waiter's bracket of each kept sample (ns) */
    double *bracket_ns;       /* ready: [repeats] empty clock bracket before each block */
    double empty_bracket_ns;  /* ready: what was subtracted (median of bracket_ns); NaN */
    int *sample_repeat;
    size_t nsamples;
    mp_metric *metrics;
    size_t nmetrics;
    cJSON *profile;           /* owned: the "profile" object of --profile, or NULL */
} mp_cell;

/* A wakeup cell's delay as the poker takes it (0 for a ready cell). */
#define MP_CELL_DELAY(c) ((uint64_t)((c)->wake_delay_ns > 0 ? (c)->wake_delay_ns : 0))

typedef struct mp_results {
    const mp_run_config *cfg;
    char started_utc[32], finished_utc[32];
    int interrupted;          /* signal number, 0 if complete */
    int interrupted_cell;     /* index of the cell in progress, -1 */
    char interrupted_what[64];/* or what else was running ("experiment herd") */
    cJSON *context;           /* owned */
    cJSON *topology;          /* owned */
    cJSON *counters;          /* owned */
    cJSON *experiments;       /* owned: register/herd/ltet objects, NULL if none ran */
    mp_summary empty_bracket; /* ns, two clock reads back to back */
    mp_canary canary[MP_REPEATS_MAX];   /* the host's level in each pass (run/canary.h) */
    size_t ncanary;           /* passes measured */
    size_t canary_llc_bytes;  /* the LLC chase's buffer, 0: no canary could be made */
    mp_cell *cells;
    size_t ncells;
} mp_results;

/* Cells in sweep order: kind, N, active, mode slot (mode, wake delay), fd
 * table, backend. */
int mp_results_init(mp_results *r, const mp_run_config *cfg, mp_err *err);
void mp_results_free(mp_results *r);

/* "poll pipe N=100 K=4 ready", "epoll pipe N=10 wakeup asleep 1 ms": how
 * progress and messages name a cell.  Returns buf. */
const char *mp_cell_name(const mp_cell *c, char *buf, size_t len);

/* Append a metric to a cell (copies name); returns it, NULL when out of memory. */
mp_metric *mp_cell_add_metric(mp_cell *c, const char *name);
const mp_metric *mp_cell_metric(const mp_cell *c, const char *name);

/* A finished cell's kept wall samples (raw ns) and the 0-based repeat of
 * each, in the order taken: what samples.csv lists. */
typedef struct mp_samples {
    double *wall_raw_ns;
    int *repeat;
    size_t n;
} mp_samples;

/* results.json in three parts, so that the journal (run/journal.h) can
 * write each when it is known and results.json is assembled from what it
 * wrote: the head (schema, tool, started_utc, context, topology, counters,
 * config, calibration) before the sweep, one object per finished cell as
 * results[] holds it, the tail (status, interrupted_cell/_signal,
 * finished_utc, context.noise) at the end. */
cJSON *mp_results_head_json(const mp_results *r);
cJSON *mp_cell_json(const mp_cell *c, int repeats);
cJSON *mp_results_tail_json(const mp_results *r);
/* results.json from its parts (copied); tail NULL: the run never finished,
 * "status" is "interrupted".  recovered (copied when not NULL) says where
 * the parts were read back from. */
cJSON *mp_results_assemble(const cJSON *head, const cJSON *tail, const cJSON *experiments,
                           const cJSON *cells, const cJSON *recovered);

/* Writers.  Each writes DIR/<file> through a temporary name and rename. */
int mp_write_results_json(const cJSON *root, mp_dir *dir, mp_err *err);
/* results.csv from results[] and config of results.json's document root;
 * samples.csv from the same and the samples of each of its cells
 * (samples[i] belongs to results[i]). */
int mp_write_csv(const cJSON *root, mp_dir *dir, mp_err *err);
int mp_write_samples(const cJSON *root, const mp_samples *samples, mp_dir *dir,
                     mp_err *err);
/* experiments.csv from experiments.NAME.table and config: a row per row of
 * each table and value column (the header alone when no experiment ran). */
int mp_write_experiments_csv(const cJSON *root, mp_dir *dir, mp_err *err);
/* Per mode: rows N, columns p50 per backend, last column poll/epoll. */
void mp_print_tables(const mp_results *r, FILE *f);
/* "4.65 us [4.10-5.32]": the median at 3 significant digits in ns, us or
 * ms (by its size), and p10-p90 in the same unit. */
const char *mp_fmt_spread(char *buf, size_t len, const mp_summary *s);
/* Cells whose status is ok. */
size_t mp_results_ok_cells(const mp_results *r);
/* Cells (those kept from the repeats before a failure too), and
 * experiments, that ended in error. */
size_t mp_results_error_cells(const mp_results *r);
/* The run's status as results.json says it: "interrupted" (a signal ended
 * it), "errors" (a cell or an experiment ended in error) or "complete". */
const char *mp_results_status(const mp_results *r);
/* The cells not measured, one line per distinct status and reason, after
 * head (when there is any such cell and head is not NULL); returns the
 * number of lines (0: every cell was measured). */
size_t mp_print_cell_reasons(const mp_results *r, const char *head, FILE *f);
/* The cells with samples that spanned a stop of the process, after head,
 * one line each; returns the number of such samples. */
size_t mp_print_stopped(const mp_results *r, const char *head, FILE *f);
/* The plan as results.json's "counters" object (results/counters.h); NULL
 * when out of memory. */
cJSON *mp_counters_json(const mp_pmu_plan *plan);
/* Counters measured, and those not with the reason (from the "counters" JSON). */
void mp_print_counters(const cJSON *counters, FILE *f);

#endif
