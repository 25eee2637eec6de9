/* SPDX-License-Identifier: MIT */
/* sec_profile.c - the kernel-profile section of report.md, from the
 * optional "profile" object of cells (kernel-function sampling): per mode,
 * the phase shares of every profiled cell and the top functions of each
 * backend at its largest profiled N.  See report/md.h. */
#include "report/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/series.h"
#include "report/fig.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/md.h"
#include "report/format.h"
#include "report/paper.h"

#define TOP 8
#define MAXPH 12

static void pct(char *b, size_t n, double share)
{
    if (isfinite(share))
        snprintf(b, n, "%.1f%%", share * 100);
    else
        snprintf(b, n, "n/a");
}

/* Distinct phase names of the profiled cells of MODE (and KIND unless
 * NULL), in the order the files list them (pmu/phases.txt order). */
static size_t phase_names(const mp_rmodel *m, const char *mode, const char *kind,
                          char (*names)[64])
{
    size_t nph = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        const mp_rprofile *pr = mp_rm_profile(m, c);
        if (!pr || strcmp(c->mode, mode) || (kind && strcmp(c->fd_kind, kind)))
            continue;
        for (size_t e = 0; e < pr->nphases; e++) {
            const char *p = pr->phases[e].name;
            size_t k = 0;
            while (k < nph && strcmp(names[k], p))
                k++;
            if (k == nph && nph < MAXPH)
                snprintf(names[nph++], 64, "%s", p);
        }
    }
    return nph;
}

/* The entry of phase NAME in a profile, or NULL. */
static const mp_rprof_entry *phase_of(const mp_rprofile *p, const char *name)
{
    for (size_t e = 0; e < p->nphases; e++)
        if (!strcmp(p->phases[e].name, name))
            return &p->phases[e];
    return NULL;
}

/* ns per call per watched descriptor of a phase: the file's ns_per_fd,
 * else its ns_per_call / N, else share x wall p50 / N. */
static double phase_ns_per_fd(const mp_rcell *c, const mp_rprofile *p,
                              const mp_rprof_entry *e)
{
    double v = e->ns_per_fd;
    if (isfinite(v) || c->nfds <= 0)
        return v;
    v = e->ns_per_call;
    if (!isfinite(v)) {
        double w = p->wall_p50_ns;
        v = e->share * (isfinite(w) ? w : c->wall.p50);
    }
    return v / (double)c->nfds;
}

/* Functions and phases where cpu-clock time piles up: samples cannot land
 * while interrupts are off, so the time of an irq-off section is charged to
 * the point where interrupts come back on (the unlock that restores them,
 * or the context switch). */
static int irq_pileup(const char *name)
{
    static const char *const keys[] = {"unlock_irq", "irqrestore", "finish_task_switch",
                                       "__schedule", "schedule", "context_switch",
                                       "sched-sleep-wake", "wait-queue", "local_irq_enable"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strstr(name, keys[i]))
            return 1;
    return 0;
}

#define PILEUP_NOTE "† cpu-clock samples cannot land while interrupts are off, so the " \
    "time of irq-off sections piles onto the point where they come back on (the unlock, " \
    "the context switch): the share of a row marked † is an upper bound that includes " \
    "time spent elsewhere."

/* 1 when the series' median grows with N (at least doubles from the first
 * to the last N): only then is "ns per descriptor" a meaningful unit; for a
 * flat backend it is a slope of -1 by construction. */
static int grows_with_n(const mp_rmodel *m, const char *mode, const char *kind,
                        const char *backend)
{
    mp_rcost c;
    if (!mp_rc_cost(m, mode, kind, backend, "wall_ns", &c) || c.constant || c.flat)
        return 0;
    return c.y[0] > 0 && c.y[c.n - 1] >= 2 * c.y[0];
}

static int has_phases(const mp_rprofile *p)
{
    return p->nphases > 0;
}

/* Mean on-CPU time per call while sampled (the calls' own samples x the
 * period) over the timed mean: how much slower the profiled calls ran
 * than the timed ones (cpu-clock only, and only where the samples were
 * those of the calls: otherwise the harness is in the numerator). */
