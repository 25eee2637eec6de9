/* SPDX-License-Identifier: MIT */
/* profile.c - the live sampler of `muxprof run --profile`: one sampling
 * event for the calling thread, its mmap ring buffer read by muxprof.
 *
 * Event: cycles when the CPU PMU offers them (period 100,000 cycles), else
 * the cpu-clock software event (period 50 us of the thread's on-CPU time:
 * 2,000 samples take 100 ms of CPU; shorter periods distort the profile
 * in a VM, see docs/profile.md).  Samples carry the IP, pid/tid, the time
 * on CLOCK_MONOTONIC (use_clockid: the clock the calls are bracketed with)
 * and the kernel callchain (up to 32 frames; user chains are excluded, the
 * report wants kernel attribution only).  With the calls' windows given to
 * the drain, a sample taken outside every call (the harness between
 * calls) is counted and dropped, so shares are of the calls' samples.  Kernel samples need
 * perf_event_paranoid <= 1 or CAP_PERFMON/CAP_SYS_ADMIN; when refused the
 * event is reopened user-only and the profile says so.
 *
 * Ring protocol (linux/perf_event.h, "perf_event_mmap_page"): the kernel
 * writes records and then publishes data_head; the reader loads data_head
 * with acquire ordering (the smp_rmb() the header asks for), reads the
 * records, and stores data_tail with release ordering (the smp_mb()
 * before the store) so the kernel never overwrites unread bytes.  In this
 * non-overwrite mode a full ring drops samples and reports how many in a
 * PERF_RECORD_LOST record; the caller drains between blocks of calls so
 * that stays rare, and the count goes into the profile.
 */
#include "profile.h"
#include "pmu.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ringbuf.h"

#define CPU_CLOCK_PERIOD_NS 50000ull
#define CYCLES_PERIOD 100000ull
#define MAX_STACK 32

struct mp_profile {
    int fd;
    void *map;
    size_t map_len;
    unsigned char *data;
    uint64_t data_size;
    uint64_t tail;
    uint64_t sample_type;
    int timed;            /* samples carry CLOCK_MONOTONIC times */
    const uint64_t *span; /* the calls' windows while a drain runs, else NULL */
    size_t nspan;
    int windows_used;     /* some drain kept only the calls' samples (needs timed) */
    uint64_t outside;     /* samples outside every call window (dropped) */
    const char *event;
    uint64_t period;
    int user_only;
    char note[512];
    mp_profile_agg *agg;
    mp_rb_stats st;
    const mp_ksyms *k;
};

static int open_event(int cycles, int user_only, int timed)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    if (cycles) {
        a.type = PERF_TYPE_HARDWARE;
        a.config = PERF_COUNT_HW_CPU_CYCLES;
        a.sample_period = CYCLES_PERIOD;
    } else {
        a.type = PERF_TYPE_SOFTWARE;
        a.config = PERF_COUNT_SW_CPU_CLOCK;
        a.sample_period = CPU_CLOCK_PERIOD_NS;
    }
    a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
    if (timed) {
        /* Sample times on the clock the calls are bracketed with. */
        a.sample_type |= PERF_SAMPLE_TIME;
        a.use_clockid = 1;
        a.clockid = CLOCK_MONOTONIC;
    }
    a.disabled = 1;
    a.exclude_hv = 1;
    a.exclude_kernel = (unsigned)user_only;
    a.exclude_callchain_user = 1;
    a.sample_max_stack = MAX_STACK;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static int no_such_event(int e)
{
    return e == -ENOENT || e == -ENODEV || e == -EOPNOTSUPP || e == -ENXIO || e == -EINVAL;
}

