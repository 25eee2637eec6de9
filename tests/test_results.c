/* test_results.c - results/: the cell and summary tables, the writer
 * through them, the reader back, and docs/results-schema.md against them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/cell.h"
#include "results/schema.h"
#include "results/summary.h"

#define SCHEMA_DOC MP_TEST_FIXTURES "/../../docs/results-schema.md"

/* The object's keys, comma-separated, in order. */
static void keys_of(const cJSON *o, char *buf, size_t len)
{
    const cJSON *e;
    buf[0] = 0;
    cJSON_ArrayForEach(e, o) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", n ? "," : "", e->string);
    }
}

static void summary_nulls_when_empty(void **state)
{
    (void)state;
    mp_summary s = {0};
    cJSON *o = mp_summary_json(&s);
    char keys[256];
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "p10,p50,p90,p99,mean,min,max,stddev,n");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "p50")));
    assert_int_equal(cJSON_GetObjectItem(o, "n")->valuedouble, 0);
    cJSON_Delete(o);
    s = (mp_summary){.p10 = 1, .p50 = 2, .p90 = 3, .p99 = 4, .mean = 5, .min = 6, .max = 7,
                     .stddev = 8, .n = 9};
    o = mp_summary_json(&s);
    for (size_t i = 0; i < mp_nrsum_fields; i++)
        assert_int_equal(cJSON_GetObjectItem(o, mp_rsum_fields[i].key)->valuedouble, i + 1);
    cJSON_Delete(o);
}

static mp_rcell error_cell(void)
{
    mp_rcell c;
    memset(&c, 0, sizeof c);
    strcpy(c.backend, "poll");
    strcpy(c.syscall, "ppoll");
    strcpy(c.fd_kind, "pipe");
    strcpy(c.mode, "ready");
    strcpy(c.fd_table, "private");
    c.nfds = 10;
    c.active = 1;
    c.status = MP_CELL_ERROR;
    strcpy(c.reason, "it failed");
    c.fd_lo = c.fd_hi = c.ready_fd = -1;
    c.process_threads = c.watch_sets = -1;
    c.rl_soft = 1024;
    c.rl_hard = 4096;
    return c;
}

static void cell_keys_by_status_and_mode(void **state)
{
    (void)state;
    char keys[1024];
    mp_rcell c = error_cell();
    cJSON *o = mp_rcell_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "backend,syscall,fd_kind,mode,nfds,active,status,reason,"
                              "fd_table,process_threads,watch_sets,rlimit_nofile");
    assert_string_equal(cJSON_GetObjectItem(o, "status")->valuestring, "error");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "process_threads")));
    cJSON_Delete(o);

    double rep[3] = {100, NAN, 120};
    mp_metric mt[2] = {{.name = "wall_ns", .s = {.p50 = 110, .n = 5}},
                       {.name = "cycles", .is_counter = 1, .bracket = NAN}};
    c.status = MP_CELL_OK;
    c.reason[0] = 0;
    c.fd_lo = 3, c.fd_hi = 12, c.ready_fd = 12;
    c.process_threads = 1, c.watch_sets = 0;
    c.samples_preempted = -1;
    c.repeat_medians = rep, c.nrepeats = 3;
    c.ci_lo = c.ci_hi = NAN;
    c.empty_bracket_ns = NAN;
    c.bare_loop_ns = 90, c.bare_loop_mean_ns = 95;
    c.metrics = mt, c.nmetrics = 2;
    o = mp_rcell_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "backend,syscall,fd_kind,mode,nfds,active,status,reason,"
                              "fd_lo,fd_hi,ready_fd,fd_table,process_threads,watch_sets,"
                              "rlimit_nofile,samples_kept,samples_discarded,samples_stopped,"
                              "samples_preempted,repeat_medians_ns,repeat_medians_of,repeat_spread_ns,"
                              "empty_bracket_ns,bare_loop_ns,bare_loop_mean_ns,metrics,"
                              "counters_missing");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "reason")));
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "repeat_medians_ns"), 1)));
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "repeat_spread_ns"),
                                         "median")->valuedouble, 110);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "metrics"), "cycles")));

    /* read back: every scalar field as written */
    mp_rcell back;
    memset(&back, 0, sizeof back);
    mp_rcell_read(o, &back);
    assert_string_equal(back.syscall, "ppoll");
    assert_string_equal(back.fd_table, "private");
    assert_int_equal(back.ready_fd, 12);
    assert_int_equal(back.samples_preempted, -1);
    assert_true(isnan(back.empty_bracket_ns));
    assert_true(back.bare_loop_mean_ns == 95);
    cJSON_Delete(o);

    strcpy(c.mode, "wakeup");   /* the ready-mode fields go */
    c.ci_lo = 100, c.ci_hi = 120;
    o = mp_rcell_json(&c);
    assert_null(cJSON_GetObjectItem(o, "bare_loop_ns"));
    assert_non_null(cJSON_GetObjectItem(o, "wall_p50_ci95_ns"));
    cJSON_Delete(o);
}

