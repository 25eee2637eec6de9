/* SPDX-License-Identifier: MIT */
/* measure.c - one run from its directory on: signals, limits, the helper
 * and poker processes, placement and binding, the sweep and the steps its
 * caller gives (experiments, --anonymize, the report), the journal and the
 * outputs written from it.
 *
 * Order matters: the peer helper is forked before any thread exists;
 * outputs are written through temporary names, also when the sweep was
 * interrupted.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "common/quote.h"
#include "pmu/pmu.h"
#include "run/config.h"
#include "run/context.h"
#include "run/journal.h"
#include "run/measure.h"
#include "run/noise.h"
#include "run/peer.h"
#include "run/poker.h"
#include "run/progress.h"
#include "run/results.h"
#include "run/sample.h"
#include "run/sweep.h"
#include "run/topo_rec.h"
#include "topology/topology.h"

#define EMPTY_BRACKETS 20000

/* context.noise.canary from the passes' canaries, and a warning in
 * context.noise.warnings when the host's level moved during the run. */
static void add_canary(mp_results *r)
{
    cJSON *noise = cJSON_GetObjectItemCaseSensitive(r->context, "noise");
    if (!noise || !r->canary_llc_bytes || !r->ncanary)
        return;
    mp_canary_state cs = {.llc_bytes = r->canary_llc_bytes};
    cJSON_AddItemToObject(noise, "canary", mp_canary_json(&cs, r->canary, r->ncanary));
    const char *which;
    double spread = mp_canary_spread(r->canary, r->ncanary, &which);
    cJSON *w = cJSON_GetObjectItemCaseSensitive(noise, "warnings");
    if (isfinite(spread) && spread > MP_CANARY_SPREAD_WARN && cJSON_IsArray(w)) {
        char text[240];
        snprintf(text, sizeof text, "the host's level moved during the run: the canary's %s "
                 "varied %.2fx between passes (above %.2fx); cells' intervals include that",
                 which, spread, MP_CANARY_SPREAD_WARN);
        cJSON_AddItemToArray(w, cJSON_CreateString(text));
    }
}

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

int mp_run_default_dir(mp_run_config *cfg, mp_dir *out, mp_err *err)
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

/* Over a run muxprof wrote (--force): what that run wrote goes first, so
 * that nothing of it (its results, report or figures) can stand beside
 * this run's journal or outputs; a journal it left is not its output
 * (appended to, so kept) and is refused when this run creates its own. */
