/* SPDX-License-Identifier: MIT */
/* test_profile_symbols.c - kernel symbol resolution against fixture
 * kallsyms files, the phase file (the built-in one and hand-written ones),
 * and the phase mapping of fixture profiles: hand-written stacks
 * (wakeup.stacks) and rings recorded on the development VM. */
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
#include "test_profile_util.h"
#include "test_util.h"

static mp_ksyms *load(const char *name)
{
    char path[512];
    mp_err err;
    mp_ksyms *k = NULL;
    snprintf(path, sizeof path, "%s/profile/%s", MP_TEST_FIXTURES, name);
    int rc = mp_ksyms_load(&k, path, &err);
    if (rc < 0)
        fail_msg("%s", err.msg);
    return k;
}

static void test_lookup(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms");
    assert_null(mp_ksyms_hidden(k));
    assert_int_equal(mp_ksyms_count(k), 27);   /* text only: D, b and junk skipped */
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffff81000500, NULL), "do_sys_poll");
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffff810008ff, NULL), "do_sys_poll");
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffff81000900, NULL), "fdget");
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffff81001234, NULL), "ep_item_poll.isra.0");
    /* Two names at one address: the later line wins, consistently. */
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffff81000010, NULL), "_text");
    /* Data symbols do not end a function: the IP stays in the text symbol before. */
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffff81002050, NULL),
                        "some_unclassified_function");
    assert_string_equal(mp_ksyms_lookup(k, 0xffffffffc0001050, NULL), "mod_poll_helper");
    assert_null(mp_ksyms_lookup(k, 0xffffffff80ffffff, NULL));   /* before the first */
    assert_null(mp_ksyms_lookup(k, 0x401000, NULL));              /* a user address */
    assert_null(mp_ksyms_lookup(k, 0xffffffffc0001100 + (2u << 20), NULL));  /* too far */
    size_t i;
    assert_non_null(mp_ksyms_lookup(k, 0xffffffff81000b10, &i));
    assert_string_equal(mp_ksyms_name(k, i), "eventfd_poll");
    uint64_t a;
    assert_int_equal(mp_ksyms_addr(k, "__pollwait", &a), 0);
    assert_int_equal(a, 0xffffffff81000c00);
    assert_int_equal(mp_ksyms_addr(k, "no_such", &a), -ENOENT);
    mp_ksyms_free(k);
}

static void test_hidden(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms-hidden");
    const char *why = mp_ksyms_hidden(k);
    assert_non_null(why);
    assert_non_null(strstr(why, "all zero"));
    assert_non_null(strstr(why, "kptr_restrict"));
    assert_null(mp_ksyms_lookup(k, 0, NULL));
    assert_null(mp_ksyms_lookup(k, 0xffffffff81000500, NULL));
    mp_ksyms_free(k);

    mp_err err;
    assert_true(mp_ksyms_load(&k, MP_TEST_FIXTURES "/profile/no-such-file", &err) < 0);
    assert_non_null(strstr(err.msg, "no-such-file"));
}

static void test_builtin_phases(void **state)
{
    (void)state;
    mp_phases *p;
    mp_err err;
    if (mp_phases_builtin(&p, &err) < 0)
        fail_msg("%s", err.msg);
    static const char *want[] = {"syscall-entry-exit", "copy-in-out", "fd-lookup",
                                 "file-poll", "wait-queue", "sched-sleep-wake",
                                 "epoll-ready-list", "other"};
    assert_int_equal(mp_phases_count(p), 8);
    for (unsigned i = 0; i < 8; i++)
        assert_string_equal(mp_phases_name(p, i), want[i]);
#define PH(fn) mp_phases_name(p, (unsigned)mp_phases_match(p, fn))
    assert_string_equal(PH("fdget"), "fd-lookup");
    assert_string_equal(PH("eventfd_poll"), "file-poll");
    assert_string_equal(PH("do_sys_poll"), "file-poll");
    assert_string_equal(PH("__pollwait"), "wait-queue");
    assert_string_equal(PH("ep_item_poll.isra.0"), "epoll-ready-list");
    assert_string_equal(PH("finish_task_switch.isra.0"), "sched-sleep-wake");
    assert_string_equal(PH("entry_SYSCALL_64_after_hwframe"), "syscall-entry-exit");
    assert_string_equal(PH("__put_user_nocheck_4"), "copy-in-out");
    assert_string_equal(PH("schedule_hrtimeout_range_clock"), "sched-sleep-wake");
    assert_int_equal(mp_phases_match(p, "_raw_spin_lock_irqsave"), MP_PHASE_CALLER);
    assert_int_equal(mp_phases_match(p, "srso_alias_return_thunk"), MP_PHASE_CALLER);
    assert_int_equal(mp_phases_match(p, "handle_softirqs"), -1);
    int fp = mp_phases_match(p, "eventfd_poll");
    assert_string_equal(mp_phases_name(p, (unsigned)mp_phases_match_under(
                            p, "_raw_spin_unlock_irqrestore", fp)), "wait-queue");
    assert_int_equal(mp_phases_match_under(p, "_raw_spin_unlock_irqrestore",
                                           mp_phases_match(p, "__schedule")), -1);
#undef PH
    mp_phases_free(p);
}

