/* SPDX-License-Identifier: MIT */
/* change.c - each shared cell against the first input, with the repeat as
 * the unit of replication: per-call samples are autocorrelated and repeats
 * drift, so a test over calls calls two identical runs different almost
 * always.  The ratio of the medians with its interval from the repeat
 * medians (Hodges-Lehmann), the change as that ratio's (ratio - 1) in %,
 * a permutation test on them, and a minimum effect
 * below which a change is within noise.  See compare.h. */
#include "compare/internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/stats.h"
#include "common/quote.h"
#include "report/format.h"

#define PERM_SEED 0x636d70ull   /* "cmp": the same inputs give the same p */

const char *mp_cmp_verdict_name(mp_cmp_verdict v)
{
    static const char *const names[] = {"not testable", "within noise", "slower", "faster",
                                        "not resolved", "host level"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : names[0];
}

/* The cell's noise: its interval's width over its median.  Identical runs
 * differ by about that much (their intervals cover another run's median
 * about 60-80% of the time on a VM), so a smaller change is no evidence. */
static double noise_of(const mp_rcell *x)
{
    if (x->ci_kind == MP_CI_NONE || !(x->wall.p50 > 0))
        return 0;
    return (x->ci_hi - x->ci_lo) / x->wall.p50;
}

static int repeats_ok(const mp_cmp_host *h, const mp_rcell *x, char *why, size_t len)
{
    if (x->nrep >= MP_CMP_MIN_REPEATS)
        return 1;
    if (h->reference)
        snprintf(why, len, "%.80s: a published reference: one number per cell, no repeats",
                 h->label);
    else
        snprintf(why, len, "%.80s: %zu repeat medians of this cell (at least %d needed)",
                 h->label, x->nrep, MP_CMP_MIN_REPEATS);
    return 0;
}

void mp_cmp_level_of(const mp_cmp *c, size_t hi, mp_cmp_level *out)
{
    memset(out, 0, sizeof *out);
    out->up = out->down = 1;
    const mp_rnoise *a = &c->h[0].m.noise, *b = &c->h[hi].m.noise;
    for (int k = 0; k < MP_RCANARY_N; k++) {
        out->ratio[k] = b->canary[k] / a->canary[k];
        if (!isfinite(out->ratio[k]) || !(out->ratio[k] > 0)) {
            out->ratio[k] = NAN;
            continue;
        }
        out->known = 1;
        if (out->ratio[k] > out->up)
            out->up = out->ratio[k], out->which_up = k;
        if (out->ratio[k] < out->down)
            out->down = out->ratio[k], out->which_down = k;
    }
    out->differs = out->known && (out->up > 1 + MP_CMP_LEVEL_MIN ||
                                  out->down < 1 / (1 + MP_CMP_LEVEL_MIN));
}

const char *mp_cmp_level_text(const mp_cmp_level *l, char *buf, size_t len)
{
    static const char *const names[MP_RCANARY_N] = {"syscall", "L1", "LLC"};
    size_t o = (size_t)snprintf(buf, len, "canary");
    for (int k = 0; k < MP_RCANARY_N && o < len; k++)
        if (isfinite(l->ratio[k]))
            o += (size_t)snprintf(buf + o, len - o, "%s %s %+.0f%%", o > 6 ? "," : "",
                                  names[k], (l->ratio[k] - 1) * 100);
    if (!l->known)
        snprintf(buf, len, "no canary in both inputs");
    return buf;
}

void mp_cmp_change_of(const mp_cmp *c, size_t hi, const mp_cmp_group *g, const char *backend,
                      long long nfds, mp_cmp_change *out)
{
    memset(out, 0, sizeof *out);
    out->base = out->value = out->pct = out->p = NAN;
    out->ratio = out->ratio_lo = out->ratio_hi = out->ratio_level = NAN;
    out->could_up = out->could_down = NAN;
    out->verdict = MP_CMP_NOT_TESTABLE;
    const mp_rcell *a = mp_cmp_cell(&c->h[0], g->mode, g->kind, backend, nfds);
    const mp_rcell *b = mp_cmp_cell(&c->h[hi], g->mode, g->kind, backend, nfds);
    if (a && a->status == MP_CELL_OK)
        out->base = a->wall.p50;
    if (b && b->status == MP_CELL_OK)
        out->value = b->wall.p50;
    if (!(out->base > 0) || !isfinite(out->value)) {
        snprintf(out->why, sizeof out->why, "not measured by both");
        return;
    }
    /* the change is the ratio's: (ratio - 1), one estimator with one
     * interval; the medians' ratio only where there are no repeats */
    out->ratio = out->value / out->base;
    out->pct = (out->ratio - 1) * 100;
    if (!repeats_ok(&c->h[0], a, out->why, sizeof out->why) ||
        !repeats_ok(&c->h[hi], b, out->why, sizeof out->why))
        return;
    int rc = mp_perm_test(a->rep, a->nrep, b->rep, b->nrep, PERM_SEED, &out->p);
    if (rc == 0)
        rc = mp_ratio_ci_hl(a->rep, a->nrep, b->rep, b->nrep, 0.95, &out->ratio, &out->ratio_lo,
                            &out->ratio_hi, &out->ratio_level);
    if (rc == 0)
        out->pct = (out->ratio - 1) * 100;
    if (rc < 0) {
        out->p = NAN;
        out->ratio = out->value / out->base;
        snprintf(out->why, sizeof out->why, "%s", rc == -ENOMEM ? "out of memory"
                 : "a repeat median that is not a positive number");
        return;
    }
    out->n_base = a->nrep;
    out->n_value = b->nrep;
    /* pooled inputs: the runs are the replicates, so the test already sees
     * how far runs differ; the cells' own interval width is then no floor */
    int pooled = c->h[0].pooled && c->h[hi].pooled;
    out->min_effect = pooled ? MP_CMP_MIN_EFFECT
                             : fmax(MP_CMP_MIN_EFFECT, fmax(noise_of(a), noise_of(b)));
    /* the ratio's interval as measured, moved: slower once ratio_lo > 1, so from
     * ratio / ratio_lo; faster once ratio_hi < 1, so from ratio / ratio_hi */
    if (out->ratio_lo > 0 && out->ratio_hi > 0) {
        out->could_up = (fmax(1 + out->min_effect, out->ratio / out->ratio_lo) - 1) * 100;
        out->could_down = (fmin(1 - out->min_effect, out->ratio / out->ratio_hi) - 1) * 100;
    }
    if (fabs(out->pct) / 100 < out->min_effect)
        out->verdict = MP_CMP_WITHIN_NOISE;
    else if (out->p < MP_CMP_ALPHA && out->ratio_lo > 1 && out->pct > 0)
        out->verdict = MP_CMP_SLOWER;
    else if (out->p < MP_CMP_ALPHA && out->ratio_hi < 1 && out->pct < 0)
        out->verdict = MP_CMP_FASTER;
    else
        out->verdict = MP_CMP_NOT_RESOLVED;
    out->why[0] = 0;
    /* a shift the host's level explains is not the code's */
    mp_cmp_level lvl;
    mp_cmp_level_of(c, hi, &lvl);
    if (lvl.differs &&
        ((out->verdict == MP_CMP_SLOWER && lvl.up > 1 + MP_CMP_LEVEL_MIN &&
          out->ratio_lo <= lvl.up * (1 + out->min_effect)) ||
         (out->verdict == MP_CMP_FASTER && lvl.down < 1 / (1 + MP_CMP_LEVEL_MIN) &&
          out->ratio_hi >= lvl.down / (1 + out->min_effect)))) {
        char t[160];
        out->verdict = MP_CMP_HOST_LEVEL;
        snprintf(out->why, sizeof out->why, "the host's level differs: %s",
                 mp_cmp_level_text(&lvl, t, sizeof t));
    }
    out->significant = out->verdict == MP_CMP_SLOWER || out->verdict == MP_CMP_FASTER;
}

const char *mp__cmp_repeat_warning(const mp_cmp_host *h, char *buf, size_t len)
{
    size_t fewest = SIZE_MAX, ok = 0, below = 0, untestable = 0;
    buf[0] = 0;
    /* a reference carries one number, a simulation counts and times nothing */
    for (size_t i = 0; i < h->m.ncells && !h->reference && !h->m.simulated; i++) {
        const mp_rcell *x = &h->m.cells[i];
        if (x->status != MP_CELL_OK)
            continue;
        ok++;
        below += x->nrep < MP_CMP_ADVISED_REPEATS;
        untestable += x->nrep < MP_CMP_MIN_REPEATS;
        if (x->nrep < fewest)
            fewest = x->nrep;
    }
    if (!ok || fewest >= MP_CMP_ADVISED_REPEATS)
        return buf;
    if (h->pooled) {   /* the runs are the replicates */
        if (fewest < MP_CMP_MIN_REPEATS)
            snprintf(buf, len, "%zu of %zu cells were measured by fewer than %d of its %zu runs "
                     "(fewest %zu): their changes are not testable", untestable, ok,
                     MP_CMP_MIN_REPEATS, h->pooled, fewest);
        return buf;   /* few runs a side: "could show" states what they can find */
    }
    if (fewest < MP_CMP_MIN_REPEATS)
        snprintf(buf, len, "%zu of %zu cells have fewer than %d repeat medians (fewest %zu), "
                 "the least the permutation test needs (%d against %d: smallest p 2/70 < %.2g): "
                 "their changes are not testable; run with --repeats %d or more", untestable, ok,
                 MP_CMP_MIN_REPEATS, fewest, MP_CMP_MIN_REPEATS, MP_CMP_MIN_REPEATS,
                 MP_CMP_ALPHA, MP_CMP_ADVISED_REPEATS);
    else
        snprintf(buf, len, "%zu of %zu cells have fewer than %d repeat medians (fewest %zu): "
                 "the test can run but finds only large changes (little power); run with "
                 "--repeats %d or more", below, ok, MP_CMP_ADVISED_REPEATS, fewest,
                 MP_CMP_ADVISED_REPEATS);
    return buf;
}

static const char *p_text(char *buf, size_t len, double p)
{
    if (p < 0.001)
        snprintf(buf, len, "p < 0.001");
    else
        snprintf(buf, len, "p = %.3f", p);
    return buf;
}

void mp__cmp_change_table(FILE *f, const mp_cmp *c, const mp_cmp_group *g,
                          const char *backend, const long long *n, size_t nn)
{
    int col[MP_CMP_MAX_HOSTS] = {0}, any = 0;
    if (c->n < 2 || !mp_cmp_kind(&c->h[0], g->kind))
        return;
    for (size_t i = 1; i < c->n && i < MP_CMP_MAX_HOSTS; i++)
        any |= col[i] = mp_cmp_kind(&c->h[i], g->kind) != NULL;
    if (!any)
        return;
    char head[256], why[MP_CMP_MAX_HOSTS][sizeof ((mp_cmp_change *)0)->why];
    size_t nwhy = 0;
    int pooled = c->h[0].pooled;   /* every input pooled or none (mp_cmp_pool) */
    fprintf(f, "#### %s: change against %s (median; permutation test on the %s "
               "medians, p < %.2g; a change under %.0f%%%s is within noise)\n\n", backend,
            MP_QMD(c->h[0].label), pooled ? "runs'" : "repeat", MP_CMP_ALPHA,
            MP_CMP_MIN_EFFECT * 100, pooled ? "" : " or the cells' own noise");
    if (pooled)
        fprintf(f, "The threshold per cell: %.0f%% (the runs are the replicates, so the test "
                   "already sees how far runs differ: the cells' own interval width is no "
                   "floor); and slower or faster only where the ratio's 95%% interval excludes "
                   "1. \"could show\" is the smallest slowdown and speed-up each cell could "
                   "have been called with by both.\n\n", MP_CMP_MIN_EFFECT * 100);
    else
        fprintf(f, "The threshold per cell: the larger of %.0f%% and the wider of the two "
                   "cells' median intervals over its median; and slower or faster only where "
                   "the ratio's 95%% interval excludes 1. \"could show\" is the smallest "
                   "slowdown and speed-up each cell could have been called with by both.\n\n",
                MP_CMP_MIN_EFFECT * 100);
    snprintf(head, sizeof head, "N");
    mp__cmp_head(f, c, head, col);
    for (size_t k = 0; k < nn; k++) {
        fprintf(f, "| %lld |", n[k]);
        for (size_t i = 1; i < c->n; i++) {
            if (!col[i])
                continue;
            mp_cmp_change ch;
            char p[32];
            mp_cmp_change_of(c, i, g, backend, n[k], &ch);
            if (!isfinite(ch.pct))
                fputs(" - |", f);
            else if (isfinite(ch.p))
                fprintf(f, " %+.1f%% (%.3f–%.3f×), %s, %s%s%s; could show %+.1f%% / %+.1f%% |",
                        ch.pct, ch.ratio_lo, ch.ratio_hi, p_text(p, sizeof p, ch.p),
                        ch.significant ? "**" : "", mp_cmp_verdict_name(ch.verdict),
                        ch.significant ? "**" : "", ch.could_up, ch.could_down);
            else {
                fprintf(f, " %+.1f%%, not testable |", ch.pct);
                size_t w = 0;
                while (w < nwhy && strcmp(why[w], ch.why))
                    w++;
                if (w == nwhy && nwhy < MP_CMP_MAX_HOSTS)
                    snprintf(why[nwhy++], sizeof why[0], "%s", ch.why);
            }
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t w = 0; w < nwhy; w++) {
        char r[400];
        fprintf(f, "- not testable: %s\n", mp__cmp_reason(r, sizeof r, why[w], 300));
    }
    if (nwhy)
        fputc('\n', f);
}

void mp_cmp_print_changes(FILE *f, const mp_cmp *c)
{
    mp_cmp_group g[64];
    size_t ng = mp_cmp_groups(c, g, 64), lines = 0;
    if (c->n < 2)
        return;
    for (size_t i = 0; i < c->n; i++) {
        char w[400];
        if (mp__cmp_repeat_warning(&c->h[i], w, sizeof w)[0])
            fprintf(f, "warning: host %zu: %s\n", i + 1, w);
    }
    for (size_t i = 1; i < c->n; i++) {
        mp_cmp_level lvl;
        char t[160];
        mp_cmp_level_of(c, i, &lvl);
        if (lvl.known)
            fprintf(f, "host %zu's level against host 1: %s%s\n", i + 1,
                    mp_cmp_level_text(&lvl, t, sizeof t),
                    lvl.differs ? " (differs: a change it explains is \"host level\", not "
                                  "slower or faster)" : "");
    }
    for (size_t gi = 0; gi < ng && gi < 64; gi++) {
        char be[32][32];
        size_t nb = mp_cmp_backends(c, &g[gi], be, 32);
        for (size_t b = 0; b < nb && b < 32; b++) {
            long long sh[MP_CMP_MAXPTS];
            size_t ns = mp_cmp_shared_n(c, &g[gi], be[b], sh, MP_CMP_MAXPTS);
            for (size_t k = 0; k < ns && k < MP_CMP_MAXPTS; k++)
                for (size_t i = 1; i < c->n; i++) {
                    mp_cmp_change ch;
                    char p[32], r[48];
                    mp_cmp_change_of(c, i, &g[gi], be[b], sh[k], &ch);
                    if (!isfinite(ch.pct))
                        continue;
                    if (!lines++)
                        fprintf(f, "change against host 1 (median; 95%% interval of the ratio "
                                   "and permutation test on the %s medians):\n"
                                   "%-7s %-10s %-13s %8s %5s %8s %-17s %-9s %-13s %s\n",
                                c->h[0].pooled ? "runs'" : "repeat",
                                "mode", "fd kind", "backend", "N", "host", "change",
                                "ratio [95%]", "p", "verdict", "could show");
                    if (isfinite(ch.p))
                        snprintf(r, sizeof r, "%.3f [%.3f-%.3f]", ch.ratio, ch.ratio_lo,
                                 ch.ratio_hi);
                    else
                        snprintf(r, sizeof r, "-");
                    char cs[48] = "-";
                    if (isfinite(ch.could_up) && isfinite(ch.could_down))
                        snprintf(cs, sizeof cs, "%+.1f%% / %+.1f%%", ch.could_up, ch.could_down);
                    fprintf(f, "%-7s %-10.10s %-13.13s %8lld %5zu %+7.1f%% %-17s %-9s %-13s %s\n",
                            g[gi].mode, g[gi].kind, be[b], sh[k], i + 1, ch.pct, r,
                            isfinite(ch.p) ? p_text(p, sizeof p, ch.p) : "-",
                            mp_cmp_verdict_name(ch.verdict), cs);
                }
        }
    }
}

const char *mp__cmp_reason(char *buf, size_t len, const char *reason, size_t max)
{
    char cut[1024];
    size_t n = strlen(reason);
    if (max > sizeof cut - 4)
        max = sizeof cut - 4;
    if (n <= max) {
        snprintf(cut, sizeof cut, "%s", reason);
    } else {
        size_t k = max - 3;
        while (k > 0 && reason[k] != ' ')
            k--;
        while (k > 0 && strchr(" ,;:(", reason[k - 1]))
            k--;
        if (k == 0)   /* one long word: cut it, still marked */
            k = max - 3;
        snprintf(cut, sizeof cut, "%.*s...", (int)k, reason);
    }
    return mp_md_cell(buf, len, cut);
}
