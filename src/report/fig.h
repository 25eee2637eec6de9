/* report_fig.h - the figures of a run: data files (*.dat, one per mode, fd
 * kind and backend, with named columns), one gnuplot wrapper per figure
 * and the figure-kind scripts from plots/, all in DIR/figures/, then drawn
 * through gnuplot (src/plot.h). */
#ifndef MP_REPORT_FIG_H
#define MP_REPORT_FIG_H

#include <stdio.h>
#include "report/model.h"

/* Per-call figures (the "Figures" section), then those embedded in their
 * own sections: cost vs K (report_kofn.c) and the experiments
 * (report_exp_md.c). */
enum { MP_FIG_COST, MP_FIG_RATIO, MP_FIG_COUNTER, MP_FIG_LINES, MP_FIG_KOFN,
       MP_FIG_REGISTER, MP_FIG_HERD, MP_FIG_LTET, MP_FIG_PROF, MP_FIG_PROF_FD };

typedef struct mp_rfig {
    int kind;                 /* MP_FIG_* */
    char name[160];           /* base name: NAME.gp -> NAME.png/.svg/.pdf */
    char caption[256];
    char mode[16];
    char fd_kind[32];
    char metric[MP_RM_NAME];  /* counter figures */
    int drawn;                /* all three formats exist and are non-empty */
    char error[MP_ERR_MAX];   /* why it was not drawn */
} mp_rfig;

typedef struct mp_rfigs {
    mp_rfig *v;
    size_t n;
    int gnuplot;              /* gnuplot was found */
    int asked;                /* figures were requested (not --no-plots) */
    size_t failed;
    /* counters left without figures because every median was 0 */
    char zero[MP_RM_MAX_LIST][MP_RM_NAME + 32];
    size_t nzero;
} mp_rfigs;

/* Write data files, wrappers and kind scripts into figdir, and list the
 * figures they make. */
int mp_rfig_prepare(const mp_rmodel *m, const char *figdir, mp_rfigs *out, mp_err *err);

/* Draw every prepared figure (when gnuplot is installed). Failures of
 * single figures are recorded in them and counted in f->failed. */
void mp_rfig_draw(const char *figdir, mp_rfigs *f);

void mp_rfigs_free(mp_rfigs *f);

/* The prepared figure NAME, or NULL. */
const mp_rfig *mp_rfig_find(const mp_rfigs *f, const char *name);

/* Internal to the figure writers. */
/* Append a figure of KIND called NAME (a file-safe base name). */
mp_rfig *mp__rfig_add(mp_rfigs *o, int kind, const char *name, mp_err *err);
/* NAME.gp: a comment, VARS (gnuplot assignments), out = NAME, load SCRIPT. */
int mp__rfig_wrapper(const char *dir, const mp_rfig *g, const char *script, const char *vars,
                     mp_err *err);
/* " %.10g", or " ?" for a missing value. */
void mp__rfig_num(FILE *f, double v);
/* Data and wrappers of the K-of-N and experiment figures. */
int mp__rfig_kofn(const mp_rmodel *m, const char *dir, mp_rfigs *o, mp_err *err);
int mp__rfig_exps(const mp_rmodel *m, const char *dir, mp_rfigs *o, mp_err *err);
/* Phase-share bars and per-descriptor phase lines (report_prof.c). */
int mp__rfig_prof(const mp_rmodel *m, const char *dir, mp_rfigs *o, mp_err *err);

#endif
