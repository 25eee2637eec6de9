// SPDX-License-Identifier: MIT
/* internal.h - trace/'s own: what trace.c gathered, handed to cells.c,
 * which groups it into cells and writes the run directory. */
#ifndef MP_TRACE_INTERNAL_H
#define MP_TRACE_INTERNAL_H

#include <stddef.h>

#include "common/file.h"
#include "pmu/trace_events.h"
#include "trace/record.h"
#include "trace/trace.h"

/* What a descriptor is, named as muxprof run's fd kinds (socketpair: any
 * unix-domain socket). */
enum { MP__FDK_TCP, MP__FDK_UNIX, MP__FDK_PIPE, MP__FDK_EVENTFD, MP__FDK_OTHER, MP__FDK_N };
extern const char *const mp__fdk_name[MP__FDK_N];

/* Count pid's open descriptors by kind into count (from /proc/PID/fd and
 * its /proc/PID/net tables); -errno when /proc/PID/fd cannot be read. */
int mp__fd_census(long pid, long long count[MP__FDK_N]);

typedef struct mp__trace_data {
    struct mp_trace_rec *recs;        /* the calls kept, in the order read */
    size_t nrecs, cap;
    long long seen, not_kept, lost, noslot, epoll_seeded;
    int follow;                       /* --follow */
    long long followed, not_followed; /* processes forked and traced; those the map had no
                                       * room for */
    long long select_bits;            /* the largest select nfds whose sets are read */
    long long fdk[MP__FDK_N];                 /* the target's descriptors by kind (MP__FDK_*) when
                                       * it held the most; fdk_seen: a census was read */
    int fdk_seen;
    const mp_pmu_trace_events *ev;    /* the counters in the records' delta[] */
    const char *command;              /* the command line, or NULL (attached) */
    long pid;
    double duration_s, window_s;
    char started_utc[32], finished_utc[32];
    const char *ended;
    int target_exited, interrupted;
    char exit_status[32];
    const mp_trace_opts *o;           /* --against's cells among them */
} mp__trace_data;

/* The names of the calls (MP_TR_*): the syscall, and the backend of
 * `muxprof run` that makes it ("epoll" for epoll_wait), for compare. */
extern const char *const mp__trace_syscall[MP_TR_NCALLS];
extern const char *const mp__trace_backend[MP_TR_NCALLS];

/* Group d's calls into cells and write results.json, results.csv,
 * samples.csv and calls.csv into dir. */
int mp__trace_write(mp_dir *dir, const mp__trace_data *d, mp_trace_sum *sum, mp_err *err);

#endif
