/* SPDX-License-Identifier: MIT */
/* build.c - mp_report_build: results.json -> figures/ (data, gnuplot
 * scripts, PNG/SVG/PDF) and report.md, from results.json alone.  The
 * sections are one table, run in order: each prepares its figures, then,
 * once they are drawn (so the report embeds exactly those that exist),
 * writes its Markdown.  Adding a section is its sec_*.c plus one row.
 * See report/report.h. */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/anonymize.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/internal.h"
#include "report/plot.h"

static const mp_rsection *const sections[] = {
    &mp_rsec_context,  &mp_rsec_trace,       &mp_rsec_method,      &mp_rsec_sim,
    &mp_rsec_harness,  &mp_rsec_results,     &mp_rsec_wake,
    &mp_rsec_kofn,     &mp_rsec_cache,       &mp_rsec_correlation, &mp_rsec_claims,
    &mp_rsec_profile,  &mp_rsec_xtables,     &mp_rsec_figures,
    &mp_rsec_counters,
};
#define NSECTIONS (sizeof sections / sizeof sections[0])

int mp__r_experiments_only(const mp_rmodel *m)
{
    int exps = m->nxtabs > 0;
    return !m->ncells && !m->nkcells && exps;
}

int mp_report_figures(const mp_rmodel *m, mp_dir *dir, mp_dir *figdir, int drawing,
                      mp_rfigs *out, mp_err *err)
{
    int rc = mp_rfig_begin(dir, figdir, drawing, out, err);
    for (size_t i = 0; i < NSECTIONS && rc == 0; i++)
        if (sections[i]->figures)
            rc = sections[i]->figures(m, figdir, out, err);
    return rc;
}

/* An emulated CPU (context.emulated): say what gave it away, that its
 * hardware counts are the emulator's, and which counters counted nothing in
 * any cell (an emulator that does not model an event counts 0: that is not
 * a measurement of zero misses).  Not for a simulated run: it has neither
 * times nor hardware counts, and its own section says what the model is. */
/* Samples whose time includes a stop of the process (the cells'
 * samples_stopped). */
static void stopped_note(FILE *f, const mp_rmodel *m)
{
    double n = 0;
    int cells = 0;
    for (size_t i = 0; i < m->nall; i++) {
        double k = (double)m->all[i].samples_stopped;
        if (k >= 1 && k <= 1e12) {
            n += k;
            cells++;
        }
    }
    if (cells)
        fprintf(f, "> **%.0f sample%s in %d cell%s spanned a stop of the process** (SIGSTOP, a "
                "debugger, a suspended job): %s time%s include%s the stop (`samples_stopped` "
                "in results.json names the cells).\n\n", n, n == 1 ? "" : "s", cells,
                cells == 1 ? "" : "s", n == 1 ? "its" : "their", n == 1 ? "" : "s",
                n == 1 ? "s" : "");
}

static void emulation_note(FILE *f, const mp_rmodel *m)
{
    if (m->simulated || !m->context.emulated)
        return;
    fprintf(f, "> **Emulated CPU**");
    const char *sep = " (seen: ";
    for (size_t i = 0; i < m->context.nemulation_seen; i++) {
        fprintf(f, "%s%s", sep, MP_QMD(m->context.emulation_seen[i]));
        sep = "; ";
    }
    fprintf(f, "%s: times are the emulator's, and so are the hardware counts: cycles count "
               "virtual time, instructions are exact only under `-icount`.", *sep == ';' ? ")"
                                                                                       : "");
    char names[32][96];
    int any[32], n = 0;
    for (size_t k = 0; k < m->nall_metrics; k++) {
        const mp_rall_metric *mt = &m->all_metrics[k];
        if (!mt->read_path || !strcmp(mt->read_path, "read"))
            continue;   /* software counters are read with read() */
        int i;
        for (i = 0; i < n && strcmp(names[i], mt->name); i++)
            ;
        if (i == n) {
            if (n == 32)
                continue;
            snprintf(names[n], sizeof names[n], "%s", mt->name);
            any[n++] = 0;
        }
        if (isnan(mt->max) || mt->max != 0)
            any[i] = 1;
    }
    sep = " Counted 0 in every call of every cell, so **not measured here** (the emulator "
          "does not model them; read these zeros as missing, not as no events): ";
    for (int i = 0; i < n; i++)
        if (!any[i]) {
            char code[200];
            fprintf(f, "%s%s", sep, mp_quote_md_code(code, sizeof code, names[i], 0));
            sep = ", ";
        }
    fprintf(f, "%s\n\n", *sep == ',' ? "." : "");
}

