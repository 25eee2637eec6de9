/* SPDX-License-Identifier: MIT */
/* writer.c - the comparison report: DIR/report.md and DIR/figures/
 * (data files, gnuplot wrappers through report/fig.h, drawings).  See compare.h.  The figure
 * kinds are plots/compare_cost.gp and plots/compare_ratio.gp, copied out of
 * the binary with the report's shared style.gp and render.gp. */
#include "compare/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/numeric.h"
#include "report/series.h"
#include "report/fig.h"
#include "report/plot.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/format.h"

#define MAXB 16

typedef struct wctx {
    const mp_cmp *c;
    FILE *f;
    mp__cmp_figs fg;
} wctx;

static double p50_of(const mp_cmp_host *h, const mp_cmp_group *g, const char *b,
                     long long n)
{
    const mp_rcell *x = mp_cmp_cell(h, g->mode, g->kind, b, n);
    return x && x->status == MP_CELL_OK ? x->wall.p50 : NAN;
}

/* b's median over epoll's on one host at N: the one ratio estimator
 * (mp_rc_ratio_est, from the repeat medians), as report.md gives it. */
static double ratio_of(const mp_cmp_host *h, const mp_cmp_group *g, const char *b,
                       long long n)
{
    const mp_rcell *x = mp_cmp_cell(h, g->mode, g->kind, b, n);
    const mp_rcell *e = mp_cmp_cell(h, g->mode, g->kind, "epoll", n);
    double lo, hi;
    if (!x || !e || x->status != MP_CELL_OK || e->status != MP_CELL_OK)
        return NAN;
    return mp_rc_ratio_est(e, x, &lo, &hi);
}

static const char *num(char *buf, size_t len, double v)
{
    return mp_fmt_num(buf, len, v);
}

static int in_list(char (*l)[32], size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(l[i], s))
            return 1;
    return 0;
}

/* | N | host1 | host2 | ... header for the hosts in a group */
static void table_head(wctx *w, const mp_cmp_group *g, const char *first)
{
    const mp_cmp *c = w->c;
    fprintf(w->f, "| %s |", first);
    for (size_t i = 0; i < c->n; i++)
        if (mp_cmp_kind(&c->h[i], g->kind))
            fprintf(w->f, " %s |", MP_QMD(c->h[i].label));
    fprintf(w->f, "\n|---|");
    for (size_t i = 0; i < c->n; i++)
        if (mp_cmp_kind(&c->h[i], g->kind))
            fputs("---:|", w->f);
    fputc('\n', w->f);
}

/* "approximate": true on a cell of a reference: the article gives "~N" */
static int approximate(const mp_rcell *x)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x->json, "approximate"));
}

static void cell_text(char *buf, size_t len, const mp_rcell *x)
{
    char r[256], v[48];
    if (!x)
        snprintf(buf, len, "not measured");
    else if (x->status == MP_CELL_OK)
        snprintf(buf, len, "%s%s", approximate(x) ? "~" : "", mp_fmt_num(v, sizeof v,
                 x->wall.p50));
    else
        snprintf(buf, len, "%s%s%s", x->status == MP_CELL_UNSUPPORTED ? "unsupported"
                 : "error", x->reason[0] ? ": " : "", mp__cmp_reason(r, sizeof r, x->reason,
                 100));
}

/* data file cmp_MODE_KIND_BACKEND_hI.dat; returns the ok points written */
static int write_data(wctx *w, const mp_cmp_group *g, const char *b, size_t hi,
                      size_t *npts, size_t *nratio, mp_err *err)
{
    const mp_cmp_host *h = &w->c->h[hi];
    const char *k = mp_cmp_kind(h, g->kind);
    char name[200];
    snprintf(name, sizeof name, "cmp_%s_%s_%s_h%zu.dat", g->mode, g->kind, b, hi + 1);
    mp_afile a;
    int rc = mp_afile_open(&a, &w->fg.dir, name, err);
    if (rc)
        return rc;
    fprintf(a.f, "# muxprof compare: %s; %s mode, %s fds, backend %s\n"
                 "# p50 = median ns per call; ratio_epoll = its ratio to epoll's on this "
                 "host at the same N (Hodges-Lehmann, from the repeat medians, as\n"
                 "# report.md; p50 / epoll's p50 where either has one repeat); ci_lo, "
                 "ci_hi = interval of p50 (order\n"
                 "# statistics of the run's repeat medians); '?' = not measured\n"
                 "nfds p50 ratio_epoll ci_lo ci_hi\n",
            MP_QCOMMENT(h->label), g->mode, k, b);
    const mp_rcell *cells[MP_CMP_MAXPTS];
    size_t n = mp_rm_series(&h->m, g->mode, k, b, cells, MP_CMP_MAXPTS);
    *npts = *nratio = 0;
    for (size_t i = 0; i < n && i < MP_CMP_MAXPTS; i++) {
        if (cells[i]->status != MP_CELL_OK || !(cells[i]->wall.p50 > 0))
            continue;
        double r = ratio_of(h, g, b, cells[i]->nfds);
        fprintf(a.f, "%lld %.10g ", cells[i]->nfds, cells[i]->wall.p50);
        if (isfinite(r) && r > 0) {
            fprintf(a.f, "%.10g", r);
            (*nratio)++;
        } else {
            fputs("?", a.f);
        }
        if (cells[i]->ci_kind != MP_CI_NONE)
            fprintf(a.f, " %.10g %.10g\n", cells[i]->ci_lo, cells[i]->ci_hi);
        else
            fputs(" ? ?\n", a.f);
        (*npts)++;
    }
    return mp_afile_commit(&a, err);
}

