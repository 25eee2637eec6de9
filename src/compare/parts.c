/* compare_more.c - the sections of the comparison report beyond time per
 * call: kernel profiles (phase shares per host, a table per mode, fd kind,
 * backend and N), the K-of-N cells (active > 1) the hosts share, and the
 * experiments (register, herd, ltet) side by side.  A host that lacks what
 * another has is marked in its column, never dropped silently.  See
 * compare.h. */
#include "compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "report/util.h"

#define MAXPH 16

static void head(FILE *f, const mp_cmp *c, const char *first, const int *col)
{
    char b[256];
    fprintf(f, "| %s |", first);
    for (size_t i = 0; i < c->n; i++)
        if (!col || col[i])
            fprintf(f, " %s |", mp_md_cell(b, sizeof b, c->h[i].label));
    fprintf(f, "\n|---|");
    for (size_t i = 0; i < c->n; i++)
        if (!col || col[i])
            fputs("---:|", f);
    fputc('\n', f);
}

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
    if (x->status != MP_RC_OK)
        return x->status == MP_RC_UNSUPPORTED ? "unsupported" : "error";
    if (h->reference)
        return "not published";
    if (!x->profile)
        return has_profiles(h) ? "**no profile** for this cell"
                               : "**no profile** (run without --profile)";
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(x->profile, "phases")) <= 0) {
        char r[200];
        snprintf(b, len, "**no phases**: %.150s", mp_md_cell(r, sizeof r,
                 mp_json_str(x->profile, "symbols", mp_json_str(x->profile, "reason", "no kernel symbols"))));
        return b;
    }
    return NULL;
}

static void share_text(char *b, size_t len, const cJSON *e)
{
    char n[32];
    double s = mp_json_num(e, "share", NAN), ns = mp_json_num(e, "ns_per_call", NAN);
    if (!isfinite(s))
        snprintf(b, len, "n/a");
    else if (isfinite(ns))
        snprintf(b, len, "%.1f%% (%s ns)", s * 100, mp_fmt_num(n, sizeof n, ns));
    else
        snprintf(b, len, "%.1f%%", s * 100);
}

static void profiles(FILE *f, const mp_cmp *c)
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
                           "there is nothing to set beside them:", c->h[i].label);
        for (size_t i = 0; i < c->n; i++)
            if (!has_profiles(&c->h[i]))
                fprintf(f, " %s: %s;", c->h[i].label, c->h[i].reference ? "not published"
                        : "**no profile** (run without --profile)");
        fprintf(f, "\n\n");
        return;
    }
    fprintf(f, "Phase shares of the waiter's profile samples (docs/profile.md), with the ns per "
               "call they stand for (share x that host's wall p50), for every cell that at "
               "least two hosts profiled. A phase a host's phase file does not have is `-`.\n\n");
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
                            fprintf(f, "%s only", c->h[h].label);
                    for (size_t h = 0; h < c->n; h++) {
                        const char *w = col[h] ? no_profile(&c->h[h], x[h], why, sizeof why)
                                               : NULL;
                        if (w)
                            fprintf(f, "; %s: %s", c->h[h].label, w);
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
                    const cJSON *e;
                    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(x[h]->profile,
                                                                            "phases")) {
                        const char *p = mp_json_str(e, "phase", "?");
                        size_t q = 0;
                        while (q < nph && strcmp(names[q], p))
                            q++;
                        if (q == nph && nph < MAXPH)
                            snprintf(names[nph++], sizeof names[0], "%s", p);
                    }
                }
                fprintf(f, "### %s, %s mode, %s fds, N=%lld: phase shares\n\n", be[b],
                        g[gi].mode, g[gi].kind, ns[k]);
                head(f, c, "phase", col);
                char t[256], cell[200];
                for (int row = -2; row < (int)nph; row++) {
                    if (row == -2)
                        fprintf(f, "| samples (event) |");
                    else if (row == -1)
                        fprintf(f, "| user space |");
                    else
                        fprintf(f, "| %s |", mp_md_cell(cell, sizeof cell, names[row]));
                    for (size_t h = 0; h < c->n; h++) {
                        if (!col[h])
                            continue;
                        const char *w = no_profile(&c->h[h], x[h], why, sizeof why);
                        if (w) {
                            fprintf(f, " %s |", row == -2 ? w : "");
                            continue;
                        }
                        const cJSON *p = x[h]->profile;
                        if (row == -2) {
                            double s = mp_json_num(p, "samples", NAN);
                            fprintf(f, " %.0f (%s) |", isfinite(s) ? s : 0.0,
                                    mp_md_cell(cell, sizeof cell, mp_json_str(p, "event", "?")));
                        } else if (row == -1) {
                            double u = mp_json_num(p, "user_share", NAN);
                            if (isfinite(u))
                                fprintf(f, " %.1f%% |", u * 100);
                            else
                                fputs(" n/a |", f);
                        } else {
                            const cJSON *e, *hit = NULL;
                            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(p, "phases"))
                                if (!strcmp(mp_json_str(e, "phase", "?"), names[row]))
                                    hit = e;
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
            fprintf(f, "- %s: %s.\n", c->h[i].label, c->h[i].reference ? "not published"
                    : "**no profile** (run without --profile)");
            any = 1;
        }
    if (any)
        fputc('\n', f);
}

