/* SPDX-License-Identifier: MIT */
/* context.h - the "context" object of results.json (docs/results-schema.md):
 * the host, kernel, limits and build a run was made on.  One model,
 * mp_rcontext, that run/ fills and writes and report/ reads back, through
 * the table of its fields. */
#ifndef MP_RESULTS_CONTEXT_H
#define MP_RESULTS_CONTEXT_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/table.h"

#define MP_RCTX_MAX_SEEN 8

typedef struct mp_rlimit_pair {
    long long soft, hard;
} mp_rlimit_pair;

typedef struct mp_rcontext {
    char host[256];
    int has_uname;                /* arch, kernel, kernel_version: read by uname() (read
                                     back: arch is a string) */
    char arch[65], kernel[65], kernel_version[65];
    char cpu_model[512];
    long long nr_cpus;
    int hypervisor, emulated;
    const char *emulation_seen[MP_RCTX_MAX_SEEN];   /* what gave emulation away */
    size_t nemulation_seen;
    char governor[256], clocksource[256];
    double perf_event_paranoid, kptr_restrict;   /* NaN: the file was unreadable */
    int has_rlimit;
    mp_rlimit_pair rlimit_nofile;
    double nr_open;               /* NaN: unreadable */
    const char *git_describe, *compiler, *build_type, *command;
    /* Written by others into the same object; absent (NULL, 0) from a run's head: */
    const cJSON *noise;           /* run/noise.c, at the end of the run */
    const char *anonymized;       /* report --anonymize: what was replaced */
    int simulated;                /* sim-import: a model's counts, no times */
    const char *label;            /* sim-import: "simulated (GEOMETRY)" */
    const cJSON *geometry;        /* sim-import: the modelled caches */
    const char *method;           /* sim-import: how the counts were made */
    const char *qemu;             /* sim-import: the emulator's version */
    const char *guest_kernel;     /* sim-import: the guest's kernel */
    const cJSON *host_load;       /* sim-import: the host's load at the boot's start, end */
    double boot_seconds_total;    /* sim-import: the boot's length; NaN: absent */
} mp_rcontext;

extern const mp_rtable mp_rcontext_table;

cJSON *mp_rcontext_json(const mp_rcontext *c);
/* context o into c, unchecked (results/table.h: mp_rtable_read); c's
 * strings and objects point into o. */
void mp_rcontext_read(const cJSON *o, mp_rcontext *c);

#endif
