/* SPDX-License-Identifier: MIT */
/* test_report_anonymize.c - report/anonymize.c's field table on a real
 * results.json (a --profile run): for host names that are also words of the
 * data or too short to search for, context.host becomes "host-1", the
 * command's paths "<path>", a path in a reason "<path>", and every other
 * field (backends, CPU model, event configs, numbers) is what it was.  The
 * anonymized document then loads, and the model names no path; every
 * results.json of the fixtures and the fuzz seeds that loads also loads
 * anonymized, with the same cells. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
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

/* path loads as it is and anonymized alike (cells, backends, modes). */
static int same_model(const char *path)
{
    mp_rmodel a, b;
    mp_err err;
    mp_anon *labels = mp_anon_new();
    int ok = 1;
    assert_non_null(labels);
    if (mp_rm_load(&a, path, &err) == 0) {
        ok = mp_rm_load_anonymized(&b, path, labels, &err) == 0 && a.ncells == b.ncells &&
             a.nkcells == b.nkcells && a.nbackends == b.nbackends && a.nmodes == b.nmodes &&
             !memcmp(a.backends, b.backends, sizeof a.backends) &&
             !memcmp(a.modes, b.modes, sizeof a.modes);
        for (size_t i = 0; ok && i < a.ncells; i++)
            ok = !strcmp(a.cells[i].backend, b.cells[i].backend) &&
                 a.cells[i].nfds == b.cells[i].nfds;
        if (!ok)
            print_error("%s: anonymized, it loads differently (%s)\n", path, err.msg);
        mp_rm_free(&b);
    }
    mp_rm_free(&a);
    mp_anon_free(labels);
    return ok;
}

static void corpus(void **state)
{
    static const char *const dirs[] = {MP_TEST_FIXTURES "/report", MP_TEST_FIXTURES "/compare",
                                       MP_TEST_FIXTURES "/../fuzz/corpus_json"};
    size_t tried = 0, bad = 0;
    (void)state;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(dirs[d]);
        struct dirent *e;
        assert_non_null(dir);
        while ((e = readdir(dir))) {
            char path[4096];
            if (e->d_name[0] == '.')
                continue;
            size_t l = strlen(e->d_name);
            if (l > 5 && !strcmp(e->d_name + l - 5, ".json"))
                snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            else
                snprintf(path, sizeof path, "%s/%s/results.json", dirs[d], e->d_name);
            if (access(path, R_OK) != 0)
                continue;
            tried++;
            bad += !same_model(path);
        }
        closedir(dir);
    }
    print_message("%zu results.json tried\n", tried);
    assert_true(tried >= 20);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(by_fields),
        cmocka_unit_test(loaded),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