/* wake_delay_ns: written for wakeup cells only, read back as written; a
 * wakeup cell without it (an older file) reads as 0, a ready cell as -1. */
static void wake_delay_round_trip(void **state)
{
    (void)state;
    mp_rcell c = error_cell(), back;
    strcpy(c.mode, "wakeup");
    c.wake_delay_ns = 3000000;
    cJSON *o = mp_rcell_json(&c);
    const cJSON *d = cJSON_GetObjectItem(o, "wake_delay_ns");
    assert_true(cJSON_IsNumber(d));
    assert_true(d->valuedouble == 3000000);
    memset(&back, 0, sizeof back);
    mp_rcell_read(o, &back);
    assert_int_equal(back.wake_delay_ns, 3000000);
    cJSON_DeleteItemFromObject(o, "wake_delay_ns");
    mp_rcell_read(o, &back);
    assert_int_equal(back.wake_delay_ns, 0);
    cJSON_Delete(o);
    strcpy(c.mode, "ready");
    c.wake_delay_ns = -1;
    o = mp_rcell_json(&c);
    assert_null(cJSON_GetObjectItem(o, "wake_delay_ns"));
    mp_rcell_read(o, &back);
    assert_int_equal(back.wake_delay_ns, -1);
    cJSON_Delete(o);
}

/* docs/results-schema.md's text, NULL when unreadable. */
static char *read_doc(void)
{
    FILE *f = fopen(SCHEMA_DOC, "r");
    if (!f)
        return NULL;
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* The keys at the top level of the jsonc block after `heading`, comments
 * left out, as ",k1,k2,...,". */
static void doc_block_keys(const char *doc, const char *heading, char *out, size_t len)
{
    const char *p = strstr(doc, heading);
    assert_non_null(p);
    p = strstr(p, "```jsonc\n");
    assert_non_null(p);
    p += 9;
    const char *end = strstr(p, "\n```");
    assert_non_null(end);
    int depth = 0;
    snprintf(out, len, ",");
    while (p < end) {
        if (p[0] == '/' && p[1] == '/') {
            p = strchr(p, '\n');
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        if (*p != '"') {
            p++;
            continue;
        }
        const char *q = strchr(p + 1, '"');
        const char *after = q + 1;
        while (*after == ' ')
            after++;
        if (depth == 1 && *after == ':') {
            size_t n = strlen(out);
            snprintf(out + n, len - n, "%.*s,", (int)(q - p - 1), p + 1);
        }
        p = q + 1;
    }
}

static void doc_names_every_field(void **state)
{
    (void)state;
    const char *doc = read_doc();
    assert_non_null(doc);
    char keys[4096], want[128];
    doc_block_keys(doc, "A `<cell>`:", keys, sizeof keys);
    size_t in_doc = 0;
    for (const char *k = keys + 1; *k; k = strchr(k, ',') + 1)
        in_doc++;
    for (size_t i = 0; i < mp_nrcell_fields; i++) {
        snprintf(want, sizeof want, ",%s,", mp_rcell_fields[i].key);
        if (!strstr(keys, want))
            fail_msg("cell field %s is not in docs/results-schema.md", mp_rcell_fields[i].key);
        assert_non_null(mp_rcell_fields[i].doc);
    }
    if (in_doc != mp_nrcell_fields)
        fail_msg("docs/results-schema.md's <cell> has %zu fields (%s), the table %zu", in_doc,
                 keys, mp_nrcell_fields);
    const char *sum = strstr(doc, "A `<summary>` is `{");
    assert_non_null(sum);
    const char *sum_end = strchr(sum, '}');
    size_t nsum = 0;
    for (const char *q = sum; (q = strchr(q, '"')) && q < sum_end; q = strchr(q + 1, '"') + 1)
        nsum++;
    assert_int_equal(nsum, mp_nrsum_fields);
    for (size_t i = 0; i < mp_nrsum_fields; i++) {
        snprintf(want, sizeof want, "\"%s\"", mp_rsum_fields[i].key);
        const char *at = strstr(sum, want);
        if (!at || at > sum_end)
            fail_msg("summary key %s is not in docs/results-schema.md", mp_rsum_fields[i].key);
    }
    snprintf(want, sizeof want, "\"schema\": \"%s\"", MP_RESULTS_SCHEMA);
    assert_non_null(strstr(doc, want));
}

static void tool_names_this_binary(void **state)
{
    (void)state;
    cJSON *t = mp_res_tool_json();
    char keys[128];
    keys_of(t, keys, sizeof keys);
    assert_string_equal(keys, "name,version,git_describe");
    assert_string_equal(cJSON_GetObjectItem(t, "name")->valuestring, "muxprof");
    cJSON_Delete(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_nulls_when_empty),
        cmocka_unit_test(cell_keys_by_status_and_mode),
        cmocka_unit_test(wake_delay_round_trip),
        cmocka_unit_test(doc_names_every_field),
        cmocka_unit_test(tool_names_this_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
