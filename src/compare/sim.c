/* SPDX-License-Identifier: MIT */
/* sim.c - simulated runs (scripts/muxsim.sh, `muxprof sim-import`) side by
 * side in one group (mode, fd kind): each input's cache and TLB model counts
 * per call, per watched fd and per line of the user-space array; where each
 * miss count starts to grow per fd, beside each model's cache sizes; the
 * poll/epoll ratio of each count on each input; a figure per count; and,
 * among the inputs, what the ISA changes (one geometry under two guest ISAs)
 * apart from what the cache sizes change (one ISA under two geometries).
 * Every value is a p50 over the kept calls of a cell; a simulation has no
 * repeats, so nothing here is tested: the counts are exact for the model. */
#include "compare/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/quote.h"
#include "report/fig.h"
#include "report/format.h"
#include "report/series.h"

#define MAXB 16
#define MAXIN MP_CMP_MAX_HOSTS

/* The counts set side by side: metric, its name in tables, whether a count
 * per line of the user-space array means something (misses of data), and
 * whether it has an onset (a count that is 0 while the footprint fits). */
static const struct simcount {
    const char *metric, *label;
    int per_line, onset;
} counts[] = {
    {"sim:instructions", "instructions", 0, 0},
    {"sim:L1d-accesses", "L1d accesses", 0, 0},
    {"sim:L1d-misses", "L1d misses", 1, 0},
    {"sim:L2-misses", "L2 misses", 1, 1},
    {"sim:LLC-load-misses", "LLC-load misses", 1, 1},
    {"sim:dTLB-misses", "dTLB misses", 0, 1},
};
#define NCOUNTS (sizeof counts / sizeof counts[0])

/* A count starts growing per fd at the first N where its p50 reaches one per
 * ONSET_PER_FD watched fds (the report's threshold for poll's L3 claim). */
#define ONSET_PER_FD 0.1
/* Lines in one figure (the line styles of plots/style.gp). */
#define MAXLINES 8

typedef struct simctx {
    const mp_cmp *c;
    const mp_cmp_group *g;
    size_t in[MAXIN];      /* inputs of the group, in order */
    char tag[MAXIN][4];    /* their tags in tables: A, B, C, ... */
    size_t n;
    char be[MAXB][32];
    size_t nb;
} simctx;

static const mp_cmp_host *host(const simctx *s, size_t k)
{
    return &s->c->h[s->in[k]];
}

static double p50(const simctx *s, size_t k, const char *backend, long long n,
                  const char *metric)
{
    const mp_rcell *x = mp_cmp_cell(host(s, k), s->g->mode, s->g->kind, backend, n);
    return x && x->status == MP_CELL_OK ? mp_rm_p50(x, metric) : NAN;
}

static const char *geometry(const mp_cmp_host *h, char *buf, size_t len)
{
    const char *v = mp_rm_text(&h->m, "context.geometry.name", buf, len);
    return v ? v : "";
}

/* Whether any input has the count at all (an older run of QEMU's contrib
 * plugin has no L3, TLB or instructions). */
static int any_count(const simctx *s, const char *metric)
{
    for (size_t k = 0; k < s->n; k++)
        for (size_t b = 0; b < s->nb; b++) {
            const mp_rcell *x[MP_RC_MAXPTS];
            size_t nx = mp_rm_series(&host(s, k)->m, s->g->mode,
                                     mp_cmp_kind(host(s, k), s->g->kind), s->be[b], x,
                                     MP_RC_MAXPTS);
            for (size_t i = 0; i < nx && i < MP_RC_MAXPTS; i++)
                if (x[i]->status == MP_CELL_OK && isfinite(mp_rm_p50(x[i], metric)))
                    return 1;
        }
    return 0;
}

static const char *cnt(char *b, size_t len, double v)
{
    return isfinite(v) ? mp_fmt_num(b, len, v) : "–";
}

/* What input k shows where it has no value: a real run has no simulated
 * counts, a missing or failed cell is not measured. */
