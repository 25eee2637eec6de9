/* SPDX-License-Identifier: MIT */
/* test_backend_optional.c - a backend the kernel may lack (io_uring,
 * epoll-pwait2): exits 77 with the reason where open() says the host has
 * no such API; otherwise it must report exactly the ready fd in a set of
 * 500 pipes, over several wakeups.  usage: test_backend_optional NAME */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "run/fdset.h"

static const char *name;

static void test_ready_fd(void **state)
{
    (void)state;
    const mp_backend_ops *b = mp_backend_find(name);
    assert_non_null(b);
    mp_peer peer;
    mp_err e;
    assert_int_equal(mp_peer_start(&peer, &e), 0);
    mp_fdset set;
    assert_int_equal(mp_fdset_create(&set, MP_FD_PIPE, 500, 250, 1, &peer, &e), 0);
    void *st;
    assert_int_equal(b->open(&st, 500, &e), 0);
    for (int i = 0; i < 500; i++)
        assert_int_equal(b->add(st, set.fds[i], &e), 0);
    for (int round = 0; round < 5; round++) {
        assert_int_equal(b->wait(st, 0), 0);
        assert_int_equal(mp_fdset_poke(&set), 0);
        int n = b->wait(st, 1000), got[4];
        if (n != 1)
            fail_msg("%s round %d: wait returned %d, expected 1", name, round, n);
        int k = b->collect(st, got, 4);
        if (k != 1 || got[0] != set.fds[250])
            fail_msg("%s round %d: reported fd %d, expected %d", name, round, k ? got[0] : -1,
                     set.fds[250]);
        assert_int_equal(mp_fdset_drain(&set), 0);
    }
    b->close(st);
    mp_fdset_destroy(&set, &peer);
    mp_peer_stop(&peer);
}

int main(int argc, char **argv)
{
    if (argc != 2 || !mp_backend_find(argv[1])) {
        fprintf(stderr, "usage: test_backend_optional BACKEND\n");
        return 2;
    }
    name = argv[1];
    void *st;
    mp_err e;
    int rc = mp_backend_find(name)->open(&st, 8, &e);
    if (rc == -ENOSYS || rc == -EOPNOTSUPP || rc == -EPERM) {
        printf("SKIP: %s is not available on this host: %s\n", name, e.msg);
        return 77;
    }
    if (rc == 0)
        mp_backend_find(name)->close(st);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_ready_fd)};
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
