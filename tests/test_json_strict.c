/* SPDX-License-Identifier: MIT */
/* test_json_strict.c - mp_json_parse (one document, no key twice, UTF-8,
 * where it went wrong), mp_json_print (always UTF-8) and mp_echo_arg (a user's value, bounded and on one line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/mp_err.h"

/* Parse text: the return code, the document deleted, the message in err. */
static int parse(const char *text, mp_err *err)
{
    cJSON *j = NULL;
    mp_err_clear(err);
    int rc = mp_json_parse(text, strlen(text), &j, err);
    if (rc)
        assert_null(j);
    else
        assert_non_null(j);
    cJSON_Delete(j);
    return rc;
}

#define HAS(msg, part)                                                                  \
    do {                                                                                \
        if (!strstr((msg), (part)))                                                     \
            fail_msg("'%s' not in '%s'", (part), (msg));                                \
    } while (0)

static void test_one_document(void **state)
{
    (void)state;
    mp_err e;
    assert_int_equal(parse("{\"a\": 1}", &e), 0);
    assert_int_equal(parse("  {\"a\": [1, 2, {\"b\": null}]}\n\t \r\n", &e), 0);
    assert_int_equal(parse("{\"a\": 1} x", &e), -EBADMSG);
    HAS(e.msg, "text after the end of the JSON document at line 1 (byte 9)");
    assert_int_equal(parse("{\"a\": 1}\n{\"a\": 2}\n", &e), -EBADMSG);
    HAS(e.msg, "at line 2 (byte 9)");
    assert_int_equal(parse("[1] ]", &e), -EBADMSG);
    assert_int_equal(parse("{\"a\":\n 1,}", &e), -EBADMSG);
    HAS(e.msg, "not valid JSON near line 2");
}

static void test_duplicate_keys(void **state)
{
    (void)state;
    mp_err e;
    assert_int_equal(parse("{\"results\": [], \"schema\": 1, \"results\": [1]}", &e), -EBADMSG);
    HAS(e.msg, "key \"results\" appears twice in the object at the top level");
    assert_int_equal(parse("{\"results\": [{\"a\": 1}, {\"m\": {\"x\": 1, \"y\": 2, \"x\": 3}}]}",
                           &e), -EBADMSG);
    HAS(e.msg, "key \"x\" appears twice in the object results[1].m");
    /* the same key in two objects, or one differing in case, is no repeat */
    assert_int_equal(parse("{\"a\": {\"k\": 1}, \"b\": {\"k\": 1}, \"K\": 0, \"k\": 0}", &e), 0);
    /* a key with a newline is echoed on one line */
    assert_int_equal(parse("{\"a\\nb\": 1, \"a\\nb\": 2}", &e), -EBADMSG);
    assert_null(strchr(e.msg, '\n'));
    /* a large object: every key compared, the last one repeats the first */
    size_t n = 50000;
    char *big = malloc(n * 16 + 32);
    assert_non_null(big);
    size_t off = (size_t)sprintf(big, "{");
    for (size_t i = 0; i < n; i++)
        off += (size_t)sprintf(big + off, "\"k%zu\":%zu,", i, i);
    sprintf(big + off, "\"k0\":0}");
    assert_int_equal(parse(big, &e), -EBADMSG);
    HAS(e.msg, "key \"k0\" appears twice");
    sprintf(big + off, "\"k%zu\":0}", n);
    assert_int_equal(parse(big, &e), 0);
    free(big);
}

static void test_echo(void **state)
{
    (void)state;
    mp_echo e;
    assert_string_equal(mp_echo_arg(&e, "--out"), "--out");
    assert_string_equal(mp_echo_arg(&e, ""), "");
    assert_string_equal(mp_echo_arg(&e, "a\nb\033[31m"), "a?b?[31m");
    char big[120001];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    const char *s = mp_echo_arg(&e, big);
    assert_int_equal(strspn(s, "x"), MP_ECHO_MAX);
    assert_string_equal(s + MP_ECHO_MAX, "... (120000 bytes)");
    /* not cut inside a UTF-8 sequence: "é" is two bytes across the bound */
    memset(big, 'x', MP_ECHO_MAX - 1);
    memcpy(big + MP_ECHO_MAX - 1, "\xc3\xa9tail", 7);
    s = mp_echo_arg(&e, big);
    assert_int_equal(strspn(s, "x"), MP_ECHO_MAX - 1);
    HAS(s + MP_ECHO_MAX - 1, "... (");
}

static void test_utf8(void **state)
{
    (void)state;
    mp_err e;
    assert_int_equal(parse("{\"a\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}", &e), 0);
    static const char *bad[] = {
        "{\"a\": \"\xff\"}",              /* not a lead byte */
        "{\"a\": \"\x80\"}",              /* a continuation alone */
        "{\"a\": \"\xc0\xaf\"}",          /* overlong '/' */
        "{\"a\": \"\xe0\x80\xaf\"}",      /* overlong, three bytes */
        "{\"a\": \"\xed\xa0\x80\"}",      /* a surrogate */
        "{\"a\": \"\xf4\x90\x80\x80\"}",  /* above U+10FFFF */
        "{\"a\": \"\xe2\x82\"}",          /* cut short */
        "{\"\xfe\": 1}",                  /* in a key */
        "{\"a\": 1}\n\xc3",                /* cut short at the very end */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(parse(bad[i], &e), -EBADMSG);
        HAS(e.msg, "not valid UTF-8 at line");
    }
    assert_int_equal(parse("{\"a\": 1}\n\xc3", &e), -EBADMSG);
    HAS(e.msg, "line 2 (byte 9, 0xc3)");
}

/* What mp_json_print writes parses back, strictly, with U+FFFD for each
 * byte that was not UTF-8 and every valid character as it was. */
static void test_print_utf8(void **state)
{
    (void)state;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "label", "a\xff\xfe b \xc3\xa9 \xe2\x82");
    cJSON_AddStringToObject(o, "k\x80", "ok");
    for (int formatted = 0; formatted <= 1; formatted++) {
        char *text = mp_json_print(o, formatted);
        assert_non_null(text);
        cJSON *back = NULL;
        mp_err e;
        assert_int_equal(mp_json_parse(text, strlen(text), &back, &e), 0);
        assert_string_equal(mp_json_str(back, "label", ""),
                            "a\xef\xbf\xbd\xef\xbf\xbd b \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd");
        assert_string_equal(mp_json_str(back, "k\xef\xbf\xbd", ""), "ok");
        cJSON_Delete(back);
        free(text);
    }
    cJSON_Delete(o);
    cJSON *x = cJSON_CreateString("x");
    char *plain = mp_json_print(x, 0);
    assert_string_equal(plain, "\"x\"");
    free(plain);
    cJSON_Delete(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_document),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_print_utf8),
        cmocka_unit_test(test_echo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
