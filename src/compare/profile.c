/* SPDX-License-Identifier: MIT */
/* profile.c - the kernel-profile part of the comparison report: phase
 * shares per host, a table per mode, fd kind, backend and N.  A host that
 * lacks a profile is marked in its column, never dropped silently. */
#include "compare/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/quote.h"
#include "report/format.h"

#define MAXPH 16

static int has_profiles(const mp_cmp_host *h)
{
    for (size_t i = 0; i < h->m.ncells; i++)
        if (h->m.cells[i].profile)
            return 1;
    return 0;
}

/* Why host h has no phase shares for cell x (NULL: it has them). */
static const char *no_profile(const mp_cmp_host *h, const mp_rcell *x, char *b, size_t len)
{
    if (!x)
        return "not measured";
    if (x->status != MP_CELL_OK)
        return x->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error";
    if (h->reference)
        return "not published";
    const mp_rprofile *p = mp_rm_profile(&h->m, x);
    if (!p)
        return has_profiles(h) ? "**no profile** for this cell"
                               : "**no profile** (run without --profile)";
    if (!p->nphases) {
        char r[400];
        snprintf(b, len, "**no phases**: %s", mp__cmp_reason(r, sizeof r,
                 p->symbols ? p->symbols : p->reason ? p->reason : "no kernel symbols", 150));
        return b;
    }
    return NULL;
}

static void share_text(char *b, size_t len, const mp_rprof_entry *e)
{
    char n[32];
    double s = e->share, ns = e->ns_per_call;
    if (!isfinite(s))
        snprintf(b, len, "n/a");
    else if (isfinite(ns))
        snprintf(b, len, "%.1f%% (%s ns)", s * 100, mp_fmt_num(n, sizeof n, ns));
    else
        snprintf(b, len, "%.1f%%", s * 100);
}

