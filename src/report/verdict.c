/* SPDX-License-Identifier: MIT */
/* verdict.c - the seeds' two measured claims decided on intervals: "poll is
 * O(N), epoll is flat" and the poll/epoll ratio at 10,000 fds against the
 * seed's figure.  Each part of a claim is yes, no or not resolved: yes or
 * no only when the statistic's whole 95% interval lies on one side of the
 * threshold, not resolved (with the reason) when the interval contains it.
 * Cells without repeat medians have no interval: the claim is then decided
 * on the medians alone, and says so.  sec_claims.c prints these for
 * report.md and `report --json`.  See report/verdict.h. */
#include "report/verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/stats.h"
#include "report/format.h"
#include "report/internal.h"
#include "report/model.h"
#include "report/reference.h"
#include "report/series.h"

const char *mp_rv_name(int v)
{
    return v == MP_RV_YES ? "yes" : v == MP_RV_NO ? "no" : "not resolved";
}

/* Append a reason to why ("; "-separated). */
static void because(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void because(char *why, size_t len, const char *fmt, ...)
{
    size_t o = strlen(why);
    if (o + 2 >= len)
        return;
    if (o)
        o += (size_t)snprintf(why + o, len - o, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + o, len - o, fmt, ap);
    va_end(ap);
}

/* poll grows with N: the log-log slope first to last above
 * MP_RV_GROW_SLOPE over a range of 100x or more, the growth factor above 1
 * over a shorter one; decided on the interval when the cells have one. */
static int poll_grows(mp_rlinear *o, int longrange)
{
    double lo = longrange ? o->loglog_lo : o->growth_lo;
    double hi = longrange ? o->loglog_hi : o->growth_hi;
    double bound = longrange ? MP_RV_GROW_SLOPE : 1;
    char a[32], b[32], c[32];
    if (!o->has_ci)
        return o->grows ? MP_RV_YES : MP_RV_NO;
    int side = mp_rc_side(lo, hi, bound);
    if (side == MP_RC_ABOVE)
        return MP_RV_YES;
    if (side == MP_RC_BELOW)
        return MP_RV_NO;
    if (side == MP_RC_NO_CI) {
        because(o->why, sizeof o->why, "poll's growth first to last has no interval: %s",
                MP_RC_FEW_REPS);
        return MP_RV_UNRESOLVED;
    }
    o->grows_noise = 1;
    snprintf(a, sizeof a, "%.3g", lo);
    snprintf(b, sizeof b, "%.3g", hi);
    snprintf(c, sizeof c, "%.3g", bound);
    because(o->why, sizeof o->why, "poll's %s first to last [%s, %s] includes %s",
            longrange ? "log-log slope" : "growth factor", a, b, c);
    return MP_RV_UNRESOLVED;
}

/* The fewest repeat medians per cell with which a Hodges-Lehmann interval
 * between two cells can reach level: n x n pairwise values cover at most
 * 1 - 2 / C(2n, n). */
static int reps_for_level(double level)
{
    double c = 2;   /* C(2, 1) */
    for (int n = 1; n < 64; n++) {
        if (1 - 2 / c >= level - 1e-12)
            return n;
        c = c * (2.0 * n + 1) * (2.0 * n + 2) / ((n + 1.0) * (n + 1.0));   /* C(2n+2, n+1) */
    }
    return 64;
}

/* The log-log slope of poll's cost above its first N's, c(N) - c(N0),
 * from M to the last N (L): ln((c(L) - c(N0)) / (c(M) - c(N0))) /
 * ln((L - N0) / (M - N0)), 1 for any a + bN.  The candidates for M are
 * the N from 10x N0 to L / 5; M is the first whose excess is above 0 by
 * its interval (a stretch within noise right after N0 would make the
 * ratio of excesses noise).  Each excess is the Hodges-Lehmann shift
 * between the cells' repeat medians; the intervals of every candidate's
 * excess and of L's are taken together at 95% (Bonferroni over all of
 * them, whatever their dependence through N0's cell), so the choice of M
 * among them keeps the coverage; the slope's interval takes the
 * excesses' far ends.  Without a candidate the whole range's slope
 * stands (lin_from = N0). */
static void excess_slope(const mp_rmodel *m, const char *mode, const char *kind,
                         mp_rlinear *o)
{
    const mp_rcost *pc = &o->pc;
    size_t np = pc->n, first = 0, ncand = 0;
    double x0 = pc->nfds[0], xl = pc->nfds[np - 1];
    for (size_t k = 1; k + 1 < np; k++)
        if (pc->nfds[k] >= 10 * x0 && pc->nfds[k] * 5 <= xl) {
            first = first ? first : k;
            ncand++;
        }
    if (!ncand)
        return;   /* the whole range's slope, as set */
    const mp_rcell *c0 = o->p0, *cl = o->p1;
    o->lin_slope = o->lin_lo = o->lin_hi = NAN;
    o->lin_from = pc->nfds[first];
    int ci = o->has_ci && mp_rc_has_reps(c0) && mp_rc_has_reps(cl);
    for (size_t k = first; ci && k < first + ncand; k++)
        ci = mp_rc_has_reps(mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[k]));
    if (!ci) {   /* the medians alone */
        double em = pc->y[first] - pc->y[0], el = pc->y[np - 1] - pc->y[0];
        double span = (xl - x0) / (pc->nfds[first] - x0);
        if (em > 0 && el > 0)
            o->lin_slope = log(el / em) / log(span);
        else
            o->lin_why = MP_RV_LIN_NOT_ABOVE;
        return;
    }
    double level = mp_rc_family_level(ncand + 1), el, llo, lhi, ach;
    if (mp_shift_ci_hl(c0->rep, c0->nrep, cl->rep, cl->nrep, level, &el, &llo, &lhi, &ach) ||
        ach + 1e-12 < level) {
        o->lin_why = MP_RV_LIN_FEW;
        o->lin_reps = reps_for_level(level);
        return;
    }
    for (size_t k = first; k < first + ncand; k++) {
        const mp_rcell *cm = mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[k]);
        double em, mlo, mhi;
        if (mp_shift_ci_hl(c0->rep, c0->nrep, cm->rep, cm->nrep, level, &em, &mlo, &mhi, &ach) ||
            ach + 1e-12 < level) {
            o->lin_why = MP_RV_LIN_FEW;
            o->lin_reps = reps_for_level(level);
            return;
        }
        if (!(mlo > 0))
            continue;
        double span = (xl - x0) / (pc->nfds[k] - x0);
        o->lin_from = pc->nfds[k];
        o->pm = cm;
        o->lin_slope = em > 0 && el > 0 ? log(el / em) / log(span) : NAN;
        if (!(lhi > 0)) {   /* L's cost not above N0's by its interval either */
            o->lin_slope = NAN;
            o->lin_why = MP_RV_LIN_NOT_ABOVE;
            o->lin_noise = 1;
            return;
        }
        o->lin_lo = llo > 0 ? log(llo / mhi) / log(span) : -INFINITY;   /* unbounded below */
        o->lin_hi = log(lhi / mlo) / log(span);
        return;
    }
    o->lin_why = MP_RV_LIN_NOISY;
    o->lin_noise = 1;
    o->pm = mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[first]);
}

