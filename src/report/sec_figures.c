/* SPDX-License-Identifier: MIT */
/* sec_figures.c - "Figures": the per-call figures (time, ratio to epoll,
 * counters and cache lines against N) with their data files and gnuplot
 * wrappers; the other sections' figures sit in those sections. */
#include "report/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/quote.h"
#include "report/series.h"
#include "report/md.h"
#include "report/paper.h"
#include "report/plot.h"
#include "report/format.h"

#define put_num mp__rfig_num

static void file_token(char *dst, size_t len, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++)
        dst[o++] = (isalnum((unsigned char)*s) || *s == '-' || *s == '.') ? *s : '_';
    dst[o] = 0;
}

/* data_MODE_KIND_BACKEND.dat: one row per ok cell, columns by name. */
static int write_data(const mp_rmodel *m, mp_dir *dir, const char *mode,
                      const char *kind, const char *backend, mp_err *err)
{
    char name[160];
    snprintf(name, sizeof name, "data_%s_%s_%s.dat", mode, kind, backend);
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    FILE *f = a.f;
    fprintf(f, "# muxprof %s: %s mode, %s fds, backend %s; medians per call unless named;\n"
               "# '?' = not measured.  ratio_epoll = the ratio to epoll's median at the same\n"
               "# N (Hodges-Lehmann from the repeat medians; p50 / p50 with one repeat);\n"
               "# pollfd_lines = ceil(8 N / %u); maxfd = highest watched fd number;\n"
               "# ci_lo, ci_hi = interval of p50 from the repeat medians (ci_kind: repeats =\n"
               "# order statistics of the repeat medians, none = '?').\n",
            MP_QCOMMENT(m->shown), mode, kind, backend, m->line_bytes);
    fputs("nfds p10 p50 p90 p99 ratio_epoll pollfd_lines maxfd ci_lo ci_hi ci_kind", f);
    for (size_t i = 0; i < m->nmetrics; i++)
        fprintf(f, " %s", MP_QDAT(m->metrics[i]));
    fputc('\n', f);
    const mp_rcell *cells[MP_RC_MAXPTS];
    size_t n = mp_rm_series(m, mode, kind, backend, cells, MP_RC_MAXPTS);
    for (size_t i = 0; i < n && i < MP_RC_MAXPTS; i++) {
        const mp_rcell *c = cells[i];
        if (c->status != MP_CELL_OK)
            continue;
        fprintf(f, "%lld", c->nfds);
        put_num(f, c->wall.p10);
        put_num(f, c->wall.p50);
        put_num(f, c->wall.p90);
        put_num(f, c->wall.p99);
        put_num(f, mp_rc_ratio(m, mode, kind, backend, c->nfds));
        put_num(f, mp_rc_pollfd_lines(m, (double)c->nfds));
        put_num(f, (double)mp_rc_maxfd(c));
        put_num(f, c->ci_kind != MP_CI_NONE ? c->ci_lo : NAN);
        put_num(f, c->ci_kind != MP_CI_NONE ? c->ci_hi : NAN);
        fprintf(f, " %s", c->ci_kind == MP_CI_REPEATS ? "repeats" : "none");
        for (size_t k = 0; k < m->nmetrics; k++)
            put_num(f, mp_rm_p50(c, m->metrics[k]));
        fputc('\n', f);
    }
    return mp_afile_commit(&a, err);
}

static mp_rfig *add_fig(mp_rfigs *o, int kind, const char *mode, const char *fd_kind,
                        const char *metric, mp_err *err)
{
    mp_rfig *g = mp__rfig_add(o, kind, "", err);
    if (!g)
        return NULL;
    snprintf(g->mode, sizeof g->mode, "%s", mode);
    snprintf(g->fd_kind, sizeof g->fd_kind, "%s", fd_kind);
    snprintf(g->metric, sizeof g->metric, "%s", metric ? metric : "");
    static const char *prefix[] = {"cost", "ratio", "counter", "lines"};
    char tok[MP_RM_NAME];
    file_token(tok, sizeof tok, g->metric);
    snprintf(g->name, sizeof g->name, "%s_%s_%s%s%s", prefix[kind], mode, fd_kind,
             metric ? "_" : "", metric ? tok : "");
    return g;
}

/* The per-figure wrapper of the per-call figures: their variables, then
 * the common header and `load "KIND.gp"` of mp__rfig_wrapper(). */
