/* SPDX-License-Identifier: MIT */
/* test_exp_table.c - an experiment's self-describing table (experiments/
 * table.h): columns from the description with "X.*" expanded in first-seen
 * order, rows by column with null for what a cell lacks and "ok" for a
 * missing status, and the terminal summary printed from them, measured and
 * failed rows in both failure styles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/table.h"

static const mp_exp_table demo = {
    .title = "demo",
    .summary = "ns per thing",
    .method = "One sample is one thing.",
    .columns = {
        {"name", "name", "", "key", "name", -6, -1},
        {"n", "N", "fds", "key", "N", 4, 0},
        {"status", "status", "", "status", NULL, 0, 0},
        {"reason", "reason", "", "reason", NULL, 0, 0},
        {"t.p50", "time p50", "ns", "value", "p50 ns", 7, 1},
        {"per.*", "per fd", "count", "value", NULL, 0, 0},
        {NULL},
    },
    .figures = {
        {"demo", "n", {"t.p50"}, "name", NULL, 1, 0, "demo: ns"},
        {NULL},
    },
    .tty_failed = MP_EXP_TTY_STATUS,
};

static const char *cells_json =
    "[{\"name\":\"a\",\"n\":10,\"t\":{\"p50\":12.25},\"per\":{\"x\":1,\"y\":2}},"
    " {\"name\":\"b\",\"n\":100,\"status\":\"unsupported\",\"reason\":\"too many\"},"
    " {\"name\":\"c\",\"n\":1000,\"status\":\"ok\",\"t\":{\"p50\":3},\"per\":{\"z\":5,\"x\":4}}]";

static cJSON *table_of(const mp_exp_table *t, cJSON **o)
{
    cJSON *cells = cJSON_Parse(cells_json);
    mp_err e;
    assert_non_null(cells);
    *o = cJSON_CreateObject();
    assert_int_equal(mp_exp_table_json(t, cells, *o, &e), 0);
    cJSON_Delete(cells);
    return cJSON_GetObjectItemCaseSensitive(*o, "table");
}

static char *print(const mp_exp_table *t, const cJSON *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    mp_exp_table_print("demo", t, o, f);
    fclose(f);
    return buf;
}

static void test_columns_and_rows(void **state)
{
    (void)state;
    cJSON *o;
    cJSON *t = table_of(&demo, &o);
    char *cols = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(t, "columns"));
    char *rows = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(t, "rows"));
    assert_non_null(strstr(cols, "{\"key\":\"t.p50\",\"label\":\"time p50\",\"unit\":\"ns\","
                                 "\"kind\":\"value\"}"));
    const char *x = strstr(cols, "\"per.x\""), *y = strstr(cols, "\"per.y\"");
    const char *z = strstr(cols, "\"per.z\"");
    assert_true(x && y && z && x < y && y < z);
    assert_non_null(strstr(cols, "\"label\":\"x per fd\""));
    assert_string_equal(rows, "[[\"a\",10,\"ok\",null,12.25,1,2,null],"
                              "[\"b\",100,\"unsupported\",\"too many\",null,null,null,null],"
                              "[\"c\",1000,\"ok\",null,3,4,null,5]]");
    const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t, "figures"), 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g, "x")->valuestring, "n");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "logx")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(g, "logy")));
    assert_null(cJSON_GetObjectItemCaseSensitive(g, "split"));
    free(cols);
    free(rows);
    cJSON_Delete(o);
}

static void test_print_status_style(void **state)
{
    (void)state;
    cJSON *o;
    table_of(&demo, &o);
    char *s = print(&demo, o);
    assert_string_equal(s, "\ndemo: ns per thing\n"
                           "name      N  p50 ns\n"
                           "a        10    12.2\n"
                           "b       100 unsupported\n"
                           "c      1000     3.0\n");
    free(s);
    cJSON_Delete(o);
}

static void test_print_reason_style(void **state)
{
    (void)state;
    mp_exp_table t = demo;
    t.tty_failed = MP_EXP_TTY_REASON;
    cJSON *o;
    table_of(&t, &o);
    char *s = print(&t, o);
    assert_non_null(strstr(s, "\nb       100 too many\n"));
    free(s);
    /* an experiment that failed as a whole has no table: the heading only */
    cJSON_DeleteItemFromObject(o, "table");
    s = print(&t, o);
    assert_string_equal(s, "\ndemo: ns per thing\nname      N  p50 ns\n");
    free(s);
    cJSON_Delete(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_and_rows),
        cmocka_unit_test(test_print_status_style),
        cmocka_unit_test(test_print_reason_style),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