int mp_profile_in_window(const uint64_t *span, size_t n, uint64_t t)
{
    size_t lo = 0, hi = n;   /* first window whose end is >= t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (span[2 * mid + 1] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && span[2 * lo] <= t;
}

static void on_sample(const mp_rb_sample *s, void *ctx)
{
    mp_profile *p = ctx;
    if (p->span && !mp_profile_in_window(p->span, p->nspan, s->time)) {
        p->outside++;
        return;
    }
    int user = (s->misc & MP_RB_MISC_CPUMODE_MASK) == MP_RB_MISC_USER;
    mp_profile_agg_add(p->agg, user, s->ip, s->chain, (size_t)s->nchain);
}

int mp_profile_open(mp_profile **out, const mp_ksyms *k, const mp_phases *ph, mp_err *err)
{
    static const struct { int cycles, user_only; } tries[] = {{1, 0}, {0, 0}, {1, 1}, {0, 1}};
    int fd = -1, first_err = 0, kernel_err = 0;
    size_t t;
    *out = NULL;
    int timed = 0;
    for (t = 0; t < sizeof tries / sizeof tries[0]; t++) {
        timed = 1;
        fd = open_event(tries[t].cycles, tries[t].user_only, timed);
        if (fd == -EINVAL) {
            /* Refused with sample times on CLOCK_MONOTONIC, perhaps for
             * another reason: take the event without them (no windows, and
             * the profile says so) only if it then opens. */
            int plain = open_event(tries[t].cycles, tries[t].user_only, 0);
            if (plain >= 0) {
                fd = plain;
                timed = 0;
            }
        }
        if (fd >= 0)
            break;
        if (!first_err)
            first_err = fd;
        if (!tries[t].user_only && (fd == -EACCES || fd == -EPERM))
            kernel_err = fd;
        if (!no_such_event(fd) && fd != -EACCES && fd != -EPERM)
            break;
    }
    if (fd < 0)
        return mp_errf(err, fd, "cannot open a sampling event for this thread: %s%s",
                       strerror(-fd), fd == -ENOSYS ? " (no perf_event_open: kernel built "
                       "without perf events, or running under qemu-user)" : fd == -EACCES ||
                       fd == -EPERM ? " (needs CAP_PERFMON or kernel.perf_event_paranoid <= 1: "
                       MP_PMU_GRANT_HINT ")" : "");
    mp_profile *p = calloc(1, sizeof *p);
    if (!p) {
        close(fd);
        return mp_errf(err, -ENOMEM, "out of memory");
    }
    p->fd = fd;
    p->k = k;
    p->event = tries[t].cycles ? "cycles" : "cpu-clock";
    p->period = tries[t].cycles ? CYCLES_PERIOD : CPU_CLOCK_PERIOD_NS;
    p->user_only = tries[t].user_only;
    p->sample_type = MP_RB_SAMPLE_IP | MP_RB_SAMPLE_TID | MP_RB_SAMPLE_CALLCHAIN;
    p->timed = timed;
    if (timed)
        p->sample_type |= MP_RB_SAMPLE_TIME;
    if (p->user_only)
        snprintf(p->note, sizeof p->note, "kernel samples refused (%s): user time only; "
                 "%s", strerror(-kernel_err), MP_PMU_GRANT_HINT);

    long page = sysconf(_SC_PAGESIZE);
    for (size_t pages = 256; pages >= 8; pages /= 4) {
        p->map_len = (size_t)page * (pages + 1);
        p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p->map != MAP_FAILED)
            break;
        p->map = NULL;
    }
    if (!p->map) {
        int e = errno;
        close(fd);
        free(p);
        return mp_errf(err, -e, "cannot map the sampling ring buffer: %s (perf_event_mlock_kb "
                       "limits unprivileged users)", strerror(e));
    }
    struct perf_event_mmap_page *meta = p->map;
    uint64_t off = meta->data_offset ? meta->data_offset : (uint64_t)page;
    p->data_size = meta->data_size ? meta->data_size : p->map_len - (size_t)page;
    p->data = (unsigned char *)p->map + off;
    p->tail = __atomic_load_n(&meta->data_tail, __ATOMIC_RELAXED);
    p->agg = mp_profile_agg_new(k, ph);
    if (!p->agg) {
        mp_profile_close(p);
        return mp_errf(err, -ENOMEM, "out of memory");
    }
    *out = p;
    return 0;
}

int mp_profile_enable(mp_profile *p)
{
    return ioctl(p->fd, PERF_EVENT_IOC_ENABLE, 0) < 0 ? -errno : 0;
}

int mp_profile_disable(mp_profile *p)
{
    return ioctl(p->fd, PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0;
}

void mp_profile_drain_calls(mp_profile *p, const uint64_t *span, size_t n)
{
    struct perf_event_mmap_page *meta = p->map;
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    p->span = p->timed ? span : NULL;
    p->nspan = n;
    if (p->span)
        p->windows_used = 1;
    p->tail = mp_rb_parse(p->data, p->data_size, p->tail, head, p->sample_type, on_sample, p,
                          &p->st);
    p->span = NULL;
    __atomic_store_n(&meta->data_tail, p->tail, __ATOMIC_RELEASE);
}

void mp_profile_drain(mp_profile *p)
{
    mp_profile_drain_calls(p, NULL, 0);
}

int mp_profile_windowed(const mp_profile *p)
{
    return p->timed;
}

uint64_t mp_profile_samples(const mp_profile *p)
{
    return mp_profile_agg_samples(p->agg);
}

void mp_profile_finish(mp_profile *p, mp_profile_info *info)
{
    /* Samples still in the ring were taken after the last windowed drain:
     * with windows in use they lie outside every call. */
    static const uint64_t none[2];
    mp_profile_drain_calls(p, p->windows_used ? none : NULL, 0);
    *info = (mp_profile_info){
        .event = p->event, .period = p->period,
        .scope = p->user_only ? "user" : "user+kernel", .note = p->note[0] ? p->note : NULL,
        .lost = p->st.lost, .truncated = p->st.truncated, .throttled = p->st.throttled,
        .windowed = p->windows_used, .outside = p->outside,
    };
}

const mp_profile_agg *mp_profile_aggregate(const mp_profile *p)
{
    return p->agg;
}

void mp_profile_close(mp_profile *p)
{
    if (!p)
        return;
    if (p->map)
        munmap(p->map, p->map_len);
    if (p->fd >= 0)
        close(p->fd);
    mp_profile_agg_free(p->agg);
    free(p);
}
