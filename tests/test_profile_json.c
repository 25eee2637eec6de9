/* SPDX-License-Identifier: MIT */
/* test_profile_json.c - a cell's "profile" object from hand-built
 * aggregates, byte for byte: every optional key, the top-15 cut and its
 * order, an unresolved address, a generic helper, lost and truncated
 * records, no phase file, hidden symbols and no samples; the per-fd and
 * throttle keys, the run's own symbols reason, a sampler that did not open. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/profile.h"
#include "pmu/ringbuf.h"
#include "run/profile_out.h"

static mp_ksyms *load(const char *name)
{
    char path[512];
    mp_err err;
    mp_ksyms *k = NULL;
    snprintf(path, sizeof path, "%s/profile/%s", MP_TEST_FIXTURES, name);
    if (mp_ksyms_load(&k, path, &err) < 0)
        fail_msg("%s", err.msg);
    return k;
}

/* COUNT samples with their IP in function FN (8 bytes in), called from
 * CALLER (NULL: none; a return address 16 bytes in). */
static void feed(mp_profile_agg *a, const mp_ksyms *k, const char *fn, const char *caller,
                 int count)
{
    uint64_t ip, ret = 0;
    if (mp_ksyms_addr(k, fn, &ip) < 0 || (caller && mp_ksyms_addr(k, caller, &ret) < 0))
        fail_msg("no symbol %s or %s in the fixture", fn, caller ? caller : "-");
    uint64_t chain[3] = {MP_RB_CONTEXT_KERNEL, ip + 8, ret + 16};
    for (int i = 0; i < count; i++)
        mp_profile_agg_add(a, 0, ip + 8, chain, caller ? 3 : 2);
}

static void feed_user(mp_profile_agg *a, int count)
{
    for (int i = 0; i < count; i++)
        mp_profile_agg_add(a, 1, 0x401000, NULL, 0);
}

static const char every_key_bytes[] =
    "{\"event\":\"cpu-clock\",\"period\":50000,\"scope\":\"user+kernel\",\"samples\":63,"
    "\"lost\":3,\"truncated\":2,\"calls\":40,\"window\":\"calls\",\"outside_calls\":7,"
    "\"wall_p50_ns\":1234.5,\"on_cpu_ns_per_call\":78750,\"symbols\":\"kallsyms\","
    "\"note\":\"a note on the pass\",\"user_share\":0.0634920634920635,"
    "\"kernel_share\":0.93650793650793651,"
    "\"functions\":[{\"name\":\"_raw_spin_lock_irqsave\",\"share\":0.126984126984127,"
    "\"ns_per_call\":156.76190476190476,\"phase\":\"=caller\"},{\"name\":\"do_sys_poll\","
    "\"share\":0.079365079365079361,\"ns_per_call\":97.976190476190467,"
    "\"phase\":\"file-poll\"},{\"name\":\"poll_freewait\",\"share\":0.079365079365079361,"
    "\"ns_per_call\":97.976190476190467,\"phase\":\"wait-queue\"},{\"name\":\"__schedule\","
    "\"share\":0.079365079365079361,\"ns_per_call\":97.976190476190467,"
    "\"phase\":\"sched-sleep-wake\"},{\"name\":\"__x64_sys_poll\","
    "\"share\":0.0634920634920635,\"ns_per_call\":78.3809523809524,"
    "\"phase\":\"syscall-entry-exit\"},{\"name\":\"__pollwait\","
    "\"share\":0.0634920634920635,\"ns_per_call\":78.3809523809524,"
    "\"phase\":\"wait-queue\"},{\"name\":\"do_epoll_wait\",\"share\":0.0634920634920635,"
    "\"ns_per_call\":78.3809523809524,\"phase\":\"epoll-ready-list\"},"
    "{\"name\":\"x64_sys_call\",\"share\":0.047619047619047616,"
    "\"ns_per_call\":58.785714285714285,\"phase\":\"syscall-entry-exit\"},"
    "{\"name\":\"eventfd_poll\",\"share\":0.047619047619047616,"
    "\"ns_per_call\":58.785714285714285,\"phase\":\"file-poll\"},"
    "{\"name\":\"ep_item_poll.isra.0\",\"share\":0.047619047619047616,"
    "\"ns_per_call\":58.785714285714285,\"phase\":\"epoll-ready-list\"},"
    "{\"name\":\"[unknown kernel address]\",\"share\":0.047619047619047616,"
    "\"ns_per_call\":58.785714285714285,\"phase\":\"other\"},{\"name\":\"do_syscall_64\","
    "\"share\":0.031746031746031744,\"ns_per_call\":39.1904761904762,"
    "\"phase\":\"syscall-entry-exit\"},{\"name\":\"fput\",\"share\":0.031746031746031744,"
    "\"ns_per_call\":39.1904761904762,\"phase\":\"fd-lookup\"},"
    "{\"name\":\"ep_send_events\",\"share\":0.031746031746031744,"
    "\"ns_per_call\":39.1904761904762,\"phase\":\"epoll-ready-list\"},"
    "{\"name\":\"_copy_from_user\",\"share\":0.031746031746031744,"
    "\"ns_per_call\":39.1904761904762,\"phase\":\"copy-in-out\"}],"
    "\"phases\":[{\"phase\":\"syscall-entry-exit\",\"share\":0.15873015873015872,"
    "\"ns_per_call\":195.95238095238093},{\"phase\":\"copy-in-out\","
    "\"share\":0.031746031746031744,\"ns_per_call\":39.1904761904762},"
    "{\"phase\":\"fd-lookup\",\"share\":0.047619047619047616,"
    "\"ns_per_call\":58.785714285714285},{\"phase\":\"file-poll\","
    "\"share\":0.126984126984127,\"ns_per_call\":156.76190476190476},"
    "{\"phase\":\"wait-queue\",\"share\":0.253968253968254,"
    "\"ns_per_call\":313.52380952380952},{\"phase\":\"sched-sleep-wake\","
    "\"share\":0.079365079365079361,\"ns_per_call\":97.976190476190467},"
    "{\"phase\":\"epoll-ready-list\",\"share\":0.14285714285714285,"
    "\"ns_per_call\":176.35714285714286},{\"phase\":\"other\","
    "\"share\":0.095238095238095233,\"ns_per_call\":117.57142857142857}]}";

