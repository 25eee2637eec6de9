/* SPDX-License-Identifier: MIT */
/* sec_cache.c - the report sections about bytes and cache lines: what
 * the kernel ABI makes each call move, how the counters follow the pollfd
 * lines, where the cost bends (knees) beside the cache sizes, and the
 * source articles' claims checked against this run.  See report/md.h. */
#include "report/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/series.h"
#include "common/quote.h"
#include "report/format.h"

#define MP_FD_SETSIZE 1024   /* select() cannot watch fd numbers from here */
#define MAXN 64

static size_t all_nfds(const mp_rmodel *m, long long *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        long long v = m->cells[i].nfds;
        size_t j = 0;
        while (j < n && out[j] != v)
            j++;
        if (j < n || n >= MAXN)
            continue;
        j = n++;
        while (j > 0 && out[j - 1] > v) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
    return n;
}

static long long select_maxfd(const mp_rmodel *m, long long nfds, int *measured)
{
    for (size_t i = 0; i < m->ncells; i++)
        if (m->cells[i].nfds == nfds && !strcmp(m->cells[i].backend, "select") &&
            m->cells[i].fd_hi >= 0) {
            *measured = 1;
            return m->cells[i].fd_hi;
        }
    *measured = 0;
    return nfds + 2;
}

static void cache_model(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    long long ns[MAXN];
    size_t n = all_nfds(m, ns);
    char a[32], b[32], c[32];
    unsigned ev = mp_abi_epoll_event_bytes(m->abi);
    fprintf(f, "## Bytes and cache lines each call must move (kernel ABI)\n\n"
        "From the kernel's interface, not measured: `struct pollfd` is 8 bytes per watched "
        "fd, copied in by `copy_from_user`; only its 2-byte `revents` is written back, but "
        "into every entry, so the same lines go out; "
        "`select()` copies each fd_set bitmap of ceil((maxfd+1)/64) 8-byte words in and back "
        "(muxprof passes only the read set; with all three sets, triple the select columns); "
        "`epoll_wait()` copies nothing in and one `struct epoll_event` out per ready fd: 12 "
        "bytes on x86_64 (packed), 16 on arm64. This run: arch %s, %u bytes per event, "
        "%u-byte cache lines%s.\n\n", MP_QMD(m->arch), ev, m->line_bytes,
        m->line_known ? "" : " (assumed)");
    fprintf(f, "| N | poll bytes in / out | poll lines in / out | select maxfd | select bytes "
               "in / out | select lines in / out | epoll bytes out (1 ready) | epoll lines |\n"
               "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++) {
        int meas;
        long long maxfd = select_maxfd(m, ns[i], &meas);
        mp_move p = mp_move_poll((unsigned long long)ns[i], m->line_bytes);
        mp_move s = mp_move_select((unsigned long long)maxfd, 1, m->line_bytes);
        mp_move e = mp_move_epoll(1, m->abi, m->line_bytes);
        char a2[32], b2[32], sel[160], d[32], g[32];
        if (maxfd >= MP_FD_SETSIZE)   /* select cannot run: no model to show */
            snprintf(sel, sizeof sel, "– (fd %s >= FD_SETSIZE) | – | –",
                     mp_fmt_num(g, sizeof g, (double)maxfd));
        else
            snprintf(sel, sizeof sel, "%s%s | %s / %s | %llu / %llu",
                     mp_fmt_num(g, sizeof g, (double)maxfd),
                     meas ? "" : " (est.)", mp_fmt_num(c, sizeof c, (double)s.bytes_in),
                     mp_fmt_num(a2, sizeof a2, (double)s.bytes_out), s.lines_in, s.lines_out);
        fprintf(f, "| %s | %s / %s | %s / %s | %s | %llu | %llu |\n",
                mp_fmt_num(d, sizeof d, (double)ns[i]),
                mp_fmt_num(a, sizeof a, (double)p.bytes_in),
                mp_fmt_num(a2, sizeof a2, (double)p.bytes_out),
                mp_fmt_num(b, sizeof b, (double)p.lines_in),
                mp_fmt_num(b2, sizeof b2, (double)p.lines_out), sel, e.bytes_out, e.lines_out);
    }
    fputc('\n', f);
}

/* The section is written to a buffer first and left out when it has no row:
 * the results section already says that a fit needs two N. */
