/* clock.h - the clock every sample is measured with: CLOCK_MONOTONIC read
 * through the vDSO (no system call), consistent across CPUs, so a poker's
 * write and a waiter's return on two cores can be subtracted. */
#ifndef MP_CLOCK_H
#define MP_CLOCK_H

#include <stdint.h>
#include <time.h>

#define MP_CLOCK_NAME "CLOCK_MONOTONIC via vDSO clock_gettime()"

static inline uint64_t mp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