static const char *sampled_vs_timed(char *b, size_t n, const mp_rcell *c,
                                    const mp_rprofile *p)
{
    double on = p->on_cpu_ns_per_call;
    if (!(p->window == MP_RPROF_CALLS && isfinite(on) && isfinite(c->wall.mean) &&
          c->wall.mean > 0))
        return snprintf(b, n, "n/a"), b;
    char r[32];
    snprintf(b, n, "%s×", mp_fmt_num(r, sizeof r, on / c->wall.mean));
    return b;
}

static void phases_table(FILE *f, const mp_rmodel *m, const char *mode)
{
    char names[MAXPH][64];
    size_t nph = phase_names(m, mode, NULL, names);
    char b[128], cell[160], sm[32];
    int ready = !strcmp(mode, "ready");
    fprintf(f, "| backend | N | samples | outside calls | %sevent | symbols | user share |",
            ready ? "sampled ÷ timed | " : "");
    int marked = 0;
    for (size_t k = 0; k < nph; k++) {
        fprintf(f, " %s%s |", mp_md_cell(cell, sizeof cell, names[k]),
                irq_pileup(names[k]) ? " †" : "");
        marked |= irq_pileup(names[k]);
    }
    fprintf(f, "\n|---|---:|---:|---:|%s---|---|---:|", ready ? "---:|" : "");
    for (size_t k = 0; k < nph; k++)
        fprintf(f, "---:|");
    fputc('\n', f);
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        const mp_rprofile *p = mp_rm_profile(m, c);
        if (!p || strcmp(c->mode, mode))
            continue;
        double s = p->samples >= 0 ? (double)p->samples : NAN;
        pct(b, sizeof b, p->user_share);
        char out[48], slow[48];
        mp_fmt_outside_calls(out, sizeof out, p);
        fprintf(f, "| %s | %s | %s | %s | ", c->backend, MP_NUM(c->nfds),
                isfinite(s) ? mp_fmt_num(sm, sizeof sm, s) : "n/a", out);
        if (ready)
            fprintf(f, "%s | ", sampled_vs_timed(slow, sizeof slow, c, p));
        fprintf(f, "%s | ", mp_md_cell(cell, sizeof cell, p->event ? p->event : "?"));
        fprintf(f, "%s | %s |", mp_md_cell(cell, sizeof cell, p->symbols ? p->symbols : "?"),
                b);
        for (size_t k = 0; k < nph; k++) {
            double share = NAN;
            for (size_t e = 0; e < p->nphases; e++)   /* the last of that name */
                if (!strcmp(p->phases[e].name, names[k]))
                    share = p->phases[e].share;
            pct(b, sizeof b, share);
            fprintf(f, " %s |", b);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    if (marked)
        fprintf(f, "%s\n\n", PILEUP_NOTE);
}

static void top_functions(FILE *f, const mp_rcell *c, const mp_rprofile *p)
{
    const mp_rprof_entry *pick[TOP];
    size_t n = 0;
    for (size_t k = 0; k < p->nfunctions; k++) {   /* keep the TOP largest shares, in order */
        const mp_rprof_entry *e = &p->functions[k];
        double s = e->share;
        if (n == TOP && !(s > pick[TOP - 1]->share))
            continue;
        size_t j = n < TOP ? n++ : TOP - 1;
        while (j > 0 && pick[j - 1]->share < s) {
            pick[j] = pick[j - 1];
            j--;
        }
        pick[j] = e;
    }
    char a[32], b[32], cell[200];
    if (!n) {
        fprintf(f, "No function attribution for %s at N=%s: %s.\n\n", c->backend,
                MP_NUM(c->nfds),
                mp_md_cell(cell, sizeof cell, p->symbols ? p->symbols : "no symbols"));
        return;
    }
    /* Wakeup mode: the samples are of the waiter's on-CPU time, while the
     * latency is mostly off-CPU, so a share times the latency is no cost. */
    int wake = !strcmp(c->mode, "wakeup");
    if (wake)
        fprintf(f, "Top kernel functions, %s at N=%s (share of the waiter's on-CPU samples "
                   "inside the calls; "
                   "no ns per call: in wakeup mode a share is an upper-bound split of the "
                   "latency, not a cost):\n\n| function | share of on-CPU samples |\n"
                   "|---|---:|\n", c->backend, MP_NUM(c->nfds));
    else
        fprintf(f, "Top kernel functions, %s at N=%s:\n\n| function | share | ns per call "
                   "(share × p50) |\n|---|---:|---:|\n", c->backend, MP_NUM(c->nfds));
    int marked = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = pick[i]->name;
        int pile = irq_pileup(name);
        marked |= pile;
        pct(a, sizeof a, pick[i]->share);
        fprintf(f, "| %s%s | %s |", mp_quote_md_code(cell, sizeof cell, name, 1),
                pile ? " †" : "", a);
        if (!wake)
            fprintf(f, " %s |", mp_fmt_num(b, sizeof b, pick[i]->ns_per_call));
        fputc('\n', f);
    }
    fputc('\n', f);
    if (marked)
        fprintf(f, "%s\n\n", PILEUP_NOTE);
}

