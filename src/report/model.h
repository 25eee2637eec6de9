/* SPDX-License-Identifier: MIT */
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
#include "results/config.h"
#include "results/context.h"
#include "results/counters.h"
#include "results/profile.h"
#include "results/top.h"
#include "results/trace.h"
#include "results/limits.h"
#include "common/mp_err.h"

#define MP_RM_MAX_LIST 32
#define MP_RM_MAX_CACHES 8
#define MP_RM_MAX_WARN 32
#define MP_RM_MAX_RUN_TEXT 8      /* text members of the top level and its tool */
#define MP_RM_MAX_HELD 64         /* fields of context a report lists */

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
    const char *encoding;         /* its encoding, or NULL (points into the model's JSON) */
    const char *cpu_scope;        /* cpu_scope of the first event of its name, or NULL */
} mp_rcounter;

/* context.noise as the report reads it (run/noise.c writes it): arrays
 * keep every entry, NaN for one that is not a number; strings point into
 * the model's JSON. */
typedef struct mp_rnoise {
    int present;                  /* context.noise is an object */
    const char **warnings;        /* its string entries */
    size_t nwarnings;
    double *loadavg[2];           /* loadavg_start, loadavg_end */
    size_t nloadavg[2];
    int loadavg_ok[2];            /* an array */
    double steal_share, busy_share;   /* NaN when absent */
    const char *cpu_mhz_source;   /* "?" when absent */
    double *cpu_mhz;
    size_t ncpu_mhz;
    int cpu_mhz_ok;               /* an array */
    const char **vuln, **vuln_state;   /* mitigations: its string entries, name and state */
    size_t nvuln;
    int mitigations_ok;           /* an object */
    /* canary: the host's level (run/canary.h): the medians over the passes
     * of syscall_ns, l1_ns, llc_ns (MP_RCANARY_*), and their max/min; NaN
     * where absent (a run from before, a recovered or simulated one) */
    double canary[3], canary_spread[3];
    size_t canary_passes;
} mp_rnoise;

enum { MP_RCANARY_SYSCALL, MP_RCANARY_L1, MP_RCANARY_LLC, MP_RCANARY_N };
/* "syscall_ns", "l1_ns", "llc_ns": each canary quantity's key in results.json. */
extern const char *const mp_rcanary_keys[MP_RCANARY_N];

/* A metric of an entry of results[], whatever the entry's status: its key
 * and what the report reads of it.  A counter is a summary with a "scope",
 * or null (nothing counted), its scope and drops then from the entry's
 * counters_missing.  Strings point into the model's JSON. */
typedef struct mp_rall_metric {
    size_t cell;                  /* the entry, an index of all[] */
    const char *name;
    int counter;                  /* a summary with a scope, or null */
    int counted;                  /* 0: null, nothing counted */
    const char *scope;            /* a counter's; "?" when not a string */
    double dropped;               /* a counter's samples dropped; 0 when not a number */
    const char *read_path;        /* NULL when not a string */
    double max;                   /* NaN when not a number */
} mp_rall_metric;

/* A kernel function of a simulated cell's "sim_functions" (sim-import):
 * misses per call, NaN where not a number; the name points into the
 * model's JSON. */
typedef struct mp_rsim_fn {
    const char *name;
    double l1d, l2, l1i, llc;     /* L1d-, L2-, L1i-, LLC-load-misses */
} mp_rsim_fn;

/* A cell's "sim_functions" and "sim_other_core" as the report reads them:
 * numbers NaN where the file has none. */
typedef struct mp_rsim_fns {
    int present;                  /* the cell has "sim_functions" */
    size_t nentries;              /* functions[]'s entries, named or not (0: not an array) */
    mp_rsim_fn *fns;              /* those named by a string, in the file's order */
    size_t nfns;
    double l1d_share;             /* attributed_L1d_share */
    double checked, agree;        /* mapping_check: instructions, agree */
    double other_core_l1d;        /* sim_other_core's L1d-misses */
} mp_rsim_fns;

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

/* A fit or a comparison of such a table (results/exp_table.h), its columns
 * as indexes; -1 for one not asked for. */
typedef struct mp_rxfit {
    int y, x, series, split;
    const char *label;
} mp_rxfit;

typedef struct mp_rxcmp {
    int y, by, at, split;
} mp_rxcmp;

#define MP_RM_MAX_XCOLS 64
#define MP_RM_MAX_XFIGS 4
#define MP_RM_MAX_XFITS 4
#define MP_RM_MAX_XCMPS 4

/* experiments.X.table, drawn by generic code (report/load_xtable.c,
 * report/sec_xtable.c). */
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
    mp_rxfit fits[MP_RM_MAX_XFITS];
    size_t nfits;
    mp_rxcmp cmps[MP_RM_MAX_XCMPS];
    size_t ncmps;
} mp_rxtable;

