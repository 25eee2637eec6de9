/* run.c - `muxprof run`: validate everything, prepare the host (limits,
 * helper process, placement, poker process), sweep, write the run directory.
 *
 * Order matters: every usage error is found before anything is created;
 * the peer helper is forked before any thread exists; outputs are written
 * through temporary names, also when the sweep was interrupted.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "common/file.h"
#include "run/config.h"
#include "run/context.h"
#include "run/journal.h"
#include "experiments/experiment.h"
#include "run/noise.h"
#include "run/peer.h"
#include "pmu.h"
#include "run/progress.h"
#include "common/quote.h"
#include "report/anonymize.h"
#include "report/plot.h"
#include "report/report.h"
#include "run/results.h"
#include "run/sample.h"
#include "run/sweep.h"
#include "topology.h"

#define EMPTY_BRACKETS 20000
#define MAX_SAMPLES_PER_CELL 20000000L
#define MAX_SAMPLES_PER_RUN 100e6   /* 12 bytes each, plus samples.csv text */

/* What a second signal says as it leaves: where the finished cells are. */
static char leave_msg[PATH_MAX + 256];
static size_t leave_len;

static void on_signal(int sig)
{
    if (mp_sample_stop) {   /* second signal: leave at once (outputs are tmp+rename) */
        if (leave_len)
            (void)!write(STDERR_FILENO, leave_msg, leave_len);
        _exit(128 + sig);
    }
    mp_sample_stop = sig;
}

/* The signals that end a run the way Ctrl-C does: a lost terminal or ssh
 * session (SIGHUP) and Ctrl-\ (SIGQUIT) as well as SIGINT and SIGTERM. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSTOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])

/* Each stop signal to on_signal; SIGPIPE ignored: a reader of stdout or
 * stderr that went away (`muxprof run | head`) makes those writes fail
 * with EPIPE, and the run goes on to write its results. */
static void handle_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: a blocked wait returns EINTR */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSTOP_SIGNALS; i++)
        sigaction(stop_signals[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void block_stop_signals(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < NSTOP_SIGNALS; i++)
        sigaddset(&block, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &block, old);
}

/* UTC now, ISO 8601 (iso != 0) or compact for directory names. */
static void utc_now(char *buf, size_t len, int iso)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%SZ" : "%Y%m%dT%H%M%SZ", &tm);
}

/* The default run directory, reports/runs/<host>-<stamp>, created by
 * mkdir itself so that two runs started in the same second cannot both
 * take it: the second gets <host>-<stamp>-2, and so on. */
#define MAX_DIR_SUFFIX 999

static int make_default_dir(mp_run_config *cfg, mp_dir *out, mp_err *err)
{
    char host[64], stamp[32], base[PATH_MAX - 16];
    mp_context_hostname(host, sizeof host);
    utc_now(stamp, sizeof stamp, 0);
    snprintf(base, sizeof base, "reports/runs/%s-%s", cfg->anonymize ? "anonymized" : host,
             stamp);
    for (int n = 1; n <= MAX_DIR_SUFFIX; n++) {
        if (n == 1)
            snprintf(cfg->out_dir, sizeof cfg->out_dir, "%s", base);
        else
            snprintf(cfg->out_dir, sizeof cfg->out_dir, "%s-%d", base, n);
        mp_err why;
        int rc = mp_dir_create(out, cfg->out_dir, &why);
        if (rc != -EEXIST)
            return rc ? mp_errf(err, rc, "%s; give --out DIR", why.msg) : 0;
    }
    return mp_errf(err, -EEXIST, "%s and %d numbered variants exist; give --out DIR", base,
                   MAX_DIR_SUFFIX - 1);
}

/* Take the run directory: the default one, or --out as every verb takes its
 * output directory (cmd/internal.h).  A directory given wrongly is
 * MP_EUSAGE; one that cannot be created or written is an environment
 * failure (-errno). */
