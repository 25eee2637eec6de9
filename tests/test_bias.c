/* SPDX-License-Identifier: MIT */
/* test_bias.c - the harness does not bias its own numbers: the real binary,
 * small sweeps, and the fields results.json records about the harness
 * itself (descriptor-table users, registration, counter intervals).
 * Timings are never compared here (bench/ and docs/methodology.md hold
 * the measured effects); what is checked is the mechanism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/backend.h"
#include "common/stats.h"
#include "run/context.h"
#include "run/results.h"
#include "test_util.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return mp_test_mkdtemp(dir, sizeof dir, "bias");
}

static int teardown(void **state)
{
    (void)state;
    return mp_test_rmtree(dir);
}

/* Run `muxprof run ARGS --out DIR/name` and return its results.json. */
static cJSON *run_json(const char *name, const char *args)
{
    char cmd[1024], path[256];
    snprintf(cmd, sizeof cmd, "%s run %s --no-plots --quiet --out %s/%s >/dev/null 2>%s/%s.err",
             MP_TEST_BIN, args, dir, name, dir, name);
    int st = system(cmd);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(path, sizeof path, "%s/%s.err", dir, name);
        char *e = mp_test_slurp(path);
        fail_msg("muxprof run %s: status %d: %s", args, st, e ? e : "");
    }
    snprintf(path, sizeof path, "%s/%s/results.json", dir, name);
    char *text = mp_test_slurp(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!j)
        fail_msg("%s does not parse", path);
    return j;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static const cJSON *metric(const cJSON *cell, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(cell, "metrics"), name);
}

/* Every ok cell of the run: fd_table as asked, process_threads as expected. */
static int check_fd_table(const cJSON *j, const char *table, int threads)
{
    const cJSON *c;
    int ok = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "results")) {
        if (strcmp(str(c, "status"), "ok"))
            fail_msg("cell %s %s N=%d: %s (%s)", str(c, "backend"), str(c, "mode"),
                     cJSON_GetObjectItem(c, "nfds")->valueint, str(c, "status"),
                     str(c, "reason"));
        if (strcmp(str(c, "fd_table"), table))
            fail_msg("cell %s %s: fd_table '%s', expected '%s'", str(c, "backend"),
                     str(c, "mode"), str(c, "fd_table"), table);
        const cJSON *t = cJSON_GetObjectItem(c, "process_threads");
        if (!cJSON_IsNumber(t) || t->valueint != threads)
            fail_msg("cell %s %s: process_threads %s, expected %d", str(c, "backend"),
                     str(c, "mode"), cJSON_IsNumber(t) ? cJSON_Print(t) : "missing", threads);
        ok++;
    }
    return ok;
}

/* With both modes asked for (the default), every timed block runs with one
 * thread in the measuring process: the poker is another process. */
static void test_fd_table_private(void **state)
{
    (void)state;
    cJSON *j = run_json("private", "--backends poll,epoll --fds 10 --mode ready,wakeup "
                        "--samples 30 --repeats 2 --events task-clock");
    assert_int_equal(check_fd_table(j, "private", 1), 4);
    /* ready cells: their own empty bracket, the one subtracted from the raw samples */
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "results")) {
        if (strcmp(str(c, "mode"), "ready"))
            continue;
        const cJSON *eb = cJSON_GetObjectItem(c, "empty_bracket_ns");
        if (!cJSON_IsNumber(eb) || eb->valuedouble <= 0)
            fail_msg("ready cell %s has no empty_bracket_ns", str(c, "backend"));
        double raw = cJSON_GetObjectItem(metric(c, "wall_raw_ns"), "p50")->valuedouble;
        double net = cJSON_GetObjectItem(metric(c, "wall_ns"), "p50")->valuedouble;
        if (raw - net < eb->valuedouble - 0.5 || raw - net > eb->valuedouble + 0.5)
            fail_msg("ready cell %s: raw - net p50 = %g, empty_bracket_ns %g",
                     str(c, "backend"), raw - net, eb->valuedouble);
    }
    cJSON_Delete(j);
    /* samples.csv carries the cell's keys, so it joins results.csv alone. */
    char path[256];
    snprintf(path, sizeof path, "%s/private/samples.csv", dir);
    char *csv = mp_test_slurp(path);
    assert_non_null(csv);
    static const char hdr[] = "cell,backend,fd_kind,mode,nfds,active,wake_delay_ns,fd_table,"
                              "samples,repeats,warmup,ready_pos,repeat_order,events,placement,"
                              "quick,experiments,waiters,profile,repeat,wall_raw_ns\n";
    if (strncmp(csv, hdr, sizeof hdr - 1) != 0)
        fail_msg("samples.csv header: %.200s", csv);
    assert_non_null(strstr(csv, ",poll,pipe,ready,10,1,"));
    assert_non_null(strstr(csv, ",epoll,pipe,wakeup,10,1,"));
    free(csv);
}

