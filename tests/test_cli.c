/* SPDX-License-Identifier: MIT */
/* test_cli.c - `muxprof run` option parsing: defaults, lists, and every
 * bad input (unknown names, non-numeric, zero, negative, absurd, duplicate,
 * empty items), each refused with MP_EUSAGE and a message naming it; and
 * through the real binary: exit status 2, one line on stderr, no files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/duration.h"

static int parse(mp_run_config *c, mp_err *e, const char *line)
{
    char buf[1024], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "run %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return mp_cli_parse_run(argc, argv, c, e);
}

static void test_defaults(void **state)
{
    (void)state;
    mp_run_config c;
    mp_err e;
    assert_int_equal(parse(&c, &e, ""), 0);
    assert_int_equal(c.nbackends, 3);
    assert_string_equal(c.backends[0]->name, "select");
    assert_string_equal(c.backends[2]->name, "epoll");
    assert_int_equal(c.ncounts, 10);
    assert_int_equal(c.fds[0], 10);
    assert_int_equal(c.fds[9], 10000);
    assert_int_equal(c.nmodes, 2);
    assert_int_equal(c.kinds[0], MP_FD_PIPE);
    assert_int_equal(c.ready_pos, MP_POS_LAST);
    assert_string_equal(c.events, "cache");
    assert_string_equal(c.placement, "auto");
}

static void test_lists_and_quick(void **state)
{
    (void)state;
    mp_run_config c;
    mp_err e;
    assert_int_equal(parse(&c, &e, "--backends epoll-et,poll --fds 500,20 --mode wakeup "
                                   "--fd-kind tcp,eventfd --ready-pos middle --samples 7"), 0);
    assert_int_equal(c.nbackends, 2);
    assert_string_equal(c.backends[0]->name, "epoll-et");
    assert_int_equal(c.fds[0], 20);    /* sorted */
    assert_int_equal(c.fds[1], 500);
    assert_int_equal(c.modes[0], MP_MODE_WAKEUP);
    assert_int_equal(c.nkinds, 2);
    assert_int_equal(c.kinds[1], MP_FD_EVENTFD);
    assert_int_equal(c.samples, 7);
    assert_int_equal(mp_ready_first(c.ready_pos, 9, 1), 4);
    assert_int_equal(mp_ready_first(MP_POS_LAST, 9, 3), 6);
    assert_int_equal(mp_ready_first(MP_POS_FIRST, 9, 3), 0);
    assert_int_equal(c.nactives, 1);
    assert_int_equal(c.actives[0], 1);
    assert_int_equal(parse(&c, &e, "--active 64,1,8"), 0);
    assert_int_equal(c.nactives, 3);
    assert_int_equal(c.actives[2], 64);
    assert_int_equal(parse(&c, &e, "--quick"), 0);
    assert_int_equal(c.ncounts, 3);
    assert_int_equal(c.samples, 100);
    assert_int_equal(parse(&c, &e, "--quick --fds 10 --samples 5"), 0);
    assert_int_equal(c.ncounts, 1);
    assert_int_equal(c.samples, 5);
    assert_int_equal(parse(&c, &e, "--help"), 1);
}

static const struct {
    int line;
    const char *args;
    const char *msg;   /* a part of the message */
} bad[] = {
    {__LINE__, "--backends kqueue", "unknown backend 'kqueue'; expected select, poll"},
    {__LINE__, "--backends poll,poll", "'poll' is given twice"},
    {__LINE__, "--backends poll,,epoll", "empty item"},
    {__LINE__, "--backends ,poll", "empty item"},
    {__LINE__, "--mode sleepy", "unknown mode 'sleepy'; expected ready, wakeup"},
    {__LINE__, "--mode ready,ready", "given twice"},
    {__LINE__, "--fd-kind fifo", "unknown kind 'fifo'; expected pipe, socketpair, tcp"},
    {__LINE__, "--fds ten", "'ten' is not a whole number"},
    {__LINE__, "--fds 0", "0 is out of range; expected 1..1048576"},
    {__LINE__, "--fds -5", "'-5' is not a whole number"},
    {__LINE__, "--fds 10,abc", "'abc' is not a whole number"},
    {__LINE__, "--fds 100000000", "out of range"},
    {__LINE__, "--fds 99999999999999999999999", "not a whole number"},
    {__LINE__, "--fds 10,10", "'10' is given twice"},
    {__LINE__, "--fds 1.5", "not a whole number"},
    {__LINE__, "--fds 12x", "not a whole number"},
    {__LINE__, "--samples 0", "--samples: 0 is out of range"},
    {__LINE__, "--samples -1", "not a whole number"},
    {__LINE__, "--samples 999999999", "out of range"},
    {__LINE__, "--repeats 0", "--repeats: 0 is out of range"},
    {__LINE__, "--repeats 5000", "out of range"},
    {__LINE__, "--warmup x", "not a whole number"},
    {__LINE__, "--ready-pos end", "unknown position 'end'"},
    {__LINE__, "--active 0", "--active: 0 is out of range"},
    {__LINE__, "--active 2,2", "--active: '2' is given twice"},
    {__LINE__, "--active 2,02", "--active: 2 is given twice"},
    {__LINE__, "--wake-delay 30", "'30' is not a duration; expected a number and a unit"},
    {__LINE__, "--wake-delay 1min", "'1min' is not a duration"},
    {__LINE__, "--wake-delay -1ms", "'-1ms' is not a duration"},
    {__LINE__, "--wake-delay 0.5ns", "'0.5ns' is not a duration"},
    {__LINE__, "--wake-delay us", "'us' is not a duration"},
    {__LINE__, "--wake-delay 0x10us", "'0x10us' is not a duration"},
    {__LINE__, "--wake-delay 1e3us", "'1e3us' is not a duration"},
    {__LINE__, "--wake-delay 1.2.3us", "'1.2.3us' is not a duration"},
    {__LINE__, "--wake-delay 2s", "'2s' is longer than 100 ms"},
    {__LINE__, "--wake-delay 1ms,1000us", "--wake-delay: 1 ms is given twice"},
    {__LINE__, "--wake-delay 0,,1ms", "empty item"},
    {__LINE__, "--mode ready --wake-delay 1ms", "--wake-delay applies to wakeup cells"},
    {__LINE__, "--frobnicate", "unknown option '--frobnicate'"},
    {__LINE__, "--samples", "--samples needs a value"},
    {__LINE__, "stray", "unexpected argument 'stray'"},
};