static void test_phase_file_rules(void **state)
{
    (void)state;
    mp_phases *p;
    mp_err err;
    const char *text = "# comment\n[other]\nx_*\n[b]\nfoo foo_bar_* # trailing\n"
                       "[a]\nfoo_* foo_bar_baz\n[=caller]\nlock*\n";
    if (mp_phases_parse(&p, text, "t", &err) < 0)
        fail_msg("%s", err.msg);
    /* "other" is moved last; groups keep file order otherwise. */
    assert_int_equal(mp_phases_count(p), 3);
    assert_string_equal(mp_phases_name(p, 0), "b");
    assert_string_equal(mp_phases_name(p, 1), "a");
    assert_string_equal(mp_phases_name(p, 2), "other");
    assert_int_equal(mp_phases_match(p, "foo"), 0);            /* exact */
    assert_int_equal(mp_phases_match(p, "foo_x"), 1);          /* prefix foo_ */
    assert_int_equal(mp_phases_match(p, "foo_bar_x"), 0);      /* longer prefix wins */
    assert_int_equal(mp_phases_match(p, "foo_bar_baz"), 1);    /* exact beats prefix */
    assert_int_equal(mp_phases_match(p, "foo.isra.0"), 0);     /* suffix stripped */
    assert_int_equal(mp_phases_match(p, "x_y"), 2);
    assert_int_equal(mp_phases_match(p, "lock_it"), MP_PHASE_CALLER);
    assert_int_equal(mp_phases_match(p, "bar"), -1);
    mp_phases_free(p);

    /* helper@[phase]: a helper under a caller of that phase goes to the group. */
    if (mp_phases_parse(&p, "[a]\nfoo\n[w]\nlock*@[a]\n[=caller]\nlock*\n", "t", &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(mp_phases_match(p, "lock_x"), MP_PHASE_CALLER);
    assert_string_equal(mp_phases_name(p, (unsigned)mp_phases_match_under(p, "lock_x", 0)),
                        "w");
    assert_int_equal(mp_phases_match_under(p, "lock_x", 1), -1);
    assert_int_equal(mp_phases_match_under(p, "unlock", 0), -1);
    assert_int_equal(mp_phases_match(p, "foo"), 0);
    mp_phases_free(p);
    assert_int_equal(mp_phases_parse(&p, "[a]\nlock@a\n", "t", &err), MP_EUSAGE);
    assert_int_equal(mp_phases_parse(&p, "[=caller]\nlock@[a]\n", "t", &err), MP_EUSAGE);

    assert_int_equal(mp_phases_parse(&p, "foo\n[a]\n", "t", &err), MP_EUSAGE);
    assert_non_null(strstr(err.msg, "t:1"));
    assert_int_equal(mp_phases_parse(&p, "[a]\n*\n", "t", &err), MP_EUSAGE);
    assert_int_equal(mp_phases_parse(&p, "[a\nfoo\n", "t", &err), MP_EUSAGE);
}

/* Feed "COUNT LEAF CALLER..." lines; IPs are symbol + 8, return addresses symbol + 16. */
static void feed_stacks(mp_profile_agg *a, const mp_ksyms *k, const char *path)
{
    char *text = mp_test_slurp(path), *save = NULL;
    assert_non_null(text);
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *s2 = NULL, *w = strtok_r(line, " ", &s2);
        long count = strtol(w, NULL, 10);
        uint64_t chain[16] = {MP_RB_CONTEXT_KERNEL}, ip = 0;
        size_t n = 1;
        int user = 0;
        for (w = strtok_r(NULL, " ", &s2); w; w = strtok_r(NULL, " ", &s2)) {
            uint64_t addr;
            if (!strcmp(w, "[user]")) {
                user = 1;
                ip = 0x401000;
                break;
            }
            if (mp_ksyms_addr(k, w, &addr) < 0)
                fail_msg("%s: no symbol %s in the fixture kallsyms", path, w);
            chain[n] = addr + (n == 1 ? 8 : 16);
            if (n == 1)
                ip = chain[1];
            n++;
        }
        for (long i = 0; i < count; i++)
            mp_profile_agg_add(a, user, ip, chain, n);
    }
    free(text);
}

static void test_fixture_stacks(void **state)
{
    (void)state;
    mp_ksyms *k = load("kallsyms");
    mp_phases *p;
    mp_err err;
    assert_int_equal(mp_phases_builtin(&p, &err), 0);
    mp_profile_agg *a = mp_profile_agg_new(k, p);
    feed_stacks(a, k, MP_TEST_FIXTURES "/profile/wakeup.stacks");
    assert_int_equal(mp_profile_agg_samples(a), 100);
    assert_null(mp_profile_agg_hidden(a));
    assert_int_equal(mp_profile_agg_user(a), 10);
    /* Hand-counted from wakeup.stacks (see the comments there). */
    static const struct { const char *phase; double share; } want[] = {
        {"file-poll", 0.25}, {"fd-lookup", 0.15}, {"wait-queue", 0.20},
        {"epoll-ready-list", 0.06}, {"sched-sleep-wake", 0.11}, {"other", 0.07},
        {"copy-in-out", 0.04}, {"syscall-entry-exit", 0.02},
    };
    double sum = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        double s = tp_phase_share(a, want[i].phase);
        if (fabs(s - want[i].share) > 1e-9)
            fail_msg("phase %s: share %.4f, want %.4f", want[i].phase, s, want[i].share);
        sum += s;
    }
    assert_float_equal(sum + 0.10, 1.0, 1e-9);
    /* Functions by samples, self time: the lock's 21 samples are one
     * function whatever their phases. */
    mp_profile_count f0, f1;
    assert_true(tp_function(a, 0, &f0) && tp_function(a, 1, &f1));
    assert_string_equal(f0.name, "_raw_spin_lock_irqsave");
    assert_int_equal(f0.samples, 21);
    assert_string_equal(f0.phase, "=caller");
    assert_string_equal(f1.name, "eventfd_poll");
    assert_int_equal(f1.samples, 20);
    assert_string_equal(f1.phase, "file-poll");

    /* The same samples with hidden symbols: no functions, no phases, a reason. */
    mp_ksyms *h = load("kallsyms-hidden");
    mp_profile_agg *b = mp_profile_agg_new(h, p);
    mp_profile_agg_add(b, 0, 0xffffffff81000508, NULL, 0);
    mp_profile_agg_add(b, 1, 0x401000, NULL, 0);
    assert_string_equal(mp_profile_agg_hidden(b), mp_ksyms_hidden(h));
    assert_false(tp_function(b, 0, &f0));
    assert_true(isnan(tp_phase_share(b, "other")));
    assert_int_equal(mp_profile_agg_user(b), 1);
    assert_int_equal(mp_profile_agg_samples(b), 2);
    mp_profile_agg_free(b);
    mp_ksyms_free(h);
    mp_profile_agg_free(a);
    mp_phases_free(p);
    mp_ksyms_free(k);
}

