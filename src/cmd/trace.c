// SPDX-License-Identifier: MIT
/* trace.c - `muxprof trace [options] -- CMD [ARGS...]` and `muxprof trace
 * --pid PID [options]`: every wait call of another program (trace/trace.h),
 * written as a run directory, then its report (report/report.h). */
#include "cmd/cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/internal.h"
#include "cmd/opt.h"
#include "backends/backend.h"
#include "common/duration.h"
#include "report/model.h"
#include "report/report.h"
#include "trace/trace.h"

typedef struct trace_args {
    long pid;
    double duration_s;
    const char *out, *against;
    int force, no_plots, quiet, against_quick, follow;
} trace_args;

static int set_pid(void *cfg, const char *opt, char *v, mp_err *err)
{
    return mp__cli_parse_count(opt, v, 1, 4194304, &((trace_args *)cfg)->pid, err);
}

static int set_duration(void *cfg, const char *opt, char *v, mp_err *err)
{
    trace_args *a = cfg;
    long long ns;
    char *end;
    mp_echo e;
    double s = strtod(v, &end);
    if (*v && !*end && isfinite(s))
        ns = (long long)(s * 1e9);
    else if (mp_duration_parse(v, (long long)(MP_TRACE_DURATION_MAX_S * 1e9), &ns))
        ns = -1;
    if (ns <= 0 || ns > (long long)(MP_TRACE_DURATION_MAX_S * 1e9))
        return mp_errf(err, MP_EUSAGE, "%s '%s': expected seconds above 0 and at most %g (or "
                       "a number with one of %s)", opt, mp_echo_arg(&e, v),
                       MP_TRACE_DURATION_MAX_S, mp_duration_units());
    a->duration_s = (double)ns / 1e9;
    return 0;
}

static const mp_opt opts[] = {
    MP_OPT_FN("pid", "PID", set_pid, "attach to the running process PID (every thread of it,\n"
              "and those it starts) instead of starting a command", .flags = MP_OPT_RAW),
    MP_OPT_FN("duration", "S", set_duration, "the longest the trace lasts, in seconds (or with\n"
              "a unit: 500ms); a started command still running then gets\n"
              "SIGTERM, 2 s, then SIGKILL", .def = "60", .flags = MP_OPT_RAW),
    MP_OPT_STR("out", "DIR", trace_args, out,
               "run directory [reports/runs/trace-<host>-<UTC stamp>]",
               .complete = MP_OPT_DIRS, .needs = "a directory"),
    MP_OPT_STR("against", "DIR", trace_args, against,
               "a run of `muxprof run` on this host whose cells are set beside the\n"
               "traced ones (same backend, ready mode for timeout 0 and wakeup\n"
               "otherwise, the nearest N within a quarter)",
               .complete = MP_OPT_DIRS, .needs = "a run directory"),
    MP_OPT_BOOL("against-quick", trace_args, against_quick,
                "instead of --against: once the trace is in, a quick run of muxprof's\n"
                "harness (`run --quick`) at the traced cells' backends, modes and N,\n"
                "on the target's fd kind, in DIR/harness, set beside them (at most\n"
                "10 minutes)"),
    MP_OPT_BOOL("follow", trace_args, follow,
                "trace the processes the target forks too (a server's workers), and\n"
                "theirs, from the attach on; their calls go into the same cells, and\n"
                "the trace lasts until the target and all of them have exited"),
    MP_OPT_BOOL("force", trace_args, force, "write over a run directory muxprof wrote"),
    MP_OPT_BOOL("no-plots", trace_args, no_plots, "write the report without figures"),
    MP_OPT_BOOL("quiet", trace_args, quiet, "no progress on stderr"),
};