static int figure(wctx *w, const mp_cmp_group *g, const char *b, int ratio,
                  const char *caption, mp_err *err)
{
    const mp_cmp *c = w->c;
    char hosts[64] = "", name[200], fig[160];
    size_t drawn_hosts = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (!mp_cmp_kind(&c->h[i], g->kind))
            continue;
        size_t np, nr;
        int rc = write_data(w, g, b, i, &np, &nr, err);
        if (rc)
            return rc;
        if (ratio ? nr > 0 : np > 0) {
            snprintf(hosts + strlen(hosts), sizeof hosts - strlen(hosts), "%s%zu",
                     hosts[0] ? " " : "", i + 1);
            drawn_hosts++;
        }
    }
    if (drawn_hosts == 0)
        return 0;
    snprintf(fig, sizeof fig, "cmp_%s_%s_%s_%s", ratio ? "ratio" : "cost", g->mode, g->kind, b);
    snprintf(name, sizeof name, "%s.gp", fig);
    char vars[MP_RFIG_VARS];
    size_t o = (size_t)snprintf(vars, sizeof vars, "mode = %s\nkind = %s\nbackend = %s\n"
                                "hosts = %s\n", MP_QGP(g->mode), MP_QGP(g->kind), MP_QGP(b),
                                MP_QGP(hosts));
    for (size_t i = 0; i < c->n && o < sizeof vars; i++) {
        char t[512];
        snprintf(t, sizeof t, "%s%s", c->h[i].label, c->h[i].reference ? " (published)" : "");
        o += (size_t)snprintf(vars + o, sizeof vars - o, "t%zu = %s\n", i + 1, MP_QGP(t));
    }
    if (o < sizeof vars)
        snprintf(vars + o, sizeof vars - o, "ttl = %s\n", MP_QGP(caption));
    return mp__cmp_draw(w->f, &w->fg, c, fig, caption,
                        ratio ? "compare_ratio.gp" : "compare_cost.gp", vars, err);
}

int mp__cmp_draw(FILE *f, mp__cmp_figs *fg, const mp_cmp *c, const char *fig,
                 const char *caption, const char *script, const char *vars, mp_err *err)
{
    int rc = mp_rfig_write_wrapper(&fg->dir, fig, caption, script, vars, err);
    if (rc)
        return rc;
    fg->figs++;
    if (!fg->no_plots && !fg->note[0]) {
        if (mp_rfig_draw_one(&fg->dir, fig, fg->note, sizeof fg->note) == 0)
            fg->drawn++;
        for (size_t i = 0; i < c->n; i++)   /* the error names figdir */
            if (c->h[i].m.anonymized) {
                mp_anon_text_in_place(fg->note, sizeof fg->note);
                break;
            }
    }
    fprintf(f, "\n![%s](figures/%s.png)\n\n", MP_QMD(caption), fig);
    return 0;
}

/* The slope of one input's series as its own report fits it (report/
 * series.h, mp_rc_cost: least squares on relative error over every N the
 * input measured), with the report's interval where it has one. */
