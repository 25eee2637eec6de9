/* SPDX-License-Identifier: MIT */
/* test_quote.c - the quoting functions of common/quote.h against known
 * answers, their truncation (never half an escape, a quote or a UTF-8
 * character), and the gnuplot one against gnuplot itself: a quoted string
 * reads back as the same value and runs nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/quote.h"

typedef const char *(*qfn)(char *, size_t, const char *);

static void expect(qfn f, const char *in, const char *want)
{
    char buf[512];
    const char *got = f(buf, sizeof buf, in);
    if (strcmp(got, want))
        fail_msg("quoting \"%s\": got [%s], want [%s]", in, got, want);
}

static void test_gnuplot(void **state)
{
    (void)state;
    expect(mp_quote_gp, "Intel(R) Xeon(R) CPU @ 2.10GHz (x86_64)",
           "\"Intel(R) Xeon(R) CPU @ 2.10GHz (x86_64)\"");
    expect(mp_quote_gp, "", "\"\"");
    expect(mp_quote_gp, "x\";system \"id>PWN\";#", "\"x\\\";system \\\"id>PWN\\\";#\"");
    expect(mp_quote_gp, "a`touch M`b", "\"a\\`touch M\\`b\"");
    expect(mp_quote_gp, "back\\slash", "\"back\\\\slash\"");
    expect(mp_quote_gp, "two\nlines\r\t\x7f", "\"two\\012lines\\015\\011\\177\"");
    expect(mp_quote_gp, "@mac $x 'q' %s", "\"@mac $x 'q' %s\"");
    expect(mp_quote_gp, "\xc3\xa9t\xc3\xa9 \xe2\x89\x88", "\"\xc3\xa9t\xc3\xa9 \xe2\x89\x88\"");
    expect(mp_quote_gp, "bad \xff \xc3 \xed\xa0\x80", "\"bad ? ? ???\"");
}

static void test_comment_and_dat(void **state)
{
    (void)state;
    expect(mp_quote_comment, "cost, ready mode (log-log)", "cost, ready mode (log-log)");
    expect(mp_quote_comment, "a\nsystem \"id\"\r\n", "a system \"id\"  ");
    expect(mp_quote_comment, "ends in a backslash\\\\", "ends in a backslash");
    expect(mp_quote_dat, "own-sets-exclusive", "own-sets-exclusive");
    expect(mp_quote_dat, "a b\tc#d\"e'f\\g\nh", "a_b_c_d_e_f_g_h");
    expect(mp_quote_dat, "", "_");
}

static void test_markdown(void **state)
{
    (void)state;
    expect(mp_quote_md, "AMD EPYC 9354P 32-Core Processor", "AMD EPYC 9354P 32-Core Processor");
    expect(mp_quote_md, "always [madvise] never", "always [madvise] never");
    expect(mp_quote_md, "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;");
    expect(mp_quote_md, "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mp_quote_md, "a & b | c `d` \\e", "a &amp; b \\| c \\`d\\` \\\\e");
    expect(mp_quote_md, "[click](javascript:alert(1)) ![x](http://t/p.png)",
           "[click]\\(javascript:alert(1)) ![x]\\(http://t/p.png)");
    expect(mp_quote_md, "one\ntwo\r\tthree\x01", "one two  three?");
    expect(mp_quote_md, "wall_ns *x*", "wall_ns *x*");
}

static void test_markdown_code(void **state)
{
    (void)state;
    char b[128];
    assert_string_equal(mp_quote_md_code(b, sizeof b, "cycles", 0), "`cycles`");
    assert_string_equal(mp_quote_md_code(b, sizeof b, "a`b", 0), "``a`b``");
    assert_string_equal(mp_quote_md_code(b, sizeof b, "`x``", 0), "``` `x`` ```");
    assert_string_equal(mp_quote_md_code(b, sizeof b, "<img>|x\ny", 0), "`<img>|x y`");
    assert_string_equal(mp_quote_md_code(b, sizeof b, "a|b", 1), "`a\\|b`");
}

static void test_shell(void **state)
{
    (void)state;
    expect(mp_quote_sh, "reports/runs/vm-20261130T101010Z", "reports/runs/vm-20261130T101010Z");
    expect(mp_quote_sh, "", "''");
    expect(mp_quote_sh, "my run", "'my run'");
    expect(mp_quote_sh, "x; rm -rf ~ $(id) `id`", "'x; rm -rf ~ $(id) `id`'");
    expect(mp_quote_sh, "it's", "'it'\\''s'");
    expect(mp_quote_sh, "a\nb", "'a'?'b'");
}

/* Cut at every length: the result is always a complete quoted form (quote
 * or fence closed, no lone backslash, no half character). */