/* A phase name as a word for gnuplot titles and .dat headers. */
static void token(char *dst, size_t len, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++)
        dst[o++] = (isalnum((unsigned char)*s) || strchr("-_.+", *s)) ? *s : '_';
    dst[o] = 0;
    if (!o && len > 1)
        snprintf(dst, len, "_");
}

/* data_prof_MODE_KIND_BACKEND.dat: one row per profiled cell with phases;
 * columns nfds, label, user, the share (%) of each phase, the ns per fd of
 * each phase ('?' when not positive), wall p50.  *rows gets the rows,
 * *fdcols a bit per phase with some positive ns per fd. */
static int prof_data(const mp_rmodel *m, mp_dir *dir, const char *mode, const char *kind,
                     const char *backend, char (*names)[64], size_t nph, size_t *rows,
                     unsigned *fdcols, mp_err *err)
{
    char name[200], tok[64];
    snprintf(name, sizeof name, "data_prof_%s_%s_%s.dat", mode, kind, backend);
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    FILE *f = a.f;
    fprintf(f, "# muxprof %s: kernel profile, %s mode, %s fds, backend %s\n"
               "# share_* = %% of the samples inside the calls (user + kernel phases = 100);\n"
               "# nsfd_* = the phase's ns per call / N; '?' = none.\nnfds label user",
            MP_QCOMMENT(m->shown), mode, kind, backend);
    for (size_t k = 0; k < nph; k++) {
        token(tok, sizeof tok, names[k]);
        fprintf(f, " share_%s", tok);
    }
    for (size_t k = 0; k < nph; k++) {
        token(tok, sizeof tok, names[k]);
        fprintf(f, " nsfd_%s", tok);
    }
    fputs(" wall_p50\n", f);
    *rows = 0;
    *fdcols = 0;
    const mp_rcell *cells[MP_RC_MAXPTS];
    size_t n = mp_rm_series(m, mode, kind, backend, cells, MP_RC_MAXPTS);
    for (size_t i = 0; i < n && i < MP_RC_MAXPTS; i++) {
        const mp_rcell *c = cells[i];
        const mp_rprofile *p = mp_rm_profile(m, c);
        if (!p || c->status != MP_CELL_OK || !has_phases(p))
            continue;
        double u = p->user_share;
        fprintf(f, "%lld %lld", c->nfds, c->nfds);
        mp__rfig_num(f, isfinite(u) ? u * 100 : 0);
        for (size_t k = 0; k < nph; k++) {
            const mp_rprof_entry *e = phase_of(p, names[k]);
            mp__rfig_num(f, e ? e->share * 100 : 0);
        }
        for (size_t k = 0; k < nph; k++) {
            const mp_rprof_entry *e = phase_of(p, names[k]);
            double v = e ? phase_ns_per_fd(c, p, e) : NAN;
            mp__rfig_num(f, v > 0 ? v : NAN);
            if (v > 0 && k < 32)
                *fdcols |= 1u << k;
        }
        mp__rfig_num(f, c->wall.p50);
        fputc('\n', f);
        (*rows)++;
    }
    return mp_afile_commit(&a, err);
}

