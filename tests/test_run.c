/* SPDX-License-Identifier: MIT */
/* test_run.c - the real binary end to end: a quick sweep whose results.json
 * parses and holds every cell of the plan with its statistics and context;
 * and a sweep interrupted by SIGINT that exits 130, marks its results
 * "interrupted", leaves no helper process and no temporary file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return mp_test_mkdtemp(dir, sizeof dir, "run");
}

static int teardown(void **state)
{
    (void)state;
    return mp_test_rmtree(dir);
}

static cJSON *load_json(const char *path)
{
    char *text = mp_test_slurp(path);
    if (!text)
        fail_msg("cannot read %s", path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    if (!j)
        fail_msg("%s does not parse as JSON", path);
    return j;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsNumber(v))
        fail_msg("field '%s' is not a number", k);
    return v->valuedouble;
}

/* No ".*.tmp.*" file in d. */
static void assert_no_tmp(const char *d)
{
    DIR *dd = opendir(d);
    assert_non_null(dd);
    struct dirent *e;
    while ((e = readdir(dd)))
        if (strstr(e->d_name, ".tmp."))
            fail_msg("temporary file left: %s/%s", d, e->d_name);
    closedir(dd);
}


static void test_quick_run(void **state)
{
    (void)state;
    char out[128], cmd[512], path[256];
    snprintf(out, sizeof out, "%s/quick", dir);
    snprintf(cmd, sizeof cmd, "%s run --quick --no-plots --quiet --out %s > %s.stdout",
             MP_TEST_BIN, out, out);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);

    snprintf(path, sizeof path, "%s/results.json", out);
    cJSON *j = load_json(path);
    assert_string_equal(str(j, "schema"), "muxprof-results/1");
    assert_string_equal(str(j, "status"), "complete");
    const cJSON *ctx = cJSON_GetObjectItem(j, "context");
    for (const char *const *k = (const char *const[]){"host", "arch", "cpu_model", "kernel",
             "governor", "clocksource", "git_describe", "command", NULL}; *k; k++)
        if (!str(ctx, *k))
            fail_msg("context.%s missing", *k);
    assert_non_null(cJSON_GetObjectItem(ctx, "perf_event_paranoid"));
    const cJSON *cal = cJSON_GetObjectItem(j, "calibration");
    assert_non_null(str(cal, "clock"));
    assert_true(num(cJSON_GetObjectItem(cal, "empty_bracket_ns"), "p50") > 0);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(cal, "bare_loop")) > 0);
    assert_non_null(cJSON_GetObjectItem(j, "topology"));
    assert_non_null(cJSON_GetObjectItem(j, "counters"));

    /* --quick: select,poll,epoll x 10,100,1000 x ready,wakeup = 18 cells. */
    const cJSON *res = cJSON_GetObjectItem(j, "results");
    assert_int_equal(cJSON_GetArraySize(res), 18);
    const char *backends[] = {"select", "poll", "epoll"};
    const int ns[] = {10, 100, 1000};
    const char *modes[] = {"ready", "wakeup"};
    for (int b = 0; b < 3; b++)
        for (int n = 0; n < 3; n++)
            for (int m = 0; m < 2; m++) {
                const cJSON *c, *found = NULL;
                cJSON_ArrayForEach(c, res)
                    if (!strcmp(str(c, "backend"), backends[b]) && num(c, "nfds") == ns[n] &&
                        !strcmp(str(c, "mode"), modes[m]))
                        found = c;
                if (!found)
                    fail_msg("cell %s N=%d %s missing", backends[b], ns[n], modes[m]);
                const char *status = str(found, "status");
                if (strcmp(status, "ok"))
                    fail_msg("cell %s N=%d %s: %s (%s)", backends[b], ns[n], modes[m], status,
                             str(found, "reason") ? str(found, "reason") : "");
                const cJSON *wall = cJSON_GetObjectItem(cJSON_GetObjectItem(found, "metrics"),
                                                        "wall_ns");
                assert_non_null(wall);
                double p10 = num(wall, "p10"), p50 = num(wall, "p50"), p99 = num(wall, "p99");
                assert_true(p10 <= p50 && p50 <= p99 && p50 > 0);
                double kept = num(found, "samples_kept");
                if (!strcmp(modes[m], "ready"))
                    assert_true(kept == 500);   /* 100 samples x 5 repeats */
                else
                    assert_true(kept + num(found, "samples_discarded") == 500);
                assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(found,
                                 "repeat_medians_ns")), 5);
                /* the interval comes from the repeat medians (on wall_ns's scale):
                 * with 5 repeats their whole range, covering 93.75% */
                const cJSON *ci = cJSON_GetObjectItem(found, "wall_p50_ci95_ns");
                const cJSON *rm = cJSON_GetObjectItem(found, "repeat_medians_ns"), *e;
                double rlo = INFINITY, rhi = -INFINITY;
                cJSON_ArrayForEach(e, rm) {
                    rlo = fmin(rlo, e->valuedouble);
                    rhi = fmax(rhi, e->valuedouble);
                }
                if (!ci || num(ci, "lo") != rlo || num(ci, "hi") != rhi ||
                    num(ci, "level") != 0.9375 || num(ci, "repeats") != 5 ||
                    strcmp(str(ci, "method"), "order statistics of the repeat medians") ||
                    strcmp(str(found, "repeat_medians_of"), "wall_ns"))
                    fail_msg("cell %s N=%d %s: wall_p50_ci95_ns missing or not the range of "
                             "the repeat medians %g..%g", backends[b], ns[n], modes[m], rlo,
                             rhi);
                assert_true(num(found, "fd_hi") >= num(found, "fd_lo") + ns[n] - 1);
            }
    cJSON_Delete(j);

    snprintf(path, sizeof path, "%s/results.csv", out);
    char *csv = mp_test_slurp(path);
    assert_non_null(csv);
    assert_true(!strncmp(csv, "cell,backend,fd_kind,mode,nfds,active,", 38));
    assert_non_null(strstr(csv, ",status,metric,unit,p10,p50,"));
    assert_non_null(strstr(csv, ",poll,pipe,wakeup,1000,1,"));
    assert_non_null(strstr(csv, ",ok,wall_ns,ns,"));
    free(csv);
    snprintf(path, sizeof path, "%s/samples.csv", out);
    char *sm = mp_test_slurp(path);
    assert_non_null(sm);
    size_t lines = 0;
    for (char *p = sm; *p; p++)
        lines += *p == '\n';
    free(sm);
    assert_true(lines > 18 * 250);
    snprintf(path, sizeof path, "%s.stdout", out);
    char *so = mp_test_slurp(path);
    assert_non_null(strstr(so, "ready mode, pipe, median per call [p10-p90]"));
    assert_non_null(strstr(so, "poll/epoll"));
    assert_non_null(strstr(so, "run directory:"));
    free(so);
    assert_no_tmp(out);
}