/* ---- K of N ---------------------------------------------------------- */

static const mp_rcell *kcell(const mp_cmp_host *h, const char *mode, const char *kind,
                             const char *backend, long long nfds, long long k)
{
    const char *kk = mp_cmp_kind(h, kind);
    for (size_t i = 0; kk && i < h->m.nkcells; i++) {
        const mp_rcell *x = &h->m.kcells[i];
        if (x->nfds == nfds && x->active == k && !strcmp(x->mode, mode) &&
            !strcmp(x->fd_kind, kk) && !strcmp(x->backend, backend))
            return x;
    }
    return NULL;
}

static void cell_p50(char *b, size_t len, const mp_rcell *x)
{
    char n[32];
    if (!x)
        snprintf(b, len, "not measured");
    else if (x->status == MP_RC_OK)
        snprintf(b, len, "%s", mp_fmt_num(n, sizeof n, x->wall.p50));
    else
        snprintf(b, len, "%s", x->status == MP_RC_UNSUPPORTED ? "unsupported" : "error");
}

static void kofn(FILE *f, const mp_cmp *c)
{
    size_t with = 0;
    for (size_t i = 0; i < c->n; i++)
        with += c->h[i].m.nkcells > 0;
    if (!with)
        return;
    fprintf(f, "## K of N ready side by side\n\n");
    if (with < 2) {
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, "- %s: %s\n", c->h[i].label, c->h[i].m.nkcells
                    ? "has K-of-N cells (`--active`); no other input has any"
                    : "**no K-of-N cells** (run without --active)");
        fputc('\n', f);
        return;
    }
    fprintf(f, "Median ns per call with K of the N watched descriptors ready at once, for the "
               "(mode, fd kind, backend, N, K) that at least two hosts measured.\n\n");
    /* distinct (mode, kind, backend) of every host's K cells, first seen */
    char seen[64][3][32];
    size_t ns = 0, tables = 0;
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < c->h[i].m.nkcells && ns < 64; j++) {
            const mp_rcell *x = &c->h[i].m.kcells[j];
            size_t q = 0;
            while (q < ns && (strcmp(seen[q][0], x->mode) || strcmp(seen[q][1], x->fd_kind) ||
                              strcmp(seen[q][2], x->backend)))
                q++;
            if (q == ns) {
                snprintf(seen[ns][0], 32, "%s", x->mode);
                snprintf(seen[ns][1], 32, "%s", x->fd_kind);
                snprintf(seen[ns][2], 32, "%s", x->backend);
                ns++;
            }
        }
    for (size_t s = 0; s < ns; s++) {
        /* sorted distinct (N, K) of this series over all hosts */
        long long key[256][2];
        size_t nk = 0;
        for (size_t i = 0; i < c->n; i++) {
            const char *kk = mp_cmp_kind(&c->h[i], seen[s][1]);
            for (size_t j = 0; kk && j < c->h[i].m.nkcells; j++) {
                const mp_rcell *x = &c->h[i].m.kcells[j];
                if (strcmp(x->mode, seen[s][0]) || strcmp(x->fd_kind, kk) ||
                    strcmp(x->backend, seen[s][2]))
                    continue;
                size_t q = 0;
                while (q < nk && (key[q][0] != x->nfds || key[q][1] != x->active))
                    q++;
                if (q < nk || nk >= 256)
                    continue;
                q = nk++;
                while (q > 0 && (key[q - 1][0] > x->nfds ||
                                 (key[q - 1][0] == x->nfds && key[q - 1][1] > x->active))) {
                    key[q][0] = key[q - 1][0];
                    key[q][1] = key[q - 1][1];
                    q--;
                }
                key[q][0] = x->nfds;
                key[q][1] = x->active;
            }
        }
        int col[MP_CMP_MAX_HOSTS] = {0}, header = 0;
        for (size_t h = 0; h < c->n && h < MP_CMP_MAX_HOSTS; h++)
            col[h] = mp_cmp_kind(&c->h[h], seen[s][1]) != NULL;
        char alone[MP_CMP_MAX_HOSTS][256];
        memset(alone, 0, sizeof alone);
        for (size_t q = 0; q < nk; q++) {
            size_t have = 0, ok = 0, who = 0;
            for (size_t h = 0; h < c->n; h++) {
                const mp_rcell *x = kcell(&c->h[h], seen[s][0], seen[s][1], seen[s][2],
                                          key[q][0], key[q][1]);
                if (x) {
                    have++;
                    who = h;
                }
                ok += x && x->status == MP_RC_OK;
            }
            if (have == 1 && ok && who < MP_CMP_MAX_HOSTS) {
                size_t l = strlen(alone[who]);
                if (l + 40 < sizeof alone[0])
                    snprintf(alone[who] + l, sizeof alone[0] - l, "%s(N=%lld, K=%lld)",
                             l ? ", " : "", key[q][0], key[q][1]);
                else if (!strstr(alone[who], "..."))
                    snprintf(alone[who] + l, sizeof alone[0] - l, ", ...");
            }
            if (have < 2 || !ok)   /* rows where nothing ran say nothing */
                continue;
            if (!header++) {
                fprintf(f, "### %s, %s mode, %s fds: time per call (ns, median) by N and K\n\n",
                        seen[s][2], seen[s][0], seen[s][1]);
                head(f, c, "N, K", col);
            }
            fprintf(f, "| N=%lld, K=%lld |", key[q][0], key[q][1]);
            for (size_t h = 0; h < c->n; h++) {
                if (!col[h])
                    continue;
                char t[64];
                cell_p50(t, sizeof t, kcell(&c->h[h], seen[s][0], seen[s][1], seen[s][2],
                                            key[q][0], key[q][1]));
                fprintf(f, " %s |", t);
            }
            fputc('\n', f);
        }
        if (header) {
            fputc('\n', f);
            tables++;
        }
        for (size_t h = 0; h < c->n && h < MP_CMP_MAX_HOSTS; h++)
            if (alone[h][0]) {
                fprintf(f, "- %s, %s mode, %s fds: measured on %s only: %s.\n", seen[s][2],
                        seen[s][0], seen[s][1], c->h[h].label, alone[h]);
                for (size_t o = 0; o < c->n; o++)
                    if (o != h && col[o])
                        fprintf(f, "  %s: **not measured** there.\n", c->h[o].label);
                fputc('\n', f);
            }
    }
    if (!tables)
        fprintf(f, "The hosts share no K-of-N cell.\n\n");
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!c->h[i].m.nkcells) {
            fprintf(f, "- %s: **no K-of-N cells** (run without --active).\n", c->h[i].label);
            any = 1;
        }
    if (any)
        fputc('\n', f);
}

