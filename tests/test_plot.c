/* SPDX-License-Identifier: MIT */
/* test_plot.c - the gnuplot runner (report/plot.c): gnuplot reads no
 * initialization file (a ~/.gnuplot that runs a command is not run), a
 * figure that runs past the time limit (MUXPROF_GNUPLOT_TIMEOUT_S) is
 * killed with the commands it started and reported failed, a bad limit is
 * refused, and SIGINT while the figures are drawn stops gnuplot and ends
 * `muxprof run` (exit 130) and `muxprof report` (killed by SIGINT) long
 * before the limit.  The slow gnuplot is a stand-in script first in PATH
 * that starts a sleeping command; it records that it started. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report/plot.h"
#include "test_util.h"

static char top[64];
static char real_path[8192];

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fail_msg("cannot write %s", path);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, mode), 0);
}

static int exists(const char *dir, const char *name)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

static int setup(void **state)
{
    (void)state;
    if (mp_test_mkdtemp(top, sizeof top, "plot"))
        return -1;
    const char *p = getenv("PATH");
    snprintf(real_path, sizeof real_path, "%s", p ? p : "/usr/bin:/bin");
    char d[128], fake[256];
    snprintf(d, sizeof d, "%s/bin", top);
    if (mkdir(d, 0755))
        return -1;
    /* the stand-in: marks that it ran, then waits on a sleeping command
     * whose command line names this test's directory */
    char text[512];
    snprintf(text, sizeof text, "#!/bin/sh\ntouch '%s/STARTED'\n"
             "sh -c 'sleep 300; true' '%s/sleeper'\n", top, top);
    snprintf(fake, sizeof fake, "%s/gnuplot", d);
    write_file(fake, text, 0755);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    setenv("PATH", real_path, 1);
    unsetenv("MUXPROF_GNUPLOT_TIMEOUT_S");
    return mp_test_rmtree(top);
}

/* PATH with the stand-in first (slow = 1) or as the test found it. */
static void use_slow_gnuplot(int slow)
{
    char p[8400];
    snprintf(p, sizeof p, "%s/bin:%s", top, real_path);
    setenv("PATH", slow ? p : real_path, 1);
}

/* The stand-in's sleeping command is gone (killed with its group); a
 * killed process is reaped by init soon after, so look for up to 3 s. */
static void no_sleeper_left(void)
{
    char s[128];
    snprintf(s, sizeof s, "%s/sleeper", top);
    for (int i = 0; i < 30 && mp_test_procs_mentioning(s) > 0; i++)
        usleep(100 * 1000);
    assert_int_equal(mp_test_procs_mentioning(s), 0);
}

/* mp_plot_run in the directory path, held open as report/ holds its figures. */
static int plot_in(const char *path, const char *script, mp_err *err)
{
    mp_dir d;
    int rc = mp_dir_open(&d, path, 1, err);
    if (rc)
        return rc;
    rc = mp_plot_run(&d, script, err);
    mp_dir_close(&d);
    return rc;
}