static void slope_text(char *buf, size_t len, const mp_cmp_host *h, const mp_cmp_group *g,
                       const char *b, const char *metric, const char *unit)
{
    mp_rcost rc;
    char s[32], r[32], lo[32], hi[32], ci[80] = "";
    const char *kind = mp_cmp_kind(h, g->kind);
    if (!kind || !mp_rc_cost(&h->m, g->mode, kind, b, metric, &rc) || !rc.fit.ok) {
        snprintf(buf, len, "fewer than 2 points");
        return;
    }
    if (rc.constant) {   /* as the report's fit table: every median equal, no fit */
        snprintf(buf, len, "constant: %s %s in every cell (no fit)", num(s, sizeof s, rc.y[0]),
                 unit);
        return;
    }
    if (isfinite(rc.slope_ci[0]) && isfinite(rc.slope_ci[1]))
        snprintf(ci, sizeof ci, " [%s, %s]", num(lo, sizeof lo, rc.slope_ci[0]),
                 num(hi, sizeof hi, rc.slope_ci[1]));
    snprintf(buf, len, "%s%s %s/fd (N %.0f..%.0f, %zu pts, weighted R² %s)",
             num(s, sizeof s, rc.fit.slope), ci, unit, rc.nfds[0], rc.nfds[rc.n - 1], rc.n,
             isfinite(rc.fit.r2) ? num(r, sizeof r, rc.fit.r2) : "n/a");
}

static void slopes(wctx *w, const mp_cmp_group *g, char (*be)[32], size_t nb)
{
    const mp_cmp *c = w->c;
    fprintf(w->f, "### Per-descriptor slope (each input's fit as its own report makes it: "
                  "least squares on relative error over every N it measured, with the 95%% "
                  "interval of a bootstrap over its repeats where it has them)\n\n");
    table_head(w, g, "backend");
    for (size_t b = 0; b < nb; b++) {
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(c, g, be[b], sh, MP_CMP_MAXPTS);
        if (ns == 0)
            continue;
        for (int cyc = 0; cyc < 2; cyc++) {
            int any = 0;
            for (size_t i = 0; i < c->n; i++)
                any |= c->h[i].cycles[0] != 0 && mp_cmp_kind(&c->h[i], g->kind) != NULL;
            if (cyc && !any)
                break;
            fprintf(w->f, "| %s, %s |", be[b], cyc ? "cycles" : "ns");
            for (size_t i = 0; i < c->n; i++) {
                const mp_cmp_host *h = &c->h[i];
                if (!mp_cmp_kind(h, g->kind))
                    continue;
                char t[160];
                if (!cyc)
                    slope_text(t, sizeof t, h, g, be[b], "wall_ns", "ns");
                else if (h->cycles[0])
                    slope_text(t, sizeof t, h, g, be[b], h->cycles, "cycles");
                else
                    snprintf(t, sizeof t, "%s", h->reference ? "not published"
                             : h->has_counters ? "cycles not counted (other event set)"
                             : "no PMU data");
                fprintf(w->f, " %s |", t);
            }
            fputc('\n', w->f);
        }
    }
    fputc('\n', w->f);
}

/* scope of one metric of a cell, from the file ("" when not recorded) */
static const char *metric_scope(const mp_cmp_host *h, const mp_rcell *x, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(x->json, "metrics"), name);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(m, "scope");
    return cJSON_IsString(s) ? s->valuestring : h->scope;
}

