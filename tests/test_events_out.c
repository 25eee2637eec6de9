/* test_events_out.c - `muxprof events` names each software counter every
 * plan adds once: under "adds:" when it opened, under "would add" (with
 * the reason in the table below) when it did not, never in both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/internal.h"

static char *adds_of(const char *json)
{
    cJSON *plan = cJSON_Parse(json);
    assert_non_null(plan);
    static char buf[1024];
    memset(buf, 0, sizeof buf);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    mp__events_adds(f, plan);
    fclose(f);
    cJSON_Delete(plan);
    return buf;
}

static void named_once(void **state)
{
    (void)state;
    const char *out = adds_of(
        "{\"software_added\": [\"task-clock\", \"context-switches\"], \"software_why\": \"W\","
        " \"events\": [{\"name\": \"task-clock\", \"status\": \"opened\"},"
        " {\"name\": \"context-switches\", \"status\": \"unavailable\", \"reason\": \"R\"}]}");
    assert_string_equal(out, "  adds: task-clock -- W\n"
                             "  would add (not available, why below): context-switches\n");
    out = adds_of("{\"software_added\": [\"task-clock\"], \"software_why\": \"W\","
                  " \"events\": [{\"name\": \"task-clock\", \"status\": \"opened\"}]}");
    assert_string_equal(out, "  adds: task-clock -- W\n");
    out = adds_of("{\"software_added\": [], \"events\": []}");
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(named_once)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
