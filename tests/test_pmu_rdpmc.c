/* SPDX-License-Identifier: MIT */
/* test_pmu_rdpmc.c - the mmap-page seqlock reader against a simulated
 * struct perf_event_mmap_page: offset added, index 0 sends the caller to
 * read(), pmc_width 40 and 48 sign extension, cap_user_time completion of
 * the times, and a lock change under the reader forcing a retry. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include "pmu/pmu.h"

typedef struct fake {
    struct perf_event_mmap_page *pc;
    uint64_t raw;         /* what the counter register holds */
    unsigned calls;       /* rdpmc calls */
    unsigned last_counter;
    int bump_lock;        /* > 0: change the page under the reader this many times */
    int64_t new_offset;   /* offset the "kernel" writes when it bumps */
    uint64_t cycles;
} fake;

static uint64_t fake_rdpmc(unsigned counter, void *ctx)
{
    fake *f = ctx;
    f->calls++;
    f->last_counter = counter;
    if (f->bump_lock > 0) {
        /* The kernel rewrote the page while we were reading it. */
        f->bump_lock--;
        f->pc->lock += 2;
        f->pc->offset = f->new_offset;
    }
    return f->raw;
}

static uint64_t fake_cycles(void *ctx) { return ((fake *)ctx)->cycles; }

static void setup_page(struct perf_event_mmap_page *pc, uint32_t index, int64_t offset,
                       uint16_t width)
{
    memset(pc, 0, sizeof *pc);
    pc->lock = 4;
    pc->index = index;
    pc->offset = offset;
    pc->cap_user_rdpmc = 1;
    pc->pmc_width = width;
    pc->time_enabled = 1000;
    pc->time_running = 900;
}

static void offset_added(void **state)
{
    struct perf_event_mmap_page pc;
    fake f = {.pc = &pc, .raw = 500};
    mp_pmu_mmap_reading r;
    (void)state;
    setup_page(&pc, 3, 10000, 48);
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal(r.count, 10500);
    assert_int_equal(f.last_counter, 2);  /* index - 1 */
    assert_int_equal(r.index, 3);
    assert_int_equal(r.retries, 0);
    assert_int_equal(r.enabled_ns, 1000); /* no cap_user_time: kernel's values */
    assert_int_equal(r.running_ns, 900);
}

static void index_zero_falls_back(void **state)
{
    struct perf_event_mmap_page pc;
    fake f = {.pc = &pc, .raw = 500};
    mp_pmu_mmap_reading r;
    (void)state;
    setup_page(&pc, 0, 10000, 48);
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 1);
    assert_int_equal(f.calls, 0);       /* rdpmc must not run with index 0 */
    setup_page(&pc, 2, 10000, 48);
    pc.cap_user_rdpmc = 0;
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 1);
    assert_int_equal(f.calls, 0);
}

static void sign_extension(void **state)
{
    struct perf_event_mmap_page pc;
    mp_pmu_mmap_reading r;
    fake f = {.pc = &pc};
    (void)state;
    /* 40-bit counter holding -5 (0xFFFFFFFFFB) with garbage above bit 39. */
    setup_page(&pc, 1, 1000, 40);
    f.raw = 0xABCD00FFFFFFFFFBull;
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal(r.count, 995);
    /* Same raw bits as a positive 40-bit value once bit 39 is clear. */
    f.raw = 0x0000007FFFFFFFFFull;
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal(r.count, 1000 + 0x7FFFFFFFFFull);
    /* 48-bit: -1 is 0xFFFFFFFFFFFF; a 40-bit reading would be wrong. */
    setup_page(&pc, 1, 1000, 48);
    f.raw = 0xFFFFFFFFFFFFull;
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal(r.count, 999);
    f.raw = 0x0000FF0000000000ull; /* bit 47 set: negative in 48 bits */
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal((int64_t)r.count, 1000 - 0x10000000000ll);
    /* The offset is typically negative (the kernel's start value). */
    setup_page(&pc, 1, -(int64_t)0x800000000000ll + 7, 48);
    f.raw = 0x800000000000ull; /* -2^47 + 2^47 = 0 in 48 bits after extension */
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal((int64_t)r.count, -(int64_t)0x800000000000ll * 2 + 7);
}

static void lock_change_retries(void **state)
{
    struct perf_event_mmap_page pc;
    fake f = {.pc = &pc, .raw = 50, .bump_lock = 1, .new_offset = 20000};
    mp_pmu_mmap_reading r;
    (void)state;
    setup_page(&pc, 2, 10000, 48);
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal(r.retries, 1);
    assert_int_equal(f.calls, 2);
    assert_int_equal(r.count, 20050); /* the value after the update, never a mix */
    f.bump_lock = 3;
    f.new_offset = 30000;
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, NULL, &f, &r), 0);
    assert_int_equal(r.retries, 3);
    assert_int_equal(r.count, 30050);
}

static void user_time(void **state)
{
    struct perf_event_mmap_page pc;
    fake f = {.pc = &pc, .raw = 1, .cycles = 3000};
    mp_pmu_mmap_reading r;
    (void)state;
    setup_page(&pc, 1, 0, 48);
    pc.cap_user_time = 1;
    pc.time_shift = 1;    /* ns = cycles * mult >> shift = cycles / 2 */
    pc.time_mult = 1;
    pc.time_offset = (uint64_t)-1000;
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, fake_cycles, &f, &r), 0);
    /* delta = offset + 3000/2 = 500 */
    assert_int_equal(r.enabled_ns, 1500);
    assert_int_equal(r.running_ns, 1400);
    /* cap_user_time_short: cycles are wrapped to time_cycles + masked part. */
    pc.cap_user_time_short = 1;
    pc.time_cycles = 2000;
    pc.time_mask = 0xff;
    f.cycles = 2000 + 0x100 + 0x10; /* wraps to 2000 + 0x10 */
    assert_int_equal(mp_pmu_mmap_read(&pc, fake_rdpmc, fake_cycles, &f, &r), 0);
    assert_int_equal(r.enabled_ns, 1000 + (uint64_t)-1000 + (2000 + 0x10) / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(offset_added),
        cmocka_unit_test(index_zero_falls_back),
        cmocka_unit_test(sign_extension),
        cmocka_unit_test(lock_change_retries),
        cmocka_unit_test(user_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