static void counters(wctx *w, const mp_cmp_group *g, char (*be)[32], size_t nb)
{
    const mp_cmp *c = w->c;
    int header = 0;
    for (size_t b = 0; b < nb; b++) {
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(c, g, be[b], sh, MP_CMP_MAXPTS);
        long long n = -1;   /* the largest N measured (ok) by at least two hosts */
        for (size_t i = ns; i-- > 0 && n < 0;) {
            size_t ok = 0;
            for (size_t h = 0; h < c->n; h++)
                ok += isfinite(p50_of(&c->h[h], g, be[b], sh[i]));
            if (ok >= 2)
                n = sh[i];
        }
        if (n < 0)
            continue;
        char names[MP_RM_MAX_LIST * 2][MP_RM_NAME];
        size_t nn = 0;
        for (size_t h = 0; h < c->n; h++) {
            const mp_rcell *x = mp_cmp_cell(&c->h[h], g->mode, g->kind, be[b], n);
            for (size_t k = 0; x && x->status == MP_CELL_OK && k < x->ncounters; k++) {
                int dup = 0;
                for (size_t j = 0; j < nn; j++)
                    dup |= !strcmp(names[j], x->counters[k].name);
                if (!dup && nn < MP_RM_MAX_LIST * 2)
                    snprintf(names[nn++], MP_RM_NAME, "%s", x->counters[k].name);
            }
        }
        if (!header) {
            fprintf(w->f, "### Counters per call (median events)\n\n");
            header = 1;
        }
        fprintf(w->f, "%s at N = %lld:\n\n", be[b], n);
        if (nn == 0) {
            fprintf(w->f, "No input counted events for this cell:");
            for (size_t h = 0; h < c->n; h++)
                if (mp_cmp_kind(&c->h[h], g->kind))
                    fprintf(w->f, " %s: %s;", MP_QMD(c->h[h].label), MP_QMD(c->h[h].reference
                            ? "not published" : c->h[h].m.counters_note[0]
                            ? c->h[h].m.counters_note : "no PMU data"));
            fputs("\n\n", w->f);
            continue;
        }
        table_head(w, g, "counter");
        for (size_t j = 0; j < nn; j++) {
            fprintf(w->f, "| %s |", MP_QMD(names[j]));
            for (size_t h = 0; h < c->n; h++) {
                const mp_cmp_host *ho = &c->h[h];
                if (!mp_cmp_kind(ho, g->kind))
                    continue;
                const mp_rcell *x = mp_cmp_cell(ho, g->mode, g->kind, be[b], n);
                double v = mp_rm_p50(x, names[j]);
                char t[64];
                if (isfinite(v)) {
                    const char *sc = metric_scope(ho, x, names[j]);
                    int user = sc[0] && strstr(sc, "user") && !strstr(sc, "kernel");
                    fprintf(w->f, " %s%s |", num(t, sizeof t, v),
                            user ? " (user-only scope: kernel work not counted)" : "");
                } else if (!x || x->status != MP_CELL_OK) {
                    fputs(" not measured |", w->f);
                } else if (ho->reference) {
                    fputs(" not published |", w->f);
                } else if (!ho->has_counters) {
                    fputs(" **no PMU data** |", w->f);
                } else {
                    fputs(" **not counted here** (different PMU or event set) |", w->f);
                }
            }
            fputc('\n', w->f);
        }
        fputc('\n', w->f);
    }
}

static int group(wctx *w, const mp_cmp_group *g, mp_err *err)
{
    const mp_cmp *c = w->c;
    char be[MAXB][32];
    size_t nb = mp_cmp_backends(c, g, be, MAXB);
    if (nb > MAXB)
        nb = MAXB;
    size_t shared_any = 0;
    for (size_t b = 0; b < nb; b++) {
        long long n1;
        shared_any += mp_cmp_shared_n(c, g, be[b], &n1, 1);
    }
    if (!shared_any)
        return 0;
    fprintf(w->f, "## %s mode, %s descriptors\n\n", g->mode, g->kind);
    for (size_t i = 0; i < c->n; i++)
        if (mp_cmp_kind(&c->h[i], g->kind) && strcmp(mp_cmp_kind(&c->h[i], g->kind), g->kind))
            fprintf(w->f, "- %s does not say which fd kind it measured; it is compared "
                          "here as if it were %s.\n", MP_QMD(c->h[i].label), g->kind);
    fputc('\n', w->f);
    size_t nsim = 0;
    for (size_t i = 0; i < c->n; i++)
        nsim += c->h[i].m.simulated;
    int rc = mp__cmp_sim(w->f, &w->fg, c, g, err);
    if (rc)
        return rc;
    if (nsim == c->n)   /* counts only: no times to set side by side */
        return 0;
    for (size_t b = 0; b < nb; b++) {
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(c, g, be[b], sh, MP_CMP_MAXPTS);
        if (!ns)
            continue;
        fprintf(w->f, "### %s: time per call (ns, median)\n\n", be[b]);
        table_head(w, g, "N");
        for (size_t i = 0; i < ns; i++) {
            fprintf(w->f, "| %lld |", sh[i]);
            for (size_t h = 0; h < c->n; h++) {
                if (!mp_cmp_kind(&c->h[h], g->kind))
                    continue;
                char t[200];
                cell_text(t, sizeof t, mp_cmp_cell(&c->h[h], g->mode, g->kind, be[b], sh[i]));
                fprintf(w->f, " %s |", t);
            }
            fputc('\n', w->f);
        }
        fputc('\n', w->f);
        mp__cmp_change_table(w->f, c, g, be[b], sh, ns);
        char cap[200];
        snprintf(cap, sizeof cap, "%.31s, %.15s mode, %.31s fds: time per call vs N, one line per host",
                 be[b], g->mode, g->kind);
        rc = figure(w, g, be[b], 0, cap, err);
        if (rc)
            return rc;
    }
    if (in_list(be, nb, "epoll"))
        for (int r = 0; r < 2; r++) {
            const char *b = r ? "select" : "poll";
            long long sh[MP_CMP_MAXPTS];
            size_t ns = in_list(be, nb, b) ? mp_cmp_shared_n(c, g, b, sh, MP_CMP_MAXPTS) : 0;
            if (!ns)
                continue;
            fprintf(w->f, "### %s / epoll on the same host (the ratio report.md gives: Hodges-Lehmann, "
                          "from the repeat medians)\n\n", b);
            table_head(w, g, "N");
            for (size_t i = 0; i < ns; i++) {
                fprintf(w->f, "| %lld |", sh[i]);
                for (size_t h = 0; h < c->n; h++) {
                    if (!mp_cmp_kind(&c->h[h], g->kind))
                        continue;
                    char t[32];
                    fprintf(w->f, " %s |", num(t, sizeof t, ratio_of(&c->h[h], g, b, sh[i])));
                }
                fputc('\n', w->f);
            }
            char cap[200];
            snprintf(cap, sizeof cap, "%.31s / epoll, %.15s mode, %.31s fds: ratio vs N, one line per host",
                     b, g->mode, g->kind);
            rc = figure(w, g, b, 1, cap, err);
            if (rc)
                return rc;
        }
    slopes(w, g, be, nb);
    counters(w, g, be, nb);
    return 0;
}

