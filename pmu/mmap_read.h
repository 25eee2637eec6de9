/* SPDX-License-Identifier: MIT */
/* mmap_read.h - the seqlock reader of a perf_event_mmap_page, following
 * the comments in linux/perf_event.h: take the lock sequence, read index,
 * offset and times, read the hardware counter (index - 1) when the page
 * says user space may, sign-extend it from pmc_width with signed shifts,
 * and retry while the kernel changed the page underneath.  Inline so the
 * hot path (counters.c) gets the real rdpmc/mrs without a call; rdpmc.c
 * wraps it with injectable counter reads for the tests. */
#ifndef MP_PMU_MMAP_READ_H
#define MP_PMU_MMAP_READ_H

#include <stdint.h>
#include <linux/perf_event.h>

#include "pmu.h"

static inline int mp__mmap_read(const volatile struct perf_event_mmap_page *pc,
                                mp_pmu_rdpmc_fn rd, mp_pmu_cycles_fn cycfn, void *ctx,
                                mp_pmu_mmap_reading *out)
{
    uint32_t seq, idx;
    uint64_t count, enabled, running, pmc = 0, cyc = 0;
    uint64_t time_offset = 0, time_mult = 0, time_shift = 0, time_cycles = 0, time_mask = 0;
    unsigned width = 0, retries = 0;
    int user_rdpmc, user_time, time_short;

    for (;;) {
        seq = pc->lock;
        __atomic_thread_fence(__ATOMIC_ACQUIRE); /* barrier() of perf_event.h */
        enabled = pc->time_enabled;
        running = pc->time_running;
        user_time = pc->cap_user_time;
        time_short = pc->cap_user_time_short;
        if (user_time && cycfn) {
            cyc = cycfn(ctx);
            time_offset = pc->time_offset;
            time_mult = pc->time_mult;
            time_shift = pc->time_shift;
            if (time_short) {
                time_cycles = pc->time_cycles;
                time_mask = pc->time_mask;
            }
        }
        idx = pc->index;
        count = pc->offset;
        user_rdpmc = pc->cap_user_rdpmc;
        if (user_rdpmc && idx) {
            width = pc->pmc_width;
            pmc = rd(idx - 1, ctx);
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (pc->lock == seq) break;
        retries++;
    }

    out->index = idx;
    out->retries = retries;
    if (!user_rdpmc || !idx || width == 0 || width > 64)
        return 1;
    /* Sign-extend the width-bit counter value: signed shifts. */
    pmc <<= 64 - width;
    count += (uint64_t)((int64_t)pmc >> (64 - width));
    out->count = count;

    if (user_time && cycfn) {
        uint64_t quot, rem, delta;
        if (time_short)
            cyc = time_cycles + ((cyc - time_cycles) & time_mask);
        quot = time_shift < 64 ? cyc >> time_shift : 0;
        rem = time_shift < 64 ? cyc & (((uint64_t)1 << time_shift) - 1) : cyc;
        delta = time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
        enabled += delta;
        running += delta; /* idx != 0: the counter is running now */
    }
    out->enabled_ns = enabled;
    out->running_ns = running;
    return 0;
}

#endif
