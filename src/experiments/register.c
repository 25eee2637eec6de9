/* SPDX-License-Identifier: MIT */
/* register.c - what it costs to register N watched fds.
 *
 * One sample is the whole registration through the backend interface:
 * open() then add() of each of the N fds (epoll_create1 + N epoll_ctl ADD;
 * io_uring queue set-up + N multishot-poll submissions; for poll and
 * select, building the pollfd array or fd_set).  Closing is not timed.
 * Reported per backend and N: p50 ns for the whole registration, ns per
 * fd, and, when counters were opened, counts per fd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "common/clock.h"
#include "experiments/experiment.h"
#include "experiments/table.h"
#include "run/fdset.h"
#include "run/sample.h"
#include "run/results.h"
#include "common/stats.h"

/* Backends whose registration is distinct (ppoll = poll, epoll-pwait2 = epoll). */
static const char *const reg_backends[] = {"select", "poll", "epoll", "io_uring", NULL};

/* One registration; returns ns, or -errno (unsupported: -ENOSYS etc.). */
static int register_once(const mp_backend_ops *b, const mp_fdset *set, double *ns,
                         mp_err *err)
{
    void *st = NULL;
    uint64_t t0 = mp_now_ns();
    int rc = b->open(&st, set->n, err);
    for (int i = 0; rc == 0 && i < set->n; i++)
        rc = b->add(st, set->fds[i], err);
    uint64_t t1 = mp_now_ns();
    if (st)
        b->close(st);
    *ns = (double)(t1 - t0);
    return rc;
}

/* The table of results.json and the terminal summary (experiments/table.h). */
const mp_exp_table mp_exp_register_table = {
    .title = "registration cost",
    .summary = "ns per fd to build the watched set (p50 of whole registrations / N)",
    .method = "One sample is a whole registration through the backend interface: open() and "
              "N add() calls (epoll_create1 + N `epoll_ctl(ADD)`; io_uring set-up + N "
              "multishot poll submissions; for poll and select, filling the pollfd array or "
              "fd_set). Closing is not timed. Medians over the samples; ns per fd is the "
              "median divided by N.",
    .columns = {
        {"backend", "backend", "", "key", "backend", -10, -1},
        {"fd_kind", "fd kind", "", "key", "kind", -8, -1},
        {"nfds", "N", "fds", "key", "N", 8, 0},
        {"status", "status", "", "status", NULL, 0, 0},
        {"reason", "reason", "", "reason", NULL, 0, 0},
        {"empty_bracket_ns", "empty clock bracket", "ns", "value", NULL, 0, 0},
        {"total_ns.p10", "whole registration p10", "ns", "value", NULL, 0, 0},
        {"total_ns.p50", "whole registration p50", "ns", "value", "total p50 ns", 14, 0},
        {"total_ns.p90", "whole registration p90", "ns", "value", NULL, 0, 0},
        {"total_ns.n", "samples", "", "value", NULL, 0, 0},
        {"ns_per_fd", "ns per fd", "ns", "value", "ns/fd", 10, 1},
        {"counters_per_fd.*", "per fd", "count", "value", NULL, 0, 0},
        {NULL},
    },
    .figures = {
        {"per_fd", "nfds", {"ns_per_fd"}, "backend", "fd_kind", 1, 1,
         "registering N %s fds: ns per fd"},
        {NULL},
    },
    .fits = {
        {"total_ns.p50", "nfds", "backend", "fd_kind", "ns per added fd"},
        {NULL},
    },
    .compare = {
        {"ns_per_fd", "backend", "nfds", "fd_kind"},
        {NULL},
    },
    .tty_failed = MP_EXP_TTY_STATUS,
};

#define EMPTY_BRACKETS 500   /* empty clock brackets per cell, median subtracted */

static int reps_for(const mp_run_config *cfg, int n)
{
    int r = 200000 / n;   /* about 200k fd registrations per cell at most */
    if (r > cfg->samples)
        r = cfg->samples;
    return r < cfg->repeats ? cfg->repeats : r;
}

/* Median counts of empty read brackets into bracket[]; x has room for n
 * values.  0 when no bracket could be read (nothing is then reported). */
static int empty_counter_bracket(mp_pmu_pass *pass, double *x, size_t n, double *bracket)
{
    unsigned nc = mp_pmu_pass_count(pass);
    enum { EMPTY = 200 };
    int64_t d[EMPTY][MP_PMU_MAX_COUNTERS];
    size_t kept = 0;
    for (size_t i = 0; i < EMPTY; i++) {
        mp_pmu_snap a, b;
        int ra = mp_pmu_pass_read(pass, &a);
        int rb = mp_pmu_pass_read(pass, &b);
        if (ra == 0 && rb == 0 && mp_pmu_pass_delta(pass, &a, &b, d[kept]) == 0)
            kept++;
    }
    if (!kept)
        return 0;
    for (unsigned k = 0; k < nc; k++) {
        size_t m = 0;
        for (size_t i = 0; i < kept && m < n; i++)
            x[m++] = (double)d[i][k];
        bracket[k] = mp_median(x, m);
    }
    return 1;
}