typedef struct ring_ctx {
    mp_profile_agg *a;
} ring_ctx;

static void on_sample(const mp_rb_sample *s, void *ctx)
{
    ring_ctx *c = ctx;
    mp_profile_agg_add(c->a, (s->misc & MP_RB_MISC_CPUMODE_MASK) == MP_RB_MISC_USER, s->ip,
                       s->chain, (size_t)s->nchain);
}

/* A recorded ring, mapped with the symbols of the host it was recorded on. */
static mp_profile_agg *profile_of_recording(const char *name, mp_ksyms *k, mp_phases *p)
{
    char path[512];
    snprintf(path, sizeof path, "%s/profile/%s", MP_TEST_FIXTURES, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint64_t ring[1 << 14];   /* 128 KiB */
    size_t len = fread(ring, 1, sizeof ring, f);
    fclose(f);
    ring_ctx c = {mp_profile_agg_new(k, p)};
    mp_rb_stats st = {0};
    mp_rb_parse(ring, sizeof ring, 0, len, MP_RB_SAMPLE_IP | MP_RB_SAMPLE_TID |
                MP_RB_SAMPLE_CALLCHAIN, on_sample, &c, &st);
    return c.a;
}

static void test_recorded_profiles(void **state)
{
    (void)state;
    mp_ksyms *k = load("rec-kallsyms");
    mp_phases *p;
    mp_err err;
    assert_int_equal(mp_phases_builtin(&p, &err), 0);

    /* poll() on 10,000 eventfds, ready mode: the lookup and the poll method dominate. */
    mp_profile_agg *a = profile_of_recording("poll-10k.ring", k, p);
    double look = tp_phase_share(a, "fd-lookup"), fp = tp_phase_share(a, "file-poll");
    double oth = tp_phase_share(a, "other");
    if (!(look > 0.2 && fp > 0.5 && look + fp > 0.85 && oth < 0.05))
        fail_msg("poll 10k: fd-lookup %.3f file-poll %.3f other %.3f", look, fp, oth);
    mp_profile_count f0;
    assert_true(tp_function(a, 0, &f0));
    assert_string_equal(f0.name, "eventfd_poll");
    mp_profile_agg_free(a);

    /* epoll_wait on the same: neither phase carries the call. */
    a = profile_of_recording("epoll-10k.ring", k, p);
    look = tp_phase_share(a, "fd-lookup");
    fp = tp_phase_share(a, "file-poll");
    double er = tp_phase_share(a, "epoll-ready-list");
    double sc = tp_phase_share(a, "syscall-entry-exit");
    if (!(look < 0.2 && fp < 0.2 && er > 0.2 && sc > 0.05))
        fail_msg("epoll 10k: fd-lookup %.3f file-poll %.3f epoll-ready-list %.3f "
                 "syscall %.3f", look, fp, er, sc);
    mp_profile_agg_free(a);
    mp_phases_free(p);
    mp_ksyms_free(k);
}

/* Which sample times fall inside the calls' windows: ends included, gaps
 * and the times before the first and after the last window left out. */
static void test_in_window(void **state)
{
    (void)state;
    static const uint64_t span[] = {100, 200, 300, 300, 1000, 5000};
    assert_int_equal(mp_profile_in_window(span, 0, 150), 0);
    assert_int_equal(mp_profile_in_window(span, 3, 99), 0);
    assert_int_equal(mp_profile_in_window(span, 3, 100), 1);
    assert_int_equal(mp_profile_in_window(span, 3, 200), 1);
    assert_int_equal(mp_profile_in_window(span, 3, 201), 0);
    assert_int_equal(mp_profile_in_window(span, 3, 299), 0);
    assert_int_equal(mp_profile_in_window(span, 3, 300), 1);
    assert_int_equal(mp_profile_in_window(span, 3, 301), 0);
    assert_int_equal(mp_profile_in_window(span, 3, 999), 0);
    assert_int_equal(mp_profile_in_window(span, 3, 3000), 1);
    assert_int_equal(mp_profile_in_window(span, 3, 5000), 1);
    assert_int_equal(mp_profile_in_window(span, 3, 5001), 0);
    assert_int_equal(mp_profile_in_window(span, 2, 3000), 0);   /* n bounds the search */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_window),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_hidden),
        cmocka_unit_test(test_builtin_phases),
        cmocka_unit_test(test_phase_file_rules),
        cmocka_unit_test(test_fixture_stacks),
        cmocka_unit_test(test_recorded_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
