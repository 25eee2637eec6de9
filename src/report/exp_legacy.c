/* SPDX-License-Identifier: MIT */
/* exp_legacy.c - the register, herd and ltet objects of results.json files
 * whose experiments carry no "table": those written by muxprof's first
 * experiment writers (experiments/register.c, herd.c, ltet.c of the builds
 * that gave each experiment a report section of its own), cells only:
 *
 *   register: {"what", "cells": [{backend, fd_kind, nfds, status, reason,
 *              total_ns{p10 p50 p90 min max n}, ns_per_fd, counters_per_fd{}}]}
 *   herd:     {"what", "binding", "arrangements": [{arrangement, status,
 *              reason, waiters, rounds, rounds_lost, rounds_miscounted,
 *              woken_per_event{}, returned_per_event{}, wasted_per_event{},
 *              context_switches_per_event{}, first_wakeup_ns{}}]}
 *   ltet:     {"event_bytes", "cells": [{trigger, chunk, status, reason,
 *              syscalls_per_event, ns_per_event_p50, ns_per_event_p90,
 *              ns_per_syscall_p50, n}]}
 *
 * Each is converted into the object its table would make (results/
 * exp_table.h), kept in m->legacy so that results.json's tree stays as
 * read, and then read like any other table (load_xtable.c).  The
 * descriptions below are those files' format, fixed: they follow no
 * change of the experiments' own tables. */
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/internal.h"
#include "report/model.h"
#include "results/exp_table.h"

#define S(key, label, unit, kind) {key, label, unit, kind, NULL, 0, 0}

static const mp_exp_table reg = {
    .title = "registration cost",
    .method = "One sample is a whole registration through the backend interface: open() and "
              "N add() calls (epoll_create1 + N `epoll_ctl(ADD)`; io_uring set-up + N "
              "multishot poll submissions; for poll and select, filling the pollfd array or "
              "fd_set). Closing is not timed. Medians over the samples; ns per fd is the "
              "median divided by N.",
    .columns = {
        S("backend", "backend", "", "key"), S("fd_kind", "fd kind", "", "key"),
        S("nfds", "N", "fds", "key"), S("status", "status", "", "status"),
        S("reason", "reason", "", "reason"),
        S("total_ns.p10", "whole registration p10", "ns", "value"),
        S("total_ns.p50", "whole registration p50", "ns", "value"),
        S("total_ns.p90", "whole registration p90", "ns", "value"),
        S("total_ns.n", "samples", "", "value"), S("ns_per_fd", "ns per fd", "ns", "value"),
        S("counters_per_fd.*", "per fd", "count", "value"), {NULL},
    },
    .figures = {
        {"per_fd", "nfds", {"ns_per_fd"}, "backend", "fd_kind", 1, 1,
         "registering N %s fds: ns per fd"},
        {NULL},
    },
    .fits = {{"total_ns.p50", "nfds", "backend", "fd_kind", "ns per added fd"}, {NULL}},
    .compare = {{"ns_per_fd", "backend", "nfds", "fd_kind"}, {NULL}},
};

static const mp_exp_table herd = {
    .title = "thundering herd",
    .method = "M threads wait in `epoll_wait` on one pipe; each round writes one byte once "
              "all of them sleep. Per event: *woken* = waiters that ran at all (their "
              "voluntary context switches in /proc went up, which also sees a waiter that "
              "woke, found nothing and slept again inside the kernel), *returned* = "
              "`epoll_wait` returned, *wasted* = woken without getting the byte; and the "
              "time from the write to the first return. Arrangements: own-sets (an epoll "
              "set per waiter), own-sets-exclusive (the same with EPOLLEXCLUSIVE), "
              "shared-set (one set, all waiting on it), shared-set-oneshot (EPOLLONESHOT, "
              "re-armed by the winner).",
    .columns = {
        S("arrangement", "arrangement", "", "key"), S("status", "status", "", "status"),
        S("reason", "reason", "", "reason"), S("waiters", "waiters", "threads", "value"),
        S("rounds", "rounds", "", "value"), S("rounds_lost", "rounds lost", "", "value"),
        S("rounds_miscounted", "rounds miscounted", "", "value"),
        S("woken_per_event.mean", "woken per event, mean", "waiters", "value"),
        S("woken_per_event.p50", "woken per event, p50", "waiters", "value"),
        S("returned_per_event.mean", "returned per event, mean", "waiters", "value"),
        S("returned_per_event.p50", "returned per event, p50", "waiters", "value"),
        S("wasted_per_event.mean", "wasted per event, mean", "waiters", "value"),
        S("wasted_per_event.p50", "wasted per event, p50", "waiters", "value"),
        S("context_switches_per_event.mean", "context switches per event, mean", "", "value"),
        S("first_wakeup_ns.p50", "first wakeup p50", "ns", "value"),
        S("first_wakeup_ns.p90", "first wakeup p90", "ns", "value"), {NULL},
    },
    .figures = {
        {"per_event", "arrangement",
         {"woken_per_event.mean", "returned_per_event.mean", "wasted_per_event.mean"}, NULL,
         NULL, 0, 0, "thundering herd: waiters per written byte (means over the rounds)"},
        {NULL},
    },
    .compare = {{"woken_per_event.mean", "arrangement", NULL, NULL},
                {"wasted_per_event.mean", "arrangement", NULL, NULL}, {NULL}},
};

