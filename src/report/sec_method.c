/* SPDX-License-Identifier: MIT */
/* sec_method.c - "What was measured and how": the run's settings and what
 * one call, the two modes and the statistics mean. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/series.h"
#include "report/md.h"
#include "common/quote.h"
#include "report/format.h"

/* The system call behind each backend (results[].syscall), said when it is
 * not the backend's namesake: on arm64 glibc's poll() is ppoll, select() is
 * pselect6 and epoll_wait() is epoll_pwait. */
static void syscalls_made(FILE *f, const mp_rmodel *m)
{
    char seen[16][96];
    size_t n = 0;
    int other = 0;
    for (size_t k = 0; k < m->nall; k++) {
        const char *bn = m->all[k].backend, *sn = m->all[k].syscall;
        if (!mp__rm_safe_name(bn) || !mp__rm_safe_name(sn))
            continue;
        char pair[96];
        snprintf(pair, sizeof pair, "`%s`: `%s`", bn, sn);
        size_t i;
        for (i = 0; i < n && strcmp(seen[i], pair); i++)
            ;
        if (i < n || n == 16)
            continue;
        snprintf(seen[n++], sizeof seen[0], "%s", pair);
        if (!strcmp(sn, "pselect6") || !strcmp(sn, "epoll_pwait") ||
            (!strcmp(sn, "ppoll") && strcmp(bn, "ppoll")))
            other = 1;
    }
    if (!n)
        return;
    fprintf(f, "System call each backend made on this host (%s)%s: ",
            MP_QMD(m->context.has_uname ? m->context.arch : "arch unknown"),
            other ? ", not always its namesake: the C library uses the newer call where the "
                    "architecture has no older one (arm64: poll is ppoll, select is pselect6, "
                    "epoll_wait is epoll_pwait)" : "");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? ", " : "", seen[i]);
    fprintf(f, ".\n\n");
}

static void method(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    fprintf(f, "## What was measured and how\n\n");
    if (m->settings) {
        fprintf(f, "| setting | value |\n|---|---|\n");
        mp_rmd_scalar_rows(f, m->settings, "");
        fputc('\n', f);
    }
    if (mp__r_experiments_only(m)) {
        fprintf(f, "This run holds experiments only (no `calls` in `--experiment`), so it has "
                   "no per-call tables, fits, cache-line analysis or claims; each experiment "
                   "below has its table and figure (method: docs/experiments.md).\n\n");
        return;
    }
    fprintf(f,
        "One *call* is one `select()`, `poll()` or `epoll_wait()` on N watched descriptors of "
        "which exactly one is readable (K of them in the \"K of N ready\" section, when the "
        "run has `--active` values above 1; every other table, fit, figure and claim uses "
        "K = 1 only).\n\n"
        "- **ready** mode: timeout 0 and the descriptor is already readable; the time is one "
        "call bracketed by two clock reads, minus the median of an empty bracket.\n"
        "- **wakeup** mode: the call blocks; another process writes one byte; the time runs from "
        "that process's clock read just before `write()` to the waiter's clock read after the "
        "call returned (nothing subtracted). `waiter_ns` is the waiter's own bracket, from "
        "before it arms to after it returns: the interval its counters cover.\n\n"
        "Tables give the median (p50) and the 99th percentile of the per-call samples, in "
        "nanoseconds; counters are events per call, medians. Percentiles interpolate between "
        "order statistics (type 7). Per-descriptor costs are measured per interval between "
        "neighbouring N; the fitted line beside them weighs every N alike (least squares on "
        "relative error) and is labelled a model (see Results).\n\n");
    syscalls_made(f, m);
}

const mp_rsection mp_rsec_method = {"method", 0, 1, NULL, method, NULL, 1};