/* About linearly: the slope's (o->lin_*) interval within [MP_RV_LIN_LO,
 * MP_RV_LIN_HI]; outside it when the whole interval is. */
static int poll_about_linear(mp_rlinear *o, int longrange)
{
    char a[32], b[32], n0[32], nm[32], nl[32];
    mp_fmt_num(n0, sizeof n0, o->pc.nfds[0]);
    mp_fmt_num(nm, sizeof nm, o->lin_from);
    mp_fmt_num(nl, sizeof nl, o->pc.nfds[o->pc.n - 1] / 5);
    switch (o->lin_why) {
    case MP_RV_LIN_NOT_ABOVE:
        because(o->why, sizeof o->why, "poll's cost at N = %s is not above its cost at N = %s, "
                "so its slope above that cost is not defined", nm, n0);
        return MP_RV_UNRESOLVED;
    case MP_RV_LIN_NOISY:
        because(o->why, sizeof o->why, "poll's cost above its cost at N = %s is within noise "
                "at every N from %s to %s, so its log-log slope has no interval", n0, nm, nl);
        return MP_RV_UNRESOLVED;
    case MP_RV_LIN_FEW:
        if (o->grows_v != MP_RV_YES)
            return MP_RV_UNRESOLVED;   /* the reason is poll_grows' */
        because(o->why, sizeof o->why, "poll's log-log slope above its cost at N = %s has no "
                "interval: its excesses' intervals, taken together at 95%%, need at least %d "
                "repeat medians per cell", n0, o->lin_reps);
        return MP_RV_UNRESOLVED;
    default:
        break;
    }
    if (!o->has_ci)
        return o->lin ? MP_RV_YES : MP_RV_NO;
    if (isnan(o->lin_lo) || isnan(o->lin_hi))
        return MP_RV_UNRESOLVED;   /* the reason is poll_grows' */
    if (o->lin_lo >= MP_RV_LIN_LO && o->lin_hi <= MP_RV_LIN_HI)
        return MP_RV_YES;
    if (o->lin_hi < MP_RV_LIN_LO || o->lin_lo > MP_RV_LIN_HI)
        return MP_RV_NO;
    o->lin_noise = 1;
    snprintf(a, sizeof a, "%.2f", o->lin_lo);
    snprintf(b, sizeof b, "%.2f", o->lin_hi);
    if (longrange && o->lin_from != o->pc.nfds[0])
        because(o->why, sizeof o->why, "poll's log-log slope above its cost at N = %s, from "
                "N = %s, [%s, %s] reaches out of the band %.2f to %.2f around 1", n0, nm, a, b,
                MP_RV_LIN_LO, MP_RV_LIN_HI);
    else
        because(o->why, sizeof o->why, "poll's log-log slope first to last [%s, %s] reaches "
                "out of the band %.2f to %.2f around 1", a, b, MP_RV_LIN_LO, MP_RV_LIN_HI);
    return MP_RV_UNRESOLVED;
}

