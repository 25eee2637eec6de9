/* SPDX-License-Identifier: MIT */
/* series.c - per-series analysis of a run for the report writers.
 * See report/series.h. */
#include "report/series.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/stats.h"
#include "report/format.h"

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

double mp_rc_array_lines(const mp_rmodel *m, const mp_rcell *c, const char *backend)
{
    if (!strcmp(backend, "select"))
        return mp_rc_select_lines(m, c, (double)c->nfds);
    if (!strcmp(backend, "poll") || !strcmp(backend, "ppoll"))
        return mp_rc_pollfd_lines(m, (double)c->nfds);
    return NAN;
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
    double lo, hi;
    return mp_rc_ratio_est(mp_rm_find(m, mode, kind, "epoll", nfds),
                           mp_rm_find(m, mode, kind, backend, nfds), &lo, &hi);
}

int mp_rc_ratio_range(const mp_rmodel *m, const char *mode, const char *kind,
                      const char *backend, long long nfds, double *lo, double *hi)
{
    const mp_rcell *a = mp_rm_find(m, mode, kind, backend, nfds);
    const mp_rcell *b = mp_rm_find(m, mode, kind, "epoll", nfds);
    mp_rc_ratio_ci(b, a, lo, hi);
    return isfinite(*lo) && isfinite(*hi);
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

int mp_rc_has_backend(const mp_rmodel *m, const char *name)
{
    for (size_t i = 0; i < m->nbackends; i++)
        if (!strcmp(m->backends[i], name))
            return 1;
    return 0;
}

void mp_rc_ci_kinds(const mp_rmodel *m, const char *mode, const char *kind, size_t *reps,
                    size_t *none, double *level)
{
    *reps = *none = 0;
    *level = NAN;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->status != MP_CELL_OK || strcmp(c->mode, mode) || strcmp(c->fd_kind, kind))
            continue;
        if (c->ci_kind == MP_CI_REPEATS) {
            (*reps)++;
            if (!(c->ci_level >= *level))
                *level = c->ci_level;
        } else
            (*none)++;
    }
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

int mp_rc_side(double lo, double hi, double threshold)
{
    if (!isfinite(lo) || !isfinite(hi))
        return MP_RC_NO_CI;
    return lo > threshold ? MP_RC_ABOVE : hi < threshold ? MP_RC_BELOW : MP_RC_STRADDLES;
}

const char *mp_rc_marg_verdict(const mp_rcost *c, size_t i)
{
    switch (i + 1 < c->n ? mp_rc_side(c->marg_ci[i][0], c->marg_ci[i][1], 0) : MP_RC_NO_CI) {
    case MP_RC_ABOVE: return "grows";
    case MP_RC_BELOW: return "falls";
    case MP_RC_STRADDLES: return "within noise";
    default: return "interval not available";
    }
}

const char *mp_rc_marg_text(const mp_rcost *c, size_t i, char *buf, size_t len)
{
    char a[32], b[32];
    buf[0] = 0;
    int side = i + 1 < c->n ? mp_rc_side(c->marg_ci[i][0], c->marg_ci[i][1], 0) : MP_RC_NO_CI;
    if (side != MP_RC_NO_CI)
        snprintf(buf, len, " [%s, %s]%s", mp_fmt_num(a, sizeof a, c->marg_ci[i][0]),
                 mp_fmt_num(b, sizeof b, c->marg_ci[i][1]),
                 side == MP_RC_STRADDLES ? ", within noise" : "");
    return buf;
}

int mp_rc_has_reps(const mp_rcell *c)
{
    return c && c->status == MP_CELL_OK && c->nrep >= 2;
}

int mp_rc_boot_slope(const double *x, const mp_rcell *const *cells, size_t n, size_t B,
                     double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (n < 2 || n > MP_RC_MAXPTS || B < 2)
        return -EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!mp_rc_has_reps(cells[i]))
            return -EINVAL;
    double *slopes = malloc(B * sizeof *slopes);
    if (!slopes)
        return -ENOMEM;
    unsigned long long st = 0x736c6f7065ull;   /* "slope" */
    size_t k = 0;
    for (size_t b = 0; b < B; b++) {
        double y[MP_RC_MAXPTS], v[MP_RM_MAX_REP];
        for (size_t i = 0; i < n; i++) {
            const mp_rcell *c = cells[i];
            for (size_t j = 0; j < c->nrep; j++)
                v[j] = c->rep[mp_splitmix64(&st) % c->nrep];
            y[i] = mp_median(v, c->nrep);
        }
        mp_fit f = mp_fit_relative(x, y, n);
        if (f.ok)
            slopes[k++] = f.slope;
    }
    if (k >= 2) {
        mp_median(slopes, k);   /* sorts */
        *lo = mp_quantile_sorted(slopes, k, 0.025);
        *hi = mp_quantile_sorted(slopes, k, 0.975);
    }
    free(slopes);
    return k >= 2 ? 0 : -EINVAL;
}

