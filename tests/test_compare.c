/* SPDX-License-Identifier: MIT */
/* test_compare.c - `muxprof compare` (src/compare*.c, src/cmd/compare.c):
 * two fixture hosts with partly overlapping cells, each reference dataset
 * against the figures printed in its article, malformed / truncated /
 * mismatched inputs (exit 2, file and field named), and a compare against
 * a reference by name from an unrelated directory.
 *
 * The verb is called in-process (mp_cmd_compare) with stdout/stderr sent
 * to files, so the test also runs under qemu-user; one test also runs the
 * real binary from a temporary directory and skips where the host cannot
 * start it (qemu-user without binfmt_misc). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "compare/compare.h"
#include "report/reference.h"
#include "report/report.h"

#include "fixture_edit.h"

#define FIX MP_TEST_FIXTURES "/compare"

static char tmpdir[256];
static char out_text[65536], err_text[65536];

static void slurp(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* Run mp_cmd_compare(argv) with stdout/stderr captured; returns its status. */
static int compare(const char *first, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"compare";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    char o[512], e[512];
    snprintf(o, sizeof o, "%s/out.txt", tmpdir);
    snprintf(e, sizeof e, "%s/err.txt", tmpdir);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(so >= 0 && se >= 0 && fo >= 0 && fe >= 0);
    dup2(fo, 1);
    dup2(fe, 2);
    int rc = mp_cmd_compare(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so); close(se); close(fo); close(fe);
    slurp(o, out_text, sizeof out_text);
    slurp(e, err_text, sizeof err_text);
    return rc;
}

#define HAS(hay, needle) do { if (!strstr((hay), (needle))) \
    fail_msg("expected to find \"%s\" in:\n%s", (needle), (hay)); } while (0)
#define HASNT(hay, needle) do { if (strstr((hay), (needle))) \
    fail_msg("did not expect \"%s\" in:\n%s", (needle), (hay)); } while (0)

