/* calc.c - per-series analysis of a run for the report writers.
 * See report/calc.h. */
#include "report/calc.h"

#include <math.h>
#include <string.h>

size_t mp_rc_points(const mp_rmodel *m, const char *mode, const char *kind,
                    const char *backend, const char *metric, double *nfds, double *y,
                    size_t max)
{
    const mp_rcell *cells[MP_RC_MAXPTS];
    size_t n = mp_rm_series(m, mode, kind, backend, cells, MP_RC_MAXPTS);
    if (n > MP_RC_MAXPTS)
        n = MP_RC_MAXPTS;
    size_t k = 0;
    for (size_t i = 0; i < n && k < max; i++) {
        double v = mp_rm_p50(cells[i], metric);
        if (!isfinite(v))
            continue;
        nfds[k] = (double)cells[i]->nfds;
        y[k] = v;
        k++;
    }
    return k;
}

double mp_rc_pollfd_lines(const mp_rmodel *m, double nfds)
{
    return (double)mp_lines((unsigned long long)nfds * MP_POLLFD_BYTES, m->line_bytes);
}

long long mp_rc_maxfd(const mp_rcell *c)
{
    return c->fd_hi >= 0 ? c->fd_hi : c->nfds + 2;
}

double mp_rc_select_lines(const mp_rmodel *m, const mp_rcell *c, double nfds)
{
    long long maxfd = c ? mp_rc_maxfd(c) : (long long)nfds + 2;
    return (double)mp_move_select((unsigned long long)maxfd, 1, m->line_bytes).lines_in;
}

double mp_rc_ratio(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, long long nfds)
{
    double a = mp_rm_p50(mp_rm_find(m, mode, kind, backend, nfds), "wall_ns");
    double b = mp_rm_p50(mp_rm_find(m, mode, kind, "epoll", nfds), "wall_ns");
    if (!isfinite(a) || !(b > 0))
        return NAN;
    return a / b;
}

int mp_rc_linefit(const mp_rmodel *m, const char *mode, const char *kind,
                  const char *backend, const char *metric, mp_rlinefit *out)
{
    double n[MP_RC_MAXPTS], y[MP_RC_MAXPTS], x[MP_RC_MAXPTS];
    memset(out, 0, sizeof *out);
    out->last_nfds = out->break_nfds = NAN;
    out->n = mp_rc_points(m, mode, kind, backend, metric, n, y, MP_RC_MAXPTS);
    if (out->n < 2)
        return 0;
    /* select moves fd_set bitmaps, not pollfd arrays: its own lines. */
    int sel = !strcmp(backend, "select");
    for (size_t i = 0; i < out->n; i++)
        x[i] = sel ? mp_rc_select_lines(m, mp_rm_find(m, mode, kind, backend, (long long)n[i]),
                                        n[i])
                   : mp_rc_pollfd_lines(m, n[i]);
    out->all = mp_fit_linear(x, y, out->n);
    out->k = mp_fit_holds(x, y, out->n, MP_RC_MIN_R2, MP_RC_MAX_REL, &out->held);
    if (out->k > 0) {
        out->last_nfds = n[out->k - 1];
        out->lo_lines = x[0];
        out->hi_lines = x[out->k - 1];
        if (out->k < out->n)
            out->break_nfds = n[out->k];
    } else {
        out->held = out->all;
        out->lo_lines = x[0];
        out->hi_lines = x[out->n - 1];
    }
    return 1;
}

mp_fit mp_rc_slope(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, const char *metric, size_t *npts)
{
    double n[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
    size_t k = mp_rc_points(m, mode, kind, backend, metric, n, y, MP_RC_MAXPTS);
    if (npts)
        *npts = k;
    return mp_fit_linear(n, y, k);
}

int mp_rc_has_backend(const mp_rmodel *m, const char *name)
{
    for (size_t i = 0; i < m->nbackends; i++)
        if (!strcmp(m->backends[i], name))
            return 1;
    return 0;
}

int mp_rc_all_zero(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *metric)
{
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->mode, mode) || strcmp(c->fd_kind, kind))
            continue;
        double v = mp_rm_p50(c, metric);
        if (isfinite(v) && v != 0)
            return 0;
    }
    return 1;
}
