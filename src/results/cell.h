/* SPDX-License-Identifier: MIT */
/* cell.h - a cell of results.json (docs/results-schema.md): the status a
 * cell ends in, the one C model of a cell that run/ writes and report/
 * reads back, and the table of the cell's fields both go through. */
#ifndef MP_RESULTS_CELL_H
#define MP_RESULTS_CELL_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/summary.h"

#define MP_RM_NAME 96
#define MP_RM_MAX_REP 64
#define MP_CELL_REASON 512        /* a cell's reason, its NUL included */
/* The longest wake delay a cell holds (--wake-delay): a sample then still ends
 * well inside the waiter's 1 s liveness tick. */
#define MP_WAKE_DELAY_MAX_NS 100000000LL

typedef enum { MP_CELL_PENDING, MP_CELL_OK, MP_CELL_UNSUPPORTED, MP_CELL_ERROR } mp_cell_status;

const char *mp_cell_status_name(mp_cell_status s);

/* Where a cell's interval on the median comes from. */
enum { MP_CI_NONE, MP_CI_REPEATS };

typedef struct mp_rmetric {
    char name[MP_RM_NAME];
    mp_rsum s;
} mp_rmetric;


/* A metric as the run measured it: a summary and, for a counter, how it
 * was counted. */
typedef struct mp_metric {
    char name[MP_RM_NAME];
    mp_summary s;
    int is_counter;
    char scope[16];        /* counters: "user+kernel", "user" */
    int pass;              /* counters: 1-based pass that measured it */
    char read_path[16];    /* counters: "rdpmc", "mrs", "read", "rdpmc+read" */
    char unit[16];         /* counters: what one count is, "ns" or "events" (pmu/) */
    double bracket;        /* counters: empty-bracket count subtracted */
    size_t dropped;        /* counters: samples refused (group did not run throughout) */
} mp_metric;

/* A cell as results.json holds it.  The scalar fields are those of
 * mp_rcell_fields[]: the writer writes them from here, the reader fills
 * them back (-1 for a count and NaN for a number it does not hold, "" for
 * a text), and checks those the report relies on. */
typedef struct mp_rcell {
    char backend[32], syscall[32], fd_kind[32], mode[16];
    long long nfds;
    long long active;             /* K ready at once; 1 when the file has no "active" */
    long long wake_delay_ns;      /* wakeup: the poker's delay; read as 0 from files without
                                   * it (their poker wrote at once); ready: -1 */
    int status;                   /* mp_cell_status (MP_RC_*) */
    char reason[MP_CELL_REASON];  /* empty when none */
    long long fd_lo, fd_hi, ready_fd;   /* -1 when absent */
    char fd_table[16];
    long long process_threads;    /* -1: not read */
    long long watch_sets;         /* -1: not counted */
    long long rl_soft, rl_hard;
    long long samples_kept, samples_discarded, samples_stopped;
    long long samples_preempted;  /* -1: not read (ready mode) */
    double empty_bracket_ns, bare_loop_ns, bare_loop_mean_ns;   /* ready mode */
    /* Interval on wall.p50, MP_CI_REPEATS with 2 repeat medians or more:
     * the order-statistic interval of their median (common/stats.h,
     * mp_median_ci_order); the reader computes it from rep[] whatever
     * interval the file carries; ci_level its coverage (0.961 with 9
     * repeats; the whole range and 1 - 2^(1-R) below 6). */
    int ci_kind;
    double ci_lo, ci_hi, ci_level;
    const cJSON *profile;         /* the "profile" object (read: checked), or NULL */

    /* What the writer takes besides: */
    const double *repeat_medians; /* [nrepeats] on wall_ns's scale, NaN: no sample in it */
    size_t nrepeats;
    const mp_metric *metrics;     /* metrics{} and counters_missing{} */
    size_t nmetrics;

    /* What the reader derives besides: */
    size_t index;                 /* position in results[] */
    const cJSON *json;            /* results[index] itself */
    mp_rsum wall;                 /* metrics.wall_ns (ok cells) */
    mp_rsum waiter;               /* metrics.waiter_ns (wakeup cells; p50 NaN if absent) */
    double rep[MP_RM_MAX_REP];    /* repeat medians, on wall_ns's scale (ready mode: */
    size_t nrep;                  /* the bracket subtracted as in wall_ns) */
    mp_rmetric *counters;         /* metrics other than wall_ns/wall_raw_ns/waiter_ns; a
                                     null summary (nothing counted) is left out */
    size_t ncounters;
} mp_rcell;

