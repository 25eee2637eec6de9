/* SPDX-License-Identifier: MIT */
/* clock.h - the clock every sample is measured with: CLOCK_MONOTONIC,
 * consistent across CPUs, so a poker's write and a waiter's return on two
 * cores can be subtracted.  clock_gettime() reads it in user space (vDSO)
 * only when the clocksource allows; run/context.h names which. */
#ifndef MP_CLOCK_H
#define MP_CLOCK_H

#include <stdint.h>
#include <time.h>


static inline uint64_t mp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
