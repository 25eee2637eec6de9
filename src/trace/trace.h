// SPDX-License-Identifier: MIT
/* trace.h - `muxprof trace`: the wait calls (select, pselect6, poll, ppoll,
 * epoll_wait, epoll_pwait, epoll_pwait2) of a program muxprof did not
 * write, each with its time, N, ready count, timeout class and counters,
 * through an eBPF program on the raw syscall tracepoints (trace.bpf.c,
 * loaded with libbpf), written as a run directory that `muxprof report`
 * and `compare` read as they read a measured run's (docs/trace.md).
 *
 * trace/ is the only folder that knows libbpf; the counters it hands the
 * BPF program are opened by pmu/ (pmu/trace_events.h).  Built only where
 * libbpf, bpftool and clang were found; elsewhere mp_trace_available says
 * what is missing. */
#ifndef MP_TRACE_TRACE_H
#define MP_TRACE_TRACE_H

#include <limits.h>
#include <signal.h>

#include "common/mp_err.h"

/* The longest --duration, and the default. */
#define MP_TRACE_DURATION_MAX_S 86400.0
#define MP_TRACE_DURATION_DEFAULT_S 60.0
/* How long a started command has to end after SIGTERM, before SIGKILL. */
#define MP_TRACE_KILL_GRACE_S 2.0
/* Calls kept in memory for the cells; beyond them calls are counted only. */
#define MP_TRACE_KEEP_MAX 2000000L

/* A cell of a run of muxprof's harness (--against), as a traced cell is set
 * beside it. */
typedef struct mp_trace_harness {
    char backend[32], mode[16], fd_kind[32];
    long long nfds;
    double p50_ns;           /* wall_ns p50 */
} mp_trace_harness;

/* A traced cell as the harness would measure it: its backend (the run's
 * name), mode (ready for timeout 0, wakeup otherwise) and N (the cell's
 * median). */
typedef struct mp_trace_want {
    char backend[32], mode[16];
    long long nfds;
} mp_trace_want;

/* Makes the harness cells the traced ones are set beside, once the calls are
 * in and before the cells are written: wants[0..nwant) the cells, fd_kind the
 * most numerous of the target's descriptors (NULL: none counted), dir the
 * trace's run directory.  Sets *harness (kept until mp_trace_run returns),
 * *nharness and *against (the results.json they came from); returns 0, or a
 * negative errno with err set, and the trace is written without them. */
typedef int (*mp_trace_harness_fn)(void *ctx, const mp_trace_want *wants, size_t nwant,
                                   const char *fd_kind, const char *dir,
                                   const mp_trace_harness **harness, size_t *nharness,
                                   const char **against, mp_err *err);

typedef struct mp_trace_opts {
    char *const *argv;       /* the command to start (NULL-ended), or NULL: attach to pid */
    long pid;                /* argv == NULL: the process to attach to */
    double duration_s;       /* the window's bound */
    const char *out_dir;     /* NULL: reports/runs/trace-<host>-<UTC stamp> */
    int force;               /* write over a run directory muxprof wrote */
    int quiet;               /* no progress on stderr */
    int follow;              /* also trace the processes the target forks (and theirs) */
    const char *against;     /* --against: the run's results.json, or NULL */
    const mp_trace_harness *harness;   /* its ok cells */
    size_t nharness;
    mp_trace_harness_fn make_harness;  /* without --against: NULL, or a quick run made */
    void *make_ctx;
} mp_trace_opts;

typedef struct mp_trace_sum {
    char dir[PATH_MAX];      /* the run directory written */
    size_t ncells;
    long long calls_seen, calls_dropped;
    int target_exited;
    char ended[32];          /* "duration", "target exited", "interrupted" */
    char exit_status[32];    /* a started command's end, "" when not known */
} mp_trace_sum;

/* 1 when this build traces; 0 with one line in why saying what the build
 * lacked and how to get it. */
int mp_trace_available(char *why, size_t n);

/* Trace as o says until the window ends (o->duration_s, the target's exit,
 * or *stop set by a signal) and write the run directory.  The checks come
 * first, each a one-line refusal with nothing written: -ENOSYS (not built),
 * -EPERM (privilege), -ESRCH (no such process), -ENOENT (the command
 * cannot run); then the BPF program's load and attach.  A target that ends
 * inside the window is no failure: the trace holds its calls and says so. */
int mp_trace_run(const mp_trace_opts *o, volatile sig_atomic_t *stop, mp_trace_sum *sum,
                 mp_err *err);

#endif
