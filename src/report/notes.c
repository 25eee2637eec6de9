/* SPDX-License-Identifier: MIT */
/* notes.c - what a terminal user must not miss, from the checked model the
 * report is written from: the run's noise warnings, the cells whose spread
 * leaves a claim unresolved (the other noisy cells counted), cells with a
 * long tail, and the headline findings (epoll against poll with the
 * range of the repeats, and how each cost grows with N).  See report.h. */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/series.h"
#include "report/format.h"
#include "report/verdict.h"

/* A p90 this many times the median is a tail worth naming. */
#define LONG_TAIL 4.0

typedef struct notes_out {
    FILE *f;
    int colour;
    int warned;   /* the "warnings:" heading is out */
} notes_out;

/* ns in ns, us or ms at 3 significant digits: "379 ns", "41.2 us" */
static const char *dur(char *buf, size_t len, double ns)
{
    double unit = ns >= 1e6 ? 1e6 : ns >= 1e3 ? 1e3 : 1;
    const char *name = unit == 1e6 ? "ms" : unit == 1e3 ? "us" : "ns";
    double v = ns / unit;
    snprintf(buf, len, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, name);
    if (unit == 1)
        snprintf(buf, len, "%.0f ns", v);
    return buf;
}

/* One warning line; a control character of the text (it may come from
 * anyone's results.json) is printed as '?', so it cannot drive the
 * terminal. */
static void warn(void *ctx, const char *text)
{
    notes_out *o = ctx;
    if (!o->warned++)
        fputs("\nwarnings:\n", o->f);
    fputs(o->colour ? "  \033[33mwarning:\033[0m " : "  warning: ", o->f);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fputc(*p < ' ' || *p == 0x7f ? '?' : *p, o->f);
    fputc('\n', o->f);
}

/* Where warnings go: a function and its context. */
typedef struct warn_to {
    mp_report_warn_fn fn;
    void *ctx;
} warn_to;

static const char *cell_name(char *buf, size_t len, const mp_rcell *c)
{
    snprintf(buf, len, "%s %s N=%s %s", c->backend, c->fd_kind, MP_NUM(c->nfds), c->mode);
    return buf;
}

static void noise_warnings(const warn_to *o, const mp_rmodel *m)
{
    char b[400], line[420];
    for (size_t i = 0; i < m->noise.nwarnings; i++) {
        snprintf(line, sizeof line, "noisy run: %s", mp_md_cell(b, sizeof b, m->noise.warnings[i]));
        o->fn(o->ctx, line);
    }
}

/* One warning line listing the cells pick() selects, each described by
 * what(); at most a few named, the rest counted. */
static void cell_warning(const warn_to *o, const mp_rmodel *m, const char *head,
                         int (*pick)(const mp_rcell *),
                         const char *(*what)(char *, size_t, const mp_rcell *))
{
    char *line = NULL;
    size_t len = 0, shown = 0, more = 0;
    FILE *s = open_memstream(&line, &len);
    if (!s)
        return;
    fputs(head, s);
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->status != MP_CELL_OK || !pick(c))
            continue;
        if (shown == 6) {
            more++;
            continue;
        }
        char a[96], b[96];
        fprintf(s, "%s %s (%s)", shown++ ? "," : "", cell_name(a, sizeof a, c),
                what(b, sizeof b, c));
    }
    if (more)
        fprintf(s, " and %zu more", more);
    fclose(s);
    if (shown)
        o->fn(o->ctx, line);
    free(line);
}

static const char *repeat_range(char *buf, size_t len, const mp_rcell *c)
{
    double lo, hi;
    mp_rc_rep_spread(c, &lo, &hi);
    char a[32], b[32];
    snprintf(buf, len, "repeat medians %s to %s", dur(a, sizeof a, lo), dur(b, sizeof b, hi));
    return buf;
}

static int long_tail(const mp_rcell *c)
{
    return c->wall.p50 > 0 && c->wall.p90 > LONG_TAIL * c->wall.p50;
}

static const char *tail(char *buf, size_t len, const mp_rcell *c)
{
    char a[32], b[32], d[32];
    snprintf(buf, len, "%s [%s-%s]", dur(a, sizeof a, c->wall.p50), dur(b, sizeof b, c->wall.p10),
             dur(d, sizeof d, c->wall.p90));
    return buf;
}

