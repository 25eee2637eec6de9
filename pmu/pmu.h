/* SPDX-License-Identifier: MIT */
/* pmu.h - counters around each measured call, through perf_event_open,
 * with events named by libpfm4.  The only module that includes
 * linux/perf_event.h or perfmon headers.  Error convention: src/common/mp_err.h.
 *
 * Life cycle, as the sampler (src/run/sample.c) uses it:
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
#include "common/mp_err.h"

#define MP_PMU_MAX_COUNTERS 16
#define MP_PMU_MAX_GROUPS 4

typedef struct mp_pmu_plan mp_pmu_plan;
typedef struct mp_pmu_pass mp_pmu_pass;

/* One reading of every counter of a pass. */
typedef struct mp_pmu_snap {
    uint64_t value[MP_PMU_MAX_COUNTERS];
    uint64_t enabled_ns[MP_PMU_MAX_GROUPS];
    uint64_t running_ns[MP_PMU_MAX_GROUPS];
    int ok;                  /* 1: mp_pmu_pass_read read every group */
} mp_pmu_snap;

/* Resolve a preset name (cache, tlb, minimal, none, ...) or a comma list
 * of event names.  Bad syntax or an unknown preset: MP_EUSAGE.  Events the
 * host cannot count are not an error: they are recorded as unavailable,
 * with the reason, in mp_pmu_plan_event(). */
int mp_pmu_plan_new(mp_pmu_plan **out, const char *spec, mp_err *err);
void mp_pmu_plan_free(mp_pmu_plan *plan);

/* Number of counter passes per cell (0 when nothing can be counted). */
unsigned mp_pmu_plan_passes(const mp_pmu_plan *plan);

/* "user+kernel", "user" or "none": what the opened counters include. */
const char *mp_pmu_plan_scope(const mp_pmu_plan *plan);

#define MP_PMU_SOFTWARE_N 4   /* the software group every plan but "none" counts */

/* What a plan knows, as results.json's "counters" records it
 * (results/counters.h); strings point into the plan. */
typedef struct mp_pmu_plan_info {
    const char *spec, *preset, *scope, *scope_note;
    unsigned passes;
    int planned;                  /* 0: preset "none" (nothing below is set) */
    const char *preset_file, *preset_source;   /* the preset data file and its source */
    const char *libpfm4_pmu;      /* "none" when libpfm4 found no core PMU */
    unsigned budget_general, budget_fixed;
    int nmi_watchdog;
    const char *budget_note;
    const char *software_added[MP_PMU_SOFTWARE_N];   /* added, not named by --events */
    unsigned nsoftware_added;
    const char *software_why;     /* why the software group is always counted */
    unsigned nevents;             /* 0 when not planned */
} mp_pmu_plan_info;

/* One event of a plan: where it is measured, or why not. */
typedef struct mp_pmu_event_info {
    const char *name, *event, *origin;
    int encoded;                  /* resolved to an encoding: pmu ... scope hold */
    const char *pmu, *encoding;
    unsigned type;
    unsigned long long config, config1;
    int exclude_user, exclude_kernel, exclude_hv;
    const char *scope;
    const char *unit;             /* encoded: what one count is, "ns" or "events" */
    int cpu_wide;                 /* an uncore event counting all work on its CPUs */
    const char *cpu_scope;
    int opened;
    int pass, group;              /* opened */
    const char *access;           /* opened: how its pass read it ("" until then) */
    const char *reason;           /* not opened: why */
} mp_pmu_event_info;

void mp_pmu_plan_describe(const mp_pmu_plan *plan, mp_pmu_plan_info *info);
/* Event i < info.nevents. */
void mp_pmu_plan_event(const mp_pmu_plan *plan, unsigned i, mp_pmu_event_info *ev);

/* Open one pass's counters for the calling thread (pid 0, any CPU); a pass
 * of CPU-wide events (uncore, e.g. amd_l3) opens instead with pid -1 on the
 * one CPU the calling thread is pinned to, narrowed to its core where the PMU
 * can filter, after checking the privilege again; an unpinned thread or a
 * missing privilege fails the pass with the reason. */
int mp_pmu_pass_open(mp_pmu_pass **out, const mp_pmu_plan *plan,
                     unsigned pass, mp_err *err);
void mp_pmu_pass_close(mp_pmu_pass *p);

unsigned mp_pmu_pass_count(const mp_pmu_pass *p);
/* Metric name of counter i, as the user named it (e.g. "L1-dcache-load-misses"). */
const char *mp_pmu_pass_name(const mp_pmu_pass *p, unsigned i);
/* What counter i really counts: "user", "kernel", "user+kernel" (software
 * clocks count kernel time whatever the privilege bits say). */
