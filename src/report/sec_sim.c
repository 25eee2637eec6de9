/* SPDX-License-Identifier: MIT */
/* sec_sim.c - the section of a simulated run (scripts/muxsim.sh, written
 * by `muxprof sim-import`): counts of the cache and TLB model per call,
 * knees of the simulated misses beside the simulated cache sizes, findings
 * on the LLC, and where the misses are, by kernel function.  Every heading and table names the model ("simulated
 * (GEOMETRY)"): these are counts of a model, never a host's.  Nothing in a
 * measured run.  See docs/cachesim.md. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/series.h"
#include "report/model.h"
#include "report/verdict.h"
#include "common/quote.h"
#include "report/format.h"

#define TOP_ROWS 8

static const char *cnt(char *b, size_t len, double v)
{
    return isfinite(v) ? mp_fmt_num(b, len, v) : "–";
}

static void table_counts(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    char a[32], b[32], c[32], d[32], e[32], g[32], h[32];
    fprintf(f, "### %s mode, %s fds (%s)\n\n"
               "| backend | N | L1d accesses | L1d misses | L1d misses per fd | L1d misses "
               "per array line | L2 accesses | L2 misses | L1i misses |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", mode, kind, MP_QMD(m->sim_label));
    for (size_t be = 0; be < m->nbackends; be++) {
        const mp_rcell *s[MP_RC_MAXPTS];
        size_t n = mp_rm_series(m, mode, kind, m->backends[be], s, MP_RC_MAXPTS);
        for (size_t i = 0; i < n && i < MP_RC_MAXPTS; i++) {
            if (s[i]->status != MP_CELL_OK) {
                fprintf(f, "| %s | %s | %s | | | | | | |\n", m->backends[be],
                        mp_fmt_num(h, sizeof h, (double)s[i]->nfds),
                        s[i]->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error");
                continue;
            }
            double miss = mp_rm_p50(s[i], "sim:L1d-misses");
            char nn[32];
            fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", m->backends[be],
                    mp_fmt_num(nn, sizeof nn, (double)s[i]->nfds),
                    cnt(a, sizeof a, mp_rm_p50(s[i], "sim:L1d-accesses")),
                    cnt(b, sizeof b, miss), cnt(c, sizeof c, miss / (double)s[i]->nfds),
                    cnt(d, sizeof d, miss / mp_rc_array_lines(m, s[i], m->backends[be])),
                    cnt(e, sizeof e, mp_rm_p50(s[i], "sim:L2-accesses")),
                    cnt(g, sizeof g, mp_rm_p50(s[i], "sim:L2-misses")),
                    cnt(h, sizeof h, mp_rm_p50(s[i], "sim:L1i-misses")));
        }
    }
    fputc('\n', f);
}

/* Whether the run comes from muxprof's own model (scripts/muxsim.sh): it
 * has the L3 and the TLBs, which QEMU's plugin lacks. */
static int own_model(const mp_rmodel *m)
{
    for (size_t i = 0; i < m->ncells; i++)
        if (m->cells[i].status == MP_CELL_OK && isfinite(mp_rm_p50(&m->cells[i], "sim:LLC-load-misses")))
            return 1;
    return 0;
}

