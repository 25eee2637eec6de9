/* SPDX-License-Identifier: MIT */
/* sec_results.c - "Results: MODE mode, KIND fds": per mode and fd kind,
 * time per call against N, per-descriptor fits, ratios to epoll, knees. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/series.h"
#include "report/verdict.h"
#include "report/md.h"
#include "common/duration.h"
#include "common/stats.h"
#include "common/quote.h"
#include "report/format.h"

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
    char a[32];
    fprintf(f, "| %s |", first);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " N=%s |", mp_fmt_num(a, sizeof a, (double)ns[i]));
    fprintf(f, "\n|---|");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "---:|");
    fputc('\n', f);
}

static void table_times(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                        const long long *ns, size_t n)
{
    char a[32], b[32], c1[32], c2[32];
    size_t reps, none;
    double level;
    mp_rc_ci_kinds(m, mode, kind, &reps, &none, &level);
    fprintf(f, "Time per call, p50 [interval] / p99 (ns). ");
    if (reps)
        fprintf(f, "Intervals: of the median, from the repeat medians (order statistics, "
                   "distribution-free; the repeat is the unit that varies, not the call, "
                   "whose samples are correlated), covering it at least %.1f%% of the time "
                   "here (%.1f%% with 9 repeats; below 6 repeats the whole range, "
                   "1 − 2^(1−R)). ", level * 100, 100 * (1 - 20.0 / 512));
    if (none)
        fprintf(f, "%zu cells have no interval (fewer than 2 repeat medians). ", none);
    fprintf(f, "Noisy cells are marked once, in the spread table below.\n\n");
    header_n(f, "backend", ns, n);
    for (size_t k = 0; k < m->nbackends; k++) {
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t i = 0; i < n; i++) {
            const mp_rcell *c = mp_rm_find_any(m, mode, kind, m->backends[k], ns[i], 0);
            if (!c) {
                fprintf(f, " – |");
            } else if (c->status == MP_CELL_OK) {
                fprintf(f, " %s", mp_fmt_num(a, sizeof a, c->wall.p50));
                if (c->ci_kind != MP_CI_NONE)
                    fprintf(f, " [%s–%s]", mp_fmt_num(c1, sizeof c1, c->ci_lo),
                            mp_fmt_num(c2, sizeof c2, c->ci_hi));
                fprintf(f, " / %s |", mp_fmt_num(b, sizeof b, c->wall.p99));
            } else {
                fprintf(f, " %s |", c->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error");
            }
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t i = 0; i < m->ncells; i++) {   /* reasons of cells that did not run */
        const mp_rcell *c = &m->cells[i];
        char r[300];
        if (c->status != MP_CELL_OK && !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind))
            fprintf(f, "- %s, N=%s: %s: %s\n", c->backend,
                    mp_fmt_num(a, sizeof a, (double)c->nfds),
                    c->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error",
                    c->reason[0] ? mp_md_cell(r, sizeof r, c->reason) : "(no reason given)");
    }
    fputc('\n', f);
}

/* The spread across repeats, as results.json records it; marked where a
 * cell's spread leaves a claim not resolved (mp_rv_deciders), with the
 * other noisy cells counted. */
