/* report_fig.c - data files and gnuplot wrappers for the figures of a run,
 * and drawing them.  See report_fig.h; the figure kinds are the scripts in
 * plots/. */
#include "report_fig.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "report_calc.h"
#include "report_util.h"

static void file_token(char *dst, size_t len, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++)
        dst[o++] = (isalnum((unsigned char)*s) || *s == '-' || *s == '.') ? *s : '_';
    dst[o] = 0;
}

#define put_num mp__rfig_num
void mp__rfig_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.10g", v);
    else
        fputs(" ?", f);
}

/* data_MODE_KIND_BACKEND.dat: one row per ok cell, columns by name. */
static int write_data(const mp_rmodel *m, const char *dir, const char *mode,
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
               "# '?' = not measured.  ratio_epoll = p50 / epoll's p50 at the same N;\n"
               "# pollfd_lines = ceil(8 N / %u); maxfd = highest watched fd number.\n",
            m->path, mode, kind, backend, m->line_bytes);
    fputs("nfds p10 p50 p90 p99 ratio_epoll pollfd_lines maxfd", f);
    for (size_t i = 0; i < m->nmetrics; i++)
        fprintf(f, " %s", m->metrics[i]);
    fputc('\n', f);
    const mp_rcell *cells[MP_RC_MAXPTS];
    size_t n = mp_rm_series(m, mode, kind, backend, cells, MP_RC_MAXPTS);
    for (size_t i = 0; i < n && i < MP_RC_MAXPTS; i++) {
        const mp_rcell *c = cells[i];
        if (c->status != MP_RC_OK)
            continue;
        fprintf(f, "%lld", c->nfds);
        put_num(f, c->wall.p10);
        put_num(f, c->wall.p50);
        put_num(f, c->wall.p90);
        put_num(f, c->wall.p99);
        put_num(f, mp_rc_ratio(m, mode, kind, backend, c->nfds));
        put_num(f, mp_rc_pollfd_lines(m, (double)c->nfds));
        put_num(f, (double)mp_rc_maxfd(c));
        for (size_t k = 0; k < m->nmetrics; k++)
            put_num(f, mp_rm_p50(c, m->metrics[k]));
        fputc('\n', f);
    }
    return mp_afile_commit(&a, err);
}

mp_rfig *mp__rfig_add(mp_rfigs *o, int kind, const char *name, mp_err *err)
{
    mp_rfig *v = realloc(o->v, (o->n + 1) * sizeof *v);
    if (!v) {
        mp_errf(err, -ENOMEM, "out of memory listing figures");
        return NULL;
    }
    o->v = v;
    mp_rfig *g = &v[o->n++];
    memset(g, 0, sizeof *g);
    g->kind = kind;
    snprintf(g->name, sizeof g->name, "%s", name);
    return g;
}

const mp_rfig *mp_rfig_find(const mp_rfigs *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->v[i].name, name))
            return &f->v[i];
    return NULL;
}

