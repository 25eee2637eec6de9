/* SPDX-License-Identifier: MIT */
/* verdict.h - the seeds' measured claims decided on intervals (verdict.c),
 * for the claims section's Markdown and JSON (sec_claims.c).
 */
#ifndef MP_REPORT_VERDICT_H
#define MP_REPORT_VERDICT_H

#include "report/series.h"

/* A part of a claim: yes or no when the statistic's 95% interval lies on
 * one side of its threshold (or, without an interval, the statistic
 * itself), not resolved when the interval contains the threshold. */
enum { MP_RV_YES, MP_RV_NO, MP_RV_UNRESOLVED };
const char *mp_rv_name(int v);   /* "yes", "no", "not resolved" */

/* "poll grows with N, about linearly; epoll is flat" in one mode, each
 * part tested by the statistic that answers it:
 * - poll grows: the growth factor p50(last N) / p50(first N) (one ratio
 *   estimator, mp_rc_ratio_est, with its 95% interval from the repeat
 *   medians) and the log-log slope over the whole range, ln(growth) /
 *   ln(N range), with the same interval on its scale; poll grows when
 *   the slope's interval lies above MP_RV_GROW_SLOPE over a range of 100x
 *   or more (over a shorter range: the growth factor's above 1);
 * - about linearly: over a range of 100x or more, the log-log slope of
 *   the cost above the first N's, c(N) - c(N0), from M (the first N from
 *   10x N0 to a fifth of the last whose excess is above 0 by its interval)
 *   to the last (excess_slope in verdict.c), within [MP_RV_LIN_LO,
 *   MP_RV_LIN_HI] by its interval: 1 for any a + bN, where the whole
 *   range's slope is pulled below 1 by the call's fixed cost a (in wakeup
 *   mode the wakeup itself, 12 us against 0.5 us of scan at N = 10 on the
 *   development VM) and so says "grows", not "how"; over a shorter range,
 *   or with no N between 10x N0 and a fifth of the last, the whole range's
 *   slope;
 * - knees: super-linear stretches of poll (mp__r_knees), named with the
 *   cache level they coincide with, beside the claim, never against it;
 * - epoll flat: its highest median over its lowest, the Hodges-Lehmann
 *   ratio of those two cells (mp_rc_ratio_est), at most MP_RV_FLAT_BOUND
 *   by that ratio's 95% interval. */
#define MP_RV_GROW_SLOPE 0.5
#define MP_RV_LIN_LO 0.75
#define MP_RV_LIN_HI 1.25
#define MP_RV_FLAT_BOUND 2.0
/* Why "about linearly" has no slope or interval above the first N's cost */
enum { MP_RV_LIN_OK, MP_RV_LIN_FEW, MP_RV_LIN_NOISY, MP_RV_LIN_NOT_ABOVE };
typedef struct mp_rlinear {
    mp_rcost pc, ec;             /* poll's and epoll's medians against N */
    double growth;               /* poll's growth factor, first to last N */
    double growth_lo, growth_hi; /* its 95% interval (NaN: none) */
    double loglog;               /* poll's log-log slope, first to last N */
    double loglog_lo, loglog_hi; /* its interval (NaN: none) */
    double lin_from;             /* the N the "about linearly" slope starts at */
    double lin_slope;            /* that slope (above the first N's cost), to the last N */
    double lin_lo, lin_hi;       /* its interval (NaN: none) */
    int lin_why;                 /* MP_RV_LIN_*: why the slope above has no interval */
    int lin_reps;                /* MP_RV_LIN_FEW: the repeat medians per cell it needs */
    double lo, hi;               /* epoll's lowest and highest median */
    double spread;               /* highest over lowest: the ratio of the two cells
                                  * (mp_rc_ratio_est; hi / lo without repeats) */
    double spread_lo, spread_hi; /* its 95% interval (NaN: none) */
    int grows, lin, flat;        /* on the medians alone */
    int has_ci;                  /* every cell of both has repeat medians */
    int grows_v, lin_v;          /* MP_RV_*: poll grows, about linearly */
    int on, flat_v;              /* MP_RV_*: poll grows about linearly, epoll flat */
    size_t nknees;               /* poll's knees (super-linear stretches) */
    char knees[600];             /* "2,000→5,000 (log-log slope 2.18 [..]) coincides with
                                  * ..."; "" when none */
    char why[600];               /* what is not resolved, "" when all is */
    const mp_rcell *p0, *p1, *e1;/* poll's first and last cells, epoll's last */
    const mp_rcell *pm;          /* poll's cell at the slope's first N above N0 (lin_from;
                                  * with none resolved, the first candidate's);
                                  * NULL without one */
    const mp_rcell *elo, *ehi;   /* epoll's cells with the lowest and the highest
                                  * median: the two its max/min is of */
    /* not resolved because an interval straddles the bound (not for too few
     * repeats): poll grows, about linearly, epoll flat */
    int grows_noise, lin_noise, flat_noise;
} mp_rlinear;
/* 1 when poll and epoll each have two N or more in mode, else 0. */
int mp_rv_linear(const mp_rmodel *m, const char *mode, const char *kind, mp_rlinear *o);
/* "holds", "holds in part", "does not hold", "not resolved" */
const char *mp_rv_linear_verdict(const mp_rlinear *o);

