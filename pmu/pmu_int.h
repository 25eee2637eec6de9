/* pmu_int.h - the shapes shared by the files of pmu/: one resolved event,
 * the plan (events grouped into passes), host facts, and the internal
 * functions each file offers the others.  Not for use outside pmu/ and its
 * tests. */
#ifndef MP_PMU_INT_H
#define MP_PMU_INT_H

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
    int available;          /* 1 when it opened on this host at plan time */
    char reason[320];       /* why not, in words (empty when available) */
    int pass, group;        /* where it is measured, -1 when unavailable */
    char access[96];        /* how its pass read it when tried ("" until then) */
} mp__event;

typedef struct mp__group {
    unsigned nev;
    unsigned ev[MP_PMU_MAX_COUNTERS]; /* indexes into plan->ev, leader first */
    enum mp__kind kind;
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
    char scope_note[256];
    mp_pmu_host host;
    unsigned nev;
    mp__event ev[MP__MAX_EVENTS];
    unsigned npasses;
    mp__passdef pass[MP__MAX_PASSES];
};

/* encode.c: resolve one event string into ev->attr (MP_EUSAGE on syntax);
 * sets ev->available = 0 with a reason when this host cannot encode it. */
int mp__encode(mp__event *ev, const char *spec, mp_err *err);
int mp__pfm_init(mp_err *err);
/* The core PMU libpfm4 detects (honours LIBPFM_FORCE_PMU), with counts. */
int mp__pfm_core_pmu(char *name, size_t n, unsigned *general, unsigned *fixed);

/* presets.c (generated): the embedded pmu/presets/ files. */
typedef struct mp__preset_file { const char *name; const char *text; } mp__preset_file;
extern const mp__preset_file mp__preset_files[];
extern const unsigned mp__n_preset_files;


/* plan.c: place the available events into passes within the budget
 * (pass 0: software and other-PMU groups; then one core group per pass). */
int mp__plan_pack(mp_pmu_plan *pl, mp_err *err);

/* counters.c */
int mp__perf_open(struct perf_event_attr *attr, int group_fd);

#endif
