/* SPDX-License-Identifier: MIT */
/* sec_claims.c - the source articles' claims (cited in docs/sources.md,
 * summarised in docs/report.md) checked against one run: O(N) poll vs flat epoll, the
 * poll/epoll ratio at 10,000 fds, the byte and line counts, the FD_SETSIZE
 * cliff and the "384 bytes for 3 ready events" figure.  See report/md.h. */
#include "report/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/series.h"
#include "report/verdict.h"
#include "report/reference.h"
#include "common/quote.h"
#include "report/format.h"

/* The seeds' own figures are the reference datasets (reports/reference/,
 * read through report/reference.h like compare reads them): seed 000 "poll
 * vs epoll: why linear multiplexing stalls" (EPYC 9354P, Linux 6.8, wakeup
 * mode) and seed 002, the Vietnamese article (arm64 container, ready mode,
 * timeout 0). */
#define REF_EPYC "epyc-9354p"
#define REF_AARCH64 "aarch64-gcc13-pipe"
#define REF_PYTHON "python-selectors-tcp"

/* "p50 [lo–hi]" of a cell, the interval when it has one. */
static const char *p50_ci(const mp_rcell *c, char *buf, size_t len)
{
    char a[32], b[32], d[32];
    if (!c) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    if (c->ci_kind == MP_CI_NONE)
        snprintf(buf, len, "%s ns (no interval)", mp_fmt_num(a, sizeof a, c->wall.p50));
    else
        snprintf(buf, len, "%s ns [%s–%s]", mp_fmt_num(a, sizeof a, c->wall.p50),
                 mp_fmt_num(b, sizeof b, c->ci_lo), mp_fmt_num(d, sizeof d, c->ci_hi));
    return buf;
}

/* "lo–hi" of an interval, or "no interval". */
static const char *iv_text(char *buf, size_t len, double lo, double hi, const char *fmt)
{
    char a[32], b[32];
    if (lo == -INFINITY && isfinite(hi) && strcmp(fmt, "num"))
        snprintf(buf, len, "−∞–%.2f", hi);   /* an interval unbounded below */
    else if (!isfinite(lo) || !isfinite(hi))
        snprintf(buf, len, "no interval");
    else if (!strcmp(fmt, "num"))
        snprintf(buf, len, "%s–%s", mp_fmt_num(a, sizeof a, lo), mp_fmt_num(b, sizeof b, hi));
    else
        snprintf(buf, len, "%.2f–%.2f", lo, hi);
    return buf;
}

/* ", on pipe fds, not the seed's tcp" when the claim is judged on another
 * kind than its seed measured; ", on tcp fds" else. */
static const char *kind_note(char *buf, size_t len, const char *kind, const char *seed_kind)
{
    if (strcmp(kind, seed_kind))
        snprintf(buf, len, ", on %s fds, not the seed's %s (this run has no %s cells)",
                 MP_QMD(kind), seed_kind, seed_kind);
    else
        snprintf(buf, len, ", on %s fds as the seed measured", seed_kind);
    return buf;
}

