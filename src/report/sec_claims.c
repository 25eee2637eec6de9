/* sec_claims.c - the source articles' claims (shared/seeds/, summarised
 * in docs/report.md) checked against one run: O(N) poll vs flat epoll, the
 * poll/epoll ratio at 10,000 fds, the byte and line counts, the FD_SETSIZE
 * cliff and the "384 bytes for 3 ready events" figure.  See report/md.h. */
#include "report/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/calc.h"
#include "report/reference.h"
#include "report/util.h"

/* The seeds' own figures are the reference datasets (reports/reference/,
 * read through report/reference.h like compare reads them): seed 000 "poll
 * vs epoll: why linear multiplexing stalls" (EPYC 9354P, Linux 6.8, wakeup
 * mode) and seed 002, the Vietnamese article (arm64 container, ready mode,
 * timeout 0). */
#define SEED000 "epyc-9354p"
#define SEED002 "aarch64-gcc13-pipe"

static const char *first_kind(const mp_rmodel *m)
{
    return m->nkinds ? m->kinds[0] : "unknown";
}

static void claim_linear(FILE *f, const mp_rmodel *m, const char *kind)
{
    char a[32], b[32], c[32];
    fprintf(f, "- **poll is O(N), epoll is flat** (seeds 000 and 002):\n");
    if (!m->nmodes)
        fprintf(f, "  - not measured: results.json has no cells\n");
    for (size_t i = 0; i < m->nmodes; i++) {
        const char *mode = m->modes[i];
        double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS], ex[MP_RC_MAXPTS], ey[MP_RC_MAXPTS];
        size_t np = mp_rc_points(m, mode, kind, "poll", "wall_ns", x, y, MP_RC_MAXPTS);
        size_t ne = mp_rc_points(m, mode, kind, "epoll", "wall_ns", ex, ey, MP_RC_MAXPTS);
        if (np < 2 || ne < 2) {
            fprintf(f, "  - %s mode: not measured (needs poll and epoll at two N or more)\n",
                    mode);
            continue;
        }
        mp_fit pf = mp_fit_linear(x, y, np);
        double ll = mp_loglog_slope(x[0], y[0], x[np - 1], y[np - 1]);
        double lo = ey[0], hi = ey[0];
        for (size_t k = 1; k < ne; k++) {
            lo = fmin(lo, ey[k]);
            hi = fmax(hi, ey[k]);
        }
        double spread = lo > 0 ? hi / lo : INFINITY;
        int lin = pf.ok && pf.slope > 0 && pf.r2 >= 0.9 &&
                  (x[np - 1] / x[0] < 100 || ll >= 0.5);
        int flat = spread <= 2.0;
        fprintf(f, "  - %s mode: **%s**. poll: %s ns per fd (R² %.3f), log-log slope %.2f "
                   "from N=%.0f to %.0f; epoll: median from %s to %s ns over N=%.0f..%.0f "
                   "(max/min %.2f).\n", mode,
                lin && flat ? "holds" : lin || flat ? "holds in part" : "does not hold",
                mp_fmt_num(a, sizeof a, pf.slope), pf.r2, ll, x[0], x[np - 1],
                mp_fmt_num(b, sizeof b, lo), mp_fmt_num(c, sizeof c, hi), ex[0], ex[ne - 1],
                spread);
    }
}

