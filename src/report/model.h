/* model.h - results.json read into checked C structs for the
 * report writers.  The file is treated as hostile: every field the report
 * needs is type- and range-checked, and a failure names the file and the
 * field.  Optional decoration (topology, counters, profile) that does not
 * fit the schema is dropped with a warning instead of failing the report.
 */
#ifndef MP_REPORT_MODEL_H
#define MP_REPORT_MODEL_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "report/numeric.h"
#include "results/cell.h"
#include "common/mp_err.h"

#define MP_RM_MAX_LIST 32
#define MP_RM_MAX_CACHES 8
#define MP_RM_MAX_WARN 32
#define MP_RM_MAX_HERD 16
#define MP_RM_MAX_LTET 32
#define MP_RM_MAX_REG 1024
#define MP_RM_MAX_CPF 8

typedef struct mp_rcache {
    int level;                    /* 1, 2, 3, ... */
    char name[16];                /* "L1d", "L2", "L3" */
    unsigned long long bytes;
} mp_rcache;

typedef struct mp_rcounter {
    char name[MP_RM_NAME];
    int opened;                   /* 1 opened, 0 unavailable */
    int cpu_wide;                 /* 1: an uncore event counting all work on its CPUs */
    char reason[256];
} mp_rcounter;

/* experiments.register.cells[] (docs/experiments.md) */
typedef struct mp_rreg {
    char backend[32], fd_kind[32];
    long long nfds;
    int status;                   /* MP_RC_* */
    char reason[256];
    mp_rsum total;                /* total_ns: p10 p50 p90 min max n (ok cells) */
    double ns_per_fd;             /* NaN when absent */
    mp_rmetric cpf[MP_RM_MAX_CPF];   /* counters_per_fd: name, value in s.p50 */
    size_t ncpf;
} mp_rreg;

/* experiments.herd.arrangements[]: each per-event value a summary
 * (p50 p90 mean min max n). */
typedef struct mp_rherd {
    char name[48];
    int status;                   /* MP_CELL_OK or MP_CELL_ERROR (with reason) */
    char reason[256];
    double waiters, rounds, rounds_lost, rounds_miscounted;   /* NaN when absent */
    mp_rsum woken, returned, wasted, first_ns, csw;
    int has_events;               /* the summaries are there (rounds > 0) */
} mp_rherd;

/* experiments.ltet.cells[] */
typedef struct mp_rltet {
    int edge;                     /* 0 level, 1 edge */
    long long chunk;
    int status;
    char reason[256];
    double syscalls, ns_p50, ns_p90, ns_per_syscall, n;   /* NaN when absent */
} mp_rltet;

typedef struct mp_rexps {
    int has_register, has_herd, has_ltet;   /* the object was there and usable */
    mp_rreg *reg;
    size_t nreg;
    mp_rherd herd[MP_RM_MAX_HERD];
    size_t nherd;
    mp_rltet ltet[MP_RM_MAX_LTET];
    size_t nltet;
    double event_bytes;           /* ltet; NaN when absent */
} mp_rexps;

/* A column of an experiment's own table (experiments.X.table.columns[],
 * experiments/table.h); its strings point into the model's JSON tree. */
enum { MP_RX_KEY, MP_RX_VALUE, MP_RX_STATUS, MP_RX_REASON };
typedef struct mp_rxcol {
    const char *key, *label, *unit;
    int kind;                     /* MP_RX_* */
} mp_rxcol;

/* A figure of such a table, its columns as indexes into cols[]. */
typedef struct mp_rxfig {
    const char *name, *title;
    int x, y[4], series, split;   /* series, split: -1 when none */
    size_t ny;
    int logx, logy;
} mp_rxfig;

#define MP_RM_MAX_XCOLS 64
#define MP_RM_MAX_XFIGS 4

/* experiments.X.table of an experiment without a section of its own, drawn
 * by generic code (report/load_xtable.c, report/sec_xtable.c). */
typedef struct mp_rxtable {
    const char *name;             /* X: letters, digits, _ . + - */
    const char *title, *method;   /* title NULL: no usable table */
    const char *status, *reason;  /* the object's own (it failed as a whole); or NULL */
    mp_rxcol cols[MP_RM_MAX_XCOLS];
    size_t ncols;
    int status_col, reason_col;   /* -1 when none */
    const cJSON **rows;           /* arrays of ncols values: finite numbers, strings, nulls */
    size_t nrows;
    mp_rxfig figs[MP_RM_MAX_XFIGS];
    size_t nfigs;
} mp_rxtable;