static int setup(void **st)
{
    (void)st;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mp-test-compare.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- two hosts, partly overlapping ------------------------------------ */

static void two_hosts_shared_and_listed(void **st)
{
    (void)st;
    char out[512], md[200000];
    snprintf(out, sizeof out, "%s/ab", tmpdir);
    int rc = compare(FIX "/hostA", FIX "/hostB/results.json", "--out", out, "--no-plots",
                     NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/report.md", out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(md, 1, sizeof md - 1, f);
    md[n] = 0;
    fclose(f);
    /* hosts by CPU model and arch, not by file name */
    HAS(md, "| N | AMD EPYC 7763 64-Core Processor (x86_64) | Neoverse-N1 (aarch64) |");
    /* the shared cells: ready/pipe poll and epoll at 100 and 1000 */
    HAS(md, "## ready mode, pipe descriptors");
    HAS(md, "### poll: time per call (ns, median)");
    HAS(md, "| 100 | 650 | 2,150 |");
    {   /* the figure data carry the interval of each median ('?': none in the file) */
        char dat[4096];
        snprintf(path, sizeof path, "%s/figures/cmp_ready_pipe_poll_h1.dat", out);
        slurp(path, dat, sizeof dat);
        HAS(dat, "\nnfds p50 ratio_epoll ci_lo ci_hi\n");
        HAS(dat, "\n100 650 1.625 ? ?\n");
    }
    HAS(md, "| 1000 | 2,900 | 20,150 |");
    HAS(md, "| 1000 | 7.25 | 134 |");                         /* poll / epoll */
    HAS(md, "| poll, ns | 2.5 ns/fd (N 10..1000, 3 pts");
    HAS(md, "| poll, cycles | 7.5 cycles/fd (N 10..1000, 3 pts");
    HAS(md, "40 cycles/fd");                                   /* arm_n1::CPU_CYCLES */
    /* counters side by side, marked where the other host lacks them */
    HAS(md, "| cycles | 8,500 | **not counted here** (different PMU");
    HAS(md, "40,500 (user-only scope");
    /* x86_64 next to aarch64: the same backend is another system call */
    HAS(md, "Hosts of different architectures side by side: on aarch64 the C library's "
            "poll() is the ppoll system call, select() is pselect6");
    /* N = 10 is hostA's alone, so it is not in a compared table */
    HASNT(md, "\n| 10 | ");
    HASNT(md, "## wakeup mode");
    HASNT(md, "### select");
    /* the rest listed */
    HAS(md, "- AMD EPYC 7763 64-Core Processor (x86_64): ready mode, pipe fds, select at "
            "N = 10, 100, 1000");
    HAS(md, "- AMD EPYC 7763 64-Core Processor (x86_64): wakeup mode, pipe fds, poll at N = "
            "10, 100, 1000");
    HAS(md, "- Neoverse-N1 (aarch64): ready mode, pipe fds, poll at N = 10000");
    /* figures: data and wrappers even without drawing */
    snprintf(path, sizeof path, "%s/figures/cmp_cost_ready_pipe_poll.gp", out);
    assert_int_equal(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/figures/cmp_ready_pipe_poll_h2.dat", out);
    assert_int_equal(access(path, R_OK), 0);
}

static void read_md(const char *out, char *md, size_t len)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/report.md", out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(md, 1, len - 1, f);
    md[n] = 0;
    fclose(f);
}

/* --label names the inputs in order: the given names replace the CPU-derived
 * labels in tables and figure titles, the Hosts table keeps the CPU, an
 * input without a label keeps its own; more labels than inputs, or a name
 * that would break a table, is a usage error. */
static void labels(void **st)
{
    (void)st;
    char out[512], md[200000], gp[8192], path[PATH_MAX + 48];
    snprintf(out, sizeof out, "%s/lab", tmpdir);
    int rc = compare(FIX "/hostA", "--label", "epyc-box", FIX "/hostB", "--label=graviton",
                     "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "| N | epyc-box | graviton |");
    HAS(md, "| epyc-box: AMD EPYC 7763 64-Core Processor (x86_64) |");
    HAS(md, "| graviton: Neoverse-N1 (aarch64) |");
    HAS(md, "- epyc-box: ready mode, pipe fds, select at N = 10, 100, 1000");
    HASNT(md, "| N | AMD EPYC");
    HAS(out_text, "host 1: epyc-box  <- ");
    snprintf(path, sizeof path, "%s/figures/cmp_cost_ready_pipe_poll.gp", out);
    slurp(path, gp, sizeof gp);
    HAS(gp, "t1 = \"epyc-box\"\nt2 = \"graviton\"\n");

    /* fewer labels than inputs: the rest keep theirs (over the first comparison) */
    rc = compare(FIX "/hostA", FIX "/hostB", "--label", "only-a", "--out", out, "--force",
                 "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "| N | only-a | Neoverse-N1 (aarch64) |");

    assert_int_equal(compare(FIX "/hostA", FIX "/hostB", "--label", "a", "--label", "b",
                             "--label", "c", "--out", out, NULL), 2);
    HAS(err_text, "3 labels for 2 inputs");
    assert_int_equal(compare(FIX "/hostA", FIX "/hostB", "--out", out, "--label", NULL), 2);
    HAS(err_text, "--label needs a name");
    assert_int_equal(compare(FIX "/hostA", FIX "/hostB", "--label", "a|b", "--out", out, NULL),
                     2);
    HAS(err_text, "--label 'a|b': a label may not contain");
    assert_int_equal(compare(FIX "/hostA", FIX "/hostB", "--label", "", "--out", out, NULL), 2);
    HAS(err_text, "a label has 1 to 120 characters");
}

/* Two runs of one host, before and after: hostA copied twice, the second
 * with poll's ready N = 10 median 20 % higher and select's N = 1000 cell
 * unsupported with a long reason; samples.csv for both (40 per ok cell,
 * spread +-4 ns around the cell's median). */
#define LONG_REASON "descriptor 1030 is at or above FD_SETSIZE (1024), so select() cannot " \
    "watch it without overflowing its bitmap; use poll or epoll for this many descriptors"

static void write_run(const char *dir, int after)
{
    char path[PATH_MAX + 32], cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    static char text[400000];
    slurp(FIX "/hostA/results.json", text, sizeof text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    snprintf(path, sizeof path, "%s/samples.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "cell,repeat,wall_ns\n");
    int j = 0;
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "results")) {
        const char *b = cJSON_GetObjectItem(r, "backend")->valuestring;
        const char *mode = cJSON_GetObjectItem(r, "mode")->valuestring;
        int n = cJSON_GetObjectItem(r, "nfds")->valueint;
        cJSON *wall = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "metrics"), "wall_ns");
        cJSON *p50 = cJSON_GetObjectItem(wall, "p50");
        if (after && !strcmp(b, "poll") && !strcmp(mode, "ready") && n == 10)
            cJSON_SetNumberValue(p50, p50->valuedouble * 1.2);
        if (after && !strcmp(b, "select") && !strcmp(mode, "ready") && n == 1000) {
            cJSON_ReplaceItemInObject(r, "status", cJSON_CreateString("unsupported"));
            cJSON_ReplaceItemInObject(r, "reason", cJSON_CreateString(LONG_REASON));
            cJSON_ReplaceItemInObject(r, "metrics", cJSON_CreateObject());
        } else {
            for (int i = 0; i < 40; i++)
                fprintf(f, "%d,%d,%.0f\n", j, i % 2, p50->valuedouble + (i % 9) - 4);
            double rm[9];   /* nine repeats, spread +-4 ns around the median */
            for (int i = 0; i < 9; i++)   /* after, epoll ready 10: skewed, its top third high */
                rm[i] = p50->valuedouble + i - 4 +
                        (after && !strcmp(b, "epoll") && !strcmp(mode, "ready") && n == 10 &&
                         i >= 6 ? 0.3 * p50->valuedouble : 0);
            cJSON_DeleteItemFromObject(r, "repeat_medians_ns");
            cJSON_AddItemToObject(r, "repeat_medians_ns", cJSON_CreateDoubleArray(rm, 9));
            cJSON_AddStringToObject(r, "repeat_medians_of", "wall_ns");
        }
        j++;
    }
    fclose(f);
    char *out = cJSON_Print(root);
    snprintf(path, sizeof path, "%s/results.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(out, f);
    fclose(f);
    free(out);
    cJSON_Delete(root);
}

/* The row "| N | ..." of the table under heading in md. */
static const char *row_under(const char *md, const char *heading, const char *row)
{
    const char *h = strstr(md, heading);
    if (!h)
        fail_msg("no \"%s\" in:\n%s", heading, md);
    const char *r = strstr(h, row);
    if (!r)
        fail_msg("no row \"%s\" under \"%s\":\n%s", row, heading, h);
    return r;
}

static void same_host_before_after(void **st)
{
    (void)st;
    char before[300], after[300], out[300], md[200000], path[PATH_MAX];
    snprintf(before, sizeof before, "%s/runs/before", tmpdir);
    snprintf(after, sizeof after, "%s/runs/after", tmpdir);
    snprintf(out, sizeof out, "%s/ba", tmpdir);
    write_run(before, 0);
    write_run(after, 1);
    int rc = compare(before, after, "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    /* the first keeps its label; the second is told apart by its directory */
    HAS(out_text, "host 1: AMD EPYC 7763 64-Core Processor (x86_64)  <- ");
    HAS(out_text, "host 2: AMD EPYC 7763 64-Core Processor (x86_64), after  <- ");
    read_md(out, md, sizeof md);
    HAS(md, "| N | AMD EPYC 7763 64-Core Processor (x86_64) | AMD EPYC 7763 64-Core Processor "
            "(x86_64), after |");
    HASNT(md, "#1");
    /* the change in %, the ratio's interval and the test, over the repeats */
    const char *r = row_under(md, "#### poll: change against AMD EPYC 7763 64-Core Processor "
                              "(x86_64) (median; permutation test on the repeat medians",
                              "| 10 |");
    if (strncmp(r, "| 10 | +20.0% (1.1", 17) ||
        !strstr(r, "×), p < 0.001, **slower**; could show +3.0% / -3.0% |"))
        fail_msg("poll N = 10: %.80s", r);
    r = row_under(md, "#### poll: change against", "| 100 |");
    if (strncmp(r, "| 100 | +0.0% (0.9", 18) || strncmp(strchr(r, ')'), "), p = 1.000, within "
                                                       "noise; could show +", 38))
        fail_msg("poll N = 100: %.80s", r);
    /* the long reason is cut between words */
    r = row_under(md, "### select: time per call", "| 1000 |");
    const char *u = strstr(r, "unsupported: ");
    assert_non_null(u);
    u += strlen("unsupported: ");
    const char *dots = strstr(u, "...");
    assert_non_null(dots);
    size_t k = (size_t)(dots - u);
    assert_true(k > 40 && k <= 100);
    if (strncmp(u, LONG_REASON, k) || !strchr(" ,;:", LONG_REASON[k]))
        fail_msg("reason cut mid-word: '%.*s' of '%s'", (int)k, u, LONG_REASON);

    /* the delta table on stdout too, one line per cell */
    HAS(out_text, "change against host 1 (median; 95% interval of the ratio and permutation "
                  "test on the repeat medians):\n");
    HAS(out_text, " could show\n");
    HAS(md, "The threshold per cell: the larger of 3% and the wider of the two cells' median "
            "intervals over its median;");
    r = strstr(out_text, "\nready   pipe       poll                10     2   +20.0% 1.2");
    if (!r ||
        strncmp(strstr(r, "p < 0.001"), "p < 0.001 slower        +3.0% / -3.0%\n", 37))
        fail_msg("no stdout line for poll N = 10:\n%s", out_text);
    HASNT(out_text, "warning: host");

    /* the second input with 3 repeat medians per cell and a load warning of
     * its own: both carried into the comparison, the first on stdout too */
    char few[300];
    snprintf(few, sizeof few, "%s/runs/few", tmpdir);
    write_run(few, 1);
    cJSON *fd = mp_fx_doc(few, "results.json"), *x;
    assert_non_null(fd);
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(fd, "results")) {
        double rm[3] = {100, 101, 102};
        if (cJSON_GetObjectItem(x, "repeat_medians_ns"))
            cJSON_ReplaceItemInObject(x, "repeat_medians_ns", cJSON_CreateDoubleArray(rm, 3));
    }
    assert_int_equal(mp_fx_set_json(fd, "context.noise", "{\"warnings\": [\"the 1-minute "
                                    "load average reached 3.5 on 2 CPUs\"]}"), 0);
    snprintf(path, sizeof path, "%s/results.json", few);
    assert_int_equal(mp_fx_write_doc(path, fd), 0);
    rc = compare(before, few, "--out", out, "--force", "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    HAS(out_text, "warning: host 2: ");
    HAS(out_text, " cells have fewer than 4 repeat medians (fewest 3), the least the "
                  "permutation test needs");
    HASNT(out_text, "warning: host 1:");
    read_md(out, md, sizeof md);
    HAS(md, "- warning (AMD EPYC 7763 64-Core Processor (x86_64), few): ");
    HAS(md, "- warning (AMD EPYC 7763 64-Core Processor (x86_64), few, from its report): "
            "noisy run: the 1-minute load average reached 3.5 on 2 CPUs\n");

    /* one number per cell: not testable, and why */
    rc = compare(before, "epyc-9354p", "--out", out, "--force", "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "not testable |");
    HAS(md, "- not testable: ");
    HAS(md, "a published reference: one number per cell, no repeats");

    /* the same input twice */
    char again[PATH_MAX];
    snprintf(again, sizeof again, "%s/results.json", before);
    assert_int_equal(compare(before, again, "--out", out, NULL), 2);
    HAS(err_text, "are the same file");
    /* two --label alike */
    assert_int_equal(compare(before, after, "--label", "x", "--label", "x", "--out", out,
                             NULL), 2);
    HAS(err_text, "--label 'x' names two inputs");

    /* --json: one document on stdout, parsed */
    rc = compare(before, after, "--json", NULL);
    if (rc != 0)
        fail_msg("compare --json exited %d: %s", rc, err_text);
    cJSON *doc = cJSON_Parse(out_text);
    if (!doc)
        fail_msg("not JSON: %s", out_text);
    assert_string_equal(cJSON_GetObjectItem(doc, "schema")->valuestring, "muxprof-compare/1");
    cJSON *cmp = cJSON_GetObjectItem(doc, "comparison"), *c;
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cmp, "inputs")), 2);
    int seen = 0, checked = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(cmp, "cells")) {
        /* one estimate per change: the % is the ratio's, (ratio - 1) */
        cJSON *ch0 = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "change"), 0);
        if (ch0 && cJSON_IsTrue(cJSON_GetObjectItem(ch0, "testable"))) {
            double pct = cJSON_GetObjectItem(ch0, "change_pct")->valuedouble;
            double ratio = cJSON_GetObjectItem(ch0, "ratio")->valuedouble;
            if (fabs(pct - (ratio - 1) * 100) > 1e-9)
                fail_msg("change %.6f%% beside a ratio of %.6f", pct, ratio);
            checked++;
        }
        if (strcmp(cJSON_GetObjectItem(c, "backend")->valuestring, "poll") ||
            strcmp(cJSON_GetObjectItem(c, "mode")->valuestring, "ready") ||
            cJSON_GetObjectItem(c, "nfds")->valueint != 10)
            continue;
        cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "change"), 0);
        assert_float_equal(cJSON_GetObjectItem(ch, "change_pct")->valuedouble, 20, 0.5);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ch, "significant")));
        /* 9 against 9 repeats wholly apart: the two extreme splits of C(18, 9) */
        assert_float_equal(cJSON_GetObjectItem(ch, "p_value")->valuedouble, 2.0 / 48620, 1e-12);
        assert_string_equal(cJSON_GetObjectItem(ch, "verdict")->valuestring, "slower");
        /* what the cell could have shown: the threshold (3%) here, both ways */
        assert_float_equal(cJSON_GetObjectItem(ch, "could_show_slower_pct")->valuedouble, 3, 1e-9);
        assert_float_equal(cJSON_GetObjectItem(ch, "could_show_faster_pct")->valuedouble, -3,
                           1e-9);
        assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(ch, "ratio_ci"), "lo")->valuedouble
                    > 1.15);
        seen = 1;
    }
    assert_true(seen);
    assert_true(checked > 10);
    cJSON_Delete(doc);
}

