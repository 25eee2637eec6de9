// SPDX-License-Identifier: MIT
/* trace.c - a traced run's "trace" objects and cells; see results/trace.h. */
#include "results/trace.h"

#include <string.h>

#define ROW(k, type, absent, unit, doc) \
    {#k, type, absent, offsetof(mp_rtrace, k), 0, 0, 0, 0, NULL, NULL, unit, doc, 0}
static const mp_rtfield fields[] = {
    ROW(source, MP_RT_STR, MP_RT_ALWAYS, "", "\"trace\": measured in another program by muxprof "
        "trace, not by muxprof's harness"),
    ROW(target, MP_RT_STR, MP_RT_ALWAYS, "", "command (started by trace) or pid (attached to)"),
    ROW(command, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "the command line started"),
    ROW(pid, MP_RT_COUNT, MP_RT_ALWAYS, "", "the thread group traced (all its threads)"),
    ROW(duration_s, MP_RT_NUMBER, MP_RT_ALWAYS, "s", "--duration: the longest the window lasts"),
    ROW(window_s, MP_RT_NUMBER, MP_RT_ALWAYS, "s", "how long the target was traced"),
    ROW(ended, MP_RT_STR, MP_RT_ALWAYS, "", "what ended the window: duration, target exited, "
        "interrupted"),
    ROW(target_exited, MP_RT_BOOL, MP_RT_ALWAYS, "", "the target ended inside the window (the "
        "trace holds its calls until then)"),
    ROW(exit_status, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "how a started command ended: exit N, "
        "signal N"),
    ROW(calls_seen, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "wait calls recorded"),
    ROW(calls_dropped, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "wait calls the BPF program could "
        "not record (in no cell)"),
    ROW(dropped_ringbuf, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "of them: the ring buffer was "
        "full"),
    ROW(dropped_noslot, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "of them: no room for the call's "
        "entry"),
    ROW(calls_unknown_n, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "epoll calls on an instance "
        "neither created nor seeded since the attach, select calls with nfds above select_bits: "
        "N unknown, in no cell"),
    ROW(calls_zero_n, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "calls watching no descriptor (a "
        "sleep): in no cell"),
    ROW(calls_not_kept, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "calls beyond those trace keeps in "
        "memory: in no cell"),
    ROW(threads, MP_RT_COUNT, MP_RT_ALWAYS, "threads", "threads that made a traced call"),
    ROW(follow, MP_RT_BOOL, MP_RT_ALWAYS, "", "--follow: every process the target (or one it "
        "forked) forks from the attach on is traced too, its calls in the same cells"),
    ROW(processes_followed, MP_RT_COUNT, MP_RT_ALWAYS, "processes", "processes traced besides "
        "the target (--follow)"),
    ROW(processes_not_followed, MP_RT_COUNT, MP_RT_ALWAYS, "processes", "forks of a traced "
        "process not followed: more than 4,096 followed at once (their calls are in no cell)"),
    ROW(epoll_seeded, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "epoll descriptors whose count was "
        "read from /proc/PID/fdinfo at the attach"),
    ROW(select_bits, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "the largest select/pselect6 nfds whose "
        "sets trace reads: 65536 where the kernel has bpf_loop (5.17), else 1024 (FD_SETSIZE)"),
    ROW(fd_kinds, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "the target's open descriptors by kind (tcp, "
        "socketpair: any unix-domain socket, pipe, eventfd, other), counted from /proc/PID/fd "
        "every 100 ms while it runs (less often where a count takes over 5 ms), when it held "
        "the most"),
    ROW(fd_kind, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "the most numerous of tcp, socketpair, pipe "
        "and eventfd among them: --against prefers the run's cells of this fd kind"),
    ROW(epoll_rule, MP_RT_STR, MP_RT_ALWAYS, "", "how an epoll call's N is followed"),
    ROW(timing, MP_RT_STR, MP_RT_ALWAYS, "", "what a cell's wall_ns is"),
    ROW(against, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "--against or --against-quick: the run "
        "whose cells are set beside the traced ones"),
};
#undef ROW

const mp_rtable mp_rtrace_table = {"trace", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rtrace_json(const mp_rtrace *t)
{
    return mp_rtable_json(&mp_rtrace_table, t);
}

#define ROW(k, type, absent, unit, doc) \
    {#k, type, absent, offsetof(mp_rtrace_cell, k), 0, 0, 0, 0, NULL, NULL, unit, doc, 0}
static const mp_rtfield cell_fields[] = {
    ROW(timeout, MP_RT_STR, MP_RT_ALWAYS, "", "the calls' timeout: 0, finite or infinite"),
    ROW(ready_lo, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "the fewest ready descriptors a call "
        "returned (-1: the calls failed)"),
    ROW(ready_hi, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "the most (-1: the calls failed)"),
    ROW(errors, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "failed calls: the errors they returned"),
    ROW(n_lo, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "the cell's bucket of N: from n_lo"),
    ROW(n_hi, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "to n_hi"),
    ROW(n_min, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "the fewest descriptors a call watched"),
    ROW(n_max, MP_RT_COUNT, MP_RT_ALWAYS, "fds", "the most"),
    ROW(arg_min, MP_RT_COUNT, MP_RT_ALWAYS, "", "the smallest nfds (select, poll) or maxevents "
        "(epoll) given"),
    ROW(arg_max, MP_RT_COUNT, MP_RT_ALWAYS, "", "the largest"),
    ROW(calls, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "calls in the cell"),
    ROW(threads, MP_RT_COUNT, MP_RT_ALWAYS, "threads", "threads among them"),
    ROW(counters_unread, MP_RT_COUNT, MP_RT_ALWAYS, "calls", "calls without counters (the "
        "thread changed CPU during the call, or a read failed)"),
    ROW(harness_mode, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "--against: the mode of the run's cell "
        "beside it (ready for timeout 0, else wakeup)"),
    ROW(harness_fd_kind, MP_RT_STR, MP_RT_OMIT_EMPTY, "", "--against: its fd kind"),
    ROW(harness_nfds, MP_RT_COUNT, MP_RT_OMIT_NEGATIVE, "fds", "--against: its N, the nearest "
        "to the cell's within a quarter"),
    ROW(harness_p50_ns, MP_RT_NUMBER, MP_RT_OMIT_NAN, "ns", "--against: its wall_ns p50"),
};
#undef ROW

const mp_rtable mp_rtrace_cell_table = {"results[].trace", cell_fields,
                                        sizeof cell_fields / sizeof cell_fields[0]};

/* The fields of mp_rcell_fields[] a traced cell holds. */
static const char *const trace_fields[] = {
    "backend", "syscall", "fd_kind", "mode", "nfds", "status", "reason", "samples_kept",
    "metrics",
};

cJSON *mp_rtrace_cell_json(const mp_rcell *c, const mp_rtrace_cell *t, const char *scope)
{
    cJSON *o = mp_rcell_json_of(c, trace_fields, sizeof trace_fields / sizeof trace_fields[0]);
    cJSON *tj = mp_rtable_json(&mp_rtrace_cell_table, t);
    if (!o || !tj) {
        cJSON_Delete(o);
        cJSON_Delete(tj);
        return NULL;
    }
    cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "metrics"), *s;
    cJSON_ArrayForEach(s, m) {
        if (!cJSON_IsObject(s))
            continue;
        if (!cJSON_AddStringToObject(s, "scope", strcmp(s->string, "wall_ns") ? scope :
                                     "the call, entry to exit (bpf_ktime_get_ns)") ||
            !cJSON_AddStringToObject(s, "source", "trace")) {
            cJSON_Delete(o);
            cJSON_Delete(tj);
            return NULL;
        }
    }
    cJSON_AddItemToObject(o, "trace", tj);
    return o;
}