static void claim_linear(FILE *f, const mp_rmodel *m)
{
    char g[64], h[64], e[64], t[64], kn[160];
    fprintf(f, "- **poll grows with N, about linearly; epoll is flat** (seed 000 in wakeup mode "
               "on TCP sockets, seed 002 in ready mode on pipes). poll grows: the log-log slope "
               "from the smallest to the largest N (ln of the growth factor over ln of the N "
               "range) has its 95%% interval above %.1f over a range of 100× or more (over a "
               "shorter range: the growth factor's above 1); about linearly: the log-log "
               "slope of the cost above the smallest N's, c(N) − c(N₀), from the first N at "
               "least 10× N₀ to the largest (1 for any fixed cost plus a cost per fd: in "
               "wakeup mode the wakeup itself is the fixed cost; over a shorter range, the "
               "whole range's slope), has its interval within %.2f to %.2f; epoll flat: its "
               "highest median over its lowest (the Hodges-Lehmann ratio of those two cells' "
               "repeat medians) at most %.0f by its interval. Super-linear stretches (knees) "
               "are findings beside the claim, not against it.\n", MP_RV_GROW_SLOPE,
            MP_RV_LIN_LO, MP_RV_LIN_HI, MP_RV_FLAT_BOUND);
    if (!m->nmodes)
        fprintf(f, "  - not measured in this run: results.json has no cells\n");
    for (size_t i = 0; i < m->nmodes; i++) {
        const char *mode = m->modes[i], *seed_kind;
        const char *kind = mp_rv_claim_kind(m, mode, &seed_kind);
        mp_rlinear o;
        if (!mp_rv_linear(m, mode, kind, &o)) {
            fprintf(f, "  - %s mode: not measured in this run (needs poll and epoll at two N "
                       "or more)\n", mode);
            continue;
        }
        const mp_rcost *pc = &o.pc;
        size_t np = pc->n;
        char why[800] = "";
        if (o.why[0])
            snprintf(why, sizeof why, " (%s)", o.why);
        char top[160] = "";
        if (o.lin_from != pc->nfds[0] && isfinite(o.lin_slope))
            snprintf(top, sizeof top, "; above its cost at N = %s, log-log slope %.2f (%s) "
                     "from N = %s to %s", MP_NUM(pc->nfds[0]), o.lin_slope,
                     iv_text(t, sizeof t, o.lin_lo, o.lin_hi, "2f"), MP_NUM(o.lin_from),
                     MP_NUM(pc->nfds[np - 1]));
        fprintf(f, "  - %s mode: **%s**%s%s: poll grows %s× (%s) from N = %s to %s, log-log "
                   "slope %.2f (%s)%s; epoll's medians %s to %s ns, highest over lowest %.2f "
                   "(%s, bound %.0f).\n", mode, mp_rv_linear_verdict(&o), why,
                kind_note(kn, sizeof kn, kind, seed_kind), MP_NUM(o.growth),
                iv_text(g, sizeof g, o.growth_lo, o.growth_hi, "num"), MP_NUM(pc->nfds[0]),
                MP_NUM(pc->nfds[np - 1]), o.loglog,
                iv_text(h, sizeof h, o.loglog_lo, o.loglog_hi, "2f"), top, MP_NUM(o.lo),
                MP_NUM(o.hi), o.spread, iv_text(e, sizeof e, o.spread_lo, o.spread_hi, "2f"),
                MP_RV_FLAT_BOUND);
        if (!o.has_ci)
            fprintf(f, "    No interval: a cell has fewer than 2 repeat medians, so this verdict "
                       "rests on the medians alone.\n");
        else
            fprintf(f, "    Decided on 95%% intervals from the repeat medians: poll grows: %s; "
                       "about linearly: %s; epoll flat: %s.\n", mp_rv_name(o.grows_v),
                    mp_rv_name(o.lin_v), mp_rv_name(o.flat_v));
        if (o.nknees)
            fprintf(f, "    Beside the claim: poll's knees %s.\n", o.knees);
    }
}

/* A figure as its article states it: every digit, thousands separated. */
static const char *stated(char *buf, size_t len, double v)
{
    if (v == floor(v) || !isfinite(v))
        return mp_fmt_num(buf, len, v);
    snprintf(buf, len, "%g", v);
    return buf;
}

static void claim_ratio(FILE *f, const mp_rmodel *m)
{
    char s0[32], s2[32];
    fprintf(f, "- **poll/epoll ratio at 10,000 fds**: seed 000 reports %s in wakeup mode "
               "(EPYC 9354P, Linux 6.8); seed 002 about %s in ready mode (arm64 container). "
               "Absolute ratios depend on the host; the claim is the order of magnitude.\n",
            stated(s0, sizeof s0, mp_rv_seed_ratio(0)), stated(s2, sizeof s2, mp_rv_seed_ratio(1)));
    if (!m->nmodes)
        fprintf(f, "  - not measured in this run: results.json has no cells\n");
    for (size_t i = 0; i < m->nmodes; i++) {
        const char *mode = m->modes[i], *seed_kind;
        const char *kind = mp_rv_claim_kind(m, mode, &seed_kind);
        mp_rratio o;
        char a[32], b[32], c[32], g[96], h[96], kn[160];
        if (!mp_rv_ratio(m, mode, kind, &o)) {
            fprintf(f, "  - %s mode: **not measured in this run**: it has no poll and epoll "
                       "cells at N=10,000, and a ratio at another N is not comparable.\n", mode);
            continue;
        }
        char range[96] = "";
        if (isfinite(o.lo) && isfinite(o.hi))
            snprintf(range, sizeof range, " (95%% interval %s to %s from the repeat medians)",
                     mp_fmt_num(b, sizeof b, o.lo), mp_fmt_num(c, sizeof c, o.hi));
        if (!isfinite(o.seed)) {
            fprintf(f, "  - %s mode%s: measured %s×%s at N=10,000 (no seed figure for this "
                       "mode)\n", mode, kind_note(kn, sizeof kn, kind, seed_kind),
                    mp_fmt_num(a, sizeof a, o.r), range);
            continue;
        }
        char why[400] = "";
        if (o.why[0])
            snprintf(why, sizeof why, " (%s)", o.why);
        fprintf(f, "  - %s mode: **%s**%s%s: measured at N=10,000: %s×%s, poll %s, epoll %s; "
                   "the seed's %s× is a factor of %.3g apart.%s\n", mode,
                mp_rv_ratio_verdict(&o), why, kind_note(kn, sizeof kn, kind, seed_kind),
                mp_fmt_num(a, sizeof a, o.r), range,
                p50_ci(o.pc, g, sizeof g), p50_ci(o.ec, h, sizeof h),
                mp_fmt_num(b, sizeof b, o.seed), o.factor,
                o.has_ci ? "" : " No interval (a cell has fewer than 2 repeat medians): "
                "decided on the medians alone.");
    }
}

