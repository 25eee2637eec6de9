/* SPDX-License-Identifier: MIT */
/* test_epoll_enospc.c - epoll_ctl ADD failing with ENOSPC (the per-user
 * watch limit) gives a message that names fs.epoll.max_user_watches, its
 * value and a value to raise it to; another errno keeps the plain message.
 * epoll_ctl is replaced in this program: the backend's call reaches the
 * definition below, which fails with the errno the test asks for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends/backend.h"

static int fail_errno;   /* 0: the real system call */

int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
    if (fail_errno) {
        errno = fail_errno;
        return -1;
    }
    return (int)syscall(SYS_epoll_ctl, epfd, op, fd, ev);
}

static int add_with(int e, mp_err *err)
{
    const mp_backend_ops *b = mp_backend_find("epoll");
    assert_non_null(b);
    void *st = NULL;
    assert_int_equal(b->open(&st, 64, err), 0);
    int fd = eventfd(0, EFD_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(b->add(st, fd, err), 0);   /* the real call */
    fail_errno = e;
    int rc = b->add(st, fd, err);
    fail_errno = 0;
    b->close(st);
    close(fd);
    return rc;
}

static void enospc_names_the_sysctl(void **state)
{
    (void)state;
    mp_err err;
    mp_err_clear(&err);
    assert_int_equal(add_with(ENOSPC, &err), -ENOSPC);
    assert_non_null(strstr(err.msg, "fs.epoll.max_user_watches"));
    assert_non_null(strstr(err.msg, "sysctl -w fs.epoll.max_user_watches="));
    long long cur;
    FILE *f = fopen("/proc/sys/fs/epoll/max_user_watches", "r");
    if (f && fscanf(f, "%lld", &cur) == 1) {
        char want[96];
        snprintf(want, sizeof want, "(%lld); raise it as root (sysctl -w "
                 "fs.epoll.max_user_watches=%lld)", cur, cur + 64);
        assert_non_null(strstr(err.msg, want));
    }
    if (f)
        fclose(f);
}

static void other_errno_plain(void **state)
{
    (void)state;
    mp_err err;
    mp_err_clear(&err);
    assert_int_equal(add_with(EPERM, &err), -EPERM);
    assert_non_null(strstr(err.msg, strerror(EPERM)));
    assert_null(strstr(err.msg, "max_user_watches"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enospc_names_the_sysctl),
        cmocka_unit_test(other_errno_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