static const mp_rcell *find(const mp_rmodel *m, const char *mode, const char *kind,
                            const char *backend, long long nfds)
{
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->status == MP_CELL_OK && c->nfds == nfds && c->active == 1 &&
            !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind) && !strcmp(c->backend, backend))
            return c;
    }
    return NULL;
}

/* poll/epoll at the largest N both measured: the report's one ratio
 * estimator and its 95% interval (mp_rc_ratio_est). */
static void ratio_finding(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
    size_t n = mp_rc_points(m, mode, kind, "poll", "wall_ns", x, y, MP_RC_MAXPTS);
    for (size_t i = n; i-- > 0;) {
        const mp_rcell *p = find(m, mode, kind, "poll", (long long)x[i]);
        const mp_rcell *e = find(m, mode, kind, "epoll", (long long)x[i]);
        if (!p || !e || !(e->wall.p50 > 0))
            continue;
        double lo, hi, r = mp_rc_ratio_est(e, p, &lo, &hi);
        fprintf(f, "  %s, %s: poll/epoll at N=%s is %s", mode, kind, MP_NUM(x[i]), MP_NUM(r));
        if (isfinite(lo) && isfinite(hi))
            fprintf(f, " (95%% interval %s to %s from the repeat medians)", MP_NUM(lo),
                    MP_NUM(hi));
        fputc('\n', f);
        return;
    }
}

/* The claim "poll grows with N, about linearly; epoll is flat" as the
 * report decides it, on the fd kind its seed measured. */
static void claim_finding(FILE *f, const mp_rmodel *m, const char *mode)
{
    const char *seed_kind, *kind = mp_rv_claim_kind(m, mode, &seed_kind);
    mp_rlinear o;
    if (!mp_rv_linear(m, mode, kind, &o))
        return;
    fprintf(f, "  %s, %s: claim \"poll grows with N, about linearly; epoll is flat\": %s "
               "(poll grows %s×", mode, kind, mp_rv_linear_verdict(&o), MP_NUM(o.growth));
    if (isfinite(o.growth_lo) && isfinite(o.growth_hi))
        fprintf(f, " [%s to %s]", MP_NUM(o.growth_lo), MP_NUM(o.growth_hi));
    fprintf(f, ", log-log slope %.2f", o.loglog);
    if (isfinite(o.loglog_lo) && isfinite(o.loglog_hi))
        fprintf(f, " [%.2f to %.2f]", o.loglog_lo, o.loglog_hi);
    if (o.lin_from != o.pc.nfds[0] && isfinite(o.lin_slope)) {
        fprintf(f, ", above N = %s's cost %.2f", MP_NUM(o.pc.nfds[0]), o.lin_slope);
        if (isfinite(o.lin_lo) && isfinite(o.lin_hi))
            fprintf(f, " [%.2f to %.2f]", o.lin_lo, o.lin_hi);
    }
    fprintf(f, "; epoll max/min %.2f", o.spread);
    if (isfinite(o.spread_lo) && isfinite(o.spread_hi))
        fprintf(f, " [%.2f to %.2f]", o.spread_lo, o.spread_hi);
    int other = strcmp(kind, seed_kind) != 0;
    fprintf(f, ", bound %.0f)%s%s%s\n", MP_RV_FLAT_BOUND, other ? "; not the seed's " : "",
            other ? seed_kind : "", other ? " fds" : "");
    if (o.nknees)
        fprintf(f, "    beside it: poll's knees %s\n", o.knees);
}

/* How a backend's median grows with N: the range of its per-interval costs,
 * or the range of its medians when it stays flat. */
static void growth_finding(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend)
{
    mp_rcost c;
    if (!mp_rc_cost(m, mode, kind, backend, "wall_ns", &c))
        return;
    char a[32], b[32];
    if (c.flat || c.constant) {
        double lo = c.y[0], hi = c.y[0];
        for (size_t i = 1; i < c.n; i++) {
            lo = c.y[i] < lo ? c.y[i] : lo;
            hi = c.y[i] > hi ? c.y[i] : hi;
        }
        fprintf(f, "  %s, %s: %s at N=%s is within %.0f%% of N=%s (its medians between: "
                   "%s to %s)\n", mode, kind, backend, MP_NUM(c.nfds[c.n - 1]), MP_RC_FLAT * 100,
                MP_NUM(c.nfds[0]), dur(a, sizeof a, lo), dur(b, sizeof b, hi));
    } else {
        char span[80];
        if (!strcmp(MP_NUM(c.marg_lo), MP_NUM(c.marg_hi)))
            snprintf(span, sizeof span, "%s", MP_NUM(c.marg_lo));
        else
            snprintf(span, sizeof span, "%s to %s", MP_NUM(c.marg_lo), MP_NUM(c.marg_hi));
        fprintf(f, "  %s, %s: %s adds %s ns per watched fd between neighbouring N "
                   "(N=%s to %s)\n", mode, kind, backend, span, MP_NUM(c.nfds[0]),
                MP_NUM(c.nfds[c.n - 1]));
    }
}

