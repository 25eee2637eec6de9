/* SPDX-License-Identifier: MIT */
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

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "run/context.h"
#include "test_util.h"

/* A tiny sweep: one backend, one N, ready mode, no counters, no figures. */
#define TINY_ANY_EVENTS "--fds 10 --samples 5 --repeats 1 --warmup 1 --backends poll " \
                        "--mode ready --no-plots"
#define TINY TINY_ANY_EVENTS " --events none"

static char tmp[64];
static char out_text[65536], err_text[65536];

/* The binary under test; MP_TEST_BIN in the environment points the test at
 * another build (to check that it fails on an older one). */
static const char *bin(void)
{
    const char *b = getenv("MP_TEST_BIN");
    return b && *b ? b : MP_TEST_BIN;
}

/* Run `cd tmp && LINE` (sh); stdout and stderr into out_text and
 * err_text; returns the exit status. */
static int run_sh(const char *line)
{
    char cmd[4096], o[128], e[128];
    snprintf(o, sizeof o, "%s/.stdout", tmp);
    snprintf(e, sizeof e, "%s/.stderr", tmp);
    snprintf(cmd, sizeof cmd, "cd %s && %s >%s 2>%s", tmp, line, o, e);
    int st = system(cmd);
    char *s = mp_test_slurp(o);
    snprintf(out_text, sizeof out_text, "%s", s ? s : "");
    free(s);
    s = mp_test_slurp(e);
    snprintf(err_text, sizeof err_text, "%s", s ? s : "");
    free(s);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run `PREFIX muxprof ARGS` in tmp. */
static int mux(const char *prefix, const char *args)
{
    char line[3072];
    snprintf(line, sizeof line, "%s %s %s", prefix, bin(), args);
    return run_sh(line);
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
    assert_int_equal(mux("", "run " TINY_ANY_EVENTS " --quiet --events task-clock --out ev"), 0);
    HAS(out_text, "  measured: task-clock\n");
    HAS(out_text, "also measured, added to every plan: context-switches, cpu-migrations, "
                  "page-faults (");
    assert_null(strstr(out_text, "added: task-clock"));
}

/* run --dry-run prints the plan, measures nothing and creates nothing; its
 * other options are checked as for a run. */
static void dry_run_plan(void **st)
{
    (void)st;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir %s/dry", tmp);
    assert_int_equal(system(cmd), 0);
    int rc = mux("cd dry &&", "run --dry-run --fds 10,100 --backends poll,epoll --mode ready "
                              "--samples 7 --repeats 3 --events software");
    if (rc != 0)
        fail_msg("exit %d; stderr:\n%s", rc, err_text);
    HAS(out_text, "cells: 4 ");
    HAS(out_text, "\n      1  poll pipe N=10 ready\n      2  epoll pipe N=10 ready\n"
                  "      3  poll pipe N=100 ready\n      4  epoll pipe N=100 ready\n");
    HAS(out_text, "passes per cell: 4,");
    HAS(out_text, "  passes 1-3: timing repeats, --samples 7 calls each\n");
    HAS(out_text, "  pass 4: counter pass (pass 0 under counters below)");
    HAS(out_text, "order (--repeat-order passes): ");
    HAS(out_text, "counters (--events software,");
    HAS(out_text, "\n  task-clock ");
    HAS(out_text, "\nplacement: ");
    HAS(out_text, "run directory: reports/runs/<host>-<UTC stamp> (not created)");
    HAS(out_text, "\nestimated time: about ");
    HAS(out_text, "(an estimate, not a measurement)");
    assert_null(strstr(err_text, "[1/4"));   /* no progress: nothing measured */
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s/dry)\"", tmp);
    if (system(cmd) != 0)
        fail_msg("--dry-run wrote into its directory");
    assert_int_equal(mux("", "run --dry-run --quick --repeat-order back-to-back --profile "
                             "--out dry/out"), 0);
    HAS(out_text, "order (--repeat-order back-to-back): ");
    HAS(out_text, ", then its counter passes and profile pass");
    HAS(out_text, "run directory: dry/out (not created)");
    snprintf(cmd, sizeof cmd, "test ! -e %s/dry/out", tmp);
    assert_int_equal(system(cmd), 0);
    /* usage errors are still usage errors */
    const char *bad[] = {"--fds 0", "--events nosuchpreset", "--mode ready --wake-delay 1ms",
                         "--samples 10000000 --repeats 64", "--bogus"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[128];
        snprintf(args, sizeof args, "run --dry-run %s", bad[i]);
        if ((rc = mux("", args)) != 2)
            fail_msg("%s: exit %d, expected 2", args, rc);
        assert_string_equal(out_text, "");
    }
}