void mp_run_dir_clear(mp_dir *out)
{
    struct stat st;
    mp_dir fig;
    mp_err why;
    if (out->created)
        return;
    if (fstatat(out->fd, "figures", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        mp_dir_sub(&fig, out, "figures", &why) == 0) {
        mp_dir_prune(&fig);
        mp_dir_close(&fig);
    }
    mp_dir_prune(out);
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
int mp_run_placement_fell_back(const mp_pu_pair *pair)
{
    return strcmp(pair->requested, "none") && !strcmp(pair->placement, "none");
}

void mp_run_outcome_free(mp_run_outcome *o)
{
    mp_results_free(&o->results);
    mp_journal_free(&o->journal);
}

/* One run while it measures: what the steps below share. */
typedef struct run_state {
    mp_run_config *cfg;
    mp_dir *out;
    mp_pmu_plan *plan;
    const mp_pu_pair *pair;
    mp_run_outcome *o;
    mp_peer peer;
    mp_poker *poker;
    bind_ctx bctx;
    mp_progress prog;
    mp_sweep_env env;
    cpu_set_t all_cpus;       /* the process's CPUs, before the waiter was pinned */
    mp_noise_snap noise0;
    mp_noise_settle settle;   /* the wait for the host to settle before the sweep */
    mp_topo_rec topo;         /* results.json's topology, written once the binding is known */
    mp_err poker_bind, waiter_bind;   /* why the poker, the waiter run unpinned */
} run_state;

/* The context of the results, the limits and the helper process. */
static int start(run_state *s, mp_err *err)
{
    mp_results *r = &s->o->results;

    s->env = (mp_sweep_env){.plan = s->plan, .journal = &s->o->journal,
                            .progress = mp_progress_cb, .cell_done = mp_progress_cell_done,
                            .progress_ctx = &s->prog};
    raise_nofile(&s->env.rl_soft, &s->env.rl_hard);
    r->context = mp_context_json(s->cfg->command);
    mp_noise_settle_wait(&s->settle, s->cfg->no_wait ? 0 : s->cfg->settle_max_s,
                         s->cfg->quiet, &mp_sample_stop);
    utc_now(r->started_utc, sizeof r->started_utc, 1);   /* the run starts after the wait */
    mp_noise_snap_take(&s->noise0);

    int rc = mp_peer_start(&s->peer, err);
    if (rc == 0)
        s->env.peer = &s->peer;
    return rc;
}

/* Placement: the waiter is this thread, the poker its own process
 * (run/poker.h), both recorded under results.json's topology.  A
 * placement that fell back is said at once: wakeup times then mean
 * something else than the placement asked for. */
static int place(run_state *s, mp_topo *topo, mp_err *err)
{
    const mp_pu_pair *pair = s->pair;
    int fell_back = mp_run_placement_fell_back(pair);
    if (fell_back)
        fprintf(stderr, "muxprof: warning: placement %s fell back to %s: %s; wakeup times "
                "then include the scheduler's placement of both threads (muxprof topology "
                "lists what this host offers)\n", pair->requested, pair->placement,
                pair->detail);
    if (mp_topo_rec_fill(&s->topo, topo) < 0)
        return mp_errf(err, -ENOMEM, "out of memory");
    mp_topo_rec_place(&s->topo, pair, fell_back);
    /* The poker starts before this thread is pinned, so that it inherits
     * the process's CPUs: if its own binding fails it is unpinned, not
     * stuck on the waiter's PU.  The herd's waiters get the same CPUs. */
    s->o->bound = 1;
    CPU_ZERO(&s->all_cpus);
    sched_getaffinity(0, sizeof s->all_cpus, &s->all_cpus);
    s->bctx.topo = topo;
    if (needs_wakeup(s->cfg)) {
        int rc = mp_poker_start(&s->poker, pair->poker_pu, bind_cb, &s->bctx, s->plan,
                                err);
        if (rc < 0)
            return rc;
        s->env.poker = s->poker;
        mp_err *perr = &s->poker_bind;
        if (mp_poker_bind_result(s->poker, perr) < 0) {
            s->o->bound = 0;
            fprintf(stderr, "muxprof: warning: the poker process runs unpinned: %s\n", perr->msg);
            s->topo.m.poker_binding_warning = perr->msg;
        }
    }
    mp_err *berr = &s->waiter_bind;
    if (pair->waiter_pu >= 0 && mp_topo_bind_thread(topo, pair->waiter_pu, berr) < 0) {
        s->o->bound = 0;
        fprintf(stderr, "muxprof: warning: the waiter runs unpinned: %s\n", berr->msg);
        s->topo.m.binding_warning = berr->msg;
    }
    return 0;
}

/* The progress line and its ticker, a process forked beside the poker
 * (before any thread, before the empty brackets are timed) on the
 * process's CPUs less the waiter's, where there are others. */
static void start_progress(run_state *s)
{
    mp_progress_init(&s->prog, s->cfg->quiet, &s->o->results,
                     mp_run_units_per_cell(s->cfg, s->plan));
    if (!(s->cfg->experiments & MP_EXP_CALLS))
        return;   /* no sweep: nothing to show */
    cpu_set_t waiter, cpus;
    CPU_ZERO(&waiter);
    sched_getaffinity(0, sizeof waiter, &waiter);
    CPU_XOR(&cpus, &s->all_cpus, &waiter);
    CPU_AND(&cpus, &cpus, &s->all_cpus);
    mp_err terr;
    if (mp_progress_ticker_start(&s->prog, CPU_COUNT(&cpus) ? &cpus : &s->all_cpus, &terr) < 0)
        fprintf(stderr, "muxprof: warning: %s; the progress line moves only as units begin\n",
                terr.msg);
}

size_t mp_run_units_per_cell(const mp_run_config *cfg, const mp_pmu_plan *plan)
{
    return (size_t)cfg->repeats + mp_pmu_plan_passes(plan) + (cfg->profile ? 1 : 0);
}

/* What the sweep needs before its first cell: the cost of an empty
 * bracket, the counters opened, the descriptors already open. */
static void prepare(run_state *s)
{
    mp_results *r = &s->o->results;
    double *eb = malloc(sizeof *eb * EMPTY_BRACKETS);
    if (eb) {
        mp_sample_empty_brackets(eb, EMPTY_BRACKETS);
        mp_summarize(eb, EMPTY_BRACKETS, &r->empty_bracket);
        free(eb);
    }
    r->counters = mp_counters_json(s->plan);
    s->env.base_fds = open_fd_count();

    mp_sample_watch_stops();
    s->topo.m.bound = s->o->bound && s->pair->waiter_pu >= 0;
    r->topology = mp_rtopology_json(&s->topo.m);
    mp_topo_rec_free(&s->topo);
}

/* The journal starts with what results.json says before any cell; from
 * then on a second signal says where it is as it leaves. */
static int open_journal(run_state *s, mp_err *err)
{
    mp_journal *journal = &s->o->journal;
    int rc = mp_journal_create(journal, s->out, err);
    if (rc == 0 && mp_journal_head(journal, &s->o->results) < 0)
        rc = mp_errf(err, -ENOMEM, "out of memory");
    if (rc < 0)
        return rc;
    leave_len = (size_t)snprintf(leave_msg, sizeof leave_msg, "\nmuxprof run: second signal: "
                                 "leaving at once; the cells finished so far are in %s "
                                 "(`muxprof report %s` writes results.json from it)\n",
                                 journal->path, s->cfg->out_dir);
    leave_len = leave_len < sizeof leave_msg ? leave_len : 0;
    return 0;
}

/* The sweep, then the experiments; the run's exit code so far. */
static int sweep(run_state *s, const mp_run_steps *steps, mp_err *err)
{
    const mp_run_config *cfg = s->cfg;
    mp_results *r = &s->o->results;
    int rc = 0;
    if (cfg->experiments & MP_EXP_CALLS)
        rc = mp_sweep(r, &s->env, err);
    mp_progress_ticker_stop(&s->prog);   /* the line stands still from here */
    if (rc == 0 && (cfg->experiments & ~(unsigned)MP_EXP_CALLS)) {
        mp_run_stage st = {.cfg = cfg, .peer = &s->peer, .plan = s->plan,
                           .cpus = &s->all_cpus, .results = r, .journal = &s->o->journal};
        rc = steps->experiments(&st, err);
        if (mp_sample_stop && rc == 0)
            rc = -EINTR;
    }
    int exit_code = 0;
    if (rc == -EINTR) {
        r->interrupted = mp_sample_stop;
        mp_progress_done(&s->prog, "interrupted");
        exit_code = 128 + mp_sample_stop;
    } else if (rc < 0) {
        fprintf(stderr, "muxprof: %s\n", err->msg);
        exit_code = 1;
    } else {
        mp_progress_done(&s->prog, "sweep done");
    }
    utc_now(r->finished_utc, sizeof r->finished_utc, 1);
    mp_noise_snap noise1;
    mp_noise_snap_take(&noise1);
    double other_busy_max = NAN;
    for (size_t i = 0; i < r->ncanary; i++)
        if (isfinite(r->canary[i].other_busy) &&
            !(r->canary[i].other_busy <= other_busy_max))
            other_busy_max = r->canary[i].other_busy;
    mp_noise_json(r->context, &s->noise0, &noise1, &s->settle, other_busy_max);
    add_canary(r);
    return exit_code;
}

/* results.json and its CSVs from the journal, then the
 * report.  Signals wait meanwhile (a second Ctrl-C would otherwise _exit
 * between a temporary file and its rename).  -1 when the outputs could
 * not be written (said on stderr). */
static int save(run_state *s, const mp_run_steps *steps, mp_err *err)
{
    const mp_run_config *cfg = s->cfg;
    mp_run_outcome *o = s->o;
    sigset_t old;
    block_stop_signals(&old);
    int wrc = 0;
    if (mp_journal_tail(&o->journal, &o->results) < 0 ||
        mp_journal_write_outputs(&o->journal, s->out, NULL, NULL, err) < 0 ||
        (cfg->anonymize && steps->anonymize(cfg->out_dir, s->out, err) < 0)) {
        fprintf(stderr, "muxprof run: %s\n", err->code ? err->msg : "out of memory");
        wrc = -1;
    }
    /* results.json and its CSVs now hold what the journal
     * did: it goes (a journal that cannot be removed is only a warning). */
    o->saved = wrc == 0;
    mp_err jerr;
    if (o->saved && mp_journal_discard(&o->journal, s->out, &jerr) < 0)
        fprintf(stderr, "muxprof run: warning: %s\n", jerr.msg);
    o->report_rc = wrc == 0 && !o->results.interrupted
                       ? steps->report(s->out, (cfg->no_plots ? 0 : MP_RUN_FIG_DRAW) |
                                                   (cfg->paper ? MP_RUN_FIG_PAPER : 0),
                                       &o->report_err) : 0;
    sigprocmask(SIG_SETMASK, &old, NULL);   /* a signal held meanwhile is handled here */
    return wrc;
}

/* Everything after the run directory exists: 0 once the run measured (o
 * filled, to be freed with mp_run_outcome_free, also when o->exit_code
 * says it failed), or a negative errno before that, with the message in
 * err (the directory is removed, unless a journal left in it is kept). */
int mp_run_measure(mp_run_config *cfg, mp_dir *out, mp_pmu_plan *plan, mp_topo *topo,
                   const mp_pu_pair *pair, const mp_run_steps *steps, mp_run_outcome *o,
                   mp_err *err)
{
    run_state s = {.cfg = cfg, .out = out, .plan = plan, .pair = pair, .o = o,
             .peer = {.pid = 0, .sock = -1}};
    memset(o, 0, sizeof *o);
    o->journal.fd = -1;
    /* From here on the run directory exists: a signal must end in an
     * "interrupted" results.json, not in the default action. */
    handle_signals();

    int rc = mp_results_init(&o->results, cfg, err);
    if (rc < 0) {
        mp_dir_discard(out);
        return rc;
    }
    rc = start(&s, err);
    if (rc == 0)
        rc = place(&s, topo, err);
    if (rc < 0) {
        mp_dir_discard(out);
    } else {
        start_progress(&s);
        prepare(&s);
        rc = open_journal(&s, err);
        if (rc < 0 && rc != MP_EUSAGE)   /* a journal left there is kept, and so is its directory */
            mp_dir_discard(out);
    }
    if (rc == 0) {
        o->exit_code = sweep(&s, steps, err);
        int wrc = save(&s, steps, err);
        if (mp_sample_stop && !o->results.interrupted && o->exit_code == 0) {
            char dir[PATH_MAX + 8];
            fprintf(stderr, "muxprof run: interrupted while the report was written; "
                    "results.json is complete: `muxprof report %s` redraws the figures\n",
                    mp_quote_sh(dir, sizeof dir, cfg->out_dir));
            o->exit_code = 128 + mp_sample_stop;
        }
        if (wrc < 0)
            o->exit_code = 1;
    }
    mp_progress_free(&s.prog);
    mp_topo_rec_free(&s.topo);
    mp_poker_stop(s.poker);
    mp_peer_stop(&s.peer);
    if (rc < 0)
        mp_run_outcome_free(o);
    return rc;
}