/* Counters about caches or TLBs (names as perf and libpfm4 spell them). */
static int cache_counter(const char *name)
{
    static const char *keys[] = {"miss", "cache", "refill", "l1", "l2", "l3", "llc", "tlb"};
    char low[MP_RM_NAME];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof low; i++)
        low[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
    low[i] = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (strstr(low, keys[k]))
            return 1;
    return 0;
}

/* Seed 000's claims that hold in any mode are judged on its kind, TCP
 * sockets, where the run has them (mp_rv_claim_kind's wakeup kind). */
static void claim_bytes(FILE *f, const mp_rmodel *m)
{
    const char *seed_kind, *kind = mp_rv_claim_kind(m, "wakeup", &seed_kind);
    char kn[160];
    kind_note(kn, sizeof kn, kind, seed_kind);
    mp_move p10k = mp_move_poll(10000, m->line_bytes);
    mp_move p20k = mp_move_poll(20000, 64);
    mp_move p20h = mp_move_poll(20000, m->line_bytes);
    char n1[32], n2[32], n3[32], n4[32];
    fprintf(f, "- **\"80,000 bytes copied at 10,000 fds\"** (seed 000): **holds by arithmetic "
               "(not measured)**, from the kernel ABI: 10,000 × 8-byte pollfd = %s bytes "
               "copied in; the kernel also writes the 2-byte `revents` back into every entry, "
               "so %s bytes cross the boundary in all, touching %s lines in and the same %s "
               "lines out (lines of %u bytes).",
            mp_fmt_num(n1, sizeof n1, (double)p10k.bytes_in),
            mp_fmt_num(n2, sizeof n2, (double)(p10k.bytes_in + p10k.bytes_out)),
            mp_fmt_num(n3, sizeof n3, (double)p10k.lines_in),
            mp_fmt_num(n4, sizeof n4, (double)p10k.lines_out), m->line_bytes);
    int said = 0;
    for (size_t i = 0; i < m->nmodes; i++) {
        const mp_rcell *c = mp_rm_find(m, m->modes[i], kind, "poll", 10000);
        for (size_t k = 0; c && k < c->ncounters; k++) {
            char a[32], b[32];
            if (!cache_counter(c->counters[k].name))
                continue;
            if (!said++)
                fprintf(f, " Beside it, measured at N=10,000%s (misses count lines, not "
                           "bytes, so this is context, not a check):", kn);
            fprintf(f, "%s %s mode %s: %s per call = %s per pollfd line", said > 1 ? ";" : "",
                    m->modes[i], c->counters[k].name,
                    mp_fmt_num(a, sizeof a, c->counters[k].s.p50),
                    mp_fmt_num(b, sizeof b, c->counters[k].s.p50 / (double)p10k.lines_in));
        }
    }
    if (said)
        fprintf(f, ".\n");
    else
        fprintf(f, " No cache counters were measured for poll at N=10,000%s (see Counters), "
                   "so the bytes are not checked against misses.\n", kn);
    fprintf(f, "- **\"2,500 cache lines at 20,000 fds\"** (seed 000): **%s (not measured)**: "
               "20,000 × 8 = %s bytes = %s lines of 64 bytes; with this host's %u-byte "
               "lines%s, %s lines.", m->line_bytes == 64 ? "holds by arithmetic"
               : "holds by arithmetic only for 64-byte lines",
            mp_fmt_num(n1, sizeof n1, (double)p20k.bytes_in),
            mp_fmt_num(n2, sizeof n2, (double)p20k.lines_in), m->line_bytes,
            m->line_known ? "" : " (assumed)", mp_fmt_num(n3, sizeof n3, (double)p20h.lines_in));
    int at20k = 0;
    for (size_t i = 0; i < m->nmodes; i++)
        at20k |= mp_rm_find(m, m->modes[i], kind, "poll", 20000) != NULL;
    if (at20k)
        fprintf(f, " This run measured poll at N=20,000%s: see the cache-line correlation "
                   "above.\n", kn);
    else
        fprintf(f, " N=20,000 was not measured in this run%s.\n", kn);
}

