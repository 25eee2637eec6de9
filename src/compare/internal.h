/* SPDX-License-Identifier: MIT */
/* internal.h - what the files of compare/ share and nothing outside uses:
 * the parts of the comparison report after the per-call groups.  Nothing
 * is written for a part no input has; what a host lacks is marked in its
 * column. */
#ifndef MP_COMPARE_INTERNAL_H
#define MP_COMPARE_INTERNAL_H

#include <stdio.h>

#include "common/file.h"
#include "compare/compare.h"

/* The figures of a comparison: DIR/figures/, whether to draw them, how many
 * were written and drawn, why drawing stopped (writer.c). */
typedef struct mp__cmp_figs {
    mp_dir dir;
    int no_plots;
    size_t drawn, figs;
    char note[MP_ERR_MAX];
} mp__cmp_figs;
/* Write figures/FIG.gp (a wrapper setting vars that loads SCRIPT from
 * plots/), draw it unless told not to, and link it from f under caption. */
int mp__cmp_draw(FILE *f, mp__cmp_figs *fg, const mp_cmp *c, const char *fig,
                 const char *caption, const char *script, const char *vars, mp_err *err);
/* sim.c: the simulated inputs' counts in a group, side by side, a real run's
 * column marked (nothing when no input is a simulated run). */
int mp__cmp_sim(FILE *f, mp__cmp_figs *fg, const mp_cmp *c, const mp_cmp_group *g, mp_err *err);
/* compare --json: a cell's simulated counts, {"sim:instructions": [per input, null where
 * an input has none], ...} (the counts some input has); NULL when no input is simulated. */
cJSON *mp__cmp_sim_json(const mp_cmp *c, const mp_cmp_group *g, const char *backend, long long n);

/* A table head: FIRST, then one column per host (those with col[i], or all
 * when col is NULL). */
void mp__cmp_head(FILE *f, const mp_cmp *c, const char *first, const int *col);


/* change.c: "change against the first input" for one backend's shared N. */
void mp__cmp_change_table(FILE *f, const mp_cmp *c, const mp_cmp_group *g,
                          const char *backend, const long long *n, size_t nn);
/* The warning for an input whose cells have fewer repeat medians than the
 * test needs (MP_CMP_MIN_REPEATS: not testable) or than it needs for power
 * (MP_CMP_ADVISED_REPEATS), into buf; "" when none (a reference has no
 * repeats and says so in its own column).  Returns buf. */
const char *mp__cmp_repeat_warning(const mp_cmp_host *h, char *buf, size_t len);
/* A reason for a table cell: Markdown-safe, at most max characters, cut at
 * a word boundary with "..." when longer. */
const char *mp__cmp_reason(char *buf, size_t len, const char *reason, size_t max);

/* The hosts table, each input's notes and warnings; the cells only one
 * input measured (hosts.c). */
void mp__cmp_hosts(FILE *f, const mp_cmp *c);
void mp__cmp_not_compared(FILE *f, const mp_cmp *c);
void mp__cmp_profiles(FILE *f, const mp_cmp *c);     /* profile.c */
void mp__cmp_kofn(FILE *f, const mp_cmp *c);         /* kofn.c */
/* xtable.c: the experiments, each from its table. */
void mp__cmp_experiments(FILE *f, const mp_cmp *c);

#endif
