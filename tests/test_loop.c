/* SPDX-License-Identifier: MIT */
/* test_loop.c - `muxprof loop` end to end: right answers for every
 * ready-mode backend and position, exactly K more calls for K more asked
 * (counted by strace, a second method), one-line usage errors with exit 2,
 * and no helper process left behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/backend.h"
#include "test_util.h"

/* Run `muxprof loop ARGS`; exit status, and stderr's first line in line. */
static int loop(const char *args, char *line, size_t len)
{
    char cmd[512], err[64];
    snprintf(err, sizeof err, "/tmp/mp-loop-err-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "%s loop %s >/dev/null 2>%s", MP_TEST_BIN, args, err);
    int st = system(cmd);
    if (line) {
        line[0] = 0;
        FILE *f = fopen(err, "r");
        if (f) {
            if (!fgets(line, (int)len, f))
                line[0] = 0;
            fclose(f);
        }
    }
    unlink(err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_answers(void **state)
{
    (void)state;
    static const char *backends[] = {"select", "poll", "epoll", "ppoll"};
    static const char *pos[] = {"first", "middle", "last"};
    char args[256], line[512];
    for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++)
        for (size_t p = 0; p < sizeof pos / sizeof pos[0]; p++) {
            snprintf(args, sizeof args, "--backend %s --fds 50 --calls 200 --ready-pos %s",
                     backends[b], pos[p]);
            int rc = loop(args, line, sizeof line);
            if (rc != 0 || !strstr(line, "answer right"))
                fail_msg("loop %s: exit %d: %s", args, rc, line);
        }
    assert_int_equal(loop("--backend poll --fds 20 --calls 10 --fd-kind socketpair", line,
                          sizeof line), 0);
    assert_int_equal(loop("--backend epoll --fds 20 --calls 10 --fd-kind eventfd --quiet", line,
                          sizeof line), 0);
    assert_string_equal(line, "");
    assert_int_equal(loop("--backend poll --fds 20 --calls 10 --cpu 0", line, sizeof line), 0);
}

/* System calls named `call` that the loop process itself makes (strace -c). */
static long count_calls(const char *backend, const char *call, long k)
{
    char out[64], cmd[2048], buf[256];
    snprintf(out, sizeof out, "/tmp/mp-loop-strace-%d", (int)getpid());
    /* LeakSanitizer cannot run under ptrace: in a sanitizer build it would abort the
     * traced program at exit, so leak checking is off for this one child. */
    const char *asan = getenv("ASAN_OPTIONS");
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS='%s%sdetect_leaks=0' strace -qq -c -o %s -e "
             "trace=%s %s loop --backend %s --fds 100 --calls %ld --quiet",
             asan ? asan : "", asan && *asan ? ":" : "", out, call, MP_TEST_BIN, backend, k);
    if (system(cmd) != 0)
        fail_msg("%s failed", cmd);
    FILE *f = fopen(out, "r");
    assert_non_null(f);
    long n = -1;
    while (fgets(buf, sizeof buf, f)) {
        char name[64];
        long calls;
        double pct, secs, usecs;
        if (sscanf(buf, "%lf %lf %lf %ld %63s", &pct, &secs, &usecs, &calls, name) == 5 &&
            !strcmp(name, call))
            n = calls;
        else if (sscanf(buf, "%lf %lf %lf %ld %*d %63s", &pct, &secs, &usecs, &calls, name) == 5
                 && !strcmp(name, call))
            n = calls;
    }
    fclose(f);
    unlink(out);
    if (n < 0)
        fail_msg("strace counted no %s call of the %s loop", call, backend);
    return n;
}

static void test_k_calls(void **state)
{
    (void)state;
#ifdef MP_TEST_EMULATED
    printf("SKIP part: strace would count the emulator's system calls, not the program's\n");
    return;
#endif
    if (system("strace -V >/dev/null 2>&1") != 0) {
        printf("SKIP part: strace is not installed (apt-get install strace)\n");
        return;
    }
    /* The system call each backend makes on this arch (arm64 has no poll
     * or epoll_wait: ppoll, epoll_pwait). */
    const char *pc = mp_backend_syscall(mp_backend_find("poll"));
    const char *ew = mp_backend_syscall(mp_backend_find("epoll"));
    /* K more calls asked for, exactly K more made: setup and exit cancel. */
    assert_int_equal(count_calls("poll", pc, 600) - count_calls("poll", pc, 300), 300);
    assert_int_equal(count_calls("epoll", ew, 600) - count_calls("epoll", ew, 300), 300);
    /* and at least K: setup may poll too (bounded waits on the helper) */
    assert_true(count_calls("poll", pc, 1000) >= 1000);
}

static void test_usage(void **state)
{
    (void)state;
    static const struct {
        const char *args, *says;
    } bad[] = {
        {"--fds 10", "--backend is required"},
        {"--backend poll", "--fds is required"},
        {"--backend nope --fds 10", "unknown backend 'nope'"},
        {"--backend poll --fds 10 --calls 0", "--calls: 0 is out of range"},
        {"--backend poll --fds x", "--fds: 'x' is not a whole number"},
        {"--backend poll --fds 10 --ready-pos top", "unknown position 'top'"},
        {"--backend poll --fds 10 --fd-kind fifo", "unknown kind 'fifo'"},
        {"--backend epoll-et --fds 10", "cannot run ready-mode calls"},
        {"--backend select --fds 1100", "FD_SETSIZE"},
        {"--backend poll --fds 10 --bogus", "unknown option '--bogus'"},
        {"--backend poll --fds 10 extra", "unexpected argument 'extra'"},
    };
    char line[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = loop(bad[i].args, line, sizeof line);
        if (rc != 2 || !strstr(line, bad[i].says) || strncmp(line, "muxprof loop: ", 14))
            fail_msg("loop %s: exit %d, said '%s'; expected 2 and '%s'", bad[i].args, rc, line,
                     bad[i].says);
    }
    assert_int_equal(loop("--help", NULL, 0), 0);
}

static void test_no_helper_left(void **state)
{
    (void)state;
    char line[512];
    /* A CPU the process may not use (a usage error found after the helper started). */
    assert_int_equal(loop("--backend poll --fds 137 --calls 5 --cpu 1023", line, sizeof line),
                     2);
    assert_non_null(strstr(line, "--cpu 1023"));
    assert_int_equal(loop("--backend poll --fds 137 --calls 5", line, sizeof line), 0);
    assert_int_equal(mp_test_procs_mentioning("loop --backend poll --fds 137 "), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answers),
        cmocka_unit_test(test_k_calls),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_no_helper_left),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