/* --fd-table shared: one parked thread shares the table in every block;
 * with both values the run measures both and the report compares them. */
static void test_fd_table_shared(void **state)
{
    (void)state;
    cJSON *j = run_json("shared", "--backends poll --fds 10 --mode ready,wakeup --samples 30 "
                        "--repeats 2 --events task-clock --fd-table shared");
    assert_int_equal(check_fd_table(j, "shared", 2), 2);
    cJSON_Delete(j);
    j = run_json("both", "--backends poll,epoll --fds 10 --mode ready --samples 30 "
                 "--repeats 2 --events task-clock --fd-table shared,private");
    const cJSON *c;
    int n[2] = {0, 0};
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "results")) {
        int shared = !strcmp(str(c, "fd_table"), "shared");
        const cJSON *t = cJSON_GetObjectItem(c, "process_threads");
        if (strcmp(str(c, "status"), "ok") || !cJSON_IsNumber(t) || t->valueint != 1 + shared)
            fail_msg("cell %s %s: status %s, process_threads %d", str(c, "backend"),
                     str(c, "fd_table"), str(c, "status"), cJSON_IsNumber(t) ? t->valueint : -1);
        n[shared]++;
    }
    assert_int_equal(n[0], 2);
    assert_int_equal(n[1], 2);
    cJSON_Delete(j);
    char path[256];
    snprintf(path, sizeof path, "%s/both/report.md", dir);
    char *md = mp_test_slurp(path);
    assert_non_null(md);
    if (!strstr(md, "Private against shared descriptor table") ||
        !strstr(md, "| poll | ready | pipe | 10 |"))
        fail_msg("report.md does not compare the private and shared cells");
    free(md);
}

/* The calibration's clock label says "vDSO" only for clocksources that
 * have a vDSO mode. */
static void test_clock_label(void **state)
{
    (void)state;
    char b[256];
    const char *fast[] = {"tsc", "kvm-clock", "arch_sys_counter", "hyperv_clocksource_tsc_page"};
    const char *slow[] = {"hpet", "acpi_pm", "jiffies", "refined-jiffies"};
    for (int i = 0; i < 4; i++) {
        if (!strstr(mp_clock_label_for(fast[i], b, sizeof b), "vDSO") || strstr(b, "system call"))
            fail_msg("%s: '%s' should say vDSO", fast[i], b);
        if (strstr(mp_clock_label_for(slow[i], b, sizeof b), "in the vDSO") ||
            !strstr(b, "system call"))
            fail_msg("%s: '%s' should say system call", slow[i], b);
    }
    if (strstr(mp_clock_label_for("", b, sizeof b), "in the vDSO"))
        fail_msg("unknown clocksource labelled '%s'", b);
}

static int cell_int(const cJSON *c, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(c, k);
    if (!cJSON_IsNumber(v))
        fail_msg("cell %s %s: %s is not a number", str(c, "backend"), str(c, "mode"), k);
    return v->valueint;
}

/* Each backend is registered on the descriptors only during its own
 * blocks: no other epoll or io_uring set watches them while poll runs. */
static void test_registered_alone(void **state)
{
    (void)state;
    cJSON *j = run_json("alone", "--backends poll,epoll,io_uring --fds 10 --mode wakeup "
                        "--samples 30 --repeats 2 --events task-clock");
    const cJSON *c;
    int seen = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "results")) {
        if (strcmp(str(c, "status"), "ok"))
            continue;   /* io_uring may be missing on this kernel */
        int own = strcmp(str(c, "backend"), "poll") ? 1 : 0;
        if (cell_int(c, "watch_sets") != own)
            fail_msg("cell %s: %d epoll/io_uring sets open during its blocks, expected %d",
                     str(c, "backend"), cell_int(c, "watch_sets"), own);
        seen++;
    }
    assert_true(seen >= 2);
    cJSON_Delete(j);
}