/* The text after "| first | " of the first row so named after heading, up
 * to the next " |" (the slope and its interval). */
static void cell_after(const char *md, const char *heading, const char *first, char *out,
                       size_t len)
{
    const char *h = strstr(md, heading);
    if (!h)
        fail_msg("no \"%s\" in:\n%s", heading, md);
    const char *r = strstr(h, first);
    if (!r)
        fail_msg("no row \"%s\" under \"%s\"", first, heading);
    r += strlen(first);
    const char *e = strstr(r, " |");
    assert_non_null(e);
    snprintf(out, len, "%.*s", (int)(e - r), r);
}

/* compare's slope of a series is the one its own report fits (the same
 * function): the synthetic report fixture, whose wakeup poll bends (an
 * ordinary least-squares line through its medians says about 180 ns per fd,
 * the report's fit on relative error 70.7), with repeat medians for the
 * report's interval, compared with a copy of itself. */
static void slopes_as_report(void **st)
{
    (void)st;
    char a[300], b[300], out[300], path[PATH_MAX], md[200000], rep[200000];
    snprintf(a, sizeof a, "%s/slopeA", tmpdir);
    snprintf(b, sizeof b, "%s/slopeB", tmpdir);
    snprintf(out, sizeof out, "%s/slopes", tmpdir);
    for (int k = 0; k < 2; k++) {
        const char *dir = k ? b : a;
        mkdir(dir, 0700);
        cJSON *doc = mp_fx_doc(MP_TEST_FIXTURES "/report", "synthetic/results.json"), *c;
        assert_non_null(doc);
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(doc, "results")) {
            cJSON *status = cJSON_GetObjectItem(c, "status");
            if (!cJSON_IsString(status) || strcmp(status->valuestring, "ok"))
                continue;
            double p50 = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(c,
                "metrics"), "wall_ns"), "p50")->valuedouble, rm[9];
            for (int i = 0; i < 9; i++)
                rm[i] = p50 * (1 + 0.01 * ((i * 4) % 9 - 4));
            cJSON_AddItemToObject(c, "repeat_medians_ns", cJSON_CreateDoubleArray(rm, 9));
            cJSON_AddStringToObject(c, "repeat_medians_of", "wall_ns");
        }
        snprintf(path, sizeof path, "%s/results.json", dir);
        assert_int_equal(mp_fx_write_doc(path, doc), 0);
    }
    mp_err err;
    mp_err_clear(&err);
    if (mp_report_build(a, 0, &err))
        fail_msg("report: %s", err.msg);
    snprintf(path, sizeof path, "%s/report.md", a);
    slurp(path, rep, sizeof rep);
    int rc = compare(a, b, "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    static const char *const mode[] = {"ready", "wakeup"};
    for (int i = 0; i < 2; i++) {
        char h1[64], h2[64], r[128], c[256];
        snprintf(h1, sizeof h1, "## Results: %s mode, pipe fds", mode[i]);
        snprintf(h2, sizeof h2, "## %s mode, pipe descriptors", mode[i]);
        const char *sec = strstr(rep, h1);
        assert_non_null(sec);
        cell_after(sec, "| backend | ns per fd (fit)", "| poll | ", r, sizeof r);
        cell_after(md, h2, "| poll, ns | ", c, sizeof c);
        if (strncmp(c, r, strlen(r)) || strncmp(c + strlen(r), " ns/fd (N 10..10000, 6 pts", 26))
            fail_msg("%s: report's fit \"%s\", compare's \"%s\"", mode[i], r, c);
        if (!strchr(r, '['))
            fail_msg("%s: the report's fit has no interval: %s", mode[i], r);
    }
    HAS(md, "| poll, ns | 70.7 [");
}