/* The cells whose spread leaves a claim unresolved, each with its range and
 * the claims; then, as a count, the other noisy cells, on which no claim's
 * verdict turns. */
static void decider_warning(const warn_to *o, const mp_rmodel *m)
{
    char *line = NULL;
    size_t len = 0, shown = 0, deciding = 0, others = 0, nd = 0;
    mp_rdecider *d = calloc(m->nmodes ? m->nmodes * MP_RV_MAX_DECIDERS : 1, sizeof *d);
    FILE *s = d ? open_memstream(&line, &len) : NULL;
    if (!s) {
        free(d);
        return;
    }
    for (size_t i = 0; i < m->nmodes; i++)   /* each mode's claims decided once */
        nd += mp_rv_deciders(m, m->modes[i], d + nd, MP_RV_MAX_DECIDERS);
    fputs("cells whose spread leaves a claim not resolved (quote the range):", s);
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->status != MP_CELL_OK)
            continue;
        char claims[160];
        if (!mp_rv_decider_claims(d, nd, c, claims, sizeof claims)) {
            others += mp_rc_noisy(c);
            continue;
        }
        deciding++;
        if (shown == 6)
            continue;
        char a[96], b[96];
        fprintf(s, "%s %s (%s; %s)", shown++ ? "," : "", cell_name(a, sizeof a, c),
                repeat_range(b, sizeof b, c), claims);
    }
    if (deciding > shown)
        fprintf(s, " and %zu more", deciding - shown);
    fclose(s);
    free(d);
    if (deciding)
        o->fn(o->ctx, line);
    free(line);
    if (others) {
        char t[200];
        snprintf(t, sizeof t, "%s%zu cell%s repeat medians lie more than %.0f%% apart; no "
                 "claim's verdict turns on %s (report.md gives each range)",
                 deciding ? "besides these, " : "", others, others == 1 ? "'s" : "s'",
                 MP_RC_NOISY * 100, others == 1 ? "it" : "them");
        o->fn(o->ctx, t);
    }
}

void mp_report_warnings(const mp_rmodel *m, mp_report_warn_fn fn, void *ctx)
{
    warn_to o = {fn, ctx};
    noise_warnings(&o, m);
    decider_warning(&o, m);
    char head[128];
    snprintf(head, sizeof head, "long tails (p90 over %.0fx the median; median [p10-p90]):",
             LONG_TAIL);
    cell_warning(&o, m, head, long_tail, tail);
}

int mp_report_notes(const mp_rmodel *m, FILE *f)
{
    notes_out o = {.f = f, .colour = isatty(fileno(f)) && !getenv("NO_COLOR")};
    mp_report_warnings(m, warn, &o);
    if (m->simulated || !m->ncells)
        return ferror(f) ? -1 : 0;
    int said = 0;
    for (size_t k = 0; k < m->nkinds; k++)
        for (size_t d = 0; d < m->nmodes; d++) {
            if (!mp_rc_has_backend(m, "poll") || !mp_rc_has_backend(m, "epoll"))
                continue;
            if (!said++)
                fputs("\nfindings (report.md has the intervals and the claims checked):\n", f);
            if (!strcmp(mp_rv_claim_kind(m, m->modes[d], &(const char *){0}), m->kinds[k]))
                claim_finding(f, m, m->modes[d]);
            ratio_finding(f, m, m->modes[d], m->kinds[k]);
            growth_finding(f, m, m->modes[d], m->kinds[k], "poll");
            growth_finding(f, m, m->modes[d], m->kinds[k], "epoll");
        }
    return ferror(f) ? -1 : 0;
}
