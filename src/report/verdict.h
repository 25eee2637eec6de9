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

/* "poll is O(N), epoll is flat" in one mode. */
typedef struct mp_rlinear {
    mp_rcost pc, ec;             /* poll's and epoll's medians against N */
    double loglog;               /* poll's log-log slope, first to last N */
    double loglog_lo, loglog_hi; /* its interval (NaN: none) */
    double lo, hi, spread;       /* epoll's lowest and highest median, hi / lo */
    double spread_lo, spread_hi; /* the range of hi / lo the cells' intervals allow */
    int grows, lin, flat;        /* on the medians alone */
    int has_ci;                  /* every cell of both has repeat medians */
    int on, flat_v;              /* MP_RV_*: poll O(N), epoll flat */
    char why[600];               /* what is not resolved, "" when all is */
    const mp_rcell *p1, *e1;     /* poll's and epoll's cells at their largest N */
} mp_rlinear;
/* 1 when poll and epoll each have two N or more in mode, else 0. */
int mp_rv_linear(const mp_rmodel *m, const char *mode, const char *kind, mp_rlinear *o);
/* "holds", "holds in part", "does not hold", "not resolved" */
const char *mp_rv_linear_verdict(const mp_rlinear *o);

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
/* 1 when the run has poll and epoll at N=10,000 in mode, else 0. */
int mp_rv_ratio(const mp_rmodel *m, const char *mode, const char *kind, mp_rratio *o);
const char *mp_rv_ratio_verdict(const mp_rratio *o);

#endif
