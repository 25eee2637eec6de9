/* test_cli_exit.c - the binary fails loudly and exits as --help says: a
 * run that measured nothing exits 1 with the reason on stderr; cells not
 * measured are listed under the table; the placement is shown and a
 * fallback warned; run directories started in one second do not collide;
 * report takes DIR/results.json and exits 1 on a missing one; every
 * --help states the exit codes; --events refuses duplicates and says what
 * it adds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/context.h"
#include "test_util.h"

/* A tiny sweep: one backend, one N, ready mode, no counters, no figures. */
#define TINY "--fds 10 --samples 5 --repeats 1 --warmup 1 --backends poll --mode ready " \
             "--events none --no-plots"

static char tmp[64];
static char out_text[65536], err_text[65536];

/* The binary under test; MP_TEST_BIN in the environment points the test at
 * another build (to check that it fails on an older one). */
static const char *bin(void)
{
    const char *b = getenv("MP_TEST_BIN");
    return b && *b ? b : MP_TEST_BIN;
}

/* Run `cd tmp && PREFIX muxprof ARGS`; stdout and stderr into out_text and
 * err_text; returns the exit status. */
static int mux(const char *prefix, const char *args)
{
    char cmd[4096], o[128], e[128];
    snprintf(o, sizeof o, "%s/.stdout", tmp);
    snprintf(e, sizeof e, "%s/.stderr", tmp);
    snprintf(cmd, sizeof cmd, "cd %s && %s %s %s >%s 2>%s", tmp, prefix, bin(), args, o, e);
    int st = system(cmd);
    char *s = mp_test_slurp(o);
    snprintf(out_text, sizeof out_text, "%s", s ? s : "");
    free(s);
    s = mp_test_slurp(e);
    snprintf(err_text, sizeof err_text, "%s", s ? s : "");
    free(s);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define HAS(hay, needle)                                                                  \
    do {                                                                                  \
        if (!strstr((hay), (needle)))                                                     \
            fail_msg("missing \"%s\" in:\n%s", (needle), (hay));                          \
    } while (0)

static int have(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

static int setup(void **st)
{
    (void)st;
    snprintf(tmp, sizeof tmp, "/tmp/mp-exit-XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* Every cell needs more descriptors than the hard limit allows. */
static void nothing_measured_exits_1(void **st)
{
    (void)st;
    const char *limit = have("prlimit") ? "prlimit --nofile=64:64" : "ulimit -n 64 &&";
    int rc = mux(limit, "run --fds 500 --samples 5 --repeats 1 --backends poll,epoll "
                        "--events none --no-plots --quiet --out nothing");
    if (rc != 1)
        fail_msg("exit %d, expected 1; stderr:\n%s", rc, err_text);
    HAS(err_text, "no cell could be measured");
    HAS(err_text, "RLIMIT_NOFILE is 64");
    /* still recorded: the reasons are in results.json */
    char p[128];
    snprintf(p, sizeof p, "%s/nothing/results.json", tmp);
    char *j = mp_test_slurp(p);
    assert_non_null(j);
    HAS(j, "\"unsupported\"");
    free(j);
}

/* Some cells measured, some not: one line per distinct reason under the
 * table, and the run succeeds. */
static void reasons_under_table(void **st)
{
    (void)st;
    int rc = mux("", "run --fds 10,2000 --samples 5 --repeats 1 --warmup 1 --backends "
                     "select,poll --mode ready --events none --no-plots --quiet --out some");
    if (rc != 0)
        fail_msg("exit %d; stderr:\n%s", rc, err_text);
    char *t = strstr(out_text, "not measured:");
    if (!t)
        fail_msg("no 'not measured:' under the table:\n%s", out_text);
    HAS(t, "unsupported, 1 cell: ");
    HAS(t, "FD_SETSIZE");
    assert_null(strstr(err_text, "no cell could be measured"));
}

/* One usable PU: "auto" falls back to unbound threads, said on stderr at
 * once and in the summary. */
static void placement_fallback_warned(void **st)
{
    (void)st;
    if (!have("taskset"))
        skip();
    int rc = mux("taskset -c 0", "run " TINY " --quiet --out one-pu");
    if (rc != 0)
        fail_msg("exit %d; stderr:\n%s", rc, err_text);
    HAS(err_text, "warning: placement auto fell back to none");
    HAS(out_text, "placement: none (asked for auto, FELL BACK)");
    rc = mux("", "run " TINY " --quiet --out placed");
    assert_int_equal(rc, 0);
    HAS(out_text, "\nplacement: ");
    assert_null(strstr(err_text, "fell back"));
}

/* Directories of earlier runs named for this second and the next ones:
 * the default name gets a suffix instead of failing. */
static void default_dir_taken(void **st)
{
    (void)st;
    char host[64], dir[512], stamp[32];
    mp_context_hostname(host, sizeof host);
    time_t now = time(NULL);
    for (int s = 0; s < 4; s++) {
        time_t t = now + s;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
        snprintf(dir, sizeof dir, "mkdir -p %s/reports/runs/%s-%s && touch "
                 "%s/reports/runs/%s-%s/results.json", tmp, host, stamp, tmp, host, stamp);
        assert_int_equal(system(dir), 0);
    }
    int rc = mux("", "run " TINY " --quiet");
    if (rc != 0)
        fail_msg("exit %d, expected 0; stderr:\n%s", rc, err_text);
    char *d = strstr(out_text, "run directory: reports/runs/");
    assert_non_null(d);
    char name[256];
    assert_int_equal(sscanf(d, "run directory: %255s", name), 1);
    size_t n = strlen(name);
    if (n < 2 || name[n - 2] != '-' || name[n - 1] != '2')
        fail_msg("expected the -2 suffix, got %s", name);
}

/* Four runs started together all succeed, each in its own directory. */
static void parallel_runs(void **st)
{
    (void)st;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir par && cd par && for i in 1 2 3 4; do (%s run " TINY " --quiet "
             ">out.$i 2>err.$i; echo $? >rc.$i) & done; wait; cat rc.1 rc.2 rc.3 rc.4 | "
             "tr -d '\\n' >rcs; ls reports/runs | wc -l >ndirs; "
             "ls reports/runs/*/results.json | wc -l >nres",
             tmp, bin());
    assert_int_equal(system(cmd), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/par/rcs", tmp);
    char *rcs = mp_test_slurp(p);
    assert_non_null(rcs);
    if (strcmp(rcs, "0000")) {
        snprintf(cmd, sizeof cmd, "cat %s/par/err.*", tmp);
        if (system(cmd)) {}
        fail_msg("exit statuses %s, expected 0000", rcs);
    }
    free(rcs);
    snprintf(p, sizeof p, "%s/par/ndirs", tmp);
    char *nd = mp_test_slurp(p);
    snprintf(p, sizeof p, "%s/par/nres", tmp);
    char *nr = mp_test_slurp(p);
    assert_int_equal(atoi(nd), 4);
    assert_int_equal(atoi(nr), 4);
    free(nd);
    free(nr);
}

static void report_paths_and_codes(void **st)
{
    (void)st;
    assert_int_equal(mux("", "run " TINY " --quiet --out rep"), 0);
    int rc = mux("", "report rep/results.json --no-plots");
    if (rc != 0)
        fail_msg("report DIR/results.json: exit %d; stderr:\n%s", rc, err_text);
    HAS(out_text, "wrote rep/report.md");
    assert_int_equal(mux("", "report rep --no-plots"), 0);
    assert_int_equal(mux("", "report no-such-dir"), 1);
    HAS(err_text, "no-such-dir");
    assert_int_equal(mux("", "report no-such-dir/results.json"), 1);
    assert_int_equal(mux("", "report"), 2);
    assert_int_equal(mux("", "report rep --bogus"), 2);
    /* a directory without results.json is a missing file, not a usage error */
    assert_int_equal(mux("", "report ."), 1);
    HAS(err_text, "results.json");
}

static void help_states_exit_codes(void **st)
{
    (void)st;
    const char *verbs[] = {"--help", "run --help", "report --help", "compare --help",
                           "events --help", "topology --help", "doctor --help"};
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        assert_int_equal(mux("", verbs[i]), 0);
        if (!strstr(out_text, "2 usage error") || !strstr(out_text, "130 interrupted"))
            fail_msg("muxprof %s does not state the exit codes:\n%s", verbs[i], out_text);
    }
}

static void events_list_adds_and_refuses(void **st)
{
    (void)st;
    assert_int_equal(mux("", "events --events task-clock,cycles,task-clock"), 2);
    HAS(err_text, "'task-clock' is given twice");
    assert_int_equal(mux("", "run --events cycles,cycles --out x"), 2);
    HAS(err_text, "given twice");
    assert_int_equal(mux("", "events --events task-clock"), 0);
    HAS(out_text, "adds: context-switches, cpu-migrations, page-faults -- always counted");
    assert_int_equal(mux("", "events --events none"), 0);
    assert_null(strstr(out_text, "adds:"));
    /* the run says it too, with the counters */
    assert_int_equal(mux("", "run " TINY " --quiet --events task-clock --out ev"), 0);
    HAS(out_text, "added: context-switches, cpu-migrations, page-faults");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_measured_exits_1),
        cmocka_unit_test(reasons_under_table),
        cmocka_unit_test(placement_fallback_warned),
        cmocka_unit_test(default_dir_taken),
        cmocka_unit_test(parallel_runs),
        cmocka_unit_test(report_paths_and_codes),
        cmocka_unit_test(help_states_exit_codes),
        cmocka_unit_test(events_list_adds_and_refuses),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