/* The fd kind a seed measured: "000" and "001" TCP sockets ("tcp"), "002"
 * pipes ("pipe"); NULL for another seed. */
const char *mp_rv_seed_kind(const char *seed);

/* The fd kind a seed's claim in mode is judged on: the kind the seed
 * measured (wakeup: seed 000, TCP sockets, else socketpairs; ready: seed
 * 002, pipes) where the run has it, else the run's first kind.  *seed_kind
 * is the seed's own kind; the two differ when the run lacks it.  A claim of
 * seed 000 that does not depend on the mode is judged on the wakeup kind. */
const char *mp_rv_claim_kind(const mp_rmodel *m, const char *mode, const char **seed_kind);

/* The poll/epoll ratio at 10,000 fds against the seed's figure for the
 * mode (seed NaN: none): within a factor of 2, within 10, or further, by
 * the range of factors the ratio's interval allows. */
typedef struct mp_rratio {
    const mp_rcell *pc, *ec;
    double r, lo, hi;            /* lo, hi: the ratio's interval (NaN: none) */
    double seed, factor;         /* the seed's ratio; how far apart, >= 1 */
    double flo, fhi;             /* the factor's range by the interval (NaN: none) */
    int has_ci, band;            /* has_ci: both cells have repeat medians (a ratio
                                  * without a 95% interval is then not resolved);
                                  * band 0, 1, 2 as above; -1 not resolved */
    char why[300];
} mp_rratio;
/* The seed's poll/epoll ratio at 10,000 fds: seed 002's in ready mode (1;
 * its article says "epoll is 1,540 times faster than poll"), seed 000's in
 * wakeup mode (0), from their reference datasets' source_claims. */
double mp_rv_seed_ratio(int ready);
/* 1 when the run has poll and epoll at N=10,000 in mode, else 0. */
int mp_rv_ratio(const mp_rmodel *m, const char *mode, const char *kind, mp_rratio *o);
const char *mp_rv_ratio_verdict(const mp_rratio *o);

/* The cells whose spread changes a conclusion: for each claim of mode (on
 * its claim kind, mp_rv_claim_kind) left not resolved because an interval
 * straddles its bound, the cells that bound that interval: "poll grows":
 * poll's first and last cells; "about linearly": those and poll's cell at
 * the slope's first N (poll's first cell and the first candidate's where
 * every candidate is within noise); "epoll is flat": epoll's cells with the lowest and
 * the highest median; "poll/epoll at 10,000": poll's and epoll's
 * cells there.  Of these, the noisy ones (mp_rc_noisy) where any is, else
 * all.  A claim unresolved for too few repeat medians names no cell.  Up
 * to max, in that order, one entry per cell and claim; returns how many. */
typedef struct mp_rdecider {
    const mp_rcell *cell;
    const char *claim;   /* "poll grows", "about linearly", "epoll is flat",
                          * "poll/epoll at 10,000" */
} mp_rdecider;
#define MP_RV_MAX_DECIDERS 9
size_t mp_rv_deciders(const mp_rmodel *m, const char *mode, mp_rdecider *out, size_t max);
/* The claims of c among d[0, n) (mp_rv_deciders of c's mode), ", "-joined
 * in that order, into buf; how many (0, and "", when none). */
size_t mp_rv_decider_claims(const mp_rdecider *d, size_t n, const mp_rcell *c, char *buf,
                            size_t len);

#endif