/* The doctor's line on CPU-wide counting names what it tried: nothing on a
 * host without an uncore PMU, else an event of the first one (here the msr
 * PMU's tsc, given a cpumask in a copy of sysfs) and whether it opened. */
static void doctor_names_the_cpu_wide_try(void **st)
{
    (void)st;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/pmus-none/software && echo 1 "
             ">%s/pmus-none/software/type", tmp, tmp);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(mux("MUXPROF_SYSFS_PMUS=pmus-none", "doctor"), 0);
    const char *l = strstr(out_text, "] CPU-wide counting ");
    assert_non_null(l);
    HAS(l, "no uncore PMU on this host");
    HAS(l, ": not checked");
    const char *msr = "/sys/bus/event_source/devices/msr";
    snprintf(cmd, sizeof cmd, "test -r %s/events/tsc", msr);
    if (system(cmd) != 0)
        skip();
    snprintf(cmd, sizeof cmd, "d=%s/pmus-one/zz_uncore && mkdir -p $d/events $d/format && "
             "cat %s/type >$d/type && cat %s/events/tsc >$d/events/tsc && "
             "cp %s/format/* $d/format/ && echo 0 >$d/cpumask", tmp, msr, msr, msr);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(mux("MUXPROF_SYSFS_PMUS=pmus-one", "doctor"), 0);
    l = strstr(out_text, "] CPU-wide counting ");
    assert_non_null(l);
    if (!strstr(l, "zz_uncore/tsc/ opened CPU-wide (pid -1") &&
        !strstr(l, "zz_uncore/tsc/ not tried: CPU-wide counting is not allowed"))
        fail_msg("the line does not say what became of zz_uncore/tsc/:\n%s", l);
}

/* --json prints one JSON document on stdout and nothing else. */
static void json_documents(void **st)
{
    (void)st;
    const struct {
        const char *args, *schema, *array;
    } docs[] = {
        {"events --json", "muxprof-events/1", "plans"},
        {"events --all --json", "muxprof-events/1", "preset_files"},
        {"events --events cycles,task-clock --json", "muxprof-events/1", "plans"},
        {"doctor --json", "muxprof-doctor/1", "checks"},
        {"topology --json", "muxprof-topology/1", "caches"},
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        int rc = mux("", docs[i].args);
        if (rc != 0)
            fail_msg("%s: exit %d; stderr:\n%s", docs[i].args, rc, err_text);
        cJSON *d = cJSON_Parse(out_text);
        if (!d)
            fail_msg("%s: stdout is not one JSON document:\n%s", docs[i].args, out_text);
        const cJSON *sc = cJSON_GetObjectItem(d, "schema");
        assert_true(cJSON_IsString(sc));
        assert_string_equal(sc->valuestring, docs[i].schema);
        assert_true(cJSON_IsString(cJSON_GetObjectItem(cJSON_GetObjectItem(d, "tool"),
                                                       "git_describe")));
        const cJSON *a = cJSON_GetObjectItem(d, docs[i].array);
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) == 0)
            fail_msg("%s: no %s[]", docs[i].args, docs[i].array);
        if (!strcmp(docs[i].array, "checks")) {
            const cJSON *c = cJSON_GetArrayItem(a, 0);
            assert_true(cJSON_IsString(cJSON_GetObjectItem(c, "status")));
            assert_true(cJSON_IsString(cJSON_GetObjectItem(c, "check")));
            assert_true(cJSON_IsNumber(cJSON_GetObjectItem(d, "to_fix")));
        } else if (!strcmp(docs[i].array, "plans")) {
            const cJSON *p = cJSON_GetArrayItem(a, 0);
            assert_true(cJSON_IsArray(cJSON_GetObjectItem(p, "events")));
            assert_true(cJSON_IsArray(cJSON_GetObjectItem(p, "pass_status")));
            assert_true(cJSON_IsArray(cJSON_GetObjectItem(p, "software_added")));
        }
        cJSON_Delete(d);
    }
    /* a bad spec: nothing on stdout, the reason on stderr, exit 2 */
    assert_int_equal(mux("", "events --events nosuchthing --json"), 2);
    assert_string_equal(out_text, "");
    /* the run records the release and the build's describe */
    assert_int_equal(mux("", "run " TINY " --quiet --out ver"), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/ver/results.json", tmp);
    char *j = mp_test_slurp(p);
    assert_non_null(j);
    cJSON *d = cJSON_Parse(j);
    free(j);
    assert_non_null(d);
    const cJSON *tool = cJSON_GetObjectItem(d, "tool");
    assert_int_equal(mux("", "--version"), 0);
    char want[256];
    snprintf(want, sizeof want, "muxprof %s (git %s)\n",
             cJSON_GetObjectItem(tool, "version")->valuestring,
             cJSON_GetObjectItem(tool, "git_describe")->valuestring);
    assert_string_equal(out_text, want);
    cJSON_Delete(d);
}

