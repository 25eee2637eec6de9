/* SPDX-License-Identifier: MIT */
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


/* Six metrics refused for one reason: the reason printed once, the others
 * pointing back to it; a second reason numbered on its own. */
static void reason_once(void **state)
{
    (void)state;
    const char *reason = "no hardware PMU: perf_event_open gave ENOENT and the VM has no "
                         "virtual PMU; software counts are still measured";
    char json[4096];
    int o = snprintf(json, sizeof json, "[");
    const char *names[] = {"cycles", "instructions", "L1", "L2", "LLC-loads", "LLC-misses",
                           "dTLB"};
    for (int i = 0; i < 7; i++)
        o += snprintf(json + o, sizeof json - (size_t)o, "%s{\"name\": \"%s\", \"status\": "
                      "\"unavailable\", \"reason\": \"%s\"}", i ? "," : "", names[i],
                      i == 3 ? "no generic L2 event" : reason);
    snprintf(json + o, sizeof json - (size_t)o, "]");
    cJSON *evs = cJSON_Parse(json);
    assert_non_null(evs);
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    mp__events_table(f, evs);
    fclose(f);
    cJSON_Delete(evs);
    const char *first = strstr(buf, reason);
    assert_non_null(first);
    assert_null(strstr(first + 1, reason));
    assert_non_null(strstr(buf, "why (1): no hardware PMU"));
    assert_non_null(strstr(buf, "why (2): no generic L2 event"));
    size_t back = 0;
    for (const char *q = buf; (q = strstr(q, "why: as (1) above")); q++)
        back++;
    assert_int_equal(back, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(named_once),
                                       cmocka_unit_test(reason_once)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