/* select's cells against FD_SETSIZE: the largest N it ran at and the
 * smallest it was refused at, with their highest fd. */
typedef struct fdset_claim {
    long long ok_max, ok_fd;     /* -1: select never ran */
    long long un_min, un_fd;     /* -1: select was never refused */
    long long bad_ok;            /* an fd >= 1024 select ran with, or -1 */
    const char *reason;          /* of the refusal at un_min */
    int bad_un, un_est;          /* refused below fd 1024; un_fd estimated */
} fdset_claim;

static void fdset_check(const mp_rmodel *m, fdset_claim *o)
{
    *o = (fdset_claim){-1, -1, -1, -1, -1, "", 0, 0};
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->backend, "select"))
            continue;
        long long fd = mp_rc_maxfd(c);
        if (c->status == MP_CELL_OK) {
            if (c->nfds > o->ok_max) {
                o->ok_max = c->nfds;
                o->ok_fd = fd;
            }
            if (fd >= 1024)
                o->bad_ok = fd;
        } else if (c->status == MP_CELL_UNSUPPORTED) {
            if (o->un_min < 0 || c->nfds < o->un_min) {
                o->un_min = c->nfds;
                o->un_fd = fd;
                o->un_est = c->fd_hi < 0;
                o->reason = c->reason;
            }
            o->bad_un |= fd < 1024;
        }
    }
}

static const char *fdset_verdict(const fdset_claim *o)
{
    return o->ok_max < 0 && o->un_min < 0 ? "not tested"
         : o->bad_ok >= 0 ? "does not hold here"
         : o->un_min < 0 ? "not measured"
         : o->bad_un ? "holds, but some cells were refused below fd 1024" : "holds";
}

static void claim_fdsetsize(FILE *f, const mp_rmodel *m)
{
    fdset_claim o;
    fdset_check(m, &o);
    fprintf(f, "- **FD_SETSIZE cliff** (seeds 001, 002: select cannot watch fd numbers >= "
               "1024): ");
    if (o.ok_max < 0 && o.un_min < 0) {
        fprintf(f, "not tested (no select cells).\n");
        return;
    }
    char r[300], a[32], b[32], c[32], d[32];
    if (o.bad_ok >= 0)
        fprintf(f, "**does not hold here**: select ran with fd %s.\n",
                mp_fmt_num(a, sizeof a, (double)o.bad_ok));
    else if (o.un_min < 0)
        fprintf(f, "not measured in this run: every select cell had fds below 1024 (largest "
                   "N %s, maxfd %s).\n", mp_fmt_num(a, sizeof a, (double)o.ok_max),
                mp_fmt_num(b, sizeof b, (double)o.ok_fd));
    else
        fprintf(f, "**%s by the kernel ABI (the cliff itself not measured)**: select ran up to "
                   "N=%s (maxfd %s); from N=%s (maxfd %s%s) muxprof does not call it, because "
                   "FD_SET beyond the set is undefined behaviour: %s\n",
                o.bad_un ? "holds, but some cells were refused below fd 1024, and" : "holds",
                o.ok_max >= 0 ? mp_fmt_num(a, sizeof a, (double)o.ok_max) : "none",
                o.ok_max >= 0 ? mp_fmt_num(b, sizeof b, (double)o.ok_fd) : "–",
                mp_fmt_num(c, sizeof c, (double)o.un_min),
                mp_fmt_num(d, sizeof d, (double)o.un_fd), o.un_est ? ", estimated" : "",
                o.reason[0] ? mp_md_cell(r, sizeof r, o.reason) : "(no reason given)");
}