const mp_cli mp_cli_trace = {
    .name = "trace", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 20,
    .intro = "usage: muxprof trace [options] -- CMD [ARGS...]\n"
             "       muxprof trace --pid PID [options]\n"
             "\n"
             "Record every select, pselect6, poll, ppoll, epoll_wait, epoll_pwait and\n"
             "epoll_pwait2 call of a program muxprof did not write, through eBPF on the raw\n"
             "syscall tracepoints: each call's time, thread, CPU, N (the descriptors it\n"
             "watched), ready count, timeout class (0, finite, infinite) and counters\n"
             "(task-clock, context-switches, page-faults; cycles, instructions and cache\n"
             "misses where a PMU has them) over the call on its CPU.  The calls, grouped\n"
             "into cells by (syscall, N bucket, timeout class, ready bucket), are written\n"
             "as a run directory: results.json, results.csv, samples.csv, calls.csv (every\n"
             "call) and report.md, which `muxprof report` and `compare` read as a run's.\n"
             "Needs CAP_BPF and CAP_PERFMON, or root (docs/trace.md).\n"
             "\n",
    .outro = "\nA target that exits inside the window ends the trace, which is kept and says\n"
             "so (exit 0).  A trace ended by Ctrl-C or another signal is written too (exit\n"
             "130, or 128 + the signal).\n" MP_EXIT_HELP,
    .help_head = "-h, --help", .unknown = "unknown option",
    .see = " (see muxprof trace --help)",
};

static volatile sig_atomic_t stop_flag;

/* The longest the quick run of --against-quick may take, and the most N it
 * measures. */
#define QUICK_LIMIT_S 600
#define QUICK_MAX_N 12

/* The harness cells of a run directory's results.json, as a traced cell is
 * set beside them; *n 0 when it has none.  Returns 0, or the loader's error
 * (-EBADMSG for a file that is not a run's, 1 for a trace). */
static int harness_of(const char *results, mp_trace_harness **out, size_t *n, mp_err *err)
{
    mp_rmodel m;
    *out = NULL;
    *n = 0;
    int rc = mp_rm_load(&m, results, err);
    if (rc)
        return rc;
    mp_trace_harness *h = calloc(m.ncells ? m.ncells : 1, sizeof *h);
    for (size_t i = 0; h && i < m.ncells; i++) {
        const mp_rcell *c = &m.cells[i];
        if (c->status != MP_CELL_OK || isnan(c->wall.p50))
            continue;
        mp_trace_harness *x = &h[(*n)++];
        snprintf(x->backend, sizeof x->backend, "%s", c->backend);
        snprintf(x->mode, sizeof x->mode, "%s", c->mode);
        snprintf(x->fd_kind, sizeof x->fd_kind, "%s", c->fd_kind);
        x->nfds = c->nfds;
        x->p50_ns = c->wall.p50;
    }
    int traced = m.traced;
    mp_rm_free(&m);
    if (!h)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", results);
    if (traced) {
        free(h);
        *n = 0;
        return 1;
    }
    *out = h;
    return 0;
}

typedef struct quick_ctx {
    mp_trace_harness *harness;
    char results[PATH_MAX + 32];
} quick_ctx;

static int by_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Adds word to the comma list buf (of len) unless it is there. */
static void list_add(char *buf, size_t len, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = buf; (p = strstr(p, word)); p += wl)
        if ((p == buf || p[-1] == ',') && (p[wl] == ',' || !p[wl]))
            return;
    size_t o = strlen(buf);
    snprintf(buf + o, len - o, "%s%s", o ? "," : "", word);
}

/* Waits for pid at most limit_s seconds, then SIGTERM, 2 s, SIGKILL; *status
 * its wait status.  Returns 0, or -ETIMEDOUT when it had to be stopped. */
static int wait_bounded(pid_t pid, double limit_s, int *status)
{
    struct timespec t0, now, nap = {0, 100 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int stopped = 0;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return stopped ? -ETIMEDOUT : 0;
        if (r < 0 && errno != EINTR)
            return -errno;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
        if (!stopped && (el > limit_s || stop_flag)) {
            kill(pid, SIGTERM);
            stopped = 1;
        } else if (stopped && el > limit_s + 2)
            kill(pid, SIGKILL);
        nanosleep(&nap, NULL);
    }
}