int mp_report_markdown(const mp_rmodel *m, mp_dir *run_dir, const mp_rfigs *figs,
                       mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, run_dir, "report.md", err);
    if (rc)
        return rc;
    FILE *f = a.f;
    char host[128], when[64];
    snprintf(when, sizeof when, "%s", m->run.started_utc ? m->run.started_utc : "unknown time");
    fprintf(f, "# muxprof report: %s%s%s, %s\n\n", m->simulated ? MP_QMD(m->sim_label) : "",
            m->simulated ? " on " : "",
            MP_QMD(mp_rm_text(m, "context.host", host, sizeof host) ? host : "unknown host"),
            MP_QMD(when));
    snprintf(when, sizeof when, "%s", m->run.status ? m->run.status : "");
    if (m->run.status && !strcmp(when, "errors"))
        fprintf(f, "> **Cells of this run ended in error**: they were not measured "
                   "(their reasons are in results.json).\n\n");
    else if (m->run.status && strcmp(when, "complete"))
        fprintf(f, "> **This run is %s**: some cells were not measured.\n\n", MP_QMD(when));
    stopped_note(f, m);
    emulation_note(f, m);
    char word[1024], cmd[1100], rebuild[1200];
    snprintf(cmd, sizeof cmd, "muxprof report %s",
             m->anonymized ? "." : mp_quote_sh(word, sizeof word, run_dir->path));
    mp_quote_md_code(rebuild, sizeof rebuild, cmd, 0);
    fprintf(f, "What one `select()` / `poll()` / `epoll_wait()` call %s as the number of "
               "watched descriptors N grows. Built from `results.json` by `muxprof report`; "
               "rebuild with %s.\n\n", m->traced ? "of a traced program (muxprof trace) "
               "costs" : "costs", rebuild);
    int exp_only = mp__r_experiments_only(m);
    for (size_t i = 0; i < NSECTIONS; i++) {
        const mp_rsection *s = sections[i];
        if (!(exp_only && s->calls_only) && !(m->simulated && s->timed_only) &&
            !(m->traced && s->harness_only))
            s->markdown(f, m, figs);
    }
    return mp_afile_commit(&a, err);
}

cJSON *mp_report_json(const mp_rmodel *m)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc)
        return NULL;
    cJSON_AddItemToObject(doc, "input", mp__rj_input(m));
    int exp_only = mp__r_experiments_only(m);
    for (size_t i = 0; i < NSECTIONS; i++) {
        const mp_rsection *s = sections[i];
        if (s->json && !(exp_only && s->calls_only) && !(m->simulated && s->timed_only) &&
            !(m->traced && s->harness_only))
            s->json(doc, m);
    }
    return doc;
}

int mp_report_build_in(mp_dir *run_dir, int figures, mp_err *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/results.json", run_dir->path) >= sizeof path)
        return mp_errf(err, -ENAMETOOLONG, "%s: path too long", run_dir->path);
    mp_rmodel m;
    int rc = mp_rm_load(&m, path, err);
    if (rc) {
        mp_rm_free(&m);
        return rc;
    }
    mp_rfigs figs;
    mp_dir figdir;
    rc = mp_report_figures(&m, run_dir, &figdir, figures, &figs, err);
    if (rc == 0) {
        if (figures & MP_RFIG_DRAW)
            mp_rfig_draw(&figdir, &figs);
        if (mp_plot_interrupted())   /* a stop asked for: no report of half the figures */
            rc = mp_errf(err, -EINTR, "interrupted (signal %d) while drawing the figures: "
                         "report.md not written; `muxprof report %s` draws them again",
                         mp_plot_interrupted(), run_dir->path);
    }
    if (rc == 0) {
        for (size_t i = 0; m.anonymized && i < figs.n; i++)   /* errors name figdir */
            mp_anon_text_in_place(figs.v[i].error, sizeof figs.v[i].error);
        rc = mp_report_markdown(&m, run_dir, &figs, err);
    }
    mp_dir_close(&figdir);
    if (rc == 0 && figs.failed)
        for (size_t i = 0; i < figs.n; i++)
            if (figs.v[i].error[0]) {
                rc = mp_errf(err, -EIO, "%zu of %zu figures were not drawn (report.md lists "
                             "them); first: %s", figs.failed, figs.n, figs.v[i].error);
                break;
            }
    mp_rfigs_free(&figs);
    mp_rm_free(&m);
    return rc;
}

int mp_report_build(const char *run_dir, int figures, mp_err *err)
{
    if (!run_dir || !*run_dir)
        return mp_errf(err, MP_EUSAGE, "no run directory given");
    mp_dir d;
    int rc = mp_dir_open(&d, run_dir, 0, err);
    if (rc == 0)
        rc = mp_report_build_in(&d, figures, err);
    mp_dir_close(&d);
    return rc;
}