static int write_wrapper(const mp_rmodel *m, mp_dir *dir, const mp_rfig *g,
                         const char *title, const char *extra, const mp_rpaper *paper,
                         mp_err *err)
{
    static const char *script[] = {"cost.gp", "ratio.gp", "counter.gp", "lines.gp"};
    char *vars = NULL;
    size_t len = 0;
    FILE *v = open_memstream(&vars, &len);
    if (!v)
        return mp_errf(err, -ENOMEM, "out of memory writing %s.gp", g->name);
    char list[MP_RM_MAX_LIST * 33] = "";
    for (size_t i = 0, o = 0; i < m->nbackends && o < sizeof list; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? " " : "", m->backends[i]);
    fprintf(v, "mode = %s\nkind = %s\nbackends = %s\nttl = %s\n", MP_QGP(g->mode),
            MP_QGP(g->fd_kind), MP_QGP(list), MP_QGP(title));
    if (g->metric[0])
        fprintf(v, "counter = %s\n", MP_QGP(g->metric));
    if (extra)
        fputs(extra, v);
    int rc = fclose(v) == 0
                 ? mp__rfig_wrapper_paper(dir, g, script[g->kind], vars, paper, err)
                 : mp_errf(err, -ENOMEM, "out of memory writing %s.gp", g->name);
    free(vars);
    return rc;
}

/* What a lines figure draws beside its series: the fit to poll (when it
 * holds somewhere) and where the pollfd array fills each cache. */
typedef struct lines_marks {
    int fit;                      /* drawn */
    double a, b, lo, hi;          /* fit_a + fit_b x over [lo, hi] lines */
    char label[64];               /* its legend */
    size_t nmark;
    char mname[MP_RM_MAX_CACHES][MP_RM_NAME];
    double mlines[MP_RM_MAX_CACHES];
} lines_marks;

static int lines_extra(const mp_rmodel *m, const mp_rfig *g, char *buf, size_t len,
                       lines_marks *lm)
{
    mp_rlinefit lf;
    size_t o = 0;
    buf[0] = 0;
    memset(lm, 0, sizeof *lm);
    if (!mp_rc_linefit(m, g->mode, g->fd_kind, "poll", g->metric, &lf))
        return 0;
    if (lf.k >= 3 && lf.held.ok) {   /* draw only a fit that holds somewhere */
        lm->fit = 1;
        lm->a = lf.held.intercept;
        lm->b = lf.held.slope;
        lm->lo = lf.lo_lines;
        lm->hi = lf.hi_lines;
        snprintf(lm->label, sizeof lm->label, "fit: %s/line", MP_NUM(lf.held.slope));
        o += (size_t)snprintf(buf + o, len - o,
                              "# least-squares fit to poll over %zu points (R^2 %.4f)\n"
                              "fit_a = %.10g\nfit_b = %.10g\nfit_lo = %.10g\n"
                              "fit_hi = %.10g\nfit_label = \"%s\"\n", lf.held.n,
                              lf.held.r2, lf.held.intercept, lf.held.slope, lf.lo_lines,
                              lf.hi_lines, lm->label);
    }
    /* caches the x range reaches: where the pollfd array fills them */
    double lo = mp_rc_pollfd_lines(m, 1), hi = 0;
    double nn[MP_RC_MAXPTS], yy[MP_RC_MAXPTS];
    for (size_t b = 0; b < m->nbackends; b++) {
        size_t k = mp_rc_points(m, g->mode, g->fd_kind, m->backends[b], g->metric, nn, yy,
                                MP_RC_MAXPTS);
        for (size_t i = 0; i < k; i++)
            hi = fmax(hi, mp_rc_pollfd_lines(m, nn[i]));
    }
    char markers[MP_RM_MAX_CACHES * 40] = "";
    for (size_t c = 0, mo = 0; c < m->ncaches && mo < sizeof markers; c++) {
        double lines = (double)m->caches[c].bytes / m->line_bytes;
        if (lines < lo || lines > hi)
            continue;
        mo += (size_t)snprintf(markers + mo, sizeof markers - mo, "%s%s %.0f", mo ? " " : "",
                               m->caches[c].name, lines);
        if (lm->nmark < MP_RM_MAX_CACHES) {
            snprintf(lm->mname[lm->nmark], sizeof lm->mname[0], "%s", m->caches[c].name);
            lm->mlines[lm->nmark++] = round(lines);
        }
    }
    if (markers[0] && o < len)
        snprintf(buf + o, len - o, "markers = %s\n", MP_QGP(markers));
    return 1;
}

