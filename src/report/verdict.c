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

#include "report/format.h"
#include "report/model.h"
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

/* Whether poll's interval costs stay within MP_RC_SPREAD of each other, on
 * the n usable intervals [lo[i], hi[i]] (every lo above 0): yes when every
 * pair of distinct costs is within it by their intervals (max over i != j
 * of hi_i / lo_j), no when some pair is certainly apart (max over i != j
 * of lo_i / hi_j above it), else not resolved.  A cost against itself is
 * no pair, and fewer than two costs make no pair at all. */
static int poll_spread(const double *lo, const double *hi, size_t n, mp_rlinear *o)
{
    char a[32], b[32], c[32];
    snprintf(c, sizeof c, "%.0f", MP_RC_SPREAD);
    if (n < 2) {
        because(o->why, sizeof o->why, "whether poll's interval costs stay within %s× of "
                "each other is not resolved: fewer than two interval costs with intervals", c);
        return MP_RV_UNRESOLVED;
    }
    double wide = 0, apart = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j) {
                wide = fmax(wide, hi[i] / lo[j]);
                apart = fmax(apart, lo[i] / hi[j]);
            }
    if (wide <= MP_RC_SPREAD)
        return MP_RV_YES;
    if (apart > MP_RC_SPREAD)
        return MP_RV_NO;
    snprintf(a, sizeof a, "%.2f", apart);
    snprintf(b, sizeof b, "%.2f", wide);
    because(o->why, sizeof o->why, "the ratio of two of poll's interval costs lies between %s "
            "and %s by their intervals, so whether they stay within %s× of each other is not "
            "resolved", a, b, c);
    return MP_RV_UNRESOLVED;
}

/* poll grows with N at one cost per fd: every interval cost above 0, the
 * log-log slope first to last at least 0.5 over a range of 100x or more,
 * and every two interval costs within MP_RC_SPREAD of each other.  An
 * interval that is not available (too few repeats for its level) decides
 * nothing: the claim is then not resolved. */
static int poll_linear(mp_rlinear *o)
{
    const mp_rcost *pc = &o->pc;
    size_t np = pc->n, nu = 0;
    char a[32], b[32];
    double ulo[MP_RC_MAXPTS], uhi[MP_RC_MAXPTS];
    int longrange = pc->nfds[np - 1] / pc->nfds[0] >= 100;
    if (!o->has_ci)
        return o->lin ? MP_RV_YES : MP_RV_NO;
    int grows = MP_RV_YES, missing = 0;
    for (size_t i = 0; i + 1 < np; i++) {
        double lo = pc->marg_ci[i][0], hi = pc->marg_ci[i][1];
        int side = mp_rc_side(lo, hi, 0);
        if (side == MP_RC_NO_CI) {
            missing = 1;
            continue;
        }
        ulo[nu] = lo;
        uhi[nu++] = hi;
        if (side == MP_RC_BELOW)
            grows = MP_RV_NO;
        else if (side == MP_RC_STRADDLES && grows == MP_RV_YES) {
            grows = MP_RV_UNRESOLVED;
            char r[48];
            snprintf(r, sizeof r, "%s→%s", MP_NUM(pc->nfds[i]), MP_NUM(pc->nfds[i + 1]));
            because(o->why, sizeof o->why, "poll's interval cost %s [%s, %s] ns per fd "
                    "includes 0", r, mp_fmt_num(a, sizeof a, lo), mp_fmt_num(b, sizeof b, hi));
        }
    }
    if (missing && grows == MP_RV_YES) {
        char few[160];
        grows = MP_RV_UNRESOLVED;
        because(o->why, sizeof o->why, "an interval cost of poll has no interval: %s",
                mp_rc_few_reps_family(np, few, sizeof few));
    }
    if (grows == MP_RV_YES && longrange) {
        int side = mp_rc_side(o->loglog_lo, o->loglog_hi, 0.5);
        if (side == MP_RC_BELOW)
            grows = MP_RV_NO;
        else if (side == MP_RC_NO_CI) {
            grows = MP_RV_UNRESOLVED;
            because(o->why, sizeof o->why, "poll's log-log slope first to last has no "
                    "interval: %s", MP_RC_FEW_REPS);
        } else if (side != MP_RC_ABOVE) {
            grows = MP_RV_UNRESOLVED;
            snprintf(a, sizeof a, "%.2f", o->loglog_lo);
            snprintf(b, sizeof b, "%.2f", o->loglog_hi);
            because(o->why, sizeof o->why, "poll's log-log slope first to last [%s, %s] "
                    "includes 0.5", a, b);
        }
    }
    if (grows != MP_RV_YES)
        return grows;
    return poll_spread(ulo, uhi, nu, o);
}

