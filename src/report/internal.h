/* SPDX-License-Identifier: MIT */
/* internal.h - what the files of report/ share and nothing outside uses:
 * the section interface and the table's rows, the loader's parts, and the
 * figure writers' helpers. */
#ifndef MP_REPORT_INTERNAL_H
#define MP_REPORT_INTERNAL_H

#include <stdio.h>

#include "common/file.h"
#include "common/mp_err.h"
#include "report/numeric.h"
#include "results/cell.h"

/* Declared here, defined in report/model.h and report/fig.h (and cJSON's
 * header), so that this header ties no module to another. */
typedef struct cJSON cJSON;
typedef struct mp_rmodel mp_rmodel;
typedef struct mp_rfig mp_rfig;
typedef struct mp_rfigs mp_rfigs;
typedef struct mp_rcell mp_rcell;

/* ---- sections: one file each (sec_*.c), run in order by build.c ---- */

typedef struct mp_rsection {
    const char *name;
    int calls_only;                    /* left out of a run with experiments only */
    int timed_only;                    /* left out of a simulated run (counts, no times) */
    /* Prepare its figures (data files and wrappers) in dir; NULL: none. */
    int (*figures)(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err);
    /* Its Markdown; nothing when the run holds nothing for it. */
    void (*markdown)(FILE *f, const mp_rmodel *m, const mp_rfigs *figs);
    /* Its part of `report --json`, members added to doc, computed by the
     * same functions as its Markdown; NULL: none. */
    void (*json)(cJSON *doc, const mp_rmodel *m);
    int harness_only;                  /* left out of a traced run (it is about muxprof's
                                        * own harness, which a trace has not) */
} mp_rsection;

extern const mp_rsection mp_rsec_context, mp_rsec_trace, mp_rsec_method, mp_rsec_results, mp_rsec_kofn,
    mp_rsec_sim, mp_rsec_cache, mp_rsec_correlation, mp_rsec_claims, mp_rsec_profile,
    mp_rsec_xtables, mp_rsec_figures, mp_rsec_counters, mp_rsec_harness, mp_rsec_wake;

/* 1 when the run holds experiments but no per-call cells (no `calls`). */
int mp__r_experiments_only(const mp_rmodel *m);
/* Where the median of metric ("wall_ns" or a counter) bends, beside the
 * cache sizes (sec_cache.c, used by the results and simulated sections). */
void mp__rmd_knees(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                   const char *metric);
/* The knee search behind it for one backend: the points of the series,
 * those at or below the noise floor left out, knees (at most
 * MP_RKNEES_MAX kept in kn; nk may be more).  Where both cells of an
 * interval have repeat medians (wall_ns), the log-log slope's interval at
 * the series' family level decides (mp_rc_loglog_ci): a knee when it lies
 * above MP_KNEE_SLOPE, "not resolved" (nr[]) when it contains it or the
 * repeats are too few for the level (lo and hi NaN); cells without repeat
 * medians are decided on the slope itself, lo and hi NaN. */
#define MP_RKNEES_MAX 16
typedef struct mp_rknees {
    mp_knee kn[MP_RKNEES_MAX];
    size_t nk, npts, dropped;
    mp_knee nr[MP_RKNEES_MAX];
    size_t nnr;
    double floor;                  /* 0: no count of the metric is negative */
} mp_rknees;
void mp__r_knees(const mp_rmodel *m, const char *mode, const char *kind, const char *backend,
                 const char *metric, mp_rknees *out);

/* ---- report --json (json_out.c) ---- */

/* o.key = v, or null when v is not finite. */
void mp__rj_num(cJSON *o, const char *key, double v);
/* o.key = {p50, interval ("repeats": order statistics of the repeat medians, or null), lo, hi, level}
 * of c's median (every number null when c is NULL). */
void mp__rj_median(cJSON *o, const char *key, const mp_rcell *c);
/* {nfds, status, and median_ns, p99_ns, fd_hi for an ok cell, reason else}. */
cJSON *mp__rj_cell(const mp_rcell *c);
/* The input's identity: its file, schema, status, times, host, CPU, arch,
 * git describe, simulated, anonymized. */
cJSON *mp__rj_input(const mp_rmodel *m);

/* ---- the loader (load.c, check.c, model.c, load_opt.c, load_xtable.c) ---- */