/* ---- experiments ------------------------------------------------------ */

static int has_exp(const mp_cmp_host *h, int which)
{
    return which == 0 ? h->m.exp.has_register : which == 1 ? h->m.exp.has_herd
                                                             : h->m.exp.has_ltet;
}

static const char *exp_name[] = {"registration cost (register)", "thundering herd (herd)",
                                 "level- vs edge-triggered (ltet)"};

/* 1 when at least two hosts ran experiment WHICH; else a line and 0. */
static int exp_shared(FILE *f, const mp_cmp *c, int which)
{
    size_t with = 0;
    for (size_t i = 0; i < c->n; i++)
        with += has_exp(&c->h[i], which);
    if (with >= 2) {
        fprintf(f, "### %s\n\n", exp_name[which]);
        return 1;
    }
    for (size_t i = 0; with && i < c->n; i++)
        if (has_exp(&c->h[i], which))
            fprintf(f, "- %s: only %s ran it; not compared.\n\n", exp_name[which],
                    c->h[i].label);
    return 0;
}

static void exp_lacking(FILE *f, const mp_cmp *c, int which)
{
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!has_exp(&c->h[i], which)) {
            fprintf(f, "- %s: **not run** (no `%s` under experiments).\n", c->h[i].label,
                    which == 0 ? "register" : which == 1 ? "herd" : "ltet");
            any = 1;
        }
    if (any)
        fputc('\n', f);
}