/* poll's knees, each with the cache levels its N range coincides with
 * (within 2x of the pollfd array's or the kernel estimate's crossing). */
static void poll_knees(const mp_rmodel *m, const char *mode, const char *kind, mp_rlinear *o)
{
    mp_rknees k;
    mp__r_knees(m, mode, kind, "poll", "wall_ns", &k);
    double per_fd[] = {MP_POLLFD_BYTES, mp_kernel_bytes_per_fd(!strcmp(mode, "wakeup"))};
    static const char *const what[] = {"pollfd array", "kernel estimate"};
    size_t len = sizeof o->knees, off = 0;
    o->nknees = k.nk;
    for (size_t i = 0; i < k.nk && i < MP_RKNEES_MAX && off + 1 < len; i++) {
        const mp_knee *kn = &k.kn[i];
        char x0[32], x1[32], iv[64] = "";
        if (isfinite(kn->lo) && isfinite(kn->hi))
            snprintf(iv, sizeof iv, " [%.2f, %.2f]", kn->lo, kn->hi);
        off += (size_t)snprintf(o->knees + off, len - off, "%s%s→%s (log-log slope %.2f%s)",
                                i ? "; " : "", mp_fmt_num(x0, sizeof x0, kn->x0),
                                mp_fmt_num(x1, sizeof x1, kn->x1), kn->slope, iv);
        int listed = 0;
        for (size_t fp = 0; fp < 2; fp++)
            for (size_t ci = 0; ci < m->ncaches && off + 1 < len; ci++) {
                double n = mp_cross_nfds(m->caches[ci].bytes, per_fd[fp]);
                if (!(n >= kn->x0 / 2 && n <= kn->x1 * 2))
                    continue;
                char nb[32];
                off += (size_t)snprintf(o->knees + off, len - off, "%s %s filling %s at N ≈ %s",
                                        listed++ ? "," : " coincides with", what[fp],
                                        m->caches[ci].name, mp_fmt_num(nb, sizeof nb, n));
            }
        if (!listed && off + 1 < len)
            off += (size_t)snprintf(o->knees + off, len - off, " (no cache level within 2×)");
    }
    if (off >= len)
        o->knees[len - 1] = 0;
}