/* --wake-delay: durations with units, sorted, one wakeup slot each; ready
 * has one slot and no delay; none given is one delay of 0. */
static void test_wake_delays(void **state)
{
    (void)state;
    mp_run_config c;
    mp_err e;
    long long d;
    assert_int_equal(parse(&c, &e, ""), 0);
    assert_int_equal(c.nwake_delays, 1);
    assert_int_equal(c.wake_delays_ns[0], 0);
    assert_int_equal(mp_run_nslots(&c), 2);
    assert_int_equal(parse(&c, &e, "--wake-delay 3ms,0,1.5us,300us"), 0);
    assert_int_equal(c.nwake_delays, 4);
    assert_int_equal(c.wake_delays_ns[0], 0);
    assert_int_equal(c.wake_delays_ns[1], 1500);
    assert_int_equal(c.wake_delays_ns[2], 300000);
    assert_int_equal(c.wake_delays_ns[3], 3000000);
    assert_int_equal(mp_run_nslots(&c), 5);
    assert_int_equal(mp_run_slot(&c, 0, &d), MP_MODE_READY);
    assert_int_equal(d, -1);
    assert_int_equal(mp_run_slot(&c, 1, &d), MP_MODE_WAKEUP);
    assert_int_equal(d, 0);
    assert_int_equal(mp_run_slot(&c, 4, &d), MP_MODE_WAKEUP);
    assert_int_equal(d, 3000000);
    assert_int_equal(parse(&c, &e, "--mode wakeup --wake-delay 100ms"), 0);
    assert_int_equal(mp_run_nslots(&c), 1);
    assert_int_equal(mp_run_slot(&c, 0, &d), MP_MODE_WAKEUP);
    assert_int_equal(d, 100000000);
    assert_int_equal(parse(&c, &e, "--mode ready --wake-delay 0"), 0);
    assert_int_equal(mp_run_nslots(&c), 1);
    char a[32], b[32];   /* delays a run tells apart are printed apart */
    assert_string_equal(mp_duration_fmt(a, sizeof a, 1001000), "1.001 ms");
    assert_string_equal(mp_duration_fmt(b, sizeof b, 1002000), "1.002 ms");
    assert_string_equal(mp_duration_fmt(a, sizeof a, 30000), "30 us");
}

static void test_bad_inputs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mp_run_config c;
        mp_err e;
        mp_err_clear(&e);
        int rc = parse(&c, &e, bad[i].args);
        if (rc != MP_EUSAGE || !strstr(e.msg, bad[i].msg))
            fail_msg("line %d: '%s' gave rc %d, message '%s'; expected MP_EUSAGE and '%s'",
                     bad[i].line, bad[i].args, rc, e.msg, bad[i].msg);
    }
}

/* Run the real binary; return its exit status, stderr in err. */
static int run_bin(const char *args, char *err, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s run %s 2>&1 >/dev/null", MP_TEST_BIN, args);
    FILE *p = popen(cmd, "r");
    size_t n = fread(err, 1, len - 1, p);
    err[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_binary_usage_errors(void **state)
{
    (void)state;
    char dir[] = "/tmp/mp-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char out[512], err[4096], args[1024];
    snprintf(out, sizeof out, "%s/run", dir);
    const char *cases[] = {"--backends kqueue", "--fds 0", "--mode x", "--samples abc",
                           "--events no-such-preset-xyz", "--placement sideways"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "%s --out %s", cases[i], out);
        int st = run_bin(args, err, sizeof err);
        if (st != 2)
            fail_msg("'%s': exit %d, expected 2; stderr: %s", cases[i], st, err);
        /* One line that names the problem. */
        char *nl = strchr(err, '\n');
        if (!nl || nl[1] != 0)
            fail_msg("'%s': expected one line on stderr, got: %s", cases[i], err);
        struct stat sb;
        if (stat(out, &sb) == 0)
            fail_msg("'%s': %s was created", cases[i], out);
    }
    /* Unwritable output directory: the environment, not the command line. */
    int st = run_bin("--quick --out /proc/version/x", err, sizeof err);
    assert_int_equal(st, 1);
    assert_non_null(strstr(err, "--out"));
    /* Non-empty directory without --force. */
    snprintf(args, sizeof args, "%s/junk", dir);
    FILE *f = fopen(args, "w");
    fclose(f);
    snprintf(args, sizeof args, "--quick --out %s", dir);
    st = run_bin(args, err, sizeof err);
    assert_int_equal(st, 2);
    assert_non_null(strstr(err, "not empty"));
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_lists_and_quick),
        cmocka_unit_test(test_wake_delays),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_binary_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
