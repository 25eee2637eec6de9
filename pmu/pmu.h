/* pmu.h - counters around each measured call, through perf_event_open,
 * with events named by libpfm4.  The only module that includes
 * linux/perf_event.h or perfmon headers.  Error convention: src/mp_err.h.
 *
 * Life cycle, as the sampler (src/sample.c) uses it:
 *
 *   mp_pmu_plan_new(&plan, "cache", &err)     resolve a preset or list once per run
 *   for each cell, for pass in 0 .. mp_pmu_plan_passes(plan)-1:
 *       mp_pmu_pass_open(&p, plan, pass, &err)   in the thread to be counted
 *       loop: mp_pmu_pass_read(p, &a); CALL; mp_pmu_pass_read(p, &b);
 *             if (mp_pmu_pass_delta(p, &a, &b, d) == 0) keep d[0..n-1]
 *       mp_pmu_pass_close(p)
 *
 * A pass holds at most MP_PMU_MAX_COUNTERS counters in one or more groups
 * that are scheduled together.  Per-call deltas are never scaled: a delta
 * whose group did not run the whole time is refused (returns 1) and the
 * caller drops that sample and counts it.
 */
#ifndef MP_PMU_H
#define MP_PMU_H

#include <stdint.h>
#include <cjson/cJSON.h>
#include "mp_err.h"

#define MP_PMU_MAX_COUNTERS 16
#define MP_PMU_MAX_GROUPS 4

typedef struct mp_pmu_plan mp_pmu_plan;
typedef struct mp_pmu_pass mp_pmu_pass;

/* One reading of every counter of a pass. */
typedef struct mp_pmu_snap {
    uint64_t value[MP_PMU_MAX_COUNTERS];
    uint64_t enabled_ns[MP_PMU_MAX_GROUPS];
    uint64_t running_ns[MP_PMU_MAX_GROUPS];
} mp_pmu_snap;

/* Resolve a preset name (cache, tlb, minimal, none, ...) or a comma list
 * of event names.  Bad syntax or an unknown preset: MP_EUSAGE.  Events the
 * host cannot count are not an error: they are recorded as unavailable,
 * with the reason, in mp_pmu_plan_json(). */
int mp_pmu_plan_new(mp_pmu_plan **out, const char *spec, mp_err *err);
void mp_pmu_plan_free(mp_pmu_plan *plan);

/* Number of counter passes per cell (0 when nothing can be counted). */
unsigned mp_pmu_plan_passes(const mp_pmu_plan *plan);

/* "user+kernel", "user" or "none": what the opened counters include. */
const char *mp_pmu_plan_scope(const mp_pmu_plan *plan);

/* The "counters" object of results.json: preset, scope, every event with
 * its encoding, pass, status ("opened"/"unavailable") and reason. */
cJSON *mp_pmu_plan_json(const mp_pmu_plan *plan);

/* Open one pass's counters for the calling thread (pid 0, any CPU). */
int mp_pmu_pass_open(mp_pmu_pass **out, const mp_pmu_plan *plan,
                     unsigned pass, mp_err *err);
void mp_pmu_pass_close(mp_pmu_pass *p);

unsigned mp_pmu_pass_count(const mp_pmu_pass *p);
/* Metric name of counter i, as the user named it (e.g. "L1-dcache-load-misses"). */
const char *mp_pmu_pass_name(const mp_pmu_pass *p, unsigned i);
/* "rdpmc", "mrs" or "read": how this pass reads its counters. */
const char *mp_pmu_pass_read_path(const mp_pmu_pass *p);

/* Read every counter of the pass.  Hot path: no allocation, no printing. */
int mp_pmu_pass_read(mp_pmu_pass *p, mp_pmu_snap *s);

/* out[i] = b - a for each counter.  Returns 0, or 1 when some group did not
 * run for the whole interval (multiplexed: the sample must be dropped). */
int mp_pmu_pass_delta(const mp_pmu_pass *p, const mp_pmu_snap *a,
                      const mp_pmu_snap *b, int64_t *out);

#endif
