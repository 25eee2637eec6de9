/* SPDX-License-Identifier: MIT */
/* internal.h - the shapes shared by the files of pmu/: one resolved event,
 * the plan (events grouped into passes), host facts, and the internal
 * functions each file offers the others.  Not for use outside pmu/ and its
 * tests. */
#ifndef MP_PMU_INTERNAL_H
#define MP_PMU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "pmu.h"

#define MP__MAX_EVENTS 64
#define MP__MAX_PASSES 8

/* What kind of counter an event needs: it decides grouping and budget. */
enum mp__kind {
    MP__KIND_SOFTWARE = 0, /* PERF_TYPE_SOFTWARE: no counter, read() only */
    MP__KIND_CORE,         /* the CPU's PMU: costs a counter, rdpmc-able */
    MP__KIND_OTHER         /* another PMU (sysfs type, e.g. msr): own group */
};

/* How a CPU-wide event is narrowed to the measured thread's core. */
enum mp__cpu_filter {
    MP__FILTER_NONE = 0,   /* not narrowed: everything its PMU sees on that CPU */
    MP__FILTER_L3_COREID,  /* amd_l3 of family 19h+: coreid, threadmask, enallcores=0 */
    MP__FILTER_L3_MASK8    /* amd_l3 of family 17h: threadmask of 8 bits, slicemask */
};

typedef struct mp__event {
    char name[96];          /* metric name, as the user or preset named it */
    char spec[192];         /* the event string that was resolved */
    char origin[16];        /* "generic", "libpfm4", "sysfs", "raw", "preset" */
    char encoding[256];     /* libpfm4's canonical string or a description */
    char pmu[64];           /* PMU the event belongs to ("cpu", "software", "msr", ...) */
    struct perf_event_attr attr;
    enum mp__kind kind;
    int fixed;              /* 1: may use a fixed counter (Intel cycles/instructions) */
    int mod_u, mod_k;       /* explicit :u / :k modifiers given */
    int cpu_wide;           /* 1: an uncore PMU that counts all work on its CPUs */
    enum mp__cpu_filter cpu_filter; /* how a cpu_wide event is narrowed to the waiter */
    char cpu_scope[128];    /* what a cpu_wide event counts, in words ("" otherwise) */
    int available;          /* 1 when it opened on this host at plan time */
    char reason[512];       /* why not, in words (empty when available) */
    int pass, group;        /* where it is measured, -1 when unavailable */
    char access[96];        /* how its pass read it when tried ("" until then) */
} mp__event;

/* The privilege levels an event really counts: "user", "kernel",
 * "user+kernel" (software clocks always), "none". */
const char *mp__event_scope(const mp__event *ev);
/* What one count of the event is: "ns" for the software clocks (task-clock,
 * cpu-clock count nanoseconds), "events" otherwise. */
const char *mp__event_unit(const mp__event *ev);

typedef struct mp__group {
    unsigned nev;
    unsigned ev[MP_PMU_MAX_COUNTERS]; /* indexes into plan->ev, leader first */
    enum mp__kind kind;
    int cpu_wide;                     /* 1: opened on the waiter's CPU (pid -1) */
} mp__group;

typedef struct mp__passdef {
    unsigned ngroups;
    mp__group g[MP_PMU_MAX_GROUPS];
} mp__passdef;


struct mp_pmu_plan {
    char spec[256];
    char preset[64];          /* preset name, or "list" */
    char model[64];           /* preset data file chosen ("skl", "generic", ...) */
    char model_source[512];   /* its "# source:" header line */
    char libpfm_pmu[64];      /* core PMU libpfm4 detected, "" when none */
    unsigned budget_general, budget_fixed;
    char budget_note[256];
    int kernel;               /* 1: default scope includes kernel */
    char scope_note[512];
    mp_pmu_host host;
    unsigned nev;
    mp__event ev[MP__MAX_EVENTS];
    unsigned sw_added;        /* bit i: mp__software_group[i] added by the plan, not named */
    unsigned npasses;
    mp__passdef pass[MP__MAX_PASSES];
};

/* encode.c: resolve one event string into ev->attr (MP_EUSAGE on syntax);
 * sets ev->available = 0 with a reason when this host cannot encode it. */