double mp_rc_family_level(size_t m)
{
    return m > 1 ? 1 - (1 - MP_CI_LEVEL) / (double)m : MP_CI_LEVEL;
}

/* The fewest repeat medians per cell (r against r) whose widest HL
 * interval, [min, max] of the pairwise values, covers at least level:
 * 1 - 2 / C(2r, r) >= level. */
static size_t min_repeats(double level)
{
    double c = 2;   /* C(2, 1) */
    size_t r = 1;
    while (1 - 2 / c < level - 1e-12 && r < 64) {
        c = c * (2.0 * r + 1) * (2.0 * r + 2) / ((r + 1.0) * (r + 1.0));
        r++;
    }
    return r;
}

const char *mp_rc_few_reps_family(size_t n, char *buf, size_t len)
{
    if (n <= 2) {
        snprintf(buf, len, "%s", MP_RC_FEW_REPS);
        return buf;
    }
    double level = mp_rc_family_level(n - 1);
    snprintf(buf, len, "fewer repeat medians than %zu intervals covering together at 95%% "
             "need (each at %.1f%%: at least %zu per cell)", n - 1, 100 * level,
             min_repeats(level));
    return buf;
}

int mp_rc_loglog_ci(const mp_rcell *a, double x0, const mp_rcell *b, double x1, double level,
                    double *lo, double *hi)
{
    double est, rlo, rhi, ach;
    *lo = *hi = NAN;
    if (!mp_rc_has_reps(a) || !mp_rc_has_reps(b) || !(x0 > 0) || !(x1 > x0))
        return -EINVAL;
    int rc = mp_ratio_ci_hl(a->rep, a->nrep, b->rep, b->nrep, level, &est, &rlo, &rhi, &ach);
    if (rc < 0)
        return rc;
    if (!mp_hl_level_ok(ach, level))
        return -ERANGE;
    *lo = log(rlo) / log(x1 / x0);
    *hi = log(rhi) / log(x1 / x0);
    return 0;
}

double mp_rc_ratio_est(const mp_rcell *a, const mp_rcell *b, double *lo, double *hi)
{
    int reps = mp_rc_has_reps(a) && mp_rc_has_reps(b);
    return mp_ratio_est(reps ? a->rep : NULL, reps ? a->nrep : 0, mp_rm_p50(a, "wall_ns"),
                        reps ? b->rep : NULL, reps ? b->nrep : 0, mp_rm_p50(b, "wall_ns"), lo,
                        hi);
}

int mp_rc_ratio_ci(const mp_rcell *a, const mp_rcell *b, double *lo, double *hi)
{
    double est, ach;
    *lo = *hi = NAN;
    if (!mp_rc_has_reps(a) || !mp_rc_has_reps(b))
        return -EINVAL;
    int rc = mp_ratio_ci_hl(a->rep, a->nrep, b->rep, b->nrep, MP_CI_LEVEL, &est, lo, hi, &ach);
    if (rc == 0 && !mp_hl_level_ok(ach, MP_CI_LEVEL))
        rc = -ERANGE;
    if (rc < 0)
        *lo = *hi = NAN;
    return rc;
}

/* The intervals of a wall_ns series' interval costs and slope, from its
 * cells' repeat medians; NaN (has_ci 0) when a cell has fewer than 2, and
 * an interval cost's NaN when its HL interval falls short of the family's
 * level. */
static void cost_intervals(const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend, const char *metric, mp_rcost *o)
{
    const mp_rcell *cells[MP_RC_MAXPTS];
    o->slope_ci[0] = o->slope_ci[1] = NAN;
    for (size_t i = 0; i < MP_RC_MAXPTS; i++)
        o->marg_ci[i][0] = o->marg_ci[i][1] = NAN;
    o->has_ci = strcmp(metric, "wall_ns") == 0;
    for (size_t i = 0; i < o->n && o->has_ci; i++) {
        cells[i] = mp_rm_find(m, mode, kind, backend, (long long)o->nfds[i]);
        o->has_ci = mp_rc_has_reps(cells[i]);
    }
    if (!o->has_ci)
        return;
    double level = mp_rc_family_level(o->n - 1);
    for (size_t i = 0; i + 1 < o->n; i++) {
        double est, lo, hi, ach, dn = o->nfds[i + 1] - o->nfds[i];
        const mp_rcell *a = cells[i], *b = cells[i + 1];
        if (dn > 0 && mp_shift_ci_hl(a->rep, a->nrep, b->rep, b->nrep, level, &est, &lo, &hi,
                                     &ach) == 0 && mp_hl_level_ok(ach, level)) {
            o->marg_ci[i][0] = lo / dn;
            o->marg_ci[i][1] = hi / dn;
        }
    }
    mp_rc_boot_slope(o->nfds, cells, o->n, MP_RC_BOOT, &o->slope_ci[0], &o->slope_ci[1]);
}