static void claim_ratio(FILE *f, const mp_rmodel *m, const char *kind)
{
    fprintf(f, "- **poll/epoll ratio at 10,000 fds**: seed 000 reports 240.75 in wakeup mode "
               "(EPYC 9354P, Linux 6.8); seed 002 about 1,540 in ready mode (arm64 container). "
               "Absolute ratios depend on the host; the claim is the order of magnitude.\n");
    if (!m->nmodes)
        fprintf(f, "  - not measured: results.json has no cells\n");
    for (size_t i = 0; i < m->nmodes; i++) {
        const char *mode = m->modes[i];
        int wake = !strcmp(mode, "wakeup");
        double seed = wake ? 240.75 : !strcmp(mode, "ready") ? 1540 : NAN;
        long long at = -1;
        for (size_t c = 0; c < m->ncells; c++) {   /* 10000, else the largest common N */
            const mp_rcell *x = &m->cells[c];
            if (strcmp(x->mode, mode) || strcmp(x->fd_kind, kind) || strcmp(x->backend, "poll"))
                continue;
            if (isfinite(mp_rc_ratio(m, mode, kind, "poll", x->nfds)) &&
                (at != 10000 && (x->nfds == 10000 || x->nfds > at)))
                at = x->nfds;
        }
        if (at < 0) {
            fprintf(f, "  - %s mode: not measured (no N with both poll and epoll)\n", mode);
            continue;
        }
        double r = mp_rc_ratio(m, mode, kind, "poll", at);
        char a[32];
        if (!isfinite(seed)) {
            fprintf(f, "  - %s mode: %s× at N=%lld (no seed figure for this mode)\n", mode,
                    mp_fmt_num(a, sizeof a, r), at);
            continue;
        }
        double fac = r > seed ? r / seed : seed / r;
        const char *v = at != 10000 ? "not measured at 10,000"
                      : fac <= 2 ? "holds (within a factor of 2)"
                      : fac <= 10 ? "same order of magnitude" : "does not hold on this host";
        fprintf(f, "  - %s mode: **%s**: measured %s× at N=%lld against the seed's %g× "
                   "(a factor of %.2f apart).\n", mode, v, mp_fmt_num(a, sizeof a, r), at,
                seed, fac);
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

static void claim_bytes(FILE *f, const mp_rmodel *m, const char *kind)
{
    mp_move p10k = mp_move_poll(10000, m->line_bytes);
    mp_move p20k = mp_move_poll(20000, 64);
    mp_move p20h = mp_move_poll(20000, m->line_bytes);
    fprintf(f, "- **\"80,000 bytes copied at 10,000 fds\"** (seed 000): **holds** by the ABI: "
               "10,000 x 8-byte pollfd = %llu bytes copied in; the kernel also writes "
               "`revents` back into every entry, so %llu bytes cross the boundary in all "
               "(%llu + %llu lines of %u bytes).",
            p10k.bytes_in, p10k.bytes_in + p10k.bytes_out, p10k.lines_in, p10k.lines_out,
            m->line_bytes);
    int said = 0;
    for (size_t i = 0; i < m->nmodes; i++) {
        const mp_rcell *c = mp_rm_find(m, m->modes[i], kind, "poll", 10000);
        for (size_t k = 0; c && k < c->ncounters; k++) {
            char a[32], b[32];
            if (!cache_counter(c->counters[k].name))
                continue;
            fprintf(f, "%s %s mode %s: %s per call = %s per pollfd line", said++ ? ";" :
                    " Measured at N=10,000:", m->modes[i], c->counters[k].name,
                    mp_fmt_num(a, sizeof a, c->counters[k].s.p50),
                    mp_fmt_num(b, sizeof b, c->counters[k].s.p50 / (double)p10k.lines_in));
        }
    }
    fprintf(f, "%s\n", said ? "." : " No cache counters were measured for poll at N=10,000 "
            "(see Counters), so the bytes are not checked against misses.");
    fprintf(f, "- **\"2,500 cache lines at 20,000 fds\"** (seed 000): **%s**: 20,000 x 8 = "
               "%llu bytes = %llu lines of 64 bytes; with this host's %u-byte lines%s, %llu "
               "lines.", m->line_bytes == 64 ? "holds" : "holds only for 64-byte lines",
            p20k.bytes_in, p20k.lines_in, m->line_bytes, m->line_known ? "" : " (assumed)",
            p20h.lines_in);
    int at20k = 0;
    for (size_t i = 0; i < m->nmodes; i++)
        at20k |= mp_rm_find(m, m->modes[i], kind, "poll", 20000) != NULL;
    fprintf(f, "%s\n", at20k ? " This run measured poll at N=20,000: see the cache-line "
                               "correlation above." : " This run did not measure N=20,000.");
}

static void claim_fdsetsize(FILE *f, const mp_rmodel *m)
{
    long long ok_max = -1, ok_fd = -1, un_min = -1, un_fd = -1, bad_ok = -1;
    const char *reason = "";
    int bad_un = 0, un_est = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->backend, "select"))
            continue;
        long long fd = mp_rc_maxfd(c);
        if (c->status == MP_RC_OK) {
            if (c->nfds > ok_max) {
                ok_max = c->nfds;
                ok_fd = fd;
            }
            if (fd >= 1024)
                bad_ok = fd;
        } else if (c->status == MP_RC_UNSUPPORTED) {
            if (un_min < 0 || c->nfds < un_min) {
                un_min = c->nfds;
                un_fd = fd;
                un_est = c->fd_hi < 0;
                reason = c->reason;
            }
            bad_un |= fd < 1024;
        }
    }
    fprintf(f, "- **FD_SETSIZE cliff** (seeds 001, 002: select cannot watch fd numbers >= "
               "1024): ");
    if (ok_max < 0 && un_min < 0) {
        fprintf(f, "not tested (no select cells).\n");
        return;
    }
    char r[300];
    if (bad_ok >= 0)
        fprintf(f, "**does not hold here**: select ran with fd %lld.\n", bad_ok);
    else if (un_min < 0)
        fprintf(f, "not tested: every select cell had fds below 1024 (largest N %lld, "
                   "maxfd %lld).\n", ok_max, ok_fd);
    else
        fprintf(f, "**%s**: select ran up to N=%lld (maxfd %lld) and was unsupported from "
                   "N=%lld (maxfd %lld%s): %s\n", bad_un ? "holds, but some cells were "
                   "refused below fd 1024" : "holds", ok_max, ok_fd, un_min, un_fd,
                un_est ? ", estimated" : "",
                reason[0] ? mp_md_cell(r, sizeof r, reason) : "(no reason given)");
}