static const char fewest_keys_bytes[] =
    "{\"event\":\"cycles\",\"scope\":\"user+kernel\",\"samples\":5,\"lost\":0,\"calls\":9,"
    "\"window\":\"blocks\",\"symbols\":\"kallsyms\",\"user_share\":0.2,"
    "\"kernel_share\":0.8,\"functions\":[{\"name\":\"do_sys_poll\",\"share\":0.6,"
    "\"ns_per_call\":null},{\"name\":\"fdget\",\"share\":0.2,\"ns_per_call\":null}],"
    "\"phases\":[]}";

static const char hidden_symbols_bytes[] =
    "{\"event\":\"cpu-clock\",\"period\":50000,\"scope\":\"user+kernel\",\"samples\":3,"
    "\"lost\":1,\"calls\":3,\"window\":\"calls\",\"outside_calls\":0,\"wall_p50_ns\":500,"
    "\"on_cpu_ns_per_call\":50000,\"symbols\":\"hidden: %s\","
    "\"user_share\":0.66666666666666663,\"kernel_share\":0.33333333333333331,"
    "\"functions\":[],\"phases\":[]}";

static const char no_table_bytes[] =
    "{\"event\":\"cpu-clock\",\"period\":50000,\"scope\":\"user+kernel\",\"samples\":1,"
    "\"lost\":1,\"calls\":3,\"window\":\"calls\",\"outside_calls\":0,\"wall_p50_ns\":500,"
    "\"on_cpu_ns_per_call\":16666.666666666668,"
    "\"symbols\":\"hidden: no kernel symbol table\",\"user_share\":0,\"kernel_share\":1,"
    "\"functions\":[],\"phases\":[]}";

static const char no_samples_bytes[] =
    "{\"event\":\"cpu-clock\",\"period\":50000,\"scope\":\"user\",\"samples\":0,\"lost\":5,"
    "\"truncated\":1,\"calls\":0,\"window\":\"calls\",\"outside_calls\":2,"
    "\"wall_p50_ns\":80,\"symbols\":\"kallsyms\",\"note\":\"kernel samples refused\","
    "\"user_share\":null,\"functions\":[],\"phases\":[]}";

static void expect_bytes(const mp_profile_agg *a, const mp_profile_info *in,
                         const mp_profile_cell *cell, const char *want)
{
    cJSON *j = mp_profile_pass_json(a, in, cell);
    char *got = cJSON_PrintUnformatted(j);
    if (strcmp(got, want)) {
        fprintf(stderr, "profile object\n got: %s\nwant: %s\n", got, want);
        fail();
    }
    free(got);
    cJSON_Delete(j);
}

