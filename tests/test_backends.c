/* SPDX-License-Identifier: MIT */
/* test_backends.c - every backend, on every fd kind, reports exactly the
 * ready fd (first, middle, last), and nothing while no fd is ready;
 * select refuses fds >= FD_SETSIZE without touching FD_SET; the process
 * holds N plus a small constant descriptors while a set exists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>

#include "backends/backend.h"
#include "run/fdset.h"
#include "test_util.h"

static mp_peer peer;

static int setup(void **state)
{
    (void)state;
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    mp_err e;
    return mp_peer_start(&peer, &e);
}

static int teardown(void **state)
{
    (void)state;
    mp_peer_stop(&peer);
    return 0;
}

static void check_one(const mp_backend_ops *b, mp_fd_kind kind, int n, int ready_idx)
{
    mp_fdset set;
    mp_err e;
    void *st;
    if (mp_fdset_create(&set, kind, n, ready_idx, 1, &peer, &e) < 0)
        fail_msg("%s: %s", mp_fd_kind_name(kind), e.msg);
    int orc = b->open(&st, n, &e);
    if (orc == -ENOSYS || orc == -EOPNOTSUPP || orc == -EPERM) {
        /* The host lacks this API: test_backend_optional reports it as a skip. */
        mp_fdset_destroy(&set, &peer);
        return;
    }
    if (orc < 0)
        fail_msg("%s open: %s", b->name, e.msg);
    for (int i = 0; i < n; i++)
        if (b->add(st, set.fds[i], &e) < 0)
            fail_msg("%s add: %s", b->name, e.msg);

    int r = b->wait(st, 0);
    if (r != 0)
        fail_msg("%s/%s n=%d: %d fds reported before any was ready", b->name,
                 mp_fd_kind_name(kind), n, r);
    assert_int_equal(mp_fdset_poke(&set), 0);
    r = b->wait(st, 1000);
    int got[8], k = r > 0 ? b->collect(st, got, 8) : 0;
    if (r != 1 || k != 1 || got[0] != set.fds[ready_idx])
        fail_msg("%s/%s n=%d ready_idx=%d: wait %d, collect %d, fd %d, want fd %d", b->name,
                 mp_fd_kind_name(kind), n, ready_idx, r, k, k ? got[0] : -1,
                 set.fds[ready_idx]);
    assert_int_equal(mp_fdset_drain(&set), 0);
    assert_int_equal(mp_fdset_drain(&set), -EAGAIN);
    /* Drained: nothing is ready any more (ET: also nothing, no new edge). */
    r = b->wait(st, 0);
    if (r != 0)
        fail_msg("%s/%s: %d fds reported after draining", b->name, mp_fd_kind_name(kind), r);
    b->close(st);
    mp_fdset_destroy(&set, &peer);
}

static void test_every_backend_every_kind(void **state)
{
    (void)state;
    for (int k = MP_FD_PIPE; k <= MP_FD_EVENTFD; k++)
        for (size_t b = 0; mp_backends[b]; b++) {
            check_one(mp_backends[b], (mp_fd_kind)k, 1, 0);
            check_one(mp_backends[b], (mp_fd_kind)k, 300, 0);
            check_one(mp_backends[b], (mp_fd_kind)k, 300, 150);
            check_one(mp_backends[b], (mp_fd_kind)k, 300, 299);
        }
}

/* K of N ready at once: every backend that supports ready mode reports
 * exactly the K active fds, for K = 1, 7 and 64 of 200, at each position. */
static void test_k_of_n(void **state)
{
    (void)state;
    for (size_t b = 0; mp_backends[b]; b++) {
        const mp_backend_ops *ops = mp_backends[b];
        if (ops->unsupported_mode && ops->unsupported_mode("ready"))
            continue;
        mp_fdset set;
        mp_err e;
        void *st;
        if (mp_fdset_create(&set, MP_FD_PIPE, 200, 100, 64, &peer, &e) < 0)
            fail_msg("%s", e.msg);
        if (ops->open(&st, 200, &e) < 0) {
            mp_fdset_destroy(&set, &peer);
            continue;
        }
        for (int i = 0; i < 200; i++)
            assert_int_equal(ops->add(st, set.fds[i], &e), 0);
        const int ks[] = {1, 7, 64};
        for (int ki = 0; ki < 3; ki++)
            for (int off = 0; off <= 64 - ks[ki]; off += 64 - ks[ki] > 0 ? 64 - ks[ki] : 1) {
                mp_fdset_activate(&set, ks[ki], off);
                assert_int_equal(mp_fdset_poke(&set), 0);
                int n = ops->wait(st, 0), got[80];
                int k = n > 0 ? ops->collect(st, got, 80) : 0;
                if (n != ks[ki] || k != ks[ki])
                    fail_msg("%s K=%d off=%d: wait %d collect %d", ops->name, ks[ki], off, n, k);
                for (int i = 0; i < k; i++)
                    if (!mp_fdset_is_active(&set, got[i]))
                        fail_msg("%s K=%d: fd %d reported, not active", ops->name, ks[ki],
                                 got[i]);
                /* an fd outside the active run is not active */
                assert_false(mp_fdset_is_active(&set, set.fds[0]));
                assert_int_equal(mp_fdset_drain(&set), 0);
                assert_int_equal(ops->wait(st, 0), 0);
                if (64 - ks[ki] == 0)
                    break;
            }
        ops->close(st);
        mp_fdset_destroy(&set, &peer);
    }
}

