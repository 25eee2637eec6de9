// SPDX-License-Identifier: MIT
/* trace.c - `muxprof trace [options] -- CMD [ARGS...]` and `muxprof trace
 * --pid PID [options]`: every wait call of another program (trace/trace.h),
 * written as a run directory, then its report (report/report.h). */
#include "cmd/cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/internal.h"
#include "cmd/opt.h"
#include "common/duration.h"
#include "report/model.h"
#include "report/report.h"
#include "trace/trace.h"

typedef struct trace_args {
    long pid;
    double duration_s;
    const char *out, *against;
    int force, no_plots, quiet;
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
                       .quiet = a.quiet};
    mp_trace_harness *harness = NULL;
    char against[PATH_MAX + 16];
    if (a.against) {   /* read and checked before anything is traced */
        mp_rmodel m;
        snprintf(against, sizeof against, "%s/results.json", a.against);
        mp_err_clear(&err);
        int lrc = mp_rm_load(&m, against, &err);
        if (lrc) {
            fprintf(stderr, "muxprof trace: --against: %s\n", err.msg);
            return lrc == -EBADMSG ? 2 : 1;
        }
        harness = calloc(m.ncells ? m.ncells : 1, sizeof *harness);
        for (size_t i = 0; harness && i < m.ncells; i++) {
            const mp_rcell *c = &m.cells[i];
            if (c->status != MP_CELL_OK || isnan(c->wall.p50))
                continue;
            mp_trace_harness *h = &harness[o.nharness++];
            snprintf(h->backend, sizeof h->backend, "%s", c->backend);
            snprintf(h->mode, sizeof h->mode, "%s", c->mode);
            snprintf(h->fd_kind, sizeof h->fd_kind, "%s", c->fd_kind);
            h->nfds = c->nfds;
            h->p50_ns = c->wall.p50;
        }
        int traced = m.traced;
        mp_rm_free(&m);
        if (!harness) {
            fprintf(stderr, "muxprof trace: out of memory reading %s\n", against);
            return 1;
        }
        if (traced) {
            free(harness);
            fprintf(stderr, "muxprof trace: --against %s: a trace, not a run of muxprof's "
                    "harness (give a directory muxprof run wrote)\n", a.against);
            return 2;
        }
        o.against = against;
        o.harness = harness;
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
