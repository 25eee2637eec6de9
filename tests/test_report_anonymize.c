/* test_report_anonymize.c - report/anonymize.c's field table on a real
 * results.json (a --profile run): for host names that are also words of the
 * data or too short to search for, context.host becomes "host-1", the
 * command's paths "<path>", a path in a reason "<path>", and every other
 * field (backends, CPU model, event configs, numbers) is what it was.  The
 * anonymized document then loads, and the model names no path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/anonymize.h"

#define FIX MP_TEST_FIXTURES "/report/profile/results.json"
#define INTEL "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"

static cJSON *fixture(const char *host)
{
    FILE *f = fopen(FIX, "rb");
    assert_non_null(f);
    static char text[1 << 22];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    cJSON *ctx = cJSON_GetObjectItem(doc, "context");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "muxprof run --fds 10 --out /home/alice/runs/%s-20261201T000000Z",
             host);
    cJSON_ReplaceItemInObject(ctx, "host", cJSON_CreateString(host));
    cJSON_ReplaceItemInObject(ctx, "command", cJSON_CreateString(cmd));
    cJSON_ReplaceItemInObject(ctx, "cpu_model", cJSON_CreateString(INTEL));
    cJSON *cell = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
    cJSON_DeleteItemFromObjectCaseSensitive(cell, "reason");
    cJSON_AddStringToObject(cell, "reason", "cannot open /home/alice/x.xml: No such file");
    cJSON *ev = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "counters"),
                                                       "events"), 0);
    if (ev)
        cJSON_ReplaceItemInObject(ev, "config", cJSON_CreateString("0xffffffff81a2b3c4"));
    return doc;
}

/* The value at context.KEY of doc, removed from it (so the rest can be
 * compared whole). */
static char *take(cJSON *obj, const char *key)
{
    cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(obj, key);
    char *s = cJSON_IsString(v) ? strdup(v->valuestring) : NULL;
    cJSON_Delete(v);
    return s;
}

static void by_fields(void **state)
{
    static const char *const hosts[] = {"q", "poll", "Intel", "epoll", "1", "vm"};
    (void)state;
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        cJSON *orig = fixture(hosts[i]), *doc = cJSON_Duplicate(orig, 1);
        mp_anon *labels = mp_anon_new();
        mp_err err;
        assert_non_null(labels);
        assert_int_equal(mp_rm_anonymize(doc, labels, &err), 0);
        cJSON *ctx = cJSON_GetObjectItem(doc, "context"), *octx = cJSON_GetObjectItem(orig,
                                                                                    "context");
        char *host = take(ctx, "host"), *cmd = take(ctx, "command"), *note = take(ctx,
                                                                                "anonymized");
        cJSON *cell = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
        char *reason = take(cell, "reason");
        print_message("host %s -> %s; %s\n", hosts[i], host, cmd);
        assert_string_equal(host, "host-1");
        assert_string_equal(cmd, "muxprof run --fds 10 --out <path>");
        assert_non_null(note);
        assert_string_equal(reason, "cannot open <path>: No such file");
        free(host);
        free(cmd);
        free(note);
        free(reason);
        free(take(octx, "host"));
        free(take(octx, "command"));
        free(take(cJSON_GetArrayItem(cJSON_GetObjectItem(orig, "results"), 0), "reason"));
        if (!cJSON_Compare(orig, doc, 1)) {
            char *a = cJSON_Print(orig), *b = cJSON_Print(doc);
            FILE *fa = fopen("/tmp/test_report_anonymize.orig.json", "w");
            FILE *fb = fopen("/tmp/test_report_anonymize.anon.json", "w");
            if (fa) fputs(a, fa), fclose(fa);
            if (fb) fputs(b, fb), fclose(fb);
            print_error("host %s: data changed (diff /tmp/test_report_anonymize.*.json)\n",
                        hosts[i]);
            free(a);
            free(b);
            fail();
        }
        cJSON_Delete(orig);
        cJSON_Delete(doc);
        mp_anon_free(labels);
    }
}

/* Loaded with labels: anonymized before the model is built, and the model
 * names the file "results.json", not its path. */
static void loaded(void **state)
{
    (void)state;
    mp_anon *labels = mp_anon_new();
    mp_rmodel m;
    mp_err err;
    assert_non_null(labels);
    assert_int_equal(mp_rm_load_anonymized(&m, FIX, labels, &err), 0);
    char buf[64];
    assert_string_equal(mp_rm_text(&m, "context.host", buf, sizeof buf), "host-1");
    assert_true(m.anonymized);
    assert_string_equal(m.shown, "results.json");
    assert_string_equal(m.path, FIX);
    mp_rm_free(&m);
    assert_int_equal(mp_rm_load(&m, FIX, &err), 0);
    assert_false(m.anonymized);
    assert_string_equal(m.shown, FIX);
    mp_rm_free(&m);
    mp_anon_free(labels);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(by_fields),
        cmocka_unit_test(loaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