/* epoll flat: its highest median at most MP_RV_FLAT_BOUND its lowest, by
 * the one ratio estimator (mp_rc_ratio_est: Hodges-Lehmann over the two
 * cells' repeat medians) of the cell with the highest median over the cell
 * with the lowest, decided on its 95% interval. */
#define FLAT_SPREAD MP_RV_FLAT_BOUND
static int epoll_flat(const mp_rmodel *m, const char *mode, const char *kind, mp_rlinear *o)
{
    const mp_rcost *ec = &o->ec;
    if (!o->has_ci)
        return o->flat ? MP_RV_YES : MP_RV_NO;
    size_t ilo = 0, ihi = ec->n - 1;   /* the first lowest, the last highest: two cells */
    for (size_t i = 0; i < ec->n; i++) {
        if (ec->y[i] < ec->y[ilo])
            ilo = i;
        if (ec->y[i] >= ec->y[ihi])
            ihi = i;
    }
    o->elo = mp_rm_find(m, mode, kind, "epoll", (long long)ec->nfds[ilo]);
    o->ehi = mp_rm_find(m, mode, kind, "epoll", (long long)ec->nfds[ihi]);
    double lo, hi, est = mp_rc_ratio_est(o->elo, o->ehi, &lo, &hi);
    if (isfinite(est))
        o->spread = est;
    o->spread_lo = lo;
    o->spread_hi = hi;
    int side = mp_rc_side(lo, hi, FLAT_SPREAD);
    if (side == MP_RC_BELOW)
        return MP_RV_YES;
    if (side == MP_RC_ABOVE)
        return MP_RV_NO;
    if (side == MP_RC_NO_CI) {
        because(o->why, sizeof o->why, "epoll's highest median over its lowest has no interval: "
                "%s", MP_RC_FEW_REPS);
        return MP_RV_UNRESOLVED;
    }
    o->flat_noise = 1;
    char a[32], b[32], c[32];
    snprintf(a, sizeof a, "%.2f", lo);
    snprintf(b, sizeof b, "%.2f", hi);
    snprintf(c, sizeof c, "%.0f", FLAT_SPREAD);
    because(o->why, sizeof o->why, "epoll's highest median over its lowest lies between %s and "
            "%s by its interval, across the bound of %s", a, b, c);
    return MP_RV_UNRESOLVED;
}

int mp_rv_linear(const mp_rmodel *m, const char *mode, const char *kind, mp_rlinear *o)
{
    memset(o, 0, sizeof *o);
    if (!mp_rc_cost(m, mode, kind, "poll", "wall_ns", &o->pc) ||
        !mp_rc_cost(m, mode, kind, "epoll", "wall_ns", &o->ec))
        return 0;
    const mp_rcost *pc = &o->pc, *ec = &o->ec;
    size_t np = pc->n, ne = ec->n;
    o->lo = o->hi = ec->y[0];
    for (size_t k = 1; k < ne; k++) {
        o->lo = fmin(o->lo, ec->y[k]);
        o->hi = fmax(o->hi, ec->y[k]);
    }
    o->spread = o->lo > 0 ? o->hi / o->lo : INFINITY;
    o->spread_lo = o->spread_hi = NAN;
    o->p0 = mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[0]);
    o->p1 = mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[np - 1]);
    o->e1 = mp_rm_find(m, mode, kind, "epoll", (long long)ec->nfds[ne - 1]);
    double range = pc->nfds[np - 1] / pc->nfds[0];
    int longrange = range >= 100;
    o->growth = mp_rc_ratio_est(o->p0, o->p1, &o->growth_lo, &o->growth_hi);
    o->loglog = o->growth > 0 ? log(o->growth) / log(range) : NAN;
    o->loglog_lo = o->growth_lo > 0 ? log(o->growth_lo) / log(range) : NAN;
    o->loglog_hi = o->growth_hi > 0 ? log(o->growth_hi) / log(range) : NAN;
    o->grows = longrange ? o->loglog >= MP_RV_GROW_SLOPE : o->growth > 1;
    o->has_ci = pc->has_ci && ec->has_ci;
    /* "about linearly": the cost above the first N's over a long range, else the whole */
    o->lin_from = pc->nfds[0];
    o->lin_slope = o->loglog, o->lin_lo = o->loglog_lo, o->lin_hi = o->loglog_hi;
    if (longrange)
        excess_slope(m, mode, kind, o);
    o->lin = o->grows && o->lin_slope >= MP_RV_LIN_LO && o->lin_slope <= MP_RV_LIN_HI;
    o->flat = o->spread <= FLAT_SPREAD;
    o->grows_v = poll_grows(o, longrange);
    o->lin_v = o->grows_v == MP_RV_NO ? MP_RV_NO : poll_about_linear(o, longrange);
    o->on = o->grows_v == MP_RV_NO || o->lin_v == MP_RV_NO ? MP_RV_NO
          : o->grows_v == MP_RV_YES && o->lin_v == MP_RV_YES ? MP_RV_YES : MP_RV_UNRESOLVED;
    o->flat_v = epoll_flat(m, mode, kind, o);
    poll_knees(m, mode, kind, o);
    return 1;
}