static void correlation_rows(FILE *f, const mp_rmodel *m, size_t *nrows);

static void correlation(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    char *buf = NULL;
    size_t len = 0, rows = 0;
    FILE *mf = open_memstream(&buf, &len);
    if (!mf) {
        correlation_rows(f, m, &rows);
        return;
    }
    correlation_rows(mf, m, &rows);
    if (fclose(mf) == 0 && rows)
        fwrite(buf, 1, len, f);
    free(buf);
}

static void correlation_rows(FILE *f, const mp_rmodel *m, size_t *nrows)
{
    char a[32], b[32], c[32], d[32];
    fprintf(f, "## Cache-line correlation\n\n"
        "Each counter's median per call fitted against the cache lines the call's array "
        "spans: the pollfd array's ceil(8 N / %u) for poll and epoll, the read set's bitmap "
        "lines (ceil((maxfd + 1) / 64) 8-byte words) for select: events per line (slope), intercept "
        "and R² of the fit over the largest prefix of the sweep where it holds (R² >= %.2f and "
        "every point within %.0f%% of the line; over all points, marked \"all\", where it holds "
        "nowhere): the same fit the figures draw. \"Stops at N\" is the first N that breaks it. For poll a slope "
        "near 1 means about one event per pollfd line; for epoll the slope should be near 0. "
        "The time rows give nanoseconds per line over the interval the counters cover: "
        "`wall_ns` (one call) in ready mode; in wakeup mode `waiter_ns`, the waiter's own "
        "bracket from before it arms to after it returns (setup, sleep, wakeup, rescan), "
        "never the poke-to-return latency `wall_ns` (docs/methodology.md).\n\n",
        m->line_bytes, MP_RC_MIN_R2, MP_RC_MAX_REL * 100);
    size_t rows = 0;   /* the header only above a first row */
#define ROW_HEAD()                                                                         \
    (rows++ ? 0 : fprintf(f, "| mode | fds | counter | backend | per line | intercept | R² | " \
                             "points | holds through N | stops at N |\n"                  \
                             "|---|---|---|---|---:|---:|---:|---:|---:|---:|\n"))
    for (size_t i = 0; i < m->nmodes; i++)
        for (size_t k = 0; k < m->nkinds; k++)
            for (size_t c0 = 0; c0 <= m->nmetrics; c0++) {
                const char *time = strcmp(m->modes[i], "wakeup") ? "wall_ns" : "waiter_ns";
                const char *metric = c0 < m->nmetrics ? m->metrics[c0] : time;
                if (mp_rc_all_zero(m, m->modes[i], m->kinds[k], metric))
                    continue;   /* never ticked: listed under Figures */
                for (size_t be = 0; be < m->nbackends; be++) {
                    mp_rlinefit lf;
                    if (!strcmp(metric, time) && strcmp(m->backends[be], "poll"))
                        continue;
                    if (!mp_rc_linefit(m, m->modes[i], m->kinds[k], m->backends[be], metric,
                                       &lf))
                        continue;
                    mp_rcost cst;
                    if (mp_rc_cost(m, m->modes[i], m->kinds[k], m->backends[be], metric,
                                   &cst) && cst.constant) {
                        ROW_HEAD();
                        fprintf(f, "| %s | %s | %s | %s | constant: %s in every cell | – | "
                                   "no R² | %zu | no fit (constant) | – |\n", m->modes[i],
                                m->kinds[k], MP_QMD(metric), m->backends[be],
                                mp_fmt_num(a, sizeof a, cst.y[0]), cst.n);
                        continue;
                    }
                    /* one number per quantity: the fit the figure draws */
                    int held = lf.k >= 3 && lf.held.ok;
                    const mp_fit *fit = held ? &lf.held : &lf.all;
                    char pts[48];
                    if (held)
                        snprintf(pts, sizeof pts, "%zu of %zu", lf.k, lf.n);
                    else
                        snprintf(pts, sizeof pts, "%zu (all)", lf.n);
                    ROW_HEAD();
                    fprintf(f, "| %s | %s | %s | %s | %s | %s | %.3f | %s | %s | %s |\n",
                            m->modes[i], m->kinds[k], MP_QMD(metric), m->backends[be],
                            mp_fmt_num(a, sizeof a, fit->slope),
                            mp_fmt_num(b, sizeof b, fit->intercept), fit->r2, pts,
                            lf.k ? mp_fmt_num(c, sizeof c, lf.last_nfds) :
                                   (lf.n < 3 ? "too few points" : "never"),
                            isfinite(lf.break_nfds) ? mp_fmt_num(d, sizeof d, lf.break_nfds)
                                                    : (lf.k ? "holds throughout" : "–"));
                }
            }
#undef ROW_HEAD
    *nrows = rows;
    if (!m->nmetrics)
        fprintf(f, "\nNo counter metrics in this run (see Counters below), so only the time "
                   "per pollfd line is fitted.\n");
    fputc('\n', f);
}

