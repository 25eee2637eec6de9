// SPDX-License-Identifier: MIT
/* trace.h - a traced run (`muxprof trace`, docs/trace.md): the top level's
 * "trace" object (what was traced, for how long, the calls seen, dropped
 * and left out of the cells) and each cell's "trace" object (the ranges
 * its calls fell in), each through its table; and a traced cell as
 * results[] holds it: only the fields of mp_rcell_fields[] a traced call
 * gives (no repeats, descriptor numbers or limits: the program made its
 * calls as it liked). */
#ifndef MP_RESULTS_TRACE_H
#define MP_RESULTS_TRACE_H

#include <cjson/cJSON.h>

#include "results/cell.h"
#include "results/table.h"

/* The top level's "trace". */
typedef struct mp_rtrace {
    const char *source;            /* "trace" */
    const char *target;            /* "command" or "pid" */
    const char *command;           /* the command line started (NULL: --pid) */
    long long pid;                 /* the thread group traced */
    double duration_s;             /* --duration: the bound of the window */
    double window_s;               /* how long the programs were attached */
    const char *ended;             /* "duration", "target exited", "interrupted" */
    int target_exited;             /* 1: the target ended inside the window */
    const char *exit_status;       /* how a started command ended ("exit 0", "signal 9"),
                                    * NULL when not known */
    long long calls_seen;          /* records read from the ring buffer */
    long long calls_dropped;       /* calls the kernel side could not record */
    long long dropped_ringbuf;     /*   of them: the ring buffer was full */
    long long dropped_noslot;      /*   of them: no room to hold the call's entry */
    long long calls_unknown_n;     /* epoll calls on an instance never seen created nor
                                    * seeded: in no cell */
    long long calls_zero_n;        /* calls watching no descriptor: in no cell */
    long long calls_not_kept;      /* beyond the calls kept in memory: in no cell */
    long long threads;             /* threads seen making a traced call */
    int follow;                    /* --follow: processes the target forks traced too */
    long long processes_followed;  /* such processes, besides the target */
    long long processes_not_followed;   /* forks it had no room to follow */
    long long epoll_seeded;        /* epoll descriptors seeded from /proc/PID/fdinfo */
    long long select_bits;         /* the largest select nfds whose sets are read */
    const char *fd_kinds;          /* the target's descriptors by kind, in words; NULL */
    const char *fd_kind;           /* the most numerous of run's fd kinds among them; NULL */
    const char *epoll_rule;        /* how an epoll call's N is followed, in words */
    const char *timing;            /* what wall_ns is, in words */
    const char *against;           /* --against: the run's results.json, as given; NULL */
} mp_rtrace;

extern const mp_rtable mp_rtrace_table;
cJSON *mp_rtrace_json(const mp_rtrace *t);

/* A traced cell's "trace". */
typedef struct mp_rtrace_cell {
    const char *timeout;           /* "0", "finite" or "infinite" */
    long long ready_lo, ready_hi;  /* the calls returned from ready_lo to ready_hi ready
                                    * descriptors; -1, -1: they failed (errno in errors) */
    const char *errors;            /* failed calls: their errno names ("EINTR"); else NULL */
    long long n_lo, n_hi;          /* the cell's bucket of N */
    long long n_min, n_max;        /* the N its calls watched */
    long long arg_min, arg_max;    /* the nfds (select, poll) or maxevents (epoll) given */
    long long calls;
    long long threads;             /* threads among its calls */
    long long counters_unread;     /* calls whose counters were not read (the thread moved
                                    * to another CPU during the call, or a read failed) */
    /* --against: the cell of that run set beside this one (same backend, ready mode
     * for timeout 0 and wakeup otherwise, the nearest N within a quarter); NULL,
     * -1, NaN: none */
    const char *harness_mode, *harness_fd_kind;
    long long harness_nfds;
    double harness_p50_ns;         /* its wall_ns p50 */
} mp_rtrace_cell;

extern const mp_rtable mp_rtrace_cell_table;

/* c as results[] holds a traced cell, with t as its "trace"; each metric's
 * <summary> followed by "scope" (scope) and "source": "trace".  NULL when
 * out of memory. */
cJSON *mp_rtrace_cell_json(const mp_rcell *c, const mp_rtrace_cell *t, const char *scope);

#endif
