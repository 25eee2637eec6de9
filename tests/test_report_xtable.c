/* SPDX-License-Identifier: MIT */
/* test_report_xtable.c - the report section drawn from an experiment's own
 * table (report/load_xtable.c, report/sec_xtable.c): an experiment report/
 * knows nothing of gets its title, method, rows (a failed row says its
 * status and reason) and figure data files split and per series, sorted by x;
 * a malformed table or row is left out with a warning, an object that failed
 * as a whole says why, and the file is never refused for them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "report/model.h"
#include "report/report.h"

#define FIX MP_TEST_FIXTURES "/report/"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = 0;
    fclose(f);
    return b;
}

/* dir (made) with results.json: fixture with `demo` (and `extra`) added
 * under "experiments". */
static void write_with(char *dir, size_t len, const char *fixture, const char *demo,
                       const char *extra)
{
    snprintf(dir, len, "/tmp/mp_test_xtable.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *text = slurp(fixture);
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    assert_non_null(doc);
    cJSON *x = cJSON_GetObjectItemCaseSensitive(doc, "experiments");
    if (!cJSON_IsObject(x)) {
        cJSON_DeleteItemFromObject(doc, "experiments");
        x = cJSON_AddObjectToObject(doc, "experiments");
    }
    cJSON_AddItemToObject(x, "demo", cJSON_Parse(demo));
    if (extra)
        cJSON_AddItemToObject(x, "extra", cJSON_Parse(extra));
    char p[600];
    snprintf(p, sizeof p, "%s/results.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    char *out = cJSON_Print(doc);
    fputs(out, f);
    fclose(f);
    free(out);
    cJSON_Delete(doc);
}

/* The experiments-only fixture with `demo` (and `extra`): its report.md. */
static char *report_with(char *dir, size_t len, const char *demo, const char *extra)
{
    write_with(dir, len, FIX "experiments_only/results.json", demo, extra);
    mp_err err;
    mp_err_clear(&err);
    if (mp_report_build(dir, 0, &err))
        fail_msg("mp_report_build: %s", err.msg);
    char p[600];
    snprintf(p, sizeof p, "%s/report.md", dir);
    char *md = slurp(p);
    assert_non_null(md);
    return md;
}

static void rm_rf(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

#define HAS(md, s) do { if (!strstr((md), (s))) \
    fail_msg("lacks:\n  %s\nin:\n%s", (s), (md)); } while (0)

static const char *demo =
    "{\"table\": {\"title\": \"demo cost\", \"summary\": \"s\", \"method\": \"One sample.\","
    " \"columns\": ["
    "  {\"key\": \"name\", \"label\": \"name\", \"unit\": \"\", \"kind\": \"key\"},"
    "  {\"key\": \"kind\", \"label\": \"kind\", \"unit\": \"\", \"kind\": \"key\"},"
    "  {\"key\": \"n\", \"label\": \"N\", \"unit\": \"fds\", \"kind\": \"key\"},"
    "  {\"key\": \"status\", \"label\": \"status\", \"unit\": \"\", \"kind\": \"status\"},"
    "  {\"key\": \"reason\", \"label\": \"reason\", \"unit\": \"\", \"kind\": \"reason\"},"
    "  {\"key\": \"t.p50\", \"label\": \"time p50\", \"unit\": \"ns\", \"kind\": \"value\"},"
    "  {\"key\": \"per\", \"label\": \"per fd\", \"unit\": \"ns\", \"kind\": \"value\"}],"
    " \"rows\": ["
    "  [\"a\", \"pipe\", 100, \"ok\", null, 2000, 20],"
    "  [\"a\", \"pipe\", 10, \"ok\", null, 300, 30],"
    "  [\"b\", \"pipe\", 10, \"unsupported\", \"too | many\", null, null],"
    "  [\"b\", \"pipe\", 100, \"ok\", null, 1500, null],"
    "  [\"c\", \"pipe\", 10, \"maybe\", null, 1, 1],"
    "  [\"c\", \"pipe\"]],"
    " \"figures\": ["
    "  {\"name\": \"cost\", \"x\": \"n\", \"y\": [\"per\"], \"series\": \"name\","
    "   \"split\": \"kind\", \"logx\": true, \"logy\": false, \"title\": \"%s: per fd\"},"
    "  {\"name\": \"odd\", \"x\": \"nothing\", \"y\": [\"per\"], \"title\": \"t\"}]}}";

static void section_from_table(void **st)
{
    (void)st;
    char dir[64];
    char *md = report_with(dir, sizeof dir, demo, NULL);
    HAS(md, "## Experiment: demo cost (demo)\n\nOne sample.\n\n"
            "| name | kind | N (fds) | time p50 (ns) | per fd (ns) |\n"
            "|---|---|---|---:|---:|\n"
            "| a | pipe | 100 | 2,000 | 20 |\n"
            "| a | pipe | 10 | 300 | 30 |\n"
            "| b | pipe | 10 | unsupported: too \\| many | |\n"
            "| b | pipe | 100 | 1,500 | – |\n\n");
    HAS(md, "- experiments.demo.table.rows: 2 row(s) left out (first: [4])");
    HAS(md, "- experiments.demo.table.figures[1] left out");
    HAS(md, "Figure not drawn (--no-plots; a drawing an earlier report made is kept): "
            "`figures/demo_cost_pipe.gp`");
    /* one data file per series, rows sorted by x, rows without a value left out */
    char p[600];
    snprintf(p, sizeof p, "%s/figures/data_demo_cost_pipe_a.dat", dir);
    char *dat = slurp(p);
    assert_non_null(dat);
    HAS(dat, "\nn per\n10 30\n100 20\n");
    free(dat);
    snprintf(p, sizeof p, "%s/figures/data_demo_cost_pipe_b.dat", dir);
    assert_int_equal(access(p, F_OK), -1);
    snprintf(p, sizeof p, "%s/figures/demo_cost_pipe.gp", dir);
    char *gp = slurp(p);
    assert_non_null(gp);
    HAS(gp, "files = \"data_demo_cost_pipe_a.dat\"\n");
    HAS(gp, "ttl = \"pipe: per fd\"\n");
    HAS(gp, "logx = 1\nlogy = 0\n");
    HAS(gp, "load \"table.gp\"");
    free(gp);
    /* the fixture's own experiment (an old file's herd, converted) beside it */
    HAS(md, "## Experiment: thundering herd (herd)\n");
    free(md);
    rm_rf(dir);
}

static void failed_and_malformed(void **st)
{
    (void)st;
    char dir[64];
    char *md = report_with(dir, sizeof dir, "{\"status\": \"error\", \"reason\": \"no memory\"}",
                           "{\"table\": {\"title\": \"x\", \"columns\": 3, \"rows\": []}}");
    HAS(md, "## Experiment: demo\n\nNot measured: error: no memory.\n\n");
    HAS(md, "- experiments.extra.table ignored: title, columns");
    HAS(md, "## Experiment: extra\n\nNo usable table in `experiments.extra`.\n\n");
    free(md);
    rm_rf(dir);
}

/* A smaller demo: rows a/10 (value V), b/10 unsupported, REST. */
static char *demo_of(char *buf, size_t len, int v, const char *rest)
{
    snprintf(buf, len,
             "{\"table\": {\"title\": \"demo cost\", \"columns\": ["
             " {\"key\": \"name\", \"label\": \"name\", \"unit\": \"\", \"kind\": \"key\"},"
             " {\"key\": \"n\", \"label\": \"N\", \"unit\": \"fds\", \"kind\": \"key\"},"
             " {\"key\": \"status\", \"label\": \"status\", \"unit\": \"\", \"kind\": \"status\"},"
             " {\"key\": \"t\", \"label\": \"time\", \"unit\": \"ns\", \"kind\": \"value\"},"
             " {\"key\": \"per\", \"label\": \"per fd\", \"unit\": \"ns\", \"kind\": \"value\"}],"
             " \"rows\": [[\"a\", 10, \"ok\", 1, %d], [\"b\", 10, \"unsupported\", null, null]%s],"
             " \"figures\": [{\"name\": \"f\", \"x\": \"n\", \"y\": [\"per\"], \"title\": \"t\"}]}}",
             v, rest);
    return buf;
}

static void compared_side_by_side(void **st)
{
    (void)st;
    char a[64], b[64], out[128], d1[2048], d2[2048];
    write_with(a, sizeof a, FIX "synthetic/results.json",
               demo_of(d1, sizeof d1, 30, ", [\"c\", 100, \"ok\", 5, 7]"), NULL);
    write_with(b, sizeof b, MP_TEST_FIXTURES "/compare/profB/results.json",
               demo_of(d2, sizeof d2, 1500, ", [\"d\", 100, \"ok\", 5, 7]"), NULL);
    snprintf(out, sizeof out, "%s/cmp", a);
    char *argv[] = {"compare", a, b, "--out", out, "--no-plots", NULL};
    if (mp_cmd_compare(6, argv) != 0)
        fail_msg("compare failed");
    char p[600];
    snprintf(p, sizeof p, "%s/report.md", out);
    char *md = slurp(p);
    assert_non_null(md);
    HAS(md, "### demo cost (demo)\n\nper fd (ns) for the rows that at least two hosts "
            "measured.\n\n| name, N |");
    HAS(md, "\n| a, 10 | 30 | 1,500 |\n| b, 10 | unsupported | unsupported |\n\n");
    if (strstr(md, "| c, 100 |") || strstr(md, "| d, 100 |"))
        fail_msg("a row one host measured is compared:\n%s", md);
    free(md);
    rm_rf(a);
    rm_rf(b);
}

/* What a table asks the report to compute: comparisons read out at the
 * smallest and the largest N where two names ran, the highest over the
 * lowest; fits per series (slope, intercept, R², rows); a figure whose x is
 * a column of names drawn as bars, one group per row in table order. */
static const char *demo_read =
    "{\"table\": {\"title\": \"demo cost\","
    " \"method\": \"Reads `a|b` then <img src=x> and `unpaired\", \"columns\": ["
    " {\"key\": \"name\", \"label\": \"name\", \"unit\": \"\", \"kind\": \"key\"},"
    " {\"key\": \"n\", \"label\": \"N\", \"unit\": \"fds\", \"kind\": \"key\"},"
    " {\"key\": \"status\", \"label\": \"status\", \"unit\": \"\", \"kind\": \"status\"},"
    " {\"key\": \"t\", \"label\": \"time\", \"unit\": \"ns\", \"kind\": \"value\"},"
    " {\"key\": \"per\", \"label\": \"per fd\", \"unit\": \"ns\", \"kind\": \"value\"}],"
    " \"rows\": [[\"b\", 10, \"ok\", 200, 20], [\"a\", 10, \"ok\", 100, 10],"
    "  [\"a\", 100, \"ok\", 1000, 10], [\"b\", 100, \"ok\", 4000, 40],"
    "  [\"c\", 1000, \"ok\", 9, 9], [\"a\", 1000, \"unsupported\", null, null]],"
    " \"figures\": [{\"name\": \"bars\", \"x\": \"name\", \"y\": [\"t\", \"per\"],"
    "  \"split\": \"n\", \"title\": \"N = %s\"}],"
    " \"fits\": [{\"y\": \"t\", \"x\": \"n\", \"series\": \"name\", \"label\": \"ns per added fd\"},"
    "  {\"y\": \"name\", \"x\": \"n\", \"label\": \"bad\"}],"
    " \"compare\": [{\"y\": \"per\", \"by\": \"name\", \"at\": \"n\"},"
    "  {\"y\": \"t\", \"by\": \"name\"}, {\"y\": \"per\", \"by\": \"t\"}]}}";

static void readings_fits_and_bars(void **st)
{
    (void)st;
    char dir[64];
    char *md = report_with(dir, sizeof dir, demo_read, NULL);
    HAS(md, "| c | 1,000 | 9 | 9 |\n| a | 1,000 | unsupported: no reason given | |\n\n"
            "- per fd (ns) at N = 10: b 20, a 10; b's is 2× a's.\n"
            "- per fd (ns) at N = 100: a 10, b 40; b's is 4× a's.\n"
            "- time (ns): b 200, a 100, c 9; b's is 22.2× c's.\n\n"
            "time against N, least squares over the measured rows of each name: the slope is "
            "the ns per added fd.\n\n"
            "| name | ns per added fd | intercept (ns) | R² | rows |\n"
            "|---|---:|---:|---:|---:|\n| b | 42.2 | -222 | 1 | 2 |\n| a | 10 | 0 | 1 | 2 |\n\n");
    HAS(md, "## Experiment: demo cost (demo)\n\nReads `a|b` then &lt;img src=x&gt; and "
            "\\`unpaired\n\n");   /* the method: code spans kept, the rest quoted */
    HAS(md, "- experiments.demo.table.fits[1] left out");
    HAS(md, "- experiments.demo.table.compare[2] left out");
    char p[600];
    snprintf(p, sizeof p, "%s/figures/data_demo_bars_10.dat", dir);
    char *dat = slurp(p);
    assert_non_null(dat);
    HAS(dat, "\nname t per\nb 200 20\na 100 10\n");
    free(dat);
    snprintf(p, sizeof p, "%s/figures/demo_bars_10.gp", dir);
    char *gp = slurp(p);
    assert_non_null(gp);
    HAS(gp, "bars = 1\n");
    HAS(gp, "ttl = \"N = 10\"\n");
    free(gp);
    free(md);
    /* report --json: the same readings and fits, and the rows by column key */
    mp_rmodel m;
    mp_err err;
    snprintf(p, sizeof p, "%s/results.json", dir);
    assert_int_equal(mp_rm_load(&m, p, &err), 0);
    cJSON *doc = mp_report_json(&m);
    char *js = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "experiments"), "demo"));
    assert_non_null(js);
    HAS(js, "\"rows\":[{\"name\":\"b\",\"n\":10,\"status\":\"ok\",\"t\":200,\"per\":20},");
    HAS(js, "{\"y\":\"per\",\"by\":\"name\",\"at\":\"n\",\"at_value\":100,"
            "\"values\":{\"a\":10,\"b\":40},\"highest\":\"b\",\"lowest\":\"a\",\"ratio\":4}");
    HAS(js, "{\"y\":\"t\",\"x\":\"n\",\"label\":\"ns per added fd\",\"series\":\"name\","
            "\"series_value\":\"a\",\"slope\":10,\"intercept\":0,\"r2\":1,\"rows\":2}");
    free(js);
    cJSON_Delete(doc);
    mp_rm_free(&m);
    rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(section_from_table),
        cmocka_unit_test(failed_and_malformed),
        cmocka_unit_test(compared_side_by_side),
        cmocka_unit_test(readings_fits_and_bars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