/* A counter whose every sample was dropped is written as null, with the
 * reason and the drop count, never as a summary of zeros; results.csv
 * leaves its numbers empty. */
static void test_null_counter(void **state)
{
    (void)state;
    mp_run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.backends[0] = mp_backend_find("poll");
    cfg.nbackends = 1;
    cfg.fds[0] = 10;
    cfg.ncounts = 1;
    cfg.actives[0] = 1;
    cfg.nactives = 1;
    cfg.modes[0] = MP_MODE_WAKEUP;
    cfg.nmodes = 1;
    cfg.fd_tables[0] = MP_FDT_PRIVATE;
    cfg.nfd_tables = 1;
    cfg.kinds[0] = MP_FD_PIPE;
    cfg.nkinds = 1;
    cfg.samples = 1;
    cfg.repeats = 1;
    cfg.experiments = MP_EXP_CALLS;
    mp_results r;
    mp_err e;
    assert_int_equal(mp_results_init(&r, &cfg, &e), 0);
    r.context = cJSON_CreateObject();
    r.topology = cJSON_CreateObject();
    r.counters = cJSON_CreateObject();
    mp_cell *c = &r.cells[0];
    c->status = MP_CELL_OK;
    static double med[1] = {1000}, bare[1] = {0}, bm[1] = {0};
    c->repeat_medians = med;
    c->bare_loop = bare;
    c->bare_loop_mean = bm;
    mp_metric *w = mp_cell_add_metric(c, "wall_ns");
    double x = 1000;
    mp_summarize(&x, 1, &w->s);
    mp_metric *m = mp_cell_add_metric(c, "context-switches");
    mp_summarize(NULL, 0, &m->s);   /* nothing kept */
    m->is_counter = 1;
    m->dropped = 200;
    snprintf(m->scope, sizeof m->scope, "user+kernel");
    char out[128];
    snprintf(out, sizeof out, "%s/null", dir);
    mp_dir od;
    assert_int_equal(mp_dir_create(&od, out, &e), 0);
    cJSON *cells = cJSON_CreateArray(), *head = mp_results_head_json(&r);
    cJSON *tail = mp_results_tail_json(&r);
    cJSON_AddItemToArray(cells, mp_cell_json(c, cfg.repeats));
    cJSON *root = mp_results_assemble(head, tail, NULL, cells, NULL);
    assert_int_equal(mp_write_results_json(root, &od, &e), 0);
    assert_int_equal(mp_write_csv(root, &od, &e), 0);
    mp_dir_close(&od);
    cJSON_Delete(root);
    cJSON_Delete(cells);
    cJSON_Delete(head);
    cJSON_Delete(tail);
    c->repeat_medians = c->bare_loop = c->bare_loop_mean = NULL;
    mp_results_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/results.json", out);
    char *text = mp_test_slurp(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    if (!j)
        fail_msg("results.json does not parse: %.300s", text ? text : "(unreadable)");
    free(text);
    const cJSON *cell = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0);
    const cJSON *v = metric(cell, "context-switches");
    if (!v || !cJSON_IsNull(v))
        fail_msg("a counter with no kept sample is not null: %s", v ? cJSON_Print(v) : "absent");
    const cJSON *why = cJSON_GetObjectItem(cJSON_GetObjectItem(cell, "counters_missing"),
                                           "context-switches");
    assert_non_null(why);
    assert_int_equal(cJSON_GetObjectItem(why, "dropped")->valueint, 200);
    assert_true(*str(why, "reason") != 0);
    cJSON_Delete(j);
    snprintf(path, sizeof path, "%s/results.csv", out);
    char *csv = mp_test_slurp(path);
    assert_non_null(strstr(csv, ",context-switches,events,,,,,,,,,0,,,\n"));
    free(csv);
}

/* Unprivileged (nobody, no capabilities) with perf_event_paranoid 2: no
 * counter reads 0 for want of counting it, and task-clock says it counts
 * kernel time too. */
