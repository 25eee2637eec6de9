/* experiments.c - the experiments part of the comparison report: register,
 * herd and ltet side by side; a host without an experiment is marked in its
 * column. */
#include "compare/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/quote.h"
#include "report/format.h"

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
                    MP_QMD(c->h[i].label));
    return 0;
}

static void exp_lacking(FILE *f, const mp_cmp *c, int which)
{
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!has_exp(&c->h[i], which)) {
            fprintf(f, "- %s: **not run** (no `%s` under experiments).\n", MP_QMD(c->h[i].label),
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
    mp__cmp_head(f, c, "backend, fd kind, N", NULL);
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
                else if (y->status != MP_CELL_OK)
                    fprintf(f, " %s |", y->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error");
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
    mp__cmp_head(f, c, "arrangement", NULL);
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
                else if (y->status != MP_CELL_OK || !y->has_events)
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
    mp__cmp_head(f, c, "trigger, read size", NULL);
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
                    else if (y->status != MP_CELL_OK)
                        fprintf(f, " %s |", y->status == MP_CELL_UNSUPPORTED ? "unsupported"
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

void mp__cmp_experiments(FILE *f, const mp_cmp *c)
{
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        for (int w = 0; w < 3; w++)
            any |= has_exp(&c->h[i], w);
    if (!any && !mp__cmp_has_xtables(c))
        return;
    fprintf(f, "## Experiments side by side\n\n");
    exp_register(f, c);
    exp_herd(f, c);
    exp_ltet(f, c);
    mp__cmp_xtables(f, c);
}