int mp_rc_cost(const mp_rmodel *m, const char *mode, const char *kind, const char *backend,
               const char *metric, mp_rcost *out)
{
    memset(out, 0, sizeof *out);
    out->n = mp_rc_points(m, mode, kind, backend, metric, out->nfds, out->y, MP_RC_MAXPTS);
    out->marg_lo = out->marg_hi = NAN;
    out->slope_ci[0] = out->slope_ci[1] = NAN;
    out->fit = mp_fit_relative(out->nfds, out->y, out->n);
    if (out->n < 2)
        return 0;
    size_t nm = mp_marginal(out->nfds, out->y, out->n, out->marg);
    for (size_t i = 0; i < nm; i++) {
        if (!isfinite(out->marg[i]))
            continue;
        if (!(out->marg[i] >= out->marg_lo))
            out->marg_lo = out->marg[i];
        if (!(out->marg[i] <= out->marg_hi))
            out->marg_hi = out->marg[i];
    }
    cost_intervals(m, mode, kind, backend, metric, out);
    out->constant = mp_series_constant(out->y, out->n);
    double y0 = out->y[0], y1 = out->y[out->n - 1];
    out->flat = !out->constant && fabs(y0) > 0 &&
                fabs(y1 - y0) / fabs(y0) < MP_RC_FLAT;
    return 1;
}

const char *mp_rc_fit_warnings(const mp_rcost *c, const char *unit, char *buf, size_t len)
{
    size_t o = 0;
    char a[32], b[32];
    buf[0] = 0;
    if (c->n < 2 || c->constant || c->flat || !c->fit.ok)
        return buf;
    if (c->fit.intercept < 0)
        o += (size_t)snprintf(buf + o, len - o, "%s⚠ negative intercept (no physical meaning: "
                              "the line does not describe small N)", o ? "; " : "");
    if (o < len && !(c->fit.r2 >= MP_RC_MIN_R2))
        o += (size_t)snprintf(buf + o, len - o, "%s⚠ R² %.*f < %.2f: not a straight line",
                              o ? "; " : "", c->fit.r2 >= 0.9495 ? 4 : 3, c->fit.r2,
                              MP_RC_MIN_R2);   /* 0.9497 is not printed as "0.950 < 0.95" */
    int sign = c->marg_lo <= 0 && c->marg_hi > 0;
    if (o < len && (sign || c->marg_hi > MP_RC_SPREAD * c->marg_lo))
        o += (size_t)snprintf(buf + o, len - o, "%s⚠ interval costs %s (%s to %s %s per fd): "
                              "no single per-fd cost", o ? "; " : "",
                              sign ? "change sign" : "differ more than 2×",
                              mp_fmt_num(a, sizeof a, c->marg_lo),
                              mp_fmt_num(b, sizeof b, c->marg_hi), unit);
    return buf;
}

double mp_rc_rep_spread(const mp_rcell *c, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (!c || c->status != MP_CELL_OK || c->nrep < 2)
        return NAN;
    double v[MP_RM_MAX_REP];
    memcpy(v, c->rep, c->nrep * sizeof *v);
    double med = mp_median(v, c->nrep);
    *lo = v[0];
    *hi = v[c->nrep - 1];
    return med > 0 ? (*hi - *lo) / med : NAN;
}

int mp_rc_noisy(const mp_rcell *c)
{
    double lo, hi, s = mp_rc_rep_spread(c, &lo, &hi);
    return isfinite(s) && s > MP_RC_NOISY;
}

size_t mp_rc_regimes(const mp_rmodel *m, double bytes_per_fd, double *bound,
                     const char **names, size_t max)
{
    size_t n = 0;
    const mp_rcache *v[MP_RM_MAX_CACHES];
    for (size_t i = 0; i < m->ncaches && i < MP_RM_MAX_CACHES; i++) {
        size_t j = n++;
        while (j > 0 && v[j - 1]->bytes > m->caches[i].bytes) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = &m->caches[i];
    }
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < max; i++, k++) {
        bound[k] = mp_cross_nfds(v[i]->bytes, bytes_per_fd);
        names[k] = v[i]->name;
    }
    if (k < max) {
        bound[k] = INFINITY;
        names[k] = NULL;
        k++;
    }
    return k;
}

/* "CPU model (arch)" of the run, for figure titles and captions: text as
 * read, quoted where it is written (common/quote.h). */
const char *mp_rc_host_cpu(const mp_rmodel *m, char *buf, size_t len)
{
    char cpu[160];
    if (!mp_rm_text(m, "context.cpu_model", cpu, sizeof cpu) || !*cpu)
        snprintf(cpu, sizeof cpu, "unknown CPU");
    snprintf(buf, len, "%.80s (%.20s)", cpu, m->arch[0] ? m->arch : "unknown arch");
    return buf;
}