static void test_unprivileged(void **state)
{
    (void)state;
    char args[512], sub[128];
    snprintf(sub, sizeof sub, "%s/unpriv", dir);
    if (mkdir(sub, 0777) < 0 || chmod(sub, 0777) < 0 || chmod(dir, 0755) < 0)
        fail_msg("cannot make %s writable for nobody", sub);
    snprintf(args, sizeof args, "--backends poll --fds 10 --mode ready,wakeup --samples 50 "
             "--repeats 2 --events task-clock,context-switches,cpu-migrations,page-faults");
    char cmd[1024], path[256];
    snprintf(cmd, sizeof cmd, "setpriv --reuid=65534 --regid=65534 --clear-groups %s run %s "
             "--no-plots --quiet --out %s/r >/dev/null 2>%s/err", MP_TEST_BIN, args, sub, sub);
    int st = system(cmd);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(path, sizeof path, "%s/err", sub);
        char *e = mp_test_slurp(path);
        fail_msg("unprivileged run: status %d: %s", st, e ? e : "");
    }
    snprintf(path, sizeof path, "%s/r/results.json", sub);
    char *text = mp_test_slurp(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    assert_non_null(j);
    const cJSON *ctr = cJSON_GetObjectItem(j, "counters"), *e, *c;
    assert_string_equal(str(ctr, "scope"), "user");
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(ctr, "events")) {
        const char *n = str(e, "name");
        if (!strcmp(n, "context-switches") || !strcmp(n, "cpu-migrations")) {
            if (strcmp(str(e, "status"), "unavailable") || !*str(e, "reason"))
                fail_msg("%s in a user-only run: status '%s', expected unavailable with a "
                         "reason", n, str(e, "status"));
        }
        if (!strcmp(n, "task-clock") && strcmp(str(e, "scope"), "user+kernel"))
            fail_msg("task-clock scope '%s': it counts kernel time whatever the bits say",
                     str(e, "scope"));
    }
    int wakeups = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "results")) {
        if (strcmp(str(c, "status"), "ok"))
            fail_msg("cell %s %s: %s", str(c, "backend"), str(c, "mode"), str(c, "reason"));
        const char *bad[] = {"context-switches", "cpu-migrations"};
        for (int i = 0; i < 2; i++) {
            const cJSON *m = metric(c, bad[i]);
            if (m && !cJSON_IsNull(m))
                fail_msg("cell %s %s reports %s (p50 %g) in a user-only run", str(c, "backend"),
                         str(c, "mode"), bad[i],
                         cJSON_GetObjectItem(m, "p50")->valuedouble);
        }
        const cJSON *tc = metric(c, "task-clock");
        if (!tc || strcmp(str(tc, "scope"), "user+kernel"))
            fail_msg("cell %s %s: task-clock missing or scope '%s'", str(c, "backend"),
                     str(c, "mode"), tc ? str(tc, "scope") : "");
        wakeups += !strcmp(str(c, "mode"), "wakeup");
    }
    assert_int_equal(wakeups, 1);
    cJSON_Delete(j);
}

/* 77 (skip) unless this can drop to an unprivileged user under paranoid >= 2. */
static int unprivileged_possible(void)
{
    int paranoid = -9;   /* a /proc file has no size: no mp_test_slurp */
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f) {
        if (fscanf(f, "%d", &paranoid) != 1)
            paranoid = -9;
        fclose(f);
    }
    if (geteuid() != 0) {
        printf("SKIP: needs root to drop to uid 65534 with setpriv\n");
        return 0;
    }
    if (system("setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null") != 0) {
        printf("SKIP: setpriv cannot drop privileges here (util-linux's setpriv missing?)\n");
        return 0;
    }
    if (paranoid < 2) {
        printf("SKIP: perf_event_paranoid is %d; the user-only case needs 2 or more "
               "(sysctl -w kernel.perf_event_paranoid=2 for the test, then restore)\n",
               paranoid);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "unprivileged")) {
        if (!unprivileged_possible())
            return 77;
        const struct CMUnitTest one[] = {cmocka_unit_test(test_unprivileged)};
        return cmocka_run_group_tests(one, setup, teardown);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fd_table_private),
        cmocka_unit_test(test_fd_table_shared),
        cmocka_unit_test(test_registered_alone),
        cmocka_unit_test(test_clock_label),
        cmocka_unit_test(test_null_counter),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