/* N at which select's highest fd reaches FD_SETSIZE (1024) in this run,
 * when select was run and the sweep reaches it: "fdset_n = N\n" and N
 * returned, else "" and NaN. */
static double fdset_var(const mp_rmodel *m, const char *mode, const char *kind, char *buf,
                        size_t len)
{
    double nn[MP_RC_MAXPTS], yy[MP_RC_MAXPTS], hi = 0;
    long long lo_fd = 3;   /* fds 0..2 are stdio */
    buf[0] = 0;
    if (!mp_rc_has_backend(m, "select"))
        return NAN;
    for (size_t b = 0; b < m->nbackends; b++) {
        size_t k = mp_rc_points(m, mode, kind, m->backends[b], "wall_ns", nn, yy, MP_RC_MAXPTS);
        if (k)
            hi = fmax(hi, nn[k - 1]);
    }
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (!strcmp(c->backend, "select") && c->fd_hi >= 0 && c->fd_hi - c->nfds + 1 >= 0)
            lo_fd = c->fd_hi - c->nfds + 1;
    }
    double n = 1024.0 - (double)lo_fd;
    if (hi < n)
        return NAN;
    snprintf(buf, len, "fdset_n = %.0f   # N whose highest fd is 1023\n", n);
    return n;
}

/* The layout of per-call figure g's PDFs for a paper (report/paper.h): what
 * its kind script draws, read back from the data files, the reference and
 * marker lines with their labels, and its legend.  fdset_n: NaN when not
 * marked; lm: a lines figure's fit and cache markers.  Freed by the caller,
 * also after a failure. */
static int paper_layout(const mp_rmodel *m, mp_dir *dir, const mp_rfig *g, int logy,
                        double fdset_n, const lines_marks *lm, mp_rpaper *p, mp_err *err)
{
    char file[200], col[MP_QUOTE_MAX] = "", title[96];
    const char *x = g->kind == MP_FIG_LINES ? "pollfd_lines" : "nfds";
    mp_rpaper_init(p, MP_RPAPER_LOG10, logy ? MP_RPAPER_LOG10 : MP_RPAPER_LIN);
    if (g->metric[0])
        mp_quote_dat(col, sizeof col, g->metric);   /* its column, as write_data names it */
    for (size_t b = 0; b < m->nbackends; b++) {
        const char *be = m->backends[b];
        int rc;
        snprintf(file, sizeof file, "data_%s_%s_%s.dat", g->mode, g->fd_kind, be);
        snprintf(title, sizeof title, "%s", be);
        if (g->kind == MP_FIG_COST) {
            rc = mp_rpaper_dat(p, dir, file, MP_RPAPER_BAND, x, "p10", "p90", err);
            if (rc >= 0)
                rc = mp_rpaper_dat(p, dir, file, MP_RPAPER_LINE, x, "p50", NULL, err);
            if (rc >= 0)
                rc = mp_rpaper_dat(p, dir, file, MP_RPAPER_ERRBARS, x, "ci_lo", "ci_hi", err);
        } else if (g->kind == MP_FIG_RATIO) {
            if (!strcmp(be, "epoll"))
                continue;   /* the parity line */
            rc = mp_rpaper_dat(p, dir, file, MP_RPAPER_LINE, x, "ratio_epoll", NULL, err);
            snprintf(title, sizeof title, "%s / epoll", be);
        } else {
            rc = mp_rpaper_dat(p, dir, file, MP_RPAPER_LINE, x, col, NULL, err);
        }
        if (rc < 0)
            return rc;
        mp_rpaper_key(p, title);
    }
    if (g->kind == MP_FIG_RATIO) {
        mp_rpaper_hline(p, 1);
        mp_rpaper_key(p, "parity with epoll");
    }
    if (isfinite(fdset_n)) {   /* cost.gp, ratio.gp: label 5 */
        mp_rpaper_vline(p, fdset_n);
        mp_rpaper_label(p, 5, fdset_n, 0.97, 18, 1, 0.5);
    }
    if (lm && lm->fit) {   /* lines.gp: fitf over [fit_lo, fit_hi], 400 samples */
        double fx[64], fy[64];
        for (int i = 0; i < 64; i++) {
            fx[i] = lm->lo * pow(lm->hi / lm->lo, i / 63.0);
            fy[i] = lm->a + lm->b * fx[i];
        }
        if (mp_rpaper_series(p, MP_RPAPER_LINE, fx, fy, NULL, 64))
            return mp_errf(err, -ENOMEM, "out of memory laying out %s", g->name);
        mp_rpaper_key(p, lm->label);
    }
    for (size_t i = 0; lm && i < lm->nmark; i++) {   /* lines.gp: untagged, 1.., offset -0.4 */
        mp_rpaper_vline(p, lm->mlines[i]);
        mp_rpaper_label(p, (int)i + 1, lm->mlines[i], 0.97, (double)strlen(lm->mname[i]), 1,
                        0.4);
    }
    return 0;
}

