/* SPDX-License-Identifier: MIT */
/* plan_probe.c - each event of a plan opened once on this host (refusals
 * recorded with the reason), whether kernel counting is allowed, and the
 * privilege levels an event really counts. */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- probing on this host --------------------------------------------- */

static int event_kernel(const mp__event *ev) { return !ev->attr.exclude_kernel; }

/* Software events the kernel raises from kernel context only. */
static int kernel_triggered(const mp__event *ev)
{
    return ev->attr.type == PERF_TYPE_SOFTWARE &&
           (ev->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
            ev->attr.config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

/* Software clocks: they add up the task's (or CPU's) run time, kernel
 * time included, whatever the privilege bits say. */
static int time_based(const mp__event *ev)
{
    return ev->attr.type == PERF_TYPE_SOFTWARE &&
           (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
            ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static void probe_event(mp_pmu_plan *pl, mp__event *ev)
{
    struct perf_event_attr a = ev->attr;
    int fd, cpu = -1;
    a.disabled = 1;
    if (ev->kind == MP__KIND_OTHER && mp_pmu_pmu_is_cpu_wide(NULL, ev->pmu)) {
        /* An uncore PMU counts the whole CPU, CCX or socket: only with the
         * privilege for that, never as a widened per-thread event. */
        ev->cpu_wide = 1;
        mp__cpu_wide_classify(ev);
        if (!ev->available) return;
        if (!mp_pmu_cpu_wide_allowed(&pl->host, ev->reason, sizeof ev->reason)) {
            ev->available = 0;
            return;
        }
        /* Probe on a CPU of the PMU, filtered to that CPU's core. */
        char why[sizeof ev->reason] = "";
        cpu = mp__pmu_first_cpu(ev->pmu);
        if (cpu < 0) snprintf(why, sizeof why, "PMU %s lists no CPU in its cpumask", ev->pmu);
        if (cpu < 0 || mp__cpu_wide_attr(ev, cpu, &a, why, sizeof why)) {
            memcpy(ev->reason, why, sizeof why);
            ev->available = 0;
            return;
        }
        a.disabled = 1;
    }
    fd = ev->cpu_wide ? mp__perf_open_cpu(&a, cpu, -1) : mp__perf_open(&a, -1);
    if (fd == -EINVAL && ev->kind == MP__KIND_OTHER && !ev->mod_u && !ev->mod_k &&
        (a.exclude_hv || a.exclude_kernel)) {
        /* Some PMUs (msr, uncore) cannot filter by privilege level: count
         * everything, if that is allowed, and say so. */
        a.exclude_hv = a.exclude_kernel = 0;
        fd = ev->cpu_wide ? mp__perf_open_cpu(&a, cpu, -1) : mp__perf_open(&a, -1);
        if (fd >= 0) {
            ev->attr.exclude_hv = ev->attr.exclude_kernel = 0;
            /* A copy of the PMU name: ev->pmu and ev->encoding share *ev. */
            size_t used = strlen(ev->encoding);
            char pmu[sizeof ev->pmu];
            memcpy(pmu, ev->pmu, sizeof pmu);
            snprintf(ev->encoding + used, sizeof ev->encoding - used,
                     " (PMU %s cannot filter by privilege level: user+kernel)", pmu);
        }
    }
    if (fd >= 0) {
        close(fd);
        if (ev->cpu_wide)
            snprintf(ev->access, sizeof ev->access, "read() of its own CPU-wide group on "
                     "the waiter's CPU, in a pass of its own");
        return;
    }
    ev->available = 0;
    mp_pmu_classify(-fd, &pl->host, ev->kind != MP__KIND_SOFTWARE, event_kernel(ev),
                    ev->reason, sizeof ev->reason);
}

/* Kernel counting allowed?  Try a software event with exclude_kernel=0. */
static void probe_scope(mp_pmu_plan *pl)
{
    struct perf_event_attr a;
    int fd;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.disabled = 1;
    a.exclude_hv = 1;
    fd = mp__perf_open(&a, -1);
    if (fd >= 0) {
        close(fd);
        pl->kernel = 1;
        snprintf(pl->scope_note, sizeof pl->scope_note, "user+kernel: kernel counting "
                 "allowed (perf_event_paranoid=%d%s)", pl->host.paranoid,
                 pl->host.cap_perfmon ? ", CAP_PERFMON or CAP_SYS_ADMIN held" : "");
        return;
    }
    pl->kernel = 0;
    snprintf(pl->scope_note, sizeof pl->scope_note, "USER-ONLY: kernel counting refused "
             "(perf_event_paranoid=%d, no CAP_PERFMON); select/poll/epoll work is almost "
             "all in the kernel, so these counts miss most of it. Fix: %s",
             pl->host.paranoid, MP_PMU_GRANT_HINT);
}

/* The counting scope, then each event with it applied: kernel excluded when
 * kernel counting is refused (unless :u or :k was given), and opened once. */
void mp__probe(mp_pmu_plan *pl)
{
    probe_scope(pl);
    for (unsigned i = 0; i < pl->nev; i++) {
        mp__event *ev = &pl->ev[i];
        if (!ev->spec[0] || !strcmp(ev->spec, "-")) continue;
        ev->attr.exclude_hv = 1;
        if (!pl->kernel && !ev->mod_k && !ev->mod_u) ev->attr.exclude_kernel = 1;
        if (ev->available && ev->attr.exclude_kernel && kernel_triggered(ev)) {
            /* Counted only where the kernel switches or migrates the task:
             * with exclude_kernel it would read 0 whatever happened. */
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "unavailable in user-only scope: the "
                     "kernel raises this software event in kernel context, so with kernel "
                     "counting refused (perf_event_paranoid=%d, no CAP_PERFMON) it would read "
                     "0 whatever happened; allow kernel counting to measure it",
                     pl->host.paranoid);
        }
        if (ev->available) probe_event(pl, ev);
    }
}

const char *mp__event_unit(const mp__event *ev)
{
    return time_based(ev) ? "ns" : "events";
}

const char *mp__event_scope(const mp__event *ev)
{
    if (time_based(ev)) return "user+kernel";
    if (ev->attr.exclude_kernel && ev->attr.exclude_user) return "none";
    if (ev->attr.exclude_kernel) return "user";
    if (ev->attr.exclude_user) return "kernel";
    return "user+kernel";
}