static void table_repeats(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                          const long long *ns, size_t n)
{
    int any = 0;
    char a[32], b[32], c1[32];
    for (size_t i = 0; i < m->ncells && !any; i++) {
        const mp_rcell *c = &m->cells[i];
        any = c->nrep >= 2 && !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind);
    }
    if (!any) {
        fprintf(f, "No spread across repeats: the cells have fewer than 2 repeat medians.\n\n");
        return;
    }
    fprintf(f, "Spread across repeats: lowest–highest repeat median (ns) and "
               "(highest − lowest) / their median:\n\n");
    header_n(f, "backend", ns, n);
    size_t noisy = 0, ok = 0, deciding = 0;
    mp_rdecider dec[MP_RV_MAX_DECIDERS];
    size_t ndec = mp_rv_deciders(m, mode, dec, MP_RV_MAX_DECIDERS);
    for (size_t k = 0; k < m->nbackends; k++) {
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t i = 0; i < n; i++) {
            const mp_rcell *c = mp_rm_find_any(m, mode, kind, m->backends[k], ns[i], 0);
            double lo, hi, sp = mp_rc_rep_spread(c, &lo, &hi);
            char claims[160];
            size_t d = mp_rv_decider_claims(dec, ndec, c, claims, sizeof claims);
            if (!isfinite(sp)) {
                fprintf(f, " – |");
                continue;
            }
            ok++;
            noisy += mp_rc_noisy(c);
            deciding += d > 0;
            fprintf(f, " %s–%s (%s%%)%s |", mp_fmt_num(a, sizeof a, lo),
                    mp_fmt_num(b, sizeof b, hi), mp_fmt_num(c1, sizeof c1, sp * 100),
                    d ? " ⚠" : "");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    /* the table is the one list of these cells: here only their counts */
    if (deciding)
        fprintf(f, "⚠ marks the %zu cell%s whose spread leaves a claim not resolved (the "
                   "source articles' claims, checked): quote %s range, not one number. ", deciding,
                deciding == 1 ? "" : "s", deciding == 1 ? "its" : "their");
    else
        fprintf(f, "No cell of this table has a spread that leaves a claim not resolved. ");
    if (noisy)
        fprintf(f, "%zu of these %zu cells' repeat medians differ by more than %.0f%%.\n\n",
                noisy, ok, MP_RC_NOISY * 100);
    else
        fprintf(f, "Every cell's repeat medians lie within %.0f%% of each other.\n\n",
                MP_RC_NOISY * 100);
}

static void cost_cell(FILE *f, double v, const char *unit)
{
    char a[32];
    fprintf(f, " %s%s |", mp_fmt_num(a, sizeof a, v), isfinite(v) ? unit : "");
}

