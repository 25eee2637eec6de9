/* SPDX-License-Identifier: MIT */
/* rdpmc.c - user-space counter reads: the x86 rdpmc instruction, the arm64
 * mrs of PMEVCNTR<n>_EL0 / PMCCNTR_EL0 (the register is part of the
 * instruction, hence a table of functions), the cycle counters behind
 * cap_user_time, and the test entry point of the seqlock reader. */
#include "internal.h"
#include "mmap_read.h"
#include "rdpmc.h"

int mp_pmu_mmap_read(const void *page, mp_pmu_rdpmc_fn rd, mp_pmu_cycles_fn cyc,
                     void *ctx, mp_pmu_mmap_reading *out)
{
    return mp__mmap_read((const volatile struct perf_event_mmap_page *)page, rd, cyc,
                         ctx, out);
}

#if defined(__aarch64__)
#define MP__EVCNTR(n) \
    static uint64_t evcntr##n(void) { uint64_t v; \
        __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); return v; }
MP__EVCNTR(0) MP__EVCNTR(1) MP__EVCNTR(2) MP__EVCNTR(3) MP__EVCNTR(4)
MP__EVCNTR(5) MP__EVCNTR(6) MP__EVCNTR(7) MP__EVCNTR(8) MP__EVCNTR(9)
MP__EVCNTR(10) MP__EVCNTR(11) MP__EVCNTR(12) MP__EVCNTR(13) MP__EVCNTR(14)
MP__EVCNTR(15) MP__EVCNTR(16) MP__EVCNTR(17) MP__EVCNTR(18) MP__EVCNTR(19)
MP__EVCNTR(20) MP__EVCNTR(21) MP__EVCNTR(22) MP__EVCNTR(23) MP__EVCNTR(24)
MP__EVCNTR(25) MP__EVCNTR(26) MP__EVCNTR(27) MP__EVCNTR(28) MP__EVCNTR(29)
MP__EVCNTR(30)
static uint64_t ccntr(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
    return v;
}
static uint64_t (*const evcntr[32])(void) = {
    evcntr0, evcntr1, evcntr2, evcntr3, evcntr4, evcntr5, evcntr6, evcntr7,
    evcntr8, evcntr9, evcntr10, evcntr11, evcntr12, evcntr13, evcntr14, evcntr15,
    evcntr16, evcntr17, evcntr18, evcntr19, evcntr20, evcntr21, evcntr22, evcntr23,
    evcntr24, evcntr25, evcntr26, evcntr27, evcntr28, evcntr29, evcntr30, ccntr,
};

uint64_t mp__hw_counter(unsigned counter, void *ctx)
{
    (void)ctx;
    __asm__ volatile("isb" ::: "memory");
    return counter < 32 ? evcntr[counter]() : 0;
}

uint64_t mp__hw_cycles(void *ctx)
{
    uint64_t v;
    (void)ctx;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
    return v;
}
#elif defined(__x86_64__) || defined(__i386__)
uint64_t mp__hw_counter(unsigned counter, void *ctx)
{
    uint32_t lo, hi;
    (void)ctx;
    __asm__ volatile("lfence\n\trdpmc\n\tlfence" : "=a"(lo), "=d"(hi) : "c"(counter)
                     : "memory");
    return ((uint64_t)hi << 32) | lo;
}

uint64_t mp__hw_cycles(void *ctx)
{
    uint32_t lo, hi;
    (void)ctx;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#endif