static const mp_rreg *reg_of(const mp_cmp_host *h, const char *b, const char *kind,
                             long long n)
{
    for (size_t i = 0; i < h->m.exp.nreg; i++) {
        const mp_rreg *r = &h->m.exp.reg[i];
        if (r->nfds == n && !strcmp(r->backend, b) && !strcmp(r->fd_kind, kind))
            return r;
    }
    return NULL;
}

static void exp_register(FILE *f, const mp_cmp *c)
{
    if (!exp_shared(f, c, 0))
        return;
    fprintf(f, "Registration time per descriptor (ns per fd: median total / N) for the "
               "(backend, fd kind, N) that at least two hosts measured.\n\n");
    head(f, c, "backend, fd kind, N", NULL);
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < c->h[i].m.exp.nreg; j++) {
            const mp_rreg *r = &c->h[i].m.exp.reg[j];
            int first = 1;   /* each key once: from the first host that has it */
            size_t have = 0;
            for (size_t o = 0; o < c->n; o++) {
                const mp_rreg *y = reg_of(&c->h[o], r->backend, r->fd_kind, r->nfds);
                have += y != NULL;
                if (o < i && y)
                    first = 0;
            }
            if (!first || have < 2 || reg_of(&c->h[i], r->backend, r->fd_kind, r->nfds) != r)
                continue;
            fprintf(f, "| %s, %s, N=%lld |", r->backend, r->fd_kind, r->nfds);
            for (size_t o = 0; o < c->n; o++) {
                const mp_rreg *y = reg_of(&c->h[o], r->backend, r->fd_kind, r->nfds);
                char t[48];
                if (!has_exp(&c->h[o], 0))
                    fputs(" not run |", f);
                else if (!y)
                    fputs(" not measured |", f);
                else if (y->status != MP_RC_OK)
                    fprintf(f, " %s |", y->status == MP_RC_UNSUPPORTED ? "unsupported" : "error");
                else
                    fprintf(f, " %s |", mp_fmt_num(t, sizeof t, y->ns_per_fd));
            }
            fputc('\n', f);
        }
    fputc('\n', f);
    exp_lacking(f, c, 0);
}

static const mp_rherd *herd_of(const mp_cmp_host *h, const char *name)
{
    for (size_t i = 0; i < h->m.exp.nherd; i++)
        if (!strcmp(h->m.exp.herd[i].name, name))
            return &h->m.exp.herd[i];
    return NULL;
}

static double mean_or_p50(const mp_rsum *s)
{
    return isfinite(s->mean) ? s->mean : s->p50;
}