/* Per-interval and per-regime cost: measured medians, no model. */
static void table_marginal(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    char a[32], b[32], c1[32];
    int wake = !strcmp(mode, "wakeup");
    double per_fd = MP_POLLFD_BYTES + mp_kernel_bytes_per_fd(wake);
    fprintf(f, "Per-descriptor cost, measured: the marginal cost of each interval between "
               "neighbouring N, (p50[N₂] − p50[N₁]) / (N₂ − N₁), in ns per added fd, with its "
               "interval [lo, hi] (Hodges-Lehmann, from the two cells' repeat medians; a "
               "backend's m intervals cover together at 95%%, each at 1 − 5%%/m); an "
               "interval that includes 0 is *within noise*: no cost per fd resolved there."
               "\n\n");
    for (size_t k = 0; k < m->nbackends; k++) {
        mp_rcost c;
        if (!mp_rc_cost(m, mode, kind, m->backends[k], "wall_ns", &c))
            continue;
        int few = 0;
        char why[160];
        for (size_t i = 0; i + 1 < c.n && c.has_ci; i++)
            few |= mp_rc_side(c.marg_ci[i][0], c.marg_ci[i][1], 0) == MP_RC_NO_CI;
        fprintf(f, "- %s%s%s%s%s:", m->backends[k],
                c.has_ci ? "" : " (interval not available: a cell has fewer than 2 repeat "
                "medians)", few ? " (interval not available: " : "",
                few ? mp_rc_few_reps_family(c.n, why, sizeof why) : "", few ? ")" : "");
        for (size_t i = 0; i + 1 < c.n; i++) {
            char iv[96];
            fprintf(f, "%s %s→%s: %s%s", i ? ";" : "", mp_fmt_num(a, sizeof a, c.nfds[i]),
                    mp_fmt_num(b, sizeof b, c.nfds[i + 1]),
                    mp_fmt_num(c1, sizeof c1, c.marg[i]), mp_rc_marg_text(&c, i, iv, sizeof iv));
        }
        fprintf(f, "\n");
    }
    fputc('\n', f);
    double bound[MP_RM_MAX_CACHES + 1];
    const char *names[MP_RM_MAX_CACHES + 1];
    size_t nr = mp_rc_regimes(m, per_fd, bound, names, MP_RM_MAX_CACHES + 1);
    if (nr < 2) {
        fprintf(f, "No cache sizes in results.json (topology.caches), so no per-regime "
                   "costs.\n\n");
        return;
    }
    fprintf(f, "Per cache regime, measured: the same slope between the first and last N "
               "whose kernel working set (estimated at %.0f B per fd in %s mode, see Knees) "
               "fits in each level; \"–\" where fewer than 2 N fall in the regime. ns per fd:"
               "\n\n| backend |", per_fd, mode);
    for (size_t r = 0; r < nr; r++) {
        if (!r)
            fprintf(f, " fits %s (N < %s) |", names[r], mp_fmt_num(a, sizeof a, bound[r]));
        else if (names[r])
            fprintf(f, " fits %s (%s ≤ N < %s) |", names[r],
                    mp_fmt_num(a, sizeof a, bound[r - 1]), mp_fmt_num(b, sizeof b, bound[r]));
        else
            fprintf(f, " beyond %s (N ≥ %s) |", names[r - 1],
                    mp_fmt_num(a, sizeof a, bound[r - 1]));
    }
    fprintf(f, "\n|---|");
    for (size_t r = 0; r < nr; r++)
        fprintf(f, "---:|");
    fputc('\n', f);
    for (size_t k = 0; k < m->nbackends; k++) {
        mp_rcost c;
        if (!mp_rc_cost(m, mode, kind, m->backends[k], "wall_ns", &c))
            continue;
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t r = 0; r < nr; r++) {
            double lo = r ? bound[r - 1] : -INFINITY;
            size_t first = c.n, last = c.n;
            for (size_t i = 0; i < c.n; i++)
                if (c.nfds[i] >= lo && c.nfds[i] < bound[r]) {
                    if (first == c.n)
                        first = i;
                    last = i;
                }
            if (first == c.n || last == first)
                fprintf(f, " – |");
            else
                cost_cell(f, (c.y[last] - c.y[first]) / (c.nfds[last] - c.nfds[first]), "");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* " [lo, hi]" of a fitted slope, or "" when it has none (counters; cells
 * without repeat medians). */
static const char *slope_ci_text(const mp_rcost *c, char *buf, size_t len)
{
    char a[32], b[32];
    buf[0] = 0;
    if (isfinite(c->slope_ci[0]) && isfinite(c->slope_ci[1]))
        snprintf(buf, len, " [%s, %s]", mp_fmt_num(a, sizeof a, c->slope_ci[0]),
                 mp_fmt_num(b, sizeof b, c->slope_ci[1]));
    return buf;
}

/* One row of a fitted cost, with its warnings beside the numbers. */
static void fit_row(FILE *f, const char *first, const mp_rcost *c, const char *unit)
{
    char a[32], b[32], r2[32], w[512], ci[96];
    if (c->constant) {
        fprintf(f, "| %s | constant: %s in every cell | – | no R² (constant) | %zu | no fit: "
                   "nothing varies with N |\n", first, mp_fmt_num(a, sizeof a, c->y[0]), c->n);
        return;
    }
    if (c->flat) {
        fprintf(f, "| %s | %s%s | %s | %s | %zu | flat: the median changes %s%% from first to "
                   "last N, so no per-fd cost is resolved |\n", first,
                mp_fmt_num(a, sizeof a, c->fit.ok ? c->fit.slope : NAN), slope_ci_text(c, ci, sizeof ci),
                mp_fmt_num(b, sizeof b, c->fit.ok ? c->fit.intercept : NAN),
                c->fit.ok && isfinite(c->fit.r2) ? (snprintf(r2, sizeof r2, "%.3f",
                                                             c->fit.r2), r2) : "n/a",
                c->n, mp_fmt_num(w, sizeof w, 100 * (c->y[c->n - 1] - c->y[0]) / c->y[0]));
        return;
    }
    mp_rc_fit_warnings(c, unit, w, sizeof w);
    fprintf(f, "| %s | %s%s | %s | %s | %zu | %s |\n", first,
            mp_fmt_num(a, sizeof a, c->fit.ok ? c->fit.slope : NAN), slope_ci_text(c, ci, sizeof ci),
            mp_fmt_num(b, sizeof b, c->fit.ok ? c->fit.intercept : NAN),
            c->fit.ok && isfinite(c->fit.r2) ? (snprintf(r2, sizeof r2, "%.3f", c->fit.r2), r2)
                                             : "n/a",
            c->n, w[0] ? w : "none");
}

/* 1 when some backend has a cost of metric in this mode and kind (two N or
 * more): the per-descriptor tables then have a row. */
static int any_cost(const mp_rmodel *m, const char *mode, const char *kind, const char *metric)
{
    for (size_t k = 0; k < m->nbackends; k++) {
        mp_rcost c;
        if (mp_rc_cost(m, mode, kind, m->backends[k], metric, &c))
            return 1;
    }
    return 0;
}

static void table_slopes(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    if (!any_cost(m, mode, kind, "wall_ns")) {
        fprintf(f, "Per-descriptor cost: none, measured or fitted: it needs two N or more of "
                   "one backend, and no backend has them here.\n\n");
        return;
    }
    table_marginal(f, m, mode, kind);
    fprintf(f, "Per-descriptor cost, fitted (a model, not a measurement): a line through the "
               "medians by least squares on relative error (each point weighted 1/p50², so "
               "every N counts alike; an ordinary fit lets the largest N decide the slope), "
               "with its 95%% interval [lo, hi] where the cells have repeat medians: the "
               "2.5th to 97.5th percentile of the slopes of %d fits, each through the medians "
               "of the repeat medians resampled with replacement per cell. "
               "Warnings stand next to the number they qualify.\n\n"
               "| backend | ns per fd (fit) [interval] | intercept (ns) | weighted R² | points | "
               "warnings |\n|---|---:|---:|---:|---:|---|\n", MP_RC_BOOT);
    for (size_t k = 0; k < m->nbackends; k++) {
        mp_rcost c;
        if (mp_rc_cost(m, mode, kind, m->backends[k], "wall_ns", &c))
            fit_row(f, m->backends[k], &c, "ns");
    }
    fputc('\n', f);
    int any = 0;
    for (size_t c = 0; c < m->nmetrics; c++)
        for (size_t k = 0; k < m->nbackends && !mp_rc_all_zero(m, mode, kind, m->metrics[c]);
             k++) {
            mp_rcost ct;
            char first[600];
            if (!mp_rc_cost(m, mode, kind, m->backends[k], m->metrics[c], &ct))
                continue;
            if (!any++)
                fprintf(f, "Counters per descriptor (the same relative-error fit of the median "
                           "count against N):\n\n"
                           "| counter (unit), backend | per fd (fit) | intercept | weighted R² "
                           "| points | warnings |\n|---|---:|---:|---:|---:|---|\n");
            const char *unit = m->metric_units[c] ? m->metric_units[c] : "events";
            snprintf(first, sizeof first, "%s (%s), %s", MP_QMD(m->metrics[c]), unit,
                     m->backends[k]);
            fit_row(f, first, &ct, unit);
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
            char d[32] = "";
            if (!strcmp(m->modes[i], "wakeup") && (m->ndcells || m->wake_delay_ns > 0))
                snprintf(d, sizeof d, ", asleep %s", mp_duration_fmt((char[24]){0}, 24,
                                                                     m->wake_delay_ns));
            fprintf(f, "## Results: %s mode%s, %s fds\n\n", m->modes[i], d, m->kinds[k]);
            table_times(f, m, m->modes[i], m->kinds[k], ns, n);
            table_repeats(f, m, m->modes[i], m->kinds[k], ns, n);
            table_slopes(f, m, m->modes[i], m->kinds[k]);
            table_ratios(f, m, m->modes[i], m->kinds[k], ns, n);
            mp__rmd_knees(f, m, m->modes[i], m->kinds[k], "wall_ns");
        }
}

/* ---- the same analysis for `report --json` ---- */

static void series_fit(cJSON *o, const mp_rcost *c)
{
    char w[512];
    cJSON *j = cJSON_AddObjectToObject(o, "fit");
    cJSON_AddStringToObject(j, "method", "least squares on relative error (weight 1/p50²)");
    cJSON_AddNumberToObject(j, "points", (double)c->n);
    cJSON_AddNumberToObject(j, "from_nfds", c->nfds[0]);
    cJSON_AddNumberToObject(j, "to_nfds", c->nfds[c->n - 1]);
    cJSON_AddBoolToObject(j, "constant", c->constant);
    cJSON_AddBoolToObject(j, "flat", c->flat);
    int fitted = c->fit.ok && !c->constant;
    mp__rj_num(j, "ns_per_fd", fitted ? c->fit.slope : NAN);
    mp__rj_num(j, "ns_per_fd_lo", fitted ? c->slope_ci[0] : NAN);
    mp__rj_num(j, "ns_per_fd_hi", fitted ? c->slope_ci[1] : NAN);
    cJSON_AddStringToObject(j, "interval", isfinite(c->slope_ci[0]) ? "bootstrap over repeats"
                            : "not available (fewer than 2 repeat medians in a cell)");
    mp__rj_num(j, "intercept_ns", fitted ? c->fit.intercept : NAN);
    mp__rj_num(j, "weighted_r2", fitted ? c->fit.r2 : NAN);
    mp_rc_fit_warnings(c, "ns", w, sizeof w);
    cJSON_AddStringToObject(j, "warnings", w);
}

static void series_costs(cJSON *o, const mp_rcost *c)
{
    cJSON *a = cJSON_AddArrayToObject(o, "interval_costs");
    for (size_t i = 0; i + 1 < c->n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "from_nfds", c->nfds[i]);
        cJSON_AddNumberToObject(e, "to_nfds", c->nfds[i + 1]);
        mp__rj_num(e, "ns_per_fd", c->marg[i]);
        mp__rj_num(e, "lo", c->marg_ci[i][0]);
        mp__rj_num(e, "hi", c->marg_ci[i][1]);
        cJSON_AddStringToObject(e, "verdict", mp_rc_marg_verdict(c, i));
        cJSON_AddItemToArray(a, e);
    }
}

static void series_ratios(cJSON *o, const mp_rmodel *m, const char *mode, const char *kind,
                          const char *backend, const long long *ns, size_t n)
{
    if (!strcmp(backend, "epoll") || !mp_rc_has_backend(m, "epoll"))
        return;
    cJSON *a = cJSON_AddArrayToObject(o, "ratio_to_epoll");
    for (size_t i = 0; i < n; i++) {
        double r = mp_rc_ratio(m, mode, kind, backend, ns[i]), lo, hi;
        if (!isfinite(r))
            continue;
        mp_rc_ratio_range(m, mode, kind, backend, ns[i], &lo, &hi);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "nfds", (double)ns[i]);
        cJSON_AddNumberToObject(e, "ratio", r);
        mp__rj_num(e, "lo", lo);
        mp__rj_num(e, "hi", hi);
        cJSON_AddItemToArray(a, e);
    }
}

