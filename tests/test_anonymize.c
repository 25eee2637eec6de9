/* SPDX-License-Identifier: MIT */
/* test_anonymize.c - the mechanism of common/anonymize.h: free text scrubbed
 * by shape (paths, kernel addresses) with words and numbers left alone, and
 * a document rewritten by a table of field paths (labels, drops, kept
 * subtrees, command lines, '*' and "[]" in paths). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/anonymize.h"

static const struct trow {
    int line;
    const char *in, *want;
} trows[] = {
    {__LINE__, "cannot open /home/alice/runs/r1/results.json: No such file",
     "cannot open <path>: No such file"},
    {__LINE__, "xml: /tmp/q.xml", "xml: <path>"},
    {__LINE__, "wrote ~/runs/x and ./r and ../s.", "wrote <path> and <path> and <path>."},
    {__LINE__, "(/srv/data/q-20261201T000000Z)", "(<path>)"},
    {__LINE__, "no cpufreq in /sys: a VM; /system/x /devices", "no cpufreq in /sys: a VM; <path> <path>"},
    {__LINE__, "/proc/stat, all CPUs; /sys/bus/event_source/devices/cpu/rdpmc; /dev/null",
     "/proc/stat, all CPUs; /sys/bus/event_source/devices/cpu/rdpmc; /dev/null"},
    {__LINE__, "msr/tsc/ and cpu/event=0x3c/ and 1/2 and a / b",
     "msr/tsc/ and cpu/event=0x3c/ and 1/2 and a / b"},
    {__LINE__, "poll reported 1000 ready fds on host q; Intel(R) Xeon",
     "poll reported 1000 ready fds on host q; Intel(R) Xeon"},
    {__LINE__, "ip 0xffffffff81a2b3c4 at ffff888003c1d000.",
     "ip <kernel address> at <kernel address>."},
    {__LINE__, "0xffff 0x7fff5a0b1c2d3e4f cafeffffffff81a2b3c4",
     "0xffff 0x7fff5a0b1c2d3e4f cafeffffffff81a2b3c4"},
    {__LINE__, "", ""},
};

static void text_table(void **state)
{
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof trows / sizeof trows[0]; i++) {
        char *out = mp_anon_text(trows[i].in);
        assert_non_null(out);
        if (strcmp(out, trows[i].want)) {
            print_error("%s:%d: '%s' -> '%s' (want '%s')\n", __FILE__, trows[i].line,
                        trows[i].in, out, trows[i].want);
            failures++;
        }
        free(out);
    }
    assert_int_equal(failures, 0);
}

/* In a fixed buffer: scrubbed, and cut to fit. */
static void in_place(void **state)
{
    char buf[24] = "at /home/alice/x: gone";
    (void)state;
    assert_int_equal(mp_anon_text_in_place(buf, sizeof buf), 0);
    assert_string_equal(buf, "at <path>: gone");
    char small[8] = "/a/b c";
    assert_int_equal(mp_anon_text_in_place(small, sizeof small), 0);
    assert_string_equal(small, "<path> ");
}

static const mp_anon_field rows[] = {
    {"who.host", MP_ANON_LABEL, "host"},
    {"who.secret", MP_ANON_DROP, NULL},
    {"who.cmd", MP_ANON_ARGV, "--out --xml"},
    {"data", MP_ANON_KEEP, NULL},
    {"cells[].name", MP_ANON_KEEP, NULL},
    {"cells[].note", MP_ANON_DROP, NULL},
    {"exp.*.reason", MP_ANON_LABEL, "reason"},
};

static cJSON *rewritten(mp_anon *a, const char *text)
{
    cJSON *doc = cJSON_Parse(text);
    mp_err err;
    assert_non_null(doc);
    assert_int_equal(mp_anon_doc(a, doc, rows, sizeof rows / sizeof rows[0], MP_ANON_TEXT,
                                 &err), 0);
    return doc;
}

static void assert_json(const cJSON *doc, const char *want)
{
    char *got = cJSON_PrintUnformatted(doc);
    assert_non_null(got);
    if (strcmp(got, want))
        print_error("got  %s\nwant %s\n", got, want);
    assert_string_equal(got, want);
    free(got);
}