/* A time in samples.csv that is not a finite number (nan, inf): the
 * changes, tested on the repeat medians of results.json, are unaffected
 * (an alarm bounds the wait). */
static void non_finite_sample(void **st)
{
    (void)st;
    static const char *const bad[] = {"nan", "inf", "-Infinity"};
    char before[300], after[300], out[300], path[320], md[200000];
    snprintf(before, sizeof before, "%s/runs/nf-before", tmpdir);
    snprintf(after, sizeof after, "%s/runs/nf-after", tmpdir);
    snprintf(out, sizeof out, "%s/nf", tmpdir);
    write_run(before, 0);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_run(after, 1);
        snprintf(path, sizeof path, "%s/samples.csv", after);
        static char text[400000];
        slurp(path, text, sizeof text);
        char *row = strchr(text, '\n') + 1;          /* line 2 ... */
        for (int k = 0; k < 4; k++)
            row = strchr(row, '\n') + 1;             /* ... line 6 */
        char *eol = strchr(row, '\n');
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%.*s0,1,%s%s", (int)(row - text), text, bad[i], eol);
        fclose(f);
        alarm(60);
        int rc = compare(before, after, "--out", out, "--no-plots", i ? "--force" : NULL, NULL);
        alarm(0);
        if (rc != 0)
            fail_msg("compare with a sample '%s' exited %d: %s", bad[i], rc, err_text);
        read_md(out, md, sizeof md);
        const char *r = row_under(md, "#### poll: change against", "| 10 |");
        if (strncmp(r, "| 10 | +20.0% (", 15) || !strstr(r, "**slower**"))
            fail_msg("poll N = 10 with a sample '%s': %.80s", bad[i], r);
    }
}

/* Profiles, K of N and experiments side by side: the report's synthetic
 * run against profB (make_more.py: times x 2, other poll phase shares and a
 * phase of its own, no epoll profile, no K = 64, no herd). */
static void profiles_kofn_experiments(void **st)
{
    (void)st;
    char out[512], md[200000];
    snprintf(out, sizeof out, "%s/prof", tmpdir);
    int rc = compare(MP_TEST_FIXTURES "/report/synthetic/results.json", FIX "/profB", "--out",
                     out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "## Kernel profiles side by side\n");
    HAS(md, "### poll, ready mode, pipe fds, N=10000: phase shares\n\n"
            "| phase | Synthetic CPU (x86_64) | Other CPU (aarch64) |\n|---|---:|---:|\n"
            "| samples (event) | 5,000 (cpu-clock) | 5,000 (cpu-clock) |\n"
            "| samples outside the calls | not separated (older file) | "
            "not separated (older file) |\n"
            "| user space | 2.0% | 2.0% |\n"
            "| entry | 5.0% (10,000 ns) | 10.0% (40,010 ns) |\n"
            "| copy_in | 8.0% (16,000 ns) | 20.0% (80,020 ns) |\n"
            "| scan | 82.0% (164,000 ns) | 60.0% (240,060 ns) |\n"
            "| copy_out | 5.0% (10,000 ns) | 5.0% (20,005 ns) |\n"
            "| wait | - | 3.0% (12,003 ns) |\n");
    HAS(md, "- epoll, ready mode, pipe fds, N=10000: profiled on Synthetic CPU (x86_64) only; "
            "Other CPU (aarch64): **no profile** for this cell.\n");
    HASNT(md, "### epoll, ready mode, pipe fds, N=10000: phase shares");
    /* K of N: shared (N, K) with a measured cell; K = 64 is A's alone */
    HAS(md, "## K of N ready side by side\n");
    HAS(md, "### poll, ready mode, pipe fds: time per call (ns, median) by N and K\n\n"
            "| N, K | Synthetic CPU (x86_64) | Other CPU (aarch64) |\n|---|---:|---:|\n"
            "| N=10, K=4 | 280 | 560 |\n| N=100, K=4 | 2,080 | 4,160 |\n");
    HAS(md, "| N=10000, K=16 | 3,300 | 6,600 |\n");                 /* epoll */
    HAS(md, "- poll, ready mode, pipe fds: measured on Synthetic CPU (x86_64) only: "
            "(N=100, K=64), (N=1000, K=64), (N=2000, K=64)");
    HAS(md, "  Other CPU (aarch64): **not measured** there.\n");
    HASNT(md, "| N=10, K=16 |");          /* unsupported on both: nothing to compare */
    HASNT(md, "wakeup mode, pipe fds: time per call (ns, median) by N and K");
    /* experiments */
    HAS(md, "## Experiments side by side\n");
    HAS(md, "### registration cost (register)\n\nns per fd (ns) for the rows that at least "
            "two hosts measured.\n\n| backend, fd kind, N |");
    HAS(md, "| epoll, pipe, 100 | 300 | 600 |\n");
    HAS(md, "| select, pipe, 10,000 | unsupported | unsupported |\n");
    HAS(md, "- thundering herd (herd): only Synthetic CPU (x86_64) ran it; not compared.\n");
    HAS(md, "| level, 64 | 64,000 | 128,000 |\n");
    HAS(md, "| edge, 4,096 | 1,500 | 3,000 |\n");
    /* the new sections come before the list of what was not compared */
    assert_true(strstr(md, "## Experiments side by side") <
                strstr(md, "## Not compared (measured by one input only)"));
}

/* One host with profiles, K of N and experiments, the other with none of
 * them: each part says so; and two hosts without any: no such sections. */
