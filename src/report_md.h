/* report_md.h - report.md of a run: the writer and its sections.  The
 * sections live in report_md.c (context, tables, slopes, ratios, figures,
 * counters), report_cache.c (ABI bytes/lines, correlation, knees, seed
 * claims) and report_prof.c (kernel profile). */
#ifndef MP_REPORT_MD_H
#define MP_REPORT_MD_H

#include <stdio.h>
#include "report_fig.h"
#include "report_model.h"

/* Write RUN_DIR/report.md (atomically). */
int mp_rmd_write(const mp_rmodel *m, const char *run_dir, const mp_rfigs *figs,
                 mp_err *err);

void mp_rmd_cache_model(FILE *f, const mp_rmodel *m);
void mp_rmd_correlation(FILE *f, const mp_rmodel *m);
void mp_rmd_knees(FILE *f, const mp_rmodel *m, const char *mode, const char *kind);
/* The same for any metric of the cells ("wall_ns" or a counter). */
void mp_rmd_knees_of(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                     const char *metric);
/* A simulated run's counts, knees and functions (report_sim.c). */
void mp_rmd_sim(FILE *f, const mp_rmodel *m);
void mp_rmd_claims(FILE *f, const mp_rmodel *m);
/* Nothing is written when no cell carries a profile.  Embeds the phase
 * figures prof_MODE_KIND and prof_fd_MODE_KIND_BACKEND from figs. */
void mp_rmd_profile(FILE *f, const mp_rmodel *m, const mp_rfigs *figs);
/* "K of N ready" (report_kofn.c); nothing when no cell has active > 1. */
void mp_rmd_kofn(FILE *f, const mp_rmodel *m, const mp_rfigs *figs);
/* One section per experiment present (report_exp_md.c). */
void mp_rmd_experiments(FILE *f, const mp_rmodel *m, const mp_rfigs *figs);
/* Embed the prepared figure NAME (or say why it was not drawn); nothing
 * when no such figure was prepared. */
void mp_rmd_figure(FILE *f, const mp_rfigs *figs, const char *name);

#endif