static int prepare_out_dir(mp_run_config *cfg, mp_dir *out, mp_err *err)
{
    if (!cfg->out_dir[0])
        return make_default_dir(cfg, out, err);
    mp_err why;
    int rc = mp__cmd_out_dir(out, cfg->out_dir, cfg->force, &why);
    if (rc)
        return mp_errf(err, rc, "--out: %s", why.msg);
    /* Over a run muxprof wrote (--force): what that run wrote goes first, so
     * that nothing of it (its results, report or figures) can stand beside
     * this run's journal or outputs; a journal it left is not its output
     * (appended to, so kept) and is refused when this run creates its own. */
    struct stat st;
    mp_dir fig;
    if (out->created)
        return 0;
    if (fstatat(out->fd, "figures", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        mp_dir_sub(&fig, out, "figures", &why) == 0) {
        mp_dir_prune(&fig);
        mp_dir_close(&fig);
    }
    mp_dir_prune(out);
    return 0;
}

static int raise_nofile(long *soft, long *hard)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return -errno;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    *soft = (long)rl.rlim_cur;
    *hard = (long)rl.rlim_max;
    return 0;
}

static int open_fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return 16;
    while (readdir(d))
        n++;
    closedir(d);
    return n;   /* includes . and .. and the dir's own fd: a small overestimate */
}

typedef struct {
    const mp_topo *topo;
} bind_ctx;

static int bind_cb(int pu, void *ctx, mp_err *err)
{
    return mp_topo_bind_thread(((bind_ctx *)ctx)->topo, pu, err);
}

static int needs_wakeup(const mp_run_config *c)
{
    if (!(c->experiments & MP_EXP_CALLS))
        return 0;
    for (int i = 0; i < c->nmodes; i++)
        if (c->modes[i] == MP_MODE_WAKEUP)
            return 1;
    return 0;
}

/* "auto" is a request for the best pair; it falls back when no pair at
 * all could be bound (one usable PU). */
static int placement_fell_back(const mp_pu_pair *pair)
{
    return strcmp(pair->requested, "none") && !strcmp(pair->placement, "none");
}