static void lacking_marked(void **st)
{
    (void)st;
    char out[512], md[200000];
    snprintf(out, sizeof out, "%s/lack", tmpdir);
    int rc = compare(MP_TEST_FIXTURES "/report/synthetic/results.json", FIX "/hostB", "--out",
                     out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "Only Synthetic CPU (x86_64) carries kernel profiles (`muxprof run --profile`), "
            "so there is nothing to set beside them: Neoverse-N1 (aarch64): **no profile** "
            "(run without --profile);");
    HAS(md, "- Neoverse-N1 (aarch64): **no K-of-N cells** (run without --active)\n");
    HAS(md, "- registration cost (register): only Synthetic CPU (x86_64) ran it; not "
            "compared.\n");
    HAS(md, "- level- vs edge-triggered epoll, partial reads (ltet): only Synthetic CPU "
            "(x86_64) ran it; not compared.\n");
    snprintf(out, sizeof out, "%s/none", tmpdir);
    rc = compare(FIX "/hostA", FIX "/hostB", "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HASNT(md, "## Kernel profiles");
    HASNT(md, "## K of N ready");
    HASNT(md, "## Experiments");
}

/* Two cache geometries side by side (simulated runs), each column
 * named by its model; and a simulated input beside a real one: the real
 * column never gets a simulated count, and the times are the real one's. */
static void simulated_geometries(void **st)
{
    (void)st;
    char out[512], md[200000];
    snprintf(out, sizeof out, "%s/sim", tmpdir);
    int rc = compare(MP_TEST_FIXTURES "/report/simulated/results.json", FIX "/sim_n1", "--out",
                     out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "- **A**: simulated (epyc-9354p), arm64 guest: L1d 32 KiB, L2 1 MiB\n"
            "- **B**: simulated (neoverse-n1), arm64 guest:");
    HAS(md, "### L1d misses per call (simulated)\n\n| backend | N | A per call | A per fd | "
            "A per array line | B per call | B per fd | B per array line |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|\n| poll | 10 | 4 |");
    HAS(md, "| poll | 100 | 445 | 4.45 |");
    HAS(md, "| 44.6 | 0.446 |");
    /* one ISA, two geometries: what the cache sizes change, nothing to take apart */
    HAS(md, "**The cache sizes** (ISA arm64): B (neoverse-n1) against A (epyc-9354p), B / A:");
    HASNT(md, "**The ISA**");
    HASNT(md, "taken apart");
    HASNT(md, "fewer than 4 repeat medians");
    HASNT(md, "time per call (ns, median)");
    HAS(md, "**simulated: counts of a cache model, no times**");
    HASNT(md, "timings mean nothing");
    snprintf(out, sizeof out, "%s/simreal", tmpdir);
    rc = compare(FIX "/sim_n1", FIX "/hostA", "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "| poll | 100 | 44.6 | 0.446 | 3.43 | not simulated (a real run) | | |\n");
    HAS(md, "### poll: time per call (ns, median)\n");
}

/* EPYC on x86_64 against Neoverse V1 on arm64, and EPYC on arm64 beside
 * them (scripts/muxsim.sh --geometry epyc-9354p,neoverse-v1: recorded
 * results, tests/fixtures/compare/sim_isa/): the difference taken apart
 * into what the ISA changes and what the cache sizes change, and a figure
 * per count. */
static void simulated_isa_apart(void **st)
{
    (void)st;
    char out[512], md[300000];
    snprintf(out, sizeof out, "%s/isa", tmpdir);
    int rc = compare(FIX "/sim_isa/epyc-9354p-x86_64", FIX "/sim_isa/neoverse-v1-arm64",
                     FIX "/sim_isa/epyc-9354p-arm64", "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "- **A**: simulated (epyc-9354p), x86_64 guest: L1d 32 KiB, L2 1 MiB, L3 32 MiB; "
            "dTLB 72,72 (entries, ways), L2 TLB 3072,24\n");
    HAS(md, "**The ISA** (geometry epyc-9354p): C (arm64) against A (x86_64), C / A:");
    HAS(md, "**The cache sizes** (ISA arm64): C (epyc-9354p) against B (neoverse-v1), C / B:");
    HAS(md, "**B against A, taken apart** through C (A's geometry under B's ISA): B / A = "
            "(C / A, the ISA) × (B / C, the cache sizes)");
    /* instructions are the ISA's alone: the cache sizes change none */
    HAS(md, "| poll | 4,000 | instructions | 1,019,180 | 885,763 | 0.869× | 0.869× | 1× |\n");
    HAS(md, "| poll | 4,000 | LLC-load misses | 308 | 0 | 308 → 0 | 308 → 0 | 0 both |\n");
    HAS(md, "| poll | L2 misses | between 100 (0 per fd) and 1,000 (14.1 per fd) |");
    HAS(md, "| instructions | 4,000 | 1,205× |");
    HAS(md, "(figures/cmp_sim_ready_tcp_instructions.png)");
    HAS(md, "(figures/cmp_sim_ready_tcp_LLC-load-misses.png)");
    char p[600];
    snprintf(p, sizeof p, "%s/figures/cmp_sim_ready_tcp_instructions.gp", out);
    assert_int_equal(access(p, R_OK), 0);
    snprintf(p, sizeof p, "%s/figures/cmp_sim_ready_tcp_instructions_epoll_h2.dat", out);
    assert_int_equal(access(p, R_OK), 0);
    /* the same inputs in another order: taken apart through the mirror input */
    snprintf(out, sizeof out, "%s/isa-rev", tmpdir);
    rc = compare(FIX "/sim_isa/neoverse-v1-arm64", FIX "/sim_isa/epyc-9354p-x86_64",
                 FIX "/sim_isa/epyc-9354p-arm64", "--out", out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "**B against A, taken apart** through C (B's geometry under A's ISA): B / A = "
            "(C / A, the cache sizes) × (B / C, the ISA)");
    HAS(md, "| poll | 4,000 | instructions | 885,763 | 1,019,180 | 1.15× | 1.15× | 1× |\n");
    /* --json: each shared cell carries the simulated counts per input */
    rc = compare(FIX "/sim_isa/epyc-9354p-x86_64", FIX "/sim_isa/neoverse-v1-arm64", "--json",
                 NULL);
    if (rc != 0)
        fail_msg("compare --json exited %d: %s", rc, err_text);
    cJSON *doc = cJSON_Parse(out_text), *c;
    if (!doc)
        fail_msg("not JSON: %s", out_text);
    int seen = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "comparison"), "cells")) {
        if (strcmp(cJSON_GetObjectItem(c, "backend")->valuestring, "poll") ||
            cJSON_GetObjectItem(c, "nfds")->valueint != 4000)
            continue;
        cJSON *ins = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "simulated"), "sim:instructions");
        assert_int_equal(cJSON_GetArraySize(ins), 2);
        assert_float_equal(cJSON_GetArrayItem(ins, 0)->valuedouble, 1019180, 0.5);
        assert_float_equal(cJSON_GetArrayItem(ins, 1)->valuedouble, 885763, 0.5);
        seen++;
    }
    assert_int_equal(seen, 1);
    cJSON_Delete(doc);
    /* --no-cross: two inputs that differ in both; nothing taken apart */
    snprintf(out, sizeof out, "%s/isa2", tmpdir);
    rc = compare(FIX "/sim_isa/epyc-9354p-x86_64", FIX "/sim_isa/neoverse-v1-arm64", "--out",
                 out, "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    read_md(out, md, sizeof md);
    HAS(md, "### What the ISA changes and what the cache sizes change\n\nA and B differ in "
            "both the ISA and the cache sizes, and no input shares the geometry of one and the "
            "ISA of the other: their difference mixes the two.");
    HAS(md, "### poll / epoll on the same input");
}