/* 1 when a counter name is a cache miss or refill count. */
static int is_miss_counter(const char *name)
{
    static const char *const words[] = {"miss", "refill", "MISS", "REFILL", "Miss"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(name, words[i]))
            return 1;
    return 0;
}

/* The footprints whose cache crossings lie within a factor of 2 of
 * [x0, x1], worded "coincides with". */
static void knee_crossings(FILE *f, const mp_rmodel *m, const mp_knee *kn, double kernel_per_fd)
{
    static const char *const what[] = {"pollfd array", "kernel estimate"};
    double per_fd[] = {MP_POLLFD_BYTES, kernel_per_fd};
    char a[32], b[32];
    int listed = 0;
    for (size_t fp = 0; fp < 2; fp++)
        for (size_t ci = 0; ci < m->ncaches; ci++) {
            double n = mp_cross_nfds(m->caches[ci].bytes, per_fd[fp]);
            if (!(n >= kn->x0 / 2 && n <= kn->x1 * 2))
                continue;
            fprintf(f, "%s %s (%s B/fd) filling %s at N ≈ %s", listed++ ? ";" : " coincides with",
                    what[fp], mp_fmt_num(a, sizeof a, per_fd[fp]), m->caches[ci].name,
                    mp_fmt_num(b, sizeof b, n));
        }
    if (!listed)
        fprintf(f, " no footprint crosses a cache level within 2× of the interval");
}

/* A count below zero can only be noise (a difference of two runs, as the
 * simulated K..2K counts are), and noise of that size can hit any
 * backend's count of the metric: the magnitude of the most negative count
 * of the metric in any series is a lower bound on its noise (0 when no
 * count is negative). */
static double noise_floor(const mp_rmodel *m, const char *mode, const char *kind,
                          const char *metric)
{
    double floor = 0;
    for (size_t be = 0; be < m->nbackends; be++) {
        double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
        size_t p = mp_rc_points(m, mode, kind, m->backends[be], metric, x, y, MP_RC_MAXPTS);
        for (size_t i = 0; i < p; i++)
            if (y[i] < 0 && -y[i] > floor)
                floor = -y[i];
    }
    return floor;
}

/* What the miss counters of the backend did over the same interval. */
static void knee_misses(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                        const char *backend, const mp_knee *kn)
{
    char a[32], b[32], c[32];
    int said = 0;
    for (size_t k = 0; k < m->nmetrics; k++) {
        if (!is_miss_counter(m->metrics[k]))
            continue;
        double v0 = mp_rm_p50(mp_rm_find(m, mode, kind, backend, (long long)kn->x0),
                              m->metrics[k]);
        double v1 = mp_rm_p50(mp_rm_find(m, mode, kind, backend, (long long)kn->x1),
                              m->metrics[k]);
        if (!isfinite(v0) || !isfinite(v1))
            continue;
        double floor = noise_floor(m, mode, kind, m->metrics[k]);
        if (floor > 0 && (v0 <= floor || v1 <= floor)) {
            fprintf(f, "%s %s %s → %s per call: within its noise (counts down to -%s): no "
                    "evidence either way", said++ ? ";" : "", MP_QMD(m->metrics[k]),
                    mp_fmt_num(a, sizeof a, v0), mp_fmt_num(b, sizeof b, v1),
                    mp_fmt_num(c, sizeof c, floor));
            continue;
        }
        double sl = mp_loglog_slope(kn->x0, v0, kn->x1, v1);
        fprintf(f, "%s %s %s → %s per call (log-log slope %s): %s", said++ ? ";" : "",
                MP_QMD(m->metrics[k]), mp_fmt_num(a, sizeof a, v0), mp_fmt_num(b, sizeof b, v1),
                isfinite(sl) ? (snprintf(c, sizeof c, "%.2f", sl), c) : "n/a",
                sl > MP_KNEE_SLOPE ? "rise faster than N in the same interval (evidence "
                                     "for a cache cause)"
                                   : "do not rise faster than N (no evidence for a cache "
                                     "cause)");
    }
    if (!said)
        fprintf(f, " not measured (no miss counter in this run): the coincidence alone is "
                   "not evidence");
}