static void claim_384(FILE *f, const mp_rmodel *m)
{
    fprintf(f, "- **\"384 bytes of epoll_event for 3 ready events\"** (seed 000): **does not "
               "hold, by arithmetic (not measured)**: `struct epoll_event` is 12 bytes on x86_64 and 16 on arm64, so 3 "
               "events are %u or %u bytes (384 would need 128 bytes per event). This run "
               "(%s) copies %u bytes, %llu line, per call for its one ready fd.\n",
            3 * mp_abi_epoll_event_bytes(MP_ABI_X86_64), 3 * mp_abi_epoll_event_bytes(MP_ABI_ARM64),
            MP_QMD(m->arch), mp_abi_epoll_event_bytes(m->abi),
            mp_move_epoll(1, m->abi, m->line_bytes).lines_out);
}

/* This run's median for a cell, or why there is none. */
static const char *run_p50(const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend, long long n, char *buf, size_t len)
{
    const mp_rcell *c = mp_rm_find(m, mode, kind, backend, n);
    if (c)
        return mp_fmt_num(buf, len, c->wall.p50);
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *x = &m->cells[i];
        if (x->nfds == n && !strcmp(x->mode, mode) && !strcmp(x->fd_kind, kind) &&
            !strcmp(x->backend, backend))
            return x->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error";
    }
    return "not run";
}

/* A reference dataset's median for backend at N (NaN when it has none). */
static double seed_p50(const mp_rmodel *r, const char *mode, const char *backend, long long n)
{
    const mp_rcell *c = r->nkinds ? mp_rm_find(r, mode, r->kinds[0], backend, n) : NULL;
    return c ? c->wall.p50 : NAN;
}

/* The N of a reference's series for backend in mode, ascending. */
static size_t seed_ns(const mp_rmodel *r, const char *mode, const char *backend,
                      long long *out, size_t max)
{
    const mp_rcell *cells[MP_RC_MAXPTS];
    size_t n = r->nkinds ? mp_rm_series(r, mode, r->kinds[0], backend, cells, MP_RC_MAXPTS)
                         : 0;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        out[i] = cells[i]->nfds;
    return n;
}

/* The N of a reference's series for any of the backends in mode, ascending,
 * each once. */
static size_t seed_ns_any(const mp_rmodel *r, const char *mode, const char *const *be,
                          size_t nb, long long *out, size_t max)
{
    size_t n = 0;
    for (size_t b = 0; b < nb; b++) {
        long long one[MP_RC_MAXPTS];
        size_t k = seed_ns(r, mode, be[b], one, MP_RC_MAXPTS);
        for (size_t i = 0; i < k; i++) {
            size_t at = 0;
            while (at < n && out[at] < one[i])
                at++;
            if ((at < n && out[at] == one[i]) || n == max)
                continue;
            memmove(out + at + 1, out + at, (n - at) * sizeof *out);
            out[at] = one[i];
            n++;
        }
    }
    return n;
}

static int load_seed(mp_rmodel *r, const char *name, FILE *f)
{
    const mp_cmp_ref *ref = mp_cmp_ref_find(name);
    mp_err err;
    mp_err_clear(&err);
    if (!ref)
        mp_errf(&err, -ENOENT, "reference dataset %s is not in this build", name);
    if (!ref || mp_cmp_ref_load(r, ref, &err) < 0) {
        char cell[MP_ERR_MAX + 8];
        fprintf(f, "\nThe seeds' own numbers are not shown: %s\n\n",
                mp_md_cell(cell, sizeof cell, err.msg));
        return -1;
    }
    return 0;
}

/* "tcp fds, the kind seed 000 measured" or "pipe fds, not seed 000's tcp
 * (this run has none)". */
static const char *table_kind(char *buf, size_t len, const char *seed, const char *kind,
                              const char *seed_kind)
{
    if (strcmp(kind, seed_kind))
        snprintf(buf, len, "%s fds, not seed %s's %s (this run has none)", MP_QMD(kind), seed,
                 seed_kind);
    else
        snprintf(buf, len, "%s fds, the kind seed %s measured", seed_kind, seed);
    return buf;
}

/* Whether this run has a cell (measured or not) of any of the backends at
 * any of the N: a table of seeds' numbers beside none is left out. */
static int run_has_any(const mp_rmodel *m, const char *mode, const char *kind,
                       const char *const *backends, size_t nb, const long long *ns, size_t n)
{
    char buf[32];
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < nb; b++)
            if (strcmp(run_p50(m, mode, kind, backends[b], ns[i], buf, sizeof buf), "not run"))
                return 1;
    return 0;
}