static int figures(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    for (size_t mi = 0; mi < m->nmodes; mi++)
        for (size_t ki = 0; ki < m->nkinds; ki++) {
            const char *mode = m->modes[mi], *kind = m->kinds[ki];
            char names[MAXPH][64], tok[64], cpu[120];
            mp_rc_host_cpu(m, cpu, sizeof cpu);
            size_t nph = phase_names(m, mode, kind, names);
            if (!nph)
                continue;
            char bl[MP_RM_MAX_LIST * 33] = "", vars[MP_RFIG_VARS], ph[MAXPH * 66] = "user";
            for (size_t k = 0; k < nph; k++) {
                token(tok, sizeof tok, names[k]);
                snprintf(ph + strlen(ph), sizeof ph - strlen(ph), " %s", tok);
            }
            for (size_t b = 0; b < m->nbackends; b++) {
                size_t rows;
                unsigned fdc;
                int rc = prof_data(m, dir, mode, kind, m->backends[b], names, nph, &rows, &fdc,
                                   err);
                if (rc)
                    return rc;
                if (!rows)
                    continue;
                snprintf(bl + strlen(bl), sizeof bl - strlen(bl), "%s%s", bl[0] ? " " : "",
                         m->backends[b]);
                if (rows < 2 || !fdc || !grows_with_n(m, mode, kind, m->backends[b]))
                    continue;   /* ns per fd of a flat backend: a slope of -1 by construction */
                char name[160], cols[MAXPH * 4] = "", titles[MAXPH * 66] = "",
                     sty[MAXPH * 4] = "";
                for (size_t k = 0; k < nph; k++)
                    if (fdc & (1u << k)) {
                        token(tok, sizeof tok, names[k]);
                        snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%zu",
                                 cols[0] ? " " : "", 4 + nph + k);
                        snprintf(titles + strlen(titles), sizeof titles - strlen(titles),
                                 "%s%s", titles[0] ? " " : "", tok);
                        /* a phase keeps its line style in every backend's figure */
                        snprintf(sty + strlen(sty), sizeof sty - strlen(sty), "%s%zu",
                                 sty[0] ? " " : "", k % 8 + 1);
                    }
                snprintf(name, sizeof name, "prof_fd_%s_%s_%s", mode, kind, m->backends[b]);
                mp_rfig *g = mp__rfig_add(o, MP_FIG_PROF_FD, name, err);
                if (!g)
                    return -ENOMEM;
                snprintf(g->mode, sizeof g->mode, "%s", mode);
                snprintf(g->fd_kind, sizeof g->fd_kind, "%s", kind);
                snprintf(g->caption, sizeof g->caption, "%s, %s, %s mode, %s fds: ns per "
                         "call per watched descriptor of each kernel phase (share x wall p50 "
                         "/ N) against N, log-log", m->backends[b], cpu, mode, kind);
                char file[200], ttl[256];
                snprintf(file, sizeof file, "data_prof_%s_%s_%s.dat", mode, kind,
                         m->backends[b]);
                snprintf(ttl, sizeof ttl, "%s, %s mode, %s fds: ns per descriptor by phase",
                         m->backends[b], mode, kind);
                snprintf(vars, sizeof vars, "file = %s\ncols = %s\nstyles = %s\ntitles = %s\n"
                         "ttl = %s\n", MP_QGP(file), MP_QGP(cols), MP_QGP(sty), MP_QGP(titles),
                         MP_QGP(ttl));
                mp_rpaper pp;
                if (o->paper) {   /* what prof_fd.gp draws: a line per phase column */
                    mp_rpaper_init(&pp, MP_RPAPER_LOG10, MP_RPAPER_LOG10);
                    for (size_t k = 0; k < nph && rc >= 0; k++) {
                        char col[24];
                        if (!(fdc & (1u << k)))
                            continue;
                        snprintf(col, sizeof col, "%zu", 4 + nph + k);
                        rc = mp_rpaper_dat(&pp, dir, file, MP_RPAPER_LINE, "1", col, NULL, err);
                        token(tok, sizeof tok, names[k]);
                        mp_rpaper_key(&pp, tok);
                    }
                }
                if (rc >= 0)
                    rc = mp__rfig_wrapper_paper(dir, g, "prof_fd.gp", vars,
                                                o->paper ? &pp : NULL, err);
                if (o->paper)
                    mp_rpaper_free(&pp);
                if (rc)
                    return rc;
            }
            if (!bl[0])
                continue;
            char name[160];
            snprintf(name, sizeof name, "prof_%s_%s", mode, kind);
            mp_rfig *g = mp__rfig_add(o, MP_FIG_PROF, name, err);
            if (!g)
                return -ENOMEM;
            snprintf(g->mode, sizeof g->mode, "%s", mode);
            snprintf(g->fd_kind, sizeof g->fd_kind, "%s", kind);
            snprintf(g->caption, sizeof g->caption, "Phase shares of the time per call, "
                     "%s, %s mode, %s fds: one bar per backend and N, stacked by phase (%% of "
                     "the samples inside the calls)", cpu, mode, kind);
            char ttl[256];
            snprintf(ttl, sizeof ttl, "%s mode, %s fds: where the time of one call goes",
                     mode, kind);
            snprintf(vars, sizeof vars, "mode = %s\nkind = %s\nbackends = %s\nphases = %s\n"
                     "ttl = %s\n", MP_QGP(mode), MP_QGP(kind), MP_QGP(bl), MP_QGP(ph),
                     MP_QGP(ttl));
            mp_rpaper pp;   /* stacked shares, 0..100 %: only the title and legend change */
            mp_rpaper_init(&pp, MP_RPAPER_LIN, MP_RPAPER_LIN);
            pp.fixed = 1;
            int rc = mp__rfig_wrapper_paper(dir, g, "prof.gp", vars, o->paper ? &pp : NULL,
                                            err);
            mp_rpaper_free(&pp);
            if (rc)
                return rc;
        }
    return 0;
}

