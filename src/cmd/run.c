/* SPDX-License-Identifier: MIT */
/* run.c - `muxprof run`: validate everything, take the run directory, run
 * (run/measure.h, with the experiments, --anonymize and the report as its
 * steps), print the summary.
 *
 * Order matters: every usage error is found before anything is created.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "common/file.h"
#include "common/quote.h"
#include "experiments/experiment.h"
#include "pmu/pmu.h"
#include "report/anonymize.h"
#include "report/plot.h"
#include "report/report.h"
#include "run/config.h"
#include "results/limits.h"
#include "run/journal.h"
#include "run/measure.h"
#include "run/results.h"
#include "topology/topology.h"

/* As many as the journal holds back (12 bytes each in memory, plus
 * samples.csv text). */
#define MAX_SAMPLES_PER_CELL MP_JOURNAL_MAX_LINE_SAMPLES
#define MAX_SAMPLES_PER_RUN ((double)MP_JOURNAL_MAX_SAMPLES)

/* Take the run directory: the default one, or --out as every verb takes its
 * output directory (cmd/internal.h).  A directory given wrongly is
 * MP_EUSAGE; one that cannot be created or written is an environment
 * failure (-errno). */
static int prepare_out_dir(mp_run_config *cfg, mp_dir *out, mp_err *err)
{
    if (!cfg->out_dir[0])
        return mp_run_default_dir(cfg, out, err);
    mp_err why;
    int rc = mp__cmd_out_dir(out, cfg->out_dir, cfg->force, &why);
    if (rc)
        return mp_errf(err, rc, "--out: %s", why.msg);
    if (!out->created && (rc = mp_journal_clear(out, &why))) {
        mp_dir_close(out);
        return mp_errf(err, rc, "--out: %s", why.msg);
    }
    mp_run_dir_clear(out);
    return 0;
}

void mp__run_print_placement(const mp_pu_pair *pair, int bound, FILE *f)
{
    fprintf(f, "\nplacement: %s", pair->placement);
    if (strcmp(pair->requested, pair->placement))
        fprintf(f, " (asked for %s%s)", pair->requested,
                mp_run_placement_fell_back(pair) ? ", FELL BACK" : "");
    if (pair->waiter_pu >= 0)
        fprintf(f, ", waiter PU %d, poker PU %d%s", pair->waiter_pu, pair->poker_pu,
                bound ? "" : " (binding failed: threads ran unpinned)");
    fprintf(f, " -- %s\n", pair->detail);
}

/* After a failed final write: the summary was printed; where what was
 * measured still is. */
static void say_where_results_are(const mp_journal *j, const char *dir)
{
    if (j->failed.code)
        fprintf(stderr, "muxprof run: the journal could not be written either (%s): it "
                "holds at most the cells finished before that; the summary above is all "
                "that is left of the others\n", j->failed.msg);
    else
        fprintf(stderr, "muxprof run: the results are kept in %s (made durable as they were "
                "measured): `muxprof report %s` writes results.json, its CSVs "
                "and the report from it once %s is writable\n", j->path, dir, dir);
}

/* The summary could not be written to stdout.  A reader that went away
 * (`muxprof run | head -2`: EPIPE) is not a failure of the run, whose
 * results are in its directory; any other error (a full disk) is, and is
 * said on stderr.  Returns 1 in that case. */
static int summary_lost(const char *dir)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    int e = errno;
    struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
    if (e == EPIPE || (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)))
        return 0;   /* the reader left: stop printing, as it asked */
    fprintf(stderr, "muxprof run: writing the summary to stdout failed: %s; the results are "
            "in %s\n", strerror(e), dir);
    return 1;
}

/* What report.md would warn about and find, after the tables: the run's
 * results.json read back as the report reads it. */
static void print_notes(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/results.json", dir);
    mp_rmodel m;
    mp_err e;
    if (mp_rm_load(&m, path, &e) == 0) {
        mp_report_notes(&m, stdout);
        mp_rm_free(&m);
    }
}

/* The terminal summary of a run that measured, and its exit status: the
 * outcome's, or 1 for what the summary finds (no cell measured, cells in
 * error, a report that failed, a summary that could not be written). */
