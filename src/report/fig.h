/* SPDX-License-Identifier: MIT */
/* fig.h - the figures of a report: a list of prepared figures (data files
 * with named columns, one gnuplot wrapper each, the figure-kind scripts from
 * plots/, all in DIR/figures/), then drawn through gnuplot (report/plot.h).
 * The figure code knows no section; each section adds its own figures. */
#ifndef MP_REPORT_FIG_H
#define MP_REPORT_FIG_H

#include <stdio.h>
#include "common/file.h"
#include "report/model.h"

/* Figure kinds: the per-call figures (sec_figures.c), then those embedded in
 * their own sections. */
enum { MP_FIG_COST, MP_FIG_RATIO, MP_FIG_COUNTER, MP_FIG_LINES, MP_FIG_KOFN,
       MP_FIG_PROF, MP_FIG_PROF_FD, MP_FIG_TABLE, MP_FIG_WAKE };

typedef struct mp_rfig {
    int kind;                 /* MP_FIG_* */
    char name[160];           /* base name: NAME.gp -> NAME.png/.svg/.pdf */
    char caption[512];
    char mode[16];
    char fd_kind[32];
    char metric[MP_RM_NAME];  /* counter figures */
    int drawn;                /* PNG, SVG, PDF (3.5 in) and -2col.pdf (7 in) exist */
    char error[MP_ERR_MAX];   /* why it was not drawn */
} mp_rfig;

typedef struct mp_rfigs {
    mp_rfig *v;
    size_t n;
    int gnuplot;              /* gnuplot was found */
    int asked;                /* figures were requested (not --no-plots) */
    int paper;                /* the PDFs laid out for a paper (report --paper) */
    size_t failed;
    /* counters left without figures because every median was 0 */
    char zero[MP_RM_MAX_LIST][MP_RM_NAME + 32];
    size_t nzero;
} mp_rfigs;

/* What a report draws (mp_report_build's figures, mp_rfig_begin's drawing):
 * MP_RFIG_DRAW runs gnuplot; MP_RFIG_PAPER lays the PDFs out for a paper
 * (report/paper.h: no title, axes from the data's range, the legend inside
 * where a corner is free), with or without drawing them. */
#define MP_RFIG_DRAW 1
#define MP_RFIG_PAPER 2

/* Start the figures of a report in figdir, the subdirectory figures/ of top:
 * open it (created when missing, refused when a link or not private: see
 * common/file.h), remove the files an earlier report wrote there (those its
 * manifest lists; with drawing 0, i.e. no MP_RFIG_DRAW, the drawings are
 * kept), and install the figure-kind scripts.  The sections then add their
 * figures; the caller closes figdir. */
int mp_rfig_begin(mp_dir *top, mp_dir *figdir, int drawing, mp_rfigs *out, mp_err *err);

/* Draw every prepared figure (when gnuplot is installed), each output
 * recorded in the manifest.  Failures of single figures are recorded in them
 * and counted in f->failed; an output name held by something muxprof cannot
 * replace (a link) is such a failure, never followed. */
void mp_rfig_draw(mp_dir *figdir, mp_rfigs *f);
/* Draw the one figure NAME.gp of figdir so: 0, or -1 with why filled. */
int mp_rfig_draw_one(mp_dir *figdir, const char *name, char *why, size_t len);

void mp_rfigs_free(mp_rfigs *f);

/* Write dir/NAME.gp: a wrapper that sets `vars` (gnuplot assignments, one
 * per line, each string in them written by mp_quote_gp), out = NAME, and
 * loads the figure-kind script from plots/ (the one way report and compare
 * write figures).  The caption goes into a comment line; vars that do not
 * end in a newline (cut short) are refused. */
int mp_rfig_write_wrapper(mp_dir *dir, const char *name, const char *caption,
                          const char *script, const char *vars, mp_err *err);
/* Room for a wrapper's variables: titles of quoted input text included. */
#define MP_RFIG_VARS 4096

/* The prepared figure NAME, or NULL. */
const mp_rfig *mp_rfig_find(const mp_rfigs *f, const char *name);

#endif
