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
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/mp-bias-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
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
    cJSON_Delete(j);
}

/* --fd-table shared: one parked thread shares the table in every block. */
static void test_fd_table_shared(void **state)
{
    (void)state;
    cJSON *j = run_json("shared", "--backends poll --fds 10 --mode ready,wakeup --samples 30 "
                        "--repeats 2 --events task-clock --fd-table shared");
    assert_int_equal(check_fd_table(j, "shared", 2), 2);
    cJSON_Delete(j);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fd_table_private),
        cmocka_unit_test(test_fd_table_shared),
        cmocka_unit_test(test_registered_alone),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
