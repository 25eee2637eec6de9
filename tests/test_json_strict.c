/* test_json_strict.c - mp_json_parse (one document, no key twice, where it
 * went wrong) and mp_echo_arg (a user's value, bounded and on one line). */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_document),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_echo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
