/* SPDX-License-Identifier: MIT */
/* test_opts.c - the option tables (cmd/opt.h): the parser and --help printer
 * on a table of this test's own, then every verb's table against what the
 * binary prints: each row in its --help, its part of the manual page and its
 * completion, and the completion offering nothing a verb does not take. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "cmd/opt.h"

/* ---- the mechanism, on a table of its own ---- */

typedef struct cfg {
    int flag, stop, n, nlabel;
    const char *path;
    const char *label[4];
    char word[16];
} cfg;

static int set_n(void *c, const char *opt, char *v, mp_err *err)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 0)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is not a count", opt, v);
    ((cfg *)c)->n = (int)n;
    return 0;
}

static int add_label(void *c, const char *opt, char *v, mp_err *err)
{
    cfg *k = c;
    (void)opt, (void)err;
    k->label[k->nlabel++] = v;
    return 0;
}

static int set_word(void *c, const char *opt, char *v, mp_err *err)
{
    (void)opt, (void)err;
    snprintf(((cfg *)c)->word, sizeof ((cfg *)c)->word, "%s", v);
    v[0] = 'X';   /* a setter may change its copy */
    return 0;
}

static const char *colours(void)
{
    return "red, green";
}

static const mp_opt rows[] = {
    MP_OPT_BOOL("flag", cfg, flag, "a flag"),
    MP_OPT_STR("path", "P", cfg, path, "a path", .needs = "a path"),
    MP_OPT_FN("n", "N", set_n, "a count", .def = "7", .alt = "1"),
    MP_OPT_FN("label", "L", add_label, "one per input\n(repeat)", .flags = MP_OPT_REPEAT |
              MP_OPT_RAW),
    MP_OPT_FN("colour", "C", set_word, "one of %s", .values = colours),
    MP_OPT_BOOL("quick", cfg, stop, "picks the alt defaults"),
    {.name = "stop", .kind = MP_OPT_STOP, .off = offsetof(cfg, stop), .help = "ends parsing"},
    MP_OPT_FN("a-rather-long-option-name", "VALUE", set_n,
              "its text starts on a line of its own and wraps at the width like any other"),
};

static const mp_cli cli = {
    .name = "t", .opts = rows, .nopts = MP_CLI_NOPTS(rows), .col = 14, .width = 60,
    .intro = "usage: t\n\n", .outro = "\nthe end\n", .help_head = "-h, --help",
    .unknown = "unknown option", .see = " (t --help)", .stray = " (no operands)",
    .alt = "quick",
};

static const mp_cli operands = {
    .name = "o", .opts = rows, .nopts = 2, .col = 10, .intro = "", .outro = "",
    .unknown = "unexpected argument", .see = "",
};

static int parse(const mp_cli *v, cfg *c, mp_opt_parsed *p, mp_err *e, const char *line)
{
    static char buf[512];
    static char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "t %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    memset(c, 0, sizeof *c);
    mp_err_clear(e);
    return mp_opt_parse(v, argc, argv, c, p, e);
}

static void parses_each_kind(void **st)
{
    (void)st;
    cfg c;
    mp_opt_parsed p;
    mp_err e;
    if (parse(&cli, &c, &p, &e, "--flag --path=here --n 3 --label a --label=b --colour red"))
        fail_msg("%s", e.msg);
    assert_int_equal(c.flag, 1);
    assert_string_equal(c.path, "here");
    assert_int_equal(c.n, 3);
    assert_int_equal(c.nlabel, 2);
    assert_string_equal(c.label[0], "a");
    assert_string_equal(c.label[1], "b");
    assert_string_equal(c.word, "red");
    assert_int_equal(p.help, 0);
    /* defaults: the row's, or its alt one under the verb's alt flag */
    assert_int_equal(parse(&cli, &c, &p, &e, ""), 0);
    assert_int_equal(c.n, 7);
    assert_int_equal(parse(&cli, &c, &p, &e, "--quick"), 0);
    assert_int_equal(c.n, 1);
    /* -h and --help everywhere, and nothing after them is read */
    assert_int_equal(parse(&cli, &c, &p, &e, "-h --bogus"), 0);
    assert_int_equal(p.help, 1);
    assert_int_equal(parse(&operands, &c, &p, &e, "--help"), 0);
    assert_int_equal(p.help, 1);
    /* a stop row ends parsing */
    assert_int_equal(parse(&cli, &c, &p, &e, "--stop --bogus"), 0);
    assert_int_equal(c.stop, 1);
    /* operands, where the verb has them */
    assert_int_equal(parse(&operands, &c, &p, &e, "a --flag b"), 0);
    assert_int_equal(p.next, 2);
    assert_int_equal(c.flag, 1);
}