int mp__rfig_wrapper(const char *dir, const mp_rfig *g, const char *script, const char *vars,
                     mp_err *err)
{
    char name[200];
    snprintf(name, sizeof name, "%s.gp", g->name);
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    fprintf(a.f, "# %s.gp - %s\n# Redraw %s.png/.svg/.pdf here with: gnuplot %s.gp\n"
                 "# (restyle all figures in style.gp, this kind in %s)\n",
            g->name, g->caption, g->name, g->name, script);
    fprintf(a.f, "%sout = \"%s\"\nload \"%s\"\n", vars, g->name, script);
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
static int write_wrapper(const mp_rmodel *m, const char *dir, const mp_rfig *g,
                         const char *title, const char *extra, mp_err *err)
{
    static const char *script[] = {"cost.gp", "ratio.gp", "counter.gp", "lines.gp"};
    char *vars = NULL;
    size_t len = 0;
    FILE *v = open_memstream(&vars, &len);
    if (!v)
        return mp_errf(err, -ENOMEM, "out of memory writing %s.gp", g->name);
    fprintf(v, "mode = \"%s\"\nkind = \"%s\"\nbackends = \"", g->mode, g->fd_kind);
    for (size_t i = 0; i < m->nbackends; i++)
        fprintf(v, "%s%s", i ? " " : "", m->backends[i]);
    fprintf(v, "\"\nttl = \"%s\"\n", title);
    if (g->metric[0])
        fprintf(v, "counter = \"%s\"\n", g->metric);
    if (extra)
        fputs(extra, v);
    int rc = fclose(v) == 0 ? mp__rfig_wrapper(dir, g, script[g->kind], vars, err)
                            : mp_errf(err, -ENOMEM, "out of memory writing %s.gp", g->name);
    free(vars);
    return rc;
}

static int lines_extra(const mp_rmodel *m, const mp_rfig *g, char *buf, size_t len)
{
    mp_rlinefit lf;
    size_t o = 0;
    buf[0] = 0;
    if (!mp_rc_linefit(m, g->mode, g->fd_kind, "poll", g->metric, &lf))
        return 0;
    if (lf.k >= 3 && lf.held.ok)   /* draw only a fit that holds somewhere */
        o += (size_t)snprintf(buf + o, len - o,
                              "# least-squares fit to poll over %zu points (R^2 %.4f)\n"
                              "fit_a = %.10g\nfit_b = %.10g\nfit_lo = %.10g\n"
                              "fit_hi = %.10g\n", lf.held.n, lf.held.r2, lf.held.intercept,
                              lf.held.slope, lf.lo_lines, lf.hi_lines);
    /* caches the x range reaches: where the pollfd array fills them */
    double lo = mp_rc_pollfd_lines(m, 1), hi = 0;
    double nn[MP_RC_MAXPTS], yy[MP_RC_MAXPTS];
    for (size_t b = 0; b < m->nbackends; b++) {
        size_t k = mp_rc_points(m, g->mode, g->fd_kind, m->backends[b], g->metric, nn, yy,
                                MP_RC_MAXPTS);
        for (size_t i = 0; i < k; i++)
            hi = fmax(hi, mp_rc_pollfd_lines(m, nn[i]));
    }
    int any = 0;
    for (size_t c = 0; c < m->ncaches && o < len; c++) {
        double lines = (double)m->caches[c].bytes / m->line_bytes;
        if (lines < lo || lines > hi)
            continue;
        o += (size_t)snprintf(buf + o, len - o, "%s%s %.0f", any ? " " : "markers = \"",
                              m->caches[c].name, lines);
        any = 1;
    }
    if (any && o < len)
        snprintf(buf + o, len - o, "\"\n");
    return 1;
}

static int prepare_times(const mp_rmodel *m, const char *dir, const char *mode,
                         const char *kind, mp_rfigs *o, mp_err *err)
{
    int rc;
    char title[256];
    mp_rfig *g = add_fig(o, MP_FIG_COST, mode, kind, NULL, err);
    if (!g)
        return -ENOMEM;
    snprintf(g->caption, sizeof g->caption, "Time per call against watched descriptors, "
             "%s mode, %s fds: median with p10..p90 band (log-log)", mode, kind);
    snprintf(title, sizeof title, "%s mode, %s fds: time per call", mode, kind);
    if ((rc = write_wrapper(m, dir, g, title, NULL, err)))
        return rc;

    if (mp_rc_has_backend(m, "epoll") && m->nbackends > 1) {
        g = add_fig(o, MP_FIG_RATIO, mode, kind, NULL, err);
        if (!g)
            return -ENOMEM;
        snprintf(g->caption, sizeof g->caption, "Median time per call relative to epoll's "
                 "at the same N, %s mode, %s fds (log-log)", mode, kind);
        snprintf(title, sizeof title, "%s mode, %s fds: time per call / epoll", mode, kind);
        if ((rc = write_wrapper(m, dir, g, title, NULL, err)))
            return rc;
    }
    return 0;
}

static int prepare_mode(const mp_rmodel *m, const char *dir, const char *mode,
                        const char *kind, mp_rfigs *o, mp_err *err)
{
    int rc;
    char title[256], extra[1024];
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
        size_t pts = 0, poll_pts = 0, nonzero = 0;
        int positive = 1;   /* log y only when every median is above 0 */
        for (size_t b = 0; b < m->nbackends; b++) {
            size_t k = mp_rc_points(m, mode, kind, m->backends[b], m->metrics[c], nn, yy,
                                    MP_RC_MAXPTS);
            pts += k;
            for (size_t i = 0; i < k; i++) {
                nonzero += yy[i] != 0;
                positive &= yy[i] > 0;
            }
            if (!strcmp(m->backends[b], "poll"))
                poll_pts = k;
        }
        if (!pts)
            continue;
        if (!nonzero) {
            if (o->nzero < MP_RM_MAX_LIST)
                snprintf(o->zero[o->nzero++], sizeof o->zero[0], "%s (%s mode, %s fds)",
                         m->metrics[c], mode, kind);
            continue;
        }
        char logy[128];
        int ns = !strcmp(m->metrics[c], "task-clock") || !strcmp(m->metrics[c], "cpu-clock");
        snprintf(logy, sizeof logy, "unit = \"%s\"\n%s", ns ? "ns" : "events",
                 positive ? "logy = 1\n" : "logy = 0   # some medians are 0\n");
        g = add_fig(o, MP_FIG_COUNTER, mode, kind, m->metrics[c], err);
        if (!g)
            return -ENOMEM;
        snprintf(g->caption, sizeof g->caption, "%s per call against watched descriptors, "
                 "%s mode, %s fds (median, log-log)%s%s", m->metrics[c], mode, kind,
                 m->simulated ? ", " : "", m->simulated ? m->sim_label : "");
        snprintf(title, sizeof title, "%s mode, %s fds: %s per call%s%s", mode, kind,
                 m->metrics[c], m->simulated ? ", " : "", m->simulated ? m->sim_label : "");
        if ((rc = write_wrapper(m, dir, g, title, logy, err)))
            return rc;
        if (poll_pts < 2)
            continue;
        g = add_fig(o, MP_FIG_LINES, mode, kind, m->metrics[c], err);
        if (!g)
            return -ENOMEM;
        snprintf(g->caption, sizeof g->caption, "%s per call against pollfd cache lines "
                 "(%u-byte lines), %s mode, %s fds, with the fit to poll and cache sizes%s%s",
                 m->metrics[c], m->line_bytes, mode, kind, m->simulated ? ", " : "",
                 m->simulated ? m->sim_label : "");
        snprintf(title, sizeof title, "%s mode, %s fds: %s vs pollfd lines%s%s", mode, kind,
                 m->metrics[c], m->simulated ? ", " : "", m->simulated ? m->sim_label : "");
        size_t el = strlen(logy);
        memcpy(extra, logy, el + 1);
        lines_extra(m, g, extra + el, sizeof extra - el);
        if ((rc = write_wrapper(m, dir, g, title, extra, err)))
            return rc;
    }
    return 0;
}