/* The L3 (LLC) and TLB counts of muxprof's own model. */
static void table_llc_tlb(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    static const char *const col[] = {"sim:L3-accesses", "sim:L3-misses", "sim:LLC-loads",
                                      "sim:LLC-load-misses", "sim:dTLB-misses", "sim:dTLB-walks",
                                      "sim:iTLB-misses"};
    char v[32], nn[32];
    fprintf(f, "L3 (the LLC) and TLBs, %s mode, %s fds (%s), p50 per call:\n\n"
               "| backend | N | L3 accesses | L3 misses | LLC loads | LLC-load misses | "
               "LLC-load misses per fd | dTLB misses | dTLB misses per fd | dTLB walks | "
               "iTLB misses |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            mode, kind, MP_QMD(m->sim_label));
    for (size_t be = 0; be < m->nbackends; be++) {
        const mp_rcell *s[MP_RC_MAXPTS];
        size_t n = mp_rm_series(m, mode, kind, m->backends[be], s, MP_RC_MAXPTS);
        for (size_t i = 0; i < n && i < MP_RC_MAXPTS; i++) {
            if (s[i]->status != MP_CELL_OK)
                continue;
            fprintf(f, "| %s | %s", m->backends[be], mp_fmt_num(nn, sizeof nn, (double)s[i]->nfds));
            for (size_t k = 0; k < sizeof col / sizeof col[0]; k++) {
                double x = mp_rm_p50(s[i], col[k]);
                fprintf(f, " | %s", cnt(v, sizeof v, x));
                if (k == 3 || k == 4)
                    fprintf(f, " | %s", cnt(v, sizeof v, x / (double)s[i]->nfds));
            }
            fprintf(f, " |\n");
        }
    }
    fputc('\n', f);
}

/* Below this many LLC-load misses per fd per call a series counts as
 * having none (fewer than one miss per 100 watched fds). */
#define LLC_NONE_PER_FD 0.01
/* The seed's "L3 misses at 20,000 descriptors" holds when even the p10 call
 * misses at least once per 10 fds, fails when the p90 call misses less than
 * once per 100; anything between is not resolved. */
#define CLAIM_N 20000
#define CLAIM_HOLDS_PER_FD 0.1

static unsigned long long l3_bytes(const mp_rmodel *m)
{
    for (size_t i = 0; i < m->ncaches; i++)
        if (m->caches[i].level == 3)
            return m->caches[i].bytes;
    return 0;
}

/* Whether the run has cells of fd kind kind. */
static int has_kind(const mp_rmodel *m, const char *kind)
{
    for (size_t k = 0; k < m->nkinds; k++)
        if (!strcmp(m->kinds[k], kind))
            return 1;
    return 0;
}

/* Seed 000: "a sequential pass over 20,000 descriptors ... triggering L3
 * cache misses", on one (mode, kind).  The seed measured TCP sockets: its
 * verdict on another kind says that it is not the seed's, and whether this
 * run has the seed's kind too (then its own line judges the claim). */
static void claim_llc(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    const char *seed_kind = mp_rv_seed_kind("000");
    int own = !strcmp(kind, seed_kind);
    char a[32], b[32], c[32], d[32], g[32], on[200];
    if (own)
        snprintf(on, sizeof on, "%s fds, the kind the seed measured", seed_kind);
    else
        snprintf(on, sizeof on, "%s fds, not the seed's kind: it measured %s sockets%s",
                 MP_QMD(kind), seed_kind, has_kind(m, seed_kind) ? ", judged on them in their "
                 "own findings" : ", which this run does not have");
    const mp_rcell *at = mp_rm_find(m, mode, kind, "poll", CLAIM_N);
    const mp_rsum *s = mp_rm_sum(at, "sim:LLC-load-misses");
    if (!s || !isfinite(s->p10) || !isfinite(s->p90)) {
        fprintf(f, "- Seed 000's \"L3 misses at 20,000 descriptors\" on %s: not checked (poll "
                   "at N = 20,000 not in this run).\n\n", on);
        return;
    }
    const char *v = s->p10 >= CLAIM_HOLDS_PER_FD * CLAIM_N ? "holds" :
                    s->p90 < LLC_NONE_PER_FD * CLAIM_N ? "does not hold" : "not resolved";
    fprintf(f, "- **Seed 000's \"L3 misses at 20,000 descriptors\": %s (%s, %s)**: poll at N = "
               "20,000 has %s LLC-load misses per call (p10 %s, p90 %s). It holds at %s or more "
               "in the p10 call (one per 10 fds), does not at fewer than %s in the p90 call "
               "(one per 100), and is not resolved between. ", v, MP_QMD(m->sim_label), on,
            mp_fmt_num(a, sizeof a, s->p50), mp_fmt_num(b, sizeof b, s->p10),
            mp_fmt_num(c, sizeof c, s->p90), mp_fmt_num(d, sizeof d, CLAIM_HOLDS_PER_FD * CLAIM_N),
            mp_fmt_num(g, sizeof g, LLC_NONE_PER_FD * CLAIM_N));
    if (own)
        fprintf(f, "The seed watched %s sockets on a real EPYC 9354P; this is the model's L3 "
                   "with the same kind of fd in an emulated %s guest.\n\n", seed_kind,
                mp_rm_guest_isa(m));
    else
        fprintf(f, "The seed watched %s sockets on a real EPYC 9354P; this is the model's L3 "
                   "with %s fds, so it does not decide the seed's claim.\n\n", seed_kind,
                MP_QMD(kind));
}

/* poll's L3 knee, epoll's LLC-load misses and the seed's claim, for one
 * (mode, kind): the findings the simulated LLC counts exist for. */
static void findings_llc(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    const mp_rcell *p[MP_RC_MAXPTS], *e[MP_RC_MAXPTS];
    size_t np = mp_rm_series(m, mode, kind, "poll", p, MP_RC_MAXPTS);
    size_t ne = mp_rm_series(m, mode, kind, "epoll", e, MP_RC_MAXPTS);
    np = np < MP_RC_MAXPTS ? np : MP_RC_MAXPTS;
    ne = ne < MP_RC_MAXPTS ? ne : MP_RC_MAXPTS;
    if (!np && !ne)
        return;
    char a[32], b[32], c[32], d[32], g[32], h[32];
    fprintf(f, "**Findings on the LLC, %s mode, %s fds (%s):**\n\n", mode, kind,
            MP_QMD(m->sim_label));
    /* poll: the last N without LLC-load misses and the first with them. */
    long long none_at = -1, from = -1;
    double from_v = NAN, last_fd = NAN, last_l1d = NAN;
    long long last_n = -1;
    for (size_t i = 0; i < np; i++) {
        double v = mp_rm_p50(p[i], "sim:LLC-load-misses");
        if (!isfinite(v))
            continue;
        double per = v / (double)p[i]->nfds;
        if (per < LLC_NONE_PER_FD) {
            none_at = p[i]->nfds;
            from = -1;
        } else if (from < 0) {
            from = p[i]->nfds;
            from_v = v;
        }
        last_n = p[i]->nfds, last_fd = per;
        last_l1d = mp_rm_p50(p[i], "sim:L1d-misses") / (double)p[i]->nfds;
    }
    if (last_n < 0)
        fprintf(f, "- poll: not run, or no LLC counts.\n");
    else if (from < 0)
        fprintf(f, "- poll: fewer than %.2f LLC-load misses per fd per call at every N up to "
                   "%s: no L3 knee within the run.\n", LLC_NONE_PER_FD,
                mp_fmt_num(a, sizeof a, (double)last_n));
    else if (none_at < 0)
        fprintf(f, "- poll: LLC-load misses at every N from %s (%s per call): the L3 knee lies "
                   "below the run's smallest N.\n", mp_fmt_num(a, sizeof a, (double)from),
                mp_fmt_num(b, sizeof b, from_v));
    else
        fprintf(f, "- **poll's L3 knee: LLC-load misses per call start growing per fd between "
                   "N = %s and %s** (fewer than %.2f per fd at %s; %s per call at %s; %s per fd "
                   "at %s).", mp_fmt_num(a, sizeof a, (double)none_at),
                mp_fmt_num(b, sizeof b, (double)from), LLC_NONE_PER_FD,
                mp_fmt_num(c, sizeof c, (double)none_at), mp_fmt_num(d, sizeof d, from_v),
                mp_fmt_num(b, sizeof b, (double)from), mp_fmt_num(g, sizeof g, last_fd),
                mp_fmt_num(h, sizeof h, (double)last_n));
    if (from >= 0 && none_at >= 0) {
        mp_rknees k;
        mp__r_knees(m, mode, kind, "poll", "sim:LLC-load-misses", &k);
        if (k.nk)
            fprintf(f, " The first log-log knee (slope %.2f > %.1f, the knee table above) lies "
                       "between %s and %s.", k.kn[0].slope, MP_KNEE_SLOPE,
                    mp_fmt_num(a, sizeof a, k.kn[0].x0), mp_fmt_num(b, sizeof b, k.kn[0].x1));
        unsigned long long l3 = l3_bytes(m);
        if (l3 && isfinite(last_l1d) && last_l1d > 0)
            fprintf(f, " poll misses %s L1d lines per fd per call at N = %s, %s bytes per fd: "
                       "that working set fills the %s-byte L3 at N = %s; the first misses "
                       "come earlier than that.",
                    mp_fmt_num(a, sizeof a, last_l1d), mp_fmt_num(b, sizeof b, (double)last_n),
                    mp_fmt_num(c, sizeof c, last_l1d * m->line_bytes),
                    mp_fmt_num(d, sizeof d, (double)l3),
                    mp_fmt_num(g, sizeof g, (double)l3 / (last_l1d * m->line_bytes)));
        fputc('\n', f);
    }
    /* epoll: the most LLC-load misses of any N. */
    double worst = -1;
    long long worst_n = -1;
    for (size_t i = 0; i < ne; i++) {
        double v = mp_rm_p50(e[i], "sim:LLC-load-misses");
        if (isfinite(v) && v > worst)
            worst = v, worst_n = e[i]->nfds;
    }
    if (worst_n >= 0) {
        fprintf(f, "- epoll: %s: at most %s LLC-load misses per call at any N from %s to %s",
                worst / (double)e[0]->nfds < LLC_NONE_PER_FD ? "**flat**" : "**not flat**",
                mp_fmt_num(a, sizeof a, worst), mp_fmt_num(b, sizeof b, (double)e[0]->nfds),
                mp_fmt_num(c, sizeof c, (double)e[ne - 1]->nfds));
        if (worst > 0)
            fprintf(f, " (the most at %s)", mp_fmt_num(d, sizeof d, (double)worst_n));
        fprintf(f, "; flat means fewer than %.2f per fd of its smallest N.\n", LLC_NONE_PER_FD);
    }
    claim_llc(f, m, mode, kind);
}

/* The cell's "sim_functions": top rows by L1d misses per call. */
static void table_functions(FILE *f, const mp_rmodel *m, const mp_rcell *c,
                            const mp_rsim_fns *x, int own)
{
    if (!x->nentries)
        return;
    char a[32], b[32], d[32], i1s[32], nm[160];
    fprintf(f, "**%s, N = %s** (%s", c->backend, mp_fmt_num(nm, sizeof nm, (double)c->nfds),
            MP_QMD(m->sim_label));
    if (!isnan(x->l1d_share))
        fprintf(f, own ? "; the listed functions hold %.0f%% of its L1d misses" :
                         "; the listed instructions hold %.0f%% of the difference in L1d misses",
                100 * x->l1d_share);
    /* The plugin's instruction lists sum every simulated core: what the other CPU's
     * difference did not cancel is in the table too. */
    if (!isnan(x->checked) && !isnan(x->agree))
        fprintf(f, "; address mapping checked: the plugin's disassembly of %.0f top "
                   "instructions agrees with the kernel image's at the mapped address for %.0f",
                x->checked, x->agree);
    if (!isnan(x->other_core_l1d))
        fprintf(f, "; the other CPU's L1d misses changed by %s per call, which these rows "
                   "include: trust rows well above it", cnt(a, sizeof a, x->other_core_l1d));
    fprintf(f, ")\n\n| kernel function | L1d misses per call | per fd | L2 misses per call | "
               "%s per call |\n|---|---:|---:|---:|---:|\n",
            own ? "LLC-load misses" : "L1i misses");
    for (size_t i = 0; i < x->nfns && i < TOP_ROWS; i++) {
        /* muxprof's model keeps LLC-load misses per instruction, QEMU's plugin L1i misses. */
        const mp_rsim_fn *e = &x->fns[i];
        fprintf(f, "| %s | %s | %s | %s | %s |\n", mp_quote_md_code(nm, sizeof nm, e->name, 1),
                cnt(a, sizeof a, e->l1d), cnt(b, sizeof b, e->l1d / (double)c->nfds),
                cnt(d, sizeof d, e->l2), cnt(i1s, sizeof i1s, own ? e->llc : e->l1i));
    }
    fputc('\n', f);
}

static void sim(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    if (!m->simulated)
        return;
    int own = own_model(m);
    if (own)
        fprintf(f, "## Simulated cache counts per call: %s\n\n"
            "Counts of muxprof's own cache and TLB model (sim/) on simulated core 1 of an "
            "emulated %s guest, kernel included: one counting window per call between "
            "the %s markers of `muxprof loop`, p50 over the calls after the warm-up, every "
            "cell in one boot. L1, L2, a shared L3 (the LLC), L1 and L2 TLBs, LRU; no "
            "coherence traffic, no timing, no out-of-order overlap, not the hardware's own "
            "replacement policy: these are counts of a model, for the shape of the curve and "
            "its mechanism, not a host's misses (docs/cachesim.md). An array line is %u "
            "bytes of the per-descriptor array the call is given: poll's pollfd array (8 "
            "bytes per fd), select's read-set bitmap (1 bit per fd number); epoll keeps its "
            "interest set in the kernel and has none (–).\n\n", MP_QMD(m->sim_label),
            mp_rm_guest_isa(m), m->abi == MP_ABI_X86_64 ? "nopl" : "HINT", m->line_bytes);
    else
    fprintf(f, "## Simulated cache counts per call: %s\n\n"
        "Counts of QEMU's cache model (contrib/plugins/cache.c) on simulated core 1 of an "
        "emulated arm64 guest, kernel included, while `muxprof loop` made K and then 2K "
        "ready-mode calls: the difference divided by K. No prefetchers, no L3, no TLB, no "
        "timing: these are counts of a model, for the shape of the curve and its mechanism, "
        "not a host's misses (docs/cachesim.md). An array line is %u bytes of the "
        "per-descriptor array the call is given: poll's pollfd array (8 bytes per fd), "
        "select's read-set bitmap (1 bit per fd number); epoll keeps its interest set in "
        "the kernel and has none (–).\n\n", MP_QMD(m->sim_label), m->line_bytes);
    for (size_t i = 0; i < m->nmodes; i++)
        for (size_t k = 0; k < m->nkinds; k++) {
            table_counts(f, m, m->modes[i], m->kinds[k]);
            fprintf(f, "Knees of the simulated L1d misses (%s). ", MP_QMD(m->sim_label));
            mp__rmd_knees(f, m, m->modes[i], m->kinds[k], "sim:L1d-misses");
            fprintf(f, "Knees of the simulated L2 misses (%s). ", MP_QMD(m->sim_label));
            mp__rmd_knees(f, m, m->modes[i], m->kinds[k], "sim:L2-misses");
            if (!own)
                continue;
            table_llc_tlb(f, m, m->modes[i], m->kinds[k]);
            fprintf(f, "Knees of the simulated LLC-load misses (%s). ", MP_QMD(m->sim_label));
            mp__rmd_knees(f, m, m->modes[i], m->kinds[k], "sim:LLC-load-misses");
            fprintf(f, "Knees of the simulated dTLB misses (%s). ", MP_QMD(m->sim_label));
            mp__rmd_knees(f, m, m->modes[i], m->kinds[k], "sim:dTLB-misses");
            findings_llc(f, m, m->modes[i], m->kinds[k]);
        }
    int any = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        if (!m->sim_fns[i].present)
            continue;
        if (!any++ && own)
            fprintf(f, "## Where the simulated misses are: kernel functions (%s)\n\n"
                "The model's misses per data-accessing instruction over each cell's kept "
                "calls, divided by their number, summed per function (guest addresses from "
                "nokaslr and the kernel's own /proc/kallsyms). Top %d per cell by L1d "
                "misses.\n\n", MP_QMD(m->sim_label), TOP_ROWS);
        else if (any == 1)
            fprintf(f, "## Where the simulated misses are: kernel functions (%s)\n\n"
                "The plugin's most-missing instructions in both boots, matched by guest "
                "address, their difference divided by K, summed per function (guest "
                "addresses from nokaslr and the kernel's own symbol table). Top %d per cell "
                "by L1d misses.\n\n", MP_QMD(m->sim_label), TOP_ROWS);
        table_functions(f, m, &m->cells[i], &m->sim_fns[i], own);
    }
}

const mp_rsection mp_rsec_sim = {"sim", 1, 0, NULL, sim, NULL, 0};
