/* SPDX-License-Identifier: MIT */
/* test_poker.c - the poker's wake delay (mp_sample_wakeup with delay_ns):
 * every kept sample's write came no earlier than the delay after the
 * poker saw the waiter asleep, and no earlier than the delay after the
 * waiter armed (the waiter's own clock, span[]), and the delay is a lower
 * bound only: these are times both processes recorded on CLOCK_MONOTONIC,
 * not a benchmark.  Delay 0 keeps the write as soon as the waiter sleeps.
 * And the poker's own counters: in a counted block it opens the same pass
 * of the plan on itself and reads it around each write (skipped where
 * perf_event_open refuses software counters). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "run/fdset.h"
#include "run/peer.h"
#include "run/poker.h"
#include "run/sample.h"

#define N 20

static void sample_with_delay(uint64_t delay_ns, size_t *kept)
{
    const mp_backend_ops *b = mp_backend_find("epoll");
    assert_non_null(b);
    mp_peer peer;
    mp_err e;
    assert_int_equal(mp_peer_start(&peer, &e), 0);
    mp_fdset set;
    assert_int_equal(mp_fdset_create(&set, MP_FD_PIPE, 10, 9, 1, &peer, &e), 0);
    void *st;
    assert_int_equal(b->open(&st, 10, &e), 0);
    for (int i = 0; i < 10; i++)
        assert_int_equal(b->add(st, set.fds[i], &e), 0);
    mp_poker *poker;
    assert_int_equal(mp_poker_start(&poker, -1, NULL, NULL, NULL, &e), 0);
    double wall[N], waiter[N], asleep[N];
    uint64_t span[2 * N];
    mp_block blk = {.wall_ns = wall, .waiter_ns = waiter, .span = span, .asleep_ns = asleep};
    int rc = mp_sample_wakeup(b, st, &set, poker, delay_ns, 0, N, NULL, &blk, &e);
    if (rc < 0)
        fail_msg("mp_sample_wakeup: %s", e.msg);
    for (size_t i = 0; i < blk.kept; i++) {
        double t0 = (double)span[2 * i + 1] - wall[i];   /* the poker's clock read */
        if (asleep[i] < (double)delay_ns)
            fail_msg("sample %zu: written %.0f ns after the waiter was seen asleep; the delay "
                     "is %llu ns", i, asleep[i], (unsigned long long)delay_ns);
        if (t0 - (double)span[2 * i] < (double)delay_ns)
            fail_msg("sample %zu: written %.0f ns after the waiter armed; the delay is %llu ns",
                     i, t0 - (double)span[2 * i], (unsigned long long)delay_ns);
        assert_true(asleep[i] >= 0);
    }
    *kept = blk.kept;
    mp_poker_stop(poker);
    b->close(st);
    mp_fdset_destroy(&set, &peer);
    mp_peer_stop(&peer);
}

static void delay_is_honoured(void **state)
{
    (void)state;
    size_t kept;
    sample_with_delay(2000000, &kept);   /* 2 ms: long enough to be slept */
    assert_true(kept > 0);
    sample_with_delay(50000, &kept);     /* 50 us: spun */
    assert_true(kept > 0);
}

static void no_delay(void **state)
{
    (void)state;
    size_t kept;
    sample_with_delay(0, &kept);
    assert_true(kept > 0);
}

static void poker_counts_its_write(void **state)
{
    (void)state;
    mp_err e;
    mp_pmu_plan *plan;
    assert_int_equal(mp_pmu_plan_new(&plan, "task-clock", &e), 0);
    mp_pmu_pass *pass;
    if (mp_pmu_pass_open(&pass, plan, 0, &e) < 0) {
        mp_pmu_plan_free(plan);
        skip();   /* no software counters here */
    }
    unsigned nc = mp_pmu_pass_count(pass);
    const mp_backend_ops *b = mp_backend_find("epoll");
    mp_peer peer;
    assert_int_equal(mp_peer_start(&peer, &e), 0);
    mp_fdset set;
    assert_int_equal(mp_fdset_create(&set, MP_FD_PIPE, 10, 9, 1, &peer, &e), 0);
    void *st;
    assert_int_equal(b->open(&st, 10, &e), 0);
    for (int i = 0; i < 10; i++)
        assert_int_equal(b->add(st, set.fds[i], &e), 0);
    mp_poker *poker;
    assert_int_equal(mp_poker_start(&poker, -1, NULL, NULL, plan, &e), 0);
    int64_t d[N * MP_PMU_MAX_COUNTERS], pd[N * MP_PMU_MAX_COUNTERS];
    mp_block blk = {.counters = d, .poker_counters = pd};
    poker->count_pass = 0;
    if (mp_sample_wakeup(b, st, &set, poker, 0, 0, N, pass, &blk, &e) < 0)
        fail_msg("mp_sample_wakeup: %s", e.msg);
    assert_int_equal(poker->pg->count_rc, 0);
    assert_int_equal(poker->pg->count_n, (int)nc);
    assert_true(blk.kept > 0);
    unsigned tc = nc;
    for (unsigned k = 0; k < nc; k++)
        if (!strcmp(mp_pmu_pass_name(pass, k), "task-clock"))
            tc = k;
    assert_true(tc < nc);
    assert_true(poker->pg->count_bracket[tc] >= 0);
    for (size_t i = 0; i < blk.kept; i++)   /* a write takes the poker some task time */
        if (pd[i * nc + tc] != INT64_MIN && pd[i * nc + tc] <= 0)
            fail_msg("sample %zu: the poker's task-clock around its write is %lld", i,
                     (long long)pd[i * nc + tc]);
    mp_poker_stop(poker);
    b->close(st);
    mp_fdset_destroy(&set, &peer);
    mp_peer_stop(&peer);
    mp_pmu_pass_close(pass);
    mp_pmu_plan_free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(delay_is_honoured),
        cmocka_unit_test(no_delay),
        cmocka_unit_test(poker_counts_its_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
