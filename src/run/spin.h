/* SPDX-License-Identifier: MIT */
/* spin.h - one step of a spin-wait between the waiter and the poker:
 * pause, and yield the CPU once spinning has lasted long enough that the
 * other side may be waiting for this CPU (both may share one). */
#ifndef MP_SPIN_H
#define MP_SPIN_H

#include <sched.h>

#define MP_SPINS_BEFORE_YIELD 2000

static inline void mp_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline void mp_spin_step(unsigned *spins)
{
    if (++*spins < MP_SPINS_BEFORE_YIELD)
        mp_cpu_relax();
    else
        sched_yield();
}

#endif