static void refuses_in_the_verbs_words(void **st)
{
    (void)st;
    static const struct {
        const mp_cli *v;
        const char *line, *msg;
        int malformed;
    } bad[] = {
        {&cli, "--flag --flag", "--flag given twice", 0},
        {&cli, "--n 1 --n=2", "--n given twice", 0},
        {&cli, "--bogus", "unknown option '--bogus' (t --help)", 1},
        {&cli, "-x", "unknown option '-x' (t --help)", 1},
        {&cli, "--help=3", "unknown option '--help=3' (t --help)", 1},
        {&cli, "--n", "--n needs a value (t --help)", 1},
        {&cli, "--path", "--path needs a path", 1},
        {&cli, "--path=", "--path needs a path", 0},
        {&cli, "--n x", "--n: 'x' is not a count", 0},
        {&cli, "stray", "unexpected argument 'stray' (no operands)", 1},
        {&operands, "--n 3", "unexpected argument '--n'", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cfg c;
        mp_opt_parsed p;
        mp_err e;
        int rc = parse(bad[i].v, &c, &p, &e, bad[i].line);
        if (rc != MP_EUSAGE || strcmp(e.msg, bad[i].msg) || p.malformed != bad[i].malformed)
            fail_msg("'%s': rc %d, malformed %d, message '%s'; expected '%s', malformed %d",
                     bad[i].line, rc, p.malformed, e.msg, bad[i].msg, bad[i].malformed);
    }
}

static void prints_help_from_rows(void **st)
{
    (void)st;
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    mp_opt_usage(&cli, f);
    fclose(f);
    assert_string_equal(s,
        "usage: t\n\n"
        "  --flag      a flag\n"
        "  --path P    a path\n"
        "  --n N       a count [7; --quick: 1]\n"
        "  --label L   one per input\n"
        "              (repeat)\n"
        "  --colour C  one of red, green\n"
        "  --quick     picks the alt defaults\n"
        "  --stop      ends parsing\n"
        "  --a-rather-long-option-name VALUE\n"
        "              its text starts on a line of its own and wraps\n"
        "              at the width like any other\n"
        "  -h, --help  this text\n"
        "\nthe end\n");
    free(s);
}

/* ---- every verb's table against what the binary prints ---- */

static const mp_cli *const verbs[] = {&mp_cli_run, &mp_cli_report, &mp_cli_compare,
                                      &mp_cli_events, &mp_cli_topology, &mp_cli_doctor,
                                      &mp_cli_loop, &mp_cli_sim_import, &mp_cli_trace};
#define NVERBS (sizeof verbs / sizeof verbs[0])

/* What `muxprof ARGS REDIR` prints on stdout, malloc'd; the exit status in *rc. */
static char *capture(const char *args, const char *redir, int *rc)
{
    char cmd[512], *s = NULL;
    size_t n = 0;
    snprintf(cmd, sizeof cmd, "'%s' %s %s", MP_TEST_BIN, args, redir);
    FILE *p = popen(cmd, "r"), *m = open_memstream(&s, &n);
    assert_non_null(p);
    assert_non_null(m);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0)
        fwrite(buf, 1, got, m);
    int st = pclose(p);
    fclose(m);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return s;
}

/* stdout of `muxprof ARGS`, and its stderr. */
static char *mux(const char *args, int *rc)
{
    return capture(args, "2>/dev/null", rc);
}

static char *mux_err(const char *args, int *rc)
{
    return capture(args, "2>&1 >/dev/null", rc);
}

/* Whether text has "\n  --NAME" ending at a space or a line's end. */
static int lists(const char *text, const char *name)
{
    char want[96];
    int n = snprintf(want, sizeof want, "\n  --%s", name);
    for (const char *p = strstr(text, want); p; p = strstr(p + 1, want))
        if (p[n] == ' ' || p[n] == '\n')
            return 1;
    return 0;
}