static void document(void **state)
{
    mp_anon *a = mp_anon_new();
    (void)state;
    assert_non_null(a);
    cJSON *doc = rewritten(a,
        "{\"who\":{\"host\":\"q\",\"secret\":\"s\",\"cmd\":\"muxprof run --out runs/q-1 "
        "--xml=q.xml --fds 10 /home/q/x\",\"other\":\"in /home/q/x\"},"
        "\"data\":{\"path\":\"/home/q\",\"n\":[1,\"0xffffffff81a2b3c4\"]},"
        "\"cells\":[{\"name\":\"/x/y\",\"note\":\"n\",\"v\":2.5},{\"name\":\"poll\",\"w\":\"/a/b\"}],"
        "\"exp\":{\"herd\":{\"reason\":\"r1\"},\"ltet\":{\"reason\":7},\"x\":[{\"reason\":\"r1\"}]},"
        "\"top\":\"/etc/q\"}");
    assert_json(doc,
        "{\"who\":{\"host\":\"host-1\",\"cmd\":\"muxprof run --out <path> --xml=<path> --fds 10 "
        "<path>\",\"other\":\"in <path>\"},"
        "\"data\":{\"path\":\"/home/q\",\"n\":[1,\"0xffffffff81a2b3c4\"]},"
        "\"cells\":[{\"name\":\"/x/y\",\"v\":2.5},{\"name\":\"poll\",\"w\":\"<path>\"}],"
        "\"exp\":{\"herd\":{\"reason\":\"reason-1\"},\"ltet\":{},\"x\":[{\"reason\":\"r1\"}]},"
        "\"top\":\"<path>\"}");
    cJSON_Delete(doc);
    mp_anon_free(a);
}

/* One mp_anon for several documents: a host met again keeps its label. */
static void labels_shared(void **state)
{
    mp_anon *a = mp_anon_new();
    (void)state;
    assert_non_null(a);
    const char *hosts[] = {"q", "poll", "q", "1"}, *want[] = {"host-1", "host-2", "host-1",
                                                              "host-3"};
    for (size_t i = 0; i < 4; i++) {
        char text[64];
        snprintf(text, sizeof text, "{\"who\":{\"host\":\"%s\"}}", hosts[i]);
        cJSON *doc = rewritten(a, text);
        const cJSON *h = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "who"), "host");
        assert_true(cJSON_IsString(h));
        assert_string_equal(h->valuestring, want[i]);
        cJSON_Delete(doc);
    }
    mp_anon_free(a);
}

/* The value of an option the row names, given by a prefix of its name
 * (getopt_long takes one), relative, or with spaces (the command line is
 * joined by spaces): all of it becomes one <path>, up to the next option. */
static void argv_prefixes_and_spaces(void **state)
{
    static const struct { const char *in, *want; } cases[] = {
        {"muxprof run --o=/tmp/alice --fds 10", "muxprof run --o=<path> --fds 10"},
        {"muxprof run --ou /tmp/alice --fds 10", "muxprof run --ou <path> --fds 10"},
        {"muxprof run --o rel-dir --quiet", "muxprof run --o <path> --quiet"},
        {"muxprof run --x q.xml", "muxprof run --x <path>"},
        {"muxprof run --out /tmp/alice smith --quiet", "muxprof run --out <path> --quiet"},
        {"muxprof run --out=/tmp/alice smith jr", "muxprof run --out=<path>"},
        {"muxprof run --out -dir --fds 10", "muxprof run --out <path> --fds 10"},
        {"muxprof run --outer x --fds 10 -- rel", "muxprof run --outer x --fds 10 -- rel"},
    };
    mp_anon *a = mp_anon_new();
    (void)state;
    assert_non_null(a);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *doc = cJSON_CreateObject(), *who = cJSON_AddObjectToObject(doc, "who");
        mp_err err;
        cJSON_AddStringToObject(who, "cmd", cases[i].in);
        assert_int_equal(mp_anon_doc(a, doc, rows, sizeof rows / sizeof rows[0], MP_ANON_TEXT,
                                     &err), 0);
        const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "who"), "cmd");
        assert_true(cJSON_IsString(c));
        if (strcmp(c->valuestring, cases[i].want))
            print_error("in   %s\ngot  %s\nwant %s\n", cases[i].in, c->valuestring,
                        cases[i].want);
        assert_string_equal(c->valuestring, cases[i].want);
        cJSON_Delete(doc);
    }
    mp_anon_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_table),
        cmocka_unit_test(in_place),
        cmocka_unit_test(document),
        cmocka_unit_test(labels_shared),
        cmocka_unit_test(argv_prefixes_and_spaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