/* write_wrapper with the paper layout when the figures are for a paper. */
static int wrapper_for(const mp_rmodel *m, mp_dir *dir, const mp_rfigs *o, const mp_rfig *g,
                       const char *title, const char *extra, int logy, double fdset_n,
                       const lines_marks *lm, mp_err *err)
{
    if (!o->paper)
        return write_wrapper(m, dir, g, title, extra, NULL, err);
    mp_rpaper p;
    int rc = paper_layout(m, dir, g, logy, fdset_n, lm, &p, err);
    if (rc == 0)
        rc = write_wrapper(m, dir, g, title, extra, &p, err);
    mp_rpaper_free(&p);
    return rc;
}

static int prepare_times(const mp_rmodel *m, mp_dir *dir, const char *mode,
                         const char *kind, mp_rfigs *o, mp_err *err)
{
    int rc;
    char title[512], cpu[120], fdset[96];
    mp_rc_host_cpu(m, cpu, sizeof cpu);
    double fdset_n = fdset_var(m, mode, kind, fdset, sizeof fdset);
    mp_rfig *g = add_fig(o, MP_FIG_COST, mode, kind, NULL, err);
    if (!g)
        return -ENOMEM;
    /* The error bars' level as the cells have it (the fewest repeats decide). */
    size_t reps, none;
    double level;
    char ci[32] = "", extra[sizeof fdset + 64];
    mp_rc_ci_kinds(m, mode, kind, &reps, &none, &level);
    if (reps && isfinite(level))
        snprintf(ci, sizeof ci, "%.1f%% CI", 100 * level);
    snprintf(extra, sizeof extra, "%sci_text = \"%s\"\n", fdset, ci);
    if (ci[0])
        snprintf(g->caption, sizeof g->caption, "Time per call against watched descriptors, "
                 "%s, %s mode, %s fds: median with error bars from its %.1f%% interval (from "
                 "the repeat medians)%s, p10..p90 band (log-log)%s", cpu, mode, kind,
                 100 * level, none ? " where it has one" : "",
                 fdset[0] ? "; select's FD_SETSIZE marked" : "");
    else
        snprintf(g->caption, sizeof g->caption, "Time per call against watched descriptors, "
                 "%s, %s mode, %s fds: median (no interval: fewer than 2 repeats), p10..p90 "
                 "band (log-log)%s", cpu, mode, kind,
                 fdset[0] ? "; select's FD_SETSIZE marked" : "");
    snprintf(title, sizeof title, "%s mode, %s fds: time per call", mode, kind);
    if ((rc = wrapper_for(m, dir, o, g, title, extra, 1, fdset_n, NULL, err)))
        return rc;

    if (mp_rc_has_backend(m, "epoll") && m->nbackends > 1) {
        g = add_fig(o, MP_FIG_RATIO, mode, kind, NULL, err);
        if (!g)
            return -ENOMEM;
        snprintf(g->caption, sizeof g->caption, "Median time per call relative to epoll's "
                 "at the same N, %s, %s mode, %s fds (log-log; parity with epoll is the "
                 "dashed reference line)", cpu, mode, kind);
        snprintf(title, sizeof title, "%s mode, %s fds: time per call / epoll", mode, kind);
        if ((rc = wrapper_for(m, dir, o, g, title, fdset, 1, fdset_n, NULL, err)))
            return rc;
    }
    return 0;
}

