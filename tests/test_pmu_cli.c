/* SPDX-License-Identifier: MIT */
/* test_pmu_cli.c - the events and doctor verbs as a user runs them: exit
 * status 0 for a host that lacks things (they are reported), 2 for a bad
 * --events spec, and the no-PMU reason in words where there is no PMU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "pmu/pmu.h"

/* Run the binary with args; returns the exit status, output in out. */
static int run(const char *args, char *out, size_t n)
{
    char cmd[1024];
    FILE *p;
    size_t got = 0;
    int st;
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", MP_TEST_BIN, args);
    p = popen(cmd, "r");
    assert_non_null(p);
    while (got + 1 < n) {
        size_t r = fread(out + got, 1, n - 1 - got, p);
        if (r == 0) break;
        got += r;
    }
    out[got] = '\0';
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char out[1 << 16];

static void events_verb(void **state)
{
    mp_pmu_host h;
    (void)state;
    mp_pmu_host_probe(&h);
    assert_int_equal(run("events", out, sizeof out), 0);
    assert_non_null(strstr(out, "task-clock"));
    assert_non_null(strstr(out, "opened"));
    if (!h.core_pmu) assert_non_null(strstr(out, "no hardware PMU"));
    assert_int_equal(run("events --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "usage: muxprof events"));
    assert_int_equal(run("events --events nosuchpreset", out, sizeof out), 2);
    assert_non_null(strstr(out, "nosuchpreset"));
    assert_int_equal(run("events --events 'cycles:q'", out, sizeof out), 2);
    assert_int_equal(run("events --bogus", out, sizeof out), 2);
    assert_int_equal(run("events --all", out, sizeof out), 0);
    assert_non_null(strstr(out, "intel_skl.txt"));
    assert_non_null(strstr(out, "--events none"));
}

static void doctor_verb(void **state)
{
    (void)state;
    assert_int_equal(run("doctor", out, sizeof out), 0);
    for (const char *k[] = {"PMUs", "CPU model", "perf_event_paranoid", "capabilities",
                            "rdpmc", "perf_user_access", "NMI watchdog", "hypervisor",
                            "RLIMIT_NOFILE", "governor", "SMT", "privilege setup",
                            "CPU-wide counting", NULL}, **p = k; *p; p++)
        if (!strstr(out, *p)) fail_msg("doctor output lacks '%s':\n%s", *p, out);
    if (strstr(out, "setcap cap_"))
        fail_msg("doctor advises a capability without the group:\n%s", out);
    assert_int_equal(run("doctor --help", out, sizeof out), 0);
    assert_int_equal(run("doctor --bogus", out, sizeof out), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(events_verb),
        cmocka_unit_test(doctor_verb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
