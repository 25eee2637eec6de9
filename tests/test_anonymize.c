/* test_anonymize.c - what --anonymize replaces (host names as whole words,
 * user names, home directories, command-line paths, kernel addresses) and
 * what it keeps (CPU model, kernel version, numbers, words that merely
 * contain a secret). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/anonymize.h"

static const char *doc_text =
    "{\"schema\": \"muxprof-results/1\","
    " \"context\": {\"host\": \"build-7.example.org\", \"kernel\": \"6.1.0-18-amd64\","
    "  \"kernel_version\": \"#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1\","
    "  \"cpu_model\": \"AMD EPYC 9354P 32-Core Processor\","
    "  \"command\": \"muxprof run --fds 10 --out /home/alice/runs/r1 --events msr/tsc/\"},"
    " \"counters\": {\"scope_note\": \"user+kernel\"},"
    " \"results\": [{\"backend\": \"poll\", \"nfds\": 10, \"wall_ns\": {\"p50\": 812.5}}]}";

static mp_anon *learned(cJSON **doc)
{
    mp_anon *a = mp_anon_new();
    assert_non_null(a);
    *doc = cJSON_Parse(doc_text);
    assert_non_null(*doc);
    assert_int_equal(mp_anon_json(a, *doc), 0);
    return a;
}

static const char *ctx_str(const cJSON *doc, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "context"), k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void document(void **state)
{
    cJSON *doc;
    mp_anon *a = learned(&doc);
    (void)state;
    const char *host = ctx_str(doc, "host");
    assert_non_null(host);
    assert_true(!strncmp(host, "host-", 5));
    assert_string_equal(ctx_str(doc, "kernel"), "6.1.0-18-amd64");
    assert_string_equal(ctx_str(doc, "kernel_version"), "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1");
    assert_string_equal(ctx_str(doc, "cpu_model"), "AMD EPYC 9354P 32-Core Processor");
    assert_string_equal(ctx_str(doc, "command"),
                        "muxprof run --fds 10 --out <path> --events msr/tsc/");
    assert_non_null(ctx_str(doc, "anonymized"));
    const cJSON *cell = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "results"), 0);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(cell, "nfds")->valueint, 10);
    assert_true(cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(cell, "wall_ns"), "p50")->valuedouble == 812.5);
    cJSON_Delete(doc);
    mp_anon_free(a);
}

static const struct trow {
    int line;
    const char *in;
    const char *want;     /* exact output; NULL: only the checks below */
    const char *gone;     /* must not be in the output */
    const char *kept;     /* must be in the output */
} trows[] = {
    {__LINE__, "runs/build-7-20261130T120000Z/report.md", NULL, "build-7", "-20261130T120000Z"},
    {__LINE__, "host build-7.example.org, short build-7.", NULL, "build-7", "host host-"},
    {__LINE__, "rebuild-7 and build-70 stay", "rebuild-7 and build-70 stay", NULL, NULL},
    {__LINE__, "rebuild with `muxprof report /home/alice/runs/r1`",
     "rebuild with `muxprof report <path>`", NULL, NULL},
    {__LINE__, "# muxprof /home/alice/runs/r1/results.json: ready mode",
     "# muxprof <path>/results.json: ready mode", NULL, NULL},
    {__LINE__, "/home/alice/other/x.json", "~/other/x.json", NULL, NULL},
    {__LINE__, "/Users/bob/r/results.json", "~/r/results.json", NULL, NULL},
    {__LINE__, "by alice; malice and alice_x stay", "by user; malice and alice_x stay", NULL, NULL},
    {__LINE__, "ip 0xffffffff81a2b3c4 at ffff888003c1d000.", "ip <kernel address> at <kernel address>.",
     NULL, NULL},
    {__LINE__, "0xffff 0x7fff5a0b1c2d3e4f cafeffffffff81a2b3c4", "0xffff 0x7fff5a0b1c2d3e4f "
     "cafeffffffff81a2b3c4", NULL, NULL},
    {__LINE__, "/sys/bus/event_source/devices/cpu/rdpmc", "/sys/bus/event_source/devices/cpu/rdpmc",
     NULL, NULL},
    {__LINE__, "msr/tsc/ and cache,msr/tsc/", "msr/tsc/ and cache,msr/tsc/", NULL, NULL},
};

static void text_table(void **state)
{
    cJSON *doc;
    mp_anon *a = learned(&doc);
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof trows / sizeof trows[0]; i++) {
        const struct trow *r = &trows[i];
        char *out = mp_anon_text(a, r->in);
        assert_non_null(out);
        if ((r->want && strcmp(out, r->want)) || (r->gone && strstr(out, r->gone)) ||
            (r->kept && !strstr(out, r->kept))) {
            print_error("%s:%d: '%s' -> '%s' (want '%s', without '%s', with '%s')\n", __FILE__,
                        r->line, r->in, out, r->want ? r->want : "-", r->gone ? r->gone : "-",
                        r->kept ? r->kept : "-");
            failures++;
        }
        free(out);
    }
    cJSON_Delete(doc);
    mp_anon_free(a);
    assert_int_equal(failures, 0);
}

/* The host, user and home of this process are known before any document. */
static void environment(void **state)
{
    char host[256] = "", in[600];
    (void)state;
    mp_anon *a = mp_anon_new();
    assert_non_null(a);
    if (gethostname(host, sizeof host - 1) == 0 && strlen(host) >= 2) {
        snprintf(in, sizeof in, "on %s today", host);
        char *out = mp_anon_text(a, in);
        assert_non_null(out);
        assert_string_equal(out, "on host-1 today");
        free(out);
    }
    const char *home = getenv("HOME");
    if (home && strlen(home) >= 2 && strcmp(home, "/")) {
        snprintf(in, sizeof in, "%s/runs", home);
        char *out = mp_anon_text(a, in);
        assert_non_null(out);
        assert_string_equal(out, "~/runs");
        free(out);
    }
    mp_anon_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(document),
        cmocka_unit_test(text_table),
        cmocka_unit_test(environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
