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
 *   cJSON *j = mp_profile_collect(p, ns_per_call, calls)
 *   mp_profile_close(p)
 *
 * The pieces are usable on their own so tests can feed recorded rings,
 * fixture kallsyms and fixture profiles: mp_ksyms_*, mp_phases_*,
 * mp_profile_agg_*.
 */
#ifndef MP_PROFILE_H
#define MP_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "common/mp_err.h"

#define MP_PROFILE_TOP 15   /* functions listed per cell */

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

/* ---- Aggregation of samples into a cell's "profile" object ---- */
typedef struct mp_profile_agg mp_profile_agg;

mp_profile_agg *mp_profile_agg_new(const mp_ksyms *k, const mp_phases *ph);
void mp_profile_agg_free(mp_profile_agg *a);
/* One sample: user (1: the IP is in user space), the IP, and the kernel
 * callchain (leaf first; context markers allowed), used to charge generic
 * helpers to their caller's phase. */
void mp_profile_agg_add(mp_profile_agg *a, int user, uint64_t ip, const uint64_t *chain,
                        size_t nchain);
uint64_t mp_profile_agg_samples(const mp_profile_agg *a);

/* Facts about the pass that produced the samples, for the JSON. */
typedef struct mp_profile_info {
    const char *event;        /* "cpu-clock", "cycles" */
    uint64_t period;          /* sample period (ns for cpu-clock, events for cycles) */
    uint64_t lost;            /* samples the kernel dropped */
    uint64_t truncated;       /* records skipped as malformed */
    uint64_t calls;           /* measured calls in the pass */
    double ns_per_call;       /* the cell's wall p50: shares are turned into ns with it */
    const char *scope;        /* "user+kernel" or "user" */
    const char *note;         /* NULL or a sentence */
    const char *symbols_error;/* why there is no symbol table, when k is NULL */
    int windowed;             /* 1: only samples inside the calls were kept */
    uint64_t outside;         /* samples taken outside every call (dropped) */
} mp_profile_info;

/* The "profile" object: event, samples, lost, symbols, user_share,
 * functions (top MP_PROFILE_TOP by share), phases (file order, all),
 * each {name|phase, share, ns_per_call}. */
cJSON *mp_profile_agg_json(const mp_profile_agg *a, const mp_profile_info *info);

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
/* Drain, then build the "profile" object (see mp_profile_agg_json);
 * calls and ns_per_call describe the measured block. */
cJSON *mp_profile_collect(mp_profile *p, uint64_t calls, double ns_per_call);
void mp_profile_close(mp_profile *p);

#endif