/* Fail with "PATH: field FIELD: what (the file does not follow ...)". */
int mp__rm_bad(mp_err *err, const mp_rmodel *m, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "a string", "null", ... for messages. */
const char *mp__rm_type_name(const cJSON *j);
/* Check results[i] into c (check.c). */
int mp__rm_load_cell(mp_rmodel *m, const cJSON *o, size_t i, mp_rcell *c, mp_err *err);
/* The model's lists of metrics, backends, modes and fd kinds (model.c). */
void mp__rm_add_metric(mp_rmodel *m, const char *s, const char *unit);
int mp__rm_index(mp_rmodel *m);
void mp__rm_warn(mp_rmodel *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Names used in file names and gnuplot commands: letters, digits, _ . + - */
int mp__rm_safe_name(const char *s);
/* 1 when p follows the profile schema, else 0 after a warning naming field. */
int mp__rm_check_profile(mp_rmodel *m, const cJSON *p, const char *field);
/* Each cell's profile into m->profiles (load_opt.c); -ENOMEM. */
int mp__rm_load_profiles(mp_rmodel *m);
/* context.noise into m->noise (load_opt.c); -ENOMEM.  Freed by mp__rm_free_noise. */
int mp__rm_load_noise(mp_rmodel *m);
void mp__rm_free_noise(mp_rmodel *m);
/* The metrics of every entry of results[] into m->all_metrics (load_opt.c);
 * -ENOMEM. */
int mp__rm_load_all_metrics(mp_rmodel *m, const cJSON *results);
/* Each cell's sim_functions and sim_other_core into m->sim_fns (load_opt.c);
 * -ENOMEM. */
int mp__rm_load_sim_fns(mp_rmodel *m);
void mp__rm_load_topology(mp_rmodel *m);
void mp__rm_load_counters(mp_rmodel *m);
/* "experiments": each experiment by its table into m->xtabs, what does not
 * fit left out with a warning (load_xtable.c). */
void mp__rm_load_experiments(mp_rmodel *m);
void mp__rm_free_experiments(mp_rmodel *m);
/* Experiment `name` of the "experiments" object, by its table, into
 * m->xtabs; freed with the experiments. */
void mp__rm_load_xtable(mp_rmodel *m, const char *name, const cJSON *o);
/* Object o of experiment `name` as the loader reads it: o itself, or an
 * old file's register, herd or ltet converted into m->legacy (exp_legacy.c);
 * NULL, after a warning, when it is left out. */
const cJSON *mp__rm_exp_legacy(mp_rmodel *m, const char *name, const cJSON *o);
void mp__rm_free_xtables(mp_rmodel *m);

/* Reading a checked table (mp_rxtable, load_xtable.c). */
typedef struct mp_rxtable mp_rxtable;
#define MP_RX_MAXV 32   /* distinct series, split or at values one figure or reading uses */
/* Row's value in column col (NULL when col is -1), and it as text or NULL. */
const cJSON *mp__rx_val(const cJSON *row, int col);
const char *mp__rx_text(const cJSON *row, int col);
/* 1 when the row's status is "ok" (or the table has no status column). */
int mp__rx_row_ok(const mp_rxtable *t, const cJSON *row);
/* A value as a name for files and legends: a string that is a safe name, a
 * number as %g; NULL otherwise. */
const char *mp__rx_name_of(char *buf, size_t len, const cJSON *v);
/* The distinct names of column col over the ok rows, in first-seen order
 * (at most MP_RX_MAXV); one "" when col is -1. */
size_t mp__rx_names(const mp_rxtable *t, int col, char out[][MP_RM_NAME]);
/* 1 when col is -1 or row's value there has this name. */
int mp__rx_matches(const cJSON *row, int col, const char *name);
/* The readings (compare[]) and fits of a table (sec_xtable_read.c). */
void mp__rx_readings(FILE *f, const mp_rxtable *t);
void mp__rx_fits(FILE *f, const mp_rxtable *t);
/* report --json's "experiments": each table's rows, readings and fits. */
void mp__rx_json(cJSON *doc, const mp_rmodel *m);

/* ---- figure writers (fig.c) ---- */

/* Append a figure of KIND called NAME (a file-safe base name). */
mp_rfig *mp__rfig_add(mp_rfigs *o, int kind, const char *name, mp_err *err);
/* NAME.gp: a comment, VARS (gnuplot assignments), out = NAME, load SCRIPT. */
int mp__rfig_wrapper(mp_dir *dir, const mp_rfig *g, const char *script, const char *vars,
                     mp_err *err);
/* The same with the layout of its PDFs for a paper (report/paper.h) written
 * after VARS when paper is not NULL (the figures' paper flag). */
struct mp_rpaper;
int mp__rfig_wrapper_paper(mp_dir *dir, const mp_rfig *g, const char *script,
                           const char *vars, const struct mp_rpaper *paper, mp_err *err);
/* " %.10g", or " ?" for a missing value. */
void mp__rfig_num(FILE *f, double v);
/* A .dat row "X p10 p50 p90" of c's wall_ns when c is ok with a p50 above 0
 * (a p10 or p90 not above 0 as "?"): 1 when written, 0 when left out. */
int mp__rfig_wall_row(FILE *f, long long x, const mp_rcell *c);

#endif
