/* SPDX-License-Identifier: MIT */
/* report.h - report.md and figures for a run directory, built from its
 * results.json alone (so `muxprof report DIR` can rebuild them).  report/
 * uses only results/ and common/: results.json is its one input, and it never
 * needs the code that measured. */
#ifndef MP_REPORT_H
#define MP_REPORT_H

#include <stdio.h>

#include "common/file.h"
#include "common/mp_err.h"
#include "report/fig.h"
#include "report/model.h"

/* Write DIR/report.md and DIR/figures/ (data files and gnuplot scripts),
 * drawn when figures has MP_RFIG_DRAW (1) and gnuplot is installed; with
 * MP_RFIG_PAPER (2) the PDFs are laid out for a paper (report/paper.h,
 * `report --paper`).  Without gnuplot the report says how to get the figures.
 * DIR is taken as common/file.h's mp_dir_open says (yours, not writable by
 * others); DIR/figures must not be a link. */
int mp_report_build(const char *run_dir, int figures, mp_err *err);
/* The same in a directory already held open. */
int mp_report_build_in(mp_dir *run_dir, int figures, mp_err *err);

/* The two halves of mp_report_build: every section's figures prepared in
 * figdir, DIR/figures (not drawn; the caller closes figdir, also after a
 * failure; drawing as mp_report_build's figures: without MP_RFIG_DRAW the
 * PNG, SVG and PDF files an earlier report drew are kept), then
 * DIR/report.md written atomically. */
int mp_report_figures(const mp_rmodel *m, mp_dir *dir, mp_dir *figdir, int drawing,
                      mp_rfigs *out, mp_err *err);
int mp_report_markdown(const mp_rmodel *m, mp_dir *run_dir, const mp_rfigs *figs,
                       mp_err *err);

/* The analysis report.md is written from, as one JSON object (`muxprof
 * report --json`, docs/report.md): the input's identity, per (mode, fd
 * kind, backend) series the medians with their intervals, per-interval
 * costs, the fit, ratios to epoll and knees, and the seeds' claims
 * checked.  The sections left out of report.md for this run are left
 * out here too.  NULL when out of memory; the caller deletes it. */
cJSON *mp_report_json(const mp_rmodel *m);

/* For the terminal, after a run's tables or a report: the run's noise
 * warnings, the cells whose spread leaves a claim not resolved (the other
 * noisy cells counted) and cells with a long tail ("warning:" lines,
 * in colour on a terminal unless NO_COLOR is set), then the headline
 * findings (poll/epoll at the largest N with the range of the repeats, how
 * each cost grows with N).  Nothing for a run that has none of them. */
int mp_report_notes(const mp_rmodel *m, FILE *f);

/* The warnings of those notes alone, each one line of text handed to
 * fn(ctx, line): the run's noise warnings (load, steal, ...), its noisy
 * cells and cells with a long tail; nothing for a run without them.
 * compare carries each input's into its report. */
typedef void (*mp_report_warn_fn)(void *ctx, const char *line);
void mp_report_warnings(const mp_rmodel *m, mp_report_warn_fn fn, void *ctx);

#endif