/* Everything but the figure directory's opening: scripts, data, figures,
 * report.md. */
static int write_report(wctx *w, mp_dir *dir, mp_err *err)
{
    const mp_cmp *c = w->c;
    int rc = mp_plot_install(&w->fg.dir, err);
    if (rc)
        return rc;
    if (!w->fg.no_plots && !mp_plot_gnuplot_found(NULL, 0))
        snprintf(w->fg.note, sizeof w->fg.note, "gnuplot not found: figures not drawn; "
                 MP_PLOT_INSTALL_HINT ", then run `gnuplot FIGURE.gp` in figures/");
    mp_afile a;
    if ((rc = mp_afile_open(&a, dir, "report.md", err)))
        return rc;
    w->f = a.f;
    fprintf(w->f, "# muxprof compare\n\nInputs set side by side: ");
    for (size_t i = 0; i < c->n; i++)
        fprintf(w->f, "%s%s", i ? "; " : "", MP_QMD(c->h[i].label));
    fprintf(w->f, ".  Cells (mode, fd kind, backend, N) measured by at least two inputs are "
                  "compared; the rest are listed at the end.  Times are medians per call in "
                  "ns.\n\n");
    mp__cmp_hosts(w->f, c);
    mp_cmp_group g[64];
    size_t ng = mp_cmp_groups(c, g, 64);
    for (size_t i = 0; i < ng && i < 64; i++)
        if ((rc = group(w, &g[i], err))) {
            mp_afile_abort(&a);
            return rc;
        }
    mp__cmp_profiles(w->f, c);
    mp__cmp_kofn(w->f, c);
    mp__cmp_experiments(w->f, c);
    mp__cmp_not_compared(w->f, c);
    if (w->fg.note[0] && !w->fg.no_plots)
        fprintf(w->f, "Figures: %s\n", w->fg.note);
    return mp_afile_commit(&a, err);
}

int mp_cmp_write(const mp_cmp *c, mp_dir *dir, int no_plots, size_t *drawn,
                 char *note, size_t note_len, mp_err *err)
{
    wctx w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.fg.no_plots = no_plots;
    int rc = mp_dir_sub(&w.fg.dir, dir, "figures", err);
    if (rc == 0) {
        mp_dir_prune(&w.fg.dir);   /* what an earlier comparison drew here */
        rc = write_report(&w, dir, err);
    }
    mp_dir_close(&w.fg.dir);
    if (rc)
        return rc;
    *drawn = w.fg.drawn;
    snprintf(note, note_len, "%s", no_plots ? "figures not drawn (--no-plots)" : w.fg.note);
    return 0;
}

void mp__cmp_head(FILE *f, const mp_cmp *c, const char *first, const int *col)
{
    char b[256];
    fprintf(f, "| %s |", first);
    for (size_t i = 0; i < c->n; i++)
        if (!col || col[i])
            fprintf(f, " %s |", mp_md_cell(b, sizeof b, c->h[i].label));
    fprintf(f, "\n|---|");
    for (size_t i = 0; i < c->n; i++)
        if (!col || col[i])
            fputs("---:|", f);
    fputc('\n', f);
}