/* The N of a seed's table as a list, "10, 100, 1,000 and 10,000". */
static const char *ns_list(char *buf, size_t len, const long long *ns, size_t n)
{
    size_t at = 0;
    snprintf(buf, len, "%s", n ? "" : "none");
    for (size_t i = 0; i < n; i++) {
        char e[32], item[48];
        snprintf(item, sizeof item, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
                 mp_fmt_num(e, sizeof e, (double)ns[i]));
        if (at + strlen(item) + 4 >= len) {   /* room for ", ..." */
            snprintf(buf + at, len - at, ", ...");
            break;
        }
        at += (size_t)snprintf(buf + at, len - at, "%s", item);
    }
    return buf;
}

/* The line above a seed's table beside this run's mode cells (sep before
 * it), or, where the run has none of them, one line saying so instead.  1
 * when the table follows. */
static int seed_table_open(FILE *f, const mp_rmodel *m, const char *seed, const char *mode,
                           const char *kind, const char *seed_kind, const char *const *be,
                           size_t nb, const long long *ns, size_t n, const char *sep)
{
    char tk[160], list[256], names[64] = "";
    if (run_has_any(m, mode, kind, be, nb, ns, n)) {
        fprintf(f, "%sThis run's %s cells on %s:\n\n", sep, mode,
                table_kind(tk, sizeof tk, seed, kind, seed_kind));
        return 1;
    }
    for (size_t i = 0, at = 0; i < nb && at < sizeof names; i++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s%s",
                               i == 0 ? "" : i + 1 == nb ? " or " : ", ", be[i]);
    fprintf(f, "%sSeed %s's numbers (%s mode, N %s) are not shown: this run has no %s %s cell "
               "at those N.\n", sep, seed, mode, ns_list(list, sizeof list, ns, n), mode, names);
    return 0;
}

static void free_seed(mp_rmodel *r)
{
    if (r)
        mp_rm_free(r);
    free(r);
}

/* One seed's numbers beside this run's mode cells on kind, a column pair
 * (the seed's, this run's) per backend, a row per N the seed has for any of
 * them; no_seed where the seed has none at that N.  1 when a table was
 * written (else one line says why not). */
static int seed_table(FILE *f, const mp_rmodel *m, const mp_rmodel *ref, const char *seed,
                      const char *mode, const char *kind, const char *seed_kind,
                      const char *const *be, size_t nb, const char *no_seed, const char *sep)
{
    long long ns[MP_RC_MAXPTS];
    size_t n = seed_ns_any(ref, mode, be, nb, ns, MP_RC_MAXPTS);
    if (!seed_table_open(f, m, seed, mode, kind, seed_kind, be, nb, ns, n, sep))
        return 0;
    fprintf(f, "| N |");
    for (size_t b = 0; b < nb; b++)
        fprintf(f, " seed %s %s (%s) | this run |", seed, be[b], mode);
    fprintf(f, "\n|---:|");
    for (size_t b = 0; b < nb; b++)
        fprintf(f, "---:|---:|");
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        char e[32];
        fprintf(f, "| %s |", mp_fmt_num(e, sizeof e, (double)ns[i]));
        for (size_t b = 0; b < nb; b++) {
            char x[32], y[32];
            double v = seed_p50(ref, mode, be[b], ns[i]);
            fprintf(f, " %s | %s |", isfinite(v) ? mp_fmt_num(x, sizeof x, v) : no_seed,
                    run_p50(m, mode, kind, be[b], ns[i], y, sizeof y));
        }
        fputc('\n', f);
    }
    return 1;
}

static void seed_tables(FILE *f, const mp_rmodel *m)
{
    const char *sk000, *k000 = mp_rv_claim_kind(m, "wakeup", &sk000);
    const char *sk002, *k002 = mp_rv_claim_kind(m, "ready", &sk002);
    mp_rmodel *s000 = calloc(1, sizeof *s000), *s001 = calloc(1, sizeof *s001);
    mp_rmodel *s002 = calloc(1, sizeof *s002);
    if (!s000 || !s001 || !s002 || load_seed(s000, REF_EPYC, f) < 0 ||
        load_seed(s001, REF_PYTHON, f) < 0 || load_seed(s002, REF_AARCH64, f) < 0)
        goto out;
    static const char *const pe[] = {"poll", "epoll"}, *const spe[] = {"select", "poll", "epoll"};
    fprintf(f, "\nThe seeds' own numbers beside this run's medians (ns per call; different "
               "hosts, so compare shapes, not values; this run's intervals are in the Results "
               "tables).");
    seed_table(f, m, s000, "000", "wakeup", k000, sk000, pe, 2, "–", " ");
    /* seed 002 has no select beyond FD_SETSIZE */
    seed_table(f, m, s002, "002", "ready", k002, sk002, spe, 3, "not possible", "\n");
    if (seed_table(f, m, s001, "001", "wakeup", k000, sk000, spe, 3, "–", "\n"))
        fprintf(f, "\nSeed 001 timed Python's selectors, so its times include the "
                   "interpreter's own work in each call: compare how each grows with N, not "
                   "the values.\n");
    fputc('\n', f);
out:
    free_seed(s000);
    free_seed(s001);
    free_seed(s002);
}