const char *mp_rv_seed_kind(const char *seed)
{
    static const struct { const char *seed, *kind; } seeds[] = {
        {"000", "tcp"}, {"001", "tcp"}, {"002", "pipe"},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
        if (!strcmp(seed, seeds[i].seed))
            return seeds[i].kind;
    return NULL;
}

const char *mp_rv_claim_kind(const mp_rmodel *m, const char *mode, const char **seed_kind)
{
    int wake = !strcmp(mode, "wakeup");
    *seed_kind = mp_rv_seed_kind(wake ? "000" : "002");
    /* in wakeup mode another socket stands in before any other kind */
    const char *const want[] = {*seed_kind, wake ? "socketpair" : NULL, NULL};
    for (size_t w = 0; want[w]; w++)
        for (size_t k = 0; k < m->nkinds; k++)
            if (!strcmp(m->kinds[k], want[w]))
                return m->kinds[k];
    return m->nkinds ? m->kinds[0] : "unknown";
}

const char *mp_rv_linear_verdict(const mp_rlinear *o)
{
    if (o->on == MP_RV_UNRESOLVED || o->flat_v == MP_RV_UNRESOLVED)
        return "not resolved";
    return o->on == MP_RV_YES && o->flat_v == MP_RV_YES ? "holds"
         : o->on == MP_RV_YES || o->flat_v == MP_RV_YES ? "holds in part" : "does not hold";
}

/* How far apart ratio r and the seed's s are, >= 1. */
static double factor(double r, double s)
{
    return r > s ? r / s : s / r;
}

double mp_rv_seed_ratio(int ready)
{
    return ready ? mp_cmp_ref_claim("aarch64-gcc13-pipe", "epoll_over_poll_at_10000")
                 : mp_cmp_ref_claim("epyc-9354p", "poll_over_epoll_at_10000");
}

int mp_rv_ratio(const mp_rmodel *m, const char *mode, const char *kind, mp_rratio *o)
{
    memset(o, 0, sizeof *o);
    o->seed = !strcmp(mode, "wakeup") ? mp_rv_seed_ratio(0) : !strcmp(mode, "ready")
            ? mp_rv_seed_ratio(1) : NAN;
    o->pc = mp_rm_find(m, mode, kind, "poll", 10000);
    o->ec = mp_rm_find(m, mode, kind, "epoll", 10000);
    if (!o->pc || !o->ec)
        return 0;
    o->r = mp_rc_ratio(m, mode, kind, "poll", 10000);
    mp_rc_ratio_range(m, mode, kind, "poll", 10000, &o->lo, &o->hi);
    o->factor = factor(o->r, o->seed);
    /* cells with repeats decide on the interval, or, without one (too few
     * repeats for 95%), not at all */
    o->has_ci = mp_rc_has_reps(o->pc) && mp_rc_has_reps(o->ec);
    int usable = isfinite(o->lo) && isfinite(o->hi) && o->lo > 0;
    o->flo = o->fhi = NAN;
    if (o->has_ci && !usable) {
        o->band = -1;
        if (isfinite(o->seed))
            because(o->why, sizeof o->why, "the ratio has no interval: %s",
                    MP_RC_FEW_REPS);
        return 1;
    }
    if (o->has_ci && isfinite(o->seed)) {
        o->flo = o->lo <= o->seed && o->seed <= o->hi ? 1
                 : fmin(factor(o->lo, o->seed), factor(o->hi, o->seed));
        o->fhi = fmax(factor(o->lo, o->seed), factor(o->hi, o->seed));
    }
    /* 0: within a factor of 2, 1: within 10, 2: further; -1: not resolved */
    double flo = o->has_ci ? o->flo : o->factor, fhi = o->has_ci ? o->fhi : o->factor;
    o->band = fhi <= 2 ? 0 : flo > 2 && fhi <= 10 ? 1 : flo > 10 ? 2 : -1;
    if (o->band < 0 && isfinite(o->seed)) {
        char a[32], b[32], c[32];
        snprintf(a, sizeof a, "%.3g", o->flo);
        snprintf(b, sizeof b, "%.3g", o->fhi);
        snprintf(c, sizeof c, "%s", flo <= 2 ? "2" : "10");
        because(o->why, sizeof o->why, "by the ratio's interval it is a factor of %s to %s "
                "from the seed's, across the bound of %s", a, b, c);
    }
    return 1;
}

const char *mp_rv_ratio_verdict(const mp_rratio *o)
{
    static const char *const band[] = {"holds (within a factor of 2)", "same order of magnitude",
                                       "does not hold on this host"};
    return !isfinite(o->seed) ? "no seed figure for this mode"
         : o->band < 0 ? "not resolved" : band[o->band];
}

/* The cells that bound a claim's straddling statistic, as entries for
 * claim: those whose repeat medians are noisy (mp_rc_noisy) when any are,
 * else all of them; none twice. */
static void deciders_of(mp_rdecider *out, size_t max, size_t *n, const char *claim,
                        const mp_rcell *a, const mp_rcell *b, const mp_rcell *c)
{
    const mp_rcell *cand[3] = {a, b, c};
    int any_noisy = 0;
    for (size_t i = 0; i < 3; i++)
        any_noisy |= cand[i] && mp_rc_noisy(cand[i]);
    for (size_t i = 0; i < 3 && *n < max; i++) {
        const mp_rcell *x = cand[i];
        int dup = !x || (any_noisy && !mp_rc_noisy(x));
        for (size_t j = 0; j < i && !dup; j++)
            dup = cand[j] == x;
        if (!dup)
            out[(*n)++] = (mp_rdecider){x, claim};
    }
}

size_t mp_rv_deciders(const mp_rmodel *m, const char *mode, mp_rdecider *out, size_t max)
{
    size_t n = 0;
    const char *seed_kind, *kind = mp_rv_claim_kind(m, mode, &seed_kind);
    mp_rlinear o;
    if (mp_rv_linear(m, mode, kind, &o)) {
        if (o.grows_v == MP_RV_UNRESOLVED && o.grows_noise)
            deciders_of(out, max, &n, "poll grows", o.p0, o.p1, NULL);
        if (o.lin_v == MP_RV_UNRESOLVED && o.lin_noise)   /* within noise: p1 plays no part */
            deciders_of(out, max, &n, "about linearly", o.p0, o.pm,
                        o.lin_why == MP_RV_LIN_NOISY ? NULL : o.p1);
        if (o.flat_v == MP_RV_UNRESOLVED && o.flat_noise)
            deciders_of(out, max, &n, "epoll is flat", o.elo, o.ehi, NULL);
    }
    mp_rratio r;
    if (mp_rv_ratio(m, mode, kind, &r) && isfinite(r.seed) && r.band < 0 && r.has_ci &&
        isfinite(r.lo) && isfinite(r.hi) && r.lo > 0)
        deciders_of(out, max, &n, "poll/epoll at 10,000", r.pc, r.ec, NULL);
    return n;
}

size_t mp_rv_decider_claims(const mp_rdecider *d, size_t n, const mp_rcell *c, char *buf,
                            size_t len)
{
    size_t k = 0, off = 0;
    if (len)
        buf[0] = 0;
    for (size_t i = 0; c && i < n; i++) {
        if (d[i].cell != c)
            continue;
        if (off < len)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "", d[i].claim);
        k++;
    }
    return k;
}