static const mp_exp_table ltet = {
    .title = "level- vs edge-triggered epoll, partial reads",
    .method = "the same thread then reads it in chunks. Level-triggered (LT): `epoll_wait`, "
              "one read, back to `epoll_wait` while data is left. Edge-triggered (ET): one "
              "`epoll_wait`, then reads until EAGAIN. System calls are counted by the loop; "
              "the time runs from after the write to the last read. LT pays an `epoll_wait` per "
              "read; ET pays one read more, the one that finds the pipe empty.",
    .columns = {
        S("trigger", "trigger", "", "key"), S("chunk", "chunk", "bytes", "key"),
        S("status", "status", "", "status"), S("reason", "reason", "", "reason"),
        S("syscalls_per_event", "syscalls per event", "", "value"),
        S("ns_per_event_p50", "ns per event p50", "ns", "value"),
        S("ns_per_event_p90", "ns per event p90", "ns", "value"),
        S("ns_per_syscall_p50", "ns per syscall", "ns", "value"), S("n", "samples", "", "value"),
        {NULL},
    },
    .figures = {
        {"time", "chunk", {"ns_per_event_p50"}, "trigger", NULL, 1, 1,
         "LT vs ET, one write per event: time"},
        {"syscalls", "chunk", {"syscalls_per_event"}, "trigger", NULL, 1, 1,
         "LT vs ET, one write per event: system calls"},
        {NULL},
    },
    .fits = {{"ns_per_event_p50", "syscalls_per_event", "trigger", NULL, "ns per system call"},
             {NULL}},
    .compare = {{"ns_per_event_p50", "trigger", "chunk", NULL},
                {"syscalls_per_event", "trigger", "chunk", NULL}, {NULL}},
};

static const struct {
    const char *name, *cells;    /* the experiment, the member holding its cells */
    const mp_exp_table *table;
} legacy[] = {
    {"register", "cells", &reg},
    {"herd", "arrangements", &herd},
    {"ltet", "cells", &ltet},
};

/* The method with what only the object says: herd's placement, ltet's
 * write size. */
static const char *method_of(const char *name, const mp_exp_table *t, const cJSON *o, char *buf,
                             size_t len)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "binding");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "event_bytes");
    if (!strcmp(name, "herd") && cJSON_IsString(b))
        snprintf(buf, len, "%s Placement: %s.", t->method, b->valuestring);
    else if (!strcmp(name, "ltet") && cJSON_IsNumber(e) && e->valuedouble > 0 &&
             e->valuedouble < 1e12)
        snprintf(buf, len, "One event is one write of %s bytes into a pipe; %s",
                 MP_NUM(e->valuedouble), t->method);
    else if (!strcmp(name, "ltet"))
        snprintf(buf, len, "One event is one write into a pipe (its size is not recorded); %s",
                 t->method);
    else
        return t->method;
    return buf;
}

const cJSON *mp__rm_exp_legacy(mp_rmodel *m, const char *name, const cJSON *o)
{
    size_t i = 0;
    while (i < sizeof legacy / sizeof legacy[0] && strcmp(name, legacy[i].name))
        i++;
    if (i == sizeof legacy / sizeof legacy[0] || !cJSON_IsObject(o) ||
        cJSON_GetObjectItemCaseSensitive(o, "table"))
        return o;
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(o, legacy[i].cells);
    if (!cells && cJSON_GetObjectItemCaseSensitive(o, "status"))
        return o;   /* it failed as a whole: its status and reason say why */
    if (!cJSON_IsArray(cells)) {
        mp__rm_warn(m, "experiments.%s ignored: %s is not an array", name, legacy[i].cells);
        return NULL;
    }
    char method[2048];
    mp_exp_table t = *legacy[i].table;
    mp_err err;
    t.summary = "";
    t.method = method_of(name, &t, o, method, sizeof method);
    if (!m->legacy && !(m->legacy = cJSON_CreateObject()))
        return NULL;
    /* the cells that are objects (references: the tree stays as read) */
    cJSON *x = cJSON_CreateObject(), *kept = cJSON_CreateArray();
    const cJSON *c;
    int k = -1, first = -1, skipped = 0;
    cJSON_ArrayForEach(c, cells) {
        k++;
        if (cJSON_IsObject(c))
            cJSON_AddItemToArray(kept, cJSON_CreateObjectReference(c->child));
        else if (!skipped++)
            first = k;
    }
    if (skipped)
        mp__rm_warn(m, "experiments.%s.%s: %d cell(s) left out (first: [%d]): not an object",
                    name, legacy[i].cells, skipped, first);
    int rc = x && kept ? mp_exp_table_json(&t, kept, x, &err) : -1;
    cJSON_Delete(kept);
    if (rc) {
        cJSON_Delete(x);
        return NULL;
    }
    cJSON_AddItemToObject(m->legacy, name, x);
    return x;
}
