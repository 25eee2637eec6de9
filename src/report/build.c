/* build.c - mp_report_build: results.json -> figures/ (data, gnuplot
 * scripts, PNG/SVG/PDF) and report.md, from results.json alone.  The
 * sections are one table, run in order: each prepares its figures, then,
 * once they are drawn (so the report embeds exactly those that exist),
 * writes its Markdown.  Adding a section is its sec_*.c plus one row.
 * See report/report.h. */
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/file.h"
#include "report/internal.h"

static const mp_rsection *const sections[] = {
    &mp_rsec_context,  &mp_rsec_method,      &mp_rsec_harness,     &mp_rsec_results,
    &mp_rsec_kofn,     &mp_rsec_cache,       &mp_rsec_correlation, &mp_rsec_claims,
    &mp_rsec_profile,  &mp_rsec_experiments, &mp_rsec_figures,     &mp_rsec_counters,
};
#define NSECTIONS (sizeof sections / sizeof sections[0])

int mp__r_experiments_only(const mp_rmodel *m)
{
    int exps = m->exp.has_register || m->exp.has_herd || m->exp.has_ltet;
    return !m->ncells && !m->nkcells && exps;
}

int mp_report_figures(const mp_rmodel *m, const char *figdir, mp_rfigs *out, mp_err *err)
{
    const char *prefixes[64];
    size_t np = 0;
    for (size_t i = 0; i < NSECTIONS; i++)
        for (const char *const *p = sections[i]->fig_prefixes; p && *p; p++)
            if (np < sizeof prefixes / sizeof prefixes[0])
                prefixes[np++] = *p;
    int rc = mp_rfig_begin(figdir, prefixes, np, out, err);
    for (size_t i = 0; i < NSECTIONS && rc == 0; i++)
        if (sections[i]->figures)
            rc = sections[i]->figures(m, figdir, out, err);
    return rc;
}

int mp_report_markdown(const mp_rmodel *m, const char *run_dir, const mp_rfigs *figs,
                       mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, run_dir, "report.md", err);
    if (rc)
        return rc;
    FILE *f = a.f;
    char host[128], when[64];
    fprintf(f, "# muxprof report: %s, %s\n\n",
            mp_rm_text(m, "context.host", host, sizeof host) ? host : "unknown host",
            mp_rm_text(m, "started_utc", when, sizeof when) ? when : "unknown time");
    if (mp_rm_text(m, "status", when, sizeof when) && strcmp(when, "complete"))
        fprintf(f, "> **This run is %s**: some cells were not measured.\n\n", when);
    fprintf(f, "What one `select()` / `poll()` / `epoll_wait()` call costs as the number of "
               "watched descriptors N grows. Built from `results.json` by `muxprof report`; "
               "rebuild with `muxprof report %s`.\n\n", run_dir);
    int exp_only = mp__r_experiments_only(m);
    for (size_t i = 0; i < NSECTIONS; i++)
        if (!(exp_only && sections[i]->calls_only))
            sections[i]->markdown(f, m, figs);
    return mp_afile_commit(&a, err);
}

int mp_report_build(const char *run_dir, int figures, mp_err *err)
{
    char path[4096], figdir[4096];
    if (!run_dir || !*run_dir)
        return mp_errf(err, MP_EUSAGE, "no run directory given");
    if ((size_t)snprintf(path, sizeof path, "%s/results.json", run_dir) >= sizeof path ||
        (size_t)snprintf(figdir, sizeof figdir, "%s/figures", run_dir) >= sizeof figdir)
        return mp_errf(err, -ENAMETOOLONG, "%s: path too long", run_dir);
    mp_rmodel m;
    int rc = mp_rm_load(&m, path, err);
    if (rc) {
        mp_rm_free(&m);
        return rc;
    }
    mp_rfigs figs;
    rc = mp_report_figures(&m, figdir, &figs, err);
    if (rc == 0) {
        if (figures)
            mp_rfig_draw(figdir, &figs);
        rc = mp_report_markdown(&m, run_dir, &figs, err);
    }
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
