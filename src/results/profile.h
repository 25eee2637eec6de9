/* SPDX-License-Identifier: MIT */
/* profile.h - a cell's "profile" object of results.json (`muxprof run
 * --profile`; docs/results-schema.md, docs/profile.md): where a call's time
 * goes in the kernel, by function and by phase.  One model, mp_rprofile,
 * that run/ fills from pmu/'s sampler and writes, and report/ reads back,
 * through the tables of its fields. */
#ifndef MP_RESULTS_PROFILE_H
#define MP_RESULTS_PROFILE_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/table.h"

/* profile.functions[] and profile.phases[]: a kernel function or a phase. */
typedef struct mp_rprof_entry {
    const char *name;     /* functions: "name"; phases: "phase" */
    double share;         /* of the samples kept */
    double ns_per_call;   /* share x the wall p50; NaN: null */
    double ns_per_fd;     /* phases: ns_per_call / N; NaN: left out (functions: unused) */
    const char *phase;    /* functions: its phase, "=caller" for a generic helper; NULL:
                             left out (no phase file) */
} mp_rprof_entry;

/* "window": which samples were kept. */
enum { MP_RPROF_BLOCKS, MP_RPROF_CALLS };

typedef struct mp_rprofile {
    int sampled;              /* 0: no sampling event opened: samples (0) and reason only */
    const char *event;
    long long period;         /* 0: left out */
    const char *scope;
    long long samples, lost;
    long long truncated;      /* 0: left out */
    long long calls;
    int window;               /* MP_RPROF_* (read: -1 when absent) */
    long long outside_calls;  /* window "calls" */
    double wall_p50_ns;       /* NaN: left out */
    double on_cpu_ns_per_call;   /* NaN: left out */
    const char *symbols;
    const char *note;         /* NULL or "": left out */
    double user_share;        /* NaN: null (no samples) */
    double kernel_share;      /* NaN: left out */
    mp_rprof_entry *functions;
    size_t nfunctions;
    mp_rprof_entry *phases;
    size_t nphases;
    long long throttled;      /* 0: left out */
    const char *reason;       /* not sampled: why */
} mp_rprofile;

extern const mp_rtable mp_rprofile_table;

cJSON *mp_rprofile_json(const mp_rprofile *p);
/* profile o into p, unchecked (results/table.h: mp_rtable_read), its
 * functions and phases into arrays of their own (mp_rtable_read_lists; freed
 * by mp_rprofile_free); p's strings point into o.  0, or -ENOMEM. */
int mp_rprofile_read(const cJSON *o, mp_rprofile *p);
/* The arrays mp_rprofile_read allocated. */
void mp_rprofile_free(mp_rprofile *p);
/* "calls", "blocks", or NULL when p->window is neither (a file without it). */
const char *mp_rprofile_window(const mp_rprofile *p);

#endif