const char *mp_pmu_pass_scope(const mp_pmu_pass *p, unsigned i);
/* What one count of counter i is: "ns" (task-clock, cpu-clock) or "events". */
const char *mp_pmu_pass_unit(const mp_pmu_pass *p, unsigned i);
/* "rdpmc", "mrs" or "read": how this pass reads its counters ("rdpmc+read"
 * or "mrs+read" when its groups differ, e.g. a CPU group next to another
 * PMU's group, which only read() can read). */
const char *mp_pmu_pass_read_path(const mp_pmu_pass *p);
/* How counter i is read, in words: "mrs, 64-bit counter", "mrs, 32-bit
 * counter (the PMU refused a 64-bit one: EOPNOTSUPP)", "read() (the PMU
 * refused user access)", "rdpmc", "read()", ... */
const char *mp_pmu_pass_access(const mp_pmu_pass *p, unsigned i);

/* Read every counter of the pass.  Hot path: no allocation, no printing. */
int mp_pmu_pass_read(mp_pmu_pass *p, mp_pmu_snap *s);

/* out[i] = b - a for each counter.  Returns 0, or 1 when some group did not
 * run for the whole interval (multiplexed, or not at all, as a group too
 * large for the counters that opened but never runs), or when a or b was
 * not read whole: the sample must be dropped. */
int mp_pmu_pass_delta(const mp_pmu_pass *p, const mp_pmu_snap *a,
                      const mp_pmu_snap *b, int64_t *out);

/* ---- Added for the events and doctor verbs, the tests and the bench ---- */

/* What the host offers for counting; mp_pmu_host_probe() fills it. */
typedef struct mp_pmu_host {
    int paranoid;            /* kernel.perf_event_paranoid, -99 when unreadable */
    int core_pmu;            /* 1: a CPU PMU is registered in sysfs */
    char core_pmu_name[64];  /* e.g. "cpu", "cpu_core", "armv8_pmuv3_0" */
    int hypervisor;          /* 1: /proc/cpuinfo has the hypervisor flag */
    int cap_perfmon;         /* 1: effective CAP_PERFMON or CAP_SYS_ADMIN */
    int nmi_watchdog;        /* 1: kernel.nmi_watchdog holds a counter */
    int rdpmc_sysfs;         /* x86 /sys/bus/event_source/devices/cpu/rdpmc, -1 absent */
    int perf_user_access;    /* arm64 kernel.perf_user_access, -1 absent */
} mp_pmu_host;
void mp_pmu_host_probe(mp_pmu_host *h);

/* Why perf_event_open refused an event, as a class and one line of words
 * saying what failed, why, and what to change. */
typedef enum mp_pmu_errclass {
    MP_PMU_ERR_NONE = 0,
    MP_PMU_ERR_NO_PMU,      /* ENOENT/ENODEV/ENXIO/EOPNOTSUPP and no CPU PMU: a VM */
    MP_PMU_ERR_NO_EVENT,    /* same errnos with a PMU present: unknown to it */
    MP_PMU_ERR_PERMISSION,  /* EACCES/EPERM */
    MP_PMU_ERR_CONFIG,      /* EINVAL */
    MP_PMU_ERR_BUSY,        /* EBUSY */
    MP_PMU_ERR_NO_FDS,      /* EMFILE/ENFILE */
    MP_PMU_ERR_NO_SYSCALL,  /* ENOSYS */
    MP_PMU_ERR_BUDGET,      /* opened but never scheduled */
    MP_PMU_ERR_OTHER
} mp_pmu_errclass;
/* errnum: positive errno from perf_event_open; hw: 1 for an event that
 * needs a counter (not a software event); kernel: 1 when it asked for
 * kernel counting.  Writes the message to buf. */
mp_pmu_errclass mp_pmu_classify(int errnum, const mp_pmu_host *h, int hw, int kernel,
                                char *buf, size_t n);
const char *mp_pmu_errclass_name(mp_pmu_errclass c);

/* The CPU PMU libpfm4 detects (LIBPFM_FORCE_PMU is honoured), with its
 * general and fixed counter counts.  0, or -ENOENT when none. */
int mp_pmu_libpfm_core(char *name, size_t n, unsigned *general, unsigned *fixed);

/* The presets: the [sections] of the embedded data files (pmu/presets/),
 * then "software" and "none".  Name i, or NULL past the last; and all of
 * them as "cache, tlb, ..." for messages. */
const char *mp_pmu_preset_name(unsigned i);
const char *mp_pmu_preset_list(void);
/* The embedded data files. */
unsigned mp_pmu_preset_file_count(void);
const char *mp_pmu_preset_file_name(unsigned i);
const char *mp_pmu_preset_file_text(unsigned i);