static void profile(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    int any = 0;
    for (size_t i = 0; i < m->ncells; i++)
        any |= m->cells[i].profile != NULL;
    if (!any)
        return;
    fprintf(f, "## Where the time goes in the kernel (sampled profile)\n\n"
               "Kernel-function sampling of the measured calls (a separate pass): shares of "
               "samples by phase and by function. Only samples taken inside a call are kept "
               "(ready: between the clock reads around it, the interval of the median; wakeup: "
               "the waiter's bracket); those taken in the harness between calls (the answer "
               "check, the scan of the result, the wakeup handshake) are counted under "
               "\"outside calls\" and left out. \"sampled ÷ timed\" is the mean on-CPU time "
               "per call while sampled (the calls' samples × the period) over the timed mean: "
               "how much slower the profiled calls ran than the timed ones (cpu-clock only). "
               "In ready mode a share times the median is "
               "the nanoseconds per call it stands for. In wakeup mode the samples cover only "
               "the waiter's on-CPU time: the shares are an upper-bound split of the latency, "
               "not a cost, and no ns per call is given. Rows marked † collect time from "
               "interrupts-off sections (see the note under each table). The per-descriptor "
               "phase figure is drawn only for backends whose cost grows with N. "
               "docs/profile.md has the details.\n\n");
    for (size_t i = 0; i < m->nmodes; i++) {
        int here = 0;
        for (size_t c = 0; c < m->ncells; c++)
            here |= m->cells[c].profile && !strcmp(m->cells[c].mode, m->modes[i]);
        if (!here)
            continue;
        fprintf(f, "### %s mode\n\n", m->modes[i]);
        phases_table(f, m, m->modes[i]);
        for (size_t k = 0; figs && k < m->nkinds; k++) {
            char name[160];
            snprintf(name, sizeof name, "prof_%s_%s", m->modes[i], m->kinds[k]);
            mp_rmd_figure(f, figs, name);
            for (size_t b = 0; b < m->nbackends; b++) {
                snprintf(name, sizeof name, "prof_fd_%s_%s_%s", m->modes[i], m->kinds[k],
                         m->backends[b]);
                mp_rmd_figure(f, figs, name);
            }
        }
        for (size_t b = 0; b < m->nbackends; b++) {
            const mp_rcell *best = NULL;
            for (size_t c = 0; c < m->ncells; c++) {
                const mp_rcell *x = &m->cells[c];
                if (x->profile && !strcmp(x->mode, m->modes[i]) &&
                    !strcmp(x->backend, m->backends[b]) && (!best || x->nfds > best->nfds))
                    best = x;
            }
            if (best)
                top_functions(f, best, mp_rm_profile(m, best));
        }
    }
}


const mp_rsection mp_rsec_profile = {"profile", 1, 1, figures, profile, NULL, 0};
