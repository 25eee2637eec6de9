/* sec_method.c - "What was measured and how": the run's settings and what
 * one call, the two modes and the statistics mean. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/calc.h"
#include "report/md.h"
#include "report/util.h"

static void method(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    fprintf(f, "## What was measured and how\n\n");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m->root, "config");
    if (cJSON_IsObject(cfg)) {
        fprintf(f, "| setting | value |\n|---|---|\n");
        mp_rmd_scalar_rows(f, cfg, "");
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
        "order statistics (type 7). Slopes are least-squares fits of the median against N over "
        "the sweep, with R² on the linear scale.\n\n");
}

const mp_rsection mp_rsec_method = {"method", 0, NULL, NULL, method};