static int prepare_mode(const mp_rmodel *m, mp_dir *dir, const char *mode,
                        const char *kind, mp_rfigs *o, mp_err *err)
{
    int rc;
    char title[512], extra[1024], cpu[120];
    mp_rc_host_cpu(m, cpu, sizeof cpu);
    if (m->simulated)   /* counts of a cache model run in an emulated guest, not of a CPU */
        snprintf(cpu, sizeof cpu, "emulated %s guest", mp_rm_guest_isa(m));
    double nn[MP_RC_MAXPTS], yy[MP_RC_MAXPTS];
    size_t with_points = 0;
    for (size_t b = 0; b < m->nbackends; b++) {
        if ((rc = write_data(m, dir, mode, kind, m->backends[b], err)))
            return rc;
        with_points += mp_rc_points(m, mode, kind, m->backends[b], "wall_ns", nn, yy,
                                    MP_RC_MAXPTS) > 0;
    }
    mp_rfig *g;
    /* a simulated run has counts and no times: its counter figures only */
    if (with_points && (rc = prepare_times(m, dir, mode, kind, o, err)))
        return rc;
    for (size_t c = 0; c < m->nmetrics; c++) {
        size_t pts = 0, poll_pts = 0, nonzero = 0, differ = 0;
        double first = NAN;
        int positive = 1;   /* log y only when every median is above 0 */
        for (size_t b = 0; b < m->nbackends; b++) {
            size_t k = mp_rc_points(m, mode, kind, m->backends[b], m->metrics[c], nn, yy,
                                    MP_RC_MAXPTS);
            pts += k;
            for (size_t i = 0; i < k; i++) {
                nonzero += yy[i] != 0;
                positive &= yy[i] > 0;
                if (isnan(first))
                    first = yy[i];
                differ += yy[i] != first;
            }
            if (!strcmp(m->backends[b], "poll"))
                poll_pts = k;
        }
        if (!pts)
            continue;
        if (!nonzero || !differ) {   /* a constant counter: a flat line says nothing */
            char v[32];
            if (o->nzero < MP_RM_MAX_LIST)
                snprintf(o->zero[o->nzero++], sizeof o->zero[0], "%s (%s mode, %s fds: %s "
                         "in every cell)", m->metrics[c], mode, kind,
                         mp_fmt_num(v, sizeof v, first));
            continue;
        }
        char logy[128];
        snprintf(logy, sizeof logy, "unit = \"%s\"\n%s",
                 m->metric_units[c] ? m->metric_units[c] : "events",
                 positive ? "logy = 1\n" : "logy = 0   # some medians are 0\n");
        g = add_fig(o, MP_FIG_COUNTER, mode, kind, m->metrics[c], err);
        if (!g)
            return -ENOMEM;
        snprintf(g->caption, sizeof g->caption, "%s per call against watched descriptors, "
                 "%s, %s mode, %s fds (median, log-log)%s%s", m->metrics[c], cpu, mode, kind,
                 m->simulated ? ", " : "", m->simulated ? m->sim_label : "");
        snprintf(title, sizeof title, "%s mode, %s fds: %s per call%s%s", mode, kind,
                 m->metrics[c], m->simulated ? ", " : "", m->simulated ? m->sim_label : "");
        if ((rc = wrapper_for(m, dir, o, g, title, logy, positive, NAN, NULL, err)))
            return rc;
        if (poll_pts < 2)
            continue;
        g = add_fig(o, MP_FIG_LINES, mode, kind, m->metrics[c], err);
        if (!g)
            return -ENOMEM;
        size_t el = strlen(logy);
        lines_marks lm;
        memcpy(extra, logy, el + 1);
        lines_extra(m, g, extra + el, sizeof extra - el, &lm);
        /* the caption names the fit only when the figure draws it */
        snprintf(g->caption, sizeof g->caption, "%s per call against pollfd cache lines "
                 "(%u-byte lines), %s, %s mode, %s fds%s%s%s%s", m->metrics[c], m->line_bytes,
                 cpu, mode, kind,
                 lm.fit && lm.nmark ? ", with the fit to poll and cache sizes"
                 : lm.fit ? ", with the fit to poll"
                 : lm.nmark ? ", with cache sizes" : "",
                 m->simulated ? ", " : "", m->simulated ? m->sim_label : "",
                 lm.fit ? "" : "; no fit drawn (poll's counts do not lie on one line over "
                 "3 points or more)");
        snprintf(title, sizeof title, "%s mode, %s fds: %s vs pollfd lines%s%s", mode, kind,
                 m->metrics[c], m->simulated ? ", " : "", m->simulated ? m->sim_label : "");
        if ((rc = wrapper_for(m, dir, o, g, title, extra, positive, NAN, &lm, err)))
            return rc;
    }
    return 0;
}