static int print_summary(const mp_run_config *cfg, const mp_dir *out, const mp_pu_pair *pair,
                         const mp_run_outcome *o)
{
    const mp_results *r = &o->results;
    int exit_code = o->exit_code;
    if (cfg->experiments & MP_EXP_CALLS) {
        mp_print_tables(r, stdout);
        mp_print_cell_reasons(r, "\nnot measured:\n", stdout);
        mp_print_stopped(r, "\nstopped while measured:\n", stdout);
        if (o->saved)
            print_notes(out->path);
    }
    if (r->experiments)
        mp_experiments_print(r->experiments, stdout);
    mp_print_counters(r->counters, stdout);
    mp__run_print_placement(pair, o->bound, stdout);
    printf("\nrun directory: %s\n", cfg->out_dir);
    if (r->interrupted && o->saved) {
        char dir[PATH_MAX + 8];
        printf("(interrupted: results.json holds the cells finished so far; no report.md was "
               "written: `muxprof report %s` writes it and the figures)\n",
               mp_quote_sh(dir, sizeof dir, cfg->out_dir));
    }
    size_t nerr = r->interrupted ? 0 : mp_results_error_cells(r);
    if (nerr)
        printf("(%zu of the cells and experiments ended in error: results.json says "
               "\"status\": \"errors\")\n", nerr);
    if (!o->saved)
        say_where_results_are(&o->journal, cfg->out_dir);
    if (summary_lost(cfg->out_dir))
        exit_code = exit_code ? exit_code : 1;
    /* A run that measured nothing has failed, whatever it wrote; so has one
     * with a cell that ended in error. */
    if (!r->interrupted && exit_code == 0 && (cfg->experiments & MP_EXP_CALLS) &&
        mp_results_ok_cells(r) == 0) {
        fprintf(stderr, "muxprof run: no cell could be measured (%zu tried):\n", r->ncells);
        mp_print_cell_reasons(r, NULL, stderr);
        exit_code = 1;
    } else if (nerr && exit_code == 0) {
        mp_echo dir;
        fprintf(stderr, "muxprof run: %zu of the cells and experiments ended in error (the "
                "reasons are listed under the tables); the others are in %s\n", nerr,
                mp_echo_arg(&dir, cfg->out_dir));
        exit_code = 1;
    }
    if (o->saved && !r->interrupted && o->report_rc == 0 && !cfg->no_plots &&
        !mp_plot_gnuplot_found(NULL, 0)) {
        char dir[PATH_MAX + 8];
        fprintf(stderr, "muxprof run: figures not drawn: gnuplot not found in PATH; "
                MP_PLOT_INSTALL_HINT ", then `muxprof report %s` draws them (on any machine)\n",
                mp_quote_sh(dir, sizeof dir, cfg->out_dir));
    }
    /* The results are written; a report or figure that is not is a failure too. */
    if (o->report_rc < 0) {
        mp_echo dir;
        fprintf(stderr, "muxprof run: report: %s; the results are kept in %s (muxprof report "
                "DIR tries again)\n", o->report_err.msg, mp_echo_arg(&dir, cfg->out_dir));
        if (o->report_rc == -EINTR && mp_plot_interrupted())
            exit_code = 128 + mp_plot_interrupted();
        else if (exit_code == 0)
            exit_code = 1;
    }
    return exit_code;
}

_Static_assert(MP_RUN_FIG_DRAW == MP_RFIG_DRAW && MP_RUN_FIG_PAPER == MP_RFIG_PAPER,
               "run/measure.h's figure flags are report/fig.h's");

/* Measure, then the summary; the run's steps above run/ given here. */
static int measure(mp_run_config *cfg, mp_dir *out, mp_pmu_plan *plan, mp_topo *topo,
                   const mp_pu_pair *pair, mp_err *err)
{
    static const mp_run_steps steps = {.experiments = mp_experiments_run,
                                       .anonymize = mp_report_anonymize_run,
                                       .report = mp_report_build_in};
    mp_run_outcome o;
    int rc = mp_run_measure(cfg, out, plan, topo, pair, &steps, &o, err);
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err->msg);
        return mp_exit_status(rc);
    }
    int code = print_summary(cfg, out, pair, &o);
    mp_run_outcome_free(&o);
    return code;
}

int mp_cmd_run(int argc, char **argv)
{
    static mp_run_config cfg;   /* large: PATH_MAX and lists */
    mp_err err;
    mp_err_clear(&err);

    int rc = mp_cli_parse_run(argc, argv, &cfg, &err);
    if (rc == 1) {
        mp_cli_run_usage(stdout);
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err.msg);
        return 2;
    }
    double cells = (cfg.experiments & MP_EXP_CALLS)
                       ? (double)cfg.nkinds * cfg.ncounts * cfg.nactives * mp_run_nslots(&cfg) *
                             cfg.nfd_tables * cfg.nbackends : 0;
    double run_samples = (double)cfg.samples * cfg.repeats * cells;
    double json_bytes = cells * MP_RESULTS_CELL_MIN_BYTES(cfg.repeats);
    if (cells > MP_RESULTS_MAX_CELLS || json_bytes > MP_RESULTS_MAX_BYTES) {
        fprintf(stderr, "muxprof run: %.0f cells (fd kinds x N x --active x modes x fd tables x "
                "backends) make a results.json of at least %.0f MiB; `muxprof report` reads at "
                "most %d cells and %u MiB: split the run (fewer --fds, --backends or modes per "
                "run)\n", cells, json_bytes / (1 << 20), MP_RESULTS_MAX_CELLS,
                MP_RESULTS_MAX_BYTES >> 20);
        return 2;
    }
    if (run_samples > MAX_SAMPLES_PER_RUN) {
        fprintf(stderr, "muxprof run: %.0f samples in all (samples x repeats x cells) would be "
                "kept in memory; at most %.0f are: lower --samples or --repeats, or split the "
                "run\n", run_samples, MAX_SAMPLES_PER_RUN);
        return 2;
    }
    if ((long)cfg.samples * cfg.repeats > MAX_SAMPLES_PER_CELL) {
        fprintf(stderr, "muxprof run: --samples %d x --repeats %d = %ld samples per cell; at "
                "most %ld are kept in memory\n", cfg.samples, cfg.repeats,
                (long)cfg.samples * cfg.repeats, MAX_SAMPLES_PER_CELL);
        return 2;
    }

    mp_pmu_plan *plan = NULL;
    mp_topo *topo = NULL;
    mp_pu_pair pair;
    mp_dir out = {.fd = -1};
    rc = mp_pmu_plan_new(&plan, cfg.events, &err);
    if (rc == 0)
        rc = mp_topo_load(&topo, NULL, &err);
    if (rc == 0)
        rc = mp_topo_pick(topo, cfg.placement, &pair, &err);
    if (rc == 0 && !cfg.dry_run)
        rc = prepare_out_dir(&cfg, &out, &err);
    int code;
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err.msg);
        code = mp_exit_status(rc);
    } else if (cfg.dry_run) {
        code = mp__run_dry(&cfg, plan, &pair);
    } else {
        code = measure(&cfg, &out, plan, topo, &pair, &err);
    }
    mp_dir_close(&out);
    mp_topo_free(topo);
    mp_pmu_plan_free(plan);
    return code;
}
