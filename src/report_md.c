/* report_md.c - report.md: context, method, result tables, slopes, ratios,
 * figures and counter availability; the other sections come from
 * report_cache.c and report_prof.c.  See report_md.h. */
#include "report_md.h"

#include <math.h>
#include <string.h>

#include "plot.h"
#include "report_calc.h"
#include "report_util.h"

#define MAXN 24

/* Scalars of a JSON object (and of objects one level down) as table rows. */
static void scalar_rows(FILE *f, const cJSON *o, const char *prefix)
{
    const cJSON *e;
    char v[512], cell[600], key[200];
    cJSON_ArrayForEach(e, o) {
        if (!e->string)
            continue;
        snprintf(key, sizeof key, "%s%s", prefix, e->string);
        if (cJSON_IsObject(e) && !*prefix) {
            char p[160];
            snprintf(p, sizeof p, "%.100s.", e->string);
            scalar_rows(f, e, p);
            continue;
        }
        if (cJSON_IsString(e))
            snprintf(v, sizeof v, "%s", e->valuestring);
        else if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
            snprintf(v, sizeof v, "%.15g", e->valuedouble);
        else if (cJSON_IsBool(e))
            snprintf(v, sizeof v, "%s", cJSON_IsTrue(e) ? "yes" : "no");
        else if (cJSON_IsArray(e)) {
            size_t o2 = 0;
            const cJSON *x;
            v[0] = 0;
            cJSON_ArrayForEach(x, e) {
                if (o2 + 40 >= sizeof v)
                    break;
                if (cJSON_IsString(x))
                    o2 += (size_t)snprintf(v + o2, sizeof v - o2, "%s%.60s", o2 ? ", " : "",
                                           x->valuestring);
                else if (cJSON_IsNumber(x))
                    o2 += (size_t)snprintf(v + o2, sizeof v - o2, "%s%g", o2 ? ", " : "",
                                           x->valuedouble);
            }
            if (!o2)
                continue;
        } else
            continue;
        char kc[220];
        fprintf(f, "| %s | %s |\n", mp_md_cell(kc, sizeof kc, key),
                mp_md_cell(cell, sizeof cell, v));
    }
}

static void section_context(FILE *f, const mp_rmodel *m)
{
    char b[256];
    const cJSON *r = m->root;
    fprintf(f, "## Host and context\n\n| field | value |\n|---|---|\n");
    static const char *top[] = {"status", "interrupted_cell", "started_utc", "finished_utc",
                                "tool.version"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        if (mp_rm_text(m, top[i], b, sizeof b)) {
            char c[300];
            fprintf(f, "| %s | %s |\n", top[i], mp_md_cell(c, sizeof c, b));
        }
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(r, "context");
    if (cJSON_IsObject(ctx))
        scalar_rows(f, ctx, "");
    fprintf(f, "| cache line | %u bytes%s |\n", m->line_bytes,
            m->line_known ? " (topology.line_bytes)" : " (assumed: results.json has no "
            "topology.line_bytes)");
    for (size_t i = 0; i < m->ncaches; i++) {
        char s[32];
        fprintf(f, "| cache %s | %s bytes |\n", m->caches[i].name,
                mp_fmt_num(s, sizeof s, (double)m->caches[i].bytes));
    }
    const cJSON *topo = cJSON_GetObjectItemCaseSensitive(r, "topology");
    if (cJSON_IsObject(topo)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, topo)   /* scalars and the chosen pair, not cache lists */
            if (e->string && strcmp(e->string, "line_bytes") && !cJSON_IsArray(e)) {
                cJSON *one = cJSON_CreateObject();
                if (!one)
                    break;
                cJSON_AddItemReferenceToObject(one, e->string, (cJSON *)e);
                scalar_rows(f, one, "topology.");
                cJSON_Delete(one);
            }
    }
    if (mp_rm_text(m, "calibration.clock", b, sizeof b))
        fprintf(f, "| clock | %s |\n", b);
    if (mp_rm_text(m, "calibration.empty_bracket_ns.p50", b, sizeof b))
        fprintf(f, "| empty clock bracket (median) | %s ns |\n", b);
    fputc('\n', f);
    if (m->nwarn) {
        fprintf(f, "Parts of results.json that did not fit the schema and were left out:\n\n");
        for (size_t i = 0; i < m->nwarn; i++)
            fprintf(f, "- %s\n", m->warn[i]);
        fputc('\n', f);
    }
}