static int figures(const mp_rmodel *m, mp_dir *dir, mp_rfigs *out, mp_err *err)
{
    int rc = 0;
    for (size_t i = 0; i < m->nmodes && rc == 0; i++)
        for (size_t k = 0; k < m->nkinds && rc == 0; k++)
            rc = prepare_mode(m, dir, m->modes[i], m->kinds[k], out, err);
    return rc;
}

static void figures_md(FILE *f, const mp_rmodel *m, const mp_rfigs *all)
{
    (void)m;
    /* the per-call figures; the others sit in their own sections */
    mp_rfigs sub = *all, *g = &sub;
    size_t first = 0;   /* they were prepared together, so they are adjacent */
    while (first < all->n && all->v[first].kind > MP_FIG_LINES)
        first++;
    sub.v = all->v ? all->v + first : NULL;   /* no figures at all: no array */
    sub.n = 0;
    while (first + sub.n < all->n && all->v[first + sub.n].kind <= MP_FIG_LINES)
        sub.n++;
    fprintf(f, "## Figures\n\n");
    if (g->nzero) {
        fprintf(f, "No figure for counters that are constant across the sweep (the same "
                   "median in every cell):");
        for (size_t i = 0; i < g->nzero; i++)
            fprintf(f, "%s %s", i ? "," : "", MP_QMD(g->zero[i]));
        fprintf(f, ".\n\n");
    }
    if (!g->n) {
        fprintf(f, "No figures: no cell of this run has a measured time.%s\n\n",
                all->n ? " The figures of the K-of-N and experiment sections are in those "
                "sections." : "");
        return;
    }
    if (!g->asked || !g->gnuplot) {
        fprintf(f, "The figures were not drawn: %s. The data files (`figures/*.dat`) and "
                   "gnuplot scripts (`figures/*.gp`) are written; to draw them, %s, then run "
                   "`muxprof report DIR` again, or `cd figures && for f in cost_*.gp "
                   "ratio_*.gp counter_*.gp lines_*.gp; do gnuplot \"$f\"; done`.\n\n",
                g->asked ? "gnuplot is not installed" : "they were turned off (--no-plots)",
                g->gnuplot ? "keep gnuplot installed" : MP_PLOT_INSTALL_HINT);
        for (size_t i = 0; i < g->n; i++)
            fprintf(f, "- `figures/%s.gp`: %s\n", g->v[i].name, MP_QMD(g->v[i].caption));
        fputc('\n', f);
        return;
    }
    fprintf(f, "Each figure is also in SVG and in PDF at a paper's single-column width "
               "(3.5 in, `NAME.pdf`) and double-column width (7 in, `NAME-2col.pdf`), vector "
               "with fonts embedded, beside the PNG. To restyle: edit "
               "`figures/style.gp` (all figures) or a figure's `.gp`, then `cd figures && "
               "gnuplot NAME.gp`. Data files are `figures/data_MODE_KIND_BACKEND.dat`.\n\n");
    if (all->paper)
        fprintf(f, "The PDFs are laid out for a paper (`--paper`), at both widths: no title "
                   "(each figure's caption is its title), axes over the data's range with "
                   "labelled ticks at 1, 2 and 5 per decade, the legend inside the plot where "
                   "a corner is free, labels in the figure's font and solid error bars "
                   "(docs/report.md, \"Figures for a paper\"); the PNG and SVG are drawn as "
                   "without it.\n\n");
    for (size_t i = 0; i < g->n; i++) {
        const mp_rfig *x = &g->v[i];
        const char *cap = MP_QMD(x->caption);
        if (x->drawn)
            fprintf(f, "![%s](figures/%s.png)\n\n*%s* ([SVG](figures/%s.svg), "
                       "[PDF 3.5 in](figures/%s.pdf), [PDF 7 in](figures/%s-2col.pdf), "
                       "[script](figures/%s.gp))\n\n",
                    cap, x->name, cap, x->name, x->name, x->name, x->name);
        else {
            char e[400];
            fprintf(f, "- `figures/%s.gp` (%s) was not drawn: %s\n\n", x->name, cap,
                    mp_md_cell(e, sizeof e, x->error));
        }
    }
}


const mp_rsection mp_rsec_figures = {"figures", 1, 0, figures, figures_md, NULL, 0};