static void every_verb_has_a_table(void **st)
{
    (void)st;
    int rc;
    char *h = mux("--help", &rc);
    assert_int_equal(rc, 0);
    const char *p = strstr(h, "verbs:\n");
    assert_non_null(p);
    size_t seen = 0;
    for (p += 7; p[0] == ' ' && p[1] == ' ' && p[2] != ' ' && p[2] != '-'; seen++) {
        size_t len = strcspn(p + 2, " ");
        size_t i = 0;
        while (i < NVERBS && (strlen(verbs[i]->name) != len ||
                              strncmp(verbs[i]->name, p + 2, len)))
            i++;
        if (i == NVERBS)
            fail_msg("verb '%.*s' has no option table in this test", (int)len, p + 2);
        p = strchr(p, '\n') + 1;
    }
    assert_int_equal(seen, NVERBS);
    free(h);
}

static void help_lists_each_row(void **st)
{
    (void)st;
    for (size_t i = 0; i < NVERBS; i++) {
        const mp_cli *v = verbs[i];
        char args[64];
        int rc, rc_h;
        assert_true(v->nopts < MP_OPT_ROWS_MAX);
        snprintf(args, sizeof args, "%s --help", v->name);
        char *h = mux(args, &rc);
        snprintf(args, sizeof args, "%s -h", v->name);
        char *short_h = mux(args, &rc_h);
        assert_int_equal(rc, 0);
        assert_int_equal(rc_h, 0);
        assert_string_equal(h, short_h);
        for (size_t j = 0; j < v->nopts; j++)
            if (!lists(h, v->opts[j].name))
                fail_msg("%s --help does not list --%s:\n%s", v->name, v->opts[j].name, h);
        free(h);
        free(short_h);
    }
}

/* `muxprof help VERB` prints what `muxprof VERB --help` prints; `help` alone
 * the general help; a verb it does not know is one line naming them all. */
static void help_verb_is_verb_help(void **st)
{
    (void)st;
    int rc, rc_h;
    for (size_t i = 0; i < NVERBS; i++) {
        char args[64];
        snprintf(args, sizeof args, "help %s", verbs[i]->name);
        char *h = mux(args, &rc);
        snprintf(args, sizeof args, "%s --help", verbs[i]->name);
        char *want = mux(args, &rc_h);
        assert_int_equal(rc, 0);
        assert_int_equal(rc_h, 0);
        assert_string_equal(h, want);
        free(h);
        free(want);
    }
    char *h = mux("help", &rc), *want = mux("--help", &rc_h);
    assert_int_equal(rc, 0);
    assert_string_equal(h, want);
    free(h);
    free(want);
    char *e = mux_err("help bogus", &rc);
    assert_int_equal(rc, 2);
    if (!strstr(e, "'bogus'") || strchr(e, '\n') != e + strlen(e) - 1)
        fail_msg("not one line naming 'bogus':\n%s", e);
    for (size_t i = 0; i < NVERBS; i++)
        if (!strstr(e, verbs[i]->name))
            fail_msg("the line does not name %s: %s", verbs[i]->name, e);
    free(e);
    assert_string_equal((h = mux("help run bogus", &rc)), "");
    assert_int_equal(rc, 2);
    free(h);
}

/* -V is --version, and the general help lists it beside --version; the
 * manual and the completion carry it too. */
static void short_version(void **st)
{
    (void)st;
    int rc, rc_l;
    char *v = mux("-V", &rc), *l = mux("--version", &rc_l);
    assert_int_equal(rc, 0);
    assert_int_equal(rc_l, 0);
    assert_string_equal(v, l);
    free(v);
    free(l);
    char *h = mux("--help", &rc);
    if (!strstr(h, "\n  -V, --version "))
        fail_msg("--help does not list -V with --version:\n%s", h);
    free(h);
    char *m = mux("--man", &rc);
    if (!strstr(m, "\n.B \\-V, \\-\\-version\n"))
        fail_msg("the manual page does not list -V with --version");
    free(m);
    char *c = mux("--completion", &rc);
    if (!strstr(c, " -V --version"))
        fail_msg("the completion does not offer -V");
    free(c);
}

/* The word list of `VERB)` in the completion, malloc'd. */
static char *offered(const char *comp, const char *verb)
{
    char head[64];
    snprintf(head, sizeof head, "\n    %s)\n        COMPREPLY=($(compgen -W \"", verb);
    const char *p = strstr(comp, head);
    if (!p)
        fail_msg("the completion has no case for %s", verb);
    p += strlen(head);
    return strndup(p, strcspn(p, "\""));
}