static void print_placement(const mp_pu_pair *pair, int bound, FILE *f)
{
    fprintf(f, "\nplacement: %s", pair->placement);
    if (strcmp(pair->requested, pair->placement))
        fprintf(f, " (asked for %s%s)", pair->requested,
                placement_fell_back(pair) ? ", FELL BACK" : "");
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
        fprintf(stderr, "muxprof run: the results are kept in %s (made durable as each cell "
                "finished): `muxprof report %s` writes results.json and the report from it "
                "once %s is writable\n", j->path, dir, dir);
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

/* Everything after the run directory exists. */
static int measure(mp_run_config *cfg, mp_dir *out, mp_pmu_plan *plan, mp_topo *topo,
                   const mp_pu_pair *pair, mp_err *err)
{
    mp_results r;
    mp_journal journal = {.fd = -1};
    mp_peer peer = {.pid = 0, .sock = -1};
    mp_poker *poker = NULL;
    bind_ctx bctx = {topo};
    mp_progress prog = {0};
    int rc, exit_code = 0;

    /* From here on the run directory exists: a signal must end in an
     * "interrupted" results.json, not in the default action. */
    handle_signals();

    rc = mp_results_init(&r, cfg, err);
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err->msg);
        mp_dir_discard(out);
        return 1;
    }
    utc_now(r.started_utc, sizeof r.started_utc, 1);

    mp_sweep_env env = {.plan = plan, .journal = &journal, .progress = mp_progress_cb,
                        .cell_done = mp_progress_cell_done, .progress_ctx = &prog};
    raise_nofile(&env.rl_soft, &env.rl_hard);
    r.context = mp_context_json(cfg->command);
    mp_noise_snap noise0, noise1;
    mp_noise_snap_take(&noise0);

    rc = mp_peer_start(&peer, err);
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err->msg);
        mp_dir_discard(out);
        exit_code = 1;
        goto out;
    }
    env.peer = &peer;

    /* Placement: the waiter is this thread, the poker its own process
     * (run/poker.h).  A
     * placement that fell back is said at once: wakeup times then mean
     * something else than the placement asked for. */
    int fell_back = placement_fell_back(pair);
    if (fell_back)
        fprintf(stderr, "muxprof: warning: placement %s fell back to %s: %s; wakeup times "
                "then include the scheduler's placement of both threads (muxprof topology "
                "lists what this host offers)\n", pair->requested, pair->placement,
                pair->detail);
    r.topology = mp_topo_json(topo);
    cJSON_AddStringToObject(r.topology, "placement", pair->placement);
    cJSON_AddStringToObject(r.topology, "placement_requested", pair->requested);
    cJSON_AddStringToObject(r.topology, "placement_detail", pair->detail);
    cJSON_AddBoolToObject(r.topology, "placement_fell_back", fell_back);
    cJSON_AddNumberToObject(r.topology, "waiter_pu", pair->waiter_pu);
    cJSON_AddNumberToObject(r.topology, "poker_pu", pair->poker_pu);
    /* The poker starts before this thread is pinned, so that it inherits
     * the process's CPUs: if its own binding fails it is unpinned, not
     * stuck on the waiter's PU.  The herd's waiters get the same CPUs. */
    int bound = 1;
    cpu_set_t all_cpus;
    CPU_ZERO(&all_cpus);
    sched_getaffinity(0, sizeof all_cpus, &all_cpus);
    if (needs_wakeup(cfg)) {
        rc = mp_poker_start(&poker, pair->poker_pu, bind_cb, &bctx, err);
        if (rc < 0) {
            fprintf(stderr, "muxprof run: %s\n", err->msg);
            mp_dir_discard(out);
            exit_code = 1;
            goto out;
        }
        env.poker = poker;
        mp_err perr;
        if (mp_poker_bind_result(poker, &perr) < 0) {
            bound = 0;
            fprintf(stderr, "muxprof: warning: the poker process runs unpinned: %s\n", perr.msg);
            cJSON_AddStringToObject(r.topology, "poker_binding_warning", perr.msg);
        }
    }
    mp_err berr;
    if (pair->waiter_pu >= 0 && mp_topo_bind_thread(topo, pair->waiter_pu, &berr) < 0) {
        bound = 0;
        fprintf(stderr, "muxprof: warning: the waiter runs unpinned: %s\n", berr.msg);
        cJSON_AddStringToObject(r.topology, "binding_warning", berr.msg);
    }

    double *eb = malloc(sizeof *eb * EMPTY_BRACKETS);
    if (eb) {
        mp_sample_empty_brackets(eb, EMPTY_BRACKETS);
        mp_summarize(eb, EMPTY_BRACKETS, &r.empty_bracket);
        free(eb);
    }
    r.counters = mp_pmu_plan_json(plan);
    env.base_fds = open_fd_count();

    mp_sample_watch_stops();
    mp_progress_init(&prog, cfg->quiet, &r,
                     (size_t)cfg->repeats + mp_pmu_plan_passes(plan) + (cfg->profile ? 1 : 0));
    cJSON_AddBoolToObject(r.topology, "bound", bound && pair->waiter_pu >= 0);

    /* The journal starts with what results.json says before any cell. */
    rc = mp_journal_create(&journal, out, err);
    if (rc == 0 && mp_journal_head(&journal, &r) < 0)
        rc = mp_errf(err, -ENOMEM, "out of memory");
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err->msg);
        if (rc != MP_EUSAGE)   /* a journal left there is kept, and so is its directory */
            mp_dir_discard(out);
        exit_code = mp_exit_status(rc);
        goto out;
    }
    leave_len = (size_t)snprintf(leave_msg, sizeof leave_msg, "\nmuxprof run: second signal: "
                                 "leaving at once; the cells finished so far are in %s "
                                 "(`muxprof report %s` writes results.json from it)\n",
                                 journal.path, cfg->out_dir);
    leave_len = leave_len < sizeof leave_msg ? leave_len : 0;

    if (cfg->experiments & MP_EXP_CALLS)
        rc = mp_sweep(&r, &env, err);
    if (rc == 0 && (cfg->experiments & ~(unsigned)MP_EXP_CALLS)) {
        mp_exp_env xenv = {.cfg = cfg, .peer = &peer, .plan = plan, .cpus = &all_cpus};
        r.experiments = cJSON_CreateObject();
        for (size_t i = 0; mp_experiments[i].name && !mp_sample_stop; i++) {
            const mp_experiment *x = &mp_experiments[i];
            if (!x->run || !(cfg->experiments & (1u << i)))
                continue;
            cJSON *o = NULL;
            mp_err xerr;
            if (!cfg->quiet)
                fprintf(stderr, "experiment %s...\n", x->name);
            int xrc = x->run(&xenv, &o, &xerr);
            if (xrc == -EINTR) {
                snprintf(r.interrupted_what, sizeof r.interrupted_what, "experiment %s",
                         x->name);
                break;
            }
            if (xrc < 0) {
                o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "status", "error");
                cJSON_AddStringToObject(o, "reason", xerr.msg);
                fprintf(stderr, "muxprof: experiment %s: %s\n", x->name, xerr.msg);
            }
            cJSON_AddItemToObject(r.experiments, x->name, o);
            if (mp_journal_experiment(&journal, x->name, o) < 0) {
                rc = mp_errf(err, -ENOMEM, "out of memory keeping experiment %s", x->name);
                break;
            }
        }
        if (mp_sample_stop && rc == 0)
            rc = -EINTR;
    }
    if (rc == -EINTR) {
        r.interrupted = mp_sample_stop;
        mp_progress_done(&prog, "interrupted");
        exit_code = 128 + mp_sample_stop;
    } else if (rc < 0) {
        fprintf(stderr, "muxprof: %s\n", err->msg);
        exit_code = 1;
    } else {
        mp_progress_done(&prog, "sweep done");
    }
    utc_now(r.finished_utc, sizeof r.finished_utc, 1);
    mp_noise_snap_take(&noise1);
    mp_noise_json(r.context, &noise0, &noise1);

    /* Signals wait while the outputs are written (a second Ctrl-C would
     * otherwise _exit between a temporary file and its rename). */
    sigset_t old;
    block_stop_signals(&old);
    int wrc = 0;
    if (mp_journal_tail(&journal, &r) < 0 ||
        mp_journal_write_outputs(&journal, out, NULL, err) < 0 ||
        (cfg->anonymize && mp_report_anonymize_run(cfg->out_dir, out, err) < 0)) {
        fprintf(stderr, "muxprof run: %s\n", err->code ? err->msg : "out of memory");
        wrc = -1;
    }
    /* results.json, results.csv and samples.csv now hold what the journal
     * did: it goes (a journal that cannot be removed is only a warning). */
    int saved = wrc == 0;
    mp_err jerr;
    if (saved && mp_journal_discard(&journal, out, &jerr) < 0)
        fprintf(stderr, "muxprof run: warning: %s\n", jerr.msg);
    mp_err rerr;
    mp_err_clear(&rerr);
    int report_rc = wrc == 0 && !r.interrupted
                        ? mp_report_build_in(out, !cfg->no_plots, &rerr) : 0;
    if (wrc == 0 && !r.interrupted && !cfg->no_plots && !mp_plot_gnuplot_found(NULL, 0)) {
        char dir[PATH_MAX + 8];
        fprintf(stderr, "muxprof run: figures not drawn: gnuplot not found in PATH; "
                MP_PLOT_INSTALL_HINT ", then `muxprof report %s` draws them (on any machine)\n",
                mp_quote_sh(dir, sizeof dir, cfg->out_dir));
    }
    sigprocmask(SIG_SETMASK, &old, NULL);   /* a signal held meanwhile is handled here */
    if (mp_sample_stop && !r.interrupted && exit_code == 0) {
        char dir[PATH_MAX + 8];
        fprintf(stderr, "muxprof run: interrupted while the report was written; results.json "
                "is complete: `muxprof report %s` redraws the figures\n",
                mp_quote_sh(dir, sizeof dir, cfg->out_dir));
        exit_code = 128 + mp_sample_stop;
    }
    if (wrc < 0)
        exit_code = 1;
    if (cfg->experiments & MP_EXP_CALLS) {
        mp_print_tables(&r, stdout);
        mp_print_cell_reasons(&r, "\nnot measured:\n", stdout);
        mp_print_stopped(&r, "\nstopped while measured:\n", stdout);
        if (saved)
            print_notes(out->path);
    }
    if (r.experiments)
        mp_print_experiments(r.experiments, stdout);
    mp_print_counters(r.counters, stdout);
    print_placement(pair, bound, stdout);
    printf("\nrun directory: %s\n", cfg->out_dir);
    if (r.interrupted && saved) {
        char dir[PATH_MAX + 8];
        printf("(interrupted: results.json holds the cells finished so far; no report.md was "
               "written: `muxprof report %s` writes it and the figures)\n",
               mp_quote_sh(dir, sizeof dir, cfg->out_dir));
    }
    size_t nerr = r.interrupted ? 0 : mp_results_error_cells(&r);
    if (nerr)
        printf("(%zu of the cells and experiments ended in error: results.json says "
               "\"status\": \"errors\")\n", nerr);
    if (!saved)
        say_where_results_are(&journal, cfg->out_dir);
    if (summary_lost(cfg->out_dir))
        exit_code = exit_code ? exit_code : 1;
    /* A run that measured nothing has failed, whatever it wrote; so has one
     * with a cell that ended in error. */
    if (!r.interrupted && exit_code == 0 && (cfg->experiments & MP_EXP_CALLS) &&
        mp_results_ok_cells(&r) == 0) {
        fprintf(stderr, "muxprof run: no cell could be measured (%zu tried):\n", r.ncells);
        mp_print_cell_reasons(&r, NULL, stderr);
        exit_code = 1;
    } else if (nerr && exit_code == 0) {
        mp_echo dir;
        fprintf(stderr, "muxprof run: %zu of the cells and experiments ended in error (the "
                "reasons are listed under the tables); the others are in %s\n", nerr,
                mp_echo_arg(&dir, cfg->out_dir));
        exit_code = 1;
    }
    /* The results are written; a report or figure that is not is a failure too. */
    if (report_rc < 0) {
        mp_echo dir;
        fprintf(stderr, "muxprof run: report: %s; the results are kept in %s (muxprof report "
                "DIR tries again)\n", rerr.msg, mp_echo_arg(&dir, cfg->out_dir));
        if (exit_code == 0)
            exit_code = 1;
    }
out:
    mp_progress_free(&prog);
    mp_poker_stop(poker);
    mp_peer_stop(&peer);
    mp_results_free(&r);
    mp_journal_free(&journal);
    return exit_code;
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
    double run_samples = (double)cfg.samples * cfg.repeats * cfg.nkinds * cfg.ncounts *
                         cfg.nactives * cfg.nmodes * cfg.nfd_tables * cfg.nbackends;
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
    if (rc == 0)
        rc = prepare_out_dir(&cfg, &out, &err);
    int code;
    if (rc < 0) {
        fprintf(stderr, "muxprof run: %s\n", err.msg);
        code = mp_exit_status(rc);
    } else {
        code = measure(&cfg, &out, plan, topo, &pair, &err);
    }
    mp_dir_close(&out);
    mp_topo_free(topo);
    mp_pmu_plan_free(plan);
    return code;
}