/* Off a terminal: one line per cell once final, numbered without gaps,
 * unsupported cells included; --quiet: nothing. */
static void progress_lines(void **st)
{
    (void)st;
    int rc = mux("", "run --fds 10,2000 --samples 5 --repeats 1 --warmup 1 --backends "
                     "select,poll --mode ready --events none --no-plots --out prog");
    if (rc != 0)
        fail_msg("exit %d; stderr:\n%s", rc, err_text);
    const char *p = err_text;
    for (int i = 1; i <= 4; i++) {
        char want[32];
        snprintf(want, sizeof want, "[%d/4 ", i);
        const char *q = strstr(p, want);
        if (!q)
            fail_msg("no line \"%s\" after the previous one in:\n%s", want, err_text);
        p = q + 1;
    }
    HAS(err_text, "select pipe N=2000 ready: unsupported: ");
    HAS(err_text, "poll pipe N=10 ready: ok, median ");
    assert_null(strstr(err_text, "[5/4"));
    assert_null(strstr(err_text, "\r"));
    if (have("taskset") && system("test $(nproc) -ge 2") == 0) {
        assert_int_equal(mux("", "run " TINY " --quiet --out quiet"), 0);
        assert_string_equal(err_text, "");
    }
}

/* On a terminal (a pseudo-terminal from script(1)): the line redrawn in
 * place, each drawing the cells finished, the cell, the repeat or counter
 * pass being measured and the time so far (an ETA once costs have been seen
 * at two N), then "sweep done".  The ticker process draws the latest state
 * when it wakes, so a short run may skip units: every drawing is checked,
 * not that each unit got one (test_progress counts drawings on a fake
 * clock). */
static void progress_tty(void **st)
{
    (void)st;
    if (!have("script"))
        skip();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "script -qec '%s run --fds 10,100 --samples 50 --repeats 3 "
             "--backends poll --mode ready --events software --no-plots --out tty' /dev/null",
             bin());
    assert_int_equal(run_sh(cmd), 0);
    regex_t unit, start;
    assert_int_equal(regcomp(&unit, "^\\[pass [1-4]/4, cell [12]/2; [0-2]/2 cells done\\] poll "
                             "pipe N=(10|100) ready, (repeat [1-3]/3|counter pass 1/1) \\| "
                             "[0-9.]+ (s|min)(, ETA [0-9.]+ (s|min))?$", REG_EXTENDED | REG_NOSUB), 0);
    assert_int_equal(regcomp(&start, "^\\[0/2 cells done\\] starting \\| [0-9.]+ (s|min)$",
                             REG_EXTENDED | REG_NOSUB), 0);
    const char *done = strstr(out_text, "sweep done in ");
    if (!done)
        fail_msg("no \"sweep done in\" in:\n%s", out_text);
    int drawn = 0;
    for (const char *p = strstr(out_text, "\033[K"); p && p < done; ) {
        p += 3;
        const char *q = strstr(p, "\033[K");
        size_t len = (size_t)((q && q < done ? q : done) - p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        line[strcspn(line, "\r")] = 0;
        if (line[0] && regexec(&unit, line, 0, NULL, 0) && regexec(&start, line, 0, NULL, 0))
            fail_msg("a progress line not in its form: \"%s\" in:\n%s", line, out_text);
        drawn += line[0] != 0;
        p = q;
    }
    regfree(&unit);
    regfree(&start);
    if (drawn < 1)
        fail_msg("no progress line drawn before \"sweep done\" in:\n%s", out_text);
}

