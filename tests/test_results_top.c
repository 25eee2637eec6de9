/* SPDX-License-Identifier: MIT */
/* test_results_top.c - results.json's top level as run/ writes it: the
 * head's and the tail's members for fixed results, and the document
 * assembled from fixed parts, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "run/results.h"

static void assert_json(const cJSON *got, const char *want)
{
    char *g = cJSON_PrintUnformatted(got);
    assert_non_null(g);
    if (strcmp(g, want))
        fail_msg("the writer wrote\n  %s\nwhere the test wants\n  %s", g, want);
    free(g);
}

static void keys_are(const cJSON *o, const char *want)
{
    char buf[512] = "";
    const cJSON *e;
    cJSON_ArrayForEach(e, o) {
        strcat(buf, buf[0] ? "," : "");
        strcat(buf, e->string);
    }
    assert_string_equal(buf, want);
}

/* The head: its members in order, the scalars' values. */
static void head_members(void **state)
{
    (void)state;
    static mp_run_config c;
    mp_results r;
    memset(&r, 0, sizeof r);
    r.cfg = &c;
    strcpy(r.started_utc, "2026-12-01T10:00:00Z");
    cJSON *h = mp_results_head_json(&r);
    assert_non_null(h);
    keys_are(h, "schema,tool,started_utc,context,topology,counters,config,calibration");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(h, "schema")->valuestring,
                        "muxprof-results/1");
    keys_are(cJSON_GetObjectItemCaseSensitive(h, "tool"), "name,version,git_describe");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(h, "started_utc")->valuestring,
                        "2026-12-01T10:00:00Z");
    assert_json(cJSON_GetObjectItemCaseSensitive(h, "context"), "{}");
    keys_are(cJSON_GetObjectItemCaseSensitive(h, "calibration"),
             "clock,empty_bracket_ns,subtracted");
    cJSON_Delete(h);
}

/* The tail of a finished run, of one a signal ended while something other
 * than a cell ran, and of one with noise in its context. */
static void tail_bytes(void **state)
{
    (void)state;
    static mp_run_config c;
    mp_results r;
    memset(&r, 0, sizeof r);
    r.cfg = &c;
    r.interrupted_cell = -1;
    strcpy(r.finished_utc, "2026-12-01T10:05:00Z");
    cJSON *t = mp_results_tail_json(&r);
    assert_json(t, "{\"status\":\"complete\",\"finished_utc\":\"2026-12-01T10:05:00Z\"}");
    cJSON_Delete(t);

    r.interrupted = 2;
    strcpy(r.interrupted_what, "experiment herd");
    r.context = cJSON_Parse("{\"host\":\"h\",\"noise\":{\"load\":[0.5]}}");
    t = mp_results_tail_json(&r);
    assert_json(t, "{\"status\":\"interrupted\",\"interrupted_cell\":\"experiment herd\","
                   "\"interrupted_signal\":2,\"finished_utc\":\"2026-12-01T10:05:00Z\","
                   "\"noise\":{\"load\":[0.5]}}");
    cJSON_Delete(t);

    r.interrupted_what[0] = 0;
    t = mp_results_tail_json(&r);
    assert_json(t, "{\"status\":\"interrupted\",\"interrupted_signal\":2,"
                   "\"finished_utc\":\"2026-12-01T10:05:00Z\",\"noise\":{\"load\":[0.5]}}");
    cJSON_Delete(t);
    cJSON_Delete(r.context);
}

#define HEAD "{\"schema\":\"muxprof-results/1\",\"tool\":{\"name\":\"muxprof\"," \
             "\"version\":\"0.1.0\",\"git_describe\":\"g\"},\"started_utc\":\"S\"," \
             "\"context\":{\"host\":\"h\"},\"topology\":{\"pus\":2},\"counters\":{}," \
             "\"config\":{\"samples\":3},\"calibration\":{\"clock\":\"c\"}}"
#define CELLS "[{\"backend\":\"poll\",\"fd_kind\":\"pipe\",\"mode\":\"ready\",\"nfds\":10," \
              "\"status\":\"ok\",\"bare_loop_ns\":12.5},{\"backend\":\"poll\"," \
              "\"mode\":\"wakeup\",\"status\":\"ok\"}]"

/* results.json from fixed parts: finished, interrupted with a signal,
 * recovered from a journal that has no tail, and from a head without its
 * optional members. */
