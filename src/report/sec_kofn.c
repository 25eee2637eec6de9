/* SPDX-License-Identifier: MIT */
/* sec_kofn.c - the "K of N ready" section (ready-mode cells with
 * active = K > 1, plus the K = 1 cells of the per-call sweep): a table per
 * backend (rows K, columns N, p50 ns), where epoll's cost reaches poll's as
 * K grows at each N, and one figure of cost against K per N.  See
 * report/md.h and report/fig.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/numeric.h"
#include "report/series.h"
#include "report/fig.h"
#include "report/internal.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/md.h"
#include "report/format.h"
#include "report/paper.h"

#define MAXL 24

typedef struct kofn {
    const char *kind;
    long long ns[MAXL], ks[MAXL];
    size_t nn, nk;
    char backends[MP_RM_MAX_LIST][32];
    size_t nb;
} kofn;

static void add_backend(kofn *q, const char *b)
{
    for (size_t i = 0; i < q->nb; i++)
        if (!strcmp(q->backends[i], b))
            return;
    if (q->nb < MP_RM_MAX_LIST)
        snprintf(q->backends[q->nb++], sizeof q->backends[0], "%s", b);
}

/* The fd kinds that have ready-mode K > 1 cells, in first-seen order. */
static size_t kinds_of(const mp_rmodel *m, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nkcells; i++) {
        const mp_rcell *c = &m->kcells[i];
        if (strcmp(c->mode, "ready"))
            continue;
        size_t j = 0;
        while (j < n && strcmp(out[j], c->fd_kind))
            j++;
        if (j == n && n < max)
            out[n++] = c->fd_kind;
    }
    return n;
}

static void lists(const mp_rmodel *m, const char *kind, kofn *q)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->ks[q->nk++] = 1;
    for (size_t i = 0; i < m->nkcells; i++) {
        const mp_rcell *c = &m->kcells[i];
        if (strcmp(c->mode, "ready") || strcmp(c->fd_kind, kind))
            continue;
        mp_add_sorted(q->ns, &q->nn, MAXL, c->nfds);
        mp_add_sorted(q->ks, &q->nk, MAXL, c->active);
    }
    /* config order for backends, then any others with K > 1 cells */
    for (size_t b = 0; b < m->nbackends; b++)
        for (size_t i = 0; i < m->nkcells; i++)
            if (!strcmp(m->kcells[i].backend, m->backends[b]) &&
                !strcmp(m->kcells[i].mode, "ready") && !strcmp(m->kcells[i].fd_kind, kind)) {
                add_backend(q, m->backends[b]);
                break;
            }
    for (size_t i = 0; i < m->nkcells; i++)
        if (!strcmp(m->kcells[i].mode, "ready") && !strcmp(m->kcells[i].fd_kind, kind))
            add_backend(q, m->kcells[i].backend);
}

/* The cell (any status) for K ready of N, ready mode; K = 1 comes from the
 * per-call sweep. */
static const mp_rcell *kcell(const mp_rmodel *m, const char *kind, const char *backend,
                             long long nfds, long long k)
{
    const mp_rcell *v = k == 1 ? m->cells : m->kcells;
    size_t n = k == 1 ? m->ncells : m->nkcells;
    const mp_rcell *any = NULL;
    for (size_t i = 0; i < n; i++) {
        const mp_rcell *c = &v[i];
        if (c->nfds != nfds || c->active != k || strcmp(c->mode, "ready") ||
            strcmp(c->fd_kind, kind) || strcmp(c->backend, backend))
            continue;
        if (c->status == MP_CELL_OK)
            return c;
        if (!any)
            any = c;
    }
    return any;
}

static double kp50(const mp_rmodel *m, const char *kind, const char *b, long long n,
                   long long k)
{
    const mp_rcell *c = kcell(m, kind, b, n, k);
    return c && c->status == MP_CELL_OK ? c->wall.p50 : NAN;
}

/* Points (K, epoll p50, poll p50) at N where both ran. */
static size_t pair_points(const mp_rmodel *m, const kofn *q, long long n, double *k,
                          double *e, double *p)
{
    size_t c = 0;
    for (size_t i = 0; i < q->nk; i++) {
        double a = kp50(m, q->kind, "epoll", n, q->ks[i]);
        double b = kp50(m, q->kind, "poll", n, q->ks[i]);
        if (isfinite(a) && isfinite(b) && a > 0 && b > 0) {
            k[c] = (double)q->ks[i];
            e[c] = a;
            p[c] = b;
            c++;
        }
    }
    return c;
}

