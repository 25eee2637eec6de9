/* SPDX-License-Identifier: MIT */
/* test_report_cpu_wide.c - the report says that a CPU-wide (uncore) event
 * counts all work on its CPU, CCX or socket, and says nothing of the kind
 * for per-thread events.  Input: the synthetic fixture with one event
 * marked "cpu_wide" with its cpu_scope as pmu/ records an amd_l3 event; the
 * report names the scope and says how such an event is read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "report/report.h"
#include "test_util.h"

#define FIX MP_TEST_FIXTURES "/report/synthetic/results.json"

/* report.md of the fixture, with event LLC-load-misses marked cpu_wide or not. */
static char *report_with(int cpu_wide)
{
    char dir[] = "/tmp/mp_test_cpu_wide.XXXXXX", path[256];
    char *text = mp_test_slurp(FIX);
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    assert_non_null(doc);
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "counters"), "events"))
        if (!strcmp(cJSON_GetObjectItem(e, "name")->valuestring, "LLC-load-misses") && cpu_wide) {
            cJSON_AddBoolToObject(e, "cpu_wide", 1);
            cJSON_AddStringToObject(e, "cpu_scope", "L3 of the CCX, filtered to the waiter's core");
        }
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/results.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    char *out = cJSON_Print(doc);
    fputs(out, f);
    fclose(f);
    free(out);
    cJSON_Delete(doc);
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_report_build(dir, 0, &err);
    if (rc) fail_msg("mp_report_build = %d: %s", rc, err.msg);
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *md = mp_test_slurp(path);
    assert_non_null(md);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    return md;
}

static void says_cpu_wide(void **state)
{
    (void)state;
    char *md = report_with(1);
    if (!strstr(md, "CPU-wide (uncore) events: `LLC-load-misses` (L3 of the CCX, filtered to "
                    "the waiter's core). They count all work their PMU sees"))
        fail_msg("report.md does not say LLC-load-misses is CPU-wide, with its scope:\n%s", md);
    if (!strstr(md, "on its own fd, in a counter pass of its own, and read with read() before "
                    "and after each call"))
        fail_msg("report.md does not say how the CPU-wide event is read:\n%s", md);
    free(md);
    md = report_with(0);
    assert_null(strstr(md, "CPU-wide (uncore)"));
    free(md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(says_cpu_wide)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