int mp__encode(mp__event *ev, const char *spec, mp_err *err);
int mp__pfm_init(mp_err *err);
/* The core PMU libpfm4 detects (honours LIBPFM_FORCE_PMU), with counts. */
int mp__pfm_core_pmu(char *name, size_t n, unsigned *general, unsigned *fixed);

/* Data files embedded by cmake/embed.cmake: {file name, NUL-terminated
 * text, length}, each table ended by {0, 0, 0}. */
typedef struct mp__embedded { const char *name; const char *text; size_t len; } mp__embedded;
/* presets.c (generated): the pmu/presets/ files. */
extern const mp__embedded mp__preset_files[];
/* phases_embedded.c (generated): pmu/phases.txt. */
extern const mp__embedded mp__phases_file[];


/* plan.c: append one event to the plan (spec "-" with unavailable: a preset's
 * event this model lacks, with the reason); the software group every plan
 * but "none" counts. */
int mp__add_event(mp_pmu_plan *pl, const char *name, const char *spec,
                  const char *unavailable, mp_err *err);
#define MP__SOFTWARE_GROUP_N MP_PMU_SOFTWARE_N
extern const char *const mp__software_group[MP__SOFTWARE_GROUP_N];

/* plan_preset.c: a preset defined by the data files (not "software" or
 * "none"); the data file for this host's core PMU (its index); the file's
 * header into the plan (source, budget); the events of its section [preset];
 * s without white space at either end (cut in place). */
int mp__file_preset(const char *s);
unsigned mp__choose_model(const char *libpfm_core);
void mp__file_header(mp_pmu_plan *pl, const char *text);
int mp__add_preset(mp_pmu_plan *pl, const char *text, const char *preset, mp_err *err);
char *mp__trim(char *s);

/* plan_probe.c: whether kernel counting is allowed (pl->kernel, scope_note),
 * then each event opened once, unavailable with the reason when it does not. */
void mp__probe(mp_pmu_plan *pl);

/* plan_pack.c: place the available events into passes within the budget
 * (pass 0: software and other-PMU groups; then one core group per pass);
 * then try each core pass, shrinking the budget until each schedules. */
int mp__plan_pack(mp_pmu_plan *pl, mp_err *err);
int mp__verify_passes(mp_pmu_plan *pl, mp_err *err);

/* errors.c: an integer from a /proc or /sys file (dflt when unreadable), and
 * this process's effective capabilities (CapEff of /proc/self/status). */
int mp__read_int(const char *path, int dflt);
unsigned long long mp__cap_eff(void);

/* encode.c: the sysfs PMU directory (MUXPROF_SYSFS_PMUS points tests at a
 * fake tree), one line of a file (0 or -errno), and value placed into attr
 * per a sysfs format spec such as "config:56-57" (0, or -1 unparsable). */
const char *mp__sysfs_pmus(void);
int mp__read_line(const char *path, char *buf, size_t n);
int mp__put_bits(struct perf_event_attr *a, const char *fmt, uint64_t value);

/* counters.c: open for the calling thread (pid 0, any CPU), or CPU-wide
 * (pid -1, cpu): the latter only for ev->cpu_wide events, after
 * mp_pmu_cpu_wide_allowed(). */
int mp__perf_open(struct perf_event_attr *attr, int group_fd);
int mp__perf_open_cpu(struct perf_event_attr *attr, int cpu, int group_fd);

/* cpuwide.c: CPU-wide (uncore) events narrowed to the measured thread. */
/* At plan time: how ev (a cpu_wide event) can be narrowed, its scope words
 * in ev->cpu_scope; ev->available = 0 with the reason when an amd_l3 event
 * cannot be filtered to one core (it would count the whole CCX). */
void mp__cpu_wide_classify(mp__event *ev);
/* The one CPU the calling thread is pinned to, or -1 with why filled. */
int mp__pinned_cpu(char *why, size_t n);
/* A CPU of pmu's cpumask (the first), or -1. */
int mp__pmu_first_cpu(const char *pmu);
/* *out = ev->attr narrowed to cpu's core.  0, or -1 with why filled. */
int mp__cpu_wide_attr(const mp__event *ev, int cpu, struct perf_event_attr *out,
                      char *why, size_t n);

#endif