static void claims(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    fprintf(f, "## The source articles' claims, checked\n\n"
               "Seeds: 000 \"poll vs epoll: why linear multiplexing stalls at scale\", 001 "
               "\"epoll vs select toy\", 002 the Vietnamese select/poll/epoll article (see "
               "docs/report.md). Each measured claim is judged on the fd kind its seed "
               "measured (000: TCP sockets, 001: TCP, 002: pipes) where this run has it, and "
               "its line names the kind it was judged on and says so where that is not the "
               "seed's.\n\n");
    claim_linear(f, m);
    claim_ratio(f, m);
    claim_bytes(f, m);
    claim_fdsetsize(f, m);
    claim_384(f, m);
    seed_tables(f, m);
}

/* ---- the same checks for `report --json` ---- */

static cJSON *claim_new(cJSON *arr, const char *name, const char *seeds, const char *mode)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "claim", name);
    cJSON_AddStringToObject(o, "seeds", seeds);
    cJSON_AddStringToObject(o, "mode", mode);
    cJSON_AddItemToArray(arr, o);
    return o;
}

static void claim_kind_json(cJSON *o, const char *kind, const char *seed_kind)
{
    cJSON_AddStringToObject(o, "fd_kind", kind);
    cJSON_AddStringToObject(o, "seed_fd_kind", seed_kind);
    cJSON_AddBoolToObject(o, "seed_fd_kind_measured", !strcmp(kind, seed_kind));
}

static void linear_json(cJSON *arr, const mp_rmodel *m, const char *mode)
{
    cJSON *o = claim_new(arr, "poll grows with N, about linearly; epoll is flat", "000, 002",
                         mode);
    const char *seed_kind, *kind = mp_rv_claim_kind(m, mode, &seed_kind);
    claim_kind_json(o, kind, seed_kind);
    mp_rlinear c;
    if (!mp_rv_linear(m, mode, kind, &c)) {
        cJSON_AddStringToObject(o, "verdict", "not measured");
        return;
    }
    cJSON_AddStringToObject(o, "verdict", mp_rv_linear_verdict(&c));
    cJSON_AddStringToObject(o, "why", c.why);
    cJSON_AddStringToObject(o, "interval", c.has_ci ? "repeats" : "not available");
    cJSON_AddStringToObject(o, "poll_grows_verdict", mp_rv_name(c.grows_v));
    cJSON_AddStringToObject(o, "poll_about_linear_verdict", mp_rv_name(c.lin_v));
    cJSON_AddStringToObject(o, "poll_linear_verdict", mp_rv_name(c.on));
    cJSON_AddStringToObject(o, "epoll_flat_verdict", mp_rv_name(c.flat_v));
    cJSON_AddNumberToObject(o, "from_nfds", c.pc.nfds[0]);
    cJSON_AddNumberToObject(o, "to_nfds", c.pc.nfds[c.pc.n - 1]);
    mp__rj_num(o, "poll_growth", c.growth);
    mp__rj_num(o, "poll_growth_lo", c.growth_lo);
    mp__rj_num(o, "poll_growth_hi", c.growth_hi);
    mp__rj_num(o, "poll_loglog_slope", c.loglog);
    mp__rj_num(o, "poll_loglog_slope_lo", c.loglog_lo);
    mp__rj_num(o, "poll_loglog_slope_hi", c.loglog_hi);
    mp__rj_num(o, "poll_linear_from_nfds", c.lin_from);
    mp__rj_num(o, "poll_linear_slope", c.lin_slope);
    mp__rj_num(o, "poll_linear_slope_lo", c.lin_lo);
    mp__rj_num(o, "poll_linear_slope_hi", c.lin_hi);
    mp__rj_num(o, "grows_slope_bound", MP_RV_GROW_SLOPE);
    mp__rj_num(o, "linear_band_lo", MP_RV_LIN_LO);
    mp__rj_num(o, "linear_band_hi", MP_RV_LIN_HI);
    cJSON_AddNumberToObject(o, "poll_knees", (double)c.nknees);
    cJSON_AddStringToObject(o, "poll_knees_text", c.knees);
    cJSON_AddBoolToObject(o, "poll_grows", c.grows);
    cJSON_AddBoolToObject(o, "poll_linear", c.lin);
    cJSON_AddBoolToObject(o, "epoll_flat", c.flat);
    mp__rj_num(o, "poll_ns_per_fd_min", c.pc.marg_lo);
    mp__rj_num(o, "poll_ns_per_fd_max", c.pc.marg_hi);
    mp__rj_median(o, "poll_first", c.p0);
    mp__rj_median(o, "poll_last", c.p1);
    mp__rj_num(o, "epoll_p50_min", c.lo);
    mp__rj_num(o, "epoll_p50_max", c.hi);
    mp__rj_num(o, "epoll_max_over_min", c.spread);
    mp__rj_num(o, "epoll_max_over_min_lo", c.spread_lo);
    mp__rj_num(o, "epoll_max_over_min_hi", c.spread_hi);
    mp__rj_num(o, "epoll_flat_bound", MP_RV_FLAT_BOUND);
    mp__rj_median(o, "epoll_last", c.e1);
}