static void shared_n_api(void **st)
{
    (void)st;
    mp_cmp_host h[2];
    mp_err err;
    assert_int_equal(mp_cmp_host_open(&h[0], FIX "/hostA", &err), 0);
    assert_int_equal(mp_cmp_host_open(&h[1], FIX "/hostB", &err), 0);
    mp_cmp c = {h, 2};
    assert_int_equal(mp_cmp_prepare(&c, &err), 0);
    mp_cmp_group g = {"ready", "pipe"};
    long long n[8];
    assert_int_equal(mp_cmp_shared_n(&c, &g, "poll", n, 8), 2);
    assert_int_equal(n[0], 100);
    assert_int_equal(n[1], 1000);
    assert_int_equal(mp_cmp_shared_n(&c, &g, "select", n, 8), 0);
    assert_string_equal(h[0].cycles, "cycles");
    assert_string_equal(h[1].cycles, "arm_n1::CPU_CYCLES");
    assert_true(h[1].user_only);
    assert_false(h[0].user_only);
    mp_cmp_host_free(&h[0]);
    mp_cmp_host_free(&h[1]);
}

/* hostA with every wakeup cell's wake_delay_ns set to delay, in tmpdir/NAME. */
static void hostA_delayed(const char *name, const char *delay, char *dir, size_t len)
{
    cJSON *doc = mp_fx_doc(FIX, "hostA/results.json");
    assert_non_null(doc);
    const cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(doc, "results")) {
        char path[64];
        snprintf(path, sizeof path, "results[%d].wake_delay_ns", i++);
        if (!strcmp(cJSON_GetObjectItem(c, "mode")->valuestring, "wakeup"))
            assert_int_equal(mp_fx_set_json(doc, path, delay), 0);
    }
    snprintf(dir, len, "%s/%s", tmpdir, name);
    assert_int_equal(mkdir(dir, 0700), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/results.json", dir);
    assert_int_equal(mp_fx_write_doc(path, doc), 0);
}

/* Wakeup cells match only cells of the same wake delay (an older file's
 * read as 0); ready cells match whatever the delay. */
static void wake_delay_matched(void **st)
{
    (void)st;
    char d0[PATH_MAX], d1[PATH_MAX];
    hostA_delayed("delay0", "0", d0, sizeof d0);
    hostA_delayed("delay1ms", "1000000", d1, sizeof d1);
    const char *in[][2] = {{FIX "/hostA", d0}, {FIX "/hostA", d1}};
    for (int k = 0; k < 2; k++) {
        mp_cmp_host h[2];
        mp_err err;
        assert_int_equal(mp_cmp_host_open(&h[0], in[k][0], &err), 0);
        assert_int_equal(mp_cmp_host_open(&h[1], in[k][1], &err), 0);
        mp_cmp c = {h, 2};
        assert_int_equal(mp_cmp_prepare(&c, &err), 0);
        assert_int_equal(h[1].wake_apart, k);
        assert_non_null(mp_cmp_cell(&h[0], "wakeup", "pipe", "poll", 100));
        if (k)
            assert_null(mp_cmp_cell(&h[1], "wakeup", "pipe", "poll", 100));
        else
            assert_non_null(mp_cmp_cell(&h[1], "wakeup", "pipe", "poll", 100));
        assert_non_null(mp_cmp_cell(&h[1], "ready", "pipe", "poll", 100));
        mp_cmp_host_free(&h[0]);
        mp_cmp_host_free(&h[1]);
    }
}

/* Two runs that share only wakeup cells, measured at different wake delays,
 * share no cell: the refusal says which delays and what to do, before the
 * inputs' descriptions, so that long paths (here 120 characters a name)
 * cut those and not the advice. */
#define LONG_NAME "run-directory-with-a-long-name-as-fleets-and-archives-make-them-" \
                  "measured-on-the-same-host-at-two-different-wake-delays"
static void wake_delay_message(void **st)
{
    (void)st;
    char d0[PATH_MAX], d1[PATH_MAX];
    const char *names[] = {LONG_NAME "-0", LONG_NAME "-30us"}, *delays[] = {"0", "30000"};
    char *dirs[] = {d0, d1};
    for (int k = 0; k < 2; k++) {
        hostA_delayed(names[k], delays[k], dirs[k], PATH_MAX);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/results.json", dirs[k]);
        char *text = mp_test_slurp(path);
        cJSON *doc = text ? cJSON_Parse(text) : NULL;
        free(text);
        assert_non_null(doc);
        cJSON *res = cJSON_GetObjectItem(doc, "results");
        for (int i = cJSON_GetArraySize(res) - 1; i >= 0; i--)
            if (strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(res, i), "mode")->valuestring,
                       "wakeup"))
                cJSON_DeleteItemFromArray(res, i);
        assert_int_equal(mp_fx_write_doc(path, doc), 0);
    }
    mp_cmp_host h[2];
    mp_err err;
    assert_int_equal(mp_cmp_host_open(&h[0], d0, &err), 0);
    assert_int_equal(mp_cmp_host_open(&h[1], d1, &err), 0);
    mp_cmp c = {h, 2};
    assert_int_equal(mp_cmp_prepare(&c, &err), -EBADMSG);
    HAS(err.msg, "the inputs share no measured cell (same mode, fd kind, backend and N), so "
                 "there is nothing to compare: field results: ");
    HAS(err.msg, " the waiter slept 0 before the poke in ");
    HAS(err.msg, "'s wakeup cells and 30 us in ");
    HAS(err.msg, "'s: compare runs made with the same --wake-delay;");
    const char *advice = strstr(err.msg, "--wake-delay;"), *inputs = strstr(err.msg, " has ");
    assert_true(inputs == NULL || advice < inputs);   /* the descriptions may be cut */
    mp_cmp_host_free(&h[0]);
    mp_cmp_host_free(&h[1]);
}

/* ---- reference datasets, against their articles ---------------------- */

typedef struct want { const char *backend, *kind, *mode; long long nfds; double p50; } want;

static void check_ref(const char *name, const char *measured_on, const want *w, size_t nw,
                      size_t ncells)
{
    const mp_cmp_ref *r = mp_cmp_ref_find(name);
    if (!r)
        fail_msg("reference %s is not embedded", name);
    mp_rmodel m;
    mp_err err;
    mp_err_clear(&err);
    if (mp_cmp_ref_load(&m, r, &err))
        fail_msg("reference %s: %s", name, err.msg);
    assert_int_equal(m.ncells, ncells);
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(m.root, "source");
    assert_true(cJSON_IsString(src));
    HAS(src->valuestring, measured_on);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m.root, "reference")));
    for (size_t i = 0; i < nw; i++) {
        const mp_rcell *c = mp_rm_find(&m, w[i].mode, w[i].kind, w[i].backend, w[i].nfds);
        if (!c)
            fail_msg("%s: no ok cell %s %s %s N=%lld", name, w[i].mode, w[i].kind,
                     w[i].backend, w[i].nfds);
        if (c->wall.p50 != w[i].p50)
            fail_msg("%s: %s N=%lld p50 = %.10g, the article says %.10g", name,
                     w[i].backend, w[i].nfds, c->wall.p50, w[i].p50);
        /* only the median is published: nothing else may be invented */
        assert_true(isnan(c->wall.p90) && isnan(c->wall.p10) && isnan(c->wall.p99) &&
                    isnan(c->wall.mean) && isnan(c->wall.stddev) && isnan(c->wall.n));
        assert_int_equal(c->ncounters, 0);
    }
    mp_rm_free(&m);
}