/* The system call behind each backend (results[].syscall), said when it is
 * not the backend's namesake: on arm64 glibc's poll() is ppoll, select() is
 * pselect6 and epoll_wait() is epoll_pwait. */
static void syscalls_made(FILE *f, const mp_rmodel *m)
{
    char seen[16][96];
    size_t n = 0;
    int other = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(m->root, "results")) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "backend");
        const cJSON *sc = cJSON_GetObjectItemCaseSensitive(c, "syscall");
        if (!cJSON_IsString(b) || !cJSON_IsString(sc) || !mp__rm_safe_name(b->valuestring) ||
            !mp__rm_safe_name(sc->valuestring))
            continue;
        char pair[96];
        snprintf(pair, sizeof pair, "`%s`: `%s`", b->valuestring, sc->valuestring);
        size_t i;
        for (i = 0; i < n && strcmp(seen[i], pair); i++)
            ;
        if (i < n || n == 16)
            continue;
        snprintf(seen[n++], sizeof seen[0], "%s", pair);
        const char *bn = b->valuestring, *sn = sc->valuestring;
        if (!strcmp(sn, "pselect6") || !strcmp(sn, "epoll_pwait") ||
            (!strcmp(sn, "ppoll") && strcmp(bn, "ppoll")))
            other = 1;
    }
    if (!n)
        return;
    char arch[64];
    fprintf(f, "System call each backend made on this host (%s)%s: ",
            mp_rm_text(m, "context.arch", arch, sizeof arch) ? arch : "arch unknown",
            other ? ", not always its namesake: the C library uses the newer call where the "
                    "architecture has no older one (arm64: poll is ppoll, select is pselect6, "
                    "epoll_wait is epoll_pwait)" : "");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? ", " : "", seen[i]);
    fprintf(f, ".\n\n");
}

static void section_method(FILE *f, const mp_rmodel *m)
{
    fprintf(f, "## What was measured and how\n\n");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m->root, "config");
    if (cJSON_IsObject(cfg)) {
        fprintf(f, "| setting | value |\n|---|---|\n");
        scalar_rows(f, cfg, "");
        fputc('\n', f);
    }
    fprintf(f,
        "One *call* is one `select()`, `poll()` or `epoll_wait()` on N watched descriptors of "
        "which exactly one is readable (K of them in the \"K of N ready\" section, when the "
        "run has `--active` values above 1; every other table, fit, figure and claim uses "
        "K = 1 only).\n\n"
        "- **ready** mode: timeout 0 and the descriptor is already readable; the time is one "
        "call bracketed by two clock reads, minus the median of an empty bracket.\n"
        "- **wakeup** mode: the call blocks; another thread writes one byte; the time runs from "
        "that thread's clock read just before `write()` to the waiter's clock read after the "
        "call returned (nothing subtracted).\n\n"
        "Tables give the median (p50) and the 99th percentile of the per-call samples, in "
        "nanoseconds; counters are events per call, medians. Percentiles interpolate between "
        "order statistics (type 7). Slopes are least-squares fits of the median against N over "
        "the sweep, with R² on the linear scale.\n\n");
    syscalls_made(f, m);
}

static size_t nfds_list(const mp_rmodel *m, const char *mode, const char *kind,
                        long long *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->mode, mode) || strcmp(c->fd_kind, kind))
            continue;
        size_t j = 0;
        while (j < n && out[j] != c->nfds)
            j++;
        if (j < n || n >= MAXN)
            continue;
        j = n++;
        while (j > 0 && out[j - 1] > c->nfds) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = c->nfds;
    }
    return n;
}

static void header_n(FILE *f, const char *first, const long long *ns, size_t n)
{
    fprintf(f, "| %s |", first);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " N=%lld |", ns[i]);
    fprintf(f, "\n|---|");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "---:|");
    fputc('\n', f);
}

static const mp_rcell *any_cell(const mp_rmodel *m, const char *mode, const char *kind,
                                const char *backend, long long nfds)
{
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->nfds == nfds && !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind) &&
            !strcmp(c->backend, backend))
            return c;
    }
    return NULL;
}