static void ratio_json(cJSON *arr, const mp_rmodel *m, const char *mode)
{
    cJSON *o = claim_new(arr, "poll/epoll ratio at 10,000 fds", "000, 002", mode);
    const char *seed_kind, *kind = mp_rv_claim_kind(m, mode, &seed_kind);
    claim_kind_json(o, kind, seed_kind);
    mp_rratio c;
    if (!mp_rv_ratio(m, mode, kind, &c)) {
        cJSON_AddStringToObject(o, "verdict", "not measured");
        return;
    }
    cJSON_AddStringToObject(o, "verdict", mp_rv_ratio_verdict(&c));
    cJSON_AddStringToObject(o, "why", c.why);
    cJSON_AddStringToObject(o, "interval", c.has_ci ? "repeats" : "not available");
    mp__rj_num(o, "factor_lo", c.flo);
    mp__rj_num(o, "factor_hi", c.fhi);
    mp__rj_num(o, "ratio", c.r);
    mp__rj_num(o, "lo", c.lo);
    mp__rj_num(o, "hi", c.hi);
    mp__rj_num(o, "seed_ratio", c.seed);
    mp__rj_num(o, "factor", isfinite(c.seed) ? c.factor : NAN);
    mp__rj_median(o, "poll", c.pc);
    mp__rj_median(o, "epoll", c.ec);
}

/* A count for JSON: null for the -1 of "none". */
static void count_or_null(cJSON *o, const char *key, long long v)
{
    mp__rj_num(o, key, v >= 0 ? (double)v : NAN);
}

static void fdset_json(cJSON *arr, const mp_rmodel *m)
{
    cJSON *o = claim_new(arr, "FD_SETSIZE cliff", "001, 002", "any");
    fdset_claim c;
    fdset_check(m, &c);
    cJSON_AddStringToObject(o, "verdict", fdset_verdict(&c));
    count_or_null(o, "ran_up_to_nfds", c.ok_max);
    count_or_null(o, "ran_up_to_fd", c.ok_fd);
    count_or_null(o, "refused_from_nfds", c.un_min);
    count_or_null(o, "refused_from_fd", c.un_min >= 0 ? c.un_fd : -1);
    cJSON_AddBoolToObject(o, "refused_fd_estimated", c.un_est);
    count_or_null(o, "ran_with_fd_over_1023", c.bad_ok);
}

static void claims_json(cJSON *doc, const mp_rmodel *m)
{
    cJSON *o = cJSON_AddObjectToObject(doc, "claims");
    cJSON_AddStringToObject(o, "fd_kind", m->nkinds ? m->kinds[0] : "unknown");
    cJSON *arr = cJSON_AddArrayToObject(o, "checks");
    for (size_t i = 0; i < m->nmodes; i++)
        linear_json(arr, m, m->modes[i]);
    for (size_t i = 0; i < m->nmodes; i++)
        ratio_json(arr, m, m->modes[i]);
    fdset_json(arr, m);
}

const mp_rsection mp_rsec_claims = {"claims", 1, 1, NULL, claims, claims_json, 0};
