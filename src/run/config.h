/* SPDX-License-Identifier: MIT */
/* config.h - run/ uses backends/, pmu/, topology/, sim/, results/ and common/, never cmd/
 * or experiments/ above it.  What a run measures: the configuration cmd/
 * builds from the options of `muxprof run` (validated before anything is
 * created) and the run/ layer, the experiments and the writers read.  Error convention:
 * common/mp_err.h (MP_EUSAGE -> exit 2). */
#ifndef MP_CONFIG_H
#define MP_CONFIG_H

#include <limits.h>

#include "backends/backend.h"
#include "results/cell.h"
#include "results/table.h"
#include "run/fdset.h"

#define MP_MAX_BACKENDS 8
#define MP_MAX_COUNTS 64
#define MP_MAX_KINDS 4

/* Largest accepted values: beyond these a count is a typo, not a wish. */
#define MP_FDS_MAX 1048576      /* the kernel's default fs.nr_open */
#define MP_SAMPLES_MAX 10000000
#define MP_REPEATS_MAX 64   /* the report reads as many repeat medians per cell */
#define MP_WARMUP_MAX 10000000
/* --wake-delay: at most this many delays, none longer than MP_WAKE_DELAY_MAX_NS
 * (results/cell.h: a cell's wake_delay_ns lies in its range). */
#define MP_MAX_WAKE_DELAYS 8

typedef enum { MP_MODE_READY, MP_MODE_WAKEUP } mp_mode;
typedef enum { MP_POS_FIRST, MP_POS_MIDDLE, MP_POS_LAST } mp_ready_pos;
/* Whether the measuring process's descriptor table has one user in the
 * timed blocks (private) or two (shared: one parked extra thread). */
typedef enum { MP_FDT_PRIVATE, MP_FDT_SHARED } mp_fd_table;

/* What a run measures (--experiment): bit i is row i of the experiments
 * registry (experiments/experiment.h), whose row 0 is the per-call sweep. */
#define MP_EXP_CALLS 1u
#define MP_MAX_EXPERIMENTS 8
#define MP_WAITERS_MAX 64

/* How a cell's repeats are spread over the run: one repeat of every cell per
 * pass over the sweep (each with a freshly built descriptor set), or all of a
 * cell's repeats one after another on one set. */
typedef enum { MP_REPEATS_PASSES, MP_REPEATS_BACK_TO_BACK } mp_repeat_order;

typedef struct mp_run_config {
    const mp_backend_ops *backends[MP_MAX_BACKENDS];
    int nbackends;
    int fds[MP_MAX_COUNTS];        /* ascending */
    int ncounts;
    int actives[MP_MAX_COUNTS];    /* K ready fds at once (ready mode), ascending */
    int nactives;
    mp_mode modes[2];
    int nmodes;
    /* --wake-delay, ascending: how long the poker lets the waiter sleep
     * (seen asleep in /proc) before it writes.  Each delay is a wakeup cell
     * of its own; none given reads as one delay of 0. */
    long long wake_delays_ns[MP_MAX_WAKE_DELAYS];
    int nwake_delays;
    mp_fd_kind kinds[MP_MAX_KINDS];
    int nkinds;
    int samples, repeats, warmup;
    mp_repeat_order repeat_order;  /* --repeat-order */
    unsigned experiments;          /* bits, see MP_EXP_CALLS */
    /* The names of the chosen experiments, in registry order (for the record). */
    const char *experiment_names[MP_MAX_EXPERIMENTS];
    int nexperiments;
    int waiters;                   /* herd: M */
    mp_ready_pos ready_pos;
    mp_fd_table fd_tables[2];      /* --fd-table: private first when both */
    int nfd_tables;
    char events[256];
    char placement[32];
    char out_dir[PATH_MAX];        /* empty: reports/runs/<host>-<stamp> */
    int force, quick, no_plots, quiet;
    int paper;                     /* --paper: the report's PDFs laid out for a paper */
    int profile;                   /* --profile: a kernel sampling pass per ok cell */
    int anonymize;                 /* --anonymize: no host, user names or paths in the outputs */
    int dry_run;                   /* --dry-run: the plan printed, nothing measured or written */
    int no_wait;                   /* --no-wait, or MUXPROF_NO_WAIT=1: start without settling */
    double settle_max_s;           /* --settle-max: the longest wait for the host to settle */
    char command[1024];            /* the command line, for the record */
} mp_run_config;

/* results.json's "config": the options a run records, one row each
 * (run/config_table.c) read from the members above; the one place a
 * recorded option's key, kind, unit and doc line are written, to which
 * test_results holds docs/results-schema.md. */
extern const mp_rtable mp_run_config_table;
/* The config object of c; no wake delay given reads as one of 0. */
cJSON *mp_run_config_json(const mp_run_config *c);

/* The mode slots of a run, the sweep's mode dimension: each mode in
 * order, wakeup once per wake delay.  Slot i's mode, and its delay in
 * *delay_ns (-1 for ready: it has none). */
int mp_run_nslots(const mp_run_config *c);
mp_mode mp_run_slot(const mp_run_config *c, int i, long long *delay_ns);

/* The names of each value of mp_mode, mp_ready_pos, mp_repeat_order and
 * mp_fd_table, by value, NULL-ended: what the functions below print and
 * parse, and the names results.json's config records. */
extern const char *const mp_mode_name_of[];
extern const char *const mp_ready_pos_name_of[];
extern const char *const mp_repeat_order_name_of[];
extern const char *const mp_fd_table_name_of[];

const char *mp_mode_name(mp_mode m);
/* MP_EUSAGE when s names no mode. */
int mp_mode_parse(const char *s, mp_mode *out);
/* "ready, wakeup" for messages. */
const char *mp_mode_names(void);
int mp_ready_pos_parse(const char *s, mp_ready_pos *out);
/* "first, middle, last" for messages. */
const char *mp_ready_pos_names(void);
/* MP_EUSAGE when s names no order. */
int mp_repeat_order_parse(const char *s, mp_repeat_order *out);
/* "passes, back-to-back" for messages. */
const char *mp_repeat_order_names(void);
const char *mp_fd_table_name(mp_fd_table t);
int mp_fd_table_parse(const char *s, mp_fd_table *out);
const char *mp_fd_table_names(void);
/* Index of the first of k ready fds in a set of n for a position (the k
 * ready fds are consecutive). */
int mp_ready_first(mp_ready_pos p, int n, int k);

#endif