/* epoll flat: its largest median at most 2x its smallest. */
#define FLAT_SPREAD 2.0
static int epoll_flat(const mp_rmodel *m, const char *mode, const char *kind, mp_rlinear *o)
{
    const mp_rcost *ec = &o->ec;
    if (!o->has_ci)
        return o->flat ? MP_RV_YES : MP_RV_NO;
    double minlo = INFINITY, maxlo = 0, minhi = INFINITY, maxhi = 0;
    for (size_t i = 0; i < ec->n; i++) {
        const mp_rcell *c = mp_rm_find(m, mode, kind, "epoll", (long long)ec->nfds[i]);
        if (!c || c->ci_kind != MP_CI_REPEATS)
            return o->flat ? MP_RV_YES : MP_RV_NO;
        minlo = fmin(minlo, c->ci_lo);
        maxlo = fmax(maxlo, c->ci_lo);
        minhi = fmin(minhi, c->ci_hi);
        maxhi = fmax(maxhi, c->ci_hi);
    }
    o->spread_lo = minhi > 0 ? fmax(1, maxlo / minhi) : NAN;
    o->spread_hi = minlo > 0 ? maxhi / minlo : INFINITY;
    int side = mp_rc_side(o->spread_lo, o->spread_hi, FLAT_SPREAD);
    if (side == MP_RC_BELOW)
        return MP_RV_YES;
    if (side == MP_RC_ABOVE)
        return MP_RV_NO;
    char a[32], b[32], c[32];
    snprintf(a, sizeof a, "%.2f", o->spread_lo);
    snprintf(b, sizeof b, "%.2f", o->spread_hi);
    snprintf(c, sizeof c, "%.0f", FLAT_SPREAD);
    because(o->why, sizeof o->why, "epoll's max/min of the medians lies between %s and %s by "
            "the cells' intervals, across the bound of %s", a, b, c);
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
    o->loglog = mp_loglog_slope(pc->nfds[0], pc->y[0], pc->nfds[np - 1], pc->y[np - 1]);
    o->lo = o->hi = ec->y[0];
    for (size_t k = 1; k < ne; k++) {
        o->lo = fmin(o->lo, ec->y[k]);
        o->hi = fmax(o->hi, ec->y[k]);
    }
    o->spread = o->lo > 0 ? o->hi / o->lo : INFINITY;
    o->spread_lo = o->spread_hi = NAN;
    o->grows = pc->marg_lo > 0 && (pc->nfds[np - 1] / pc->nfds[0] < 100 || o->loglog >= 0.5);
    /* O(N) is one cost per fd: interval costs within MP_RC_SPREAD of each other */
    o->lin = o->grows && pc->marg_hi <= MP_RC_SPREAD * pc->marg_lo;
    o->flat = o->spread <= FLAT_SPREAD;
    o->p1 = mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[np - 1]);
    o->e1 = mp_rm_find(m, mode, kind, "epoll", (long long)ec->nfds[ne - 1]);
    o->has_ci = pc->has_ci && ec->has_ci;
    o->loglog_lo = o->loglog_hi = NAN;
    if (o->has_ci)
        mp_rc_loglog_ci(mp_rm_find(m, mode, kind, "poll", (long long)pc->nfds[0]), pc->nfds[0],
                        o->p1, pc->nfds[np - 1], MP_CI_LEVEL, &o->loglog_lo, &o->loglog_hi);
    o->on = poll_linear(o);
    o->flat_v = epoll_flat(m, mode, kind, o);
    return 1;
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

int mp_rv_ratio(const mp_rmodel *m, const char *mode, const char *kind, mp_rratio *o)
{
    memset(o, 0, sizeof *o);
    o->seed = !strcmp(mode, "wakeup") ? 240.75 : !strcmp(mode, "ready") ? 1540 : NAN;
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
