/* sec_results.c - "Results: MODE mode, KIND fds": per mode and fd kind,
 * time per call against N, per-descriptor fits, ratios to epoll, knees. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/calc.h"
#include "report/md.h"
#include "report/util.h"

#define MAXN 24

static size_t nfds_list(const mp_rmodel *m, const char *mode, const char *kind,
                        long long *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->mode, mode) || strcmp(c->fd_kind, kind))
            continue;
        size_t j = 0;
        while (j < n && out[j] != c->nfds)
            j++;
        if (j < n || n >= MAXN)
            continue;
        j = n++;
        while (j > 0 && out[j - 1] > c->nfds) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = c->nfds;
    }
    return n;
}

static void header_n(FILE *f, const char *first, const long long *ns, size_t n)
{
    fprintf(f, "| %s |", first);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " N=%lld |", ns[i]);
    fprintf(f, "\n|---|");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "---:|");
    fputc('\n', f);
}

static const mp_rcell *any_cell(const mp_rmodel *m, const char *mode, const char *kind,
                                const char *backend, long long nfds)
{
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->nfds == nfds && !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind) &&
            !strcmp(c->backend, backend))
            return c;
    }
    return NULL;
}

static void table_times(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                        const long long *ns, size_t n)
{
    char a[32], b[32];
    fprintf(f, "Time per call, p50 / p99 (ns):\n\n");
    header_n(f, "backend", ns, n);
    for (size_t k = 0; k < m->nbackends; k++) {
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t i = 0; i < n; i++) {
            const mp_rcell *c = any_cell(m, mode, kind, m->backends[k], ns[i]);
            if (!c)
                fprintf(f, " – |");
            else if (c->status == MP_RC_OK)
                fprintf(f, " %s / %s |", mp_fmt_num(a, sizeof a, c->wall.p50),
                        mp_fmt_num(b, sizeof b, c->wall.p99));
            else
                fprintf(f, " %s |", c->status == MP_RC_UNSUPPORTED ? "unsupported" : "error");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t i = 0; i < m->ncells; i++) {   /* reasons of cells that did not run */
        const mp_rcell *c = &m->cells[i];
        char r[300];
        if (c->status != MP_RC_OK && !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind))
            fprintf(f, "- %s, N=%lld: %s: %s\n", c->backend, c->nfds,
                    c->status == MP_RC_UNSUPPORTED ? "unsupported" : "error",
                    c->reason[0] ? mp_md_cell(r, sizeof r, c->reason) : "(no reason given)");
    }
    fputc('\n', f);
}

static void table_slopes(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    char a[32], b[32], c2[32], d[32];
    fprintf(f, "Per-descriptor cost (least-squares fit of the median against N):\n\n"
               "| backend | ns per fd | intercept (ns) | R² | points | log-log slope, "
               "first to last N |\n|---|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < m->nbackends; k++) {
        size_t np;
        double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
        mp_fit ft = mp_rc_slope(m, mode, kind, m->backends[k], "wall_ns", &np);
        size_t p = mp_rc_points(m, mode, kind, m->backends[k], "wall_ns", x, y, MP_RC_MAXPTS);
        double ll = p >= 2 ? mp_loglog_slope(x[0], y[0], x[p - 1], y[p - 1]) : NAN;
        fprintf(f, "| %s | %s | %s | %s | %zu | %s |\n", m->backends[k],
                mp_fmt_num(a, sizeof a, ft.ok ? ft.slope : NAN),
                mp_fmt_num(b, sizeof b, ft.ok ? ft.intercept : NAN),
                ft.ok ? (snprintf(c2, sizeof c2, "%.4f", ft.r2), c2) : "n/a", np,
                isfinite(ll) ? (snprintf(d, sizeof d, "%.2f", ll), d) : "n/a");
    }
    fputc('\n', f);
    int any = 0;
    for (size_t c = 0; c < m->nmetrics; c++)
        for (size_t k = 0; k < m->nbackends && !mp_rc_all_zero(m, mode, kind, m->metrics[c]);
             k++) {
            size_t np;
            mp_fit ft = mp_rc_slope(m, mode, kind, m->backends[k], m->metrics[c], &np);
            if (np < 2)
                continue;
            if (!any++)
                fprintf(f, "Counters per descriptor (fit of the median count against N):\n\n"
                           "| counter | backend | events per fd | intercept | R² | points |\n"
                           "|---|---|---:|---:|---:|---:|\n");
            fprintf(f, "| %s | %s | %s | %s | %s | %zu |\n", m->metrics[c], m->backends[k],
                    mp_fmt_num(a, sizeof a, ft.ok ? ft.slope : NAN),
                    mp_fmt_num(b, sizeof b, ft.ok ? ft.intercept : NAN),
                    ft.ok ? (snprintf(c2, sizeof c2, "%.4f", ft.r2), c2) : "n/a", np);
        }
    if (any)
        fputc('\n', f);
}

static void table_ratios(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                         const long long *ns, size_t n)
{
    if (!mp_rc_has_backend(m, "epoll")) {
        fprintf(f, "No epoll cells in this run, so no ratios to epoll.\n\n");
        return;
    }
    fprintf(f, "Median time per call relative to epoll's at the same N:\n\n");
    header_n(f, "backend / epoll", ns, n);
    for (size_t k = 0; k < m->nbackends; k++) {
        if (!strcmp(m->backends[k], "epoll"))
            continue;
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t i = 0; i < n; i++) {
            double r = mp_rc_ratio(m, mode, kind, m->backends[k], ns[i]);
            char a[32];
            if (isfinite(r))
                fprintf(f, " %s× |", mp_fmt_num(a, sizeof a, r));
            else
                fprintf(f, " – |");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void results(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    for (size_t i = 0; i < m->nmodes; i++)
        for (size_t k = 0; k < m->nkinds; k++) {
            long long ns[MAXN];
            size_t n = nfds_list(m, m->modes[i], m->kinds[k], ns);
            if (!n)
                continue;
            fprintf(f, "## Results: %s mode, %s fds\n\n", m->modes[i], m->kinds[k]);
            table_times(f, m, m->modes[i], m->kinds[k], ns, n);
            table_slopes(f, m, m->modes[i], m->kinds[k]);
            table_ratios(f, m, m->modes[i], m->kinds[k], ns, n);
            mp__rmd_knees(f, m, m->modes[i], m->kinds[k], "wall_ns");
        }
}

const mp_rsection mp_rsec_results = {"results", 1, 1, NULL, NULL, results};
