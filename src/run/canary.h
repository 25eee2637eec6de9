/* SPDX-License-Identifier: MIT */
/* canary.h - the host's level, measured in every pass of a sweep beside the
 * cells: fixed work whose cost depends on the host and not on the sweep.
 * Identical runs of one build on one host differ when the host's level
 * moves (a busy neighbour, another CPU frequency, a noisy hypervisor); the
 * canary says by how much, so that compare can tell such a shift from a
 * change of the code or the kernel.
 *
 * Each pass measures, on the waiter's CPU, before the pass's cells:
 *   syscall_ns   one getppid() call (the kernel's entry and exit), the
 *                median of CANARY_BLOCKS blocks of CANARY_CALLS calls;
 *   l1_ns        one load of a pointer chase through a 16 KiB buffer (one
 *                line per step, a fixed random cycle): the core alone;
 *   llc_ns       the same through a buffer of half the last-level cache
 *                (topology; 4 MiB when unknown), clamped to 256 KiB..16
 *                MiB: the shared cache, where other CPUs' traffic shows;
 * and over the pass:
 *   other_busy   the CPUs' busy time from /proc/stat less muxprof's own
 *                (getrusage: every thread of the process; /proc/PID/stat:
 *                its helper processes, the poker and the peer), per second
 *                of the pass: 1.0 = one other CPU kept busy.
 * A value that could not be measured is NaN (null in results.json). */
#ifndef MP_RUN_CANARY_H
#define MP_RUN_CANARY_H

#include <stddef.h>
#include <sys/types.h>
#include <cjson/cJSON.h>

typedef struct mp_canary {
    double syscall_ns, l1_ns, llc_ns, other_busy;
} mp_canary;

/* The buffers and the /proc/stat and rusage snapshot of the pass begun. */
typedef struct mp_canary_state {
    size_t *l1, *llc;             /* the chases: element i holds the next index */
    size_t nl1, nllc;             /* their lengths, in elements */
    size_t llc_bytes;
    unsigned long long busy0;     /* /proc/stat busy ticks at the pass's start */
    double own0_s, wall0_s;       /* own CPU time and the clock then, seconds */
    int have_busy;
    pid_t helpers[2];             /* muxprof's helper processes (0: none) */
} mp_canary_state;

/* Allocate the chases; llc_bytes is the last-level cache's size (0:
 * unknown).  -ENOMEM on failure (the run then goes on without a canary). */
int mp_canary_init(mp_canary_state *s, size_t llc_bytes);
void mp_canary_free(mp_canary_state *s);

/* The timed parts (syscall_ns, l1_ns, llc_ns) into out, and the start of
 * the pass for other_busy (s->helpers set before: their CPU time is
 * muxprof's). */
void mp_canary_begin(mp_canary_state *s, mp_canary *out);
/* The pass ended: out->other_busy. */
void mp_canary_end(mp_canary_state *s, mp_canary *out);

/* context.noise.canary (docs/results-schema.md): the method, the buffer
 * size, "passes" (one object per pass measured), and per quantity the
 * median over the passes and max/min ("spread"). */
cJSON *mp_canary_json(const mp_canary_state *s, const mp_canary *passes, size_t n);

/* The largest spread (max/min over the passes) of the timed quantities,
 * NaN with fewer than two passes; *which names it. */
double mp_canary_spread(const mp_canary *passes, size_t n, const char **which);

/* A spread above this makes the run's noise warnings say the host's level
 * moved during the run. */
#define MP_CANARY_SPREAD_WARN 1.25

#endif