static void test_no_init_files(void **state)
{
    (void)state;
    use_slow_gnuplot(0);
    if (!mp_plot_gnuplot_found(NULL, 0)) {
        printf("SKIP: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        skip();
    }
    char home[128], dir[128], rc_text[300];
    snprintf(home, sizeof home, "%s/home", top);
    snprintf(dir, sizeof dir, "%s/fig", top);
    assert_int_equal(mkdir(home, 0755), 0);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(rc_text, sizeof rc_text, "system \"touch '%s/MARK'\"\n", top);
    char p[256];
    snprintf(p, sizeof p, "%s/.gnuplot", home);
    write_file(p, rc_text, 0644);
    snprintf(p, sizeof p, "%s/t.gp", dir);
    write_file(p, "set print \"out.txt\"\nprint \"drawn\"\n", 0644);
    char *old = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", home, 1);
    mp_err err;
    mp_err_clear(&err);
    int rc = plot_in(dir, "t.gp", &err);
    if (old) {
        setenv("HOME", old, 1);
        free(old);
    }
    if (rc)
        fail_msg("mp_plot_run = %d: %s", rc, err.msg);
    assert_true(exists(dir, "out.txt"));
    assert_false(exists(top, "MARK"));
}

static void test_time_limit(void **state)
{
    (void)state;
    use_slow_gnuplot(1);
    setenv("MUXPROF_GNUPLOT_TIMEOUT_S", "1", 1);
    mp_err err;
    mp_err_clear(&err);
    int rc = plot_in(top, "slow.gp", &err);
    unsetenv("MUXPROF_GNUPLOT_TIMEOUT_S");
    use_slow_gnuplot(0);
    assert_int_equal(rc, -ETIMEDOUT);
    if (!strstr(err.msg, "ran longer than 1 s and was stopped") ||
        !strstr(err.msg, "MUXPROF_GNUPLOT_TIMEOUT_S"))
        fail_msg("message: %s", err.msg);
    no_sleeper_left();
}

static void test_bad_limit(void **state)
{
    (void)state;
    use_slow_gnuplot(0);
    static const char *bad[] = {"0", "-5", "1.5", "abc", "99999999999", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("MUXPROF_GNUPLOT_TIMEOUT_S", bad[i], 1);
        mp_err err;
        mp_err_clear(&err);
        int rc = plot_in(top, "x.gp", &err);
        if (!*bad[i]) {   /* empty: the default */
            assert_int_not_equal(rc, -EINVAL);
            continue;
        }
        assert_int_equal(rc, -EINVAL);
        assert_non_null(strstr(err.msg, "MUXPROF_GNUPLOT_TIMEOUT_S"));
    }
    unsetenv("MUXPROF_GNUPLOT_TIMEOUT_S");
}

/* `muxprof report` of a fixture with the stand-in gnuplot and a 1 s limit:
 * every figure is reported failed, with the limit named. */
static void test_report_says_failed(void **state)
{
    (void)state;
    char cmd[1024], md[256];
    snprintf(cmd, sizeof cmd, "mkdir '%s/exp' && cp '%s/report/experiments_only/results.json' "
             "'%s/exp/' && PATH='%s/bin':\"$PATH\" MUXPROF_GNUPLOT_TIMEOUT_S=1 '%s' report "
             "'%s/exp' >/dev/null 2>&1", top, MP_TEST_FIXTURES, top, top, MP_TEST_BIN, top);
    int s = system(cmd);
    assert_true(WIFEXITED(s));
    snprintf(md, sizeof md, "%s/exp/report.md", top);
    char *text = mp_test_slurp(md);
    assert_non_null(text);
    if (!strstr(text, "was not drawn: gnuplot") || !strstr(text, "ran longer than 1 s"))
        fail_msg("report.md does not say the figures were stopped at the limit");
    free(text);
    no_sleeper_left();
}

/* Start `muxprof ARGS` with the stand-in gnuplot (a limit of 600 s), send
 * SIGINT once the stand-in runs, and wait for muxprof to end: at most 60 s,
 * a tenth of the limit.  Returns its wait status (-1: it did not end). */
static int interrupt_while_drawing(const char *args)
{
    char started[128];
    snprintf(started, sizeof started, "%s/STARTED", top);
    unlink(started);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char p[8400];
        snprintf(p, sizeof p, "%s/bin:%s", top, real_path);
        setenv("PATH", p, 1);
        setenv("MUXPROF_GNUPLOT_TIMEOUT_S", "600", 1);
        execl("/bin/sh", "sh", "-c", args, (char *)NULL);
        _exit(127);
    }
    struct stat st;
    for (int i = 0; i < 1200 && stat(started, &st) != 0; i++)
        usleep(50 * 1000);
    if (stat(started, &st) != 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fail_msg("the stand-in gnuplot never started: %s", args);
    }
    kill(pid, SIGINT);
    int status = -1;
    for (int i = 0; i < 600; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return status;
        usleep(100 * 1000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static void test_sigint_run(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "exec '%s' run --quick --quiet --out '%s/run' >/dev/null 2>&1",
             MP_TEST_BIN, top);
    int s = interrupt_while_drawing(args);
    if (s == -1)
        fail_msg("muxprof run did not end within 60 s of SIGINT while drawing");
    assert_true(WIFEXITED(s));
    assert_int_equal(WEXITSTATUS(s), 130);
    char p[256];
    snprintf(p, sizeof p, "%s/run/results.json", top);
    char *text = mp_test_slurp(p);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"complete\""));
    free(text);
    no_sleeper_left();
}

static void test_sigint_report(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args, "mkdir -p '%s/rep' && cp '%s/report/synthetic/results.json' "
             "'%s/rep/' && exec '%s' report '%s/rep' >/dev/null 2>&1", top, MP_TEST_FIXTURES,
             top, MP_TEST_BIN, top);
    int s = interrupt_while_drawing(args);
    if (s == -1)
        fail_msg("muxprof report did not end within 60 s of SIGINT while drawing");
    assert_true(WIFSIGNALED(s));
    assert_int_equal(WTERMSIG(s), SIGINT);
    no_sleeper_left();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_init_files),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_bad_limit),
        cmocka_unit_test(test_report_says_failed),
        cmocka_unit_test(test_sigint_run),
        cmocka_unit_test(test_sigint_report),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