static void table_times(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                        const long long *ns, size_t n)
{
    char a[32], b[32];
    fprintf(f, "Time per call, p50 / p99 (ns):\n\n");
    header_n(f, "backend", ns, n);
    for (size_t k = 0; k < m->nbackends; k++) {
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t i = 0; i < n; i++) {
            const mp_rcell *c = any_cell(m, mode, kind, m->backends[k], ns[i]);
            if (!c)
                fprintf(f, " – |");
            else if (c->status == MP_RC_OK)
                fprintf(f, " %s / %s |", mp_fmt_num(a, sizeof a, c->wall.p50),
                        mp_fmt_num(b, sizeof b, c->wall.p99));
            else
                fprintf(f, " %s |", c->status == MP_RC_UNSUPPORTED ? "unsupported" : "error");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t i = 0; i < m->ncells; i++) {   /* reasons of cells that did not run */
        const mp_rcell *c = &m->cells[i];
        char r[300];
        if (c->status != MP_RC_OK && !strcmp(c->mode, mode) && !strcmp(c->fd_kind, kind))
            fprintf(f, "- %s, N=%lld: %s: %s\n", c->backend, c->nfds,
                    c->status == MP_RC_UNSUPPORTED ? "unsupported" : "error",
                    c->reason[0] ? mp_md_cell(r, sizeof r, c->reason) : "(no reason given)");
    }
    fputc('\n', f);
}

static void table_slopes(FILE *f, const mp_rmodel *m, const char *mode, const char *kind)
{
    char a[32], b[32], c2[32], d[32];
    fprintf(f, "Per-descriptor cost (least-squares fit of the median against N):\n\n"
               "| backend | ns per fd | intercept (ns) | R² | points | log-log slope, "
               "first to last N |\n|---|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < m->nbackends; k++) {
        size_t np;
        double x[MP_RC_MAXPTS], y[MP_RC_MAXPTS];
        mp_fit ft = mp_rc_slope(m, mode, kind, m->backends[k], "wall_ns", &np);
        size_t p = mp_rc_points(m, mode, kind, m->backends[k], "wall_ns", x, y, MP_RC_MAXPTS);
        double ll = p >= 2 ? mp_loglog_slope(x[0], y[0], x[p - 1], y[p - 1]) : NAN;
        fprintf(f, "| %s | %s | %s | %s | %zu | %s |\n", m->backends[k],
                mp_fmt_num(a, sizeof a, ft.ok ? ft.slope : NAN),
                mp_fmt_num(b, sizeof b, ft.ok ? ft.intercept : NAN),
                ft.ok ? (snprintf(c2, sizeof c2, "%.4f", ft.r2), c2) : "n/a", np,
                isfinite(ll) ? (snprintf(d, sizeof d, "%.2f", ll), d) : "n/a");
    }
    fputc('\n', f);
    int any = 0;
    for (size_t c = 0; c < m->nmetrics; c++)
        for (size_t k = 0; k < m->nbackends && !mp_rc_all_zero(m, mode, kind, m->metrics[c]);
             k++) {
            size_t np;
            mp_fit ft = mp_rc_slope(m, mode, kind, m->backends[k], m->metrics[c], &np);
            if (np < 2)
                continue;
            if (!any++)
                fprintf(f, "Counters per descriptor (fit of the median count against N):\n\n"
                           "| counter | backend | events per fd | intercept | R² | points |\n"
                           "|---|---|---:|---:|---:|---:|\n");
            fprintf(f, "| %s | %s | %s | %s | %s | %zu |\n", m->metrics[c], m->backends[k],
                    mp_fmt_num(a, sizeof a, ft.ok ? ft.slope : NAN),
                    mp_fmt_num(b, sizeof b, ft.ok ? ft.intercept : NAN),
                    ft.ok ? (snprintf(c2, sizeof c2, "%.4f", ft.r2), c2) : "n/a", np);
        }
    if (any)
        fputc('\n', f);
}