/* Seventeen functions, ties among them, an address no symbol holds, a
 * helper charged to its caller's phase and one charged to "other"; every
 * optional key of a windowed cpu-clock pass. */
static void every_key(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms");
    mp_phases *p;
    mp_err err;
    assert_int_equal(mp_phases_builtin(&p, &err), 0);
    mp_profile_agg *a = mp_profile_agg_new(k, p);
    static const char *const fns[] = {
        "entry_SYSCALL_64", "do_syscall_64", "x64_sys_call", "__x64_sys_poll", "do_sys_poll",
        "fdget", "fput", "eventfd_poll", "__pollwait", "poll_freewait", "remove_wait_queue",
        "ep_send_events", "ep_item_poll.isra.0", "do_epoll_wait", "__schedule",
        "handle_softirqs", "_copy_from_user",
    };
    for (int i = 0; i < 17; i++)
        feed(a, k, fns[i], NULL, 1 + i % 5);
    feed(a, k, "_raw_spin_lock_irqsave", "eventfd_poll", 6);
    feed(a, k, "_raw_spin_lock_irqsave", "some_unclassified_function", 2);
    for (int i = 0; i < 3; i++)
        mp_profile_agg_add(a, 0, 0xffffffff80000000ull, NULL, 0);
    feed_user(a, 4);
    mp_profile_info in = {.event = "cpu-clock", .period = 50000, .lost = 3, .truncated = 2,
                          .scope = "user+kernel", .note = "a note on the pass", .windowed = 1,
                          .outside = 7};
    mp_profile_cell cell = {.calls = 40, .wall_p50_ns = 1234.5};
    expect_bytes(a, &in, &cell, every_key_bytes);
    mp_profile_agg_free(a);
    mp_phases_free(p);
    mp_ksyms_free(k);
}

/* cycles, no period, no sample times, no wall p50, no phase file: the
 * keys that depend on them are left out, ns_per_call is null. */
static void fewest_keys(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms");
    mp_profile_agg *a = mp_profile_agg_new(k, NULL);
    feed(a, k, "do_sys_poll", NULL, 3);
    feed(a, k, "fdget", NULL, 1);
    feed_user(a, 1);
    mp_profile_info in = {.event = "cycles"};
    mp_profile_cell cell = {.calls = 9, .wall_p50_ns = NAN};
    expect_bytes(a, &in, &cell, fewest_keys_bytes);
    mp_profile_agg_free(a);
    mp_ksyms_free(k);
}

/* Addresses hidden, or no symbol table: shares of user and kernel, the
 * reason, no functions, no phases. */
static void hidden_symbols(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms-hidden");
    mp_phases *p;
    mp_err err;
    assert_int_equal(mp_phases_builtin(&p, &err), 0);
    mp_profile_agg *a = mp_profile_agg_new(k, p);
    mp_profile_agg_add(a, 0, 0xffffffff81000508ull, NULL, 0);
    feed_user(a, 2);
    mp_profile_info in = {.event = "cpu-clock", .period = 50000, .lost = 1,
                          .scope = "user+kernel", .windowed = 1};
    mp_profile_cell cell = {.calls = 3, .wall_p50_ns = 500};
    char want[2048];
    snprintf(want, sizeof want, hidden_symbols_bytes, mp_ksyms_hidden(k));
    expect_bytes(a, &in, &cell, want);
    mp_profile_agg_free(a);
    /* No table at all: said so. */
    a = mp_profile_agg_new(NULL, p);
    mp_profile_agg_add(a, 0, 0xffffffff81000508ull, NULL, 0);
    expect_bytes(a, &in, &cell, no_table_bytes);
    mp_profile_agg_free(a);
    mp_phases_free(p);
    mp_ksyms_free(k);
}

/* No sample: user_share null, empty lists; a user-only pass with a note. */
static void no_samples(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms");
    mp_phases *p;
    mp_err err;
    assert_int_equal(mp_phases_builtin(&p, &err), 0);
    mp_profile_agg *a = mp_profile_agg_new(k, p);
    mp_profile_info in = {.event = "cpu-clock", .period = 50000, .lost = 5, .truncated = 1,
                          .scope = "user", .note = "kernel samples refused", .windowed = 1,
                          .outside = 2};
    mp_profile_cell cell = {.calls = 0, .wall_p50_ns = 80};
    expect_bytes(a, &in, &cell, no_samples_bytes);
    mp_profile_agg_free(a);
    mp_phases_free(p);
    mp_ksyms_free(k);
}