static void series_knees(cJSON *o, const mp_rmodel *m, const char *mode, const char *kind,
                         const char *backend)
{
    mp_rknees k;
    mp__r_knees(m, mode, kind, backend, "wall_ns", &k);
    for (int nr = 0; nr < 2; nr++) {
        cJSON *a = cJSON_AddArrayToObject(o, nr ? "knees_not_resolved" : "knees");
        const mp_knee *kn = nr ? k.nr : k.kn;
        for (size_t i = 0; i < (nr ? k.nnr : k.nk) && i < MP_RKNEES_MAX; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "from_nfds", kn[i].x0);
            cJSON_AddNumberToObject(e, "to_nfds", kn[i].x1);
            cJSON_AddNumberToObject(e, "loglog_slope", kn[i].slope);
            mp__rj_num(e, "lo", kn[i].lo);
            mp__rj_num(e, "hi", kn[i].hi);
            cJSON_AddItemToArray(a, e);
        }
    }
}

/* One series of report --json; d[0, nd) are mode's deciders (mp_rv_deciders). */
static cJSON *series(const mp_rmodel *m, const char *mode, const char *kind,
                     const char *backend, const long long *ns, size_t n,
                     const mp_rdecider *d, size_t nd)
{
    cJSON *o = cJSON_CreateObject(), *cells = NULL;
    cJSON_AddStringToObject(o, "mode", mode);
    cJSON_AddStringToObject(o, "fd_kind", kind);
    cJSON_AddStringToObject(o, "backend", backend);
    for (size_t i = 0; i < n; i++) {
        const mp_rcell *c = mp_rm_find_any(m, mode, kind, backend, ns[i], 0);
        if (!c)
            continue;
        if (!cells)
            cells = cJSON_AddArrayToObject(o, "cells");
        cJSON *e = mp__rj_cell(c);
        double lo, hi, sp = mp_rc_rep_spread(c, &lo, &hi);
        cJSON *r = cJSON_AddObjectToObject(e, "repeat_medians_ns");
        mp__rj_num(r, "lo", isfinite(sp) ? lo : NAN);
        mp__rj_num(r, "hi", isfinite(sp) ? hi : NAN);
        mp__rj_num(r, "spread", sp);
        cJSON_AddBoolToObject(e, "noisy", mp_rc_noisy(c));
        if (c->status == MP_CELL_OK) {
            cJSON *un = cJSON_AddArrayToObject(e, "unresolves");
            for (size_t j = 0; j < nd; j++)
                if (d[j].cell == c)
                    cJSON_AddItemToArray(un, cJSON_CreateString(d[j].claim));
        }
        cJSON_AddItemToArray(cells, e);
    }
    if (!cells) {
        cJSON_Delete(o);
        return NULL;
    }
    mp_rcost c;
    if (mp_rc_cost(m, mode, kind, backend, "wall_ns", &c)) {
        series_costs(o, &c);
        series_fit(o, &c);
    }
    series_ratios(o, m, mode, kind, backend, ns, n);
    series_knees(o, m, mode, kind, backend);
    return o;
}

static void results_json(cJSON *doc, const mp_rmodel *m)
{
    cJSON *a = cJSON_AddArrayToObject(doc, "series");
    for (size_t i = 0; i < m->nmodes; i++) {
        mp_rdecider d[MP_RV_MAX_DECIDERS];   /* the mode's claims decided once */
        size_t nd = mp_rv_deciders(m, m->modes[i], d, MP_RV_MAX_DECIDERS);
        for (size_t k = 0; k < m->nkinds; k++) {
            long long ns[MAXN];
            size_t n = nfds_list(m, m->modes[i], m->kinds[k], ns);
            for (size_t b = 0; b < m->nbackends; b++) {
                cJSON *s = series(m, m->modes[i], m->kinds[k], m->backends[b], ns, n, d, nd);
                if (s)
                    cJSON_AddItemToArray(a, s);
            }
        }
    }
}

const mp_rsection mp_rsec_results = {"results", 1, 1, NULL, results, results_json, 0};