static void ref_epyc_9354p(void **st)
{
    (void)st;
    /* seed 000, "Measured on our own hardware": ns per wakeup */
    static const want w[] = {
        {"poll", "unknown", "wakeup", 10, 3160}, {"poll", "unknown", "wakeup", 100, 11355},
        {"poll", "unknown", "wakeup", 1000, 96158}, {"poll", "unknown", "wakeup", 10000, 656745},
        {"epoll", "unknown", "wakeup", 10, 2473}, {"epoll", "unknown", "wakeup", 100, 2359},
        {"epoll", "unknown", "wakeup", 1000, 2379}, {"epoll", "unknown", "wakeup", 10000, 2728},
    };
    check_ref("epyc-9354p", "AMD EPYC 9354P, 8 cores visible, Linux 6.8.0-147-generic, 2026-10-25", w, sizeof w / sizeof w[0], 8);
    mp_rmodel m;
    mp_err err;
    assert_int_equal(mp_cmp_ref_load(&m, mp_cmp_ref_find("epyc-9354p"), &err), 0);
    char buf[128];
    assert_string_equal(mp_rm_text(&m, "context.cpu_model", buf, sizeof buf),
                        "AMD EPYC 9354P 32-Core Processor");
    assert_string_equal(mp_rm_text(&m, "context.kernel", buf, sizeof buf), "6.8.0-147-generic");
    assert_string_equal(mp_rm_text(&m, "context.nr_cpus", buf, sizeof buf), "8");
    /* the article's "epoll speedup at largest 240.75" */
    double ratio = mp_rm_find(&m, "wakeup", "unknown", "poll", 10000)->wall.p50 /
                   mp_rm_find(&m, "wakeup", "unknown", "epoll", 10000)->wall.p50;
    assert_true(fabs(ratio - 240.742) < 0.001);   /* 656745 / 2728 */
    const cJSON *claims = cJSON_GetObjectItemCaseSensitive(m.root, "source_claims");
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(claims, "poll_over_epoll_at_10000");
    assert_true(cJSON_IsNumber(sp));
    assert_true(sp->valuedouble == 240.75);             /* as printed; rounding differs */
    assert_true(fabs(ratio - sp->valuedouble) < 0.01);
    mp_rm_free(&m);
}

static void ref_aarch64_gcc13_pipe(void **st)
{
    (void)st;
    /* seed 002's table, dots as thousands separators: 1.814 ns = 1814 ns */
    static const want w[] = {
        {"select", "pipe", "ready", 100, 1814}, {"select", "pipe", "ready", 1000, 23174},
        {"poll", "pipe", "ready", 100, 1919}, {"poll", "pipe", "ready", 1000, 22263},
        {"poll", "pipe", "ready", 10000, 203307},
        {"epoll", "pipe", "ready", 100, 132}, {"epoll", "pipe", "ready", 1000, 125},
        {"epoll", "pipe", "ready", 10000, 132},
    };
    check_ref("aarch64-gcc13-pipe", "gcc:13 container on an ARM AArch64 host", w, sizeof w / sizeof w[0], 9);
    mp_rmodel m;
    mp_err err;
    assert_int_equal(mp_cmp_ref_load(&m, mp_cmp_ref_find("aarch64-gcc13-pipe.json"), &err), 0);
    assert_string_equal(m.arch, "aarch64");
    assert_int_equal(m.abi, MP_ABI_ARM64);
    /* select at 10000: "(>1024)", not possible */
    assert_null(mp_rm_find(&m, "ready", "pipe", "select", 10000));
    int found = 0;
    for (size_t i = 0; i < m.ncells; i++)
        if (!strcmp(m.cells[i].backend, "select") && m.cells[i].nfds == 10000) {
            assert_int_equal(m.cells[i].status, MP_CELL_UNSUPPORTED);
            HAS(m.cells[i].reason, "FD_SETSIZE");
            found = 1;
        }
    assert_true(found);
    /* "1.540 lan": poll / epoll at 10000 */
    assert_true(fabs(203307.0 / 132.0 - 1540) < 1);
    mp_rm_free(&m);
}

static void ref_python_selectors_tcp(void **st)
{
    (void)st;
    /* seed 001: select 4.6 -> 16.9 us (8 -> 256), poll 3.6 -> 32.5 us (8 -> 900),
     * epoll ~3.5 us flat 8..900 */
    static const want w[] = {
        {"select", "tcp", "wakeup", 8, 4600}, {"select", "tcp", "wakeup", 256, 16900},
        {"poll", "tcp", "wakeup", 8, 3600}, {"poll", "tcp", "wakeup", 900, 32500},
        {"epoll", "tcp", "wakeup", 8, 3500}, {"epoll", "tcp", "wakeup", 900, 3500},
    };
    check_ref("python-selectors-tcp", "8-core lab box, kernel 6.12, 2026-09-30", w, sizeof w / sizeof w[0],
              6);
}


static void references_listed(void **st)
{
    (void)st;
    assert_int_equal(compare("--list-references", NULL), 0);
    size_t n = 0;
    for (const mp_cmp_ref *r = mp_cmp_refs; r->name; r++, n++)
        HAS(out_text, r->name);
    assert_int_equal(n, 3);
    HAS(out_text, "AMD EPYC 9354P 32-Core Processor (x86_64)");
    HASNT(out_text, "unreadable");
}

/* ---- bad inputs: exit 2, the file and the field named ----------------- */

/* Compare `in` (a variation of hostA written by the caller) with hostB: exit 2,
 * the file and the field named. */
static void bad_input(const char *in, const char *field)
{
    char out[512];
    snprintf(out, sizeof out, "%s/bad", tmpdir);
    int rc = compare(in, FIX "/hostB", "--out", out, NULL);
    if (rc != 2)
        fail_msg("%s: exit %d, expected 2; stderr: %s", in, rc, err_text);
    HAS(err_text, in);
    HAS(err_text, field);
}

/* hostA with one defect each: a path and the JSON its value becomes. */
static const struct {
    const char *path, *value, *field;
} bad_fields[] = {
    {"results[4].nfds", "\"many\"", "field results[4].nfds"},
    {"results[2].metrics.wall_ns.p50", "\"fast\"", "field results[2].metrics.wall_ns.p50"},
    {"schema", "\"muxprof-results/2\"", "field schema"},
    {"reference", "\"yes\"", "field reference"},
    {"reference", "true", "field source"},   /* a reference names its source */
    {"context.cpu_model", "7763", "field context.cpu_model"},
};

