/* SPDX-License-Identifier: MIT */
/* profile.h - where a call's time goes inside the kernel: a sampling
 * profile of the calling thread through perf_event_open, read from the
 * mmap ring buffer (ringbuf.h), kernel instruction pointers resolved with
 * /proc/kallsyms and grouped into phases by a data file (pmu/phases.txt,
 * embedded at build time).  Error convention: src/common/mp_err.h.
 *
 * Life cycle, as src/run/profile_pass.c uses it for one cell:
 *
 *   mp_profile_open(&p, ksyms, phases, &err)   in the thread to be sampled
 *   repeat: mp_profile_enable(p); CALLS; mp_profile_disable(p);
 *           mp_profile_drain_calls(p, span, n)   (keeps the samples taken
 *           inside the calls' windows; keeps the ring from filling)
 *   mp_profile_finish(p, &info)                  the pass's facts; its counts are
 *                                                mp_profile_aggregate(p)'s
 *   mp_profile_close(p)
 *
 * What it hands up is plain C (mp_profile_info, mp_profile_count): run/
 * makes the cell's "profile" object of results.json of it (results/profile.h).
 *
 * The pieces are usable on their own so tests can feed recorded rings,
 * fixture kallsyms and fixture profiles: mp_ksyms_*, mp_phases_*,
 * mp_profile_agg_*.
 */
#ifndef MP_PROFILE_H
#define MP_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include "common/mp_err.h"

#define MP_PROFILE_TOP 15          /* functions listed per cell */
#define MP_PROFILE_MAX_PHASES 16   /* phases an aggregate counts */

/* ---- Kernel symbols (ksyms.c) ---- */
typedef struct mp_ksyms mp_ksyms;

/* Load text symbols from a kallsyms-format file (NULL: /proc/kallsyms).
 * Addresses that are all zero (kptr_restrict, no privilege) are not an
 * error: the table loads as hidden and mp_ksyms_hidden() says why. */
int mp_ksyms_load(mp_ksyms **out, const char *path, mp_err *err);
void mp_ksyms_free(mp_ksyms *k);
/* NULL when addresses are usable, else the reason they are not. */
const char *mp_ksyms_hidden(const mp_ksyms *k);
size_t mp_ksyms_count(const mp_ksyms *k);
/* The function containing ip (the symbol with the largest address <= ip),
 * or NULL.  *index (may be NULL) gets its index, stable for this table. */
const char *mp_ksyms_lookup(const mp_ksyms *k, uint64_t ip, size_t *index);
/* Name of the symbol at an index from mp_ksyms_lookup. */
const char *mp_ksyms_name(const mp_ksyms *k, size_t index);
/* Address of a symbol by name (linear search; tests and tools). */
int mp_ksyms_addr(const mp_ksyms *k, const char *name, uint64_t *addr);

/* ---- Phases (phases.c; data in pmu/phases.txt) ---- */
typedef struct mp_phases mp_phases;

#define MP_PHASE_CALLER (-2)   /* generic helper: charge the nearest classified caller */

/* Parse a phase file (format in pmu/phases.txt): "[phase]" groups of
 * function names or prefixes ending in '*'; the group "[=caller]" marks
 * generic helpers; "helper@[phase]" charges a helper called from a
 * function of that phase to the group's phase.  origin names the text in
 * messages. */
int mp_phases_parse(mp_phases **out, const char *text, const char *origin, mp_err *err);
/* The phase file embedded in the binary. */
int mp_phases_builtin(mp_phases **out, mp_err *err);
void mp_phases_free(mp_phases *p);
/* Phases in file order; the last one is always "other". */
unsigned mp_phases_count(const mp_phases *p);
const char *mp_phases_name(const mp_phases *p, unsigned i);
/* Phase index of a function (compiler suffixes such as .isra.0 and .cold
 * are ignored), MP_PHASE_CALLER, or -1 when no pattern matches. */
int mp_phases_match(const mp_phases *p, const char *function);
/* The phase of a helper by its caller's phase ("helper@[phase]" entries:
 * a lock taken straight from a file's poll method is poll_wait's
 * wait-queue insertion, its __pollwait/add_wait_queue frames lost to tail
 * calls), or -1 when no such entry applies. */
int mp_phases_match_under(const mp_phases *p, const char *helper, int caller_phase);