/* Lines in the file at path so far (0 when it is not there yet). */
static int journal_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int n = 0;
    for (int ch; (ch = getc(f)) != EOF;)
        n += ch == '\n';
    fclose(f);
    return n;
}

static void test_interrupted_run(void **state)
{
    (void)state;
    char out[128], path[256];
    snprintf(out, sizeof out, "%s/interrupted", dir);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execl(MP_TEST_BIN, MP_TEST_BIN, "run", "--mode", "wakeup", "--fds", "10,100,1000,5000",
              "--samples", "3000", "--repeats", "5", "--quiet", "--no-plots", "--out", out,
              (char *)NULL);
        _exit(127);
    }
    /* The handler exists once the run directory does (a slow start, as
     * under an emulator, must not meet the default action); the signal
     * comes once the journal holds a record of a pass (at most 60 s),
     * then 1 s into the sweep. */
    struct timespec tick = {0, 10000000}, ts = {1, 0};
    for (int i = 0; i < 6000 && access(out, F_OK) != 0; i++)
        nanosleep(&tick, NULL);
    snprintf(path, sizeof path, "%s/journal.jsonl", out);
    for (int i = 0; i < 6000 && journal_lines(path) < 2; i++)
        nanosleep(&tick, NULL);
    nanosleep(&ts, NULL);
    kill(pid, SIGINT);
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 130)
        fail_msg("interrupted run: status %d, expected exit 130", st);
    snprintf(path, sizeof path, "%s/results.json", out);
    cJSON *j = load_json(path);
    assert_string_equal(str(j, "status"), "interrupted");
    assert_non_null(str(j, "interrupted_cell"));
    /* Only cells that were reached are written, each with a final status. */
    const cJSON *c;
    int ncells = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "results")) {
        const char *s = str(c, "status");
        if (strcmp(s, "ok") && strcmp(s, "unsupported") && strcmp(s, "error"))
            fail_msg("interrupted run wrote a cell with status '%s'", s);
        ncells++;
    }
    cJSON_Delete(j);
    /* The report verb reads an interrupted run like any other: exit 0, or 1
     * when the stop came before any cell (a report of nothing measured). */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s report --no-plots %s >/dev/null 2>&1", MP_TEST_BIN, out);
    int rst = system(cmd);
    if (!WIFEXITED(rst) || WEXITSTATUS(rst) != (ncells ? 0 : 1))
        fail_msg("muxprof report on the interrupted run (%d cells): status %d", ncells, rst);
    assert_int_equal(mp_test_procs_mentioning(out), 0);
    assert_no_tmp(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quick_run),
        cmocka_unit_test(test_interrupted_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