static void assembled_bytes(void **state)
{
    (void)state;
    cJSON *head = cJSON_Parse(HEAD), *cells = cJSON_Parse(CELLS);
    cJSON *tail = cJSON_Parse("{\"status\":\"complete\",\"finished_utc\":\"F\","
                              "\"noise\":{\"load\":[1]}}");
    cJSON *exps = cJSON_Parse("[{\"name\":\"herd\"}]");
    assert_non_null(head);
    assert_non_null(cells);
    assert_non_null(tail);
    cJSON *root = mp_results_assemble(head, tail, exps, cells, NULL);
    assert_json(root,
        "{\"schema\":\"muxprof-results/1\",\"tool\":{\"name\":\"muxprof\",\"version\":\"0.1.0\","
        "\"git_describe\":\"g\"},\"status\":\"complete\",\"started_utc\":\"S\","
        "\"finished_utc\":\"F\",\"context\":{\"host\":\"h\",\"noise\":{\"load\":[1]}},"
        "\"topology\":{\"pus\":2},\"counters\":{},\"config\":{\"samples\":3},"
        "\"calibration\":{\"clock\":\"c\",\"bare_loop\":[{\"backend\":\"poll\","
        "\"fd_kind\":\"pipe\",\"nfds\":10,\"ns_per_call\":12.5}]},"
        "\"experiments\":[{\"name\":\"herd\"}],\"results\":" CELLS "}");
    cJSON_Delete(root);
    cJSON_Delete(tail);

    tail = cJSON_Parse("{\"status\":\"interrupted\",\"interrupted_cell\":\"poll pipe ready N=10\","
                       "\"interrupted_signal\":15,\"finished_utc\":\"F\"}");
    cJSON *rec = cJSON_Parse("{\"from\":\"journal.jsonl\",\"cells\":2,\"finished\":true}");
    root = mp_results_assemble(head, tail, NULL, cells, rec);
    assert_json(root,
        "{\"schema\":\"muxprof-results/1\",\"tool\":{\"name\":\"muxprof\",\"version\":\"0.1.0\","
        "\"git_describe\":\"g\"},\"status\":\"interrupted\","
        "\"interrupted_cell\":\"poll pipe ready N=10\",\"interrupted_signal\":15,"
        "\"recovered\":{\"from\":\"journal.jsonl\",\"cells\":2,\"finished\":true},"
        "\"started_utc\":\"S\",\"finished_utc\":\"F\",\"context\":{\"host\":\"h\"},"
        "\"topology\":{\"pus\":2},\"counters\":{},\"config\":{\"samples\":3},"
        "\"calibration\":{\"clock\":\"c\",\"bare_loop\":[{\"backend\":\"poll\","
        "\"fd_kind\":\"pipe\",\"nfds\":10,\"ns_per_call\":12.5}]},\"results\":" CELLS "}");
    cJSON_Delete(root);

    root = mp_results_assemble(head, NULL, NULL, NULL, rec);
    assert_json(root,
        "{\"schema\":\"muxprof-results/1\",\"tool\":{\"name\":\"muxprof\",\"version\":\"0.1.0\","
        "\"git_describe\":\"g\"},\"status\":\"interrupted\","
        "\"recovered\":{\"from\":\"journal.jsonl\",\"cells\":2,\"finished\":true},"
        "\"started_utc\":\"S\",\"context\":{\"host\":\"h\"},\"topology\":{\"pus\":2},"
        "\"counters\":{},\"config\":{\"samples\":3},\"calibration\":{\"clock\":\"c\",\"bare_loop\":[]},"
        "\"results\":[]}");
    cJSON_Delete(root);
    cJSON_Delete(rec);

    cJSON *bare = cJSON_Parse("{\"schema\":\"muxprof-results/1\"}");
    root = mp_results_assemble(bare, NULL, NULL, NULL, NULL);
    assert_json(root, "{\"schema\":\"muxprof-results/1\",\"status\":\"interrupted\","
                      "\"context\":{},\"topology\":{},\"counters\":{},"
                      "\"calibration\":{\"bare_loop\":[]},\"results\":[]}");
    cJSON_Delete(root);
    cJSON_Delete(bare);
    cJSON_Delete(tail);
    cJSON_Delete(exps);
    cJSON_Delete(head);
    cJSON_Delete(cells);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(head_members),
        cmocka_unit_test(tail_bytes),
        cmocka_unit_test(assembled_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