/* The seqlock reader of a perf_event_mmap_page (see linux/perf_event.h),
 * with the counter read injectable: rd(counter, ctx) returns the raw
 * counter value of hardware counter index-1.  page points at a
 * struct perf_event_mmap_page.  Returns 0 with out filled, or 1 when the
 * counter cannot be read from user space now (index 0 or no
 * cap_user_rdpmc): use read().  enabled/running are complete (kernel value
 * plus the time since, from cap_user_time) when cap_user_time is set, and
 * the kernel's values as of its last update otherwise. */
typedef uint64_t (*mp_pmu_rdpmc_fn)(unsigned counter, void *ctx);
typedef uint64_t (*mp_pmu_cycles_fn)(void *ctx);
typedef struct mp_pmu_mmap_reading {
    uint64_t count;
    uint64_t enabled_ns, running_ns;
    unsigned index;          /* the page's index field (0: not on a counter) */
    unsigned retries;        /* how often the lock changed under the reader */
} mp_pmu_mmap_reading;
int mp_pmu_mmap_read(const void *page, mp_pmu_rdpmc_fn rd, mp_pmu_cycles_fn cyc,
                     void *ctx, mp_pmu_mmap_reading *out);


/* ---- privilege (privilege.c) ---------------------------------------------- */

/* What to do when a count needs privilege: the perf-security guide's group
 * setup, never a capability on a binary every user may run. */
#define MP_PMU_GRANT_HINT "grant it to a group as root: scripts/grant-perfmon.sh " \
    "perf_users (root:perf_users 0750, cap_perfmon on the binary only; see muxprof " \
    "doctor), or on a single-user host sysctl -w kernel.perf_event_paranoid=1"

/* 1 when this process may count kernel work (exclude_kernel=0). */
int mp_pmu_kernel_allowed(const mp_pmu_host *h);
/* 1 when it may open CPU-wide events (pid -1, cpu >= 0: uncore PMUs such as
 * amd_l3, any per-CPU count): paranoid <= 0, CAP_PERFMON or CAP_SYS_ADMIN.
 * 0 otherwise, with the reason (for an "unavailable" event) in why.  Call it
 * before every CPU-wide open; a per-thread event is never widened into one. */
int mp_pmu_cpu_wide_allowed(const mp_pmu_host *h, char *why, size_t n);
/* 1 when PMU pmu counts per CPU only (sysfs has its cpumask: uncore PMUs).
 * sysfs_root: NULL for /sys/bus/event_source/devices (or MUXPROF_SYSFS_PMUS). */
int mp_pmu_pmu_is_cpu_wide(const char *sysfs_root, const char *pmu);
/* An uncore event to try CPU-wide: the first PMU by name that counts per CPU
 * only and the first event its sysfs events/ lists, as the --events spec
 * "PMU/EVENT/" into spec.  0; -ENODATA when that PMU lists no event (its
 * name in spec); -ENOENT when no PMU counts per CPU only. */
int mp_pmu_cpu_wide_sample(char *spec, size_t n);

/* The running binary's privilege setup, as muxprof doctor reports it. */
typedef struct mp_pmu_setup {
    int paranoid;                 /* kernel.perf_event_paranoid, -99 unreadable */
    int cap_last_cap;             /* < 38: the kernel has no CAP_PERFMON; -1 unknown */
    long euid;
    int eff_perfmon, eff_sys_admin; /* effective in this process */
    int no_new_privs;
    char exe[512];                /* the binary (/proc/self/exe) */
    int exe_known;                /* 1: stat() worked and the fields below are set */
    unsigned mode;                /* permission bits */
    long uid, gid;
    char group[64];               /* its group's name */
    int in_group;                 /* 1: this process is in that group */
    int nosuid;                   /* 1: on a nosuid mount (file capabilities ignored) */
    int file_caps;                /* 1: security.capability present */
    uint64_t file_permitted;      /* its permitted set, bit n = capability n */
    int file_effective;           /* its effective flag (+e) */
} mp_pmu_setup;
void mp_pmu_setup_probe(mp_pmu_setup *s, const char *exe /* NULL: this process */);

typedef struct mp_pmu_verdict {
    const char *status;           /* "OK" or "FIX" */
    const char *setup;            /* "grouped", "sysctl", "root", "ungrouped capability", ... */
    char what[512];               /* what is in place */
    char advice[512];             /* what to change, "" when nothing */
} mp_pmu_verdict;
void mp_pmu_setup_judge(const mp_pmu_setup *s, mp_pmu_verdict *v);

#endif