typedef struct mp_rmodel {
    char path[4096];              /* the results.json read */
    char shown[4096];             /* how outputs name it: path, or "results.json" when
                                   * anonymized */
    int anonymized;               /* context.anonymized: outputs name no path */
    cJSON *root;
    mp_rrun run;                  /* the top level's members before its objects,
                                   * unchecked (its strings point into root or into
                                   * run_text) */
    char run_text[MP_RM_MAX_RUN_TEXT][32];   /* those of them held as a number or a
                                                boolean, as text */
    mp_rcontext context;          /* "context", unchecked (its strings point into root) */
    mp_rconfig config;            /* "config", unchecked (its strings point into root) */
    mp_rtheld context_held[MP_RM_MAX_HELD];   /* the fields of context the file holds, in */
    size_t ncontext_held;                     /* its order (results/table.h: mp_rtable_held) */
    const cJSON *settings;        /* "config" when an object, else NULL: the settings the
                                   * method section lists as the file holds them (run/
                                   * writes them by its own table of options) */
    mp_rnoise noise;              /* context.noise */
    char arch[32];
    mp_abi abi;
    int simulated;                /* context.simulated: cache counts of a model, no times */
    char sim_label[96];           /* context.label, "simulated (GEOMETRY)" */
    int traced;                   /* the file has a "trace" object: muxprof trace's */
    mp_rtrace trace;              /* it, unchecked (its strings point into root) */
    mp_rtheld trace_held[MP_RM_MAX_HELD];   /* its fields the file holds, in its order */
    size_t ntrace_held;
    unsigned line_bytes;
    int line_known;               /* 0: 64 assumed */
    mp_rcache caches[MP_RM_MAX_CACHES];
    size_t ncaches;
    const cJSON *topology;        /* "topology" when an object, else NULL: the context
                                   * section lists its scalars as the file holds them */
    mp_rcounter *counters;        /* from the "counters" object */
    size_t ncounters;
    char counters_preset[64], counters_scope[32], counters_note[256];
    const char *counters_preset_file;   /* or NULL (points into root) */
    int has_counters;
    mp_rcell *cells;              /* cells with active == 1 only: every per-call table, */
    size_t ncells;                /* fit, figure and claim reads these */
    const mp_rcell **by_key;      /* cells in key order: mode, fd kind, backend, nfds, */
                                  /* then file order (the lookups below search it) */
    mp_rprofile *profiles;        /* [ncells]: cells[i]'s profile (results/profile.h), read
                                     when it has one, checked by the loader; its strings
                                     point into the model's JSON */
    mp_rcell *kcells;             /* cells with active > 1 (the "K of N ready" section) */
    size_t nkcells;
    long long wake_delay_ns;      /* the wake delay of the wakeup cells in cells[] (the
                                   * run's shortest); -1: no wakeup cell */
    mp_rcell *dcells;             /* wakeup cells of the run's other wake delays (the */
    size_t ndcells;               /* "sleep depth" section; compare leaves them out) */
    mp_rcell *all;                /* every entry of results[], its fields read unchecked */
    size_t nall;                  /* (mp_rcell_read): private and shared tables alike */
    mp_rall_metric *all_metrics;  /* every metric of every entry of all[], in file */
    size_t nall_metrics;          /* order (report/load_opt.c) */
    mp_rsim_fns *sim_fns;         /* [ncells]: cells[i]'s kernel functions (sim-import) */
    mp_rxtable *xtabs;            /* "experiments", each by its table */
    size_t nxtabs;                /* (report/load_xtable.c) */
    cJSON *legacy;                /* old files' experiments as tables (exp_legacy.c) */
    /* distinct values, in config order where config lists them */
    char backends[MP_RM_MAX_LIST][32];
    size_t nbackends;
    char modes[MP_RM_MAX_LIST][16];
    size_t nmodes;
    char kinds[MP_RM_MAX_LIST][32];
    size_t nkinds;
    char metrics[MP_RM_MAX_LIST][MP_RM_NAME];   /* counter metric names seen */
    const char *metric_units[MP_RM_MAX_LIST];   /* each one's unit (mp_metric_unit) */
    size_t nmetrics;
    char warn[MP_RM_MAX_WARN][256];
    size_t nwarn;
} mp_rmodel;

/* What a results.json may hold (it may come from anyone): the file's size
 * bounds the parser's memory (cJSON keeps about 8 times the text for a
 * run's file, up to 32 times for one made of tiny values), the cells the
 * report's work.  A larger file or one with more cells is refused with
 * the numbers.  docs/results-schema.md states both. */
#define MP_RM_MAX_FILE_BYTES MP_RESULTS_MAX_BYTES
#define MP_RM_MAX_CELLS MP_RESULTS_MAX_CELLS

/* Read and check PATH.  -ENOENT when absent, -EBADMSG for a bad file. */
int mp_rm_load(mp_rmodel *m, const char *path, mp_err *err);
void mp_rm_free(mp_rmodel *m);

/* Check a document as mp_rm_load checks the file PATH holding it: 0 when a
 * report would read it, else what mp_rm_load would refuse, named as PATH. */
int mp_rm_check_text(const char *text, size_t len, const char *path, mp_err *err);

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

/* The profile of c, a cell of m->cells, or NULL when it has none. */
const mp_rprofile *mp_rm_profile(const mp_rmodel *m, const mp_rcell *c);

/* The summary of counter NAME (a metric other than wall_ns and waiter_ns) in an
 * ok cell, or NULL. */
const mp_rsum *mp_rm_sum(const mp_rcell *c, const char *name);
/* The p50 of metric NAME in an ok cell ("wall_ns" included), NaN if none. */
double mp_rm_p50(const mp_rcell *c, const char *name);

/* The ISA of a simulated run's guest as muxsim.sh names it: "arm64",
 * "x86_64", else the run's arch. */
const char *mp_rm_guest_isa(const mp_rmodel *m);

/* Scalar from the JSON tree by dotted path ("context.host") as text, or
 * NULL; numbers and booleans are formatted into buf. */
const char *mp_rm_text(const mp_rmodel *m, const char *dotted, char *buf, size_t len);

#endif
