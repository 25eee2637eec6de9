/* SPDX-License-Identifier: MIT */
/* counters.c - one pass of counters for the calling thread: open its groups
 * with perf_event_open (pid 0, any CPU; a CPU-wide group with pid -1 on the
 * CPU the thread is pinned to, pmu/cpuwide.c), map each core counter's page for
 * the rdpmc / mrs fast path, read every counter (hot path: seqlock reads
 * with read() per group as the fallback), and per-call deltas that refuse
 * a sample in which some group did not run the whole time (never scaled). */
#include "internal.h"
#include "mmap_read.h"
#include "rdpmc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MP__USER_READ_NAME
#define MP__USER_READ_NAME "read()"
#endif

#define RF (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

typedef struct mp__gopen {
    int fd[MP_PMU_MAX_COUNTERS];      /* fd[0] is the leader */
    const char *access[MP_PMU_MAX_COUNTERS]; /* how each member is read (arm64) */
    void *page[MP_PMU_MAX_COUNTERS];  /* mapped perf_event_mmap_page, or NULL */
    unsigned n, slot;                 /* members; first index in mp_pmu_snap.value */
    int user;                         /* 1: read with rdpmc / mrs */
} mp__gopen;

struct mp_pmu_pass {
    unsigned n, ngroups;
    const char *name[MP_PMU_MAX_COUNTERS];
    const char *scope[MP_PMU_MAX_COUNTERS];
    const char *unit[MP_PMU_MAX_COUNTERS];
    mp__gopen g[MP_PMU_MAX_GROUPS];
    const char *read_path;
    const char *access[MP_PMU_MAX_COUNTERS];
    long page_size;
};

#if defined(__aarch64__)
/* arm64 config1 of the armv8_pmuv3 driver: bit 0 asks for a 64-bit counter,
 * bit 1 for user access (mrs).  A user-readable counter must not be
 * chained, so a 64-bit one exists only as the cycle counter or on a PMU
 * with 64-bit event counters (PMUv3p5); other PMUs refuse bit 0 with
 * EOPNOTSUPP.  Learnt once per process: -1 unknown, 0 no, 1 yes. */
static int arm_long_events = -1;

static int is_cpu_cycles(const struct perf_event_attr *a)
{
    if (a->type == PERF_TYPE_HARDWARE)
        return a->config == PERF_COUNT_HW_CPU_CYCLES;
    return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_HW_CACHE &&
           (a->config & 0xffff) == 0x11;   /* CPU_CYCLES, architected number */
}

/* Open one counter for mrs reads: 64-bit where the PMU allows, else a
 * 32-bit counter (mrs reads it and the page's pmc_width says 32), else
 * (*user = 0) a plain counter read with read().  *access says which. */
static int open_user_arm(struct perf_event_attr *a, int group_fd, int *user,
                         const char **access)
{
    int cyc = is_cpu_cycles(a), fd;
    uint64_t base = a->config1 & ~(uint64_t)0x3;
    if (cyc || arm_long_events != 0) {
        a->config1 = base | 0x3;
        fd = mp__perf_open(a, group_fd);
        if (fd >= 0) {
            if (!cyc) arm_long_events = 1;
            *access = cyc ? "mrs, 64-bit cycle counter" : "mrs, 64-bit counter";
            return fd;
        }
        if (fd != -EOPNOTSUPP) return fd;
        if (!cyc) arm_long_events = 0;
    }
    a->config1 = base | 0x2;
    fd = mp__perf_open(a, group_fd);
    if (fd >= 0) {
        *access = "mrs, 32-bit counter (the PMU refused a 64-bit one: EOPNOTSUPP)";
        return fd;
    }
    if (fd != -EOPNOTSUPP && fd != -EINVAL) return fd;
    a->config1 = base;
    fd = mp__perf_open(a, group_fd);
    if (fd >= 0) {
        *user = 0;
        *access = "read() (the PMU refused user access)";
    }
    return fd;
}
#endif