static void counters_for(const mp_exp_env *env, const mp_backend_ops *b, const mp_fdset *set,
                         int reps, cJSON *cell)
{
    unsigned npass = mp_pmu_plan_passes(env->plan);
    cJSON *per_fd = NULL;
    for (unsigned p = 0; p < npass; p++) {
        mp_pmu_pass *pass;
        mp_err perr;
        if (mp_pmu_pass_open(&pass, env->plan, p, &perr) < 0)
            continue;
        unsigned nc = mp_pmu_pass_count(pass);
        double *x = malloc(sizeof *x * (size_t)reps * (nc ? nc : 1));
        size_t kept = 0;
        /* The counts of an empty read bracket, per counter, as the per-call
         * core calibrates them; subtracted from every registration. */
        double bracket[MP_PMU_MAX_COUNTERS] = {0};
        int calibrated = x ? empty_counter_bracket(pass, x, (size_t)reps, bracket) : 0;
        for (int r = 0; calibrated && r < reps; r++) {
            mp_pmu_snap a, s2;
            int64_t d[MP_PMU_MAX_COUNTERS];
            void *st = NULL;
            mp_err e;
            int ra = mp_pmu_pass_read(pass, &a);
            int rc = b->open(&st, set->n, &e);
            for (int i = 0; rc == 0 && i < set->n; i++)
                rc = b->add(st, set->fds[i], &e);
            int rb = mp_pmu_pass_read(pass, &s2);
            if (st)
                b->close(st);
            if (rc == 0 && ra == 0 && rb == 0 && mp_pmu_pass_delta(pass, &a, &s2, d) == 0) {
                for (unsigned k = 0; k < nc; k++)
                    x[k * (size_t)reps + kept] = (double)d[k] - bracket[k];
                kept++;
            }
        }
        for (unsigned k = 0; x && k < nc && kept; k++) {
            if (!per_fd)
                per_fd = cJSON_AddObjectToObject(cell, "counters_per_fd");
            double med = mp_median(x + k * (size_t)reps, kept);
            cJSON_AddNumberToObject(per_fd, mp_pmu_pass_name(pass, k), med / set->n);
        }
        free(x);
        mp_pmu_pass_close(pass);
    }
}

int mp_exp_register(const mp_exp_env *env, cJSON **out, mp_err *err)
{
    const mp_run_config *cfg = env->cfg;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "what", "ns to register N fds: backend open() + N add() "
                            "(epoll_ctl ADD, io_uring poll submission, pollfd array, fd_set)");
    cJSON *cells = cJSON_AddArrayToObject(o, "cells");
    for (int k = 0; k < cfg->nkinds; k++)
        for (int ni = 0; ni < cfg->ncounts; ni++) {
            int n = cfg->fds[ni];
            mp_fdset set;
            mp_err ferr;
            if (mp_fdset_create(&set, cfg->kinds[k], n, n - 1, 1, env->peer, &ferr) < 0) {
                for (int b = 0; reg_backends[b]; b++) {
                    cJSON *c = cJSON_CreateObject();
                    cJSON_AddStringToObject(c, "backend", reg_backends[b]);
                    cJSON_AddStringToObject(c, "fd_kind", mp_fd_kind_name(cfg->kinds[k]));
                    cJSON_AddNumberToObject(c, "nfds", n);
                    cJSON_AddStringToObject(c, "status", "error");
                    cJSON_AddStringToObject(c, "reason", ferr.msg);
                    cJSON_AddItemToArray(cells, c);
                }
                continue;
            }
            for (int b = 0; reg_backends[b]; b++) {
                const mp_backend_ops *ops = mp_backend_find(reg_backends[b]);
                cJSON *c = cJSON_CreateObject();
                cJSON_AddStringToObject(c, "backend", ops->name);
                cJSON_AddStringToObject(c, "fd_kind", mp_fd_kind_name(cfg->kinds[k]));
                cJSON_AddNumberToObject(c, "nfds", n);
                cJSON_AddItemToArray(cells, c);
                char why[256];
                const char *u = ops->unsupported_fds
                                    ? ops->unsupported_fds(set.fd_lo, set.fd_hi, why, sizeof why)
                                    : NULL;
                if (u) {
                    cJSON_AddStringToObject(c, "status", "unsupported");
                    cJSON_AddStringToObject(c, "reason", u);
                    continue;
                }
                int reps = reps_for(cfg, n);
                double *x = malloc(sizeof *x * (size_t)reps), warm;
                /* The empty clock bracket, as the per-call core measures it. */
                double eb[EMPTY_BRACKETS];
                mp_sample_empty_brackets(eb, EMPTY_BRACKETS);
                double empty = mp_median(eb, EMPTY_BRACKETS);
                mp_err e;
                int m = 0;
                mp_errf(&e, -ENOMEM, "out of memory for %d samples", reps);
                int rc = x ? register_once(ops, &set, &warm, &e) : -ENOMEM;   /* warm-up */
                for (; rc == 0 && m < reps && !mp_sample_stop; m++)
                    rc = register_once(ops, &set, &x[m], &e);
                if (mp_sample_stop) {
                    free(x);
                    mp_fdset_destroy(&set, env->peer);
                    cJSON_Delete(o);
                    return -EINTR;
                }
                if (rc < 0) {
                    int unsup = rc == -ENOSYS || rc == -EOPNOTSUPP || rc == -EPERM;
                    cJSON_AddStringToObject(c, "status", unsup ? "unsupported" : "error");
                    cJSON_AddStringToObject(c, "reason", e.msg);
                    free(x);
                    continue;
                }
                mp_summary s;
                for (int i = 0; i < m; i++)
                    x[i] -= empty;
                mp_summarize(x, (size_t)m, &s);
                free(x);
                cJSON_AddStringToObject(c, "status", "ok");
                cJSON_AddNumberToObject(c, "empty_bracket_ns", empty);
                cJSON_AddItemToObject(c, "total_ns", mp_summary_json(&s));
                cJSON_AddNumberToObject(c, "ns_per_fd", s.p50 / n);
                counters_for(env, ops, &set, reps < 50 ? reps : 50, c);
            }
            mp_fdset_destroy(&set, env->peer);
        }
    int rc = mp_exp_table_json(&mp_exp_register_table, cells, o, err);
    if (rc < 0) {
        cJSON_Delete(o);
        return rc;
    }
    *out = o;
    return 0;
}