void mp__cmp_profiles(FILE *f, const mp_cmp *c)
{
    size_t with = 0;
    for (size_t i = 0; i < c->n; i++)
        with += has_profiles(&c->h[i]);
    if (!with)
        return;
    fprintf(f, "## Kernel profiles side by side\n\n");
    if (with < 2) {
        for (size_t i = 0; i < c->n; i++)
            if (has_profiles(&c->h[i]))
                fprintf(f, "Only %s carries kernel profiles (`muxprof run --profile`), so "
                           "there is nothing to set beside them:", MP_QMD(c->h[i].label));
        for (size_t i = 0; i < c->n; i++)
            if (!has_profiles(&c->h[i]))
                fprintf(f, " %s: %s;", MP_QMD(c->h[i].label), c->h[i].reference ? "not published"
                        : "**no profile** (run without --profile)");
        fprintf(f, "\n\n");
        return;
    }
    fprintf(f, "Phase shares of the profile samples taken inside the calls (docs/profile.md), "
               "with the ns per call they stand for (share x that host's wall p50), for every "
               "cell that at least two hosts profiled. A phase a host's phase file does not "
               "have is `-`. Samples taken between calls (the harness) are left out and "
               "counted; files written before that have them in the shares and say \"not "
               "separated\".\n\n");
    mp_cmp_group g[64];
    size_t ng = mp_cmp_groups(c, g, 64), tables = 0;
    for (size_t gi = 0; gi < ng && gi < 64; gi++) {
        char be[16][32];
        size_t nb = mp_cmp_backends(c, &g[gi], be, 16);
        for (size_t b = 0; b < nb && b < 16; b++) {
            long long ns[MP_CMP_MAXPTS];
            size_t nn = mp_cmp_shared_n(c, &g[gi], be[b], ns, MP_CMP_MAXPTS);
            for (size_t k = 0; k < nn; k++) {
                const mp_rcell *x[MP_CMP_MAX_HOSTS] = {0};
                int col[MP_CMP_MAX_HOSTS] = {0};
                size_t prof = 0;
                char why[256];
                for (size_t h = 0; h < c->n && h < MP_CMP_MAX_HOSTS; h++) {
                    col[h] = mp_cmp_kind(&c->h[h], g[gi].kind) != NULL;
                    x[h] = mp_cmp_cell(&c->h[h], g[gi].mode, g[gi].kind, be[b], ns[k]);
                    prof += col[h] && !no_profile(&c->h[h], x[h], why, sizeof why);
                }
                if (prof == 1) {   /* plainly say who lacks it */
                    fprintf(f, "- %s, %s mode, %s fds, N=%lld: profiled on ", be[b], g[gi].mode,
                            g[gi].kind, ns[k]);
                    for (size_t h = 0; h < c->n; h++)
                        if (col[h] && !no_profile(&c->h[h], x[h], why, sizeof why))
                            fprintf(f, "%s only", MP_QMD(c->h[h].label));
                    for (size_t h = 0; h < c->n; h++) {
                        const char *w = col[h] ? no_profile(&c->h[h], x[h], why, sizeof why)
                                               : NULL;
                        if (w)
                            fprintf(f, "; %s: %s", MP_QMD(c->h[h].label), w);
                    }
                    fputs(".\n\n", f);
                }
                if (prof < 2)
                    continue;
                char names[MAXPH][64];
                size_t nph = 0;
                for (size_t h = 0; h < c->n; h++) {
                    if (!col[h] || no_profile(&c->h[h], x[h], why, sizeof why))
                        continue;
                    const mp_rprofile *pr = mp_rm_profile(&c->h[h].m, x[h]);
                    for (size_t e = 0; e < pr->nphases; e++) {
                        const char *p = pr->phases[e].name;
                        size_t q = 0;
                        while (q < nph && strcmp(names[q], p))
                            q++;
                        if (q == nph && nph < MAXPH)
                            snprintf(names[nph++], sizeof names[0], "%s", p);
                    }
                }
                fprintf(f, "### %s, %s mode, %s fds, N=%lld: phase shares\n\n", be[b],
                        g[gi].mode, g[gi].kind, ns[k]);
                mp__cmp_head(f, c, "phase", col);
                char t[256], cell[200];
                for (int row = -3; row < (int)nph; row++) {
                    if (row == -3)
                        fprintf(f, "| samples (event) |");
                    else if (row == -2)
                        fprintf(f, "| samples outside the calls |");
                    else if (row == -1)
                        fprintf(f, "| user space |");
                    else
                        fprintf(f, "| %s |", mp_md_cell(cell, sizeof cell, names[row]));
                    for (size_t h = 0; h < c->n; h++) {
                        if (!col[h])
                            continue;
                        const char *w = no_profile(&c->h[h], x[h], why, sizeof why);
                        if (w) {
                            fprintf(f, " %s |", row == -3 ? w : "");
                            continue;
                        }
                        const mp_rprofile *p = mp_rm_profile(&c->h[h].m, x[h]);
                        if (row == -3) {
                            double s = p->samples >= 0 ? (double)p->samples : NAN;
                            char sn[32];
                            fprintf(f, " %s (%s) |", mp_fmt_num(sn, sizeof sn, s),
                                    mp_md_cell(cell, sizeof cell, p->event ? p->event : "?"));
                        } else if (row == -2) {
                            fprintf(f, " %s |", mp_fmt_outside_calls(t, sizeof t, p));
                        } else if (row == -1) {
                            double u = p->user_share;
                            if (isfinite(u))
                                fprintf(f, " %.1f%% |", u * 100);
                            else
                                fputs(" n/a |", f);
                        } else {
                            const mp_rprof_entry *hit = NULL;
                            for (size_t e = 0; e < p->nphases; e++)   /* the last of that name */
                                if (!strcmp(p->phases[e].name, names[row]))
                                    hit = &p->phases[e];
                            if (hit)
                                share_text(t, sizeof t, hit);
                            fprintf(f, " %s |", hit ? t : "-");
                        }
                    }
                    fputc('\n', f);
                }
                fputc('\n', f);
                tables++;
            }
        }
    }
    if (!tables)
        fprintf(f, "No cell was profiled by two hosts.\n\n");
    /* hosts without any profile */
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!has_profiles(&c->h[i])) {
            fprintf(f, "- %s: %s.\n", MP_QMD(c->h[i].label), c->h[i].reference ? "not published"
                    : "**no profile** (run without --profile)");
            any = 1;
        }
    if (any)
        fputc('\n', f);
}