static void claim_384(FILE *f, const mp_rmodel *m)
{
    fprintf(f, "- **\"384 bytes of epoll_event for 3 ready events\"** (seed 000): **does not "
               "hold**: `struct epoll_event` is 12 bytes on x86_64 and 16 on arm64, so 3 "
               "events are %u or %u bytes (384 would need 128 bytes per event). This run "
               "(%s) copies %u bytes, %llu line, per call for its one ready fd.\n",
            3 * mp_abi_epoll_event_bytes(MP_ABI_X86_64), 3 * mp_abi_epoll_event_bytes(MP_ABI_ARM64),
            m->arch, mp_abi_epoll_event_bytes(m->abi),
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
            return x->status == MP_RC_UNSUPPORTED ? "unsupported" : "error";
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

static void seed_tables(FILE *f, const mp_rmodel *m, const char *kind)
{
    char a[32], b[32], c[32], d[32];
    long long ns[MP_RC_MAXPTS];
    mp_rmodel *s000 = calloc(1, sizeof *s000), *s002 = calloc(1, sizeof *s002);
    if (!s000 || !s002 || load_seed(s000, SEED000, f) < 0 || load_seed(s002, SEED002, f) < 0)
        goto out;
    fprintf(f, "\nThe seeds' own numbers beside this run's medians (ns per call; different "
               "hosts, so compare shapes, not values):\n\n"
               "| N | seed 000 poll (wakeup) | this run poll (wakeup) | seed 000 epoll "
               "(wakeup) | this run epoll (wakeup) |\n|---:|---:|---:|---:|---:|\n");
    size_t n000 = seed_ns(s000, "wakeup", "poll", ns, MP_RC_MAXPTS);
    for (size_t i = 0; i < n000; i++)
        fprintf(f, "| %lld | %s | %s | %s | %s |\n", ns[i],
                mp_fmt_num(a, sizeof a, seed_p50(s000, "wakeup", "poll", ns[i])),
                run_p50(m, "wakeup", kind, "poll", ns[i], b, sizeof b),
                mp_fmt_num(c, sizeof c, seed_p50(s000, "wakeup", "epoll", ns[i])),
                run_p50(m, "wakeup", kind, "epoll", ns[i], d, sizeof d));
    fprintf(f, "\n| N | seed 002 select (ready) | this run | seed 002 poll (ready) | this run "
               "| seed 002 epoll (ready) | this run |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    size_t n002 = seed_ns(s002, "ready", "poll", ns, MP_RC_MAXPTS);
    for (size_t i = 0; i < n002; i++) {
        char e[32], g[32];
        long long n = ns[i];
        double sel = seed_p50(s002, "ready", "select", n);
        fprintf(f, "| %lld | %s | %s | %s | %s | %s | %s |\n", n,
                isfinite(sel) ? mp_fmt_num(a, sizeof a, sel) : "not possible",
                run_p50(m, "ready", kind, "select", n, b, sizeof b),
                mp_fmt_num(c, sizeof c, seed_p50(s002, "ready", "poll", n)),
                run_p50(m, "ready", kind, "poll", n, d, sizeof d),
                mp_fmt_num(e, sizeof e, seed_p50(s002, "ready", "epoll", n)),
                run_p50(m, "ready", kind, "epoll", n, g, sizeof g));
    }
    fputc('\n', f);
out:
    if (s000)
        mp_rm_free(s000);
    if (s002)
        mp_rm_free(s002);
    free(s000);
    free(s002);
}

static void claims(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    const char *kind = first_kind(m);
    fprintf(f, "## The source articles' claims, checked\n\n"
               "Seeds: 000 \"poll vs epoll: why linear multiplexing stalls at scale\", 001 "
               "\"epoll vs select toy\", 002 the Vietnamese select/poll/epoll article (see "
               "docs/report.md). Checked on %s fds.\n\n", kind);
    claim_linear(f, m, kind);
    claim_ratio(f, m, kind);
    claim_bytes(f, m, kind);
    claim_fdsetsize(f, m);
    claim_384(f, m);
    seed_tables(f, m, kind);
}

const mp_rsection mp_rsec_claims = {"claims", 1, 1, NULL, NULL, claims};