/* --against-quick: `muxprof run --quick` at the wanted backends (those the
 * harness has), modes and N, on the target's fd kind, in DIR/harness. */
static int quick_harness(void *vctx, const mp_trace_want *w, size_t nw, const char *fd_kind,
                         const char *dir, const mp_trace_harness **harness, size_t *nharness,
                         const char **against, mp_err *err)
{
    quick_ctx *q = vctx;
    char backends[256] = "", modes[32] = "", fds[QUICK_MAX_N * 12] = "", out[PATH_MAX + 16];
    long long *nv = malloc((nw ? nw : 1) * sizeof *nv);
    if (!nv)
        return mp_errf(err, -ENOMEM, "out of memory");
    size_t nn = 0;
    for (size_t i = 0; i < nw; i++)
        if (mp_backend_find(w[i].backend) && w[i].nfds >= 1 && w[i].nfds <= 1048576) {
            list_add(backends, sizeof backends, w[i].backend);
            list_add(modes, sizeof modes, w[i].mode);
            nv[nn++] = w[i].nfds;
        }
    if (!nn) {
        free(nv);
        return mp_errf(err, -ENOENT, "none of the traced calls is of a backend the harness "
                       "measures (%s)", mp_backend_names());
    }
    qsort(nv, nn, sizeof *nv, by_ll);
    size_t nu = 0;
    for (size_t i = 0; i < nn; i++)
        if (!nu || nv[i] != nv[nu - 1])
            nv[nu++] = nv[i];
    for (size_t k = 0; k < nu && k < QUICK_MAX_N; k++) {   /* spread over the range */
        size_t i = nu <= QUICK_MAX_N ? k : k * (nu - 1) / (QUICK_MAX_N - 1);
        char x[24];
        snprintf(x, sizeof x, "%lld", nv[i]);
        list_add(fds, sizeof fds, x);
    }
    free(nv);
    static const char *const kinds[] = {"tcp", "socketpair", "pipe", "eventfd"};
    const char *kind = "pipe";
    for (size_t i = 0; fd_kind && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(fd_kind, kinds[i]))
            kind = kinds[i];
    snprintf(out, sizeof out, "%s/harness", dir);
    char *argv[] = {"muxprof", "run", "--quick", "--backends", backends, "--mode", modes,
                    "--fds", fds, "--fd-kind", (char *)kind, "--no-plots", "--quiet", "--force",
                    "--out", out, NULL};
    fprintf(stderr, "muxprof trace: the harness beside it: muxprof run --quick --backends %s "
            "--mode %s --fds %s --fd-kind %s --out %s\n", backends, modes, fds, kind, out);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return mp_errf(err, -errno, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, STDOUT_FILENO);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int st = 0, wrc = wait_bounded(pid, QUICK_LIMIT_S, &st);
    if (wrc == -ETIMEDOUT)
        return mp_errf(err, wrc, "the quick run did not end within %d s and was stopped",
                       QUICK_LIMIT_S);
    if (wrc)
        return mp_errf(err, wrc, "waiting for the quick run: %s", strerror(-wrc));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return mp_errf(err, -ECHILD, "the quick run %s %d (its message is above)",
                       WIFEXITED(st) ? "exited" : "was killed by signal",
                       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    snprintf(q->results, sizeof q->results, "%s/results.json", out);
    int rc = harness_of(q->results, &q->harness, nharness, err);
    if (rc)
        return rc < 0 ? rc : mp_errf(err, -EBADMSG, "%s is a trace", q->results);
    *harness = q->harness;
    *against = q->results;
    return 0;
}

static void on_signal(int sig)
{
    stop_flag = sig;
}

int mp_cmd_trace(int argc, char **argv)
{
    trace_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    char why[512];
    if (mp_opt_parse(&mp_cli_trace, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof trace: %s\n", err.msg);
        return 2;
    }
    if (p.help) {
        mp_opt_usage(&mp_cli_trace, stdout);
        return 0;
    }
    int has_cmd = p.next < argc;
    if (has_cmd == (a.pid > 0)) {
        fprintf(stderr, "muxprof trace: %s; usage: muxprof trace [options] -- CMD [ARGS...], "
                "or muxprof trace --pid PID [options]\n", has_cmd
                ? "a command and --pid: give one of them" : "what to trace? give -- CMD or --pid");
        return 2;
    }
    if (has_cmd && strcmp(argv[p.next - 1], "--")) {
        mp_echo e;
        fprintf(stderr, "muxprof trace: the command goes after '--' (muxprof trace -- %s ...)\n",
                mp_echo_arg(&e, argv[p.next]));
        return 2;
    }
    if (!mp_trace_available(why, sizeof why)) {
        fprintf(stderr, "muxprof trace: %s\n", why);
        return 1;
    }
    mp_trace_opts o = {.argv = has_cmd ? argv + p.next : NULL, .pid = a.pid,
                       .duration_s = a.duration_s, .out_dir = a.out, .force = a.force,
                       .quiet = a.quiet, .follow = a.follow};
    mp_trace_harness *harness = NULL;
    char against[PATH_MAX + 16];
    quick_ctx quick = {0};
    if (a.against && a.against_quick) {
        fprintf(stderr, "muxprof trace: --against and --against-quick: give one of them\n");
        return 2;
    }
    if (a.against) {   /* read and checked before anything is traced */
        snprintf(against, sizeof against, "%s/results.json", a.against);
        mp_err_clear(&err);
        int lrc = harness_of(against, &harness, &o.nharness, &err);
        if (lrc < 0) {
            fprintf(stderr, "muxprof trace: --against: %s\n", err.msg);
            return lrc == -EBADMSG ? 2 : 1;
        }
        if (lrc) {
            fprintf(stderr, "muxprof trace: --against %s: a trace, not a run of muxprof's "
                    "harness (give a directory muxprof run wrote)\n", a.against);
            return 2;
        }
        o.against = against;
        o.harness = harness;
    }
    if (a.against_quick) {
        o.make_harness = quick_harness;
        o.make_ctx = &quick;
    }
    /* a signal that would end muxprof ends the window instead: the trace is written */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction sa = {.sa_handler = on_signal}, old[4];
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < 4; i++)
        sigaction(sigs[i], &sa, &old[i]);
    mp_trace_sum sum;
    mp_err_clear(&err);
    int rc = mp_trace_run(&o, &stop_flag, &sum, &err);
    for (size_t i = 0; i < 4; i++)
        sigaction(sigs[i], &old[i], NULL);
    free(harness);
    free(quick.harness);
    if (rc) {
        fprintf(stderr, "muxprof trace: %s\n", err.msg);
        return rc == MP_EUSAGE || rc == -EEXIST ? 2 : 1;
    }
    mp_echo e;
    printf("wrote %s: %lld calls in %zu cells, %lld dropped; ended: %s%s%s%s\n",
           mp_echo_arg(&e, sum.dir), sum.calls_seen, sum.ncells, sum.calls_dropped, sum.ended,
           sum.exit_status[0] ? " (" : "", sum.exit_status, sum.exit_status[0] ? ")" : "");
    if (sum.target_exited)
        fprintf(stderr, "muxprof trace: the target exited inside the window: the trace holds "
                "its calls until then\n");
    mp_err_clear(&err);
    if (mp_report_build(sum.dir, !a.no_plots, &err)) {
        fprintf(stderr, "muxprof trace: the trace is written but its report is not: %s\n",
                err.msg);
        return 1;
    }
    printf("report: %s/report.md\n", mp_echo_arg(&e, sum.dir));
    return stop_flag == SIGINT ? 130 : stop_flag ? 128 + stop_flag : 0;
}