/* The crossing K at N (MP_CROSS_*), for the table and the figure. */
typedef struct cross {
    double at, kmin, kmax, klo, khi, r0, r1;   /* r0, r1: epoll / poll at kmin, kmax */
} cross;

static int crossing(const mp_rmodel *m, const kofn *q, long long n, cross *x)
{
    double k[MAXL], e[MAXL], p[MAXL];
    size_t c = pair_points(m, q, n, k, e, p);
    if (!c)
        return MP_CROSS_NODATA;
    x->kmin = x->klo = k[0];
    x->kmax = x->khi = k[c - 1];
    x->r0 = e[0] / p[0];
    x->r1 = e[c - 1] / p[c - 1];
    int r = mp_crossing_loglog(k, e, p, c, &x->at);
    if (r == MP_CROSS_AT)
        for (size_t i = 1; i < c; i++)
            if (k[i - 1] <= x->at && x->at <= k[i]) {
                x->klo = k[i - 1];
                x->khi = k[i];
                break;
            }
    return r;
}

static void table_backend(FILE *f, const mp_rmodel *m, const kofn *q, const char *b)
{
    char s[32];
    fprintf(f, "**%s**, time per call, p50 (ns):\n\n| K |", b);
    for (size_t i = 0; i < q->nn; i++)
        fprintf(f, " N=%s |", MP_NUM(q->ns[i]));
    fprintf(f, "\n|---:|");
    for (size_t i = 0; i < q->nn; i++)
        fprintf(f, "---:|");
    fputc('\n', f);
    for (size_t k = 0; k < q->nk; k++) {
        fprintf(f, "| %lld |", q->ks[k]);
        for (size_t i = 0; i < q->nn; i++) {
            const mp_rcell *c = kcell(m, q->kind, b, q->ns[i], q->ks[k]);
            if (c && c->status == MP_CELL_OK)
                fprintf(f, " %s |", mp_fmt_num(s, sizeof s, c->wall.p50));
            else if (q->ks[k] > q->ns[i])
                fprintf(f, " K > N |");
            else if (c)
                fprintf(f, " %s |", c->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error");
            else
                fprintf(f, " – |");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* Reasons of cells that did not run, each once, except K > N and cells
 * whose K = 1 cell did not run either (the per-call section says why). */
static void reasons(FILE *f, const mp_rmodel *m, const kofn *q)
{
    const char *seen[8];
    size_t ns = 0;
    for (size_t i = 0; i < m->nkcells && ns < 8; i++) {
        const mp_rcell *c = &m->kcells[i];
        if (c->status == MP_CELL_OK || strcmp(c->mode, "ready") || strcmp(c->fd_kind, q->kind) ||
            c->active > c->nfds)
            continue;
        const mp_rcell *one = kcell(m, q->kind, c->backend, c->nfds, 1);
        if (one && one->status != MP_CELL_OK)
            continue;   /* K = 1 did not run either: its reason is in the per-call section */
        size_t j = 0;
        while (j < ns && strcmp(seen[j], c->reason))
            j++;
        if (j < ns)
            continue;
        seen[ns++] = c->reason;
        char r[300];
        fprintf(f, "- %s, N=%s, K=%s (and any other cell with this reason): %s\n",
                c->backend, MP_NUM(c->nfds), MP_NUM(c->active),
                c->reason[0] ? mp_md_cell(r, sizeof r, c->reason) : "(no reason given)");
    }
    if (ns)
        fputc('\n', f);
}

static int has(const kofn *q, const char *b)
{
    for (size_t i = 0; i < q->nb; i++)
        if (!strcmp(q->backends[i], b))
            return 1;
    return 0;
}

static void growth(FILE *f, const mp_rmodel *m, const kofn *q)
{
    /* the largest N where epoll has at least two K */
    for (size_t i = q->nn; i-- > 0;) {
        long long n = q->ns[i];
        int any = 0;
        for (size_t b = 0; b < q->nb; b++) {
            const char *bk = q->backends[b];
            double k0 = NAN, k1 = NAN, y0 = NAN, y1 = NAN;
            for (size_t k = 0; k < q->nk; k++) {
                double y = kp50(m, q->kind, bk, n, q->ks[k]);
                if (!(y > 0))
                    continue;
                if (isnan(k0)) {
                    k0 = (double)q->ks[k];
                    y0 = y;
                }
                k1 = (double)q->ks[k];
                y1 = y;
            }
            if (!(k1 > k0))
                continue;
            char a[32], s[32];
            if (!any++)
                fprintf(f, "At N=%s, from K=%s to K=%s:", MP_NUM(n), MP_NUM(k0), MP_NUM(k1));
            fprintf(f, "%s %s's median changes %s× (log-log slope %s)", any > 1 ? ";" : "", bk,
                    mp_fmt_num(a, sizeof a, y1 / y0),
                    (snprintf(s, sizeof s, "%.2f", mp_loglog_slope(k0, y0, k1, y1)), s));
        }
        if (any) {
            fprintf(f, ". A slope near 1 is cost proportional to K; near 0, cost set by N "
                       "alone.\n\n");
            return;
        }
    }
}

static void crossing_table(FILE *f, const mp_rmodel *m, const kofn *q)
{
    if (!has(q, "epoll") || !has(q, "poll")) {
        fprintf(f, "Where epoll's cost reaches poll's needs both backends with K > 1 cells; "
                   "this run has %s.\n\n", has(q, "epoll") ? "no poll" :
                   has(q, "poll") ? "no epoll" : "neither");
        return;
    }
    fprintf(f, "Where epoll's median reaches poll's as K grows: interpolated between the "
               "measured K on both sides in log-log space (ln(epoll/poll) linear in ln K), the "
               "space the figures are drawn in; two significant digits, since two K points "
               "support no more:\n\n"
               "| N | epoll / poll, smallest K | epoll / poll, largest K | epoll reaches poll "
               "|\n|---:|---:|---:|---|\n");
    for (size_t i = 0; i < q->nn; i++) {
        cross x;
        int r = crossing(m, q, q->ns[i], &x);
        char a[32], b[32], c[32];
        if (r == MP_CROSS_NODATA) {
            fprintf(f, "| %s | – | – | no K where both ran |\n", MP_NUM(q->ns[i]));
            continue;
        }
        fprintf(f, "| %s | %s× (K=%.0f) | %s× (K=%.0f) | ", MP_NUM(q->ns[i]),
                mp_fmt_num(a, sizeof a, x.r0), x.kmin, mp_fmt_num(b, sizeof b, x.r1), x.kmax);
        if (r == MP_CROSS_AT)
            fprintf(f, "at K ≈ %s (between K=%.0f and K=%.0f) |\n",
                    (snprintf(c, sizeof c, "%.2g", x.at), c), x.klo, x.khi);
        else if (r == MP_CROSS_BEFORE)
            fprintf(f, "already at K=%.0f: epoll is not cheaper here |\n", x.at);
        else
            fprintf(f, "not within the measured K (up to %.0f) |\n", x.kmax);
    }
    fputc('\n', f);
}

static void kofn_md(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    const char *kinds[MP_RM_MAX_LIST];
    size_t nk = kinds_of(m, kinds, MP_RM_MAX_LIST);
    for (size_t ki = 0; ki < nk; ki++) {
        kofn q;
        lists(m, kinds[ki], &q);
        fprintf(f, "## K of N ready: ready mode, %s fds\n\n", q.kind);
        fprintf(f, "K of the N watched descriptors are readable at once (`--active`), and one "
                   "call reports all K. poll and select walk all N entries whatever K is; "
                   "epoll_wait only visits its ready list, so its work grows with K. K=1 is "
                   "the per-call sweep above. A cell with K > N cannot be set up.\n\n");
        for (size_t b = 0; b < q.nb; b++)
            table_backend(f, m, &q, q.backends[b]);
        reasons(f, m, &q);
        crossing_table(f, m, &q);
        growth(f, m, &q);
        for (size_t i = 0; i < q.nn; i++) {
            char name[160];
            snprintf(name, sizeof name, "kofn_%s_N%lld", q.kind, q.ns[i]);
            mp_rmd_figure(f, figs, name);
        }
    }
}

/* ---- figures ------------------------------------------------------------ */

static int write_dat(const mp_rmodel *m, mp_dir *dir, const kofn *q, long long n,
                     const char *b, size_t *npts, mp_err *err)
{
    char name[200];
    snprintf(name, sizeof name, "data_kofn_%s_N%lld_%s.dat", q->kind, n, b);
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    fprintf(a.f, "# muxprof %s: ready mode, %s fds, N=%lld watched, backend %s;\n"
                 "# K ready at once (active) against ns per call.\n"
                 "active p10 p50 p90\n", MP_QCOMMENT(m->shown), q->kind, n, b);
    *npts = 0;
    for (size_t k = 0; k < q->nk; k++) {
        *npts += (size_t)mp__rfig_wall_row(a.f, q->ks[k],
                                           kcell(m, q->kind, b, n, q->ks[k]));
    }
    return mp_afile_commit(&a, err);
}

static int figures(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    const char *kinds[MP_RM_MAX_LIST];
    size_t nk = kinds_of(m, kinds, MP_RM_MAX_LIST);
    for (size_t ki = 0; ki < nk; ki++) {
        kofn q;
        lists(m, kinds[ki], &q);
        for (size_t i = 0; i < q.nn; i++) {
            char bl[MP_RM_MAX_LIST * 33] = "", sl[MP_RM_MAX_LIST * 4] = "";
            size_t most = 0;
            int drawn[MP_RM_MAX_LIST] = {0};
            for (size_t b = 0; b < q.nb; b++) {
                size_t pts;
                int rc = write_dat(m, dir, &q, q.ns[i], q.backends[b], &pts, err);
                if (rc)
                    return rc;
                if (b < MP_RM_MAX_LIST)
                    drawn[b] = pts > 0;
                if (pts) {   /* style b + 1: a backend looks the same at every N */
                    size_t l = strlen(bl), ls = strlen(sl);
                    snprintf(bl + l, sizeof bl - l, "%s%s", l ? " " : "", q.backends[b]);
                    snprintf(sl + ls, sizeof sl - ls, "%s%zu", ls ? " " : "", b % 8 + 1);
                }
                most = pts > most ? pts : most;
            }
            if (most < 2)
                continue;   /* nothing to draw against K */
            char name[160], vars[MP_RFIG_VARS], ttl[256];
            snprintf(name, sizeof name, "kofn_%s_N%lld", q.kind, q.ns[i]);
            mp_rfig *g = mp__rfig_add(o, MP_FIG_KOFN, name, err);
            if (!g)
                return -ENOMEM;
            snprintf(g->mode, sizeof g->mode, "ready");
            snprintf(g->fd_kind, sizeof g->fd_kind, "%s", q.kind);
            char cpu[120];
            mp_rc_host_cpu(m, cpu, sizeof cpu);
            snprintf(g->caption, sizeof g->caption, "Time per call against K ready "
                     "descriptors of N=%s watched, %s, ready mode, %s fds: median with "
                     "p10..p90 band (log-log)", MP_NUM(q.ns[i]), cpu, q.kind);
            snprintf(ttl, sizeof ttl, "ready mode, %s fds, N=%s: time per call vs K ready",
                     q.kind, MP_NUM(q.ns[i]));
            size_t v = (size_t)snprintf(vars, sizeof vars,
                "kind = %s\nnfds = %lld\nbackends = %s\nstyles = %s\nttl = %s\n",
                MP_QGP(q.kind), q.ns[i], MP_QGP(bl), MP_QGP(sl), MP_QGP(ttl));
            cross x;
            int crossed = has(&q, "epoll") && has(&q, "poll") &&
                          crossing(m, &q, q.ns[i], &x) == MP_CROSS_AT;
            if (crossed)
                snprintf(vars + v, sizeof vars - v, "cross_k = %.6g\ncross_label = \"%.2g\"\n",
                         x.at, x.at);   /* numbers only: no quoting needed */
            mp_rpaper pp;
            int rc = 0;
            if (o->paper) {   /* what kofn.gp draws: a band and a line per backend */
                mp_rpaper_init(&pp, MP_RPAPER_LOG2, MP_RPAPER_LOG10);
                for (size_t b = 0; b < q.nb && rc >= 0; b++) {
                    char file[200];
                    if (b >= MP_RM_MAX_LIST || !drawn[b])
                        continue;
                    snprintf(file, sizeof file, "data_kofn_%s_N%lld_%s.dat", q.kind, q.ns[i],
                             q.backends[b]);
                    rc = mp_rpaper_dat(&pp, dir, file, MP_RPAPER_BAND, "active", "p10", "p90",
                                       err);
                    if (rc >= 0)
                        rc = mp_rpaper_dat(&pp, dir, file, MP_RPAPER_LINE, "active", "p50",
                                           NULL, err);
                    mp_rpaper_key(&pp, q.backends[b]);
                }
                if (crossed) {   /* its marker, and "epoll = poll\nat K ≈ ..." at the
                                  * bottom, font ",10" */
                    mp_rpaper_vline(&pp, x.at);
                    mp_rpaper_label(&pp, 1, x.at, 0.06, 12, 2, 0.5);
                }
            }
            if (rc >= 0)
                rc = mp__rfig_wrapper_paper(dir, g, "kofn.gp", vars, o->paper ? &pp : NULL,
                                            err);
            if (o->paper)
                mp_rpaper_free(&pp);
            if (rc)
                return rc;
        }
    }
    return 0;
}


const mp_rsection mp_rsec_kofn = {"kofn", 1, 1, figures, kofn_md, NULL, 0};