static void test_truncation(void **state)
{
    (void)state;
    const char *s = "\xc3\xa9\"\\`\n<&|x'y";
    for (size_t len = 0; len < 40; len++) {
        char b[64];
        memset(b, 'Z', sizeof b);
        mp_quote_gp(b, len, s);
        if (len == 0) {
            assert_int_equal(b[0], 'Z');
            continue;
        }
        size_t n = strlen(b);
        assert_true(n < len);
        if (n) {
            assert_true(n >= 2 && b[0] == '"' && b[n - 1] == '"');
            size_t bs = 0;   /* backslashes right before the closing quote: even */
            while (bs + 1 < n - 1 && b[n - 2 - bs] == '\\')
                bs++;
            assert_int_equal(bs % 2, 0);
        }
        for (size_t i = 0; i < n; i++)   /* no lead byte of é without its follower */
            if ((unsigned char)b[i] == 0xc3)
                assert_int_equal((unsigned char)b[i + 1], 0xa9);
        mp_quote_md(b, len, s);
        assert_true(strlen(b) < len);
        for (const char *a = strchr(b, '&'); a; a = strchr(a + 1, '&'))
            assert_true(!strncmp(a, "&amp;", 5) || !strncmp(a, "&lt;", 4));
        mp_quote_sh(b, len, s);
        n = strlen(b);
        if (n)
            assert_true(b[0] == '\'' && b[n - 1] == '\'');
        mp_quote_md_code(b, len, "a`b", 0);
        n = strlen(b);
        if (n)
            assert_true(n >= 4 && !strncmp(b, "``", 2) && !strcmp(b + n - 2, "``"));
    }
}

/* gnuplot reads each quoted string back as the same value and runs none of
 * the commands hidden in them. */
static void test_gnuplot_reads_back(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        skip();   /* the other tests still ran; this one needs gnuplot */
        return;
    }
    static const char *in[] = {
        "x\";system \"touch MARK\";#",
        "a`touch MARK`b",
        "c\\\"; system \"touch MARK\"; \"",
        "d\nsystem \"touch MARK\"",
        "e\\",
        "f' . system(\"touch MARK\") . '",
        "g @MACRO $0 %s \\n \\` \\140",
        "h\xc3\xa9\xe2\x89\x88",
    };
    char dir[] = "/tmp/mp-test-quote-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char gp[4096], out[4096], mark[4096], cmd[8192];
    snprintf(gp, sizeof gp, "%s/t.gp", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(mark, sizeof mark, "%s/MARK", dir);
    FILE *f = fopen(gp, "w");
    assert_non_null(f);
    fprintf(f, "set print \"out\"\n");
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        char q[512];
        fprintf(f, "v = %s\nprint sprintf(\"%%d:%%s\", strlen(v), v)\n",
                mp_quote_gp(q, sizeof q, in[i]));
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd %s && gnuplot -d t.gp 2>&1", dir);
    assert_int_equal(system(cmd), 0);
    struct stat st;
    assert_int_not_equal(stat(mark, &st), 0);
    f = fopen(out, "r");
    assert_non_null(f);
    char all[4096];
    size_t n = fread(all, 1, sizeof all - 1, f);
    all[n] = 0;
    fclose(f);
    char want[4096];
    size_t o = 0;
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        o += (size_t)snprintf(want + o, sizeof want - o, "%zu:%s\n", strlen(in[i]), in[i]);
    assert_string_equal(all, want);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gnuplot),
        cmocka_unit_test(test_comment_and_dat),
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_markdown_code),
        cmocka_unit_test(test_shell),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_gnuplot_reads_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