/* " [lo, hi]" of a knee's log-log slope, or " (interval not available)". */
static const char *knee_ci(const mp_knee *k, char *buf, size_t len)
{
    if (isfinite(k->lo) && isfinite(k->hi))
        snprintf(buf, len, " [%.2f, %.2f]", k->lo, k->hi);
    else
        snprintf(buf, len, " (interval not available)");
    return buf;
}

void mp__r_knees(const mp_rmodel *m, const char *mode, const char *kind, const char *backend,
                 const char *metric, mp_rknees *out)
{
    double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
    /* No count within the noise floor starts or ends a knee. */
    out->floor = noise_floor(m, mode, kind, metric);
    out->npts = mp_rc_points(m, mode, kind, backend, metric, x, y, MP_RC_MAXPTS);
    out->dropped = 0;
    for (size_t i = 0; out->floor > 0 && i < out->npts; i++)
        if (y[i] <= out->floor) {
            y[i] = NAN;
            out->dropped++;
        }
    out->nk = out->nnr = 0;
    double level = mp_rc_family_level(out->npts > 1 ? out->npts - 1 : 1);
    for (size_t i = 0; i + 1 < out->npts; i++) {
        mp_knee k = {.i = i, .x0 = x[i], .x1 = x[i + 1], .lo = NAN, .hi = NAN,
                     .slope = mp_loglog_slope(x[i], y[i], x[i + 1], y[i + 1])};
        if (!isfinite(k.slope))
            continue;
        int rc = -EINVAL;
        if (!strcmp(metric, "wall_ns"))
            rc = mp_rc_loglog_ci(mp_rm_find(m, mode, kind, backend, (long long)k.x0), k.x0,
                                 mp_rm_find(m, mode, kind, backend, (long long)k.x1), k.x1,
                                 level, &k.lo, &k.hi);
        /* Cells with repeats too few for the family's level: not resolved,
         * never decided on the slope alone (that is for cells without
         * repeats, such as a published reference). */
        int side = rc == -ERANGE ? MP_RC_STRADDLES : mp_rc_side(k.lo, k.hi, MP_KNEE_SLOPE);
        if (side == MP_RC_ABOVE || (side == MP_RC_NO_CI && k.slope > MP_KNEE_SLOPE)) {
            if (out->nk < MP_RKNEES_MAX)
                out->kn[out->nk] = k;
            out->nk++;
        } else if (side == MP_RC_STRADDLES && out->nnr < MP_RKNEES_MAX) {
            out->nr[out->nnr++] = k;
        }
    }
}