/* The kinds of value of a field. */
typedef enum {
    MP_RF_TEXT,     /* char[] in mp_rcell */
    MP_RF_STATUS,   /* int mp_cell_status, written as its name */
    MP_RF_COUNT,    /* long long */
    MP_RF_NUMBER,   /* double */
    MP_RF_OBJECT,   /* built by the row's own function (an array counts as one) */
} mp_rfield_type;

/* When a field is written as null or left out. */
typedef enum {
    MP_RF_ALWAYS,
    MP_RF_NULL_EMPTY,    /* text "": null */
    MP_RF_NULL_NEG,      /* count < 0: null */
    MP_RF_NULL_NONPOS,   /* count <= 0: null */
    MP_RF_NULL_NAN,      /* number NaN: null */
    MP_RF_WITH_FDS,      /* left out unless fd_lo >= 0 */
    MP_RF_IF_ANY,        /* object: left out when its function returns NULL */
} mp_rfield_absent;

/* Which cells hold a field (bits; 0: every cell). */
enum { MP_RF_OK_CELLS = 1, MP_RF_READY_CELLS = 2, MP_RF_WAKEUP_CELLS = 4 };

/* One field of a <cell>, in the order results.json writes them. */
typedef struct mp_rfield {
    const char *key;
    mp_rfield_type type;
    mp_rfield_absent absent;
    unsigned cells;                       /* MP_RF_*_CELLS */
    size_t off;                           /* in mp_rcell: TEXT, STATUS, COUNT, NUMBER */
    size_t len;                           /* TEXT: its buffer */
    cJSON *(*object)(const mp_rcell *c);  /* OBJECT */
    const char *unit;                     /* "ns", "samples", ... or "" */
    const char *doc;                      /* one line */
    int dim;                              /* 1: a dimension of the sweep (cells differ in
                                           * it): a key column of results.csv and
                                           * samples.csv (run/out_csv.c) */
} mp_rfield;

extern const mp_rfield mp_rcell_fields[];
extern const size_t mp_nrcell_fields;

/* A cell as results[] holds it, every field through mp_rcell_fields[]. */
cJSON *mp_rcell_json(const mp_rcell *c);
/* The same, with only the fields named in keys (nkeys of them), in
 * mp_rcell_fields[]'s order: the cells of a run made elsewhere (simulated,
 * traced) hold fewer.  NULL on allocation failure. */
cJSON *mp_rcell_json_of(const mp_rcell *c, const char *const *keys, size_t nkeys);
/* The scalar fields of results[i] o into c, unchecked: a field absent or
 * of another kind reads as -1, NaN or "" (a status not of the schema as
 * MP_CELL_PENDING); wall.p50 from metrics.wall_ns, NaN when absent.  The
 * checks are the reader's (report/check.c). */
void mp_rcell_read(const cJSON *o, mp_rcell *c);

/* The unit of metric `name` of a cell whose metrics{} holds `m` under that
 * name, a static string: m's "unit" where it is "ns" or "events"; else (files
 * without one, or one of another name) "ns" for the times (wall_ns,
 * wall_raw_ns, waiter_ns) and the software clocks (task-clock, cpu-clock,
 * also as poker:NAME), "events" for other counters. */
const char *mp_metric_unit(const char *name, const cJSON *m);

#endif