typedef struct mp_rmodel {
    char path[4096];              /* the results.json read */
    char shown[4096];             /* how outputs name it: path, or "results.json" when
                                   * anonymized */
    int anonymized;               /* context.anonymized: outputs name no path */
    cJSON *root;
    char arch[32];
    mp_abi abi;
    int simulated;                /* context.simulated: cache counts of a model, no times */
    char sim_label[96];           /* context.label, "simulated (GEOMETRY)" */
    unsigned line_bytes;
    int line_known;               /* 0: 64 assumed */
    mp_rcache caches[MP_RM_MAX_CACHES];
    size_t ncaches;
    mp_rcounter *counters;        /* from the "counters" object */
    size_t ncounters;
    char counters_preset[64], counters_scope[32], counters_note[256];
    int has_counters;
    mp_rcell *cells;              /* cells with active == 1 only: every per-call table, */
    size_t ncells;                /* fit, figure and claim reads these */
    const mp_rcell **by_key;      /* cells in key order: mode, fd kind, backend, nfds, */
                                  /* then file order (the lookups below search it) */
    mp_rcell *kcells;             /* cells with active > 1 (the "K of N ready" section) */
    size_t nkcells;
    long long wake_delay_ns;      /* the wake delay of the wakeup cells in cells[] (the
                                   * run's shortest); -1: no wakeup cell */
    mp_rcell *dcells;             /* wakeup cells of the run's other wake delays (the */
    size_t ndcells;               /* "sleep depth" section; compare leaves them out) */
    mp_rcell *all;                /* every entry of results[], its fields read unchecked */
    size_t nall;                  /* (mp_rcell_read): private and shared tables alike */
    mp_rexps exp;                 /* "experiments" (report/load_exp.c) */
    mp_rxtable *xtabs;            /* the other experiments, by their tables */
    size_t nxtabs;
    /* distinct values, in config order where config lists them */
    char backends[MP_RM_MAX_LIST][32];
    size_t nbackends;
    char modes[MP_RM_MAX_LIST][16];
    size_t nmodes;
    char kinds[MP_RM_MAX_LIST][32];
    size_t nkinds;
    char metrics[MP_RM_MAX_LIST][MP_RM_NAME];   /* counter metric names seen */
    size_t nmetrics;
    char warn[MP_RM_MAX_WARN][256];
    size_t nwarn;
} mp_rmodel;

/* What a results.json may hold (it may come from anyone): the file's size
 * bounds the parser's memory (cJSON keeps about 8 times the text for a
 * run's file, up to 32 times for one made of tiny values), the cells the
 * report's work.  A larger file or one with more cells is refused with
 * the numbers.  docs/results-schema.md states both. */
#define MP_RM_MAX_FILE_BYTES (64u << 20)
#define MP_RM_MAX_CELLS 50000

/* Read and check PATH.  -ENOENT when absent, -EBADMSG for a bad file. */
int mp_rm_load(mp_rmodel *m, const char *path, mp_err *err);
void mp_rm_free(mp_rmodel *m);

/* The cells of (mode, kind, backend), or of (mode, kind) and every backend
 * when backend is NULL, in key order: *first and the count.  O(log cells). */
size_t mp_rm_range(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, const mp_rcell *const **first);

/* Cells of one series (mode, fd kind, backend), one per nfds (the first
 * in the file), sorted by nfds.  Returns how many nfds there are; the
 * max smallest are written. */
size_t mp_rm_series(const mp_rmodel *m, const char *mode, const char *kind,
                    const char *backend, const mp_rcell **out, size_t max);

/* The first cell for (mode, kind, backend, nfds) in the file, an ok one
 * when ok_only; or NULL.  mp_rm_find: the ok one. */
const mp_rcell *mp_rm_find_any(const mp_rmodel *m, const char *mode, const char *kind,
                               const char *backend, long long nfds, int ok_only);
const mp_rcell *mp_rm_find(const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend, long long nfds);

/* The p50 of metric NAME in an ok cell ("wall_ns" included), NaN if none. */
double mp_rm_p50(const mp_rcell *c, const char *name);

/* Scalar from the JSON tree by dotted path ("context.host") as text, or
 * NULL; numbers and booleans are formatted into buf. */
const char *mp_rm_text(const mp_rmodel *m, const char *dotted, char *buf, size_t len);

#endif