/* Remove what an earlier report wrote here (only names this writer makes),
 * so figures of counters or modes no longer in results.json do not linger. */
static void remove_old(const char *figdir)
{
    static const char *pre[] = {"cost_", "ratio_", "counter_", "lines_", "data_", "kofn_",
                                "register_", "herd_", "ltet_", "prof_"};
    static const char *ext[] = {".png", ".svg", ".pdf", ".gp", ".dat"};
    DIR *d = opendir(figdir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        int p = 0, x = 0;
        for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
            p |= !strncmp(e->d_name, pre[i], strlen(pre[i]));
        for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
            x |= n > strlen(ext[i]) && !strcmp(e->d_name + n - strlen(ext[i]), ext[i]);
        if (p && x) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", figdir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
}

int mp_rfig_prepare(const mp_rmodel *m, const char *figdir, mp_rfigs *out, mp_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = mp_mkdir(figdir, err);
    if (rc)
        return rc;
    remove_old(figdir);
    if ((rc = mp_plot_install(figdir, err)))
        return rc;
    for (size_t i = 0; i < m->nmodes; i++)
        for (size_t k = 0; k < m->nkinds; k++)
            if ((rc = prepare_mode(m, figdir, m->modes[i], m->kinds[k], out, err)))
                return rc;
    if ((rc = mp__rfig_kofn(m, figdir, out, err)))
        return rc;
    if ((rc = mp__rfig_prof(m, figdir, out, err)))
        return rc;
    return mp__rfig_exps(m, figdir, out, err);
}

static int nonempty(const char *dir, const char *name, const char *ext)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s.%s", dir, name, ext);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

void mp_rfig_draw(const char *figdir, mp_rfigs *f)
{
    f->asked = 1;
    f->gnuplot = mp_plot_gnuplot_found(NULL, 0);
    if (!f->gnuplot)
        return;
    for (size_t i = 0; i < f->n; i++) {
        mp_rfig *g = &f->v[i];
        char gp[200];
        mp_err e;
        mp_err_clear(&e);
        snprintf(gp, sizeof gp, "%s.gp", g->name);
        static const char *ext[] = {"png", "svg", "pdf"};
        for (int x = 0; x < 3; x++) {   /* never mistake an old figure for new */
            char p[4096];
            snprintf(p, sizeof p, "%s/%s.%s", figdir, g->name, ext[x]);
            unlink(p);
        }
        if (mp_plot_run(figdir, gp, &e) != 0) {
            snprintf(g->error, sizeof g->error, "%s", e.msg);
        } else if (!nonempty(figdir, g->name, "png") || !nonempty(figdir, g->name, "svg") ||
                   !nonempty(figdir, g->name, "pdf")) {
            snprintf(g->error, sizeof g->error, "gnuplot ran but %s.png/.svg/.pdf are not "
                     "all there", g->name);
        } else {
            g->drawn = 1;
            continue;
        }
        f->failed++;
    }
}

void mp_rfigs_free(mp_rfigs *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}