static void test_select_fd_setsize(void **state)
{
    (void)state;
    const mp_backend_ops *sel = mp_backend_find("select");
    char buf[256];
    assert_null(sel->unsupported_fds(3, FD_SETSIZE - 1, buf, sizeof buf));
    const char *why = sel->unsupported_fds(3, FD_SETSIZE, buf, sizeof buf);
    assert_non_null(why);
    assert_non_null(strstr(why, "fd 1024"));
    assert_non_null(strstr(why, "FD_SETSIZE 1024"));
    /* add() refuses too; with _FORTIFY_SOURCE an FD_SET here would abort. */
    void *st;
    mp_err e;
    assert_int_equal(sel->open(&st, 4, &e), 0);
    assert_int_equal(sel->add(st, FD_SETSIZE, &e), -EINVAL);
    assert_non_null(strstr(e.msg, "fd 1024"));
    assert_int_equal(sel->add(st, 100000, &e), -EINVAL);
    assert_int_equal(sel->add(st, -1, &e), -EINVAL);
    sel->close(st);
}

static void test_descriptor_census(void **state)
{
    (void)state;
    int before = mp_test_open_fds();
    for (int k = MP_FD_PIPE; k <= MP_FD_EVENTFD; k++) {
        mp_fdset set;
        mp_err e;
        int n = 2000;
        if (mp_fdset_create(&set, (mp_fd_kind)k, n, n - 1, 1, &peer, &e) < 0)
            fail_msg("%s: %s", mp_fd_kind_name((mp_fd_kind)k), e.msg);
        int during = mp_test_open_fds();
        /* n watched + the one poke end */
        if (during - before > n + 1 || during - before < n)
            fail_msg("%s: %d descriptors open with %d watched (before: %d)",
                     mp_fd_kind_name((mp_fd_kind)k), during, n, before);
        /* Dense numbering: select's cliff depends on numbers. */
        if (set.fd_hi - set.fd_lo + 1 > n + 8)
            fail_msg("%s: watched fds span %d..%d for %d fds", mp_fd_kind_name((mp_fd_kind)k),
                     set.fd_lo, set.fd_hi, n);
        mp_fdset_destroy(&set, &peer);
        assert_int_equal(mp_test_open_fds(), before);
    }
}

/* The system call behind each backend on this architecture. */
static void syscall_per_arch(void **state)
{
    (void)state;
#if defined(__aarch64__)
    assert_string_equal(mp_backend_syscall(mp_backend_find("poll")), "ppoll");
    assert_string_equal(mp_backend_syscall(mp_backend_find("select")), "pselect6");
    assert_string_equal(mp_backend_syscall(mp_backend_find("epoll")), "epoll_pwait");
    assert_string_equal(mp_backend_syscall(mp_backend_find("epoll-et")), "epoll_pwait");
#elif defined(__x86_64__)
    assert_string_equal(mp_backend_syscall(mp_backend_find("poll")), "poll");
    assert_string_equal(mp_backend_syscall(mp_backend_find("select")), "select");
    assert_string_equal(mp_backend_syscall(mp_backend_find("epoll")), "epoll_wait");
#endif
    assert_string_equal(mp_backend_syscall(mp_backend_find("ppoll")), "ppoll");
    for (size_t i = 0; mp_backends[i]; i++)
        assert_string_not_equal(mp_backend_syscall(mp_backends[i]), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_backend_every_kind),
        cmocka_unit_test(test_k_of_n),
        cmocka_unit_test(test_select_fd_setsize),
        cmocka_unit_test(test_descriptor_census),
        cmocka_unit_test(syscall_per_arch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