/* What the live pass and the cell add: each phase's ns per descriptor, the
 * throttle count last; the run's own reason when it loaded no symbol
 * table; the object of a sampler that did not open. */
static void pass_and_cell(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms");
    mp_phases *p;
    mp_err err;
    assert_int_equal(mp_phases_builtin(&p, &err), 0);
    mp_profile_agg *a = mp_profile_agg_new(k, p);
    feed(a, k, "do_sys_poll", NULL, 3);
    feed(a, k, "fdget", NULL, 1);
    mp_profile_info in = {.event = "cycles", .period = 100000, .scope = "user+kernel",
                          .throttled = 3};
    mp_profile_cell cell = {.calls = 2, .wall_p50_ns = 100, .nfds = 4};
    expect_bytes(a, &in, &cell,
                 "{\"event\":\"cycles\",\"period\":100000,\"scope\":\"user+kernel\","
                 "\"samples\":4,\"lost\":0,\"calls\":2,\"window\":\"blocks\","
                 "\"wall_p50_ns\":100,\"symbols\":\"kallsyms\",\"user_share\":0,"
                 "\"kernel_share\":1,\"functions\":[{\"name\":\"do_sys_poll\","
                 "\"share\":0.75,\"ns_per_call\":75,\"phase\":\"file-poll\"},"
                 "{\"name\":\"fdget\",\"share\":0.25,\"ns_per_call\":25,"
                 "\"phase\":\"fd-lookup\"}],\"phases\":["
                 "{\"phase\":\"syscall-entry-exit\",\"share\":0,\"ns_per_call\":0,"
                 "\"ns_per_fd\":0},{\"phase\":\"copy-in-out\",\"share\":0,"
                 "\"ns_per_call\":0,\"ns_per_fd\":0},{\"phase\":\"fd-lookup\","
                 "\"share\":0.25,\"ns_per_call\":25,\"ns_per_fd\":6.25},"
                 "{\"phase\":\"file-poll\",\"share\":0.75,\"ns_per_call\":75,"
                 "\"ns_per_fd\":18.75},{\"phase\":\"wait-queue\",\"share\":0,"
                 "\"ns_per_call\":0,\"ns_per_fd\":0},{\"phase\":\"sched-sleep-wake\","
                 "\"share\":0,\"ns_per_call\":0,\"ns_per_fd\":0},"
                 "{\"phase\":\"epoll-ready-list\",\"share\":0,\"ns_per_call\":0,"
                 "\"ns_per_fd\":0},{\"phase\":\"other\",\"share\":0,"
                 "\"ns_per_call\":0,\"ns_per_fd\":0}],\"throttled\":3}");
    mp_profile_agg_free(a);

    a = mp_profile_agg_new(NULL, p);
    mp_profile_agg_add(a, 0, 0xffffffff81000508ull, NULL, 0);
    in = (mp_profile_info){.event = "cpu-clock", .scope = "user+kernel", .windowed = 1};
    cell = (mp_profile_cell){.calls = 1, .wall_p50_ns = 10, .nfds = 4,
                             .no_symbols = "/proc/kallsyms: permission denied"};
    expect_bytes(a, &in, &cell,
                 "{\"event\":\"cpu-clock\",\"scope\":\"user+kernel\",\"samples\":1,"
                 "\"lost\":0,\"calls\":1,\"window\":\"calls\",\"outside_calls\":0,"
                 "\"wall_p50_ns\":10,\"symbols\":\"hidden: /proc/kallsyms: permission "
                 "denied\",\"user_share\":0,\"kernel_share\":1,\"functions\":[],"
                 "\"phases\":[]}");
    mp_profile_agg_free(a);
    mp_phases_free(p);
    mp_ksyms_free(k);

    cJSON *j = mp_profile_unavailable_json("perf_event_open: no such device");
    char *got = cJSON_PrintUnformatted(j);
    assert_string_equal(got, "{\"samples\":0,\"reason\":\"perf_event_open: no such device\"}");
    free(got);
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_key),
        cmocka_unit_test(fewest_keys),
        cmocka_unit_test(hidden_symbols),
        cmocka_unit_test(no_samples),
        cmocka_unit_test(pass_and_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
