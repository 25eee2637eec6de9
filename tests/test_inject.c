/* SPDX-License-Identifier: MIT */
/* test_inject.c - strings of a results.json are data: fixture runs edited to
 * carry gnuplot, shell, Markdown and HTML injections (in context.arch,
 * context.cpu_model, context.host, a counter name, a profile function name,
 * a compare --label) go through `muxprof report` and `muxprof compare` with
 * the figures drawn.  No command hidden in them runs (no PWN* file appears),
 * and report.md and the SVGs carry no raw <img or <script outside a Markdown
 * code span (where it is shown as text).  A name the reader refuses (a
 * backend) is refused, and nothing runs either. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "fuzz/oracle_quote.h"
#include "report/plot.h"
#include "test_util.h"

#define FIX MP_TEST_FIXTURES "/report/"

static char top[64];

/* Injections, each of which runs `touch PWN...` (in the directory gnuplot
 * or a shell runs in) if it reaches its target unquoted. */
#define ARCH "x\";system \"id>PWN\";#"   /* 20 characters: the title keeps them all */
#define CPU "CPU `touch PWN1` \";system \"touch PWN2\";# \\\" <img src=x onerror=alert(1)>" \
            "\nsystem \"touch PWN3\""
#define HOST "<script>alert(2)</script>|`x`[l](javascript:alert(3))"
#define METRIC "<img/src=x/onerror=alert(4)>"
#define FUNC "`touch PWN4`<img src=x onerror=alert(5)>"
#define LABEL "<img src=x onerror=alert(6)> $(touch PWN5)"

static cJSON *load_json(const char *path)
{
    char *text = mp_test_slurp(path);
    if (!text)
        fail_msg("cannot read %s", path);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    assert_non_null(doc);
    return doc;
}

static void save_json(const char *dir, cJSON *doc)
{
    char path[600];
    snprintf(path, sizeof path, "%s/results.json", dir);
    char *text = cJSON_Print(doc);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(doc);
}

static void set_str(cJSON *o, const char *key, const char *v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    cJSON_AddStringToObject(o, key, v);
}

/* A run directory top/NAME holding fixture FIXTURE with the injections. */
static void make_run(const char *name, const char *fixture, char *dir, size_t len)
{
    snprintf(dir, len, "%s/%s", top, name);
    assert_int_equal(mkdir(dir, 0755), 0);
    char src[600];
    snprintf(src, sizeof src, FIX "%s/results.json", fixture);
    cJSON *doc = load_json(src);
    cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
    set_str(ctx, "arch", ARCH);
    set_str(ctx, "cpu_model", CPU);
    set_str(ctx, "host", HOST);
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "results")) {
        cJSON *mt = cJSON_GetObjectItemCaseSensitive(c, "metrics");
        cJSON *l1 = cJSON_DetachItemFromObjectCaseSensitive(mt, "L1-dcache-load-misses");
        if (l1)
            cJSON_AddItemToObject(mt, METRIC, l1);
        cJSON *fn = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(c, "profile"), "functions"), 0);
        if (fn)
            set_str(fn, "name", FUNC);
    }
    save_json(dir, doc);
}

static int setup(void **state)
{
    (void)state;
    return mp_test_mkdtemp(top, sizeof top, "inject");
}

static int teardown(void **state)
{
    (void)state;
    return mp_test_rmtree(top);
}

/* Files named PWN* anywhere under dir: a command that ran. */
static int pwned(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (!strncmp(e->d_name, "PWN", 3)) {
            printf("  a command ran: %s exists\n", p);
            n++;
        }
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            n += pwned(p);
    }
    closedir(d);
    return n;
}

static void no_markup(const char *path, int markdown)
{
    char *text = mp_test_slurp(path);
    if (!text)
        fail_msg("%s was not written", path);
    if (markdown)
        oracle_strip_code_spans(text);
    static const char *bad[] = {"<img", "<script", "](javascript:"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *at = strstr(text, bad[i]);
        if (at)
            fail_msg("%s holds raw %s: ...%.80s", path, bad[i], at);
    }
    free(text);
}

static void svgs_clean(const char *figdir)
{
    DIR *d = opendir(figdir);
    assert_non_null(d);
    struct dirent *e;
    size_t n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".svg")) {
            char p[1200];
            snprintf(p, sizeof p, "%s/%s", figdir, e->d_name);
            no_markup(p, 0);
            n++;
        }
    }
    closedir(d);
    if (!n)
        fail_msg("no SVG was drawn in %s", figdir);
}

static int run_in(const char *dir, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >/dev/null 2>&1", dir, MP_TEST_BIN, args);
    int s = system(cmd);
    return WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s);
}

static void need_gnuplot(void)
{
    if (!mp_plot_gnuplot_found(NULL, 0)) {
        printf("SKIP: gnuplot is not installed: the injections target its scripts\n");
        skip();
    }
}

static void test_report(void **state)
{
    (void)state;
    need_gnuplot();
    char a[300], b[300], p[400];
    make_run("synthetic", "synthetic", a, sizeof a);
    make_run("profile", "profile", b, sizeof b);
    assert_int_equal(run_in(top, "report synthetic"), 0);
    assert_int_equal(run_in(top, "report profile"), 0);
    assert_int_equal(pwned(a) + pwned(b), 0);
    snprintf(p, sizeof p, "%s/report.md", a);
    no_markup(p, 1);
    snprintf(p, sizeof p, "%s/report.md", b);
    no_markup(p, 1);
    snprintf(p, sizeof p, "%s/figures", a);
    svgs_clean(p);
}

static void test_compare(void **state)
{
    (void)state;
    need_gnuplot();
    char a[300], b[300], p[400];
    make_run("cmp_in", "synthetic", a, sizeof a);
    make_run("cmp_in2", "synthetic", b, sizeof b);   /* labelled by its CPU model and arch */
    assert_int_equal(run_in(top, "compare cmp_in cmp_in2 --label '" LABEL
                             "' --out cmp"), 0);
    snprintf(p, sizeof p, "%s/cmp", top);
    assert_int_equal(pwned(a) + pwned(b) + pwned(p), 0);
    snprintf(p, sizeof p, "%s/cmp/report.md", top);
    no_markup(p, 1);
    snprintf(p, sizeof p, "%s/cmp/figures", top);
    svgs_clean(p);
}

/* Names the reader checks are refused before any figure is written. */
static void test_refused_name(void **state)
{
    (void)state;
    char dir[300], src[400];
    snprintf(dir, sizeof dir, "%s/badname", top);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(src, sizeof src, FIX "synthetic/results.json");
    cJSON *doc = load_json(src);
    set_str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "results"), 0), "backend",
            "poll\";system \"touch PWN6\";#");
    save_json(dir, doc);
    assert_int_equal(run_in(top, "report badname"), 2);
    assert_int_equal(pwned(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_refused_name),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