/* The terminal summary: medians with p10-p90 in a scaled unit, ratios to
 * 3 significant digits. */
static void summary_table(void **st)
{
    (void)st;
    assert_int_equal(mux("", "run --fds 10,1000 --samples 20 --repeats 1 --warmup 1 "
                             "--backends poll,epoll --mode ready --events none --no-plots "
                             "--quiet --out sum"), 0);
    HAS(out_text, "ready mode, pipe, median per call [p10-p90]");
    const char *row = strstr(out_text, "\n    1000 ");
    assert_non_null(row);
    char v1[16], u1[8], s1[40], v2[16], u2[8], s2[40], ratio[32];
    if (sscanf(row, " 1000 %15s %7s %39s %15s %7s %39s %31s", v1, u1, s1, v2, u2, s2,
               ratio) != 7)
        fail_msg("row: %.200s", row);
    assert_true(!strcmp(u1, "ns") || !strcmp(u1, "us") || !strcmp(u1, "ms"));
    assert_true(!strcmp(u2, "ns") || !strcmp(u2, "us") || !strcmp(u2, "ms"));
    assert_true(s1[0] == '[' && strchr(s1, '-') && s1[strlen(s1) - 1] == ']');
    /* significant digits: those after the leading zeros, up to 3 (more only
     * for a whole number of 1000 or more) */
    const char *q = ratio;
    while (*q == '0' || *q == '.')
        q++;
    int digits = 0;
    for (const char *d = q; *d; d++)
        digits += *d >= '0' && *d <= '9';
    if (strchr(ratio, 'e') || atof(ratio) <= 0 || (digits != 3 && !(digits > 3 &&
        !strchr(ratio, '.'))))
        fail_msg("poll/epoll '%s' is not 3 significant digits", ratio);
    /* a 10-fd poll call is well under a microsecond on any host we run on */
    row = strstr(out_text, "\n      10 ");
    assert_non_null(row);
    assert_int_equal(sscanf(row, " 10 %15s %7s", v1, u1), 2);
    if (strcmp(u1, "ns") && strcmp(u1, "us"))
        fail_msg("N = 10 in %s", u1);
    /* after the table, what report.md finds, before the counters */
    const char *found = strstr(out_text, "\nfindings (report.md has the intervals");
    assert_non_null(found);
    assert_true(found > strstr(out_text, "ready mode, pipe, median per call"));
    assert_true(found < strstr(out_text, "\ncounters"));
    HAS(found, "  ready, pipe: poll/epoll at N=1,000 is ");
    HAS(found, "  ready, pipe: poll adds ");
    /* and a noisy run says so there (the load is recorded, not made) */
    if (strstr(out_text, "noisy run:"))
        assert_true(strstr(out_text, "\nwarnings:\n") < found);
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
        cmocka_unit_test(dry_run_plan),
        cmocka_unit_test(doctor_names_the_cpu_wide_try),
        cmocka_unit_test(json_documents),
        cmocka_unit_test(progress_lines),
        cmocka_unit_test(progress_tty),
        cmocka_unit_test(summary_table),
    };
    if (getenv("MP_TEST_FILTER"))   /* one test by name, to rerun it alone */
        cmocka_set_test_filter(getenv("MP_TEST_FILTER"));
    return cmocka_run_group_tests(tests, setup, teardown);
}