void mp__rmd_knees(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                   const char *metric)
{
    int wake = !strcmp(mode, "wakeup");
    double kb = mp_kernel_bytes_per_fd(wake);
    double per_fd = MP_POLLFD_BYTES + kb;
    char a[32], b[32], c[32];
    int two = 0;   /* a knee needs two N of one backend; none: nothing said */
    for (size_t be = 0; be < m->nbackends && !two; be++) {
        mp_rknees k;
        mp__r_knees(m, mode, kind, m->backends[be], metric, &k);
        two = k.npts >= 2;
    }
    if (!two)
        return;
    fprintf(f, "Knees: intervals between neighbouring N where the log-log slope of the "
               "median exceeds %.1f (cost growing faster than N); where the cells have "
               "repeat medians, only those whose interval [lo, hi] of that slope (ln of "
               "the Hodges-Lehmann interval of the ratio of the two cells' repeat medians, "
               "over ln(N₂/N₁); a backend's m intervals cover together at 95%%, each at "
               "1 − 5%%/m) lies wholly above it. Each lists every "
               "footprint that fills a cache level within a factor of 2 of the interval: "
               "that is a coincidence, not a cause; the miss counters of the same interval, "
               "where measured, are the evidence.\n\n", MP_KNEE_SLOPE);
    int any = 0;
    size_t unresolved = 0;
    char noise[1024] = "";
    double floor = 0;
    for (size_t be = 0; be < m->nbackends; be++) {
        mp_rknees k;
        mp__r_knees(m, mode, kind, m->backends[be], metric, &k);
        const mp_knee *kn = k.kn;
        floor = k.floor;
        unresolved += k.nnr;
        if (k.dropped) {
            size_t len = strlen(noise);
            snprintf(noise + len, sizeof noise - len, "%s%s %zu of %zu", len ? ", " : "",
                     m->backends[be], k.dropped, k.npts);
        }
        size_t nk = k.nk;
        for (size_t i = 0; i < nk && i < MP_RKNEES_MAX; i++) {
            if (!any++)
                fprintf(f, "| backend | from N | to N | log-log slope | cache crossings "
                           "nearby | miss counters, same interval |\n"
                           "|---|---:|---:|---:|---|---|\n");
            fprintf(f, "| %s | %s | %s | %.2f%s |", m->backends[be],
                    mp_fmt_num(a, sizeof a, kn[i].x0), mp_fmt_num(b, sizeof b, kn[i].x1),
                    kn[i].slope, knee_ci(&kn[i], c, sizeof c));
            knee_crossings(f, m, &kn[i], per_fd);
            fprintf(f, " |");
            knee_misses(f, m, mode, kind, m->backends[be], &kn[i]);
            fprintf(f, " |\n");
        }
    }
    if (!any)
        fprintf(f, "No knee: no backend's cost grows faster than N between neighbouring "
                   "points%s.\n", unresolved ? " by more than the interval allows" : "");
    fputc('\n', f);
    for (size_t be = 0, said = 0; be < m->nbackends && unresolved; be++) {
        mp_rknees k;
        mp__r_knees(m, mode, kind, m->backends[be], metric, &k);
        for (size_t i = 0; i < k.nnr; i++)
            fprintf(f, "%s %s %s→%s (log-log slope %.2f%s)", said++ ? ";" : "Not resolved "
                    "(the interval of the log-log slope contains the knee threshold, or the "
                    "cells have too few repeat medians for it, so neither a knee nor its "
                    "absence is shown):", m->backends[be],
                    mp_fmt_num(a, sizeof a, k.nr[i].x0), mp_fmt_num(b, sizeof b, k.nr[i].x1),
                    k.nr[i].slope, knee_ci(&k.nr[i], c, sizeof c));
        if (be + 1 == m->nbackends)
            fprintf(f, ".\n\n");
    }
    if (noise[0])
        fprintf(f, "Points left out of the knee search as noise, at or below %s per call (the "
                   "magnitude of the most negative count of this metric in any series, which "
                   "only noise gives: a lower bound on the noise, so points above it may be "
                   "noise too): %s.\n\n", mp_fmt_num(a, sizeof a, floor), noise);
    if (!m->ncaches) {
        fprintf(f, "No cache sizes in results.json (topology.caches), so no cache-size "
                   "crossings.\n\n");
        return;
    }
    fprintf(f, "N at which a per-descriptor footprint fills each cache: the pollfd array "
               "(8 B/fd, read sequentially, so prefetched) and an estimate of the kernel's "
               "working set in %s mode (%.0f B/fd: "
               "pollfd 8, fdtable slot 8, one line each of struct file and the pipe/socket%s):\n\n"
               "| cache | size (bytes) | N, pollfd array | N, kernel estimate |\n"
               "|---|---:|---:|---:|\n", mode, per_fd,
            wake ? ", plus the poll_table_entry and the wait-queue head line" : "");
    for (size_t ci = 0; ci < m->ncaches; ci++)
        fprintf(f, "| %s | %s | %s | %s |\n", m->caches[ci].name,
                mp_fmt_num(a, sizeof a, (double)m->caches[ci].bytes),
                mp_fmt_num(b, sizeof b, mp_cross_nfds(m->caches[ci].bytes, MP_POLLFD_BYTES)),
                mp_fmt_num(c, sizeof c, mp_cross_nfds(m->caches[ci].bytes, per_fd)));
    fputc('\n', f);
}

const mp_rsection mp_rsec_cache = {"cache", 1, 0, NULL, cache_model, NULL, 0};
const mp_rsection mp_rsec_correlation = {"correlation", 1, 0, NULL, correlation, NULL, 0};
