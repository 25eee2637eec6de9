/* sec_sim.c - the section of a simulated run (scripts/cachesim.sh):
 * counts of QEMU's cache model per call, knees of the simulated misses
 * beside the simulated cache sizes, and where the misses are, by kernel
 * function.  Every heading and table names the model ("simulated
 * (GEOMETRY)"): these are counts of a model, never a host's.  Nothing in a
 * measured run.  See docs/cachesim.md. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/series.h"
#include "report/model.h"
#include "common/quote.h"
#include "report/format.h"

#define TOP_ROWS 8

static const char *cnt(char *b, size_t len, double v)
{
    return isfinite(v) ? mp_fmt_num(b, len, v) : "–";
}

/* Lines of the per-descriptor array the call reads: select's read-set
 * bitmap, poll's pollfd array; NaN for backends with none (epoll and
 * io_uring keep their interest set in the kernel). */
static double array_lines(const mp_rmodel *m, const mp_rcell *c, const char *backend)
{
    if (!strcmp(backend, "select"))
        return mp_rc_select_lines(m, c, (double)c->nfds);
    if (!strcmp(backend, "poll") || !strcmp(backend, "ppoll"))
        return mp_rc_pollfd_lines(m, (double)c->nfds);
    return NAN;
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
                    cnt(d, sizeof d, miss / array_lines(m, s[i], m->backends[be])),
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

/* The cell's "sim_functions": top rows by L1d misses per call. */
static void table_functions(FILE *f, const mp_rmodel *m, const mp_rcell *c, const cJSON *cell)
{
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(cell, "sim_functions");
    const cJSON *fns = cJSON_GetObjectItemCaseSensitive(sf, "functions");
    const cJSON *share = cJSON_GetObjectItemCaseSensitive(sf, "attributed_L1d_share");
    if (!cJSON_IsArray(fns) || !cJSON_GetArraySize(fns))
        return;
    char a[32], b[32], d[32], i1s[32], nm[160];
    fprintf(f, "**%s, N = %s** (%s", c->backend, mp_fmt_num(nm, sizeof nm, (double)c->nfds),
            MP_QMD(m->sim_label));
    if (cJSON_IsNumber(share))
        fprintf(f, "; the listed instructions hold %.0f%% of the difference in L1d misses",
                100 * share->valuedouble);
    /* The plugin's instruction lists sum every simulated core: what the other CPU's
     * difference did not cancel is in the table too. */
    const cJSON *oc = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cell, "sim_other_core"), "L1d-misses");
    const cJSON *chk = cJSON_GetObjectItemCaseSensitive(sf, "mapping_check");
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(chk, "instructions");
    const cJSON *ca = cJSON_GetObjectItemCaseSensitive(chk, "agree");
    if (cJSON_IsNumber(ci) && cJSON_IsNumber(ca))
        fprintf(f, "; address mapping checked: the plugin's disassembly of %.0f top "
                   "instructions agrees with the kernel image's at the mapped address for %.0f",
                ci->valuedouble, ca->valuedouble);
    if (cJSON_IsNumber(oc))
        fprintf(f, "; the other CPU's L1d misses changed by %s per call, which these rows "
                   "include: trust rows well above it", cnt(a, sizeof a, oc->valuedouble));
    fprintf(f, ")\n\n| kernel function | L1d misses per call | per fd | L2 misses per call | "
               "L1i misses per call |\n|---|---:|---:|---:|---:|\n");
    const cJSON *e;
    int rows = 0;
    cJSON_ArrayForEach(e, fns) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *d1 = cJSON_GetObjectItemCaseSensitive(e, "L1d-misses");
        const cJSON *l2 = cJSON_GetObjectItemCaseSensitive(e, "L2-misses");
        const cJSON *i1 = cJSON_GetObjectItemCaseSensitive(e, "L1i-misses");
        if (!cJSON_IsString(name) || rows++ >= TOP_ROWS)
            continue;
        double v = cJSON_IsNumber(d1) ? d1->valuedouble : NAN;
        fprintf(f, "| %s | %s | %s | %s | %s |\n",
                mp_quote_md_code(nm, sizeof nm, name->valuestring, 1),
                cnt(a, sizeof a, v), cnt(b, sizeof b, v / (double)c->nfds),
                cnt(d, sizeof d, cJSON_IsNumber(l2) ? l2->valuedouble : NAN),
                cnt(i1s, sizeof i1s, cJSON_IsNumber(i1) ? i1->valuedouble : NAN));
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
            "emulated arm64 guest, kernel included: one counting window per call between "
            "the HINT markers of `muxprof loop`, p50 over the calls after the warm-up, every "
            "cell in one boot. L1, L2, a shared L3 (the LLC), L1 and L2 TLBs, LRU; no "
            "coherence traffic, no timing, no out-of-order overlap, not the hardware's own "
            "replacement policy: these are counts of a model, for the shape of the curve and "
            "its mechanism, not a host's misses (docs/cachesim.md). An array line is %u "
            "bytes of the per-descriptor array the call is given: poll's pollfd array (8 "
            "bytes per fd), select's read-set bitmap (1 bit per fd number); epoll keeps its "
            "interest set in the kernel and has none (–).\n\n", MP_QMD(m->sim_label),
            m->line_bytes);
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
        }
    int any = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const cJSON *cell = m->cells[i].json;
        if (!cJSON_GetObjectItemCaseSensitive(cell, "sim_functions"))
            continue;
        if (!any++)
            fprintf(f, "## Where the simulated misses are: kernel functions (%s)\n\n"
                "The plugin's most-missing instructions in both boots, matched by guest "
                "address, their difference divided by K, summed per function (guest "
                "addresses from nokaslr and the kernel's own symbol table). Top %d per cell "
                "by L1d misses.\n\n", MP_QMD(m->sim_label), TOP_ROWS);
        table_functions(f, m, &m->cells[i], cell);
    }
}

const mp_rsection mp_rsec_sim = {"sim", 1, 0, NULL, sim, NULL};