static void table_ratios(FILE *f, const mp_rmodel *m, const char *mode, const char *kind,
                         const long long *ns, size_t n)
{
    if (!mp_rc_has_backend(m, "epoll")) {
        fprintf(f, "No epoll cells in this run, so no ratios to epoll.\n\n");
        return;
    }
    fprintf(f, "Median time per call relative to epoll's at the same N:\n\n");
    header_n(f, "backend / epoll", ns, n);
    for (size_t k = 0; k < m->nbackends; k++) {
        if (!strcmp(m->backends[k], "epoll"))
            continue;
        fprintf(f, "| %s |", m->backends[k]);
        for (size_t i = 0; i < n; i++) {
            double r = mp_rc_ratio(m, mode, kind, m->backends[k], ns[i]);
            char a[32];
            if (isfinite(r))
                fprintf(f, " %s× |", mp_fmt_num(a, sizeof a, r));
            else
                fprintf(f, " – |");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

void mp_rmd_figure(FILE *f, const mp_rfigs *figs, const char *name)
{
    const mp_rfig *x = mp_rfig_find(figs, name);
    char e[400];
    if (!x)
        return;
    if (x->drawn)
        fprintf(f, "![%s](figures/%s.png)\n\n*%s* ([SVG](figures/%s.svg), "
                   "[PDF](figures/%s.pdf), [script](figures/%s.gp))\n\n",
                x->caption, x->name, x->caption, x->name, x->name, x->name);
    else if (!figs->asked || !figs->gnuplot)
        fprintf(f, "Figure not drawn (%s): `figures/%s.gp`, %s.\n\n",
                figs->asked ? "gnuplot is not installed" : "--no-plots", x->name, x->caption);
    else
        fprintf(f, "- `figures/%s.gp` (%s) was not drawn: %s\n\n", x->name, x->caption,
                mp_md_cell(e, sizeof e, x->error));
}

static void section_figures(FILE *f, const mp_rfigs *all)
{
    /* the per-call figures; the others sit in their own sections */
    mp_rfigs sub = *all, *g = &sub;
    sub.n = 0;
    while (sub.n < all->n && all->v[sub.n].kind <= MP_FIG_LINES)
        sub.n++;
    fprintf(f, "## Figures\n\n");
    if (g->nzero) {
        fprintf(f, "No figure for counters whose median was 0 in every cell:");
        for (size_t i = 0; i < g->nzero; i++)
            fprintf(f, "%s %s", i ? "," : "", g->zero[i]);
        fprintf(f, ".\n\n");
    }
    if (!g->n) {
        fprintf(f, "No figures: no cell of this run has a measured time.%s\n\n",
                all->n ? " The figures of the K-of-N and experiment sections are in those "
                "sections." : "");
        return;
    }
    if (!g->asked || !g->gnuplot) {
        fprintf(f, "The figures were not drawn: %s. The data files (`figures/*.dat`) and "
                   "gnuplot scripts (`figures/*.gp`) are written; to draw them, %s, then run "
                   "`muxprof report DIR` again, or `cd figures && for f in cost_*.gp "
                   "ratio_*.gp counter_*.gp lines_*.gp; do gnuplot \"$f\"; done`.\n\n",
                g->asked ? "gnuplot is not installed" : "they were turned off (--no-plots)",
                g->gnuplot ? "keep gnuplot installed" : MP_PLOT_INSTALL_HINT);
        for (size_t i = 0; i < g->n; i++)
            fprintf(f, "- `figures/%s.gp`: %s\n", g->v[i].name, g->v[i].caption);
        fputc('\n', f);
        return;
    }
    fprintf(f, "Each figure is also in SVG and PDF beside the PNG. To restyle: edit "
               "`figures/style.gp` (all figures) or a figure's `.gp`, then `cd figures && "
               "gnuplot NAME.gp`. Data files are `figures/data_MODE_KIND_BACKEND.dat`.\n\n");
    for (size_t i = 0; i < g->n; i++) {
        const mp_rfig *x = &g->v[i];
        if (x->drawn)
            fprintf(f, "![%s](figures/%s.png)\n\n*%s* ([SVG](figures/%s.svg), "
                       "[PDF](figures/%s.pdf), [script](figures/%s.gp))\n\n",
                    x->caption, x->name, x->caption, x->name, x->name, x->name);
        else {
            char e[400];
            fprintf(f, "- `figures/%s.gp` (%s) was not drawn: %s\n\n", x->name, x->caption,
                    mp_md_cell(e, sizeof e, x->error));
        }
    }
}

static void section_counters(FILE *f, const mp_rmodel *m)
{
    char a[300];
    fprintf(f, "## Counters\n\n");
    if (!m->has_counters) {
        fprintf(f, "results.json has no `counters` object, so this run recorded no counter "
                   "availability (counters off, or a build without pmu/).%s\n\n",
                m->nmetrics ? " Counter metrics found in the cells are reported above." : "");
        return;
    }
    if (m->counters_preset[0] || m->counters_scope[0])
        fprintf(f, "Preset `%s`, scope %s.\n\n", m->counters_preset[0] ? m->counters_preset :
                "?", m->counters_scope[0] ? m->counters_scope : "not recorded");
    if (m->counters_note[0])
        fprintf(f, "Note from the run: %s\n\n", mp_md_cell(a, sizeof a, m->counters_note));
    size_t opened = 0, refused = 0;
    for (size_t i = 0; i < m->ncounters; i++)
        m->counters[i].opened ? opened++ : refused++;
    if (!m->ncounters) {
        fprintf(f, "No events were listed: nothing was counted.\n\n");
        return;
    }
    fprintf(f, "Opened (%zu):", opened);
    for (size_t i = 0, k = 0; i < m->ncounters; i++)
        if (m->counters[i].opened)
            fprintf(f, "%s `%s`", k++ ? "," : "", m->counters[i].name);
    fprintf(f, "%s\n\n", opened ? "." : " none.");
    const cJSON *cn = cJSON_GetObjectItemCaseSensitive(m->root, "counters");
    const cJSON *e, *pf = cJSON_GetObjectItemCaseSensitive(cn, "preset_file");
    if (cJSON_IsString(pf) && !strcmp(pf->valuestring, "armv8_common")) {
        fprintf(f, "These are the **architected ARMv8 common events** (by number, through the "
                   "CPU's sysfs PMU), not a model-specific table: no preset matches this Arm "
                   "core. Each was checked against the PMU's common-event bitmap (PMCEID):");
        const char *sep = " ";
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cn, "events")) {
            const cJSON *enc = cJSON_GetObjectItemCaseSensitive(e, "encoding");
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
            if (cJSON_IsString(enc) && cJSON_IsString(nm) &&
                strstr(enc->valuestring, "architected ARMv8")) {
                fprintf(f, "%s`%s` = %s", sep, nm->valuestring,
                        mp_md_cell(a, sizeof a, enc->valuestring));
                sep = "; ";
            }
        }
        fprintf(f, ".\n\n");
    }
    if (refused) {
        fprintf(f, "Unavailable on this host (%zu):\n\n| event | why |\n|---|---|\n", refused);
        for (size_t i = 0; i < m->ncounters; i++)
            if (!m->counters[i].opened)
                fprintf(f, "| %s | %s |\n", m->counters[i].name,
                        m->counters[i].reason[0] ? mp_md_cell(a, sizeof a,
                        m->counters[i].reason) : "no reason recorded");
        fputc('\n', f);
    }
}

/* An emulated CPU (context.emulated): say what gave it away, that its
 * hardware counts are the emulator's, and which counters counted nothing in
 * any cell (an emulator that does not model an event counts 0: that is not
 * a measurement of zero misses). */
static void emulation_note(FILE *f, const mp_rmodel *m)
{
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(m->root, "context");
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "emulated")))
        return;
    fprintf(f, "> **Emulated CPU**");
    const cJSON *e, *seen = cJSON_GetObjectItemCaseSensitive(ctx, "emulation_seen");
    const char *sep = " (seen: ";
    cJSON_ArrayForEach(e, seen)
        if (cJSON_IsString(e)) {
            fprintf(f, "%s%s", sep, e->valuestring);
            sep = "; ";
        }
    fprintf(f, "%s: times are the emulator's, and so are the hardware counts: cycles count "
               "virtual time, instructions are exact only under `-icount`.", *sep == ';' ? ")"
                                                                                       : "");
    char names[32][96];
    int any[32], n = 0;
    const cJSON *c, *mt;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(m->root, "results"))
        cJSON_ArrayForEach(mt, cJSON_GetObjectItemCaseSensitive(c, "metrics")) {
            const cJSON *path = cJSON_GetObjectItemCaseSensitive(mt, "read_path");
            const cJSON *mx = cJSON_GetObjectItemCaseSensitive(mt, "max");
            if (!cJSON_IsString(path) || !mt->string || !strcmp(path->valuestring, "read"))
                continue;   /* software counters are read with read() */
            int i;
            for (i = 0; i < n && strcmp(names[i], mt->string); i++)
                ;
            if (i == n) {
                if (n == 32)
                    continue;
                snprintf(names[n], sizeof names[n], "%s", mt->string);
                any[n++] = 0;
            }
            if (!cJSON_IsNumber(mx) || mx->valuedouble != 0)
                any[i] = 1;
        }
    sep = " Counted 0 in every call of every cell, so **not measured here** (the emulator "
          "does not model them; read these zeros as missing, not as no events): ";
    for (int i = 0; i < n; i++)
        if (!any[i]) {
            fprintf(f, "%s`%s`", sep, names[i]);
            sep = ", ";
        }
    fprintf(f, "%s\n\n", *sep == ',' ? "." : "");
}