/* ---- Aggregation of samples: counts per kernel function and per phase ---- */
typedef struct mp_profile_agg mp_profile_agg;

mp_profile_agg *mp_profile_agg_new(const mp_ksyms *k, const mp_phases *ph);
void mp_profile_agg_free(mp_profile_agg *a);
/* One sample: user (1: the IP is in user space), the IP, and the kernel
 * callchain (leaf first; context markers allowed), used to charge generic
 * helpers to their caller's phase. */
void mp_profile_agg_add(mp_profile_agg *a, int user, uint64_t ip, const uint64_t *chain,
                        size_t nchain);
uint64_t mp_profile_agg_samples(const mp_profile_agg *a);
/* The samples whose IP was in user space. */
uint64_t mp_profile_agg_user(const mp_profile_agg *a);
/* Why the kernel samples are not attributed to functions and phases (the
 * symbol table's mp_ksyms_hidden, "no kernel symbol table" without one),
 * or NULL when they are. */
const char *mp_profile_agg_hidden(const mp_profile_agg *a);

/* A kernel function or a phase, and the samples charged to it. */
typedef struct mp_profile_count {
    const char *name;     /* the function (NULL: an IP no symbol holds), or the phase */
    const char *phase;    /* a function's phase, "=caller" for a generic helper; NULL for
                             a phase and without a phase file */
    uint64_t samples;
} mp_profile_count;

/* The (at most max) functions with the most samples, most first (ties in
 * symbol order, unresolved IPs last), into out: their number, 0 when the
 * samples are not attributed (mp_profile_agg_hidden) or out of memory. */
size_t mp_profile_agg_functions(const mp_profile_agg *a, mp_profile_count *out, size_t max);
/* Every phase in file order, "other" last (at most max), into out: their
 * number, 0 without samples, without a phase file or when the samples are
 * not attributed. */
size_t mp_profile_agg_phases(const mp_profile_agg *a, mp_profile_count *out, size_t max);

/* ---- The live sampler (profile.c) ---- */
typedef struct mp_profile mp_profile;

/* Open a sampling event for the calling thread (pid 0, cpu -1), disabled:
 * cycles when the PMU has them, else cpu-clock; kernel and user, with
 * kernel callchains; falls back to user only when kernel sampling is
 * refused (the profile says so).  k and ph are borrowed. */
int mp_profile_open(mp_profile **out, const mp_ksyms *k, const mp_phases *ph, mp_err *err);
int mp_profile_enable(mp_profile *p);
int mp_profile_disable(mp_profile *p);
/* Decode what the ring holds into the aggregate and free the space. */
void mp_profile_drain(mp_profile *p);
/* The same, keeping only samples taken inside one of the calls' windows:
 * span holds n [begin, end] pairs in CLOCK_MONOTONIC ns (mp_now_ns), in
 * time order, not overlapping.  The others are counted as "outside" and
 * dropped.  Where samples carry no usable time (mp_profile_windowed() is
 * 0) every sample is kept and the profile says so. */
void mp_profile_drain_calls(mp_profile *p, const uint64_t *span, size_t n);
int mp_profile_windowed(const mp_profile *p);
/* 1 when time t lies in one of the n [begin, end] windows of span (ends
 * included; windows in time order, not overlapping), else 0. */
int mp_profile_in_window(const uint64_t *span, size_t n, uint64_t t);
uint64_t mp_profile_samples(const mp_profile *p);
/* Facts about the pass that produced the samples. */
typedef struct mp_profile_info {
    const char *event;        /* "cpu-clock", "cycles" */
    uint64_t period;          /* sample period (ns for cpu-clock, events for cycles) */
    const char *scope;        /* "user+kernel" or "user" */
    const char *note;         /* NULL or a sentence */
    uint64_t lost;            /* samples the kernel dropped */
    uint64_t truncated;       /* records skipped as malformed */
    uint64_t throttled;       /* times the kernel slowed the sampling */
    int windowed;             /* 1: only samples inside the calls were kept */
    uint64_t outside;         /* samples taken outside every call (dropped) */
} mp_profile_info;

/* Drain what the ring still holds, then describe the pass into info
 * (strings owned by p); the samples are counted in mp_profile_aggregate(p). */
void mp_profile_finish(mp_profile *p, mp_profile_info *info);
const mp_profile_agg *mp_profile_aggregate(const mp_profile *p);
void mp_profile_close(mp_profile *p);

#endif