static const char *missing(const simctx *s, size_t k, const char *backend, long long n)
{
    const mp_rcell *x = mp_cmp_cell(host(s, k), s->g->mode, s->g->kind, backend, n);
    if (!x || x->status != MP_CELL_OK)
        return "not measured";
    return host(s, k)->m.simulated ? "n/a" : "not simulated (a real run)";
}

static const char *size_text(char *buf, size_t len, unsigned long long bytes)
{
    if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
        snprintf(buf, len, "%llu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%llu KiB", bytes >> 10);
    else
        snprintf(buf, len, "%llu bytes", bytes);
    return buf;
}

static void legend(FILE *f, const simctx *s)
{
    for (size_t k = 0; k < s->n; k++) {
        const mp_cmp_host *h = host(s, k);
        fprintf(f, "- **%s**: %s", s->tag[k], MP_QMD(h->label));
        if (!h->m.simulated) {
            fputs(" (a real run: no simulated counts)\n", f);
            continue;
        }
        for (size_t i = 0; i < h->m.ncaches; i++)
            fprintf(f, "%s%s %s", i ? ", " : ": ", h->m.caches[i].name,
                    size_text((char[32]){0}, 32, h->m.caches[i].bytes));
        char t[64], u[64];
        const char *d = mp_rm_text(&h->m, "context.geometry.dtlb", t, sizeof t);
        const char *l2 = mp_rm_text(&h->m, "context.geometry.l2tlb", u, sizeof u);
        if (d)
            fprintf(f, "; dTLB %s (entries, ways)%s%s", MP_QMD(d), l2 ? ", L2 TLB " : "",
                    l2 ? MP_QMD(l2) : "");
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* One table per count: per call, per fd and (misses of data, backends with
 * a user-space array) per array line, one group of columns per input. */
static void head_count(FILE *f, const simctx *s, const struct simcount *sc)
{
    fprintf(f, "### %s per call (simulated)\n\n| backend | N |", sc->label);
    for (size_t k = 0; k < s->n; k++) {
        fprintf(f, " %s per call | %s per fd |", s->tag[k], s->tag[k]);
        if (sc->per_line)
            fprintf(f, " %s per array line |", s->tag[k]);
    }
    fputs("\n|---|---:|", f);
    for (size_t k = 0; k < s->n; k++)
        fputs(sc->per_line ? "---:|---:|---:|" : "---:|---:|", f);
    fputc('\n', f);
}

static void rows_count(FILE *f, const simctx *s, const struct simcount *sc)
{
    for (size_t b = 0; b < s->nb; b++) {
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(s->c, s->g, s->be[b], sh, MP_CMP_MAXPTS);
        for (size_t i = 0; i < ns; i++) {
            fprintf(f, "| %s | %s |", s->be[b], MP_NUM(sh[i]));
            for (size_t k = 0; k < s->n; k++) {
                double v = p50(s, k, s->be[b], sh[i], sc->metric);
                char a[32], d[32], e[32];
                if (!isfinite(v)) {
                    fprintf(f, " %s | |%s", missing(s, k, s->be[b], sh[i]),
                            sc->per_line ? " |" : "");
                    continue;
                }
                fprintf(f, " %s | %s |", cnt(a, sizeof a, v), cnt(d, sizeof d, v / (double)sh[i]));
                if (sc->per_line) {
                    const mp_rcell *x = mp_cmp_cell(host(s, k), s->g->mode, s->g->kind,
                                                    s->be[b], sh[i]);
                    fprintf(f, " %s |", cnt(e, sizeof e, v / mp_rc_array_lines(&host(s, k)->m,
                                                                                x, s->be[b])));
                }
            }
            fputc('\n', f);
        }
    }
    fputc('\n', f);
}

/* A table head: the first columns, then one per input by its tag. */
static void tag_head(FILE *f, const simctx *s, const char *first, const char *rule,
                     const char *align)
{
    fputs(first, f);
    for (size_t k = 0; k < s->n; k++)
        fprintf(f, " %s |", s->tag[k]);
    fprintf(f, "\n%s", rule);
    for (size_t k = 0; k < s->n; k++)
        fputs(align, f);
    fputc('\n', f);
}

/* Where a count starts growing per fd on one input and backend, as text. */
static void onset_text(char *buf, size_t len, const simctx *s, size_t k, const char *backend,
                       const char *metric)
{
    const mp_cmp_host *h = host(s, k);
    double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
    size_t n = h->m.simulated ? mp_rc_points(&h->m, s->g->mode, mp_cmp_kind(h, s->g->kind),
                                             backend, metric, x, y, MP_RC_MAXPTS) : 0;
    if (n == 0) {
        snprintf(buf, len, "%s", h->m.simulated ? "not measured" : "not simulated");
        return;
    }
    size_t i = 0;
    while (i < n && !(y[i] / x[i] >= ONSET_PER_FD))
        i++;
    char a[32], b[32], c[32];
    if (i == n)
        snprintf(buf, len, "none up to %s (%s per fd there)", mp_fmt_num(a, sizeof a, x[n - 1]),
                 mp_fmt_num(b, sizeof b, y[n - 1] / x[n - 1]));
    else if (i == 0)
        snprintf(buf, len, "at every N, from %s (%s per fd)", mp_fmt_num(a, sizeof a, x[0]),
                 mp_fmt_num(b, sizeof b, y[0] / x[0]));
    else
        snprintf(buf, len, "between %s (%s per fd) and %s (%s per fd)",
                 mp_fmt_num(a, sizeof a, x[i - 1]), mp_fmt_num(b, sizeof b, y[i - 1] / x[i - 1]),
                 MP_NUM(x[i]), mp_fmt_num(c, sizeof c, y[i] / x[i]));
}

static void onsets(FILE *f, const simctx *s)
{
    fprintf(f, "### Where each miss count starts growing per fd\n\n"
               "The first N at which the count reaches one per %.0f watched fds (the report's "
               "threshold for poll's L3 claim), and the N before it; each input's cache sizes "
               "are in the list above.\n\n", 1 / ONSET_PER_FD);
    tag_head(f, s, "| backend | count |", "|---|---|", "---|");
    for (size_t b = 0; b < s->nb; b++)
        for (size_t m = 0; m < NCOUNTS; m++) {
            if (!counts[m].onset || !any_count(s, counts[m].metric))
                continue;
            fprintf(f, "| %s | %s |", s->be[b], counts[m].label);
            for (size_t k = 0; k < s->n; k++) {
                char t[200];
                onset_text(t, sizeof t, s, k, s->be[b], counts[m].metric);
                fprintf(f, " %s |", t);
            }
            fputc('\n', f);
        }
    fputc('\n', f);
}

/* b / a as text: "1.14x", "=" for two zeros, "0 -> 35" from nothing. */
static const char *ratio_text(char *buf, size_t len, double a, double b)
{
    char x[32], y[32];
    if (!isfinite(a) || !isfinite(b))
        snprintf(buf, len, "–");
    else if (a == 0 && b == 0)
        snprintf(buf, len, "0 both");
    else if (a == 0)
        snprintf(buf, len, "0 → %s", mp_fmt_num(y, sizeof y, b));
    else if (b == 0)
        snprintf(buf, len, "%s → 0", mp_fmt_num(x, sizeof x, a));
    else
        snprintf(buf, len, "%s×", mp_fmt_num(x, sizeof x, b / a));
    return buf;
}

static void poll_epoll(FILE *f, const simctx *s)
{
    int epoll = 0;
    for (size_t b = 0; b < s->nb; b++)
        epoll |= !strcmp(s->be[b], "epoll");
    if (!epoll)
        return;
    for (size_t b = 0; b < s->nb; b++) {
        if (!strcmp(s->be[b], "epoll"))
            continue;
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(s->c, s->g, s->be[b], sh, MP_CMP_MAXPTS);
        if (!ns)
            continue;
        fprintf(f, "### %s / epoll on the same input (simulated counts per call)\n\n",
                s->be[b]);
        tag_head(f, s, "| count | N |", "|---|---:|", "---:|");
        for (size_t m = 0; m < NCOUNTS; m++) {
            if (!any_count(s, counts[m].metric))
                continue;
            for (size_t i = 0; i < ns; i++) {
                fprintf(f, "| %s | %s |", counts[m].label, MP_NUM(sh[i]));
                for (size_t k = 0; k < s->n; k++) {
                    char t[64];
                    double e = p50(s, k, "epoll", sh[i], counts[m].metric);
                    double v = p50(s, k, s->be[b], sh[i], counts[m].metric);
                    if (isfinite(e) && e == 0 && isfinite(v) && v > 0)
                        snprintf(t, sizeof t, "%s (epoll 0)", MP_NUM(v));
                    else
                        ratio_text(t, sizeof t, e, v);
                    fprintf(f, " %s |", t);
                }
                fputc('\n', f);
            }
        }
        fputc('\n', f);
    }
}

/* Ratios of every count, input y over input x, at the N both have. */
static void pair_table(FILE *f, const simctx *s, size_t x, size_t y)
{
    fputs("| backend | N |", f);
    for (size_t m = 0; m < NCOUNTS; m++)
        if (any_count(s, counts[m].metric))
            fprintf(f, " %s |", counts[m].label);
    fputs("\n|---|---:|", f);
    for (size_t m = 0; m < NCOUNTS; m++)
        if (any_count(s, counts[m].metric))
            fputs("---:|", f);
    fputc('\n', f);
    for (size_t b = 0; b < s->nb; b++) {
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(s->c, s->g, s->be[b], sh, MP_CMP_MAXPTS);
        for (size_t i = 0; i < ns; i++) {
            if (!isfinite(p50(s, x, s->be[b], sh[i], "sim:L1d-misses")) ||
                !isfinite(p50(s, y, s->be[b], sh[i], "sim:L1d-misses")))
                continue;
            fprintf(f, "| %s | %s |", s->be[b], MP_NUM(sh[i]));
            for (size_t m = 0; m < NCOUNTS; m++) {
                if (!any_count(s, counts[m].metric))
                    continue;
                char t[64];
                fprintf(f, " %s |", ratio_text(t, sizeof t, p50(s, x, s->be[b], sh[i],
                                                                counts[m].metric),
                                               p50(s, y, s->be[b], sh[i], counts[m].metric)));
            }
            fputc('\n', f);
        }
    }
    fputc('\n', f);
}

/* b against a, taken apart through m: m has a's geometry and b's ISA
 * (isa_first: b / a = m / a, the ISA, times b / m, the cache sizes) or b's
 * geometry and a's ISA (b / a = m / a, the cache sizes, times b / m, the ISA). */
static void decomposed(FILE *f, const simctx *s, size_t a, size_t b, size_t m, int isa_first)
{
    const char *ta = s->tag[a], *tb = s->tag[b], *tm = s->tag[m];
    fprintf(f, "**%s against %s, taken apart** through %s (%s's geometry under %s's ISA): "
               "%s / %s = (%s / %s, %s) × (%s / %s, %s)\n\n"
               "| backend | N | count | %s | %s | %s / %s | the ISA | the cache sizes |\n"
               "|---|---:|---|---:|---:|---:|---:|---:|\n",
            tb, ta, tm, isa_first ? ta : tb, isa_first ? tb : ta, tb, ta, tm, ta,
            isa_first ? "the ISA" : "the cache sizes", tb, tm,
            isa_first ? "the cache sizes" : "the ISA", ta, tb, tb, ta);
    for (size_t q = 0; q < s->nb; q++) {
        long long sh[MP_CMP_MAXPTS];
        size_t ns = mp_cmp_shared_n(s->c, s->g, s->be[q], sh, MP_CMP_MAXPTS);
        for (size_t i = 0; i < ns; i++)
            for (size_t k = 0; k < NCOUNTS; k++) {
                const char *mt = counts[k].metric;
                double va = p50(s, a, s->be[q], sh[i], mt);
                double vb = p50(s, b, s->be[q], sh[i], mt);
                double vm = p50(s, m, s->be[q], sh[i], mt);
                if (!isfinite(va) || !isfinite(vb) || !isfinite(vm) ||
                    (va == 0 && vb == 0 && vm == 0))
                    continue;
                char t1[64], t2[64], t3[64], n1[32], n2[32];
                ratio_text(t2, sizeof t2, va, vm);   /* the first step */
                ratio_text(t3, sizeof t3, vm, vb);   /* the second */
                fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", s->be[q],
                        MP_NUM(sh[i]), counts[k].label, cnt(n1, sizeof n1, va),
                        cnt(n2, sizeof n2, vb), ratio_text(t1, sizeof t1, va, vb),
                        isa_first ? t2 : t3, isa_first ? t3 : t2);
            }
    }
    fputc('\n', f);
}

/* The ISA apart from the cache sizes: pairs of simulated inputs that differ
 * in one of the two only, then each input pair that differs in both, taken
 * apart through a third input that shares one with each. */
static void isa_and_caches(FILE *f, const simctx *s)
{
    char ga[MAXIN][64];
    for (size_t k = 0; k < s->n; k++)
        geometry(host(s, k), ga[k], sizeof ga[k]);
    int said = 0;
    for (size_t x = 0; x < s->n; x++)
        for (size_t y = x + 1; y < s->n; y++) {
            const mp_cmp_host *hx = host(s, x), *hy = host(s, y);
            if (!hx->m.simulated || !hy->m.simulated || !ga[x][0] || !ga[y][0])
                continue;
            int same_g = !strcmp(ga[x], ga[y]), same_isa = !strcmp(hx->m.arch, hy->m.arch);
            if (same_g == same_isa)
                continue;
            if (!said++)
                fprintf(f, "### What the ISA changes and what the cache sizes change\n\n"
                           "Each count's ratio at the same N, between two inputs that differ "
                           "in one thing only.  The same geometry under two ISAs: the caches "
                           "are the same, so what differs is the code (the instructions of the "
                           "C library and kernel paths, the kernel's data layout, the lines "
                           "each fd touches).  The same ISA under two geometries: the code is "
                           "the same, so instructions and L1d accesses agree and the misses "
                           "differ by the cache and TLB sizes alone.\n\n");
            if (same_g)
                fprintf(f, "**The ISA** (geometry %s): %s (%s) against %s (%s), %s / %s:\n\n",
                        MP_QMD(ga[x]), s->tag[y], MP_QMD(mp_rm_guest_isa(&hy->m)), s->tag[x],
                        MP_QMD(mp_rm_guest_isa(&hx->m)), s->tag[y], s->tag[x]);
            else
                fprintf(f, "**The cache sizes** (ISA %s): %s (%s) against %s (%s), %s / %s:\n\n",
                        MP_QMD(mp_rm_guest_isa(&hx->m)), s->tag[y], MP_QMD(ga[y]), s->tag[x], MP_QMD(ga[x]),
                        s->tag[y], s->tag[x]);
            pair_table(f, s, x, y);
        }
    /* a, b differ in both; m shares the geometry of one and the ISA of the other:
     * b / a = (the ISA's ratio) x (the cache sizes' ratio), in one order or the other */
    for (size_t a = 0; a < s->n; a++)
        for (size_t b = a + 1; b < s->n; b++) {
            const mp_cmp_host *ha = host(s, a), *hb = host(s, b);
            if (!ha->m.simulated || !hb->m.simulated || !ga[a][0] || !ga[b][0] ||
                !strcmp(ga[a], ga[b]) || !strcmp(ha->m.arch, hb->m.arch))
                continue;
            size_t found = 0;
            for (size_t m = 0; m < s->n; m++) {
                const mp_cmp_host *hm = host(s, m);
                if (m == a || m == b || !hm->m.simulated)
                    continue;
                int isa_first = !strcmp(ga[m], ga[a]) && !strcmp(hm->m.arch, hb->m.arch);
                int caches_first = !strcmp(ga[m], ga[b]) && !strcmp(hm->m.arch, ha->m.arch);
                if (!isa_first && !caches_first)
                    continue;
                found++;
                decomposed(f, s, a, b, m, isa_first);
            }
            if (found)
                continue;
            if (!said++)
                fprintf(f, "### What the ISA changes and what the cache sizes change\n\n");
            fprintf(f, "%s and %s differ in both the ISA and the cache sizes, and no input "
                       "shares the geometry of one and the ISA of the other: their difference "
                       "mixes the two.  `scripts/muxsim.sh --geometry A,B` (two geometries of "
                       "different ISAs) adds the boot that takes it apart: A's geometry under "
                       "B's ISA.\n\n", s->tag[a], s->tag[b]);
        }
}

/* figures/cmp_sim_MODE_KIND_COUNT_BACKEND_hI.dat, the points with a positive
 * p50 (a log axis shows no zero; the others are left out); *npos: how many. */
static int write_series(mp__cmp_figs *fg, const simctx *s, size_t k, const char *backend,
                        const struct simcount *sc, const char *fig, size_t *npos, size_t *nok,
                        mp_err *err)
{
    const mp_cmp_host *h = host(s, k);
    char name[256];
    snprintf(name, sizeof name, "%s_%s_h%zu.dat", fig, backend, s->in[k] + 1);
    mp_afile a;
    int rc = mp_afile_open(&a, &fg->dir, name, err);
    if (rc)
        return rc;
    fprintf(a.f, "# muxprof compare: %s; %s mode, %s fds, backend %s, %s per call "
                 "(simulated: p50, p10 and p90 of the kept calls; an N whose count is 0 "
                 "is left out)\n"
                 "nfds p50 p10 p90\n", MP_QCOMMENT(h->label), s->g->mode, s->g->kind, backend,
            sc->label);
    const mp_rcell *x[MP_RC_MAXPTS];
    size_t n = mp_rm_series(&h->m, s->g->mode, mp_cmp_kind(h, s->g->kind), backend, x,
                            MP_RC_MAXPTS);
    *npos = *nok = 0;
    for (size_t i = 0; i < n && i < MP_RC_MAXPTS; i++) {
        const mp_rsum *v = mp_rm_sum(x[i], sc->metric);
        *nok += v != NULL;
        if (!v || !(v->p50 > 0))
            continue;
        fprintf(a.f, "%lld %.10g %.10g %.10g\n", x[i]->nfds, v->p50,
                v->p10 > 0 ? v->p10 : v->p50, v->p90 > 0 ? v->p90 : v->p50);
        (*npos)++;
    }
    return mp_afile_commit(&a, err);
}

static int figure(FILE *f, mp__cmp_figs *fg, const simctx *s, const struct simcount *sc,
                  mp_err *err)
{
    char fig[160], files[1024] = "", vars[MP_RFIG_VARS];
    snprintf(fig, sizeof fig, "cmp_sim_%s_%s_%s", s->g->mode, s->g->kind, sc->metric + 4);
    size_t o = 0, lines = 0, zero = 0, over = 0;
    for (size_t b = 0; b < s->nb; b++)
        for (size_t k = 0; k < s->n; k++) {
            if (!host(s, k)->m.simulated)
                continue;
            size_t npos, nok;
            int rc = write_series(fg, s, k, s->be[b], sc, fig, &npos, &nok, err);
            if (rc)
                return rc;
            zero += nok && !npos;
            over += npos && lines >= MAXLINES;
            if (!npos || lines >= MAXLINES)
                continue;
            lines++;
            snprintf(files + strlen(files), sizeof files - strlen(files), "%s%s_%s_h%zu.dat",
                     files[0] ? " " : "", fig, s->be[b], s->in[k] + 1);
            char t[320];
            snprintf(t, sizeof t, "%s, %s: %s", s->be[b], s->tag[k], host(s, k)->label);
            o += (size_t)snprintf(vars + o, sizeof vars - o, "t%zu = %s\n", lines, MP_QGP(t));
            if (o >= sizeof vars)
                return mp_errf(err, -ENAMETOOLONG, "figure %s: its titles are too long", fig);
        }
    if (!lines)
        return 0;
    char ttl[200], cap[300], ylab[120];
    snprintf(ttl, sizeof ttl, "%s per call vs N (simulated), %.15s mode, %.31s fds: one line "
             "per backend and input", sc->label, s->g->mode, s->g->kind);
    char more[80] = "";
    if (over)
        snprintf(more, sizeof more, "; %zu more series in the data files, not drawn", over);
    snprintf(cap, sizeof cap, "%s%s%s", ttl, zero ? " (a series of zeros has no line on a log "
             "axis)" : "", more);
    snprintf(ylab, sizeof ylab, "%s per call (simulated): p50, p10..p90", sc->label);
    o += (size_t)snprintf(vars + o, sizeof vars - o, "files = %s\nylab = %s\nttl = %s\n",
                          MP_QGP(files), MP_QGP(ylab), MP_QGP(ttl));
    if (o >= sizeof vars)
        return mp_errf(err, -ENAMETOOLONG, "figure %s: its titles are too long", fig);
    return mp__cmp_draw(f, fg, s->c, fig, cap, "compare_sim.gp", vars, err);
}

int mp__cmp_sim(FILE *f, mp__cmp_figs *fg, const mp_cmp *c, const mp_cmp_group *g, mp_err *err)
{
    simctx s = {.c = c, .g = g};
    size_t nsim = 0;
    for (size_t i = 0; i < c->n && s.n < MAXIN; i++) {
        if (!mp_cmp_kind(&c->h[i], g->kind))
            continue;
        snprintf(s.tag[s.n], sizeof s.tag[s.n], "%c", (char)('A' + s.n));
        s.in[s.n++] = i;
        nsim += c->h[i].m.simulated;
    }
    if (!nsim)
        return 0;
    s.nb = mp_cmp_backends(c, g, s.be, MAXB);
    if (s.nb > MAXB)
        s.nb = MAXB;
    fprintf(f, "### Simulated counts side by side\n\nThe counts of each input's cache and TLB "
               "model (user + kernel, p50 of the kept calls of a cell; exact for the model, "
               "no repeats, so nothing here is tested).  The inputs:\n\n");
    legend(f, &s);
    for (size_t m = 0; m < NCOUNTS; m++) {
        if (!any_count(&s, counts[m].metric))
            continue;
        head_count(f, &s, &counts[m]);
        rows_count(f, &s, &counts[m]);
    }
    onsets(f, &s);
    poll_epoll(f, &s);
    isa_and_caches(f, &s);
    for (size_t m = 0; m < NCOUNTS; m++) {
        if (!any_count(&s, counts[m].metric) || !strcmp(counts[m].metric, "sim:L1d-accesses"))
            continue;
        int rc = figure(f, fg, &s, &counts[m], err);
        if (rc)
            return rc;
    }
    return 0;
}

cJSON *mp__cmp_sim_json(const mp_cmp *c, const mp_cmp_group *g, const char *backend, long long n)
{
    size_t nsim = 0;
    for (size_t i = 0; i < c->n; i++)
        nsim += c->h[i].m.simulated;
    if (!nsim)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    for (size_t m = 0; o && m < NCOUNTS; m++) {
        cJSON *arr = cJSON_AddArrayToObject(o, counts[m].metric);
        int any = 0;
        for (size_t i = 0; arr && i < c->n; i++) {
            const mp_rcell *x = mp_cmp_cell(&c->h[i], g->mode, g->kind, backend, n);
            double v = x && x->status == MP_CELL_OK && c->h[i].m.simulated
                           ? mp_rm_p50(x, counts[m].metric) : NAN;
            any |= isfinite(v);
            cJSON_AddItemToArray(arr, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
        }
        if (!any)
            cJSON_DeleteItemFromObjectCaseSensitive(o, counts[m].metric);
    }
    return o;
}