int mp_rmd_write(const mp_rmodel *m, const char *run_dir, const mp_rfigs *figs,
                 mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, run_dir, "report.md", err);
    if (rc)
        return rc;
    FILE *f = a.f;
    char host[128], when[64];
    fprintf(f, "# muxprof report: %s%s%s, %s\n\n", m->simulated ? m->sim_label : "",
            m->simulated ? " on " : "",
            mp_rm_text(m, "context.host", host, sizeof host) ? host : "unknown host",
            mp_rm_text(m, "started_utc", when, sizeof when) ? when : "unknown time");
    if (mp_rm_text(m, "status", when, sizeof when) && strcmp(when, "complete"))
        fprintf(f, "> **This run is %s**: some cells were not measured.\n\n", when);
    emulation_note(f, m);
    fprintf(f, "What one `select()` / `poll()` / `epoll_wait()` call costs as the number of "
               "watched descriptors N grows. Built from `results.json` by `muxprof report`; "
               "rebuild with `muxprof report %s`.\n\n", run_dir);
    int exps = m->exp.has_register || m->exp.has_herd || m->exp.has_ltet;
    if (!m->ncells && !m->nkcells && exps) {
        /* `--experiment` without `calls`: no per-call sweep to analyse */
        section_context(f, m);
        fprintf(f, "## What was measured and how\n\n");
        const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m->root, "config");
        if (cJSON_IsObject(cfg)) {
            fprintf(f, "| setting | value |\n|---|---|\n");
            scalar_rows(f, cfg, "");
            fputc('\n', f);
        }
        fprintf(f, "This run holds experiments only (no `calls` in `--experiment`), so it has "
                   "no per-call tables, fits, cache-line analysis or claims; each experiment "
                   "below has its table and figure (method: docs/experiments.md).\n\n");
        mp_rmd_experiments(f, m, figs);
        section_counters(f, m);
        return mp_afile_commit(&a, err);
    }
    if (m->simulated) {   /* counts of a cache model, no times: report_sim.c */
        section_context(f, m);
        mp_rmd_sim(f, m);
        mp_rmd_cache_model(f, m);
        mp_rmd_correlation(f, m);
        section_figures(f, figs);
        section_counters(f, m);
        return mp_afile_commit(&a, err);
    }
    section_context(f, m);
    section_method(f, m);
    for (size_t i = 0; i < m->nmodes; i++)
        for (size_t k = 0; k < m->nkinds; k++) {
            long long ns[MAXN];
            size_t n = nfds_list(m, m->modes[i], m->kinds[k], ns);
            if (!n)
                continue;
            fprintf(f, "## Results: %s mode, %s fds\n\n", m->modes[i], m->kinds[k]);
            table_times(f, m, m->modes[i], m->kinds[k], ns, n);
            table_slopes(f, m, m->modes[i], m->kinds[k]);
            table_ratios(f, m, m->modes[i], m->kinds[k], ns, n);
            mp_rmd_knees(f, m, m->modes[i], m->kinds[k]);
        }
    mp_rmd_kofn(f, m, figs);
    mp_rmd_cache_model(f, m);
    mp_rmd_correlation(f, m);
    mp_rmd_claims(f, m);
    mp_rmd_profile(f, m, figs);
    mp_rmd_experiments(f, m, figs);
    section_figures(f, figs);
    section_counters(f, m);
    return mp_afile_commit(&a, err);
}