int mp__perf_open(struct perf_event_attr *attr, int group_fd)
{
    long fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

int mp__perf_open_cpu(struct perf_event_attr *attr, int cpu, int group_fd)
{
    long fd = syscall(SYS_perf_event_open, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

/* The CPU a CPU-wide group opens on: the one the calling (measured) thread
 * is pinned to, with the privilege checked again now.  -1 with why. */
static int cpu_wide_cpu(char *why, size_t n)
{
    mp_pmu_host h;
    int cpu = mp__pinned_cpu(why, n);
    if (cpu < 0) return -1;
    mp_pmu_host_probe(&h);
    return mp_pmu_cpu_wide_allowed(&h, why, n) ? cpu : -1;
}

static void close_group(mp__gopen *g, long page_size)
{
    for (unsigned i = 0; i < g->n; i++) {
        if (g->page[i]) munmap(g->page[i], (size_t)page_size);
        if (g->fd[i] >= 0) close(g->fd[i]);
    }
    g->n = 0;
}

void mp_pmu_pass_close(mp_pmu_pass *p)
{
    if (!p) return;
    for (unsigned gi = 0; gi < p->ngroups; gi++) {
        if (p->g[gi].n && p->g[gi].fd[0] >= 0)
            ioctl(p->g[gi].fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
        close_group(&p->g[gi], p->page_size);
    }
    free(p);
}

static int want_user_read(const mp_pmu_plan *plan, const mp__group *gd)
{
#if MP__HAVE_USER_READ
    if (gd->kind != MP__KIND_CORE) return 0;
    if (getenv("MUXPROF_PMU_READ") && !strcmp(getenv("MUXPROF_PMU_READ"), "read")) return 0;
#if defined(__aarch64__)
    return plan->host.perf_user_access == 1;
#else
    return plan->host.rdpmc_sysfs != 0;
#endif
#else
    (void)plan; (void)gd;
    return 0;
#endif
}

int mp_pmu_pass_open(mp_pmu_pass **out, const mp_pmu_plan *plan, unsigned pass, mp_err *err)
{
    mp_pmu_pass *p;
    const mp__passdef *pd;
    unsigned users = 0, reads = 0;

    *out = NULL;
    if (!plan || pass >= plan->npasses)
        return mp_errf(err, -EINVAL, "counter pass %u does not exist (the plan has %u)",
                       pass, plan ? plan->npasses : 0);
    pd = &plan->pass[pass];
    p = calloc(1, sizeof *p);
    if (!p) return mp_errf(err, -ENOMEM, "out of memory opening counters");
    p->page_size = sysconf(_SC_PAGESIZE);
    for (unsigned gi = 0; gi < pd->ngroups; gi++) {
        const mp__group *gd = &pd->g[gi];
        mp__gopen *g = &p->g[gi];
        int user = want_user_read(plan, gd), cpu = -1;
        p->ngroups = gi + 1;
        if (gd->cpu_wide) {
            char why[400];
            if ((cpu = cpu_wide_cpu(why, sizeof why)) < 0) {
                const char *name = plan->ev[gd->ev[0]].name;
                mp_pmu_pass_close(p);
                return mp_errf(err, -EPERM, "counter %s (pass %u) is CPU-wide and was not "
                               "opened: %s", name, pass, why);
            }
            user = 0;
        }
        g->slot = p->n;
        for (unsigned k = 0; k < MP_PMU_MAX_COUNTERS; k++) g->fd[k] = -1;
        for (unsigned k = 0; k < gd->nev; k++) {
            const mp__event *ev = &plan->ev[gd->ev[k]];
            struct perf_event_attr a = ev->attr;
            int fd;
            if (gd->cpu_wide) {
                char why[320];
                if (mp__cpu_wide_attr(ev, cpu, &a, why, sizeof why)) {
                    mp_pmu_pass_close(p);
                    return mp_errf(err, -EINVAL, "counter %s (pass %u): %s", ev->name,
                                   pass, why);
                }
            }
            a.read_format = RF;
            a.disabled = k == 0;
            a.inherit = 0;
            g->access[k] = user ? MP__USER_READ_NAME : "read()";
            if (gd->cpu_wide) {
                g->access[k] = "read() of its own CPU-wide group on the waiter's CPU";
                fd = mp__perf_open_cpu(&a, cpu, k == 0 ? -1 : g->fd[0]);
            } else
#if defined(__aarch64__)
            if (user)
                fd = open_user_arm(&a, k == 0 ? -1 : g->fd[0], &user, &g->access[k]);
            else
#endif
                fd = mp__perf_open(&a, k == 0 ? -1 : g->fd[0]);
            if (fd < 0) {
                char why[320];
                mp_pmu_classify(-fd, &plan->host, ev->kind != MP__KIND_SOFTWARE,
                                !a.exclude_kernel, why, sizeof why);
                mp_pmu_pass_close(p);
                return mp_errf(err, fd, "opening counter %s (pass %u, group %u): %s",
                               ev->name, pass, gi, why);
            }
            g->fd[k] = fd;
            g->n = k + 1;
            p->access[p->n] = g->access[k];
            p->scope[p->n] = mp__event_scope(ev);
            p->unit[p->n] = mp__event_unit(ev);
            p->name[p->n++] = ev->name;
            if (user) {
                void *pg = mmap(NULL, (size_t)p->page_size, PROT_READ, MAP_SHARED, fd, 0);
                if (pg == MAP_FAILED) user = 0;
                else g->page[k] = pg;
            }
        }
        g->user = user;
    }
    for (unsigned gi = 0; gi < p->ngroups; gi++) {
        ioctl(p->g[gi].fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
        if (ioctl(p->g[gi].fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0) {
            int e = -errno;
            mp_pmu_pass_close(p);
            return mp_errf(err, e, "enabling counter group %u of pass %u failed: %s", gi,
                           pass, strerror(-e));
        }
        /* The kernel says per page whether user space may read the counter. */
        if (p->g[gi].user) {
            for (unsigned k = 0; k < p->g[gi].n; k++) {
                const struct perf_event_mmap_page *pc = p->g[gi].page[k];
                /* cap_user_time too: the times of a user-space snapshot must be
                 * complete so they compare with a read() snapshot's. */
                if (!pc || !pc->cap_user_rdpmc || !pc->cap_user_time) p->g[gi].user = 0;
            }
        }
        if (p->g[gi].user) {
            users++;
        } else {
            reads++;
            for (unsigned k = 0; k < p->g[gi].n; k++)
                if (strncmp(p->g[gi].access[k], "read()", 6))
                    p->access[p->g[gi].slot + k] = "read() (its group is not user-readable)";
        }
    }
#if MP__HAVE_USER_READ
    p->read_path = users && reads ? MP__USER_READ_NAME "+read" : users ? MP__USER_READ_NAME
                                                                        : "read";
#else
    p->read_path = "read";
#endif
    *out = p;
    return 0;
}

unsigned mp_pmu_pass_count(const mp_pmu_pass *p) { return p ? p->n : 0; }
const char *mp_pmu_pass_name(const mp_pmu_pass *p, unsigned i)
{
    return p && i < p->n ? p->name[i] : NULL;
}
const char *mp_pmu_pass_scope(const mp_pmu_pass *p, unsigned i)
{
    return p && i < p->n ? p->scope[i] : "none";
}
const char *mp_pmu_pass_unit(const mp_pmu_pass *p, unsigned i)
{
    return p && i < p->n ? p->unit[i] : "events";
}
const char *mp_pmu_pass_read_path(const mp_pmu_pass *p) { return p ? p->read_path : "none"; }
const char *mp_pmu_pass_access(const mp_pmu_pass *p, unsigned i)
{
    return p && i < p->n ? p->access[i] : NULL;
}

/* read() of a whole group: {nr, time_enabled, time_running, value[nr]}. */
static int read_group(const mp__gopen *g, unsigned gi, mp_pmu_snap *s)
{
    uint64_t buf[3 + MP_PMU_MAX_COUNTERS];
    ssize_t want = (ssize_t)((3 + g->n) * sizeof(uint64_t));
    ssize_t got = read(g->fd[0], buf, (size_t)want);
    if (got != want) return got < 0 ? -errno : -EIO;
    s->enabled_ns[gi] = buf[1];
    s->running_ns[gi] = buf[2];
    for (unsigned k = 0; k < g->n && k < buf[0]; k++) s->value[g->slot + k] = buf[3 + k];
    return 0;
}

int mp_pmu_pass_read(mp_pmu_pass *p, mp_pmu_snap *s)
{
    s->ok = 0;
    for (unsigned gi = 0; gi < p->ngroups; gi++) {
        const mp__gopen *g = &p->g[gi];
#if MP__HAVE_USER_READ
        if (g->user) {
            unsigned k;
            for (k = 0; k < g->n; k++) {
                mp_pmu_mmap_reading rd;
                if (mp__mmap_read(g->page[k], mp__hw_counter, mp__hw_cycles, NULL, &rd))
                    break; /* not on a counter now: read() the group */
                s->value[g->slot + k] = rd.count;
                if (k == 0) {
                    s->enabled_ns[gi] = rd.enabled_ns;
                    s->running_ns[gi] = rd.running_ns;
                }
            }
            if (k == g->n) continue;
        }
#endif
        {
            int r = read_group(g, gi, s);
            if (r) return r;   /* s->ok stays 0: no delta is taken from it */
        }
    }
    s->ok = 1;
    return 0;
}

int mp_pmu_pass_delta(const mp_pmu_pass *p, const mp_pmu_snap *a, const mp_pmu_snap *b,
                      int64_t *out)
{
    int refused = !a->ok || !b->ok;   /* a failed read (a group in error state) */
    for (unsigned gi = 0; gi < p->ngroups; gi++) {
        uint64_t de = b->enabled_ns[gi] - a->enabled_ns[gi];
        uint64_t dr = b->running_ns[gi] - a->running_ns[gi];
        /* Multiplexed for part of the window, or never on the counters in
         * it (an oversized group opens and then never runs): not a count. */
        if (de != dr || dr == 0) refused = 1;
    }
    for (unsigned i = 0; i < p->n; i++) out[i] = (int64_t)(b->value[i] - a->value[i]);
    return refused;
}