static void exp_herd(FILE *f, const mp_cmp *c)
{
    if (!exp_shared(f, c, 1))
        return;
    fprintf(f, "Waiters woken / woken for nothing per event (means over the rounds, the "
               "median where no mean is given), per arrangement; M is each host's number of "
               "waiters.\n\n");
    head(f, c, "arrangement", NULL);
    fprintf(f, "| M (waiters) |");
    for (size_t o = 0; o < c->n; o++) {
        double m = NAN;
        for (size_t i = 0; i < c->h[o].m.exp.nherd; i++)
            if (isfinite(c->h[o].m.exp.herd[i].waiters))
                m = c->h[o].m.exp.herd[i].waiters;
        char t[32];
        fprintf(f, " %s |", !has_exp(&c->h[o], 1) ? "not run" : mp_fmt_num(t, sizeof t, m));
    }
    fputc('\n', f);
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < c->h[i].m.exp.nherd; j++) {
            const mp_rherd *r = &c->h[i].m.exp.herd[j];
            int first = 1;
            size_t have = 0;
            for (size_t o = 0; o < c->n; o++) {
                const mp_rherd *y = herd_of(&c->h[o], r->name);
                have += y != NULL;
                if (o < i && y)
                    first = 0;
            }
            if (!first || have < 2 || herd_of(&c->h[i], r->name) != r)
                continue;
            fprintf(f, "| %s |", r->name);
            for (size_t o = 0; o < c->n; o++) {
                const mp_rherd *y = herd_of(&c->h[o], r->name);
                char a[32], b[32];
                if (!has_exp(&c->h[o], 1))
                    fputs(" not run |", f);
                else if (!y)
                    fputs(" not measured |", f);
                else if (y->status != MP_RC_OK || !y->has_events)
                    fputs(" error |", f);
                else
                    fprintf(f, " %s / %s |", mp_fmt_num(a, sizeof a, mean_or_p50(&y->woken)),
                            mp_fmt_num(b, sizeof b, mean_or_p50(&y->wasted)));
            }
            fputc('\n', f);
        }
    fputc('\n', f);
    exp_lacking(f, c, 1);
}

static const mp_rltet *ltet_of(const mp_cmp_host *h, int edge, long long chunk)
{
    for (size_t i = 0; i < h->m.exp.nltet; i++)
        if (h->m.exp.ltet[i].edge == edge && h->m.exp.ltet[i].chunk == chunk)
            return &h->m.exp.ltet[i];
    return NULL;
}

static void exp_ltet(FILE *f, const mp_cmp *c)
{
    if (!exp_shared(f, c, 2))
        return;
    fprintf(f, "System calls / median ns per delivered write, per trigger mode and read size "
               "(bytes).\n\n");
    head(f, c, "trigger, read size", NULL);
    for (int edge = 0; edge < 2; edge++)
        for (size_t i = 0; i < c->n; i++)
            for (size_t j = 0; j < c->h[i].m.exp.nltet; j++) {
                const mp_rltet *r = &c->h[i].m.exp.ltet[j];
                if (r->edge != edge)
                    continue;
                int first = 1;
                size_t have = 0;
                for (size_t o = 0; o < c->n; o++) {
                    const mp_rltet *y = ltet_of(&c->h[o], edge, r->chunk);
                    have += y != NULL;
                    if (o < i && y)
                        first = 0;
                }
                if (!first || have < 2 || ltet_of(&c->h[i], edge, r->chunk) != r)
                    continue;
                fprintf(f, "| %s, %lld |", edge ? "ET" : "LT", r->chunk);
                for (size_t o = 0; o < c->n; o++) {
                    const mp_rltet *y = ltet_of(&c->h[o], edge, r->chunk);
                    char a[32], b[32];
                    if (!has_exp(&c->h[o], 2))
                        fputs(" not run |", f);
                    else if (!y)
                        fputs(" not measured |", f);
                    else if (y->status != MP_RC_OK)
                        fprintf(f, " %s |", y->status == MP_RC_UNSUPPORTED ? "unsupported"
                                : "error");
                    else
                        fprintf(f, " %s / %s |", mp_fmt_num(a, sizeof a, y->syscalls),
                                mp_fmt_num(b, sizeof b, y->ns_p50));
                }
                fputc('\n', f);
            }
    fputc('\n', f);
    exp_lacking(f, c, 2);
}

static void experiments(FILE *f, const mp_cmp *c)
{
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        for (int w = 0; w < 3; w++)
            any |= has_exp(&c->h[i], w);
    if (!any)
        return;
    fprintf(f, "## Experiments side by side\n\n");
    exp_register(f, c);
    exp_herd(f, c);
    exp_ltet(f, c);
}

void mp_cmp_md_more(FILE *f, const mp_cmp *c)
{
    profiles(f, c);
    kofn(f, c);
    experiments(f, c);
}