static void malformed_inputs(void **st)
{
    (void)st;
    char in[PATH_MAX];
    snprintf(in, sizeof in, "%s/bad.json", tmpdir);
    for (size_t i = 0; i < sizeof bad_fields / sizeof bad_fields[0]; i++) {
        cJSON *doc = mp_fx_doc(FIX, "hostA/results.json");
        assert_non_null(doc);
        assert_int_equal(mp_fx_set_json(doc, bad_fields[i].path, bad_fields[i].value), 0);
        assert_int_equal(mp_fx_write_doc(in, doc), 0);
        bad_input(in, bad_fields[i].field);
    }
}

static void truncated_input(void **st)
{
    (void)st;
    char in[PATH_MAX];
    snprintf(in, sizeof in, "%s/truncated.json", tmpdir);
    char *text = mp_fx_text(FIX, "hostA/results.json");
    assert_non_null(text);
    assert_int_equal(mp_fx_write_text(in, text, strlen(text) / 2), 0);
    free(text);
    bad_input(in, "not valid JSON near line");
}

static void mismatched_inputs(void **st)
{
    (void)st;
    char out[512];
    snprintf(out, sizeof out, "%s/mm", tmpdir);
    int rc = compare(FIX "/eventfd_only", FIX "/hostB", "--out", out, NULL);
    assert_int_equal(rc, 2);
    HAS(err_text, "share no measured cell");
    HAS(err_text, "field results");
    HAS(err_text, FIX "/eventfd_only/results.json has wakeup mode, eventfd fds");
    HAS(err_text, FIX "/hostB/results.json has ready mode, pipe fds");
    /* a missing input, and usage errors */
    /* a missing input is the environment (1), like a missing file anywhere */
    assert_int_equal(compare(FIX "/nope", "epyc-9354p", "--out", out, NULL), 1);
    HAS(err_text, FIX "/nope: no such run directory, results.json or reference");
    assert_int_equal(compare(FIX "/hostA", "--out", out, NULL), 2);
    assert_int_equal(compare(FIX "/hostA", "epyc-9354p", NULL), 2);
    HAS(err_text, "--out DIR is required");
    assert_int_equal(compare("--help", NULL), 0);
    HAS(out_text, "usage: muxprof compare");
}

/* A reference whose article gives "~3.5 us" is shown as approximate; an
 * interrupted run is flagged; two references that share nothing are refused. */
static void approximate_and_interrupted(void **st)
{
    (void)st;
    char out[512], path[600], md[65536];
    snprintf(out, sizeof out, "%s/tcp", tmpdir);
    int rc = compare(FIX "/tcp_interrupted", "python-selectors-tcp", "--out", out,
                     "--no-plots", NULL);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    snprintf(path, sizeof path, "%s/report.md", out);
    slurp(path, md, sizeof md);
    HAS(md, "## wakeup mode, tcp descriptors");
    HAS(md, "| 900 | 3,000 | ~3,500 |");                  /* epoll */
    HAS(md, "| 256 | 3,512 | 16,900 |");                 /* select */
    HAS(md, "| 900 | 5,250 | 32,500 |");                 /* poll */
    HAS(md, "**run interrupted**");
    HAS(md, "unknown CPU (not given) (unknown)");
    HAS(md, "- AMD EPYC 7763 64-Core Processor (x86_64): wakeup mode, tcp fds, select at N = 900");
    /* seed 001 (wakeup, tcp, N 8..900) and seed 002 (ready, pipe): nothing shared */
    assert_int_equal(compare("python-selectors-tcp", "aarch64-gcc13-pipe", "--out", out, NULL), 2);
    HAS(err_text, "reference python-selectors-tcp (built in: reports/reference/python-selectors-tcp.json)"
                  " has wakeup mode, tcp fds");
}

/* ---- a reference by name from any directory ---------------------------- */

static void reference_from_any_directory(void **st)
{
    (void)st;
    char cwd[PATH_MAX], here[512], md[65536], path[PATH_MAX + 32];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(here, sizeof here, "%s/elsewhere", tmpdir);
    assert_int_equal(mkdir(here, 0755), 0);
    assert_int_equal(chdir(here), 0);
    int rc = compare(FIX "/hostA", "epyc-9354p", "--out", "rel-out", "--no-plots", NULL);
    assert_int_equal(chdir(cwd), 0);
    if (rc != 0)
        fail_msg("compare exited %d: %s", rc, err_text);
    snprintf(path, sizeof path, "%s/rel-out/report.md", here);
    slurp(path, md, sizeof md);
    HAS(md, "| AMD EPYC 9354P 32-Core Processor (x86_64) |");
    HAS(md, "does not say which fd kind it measured; it is compared here as if it were pipe");
    HAS(md, "| 1000 | 5,500 | 96,158 |");
    HAS(md, "median only (no spread known)");
    HAS(md, "- AMD EPYC 9354P 32-Core Processor (x86_64): wakeup mode, unknown fds, poll at "
            "N = 10000");

    /* the installed binary too, when this host can start it */
    snprintf(path, sizeof path, "cd '%s' && '%s' --help >/dev/null 2>&1", here, MP_TEST_BIN);
    int st0 = system(path);
    if (st0 == -1 || !WIFEXITED(st0) || WEXITSTATUS(st0) != 0) {
        print_message("cannot start %s here (qemu-user without binfmt_misc?): "
                      "binary part skipped\n", MP_TEST_BIN);
        return;
    }
    snprintf(path, sizeof path, "cd '%s' && '%s' compare '%s/hostA' epyc-9354p --out bin-out "
             "--no-plots >/dev/null 2>&1", here, MP_TEST_BIN, FIX);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/bin-out/report.md", here);
    slurp(path, md, sizeof md);
    HAS(md, "| 1000 | 5,500 | 96,158 |");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_hosts_shared_and_listed),
        cmocka_unit_test(labels),
        cmocka_unit_test(same_host_before_after),
        cmocka_unit_test(non_finite_sample),
        cmocka_unit_test(profiles_kofn_experiments),
        cmocka_unit_test(lacking_marked),
        cmocka_unit_test(simulated_geometries),
        cmocka_unit_test(simulated_isa_apart),
        cmocka_unit_test(shared_n_api),
        cmocka_unit_test(wake_delay_matched),
        cmocka_unit_test(wake_delay_message),
        cmocka_unit_test(ref_epyc_9354p),
        cmocka_unit_test(ref_aarch64_gcc13_pipe),
        cmocka_unit_test(ref_python_selectors_tcp),
        cmocka_unit_test(references_listed),
        cmocka_unit_test(malformed_inputs),
        cmocka_unit_test(truncated_input),
        cmocka_unit_test(mismatched_inputs),
        cmocka_unit_test(approximate_and_interrupted),
        cmocka_unit_test(reference_from_any_directory),
        cmocka_unit_test(slopes_as_report),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
