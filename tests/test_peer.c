/* SPDX-License-Identifier: MIT */
/* test_peer.c - the descriptor helper: descriptors go over and are released;
 * a helper that never answers (stuck in its fork, stopped later) fails the
 * call within the timeout with a message naming it and is killed, never
 * waited for; a helper never outlives its parent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "run/peer.h"

#define SHORT_MS 300

static volatile sig_atomic_t hang_in_fork;

/* Runs in every child of fork() before fork returns there: a child stuck
 * here is a child stuck in the C library's fork code. */
static void child_hook(void)
{
    if (hang_in_fork) {
        sleep(20);   /* bounded even when nobody kills it */
        _exit(1);
    }
}

static int no_children_left(void)
{
    return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static void test_round_trip(void **state)
{
    (void)state;
    mp_peer p;
    mp_err e;
    int pfd[2];
    mp_err_clear(&e);
    assert_int_equal(mp_peer_start(&p, &e), 0);
    assert_true(p.pid > 0);
    assert_int_equal(pipe(pfd), 0);
    assert_int_equal(mp_peer_give(&p, pfd, 2, &e), 0);
    close(pfd[0]);
    close(pfd[1]);
    assert_int_equal(mp_peer_release(&p, &e), 0);
    char how[64];
    assert_int_equal(mp_peer_alive(&p, how, sizeof how), 1);
    mp_peer_stop(&p);
    assert_int_equal(p.pid, 0);
    assert_true(no_children_left());
}

static void test_stuck_in_fork(void **state)
{
    (void)state;
    mp_peer p;
    mp_err e;
    mp_err_clear(&e);
    mp_peer_set_timeout_ms(SHORT_MS);
    hang_in_fork = 1;
    alarm(10);   /* the old code waited forever: fail, do not hang */
    uint64_t t0 = mp_now_ns();
    int rc = mp_peer_start(&p, &e);
    uint64_t dt = mp_now_ns() - t0;
    alarm(0);
    hang_in_fork = 0;
    mp_peer_set_timeout_ms(0);
    assert_true(rc < 0);
    assert_non_null(strstr(e.msg, "descriptor helper (pid "));
    assert_non_null(strstr(e.msg, "did not answer"));
    assert_true(dt >= (uint64_t)SHORT_MS * 1000000u);
    assert_true(dt < 5000000000u);
    assert_true(no_children_left());   /* killed and reaped */
}

static void test_stopped_helper(void **state)
{
    (void)state;
    mp_peer p;
    mp_err e;
    mp_err_clear(&e);
    assert_int_equal(mp_peer_start(&p, &e), 0);
    mp_peer_set_timeout_ms(SHORT_MS);
    assert_int_equal(kill(p.pid, SIGSTOP), 0);
    char want[64];
    snprintf(want, sizeof want, "descriptor helper (pid %d)", (int)p.pid);
    alarm(10);
    uint64_t t0 = mp_now_ns();
    assert_true(mp_peer_release(&p, &e) < 0);
    assert_non_null(strstr(e.msg, want));
    /* given up on: dead from now on, and said so; later calls fail at once */
    char how[64];
    assert_int_equal(mp_peer_alive(&p, how, sizeof how), 0);
    assert_non_null(strstr(how, "no answer within"));
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    uint64_t t1 = mp_now_ns();
    assert_true(mp_peer_give(&p, fds, 2, &e) < 0);
    assert_true(mp_now_ns() - t1 < (uint64_t)SHORT_MS * 1000000u);
    close(fds[0]);
    close(fds[1]);
    mp_peer_stop(&p);
    uint64_t dt = mp_now_ns() - t0;
    alarm(0);
    mp_peer_set_timeout_ms(0);
    assert_true(dt < 5000000000u);
    assert_int_equal(p.pid, 0);
    assert_true(no_children_left());
}

/* A SIGKILLed parent takes its helper with it, even a helper that is stuck. */
static void test_parent_death(void **state)
{
    (void)state;
    int pfd[2];
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {   /* orphans come to us */
        print_message("SKIP: PR_SET_CHILD_SUBREAPER refused (%s), as qemu-user does\n",
                      strerror(errno));
        skip();
    }
    assert_int_equal(pipe(pfd), 0);
    pid_t mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        mp_peer p;
        mp_err e;
        if (mp_peer_start(&p, &e) < 0)
            _exit(1);
        if (write(pfd[1], &p.pid, sizeof p.pid) != (ssize_t)sizeof p.pid)
            _exit(1);
        for (;;)
            pause();
    }
    pid_t helper = 0;
    close(pfd[1]);
    assert_int_equal(read(pfd[0], &helper, sizeof helper), (ssize_t)sizeof helper);
    close(pfd[0]);
    /* Stopped, the helper cannot see its socket close: only its death
     * signal can end it. */
    assert_int_equal(kill(helper, SIGSTOP), 0);
    assert_int_equal(kill(mid, SIGKILL), 0);
    assert_int_equal(waitpid(mid, NULL, 0), mid);
    int st = 0;
    pid_t r = 0;
    for (int i = 0; i < 5000 && (r = waitpid(helper, &st, WNOHANG)) == 0; i++)
        usleep(1000);
    if (r == 0)
        kill(helper, SIGKILL);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    assert_int_equal(r, helper);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

int main(void)
{
    pthread_atfork(NULL, NULL, child_hook);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_stuck_in_fork),
        cmocka_unit_test(test_stopped_helper),
        cmocka_unit_test(test_parent_death),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