static int row_named(const mp_cli *v, const char *opt, size_t len, int valued)
{
    if (len == 6 && !strncmp(opt, "--help", 6))
        return !valued;
    for (size_t j = 0; j < v->nopts; j++)
        if (strlen(v->opts[j].name) + 2 == len && !strncmp(opt + 2, v->opts[j].name, len - 2))
            return !valued || v->opts[j].arg != NULL;
    return 0;
}

static void completion_offers_each_row_and_nothing_else(void **st)
{
    (void)st;
    int rc;
    char *comp = mux("--completion", &rc);
    assert_int_equal(rc, 0);
    for (size_t i = 0; i < NVERBS; i++) {
        const mp_cli *v = verbs[i];
        char *w = offered(comp, v->name), have[1024];
        snprintf(have, sizeof have, " %s ", w);
        for (size_t j = 0; j < v->nopts; j++) {
            char want[96];
            snprintf(want, sizeof want, " --%s ", v->opts[j].name);
            if (!strstr(have, want))
                fail_msg("completion of %s lacks --%s: %s", v->name, v->opts[j].name, w);
        }
        if (!strstr(have, " --help "))
            fail_msg("completion of %s lacks --help: %s", v->name, w);
        for (char *t = strtok(w, " "); t; t = strtok(NULL, " "))
            if (!row_named(v, t, strlen(t), 0))
                fail_msg("completion of %s offers %s, which %s does not take", v->name, t,
                         v->name);
        free(w);
        /* each value case is an option of the verb that takes a value */
        char head[64];
        int n = snprintf(head, sizeof head, "\n    %s:", v->name);
        for (const char *p = strstr(comp, head); p; p = strstr(p + 1, head)) {
            const char *opt = p + n;
            if (!row_named(v, opt, strcspn(opt, ")|"), 1))
                fail_msg("completion completes a value of %s %.*s, which it does not take",
                         v->name, (int)strcspn(opt, ")|"), opt);
        }
        for (size_t j = 0; j < v->nopts; j++) {
            char want[96];
            snprintf(want, sizeof want, "\n    %s:--%s) ", v->name, v->opts[j].name);
            if (v->opts[j].arg && !strstr(comp, want))
                fail_msg("completion has no case for the value of %s --%s", v->name,
                         v->opts[j].name);
        }
    }
    free(comp);
}

/* Verb v's section of the manual page, malloc'd. */
static char *man_section(const char *man, const mp_cli *v)
{
    char a[64], b[64];
    snprintf(a, sizeof a, ".SH MUXPROF %s\n", v->name);
    snprintf(b, sizeof b, ".SH %s OPTIONS\n", v->name);
    for (char *p = b + 4; *p != ' '; p++)
        *p = (char)(*p - 'a' + 'A');
    const char *s = strstr(man, a) ? strstr(man, a) : strstr(man, b);
    if (!s) {
        fail_msg("the manual page has no section for %s", v->name);
        return NULL;
    }
    const char *e = strstr(s + 4, "\n.SH ");
    return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

static void man_page_carries_each_row(void **st)
{
    (void)st;
    int rc;
    char *man = mux("--man", &rc);
    assert_int_equal(rc, 0);
    for (size_t i = 0; i < NVERBS; i++) {
        char *sec = man_section(man, verbs[i]);
        for (size_t j = 0; j < verbs[i]->nopts; j++) {
            char want[96];
            size_t o = (size_t)snprintf(want, sizeof want, "\\-\\-");
            for (const char *p = verbs[i]->opts[j].name; *p && o + 3 < sizeof want; p++) {
                if (*p == '-')
                    want[o++] = '\\';
                want[o++] = *p;
            }
            want[o] = '\0';
            if (!strstr(sec, want))
                fail_msg("the manual's section for %s lacks %s", verbs[i]->name, want);
        }
        free(sec);
    }
    free(man);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_each_kind),
        cmocka_unit_test(refuses_in_the_verbs_words),
        cmocka_unit_test(prints_help_from_rows),
        cmocka_unit_test(every_verb_has_a_table),
        cmocka_unit_test(help_lists_each_row),
        cmocka_unit_test(help_verb_is_verb_help),
        cmocka_unit_test(short_version),
        cmocka_unit_test(completion_offers_each_row_and_nothing_else),
        cmocka_unit_test(man_page_carries_each_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
