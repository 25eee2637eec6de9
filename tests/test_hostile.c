/* SPDX-License-Identifier: MIT */
/* test_hostile.c - hostile results.json inputs against the real binary.
 *
 * Every input is written as DIR/results.json of a fresh directory and given
 * to `muxprof report DIR --no-plots` and, when the verb exists, to
 * `muxprof compare DIR GOOD --out OUT --no-plots`.  Whatever the input, the
 * process must end by exit (never by a signal: no crash, no sanitizer abort,
 * no hang), with status 0, 1 or 2; and when it fails, stderr is exactly one
 * line that names results.json.  Inputs marked REJECT (not JSON, wrong type
 * or missing value of a required field, ...) must fail with 1 or 2.
 *
 * The inputs are derived from the synthetic fixture (tests/fixtures/report/
 * synthetic/results.json): a type matrix over required and optional fields,
 * number tokens that JSON forbids or that overflow, missing fields, deep
 * nesting, truncations, duplicate keys, bad names, too many cells, binary
 * junk, a sparse 600 MiB file, a directory, a FIFO.  The count is printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#define FIXTURE MP_TEST_FIXTURES "/report/synthetic/results.json"
#define TIMEOUT_MS 60000

enum { ANY = 0, REJECT = 1 };

static char root[64];        /* mkdtemp */
static char good_dir[128];   /* a valid run directory, for compare */
static char *base_text;      /* the fixture */
static int have_compare;
static int ncase, nfail, nrejected, naccepted;

/* ---- running the binary ------------------------------------------------ */

typedef struct {
    int signaled, sig, code, timed_out;
    char err[2048];
} outcome;

static void run_bin(char *const argv[], const char *errpath, int timeout_ms, outcome *o)
{
    memset(o, 0, sizeof *o);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int dn = open("/dev/null", O_RDWR);
        int ef = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (dn < 0 || ef < 0)
            _exit(126);
        dup2(dn, 0);
        dup2(dn, 1);
        dup2(ef, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    for (int waited = 0;; waited += 5) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        if (waited >= timeout_ms) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            o->timed_out = 1;
            break;
        }
        struct timespec ts = {0, 5 * 1000000L};
        nanosleep(&ts, NULL);
    }
    o->signaled = WIFSIGNALED(st);
    o->sig = o->signaled ? WTERMSIG(st) : 0;
    o->code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    char *e = mp_test_slurp(errpath);
    snprintf(o->err, sizeof o->err, "%s", e ? e : "");
    free(e);
}

/* One verb on one input; returns 0 when the outcome keeps the promises. */
static int judge(const char *verb, const char *name, int expect, const outcome *o)
{
    char why[256] = "";
    size_t lines = 0;
    for (const char *p = o->err; *p; p++)
        lines += *p == '\n';
    char prefix[64];
    snprintf(prefix, sizeof prefix, "muxprof %s: ", verb);
    if (o->timed_out)
        snprintf(why, sizeof why, "no answer within %d s (killed)", TIMEOUT_MS / 1000);
    else if (o->signaled)
        snprintf(why, sizeof why, "killed by signal %d (%s)", o->sig, strsignal(o->sig));
    else if (o->code < 0 || o->code > 2)
        snprintf(why, sizeof why, "exit status %d, expected 0, 1 or 2", o->code);
    else if (expect == REJECT && o->code == 0)
        snprintf(why, sizeof why, "accepted an input that must be refused");
    else if (o->code != 0 && (lines != 1 || strncmp(o->err, prefix, strlen(prefix))))
        snprintf(why, sizeof why, "error output is not one line starting '%s'", prefix);
    else if (o->code != 0 && !strstr(o->err, "results.json"))
        snprintf(why, sizeof why, "error does not name the file results.json");
    if (!why[0])
        return 0;
    print_error("hostile input '%s', muxprof %s: %s\n  stderr: %.600s\n", name, verb, why,
                o->err);
    return -1;
}

/* Write the input into a fresh DIR/results.json and run the verbs on it. */
static void try_input(const char *name, const void *text, size_t len, int expect)
{
    char dir[128], path[192], errp[192], out[192];
    int n = ++ncase;
    snprintf(dir, sizeof dir, "%s/c%04d", root, n);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/results.json", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);

    outcome o;
    int bad = 0;
    snprintf(errp, sizeof errp, "%s.report.err", dir);
    char *rargv[] = {MP_TEST_BIN, "report", dir, "--no-plots", NULL};
    run_bin(rargv, errp, TIMEOUT_MS, &o);
    bad |= judge("report", name, expect, &o);
    if (!o.signaled && !o.timed_out)
        o.code ? nrejected++ : naccepted++;
    if (have_compare) {
        snprintf(out, sizeof out, "%s.cmp", dir);
        snprintf(errp, sizeof errp, "%s.compare.err", dir);
        char *cargv[] = {MP_TEST_BIN, "compare", dir, good_dir, "--out", out, "--no-plots",
                         NULL};
        run_bin(cargv, errp, TIMEOUT_MS, &o);
        bad |= judge("compare", name, expect, &o);
    }
    nfail += bad != 0;
    if (!bad) {   /* keep the failing ones for a look */
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.cmp' '%s'.*.err", dir, dir, dir);
        if (system(cmd) != 0)
            print_message("could not clean %s\n", dir);
    }
}

static void try_text(const char *name, const char *text, int expect)
{
    try_input(name, text, strlen(text), expect);
}

/* ---- building inputs from the fixture ---------------------------------- */

/* The item at a dotted path ("results.0.metrics.wall_ns"), its parent and
 * key; NULL when absent. */
static cJSON *walk(cJSON *rootj, const char *dotted, cJSON **parent, char *last, size_t len)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", dotted);
    cJSON *cur = rootj, *par = NULL;
    char *save = NULL;
    for (char *t = strtok_r(buf, ".", &save); t; t = strtok_r(NULL, ".", &save)) {
        par = cur;
        snprintf(last, len, "%s", t);
        if (cJSON_IsArray(cur))
            cur = cJSON_GetArrayItem(cur, atoi(t));
        else
            cur = cJSON_GetObjectItemCaseSensitive(cur, t);
        if (!cur)
            break;
    }
    *parent = par;
    return cur;
}

static cJSON *base(void)
{
    cJSON *j = cJSON_Parse(base_text);
    assert_non_null(j);
    return j;
}

/* Print j and free it. */
static char *emit(cJSON *j)
{
    char *s = cJSON_PrintUnformatted(j);
    assert_non_null(s);
    cJSON_Delete(j);
    return s;
}

/* The fixture with the item at PATH replaced by NEWV (NULL: removed). */
static char *with(const char *path, cJSON *newv)
{
    cJSON *j = base(), *par;
    char key[64];
    cJSON *it = walk(j, path, &par, key, sizeof key);
    if (!it)
        fail_msg("fixture has no %s", path);
    if (cJSON_IsArray(par)) {
        if (newv)
            cJSON_ReplaceItemInArray(par, atoi(key), newv);
        else
            cJSON_DeleteItemFromArray(par, atoi(key));
    } else {
        if (newv)
            cJSON_ReplaceItemInObjectCaseSensitive(par, key, newv);
        else
            cJSON_DeleteItemFromObjectCaseSensitive(par, key);
    }
    return emit(j);
}

/* The fixture with the item at PATH replaced by a raw token (not JSON-checked). */
static char *with_token(const char *path, const char *token)
{
    char *s = with(path, cJSON_CreateString("@@TOKEN@@"));
    char *at = strstr(s, "\"@@TOKEN@@\"");
    assert_non_null(at);
    size_t pre = (size_t)(at - s), tl = strlen(token), rest = strlen(at + 11);
    char *r = malloc(pre + tl + rest + 1);
    memcpy(r, s, pre);
    memcpy(r + pre, token, tl);
    memcpy(r + pre + tl, at + 11, rest + 1);
    free(s);
    return r;
}

/* ---- the cases ---------------------------------------------------------- */

enum { T_NUM, T_STR, T_ARR, T_OBJ, T_NULL, T_BOOL, NTYPES };
static const char *type_names[] = {"number", "string", "array", "object", "null", "boolean"};

static cJSON *value_of(int t)
{
    switch (t) {
    case T_NUM: return cJSON_CreateNumber(7);
    case T_STR: return cJSON_CreateString("x");
    case T_ARR: return cJSON_CreateArray();
    case T_OBJ: return cJSON_CreateObject();
    case T_NULL: return cJSON_CreateNull();
    default: return cJSON_CreateTrue();
    }
}

/* Fields and the value types (bit per T_*) that may be accepted there;
 * any other type must be refused.  ALL: optional decoration, any outcome. */
#define B(t) (1u << (t))
#define ALL 0xffu
static const struct {
    const char *path;
    unsigned ok;
} fields[] = {
    {"schema", 0},
    {"results", B(T_ARR)},
    {"results.0", 0},
    {"results.0.backend", B(T_STR)},
    {"results.0.mode", B(T_STR)},
    {"results.0.nfds", B(T_NUM)},
    {"results.0.status", 0},
    {"results.0.metrics", 0},
    {"results.0.metrics.wall_ns", 0},
    {"results.0.metrics.wall_ns.p50", B(T_NUM)},
    {"results.0.metrics.L1-dcache-load-misses", B(T_NULL)},   /* null: nothing counted */
    {"results.0.reason", B(T_STR) | B(T_NULL)},
    {"results.0.fd_hi", B(T_NUM) | B(T_NULL)},
    {"context", B(T_OBJ)},
    {"results.0.fd_kind", ALL},
    {"results.0.metrics.wall_ns.p99", ALL},
    {"results.0.metrics.wall_raw_ns", ALL},
    {"status", ALL},
    {"started_utc", ALL},
    {"context.host", ALL},
    {"context.arch", ALL},
    {"topology", ALL},
    {"topology.line_bytes", ALL},
    {"topology.caches", ALL},
    {"topology.caches.0", ALL},
    {"counters", ALL},
    {"config", ALL},
    {"config.backends", ALL},
    {"calibration", ALL},
    {"tool", ALL},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static void test_type_matrix(void **state)
{
    (void)state;
    int before = nfail;
    for (size_t i = 0; i < NFIELDS; i++)
        for (int t = 0; t < NTYPES; t++) {
            char name[160];
            snprintf(name, sizeof name, "%s as %s", fields[i].path, type_names[t]);
            char *s = with(fields[i].path, value_of(t));
            int expect = fields[i].ok == ALL || (fields[i].ok & B(t)) ? ANY : REJECT;
            try_text(name, s, expect);
            free(s);
        }
    assert_int_equal(nfail - before, 0);
}

static void test_missing_fields(void **state)
{
    (void)state;
    int before = nfail;
    for (size_t i = 0; i < NFIELDS; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s missing", fields[i].path);
        char *s = with(fields[i].path, NULL);
        /* a removed required field is refused, except results.0 (the cell goes) */
        int expect = fields[i].ok == ALL || !strcmp(fields[i].path, "results.0") ||
                             !strcmp(fields[i].path, "results.0.reason") ||
                             !strcmp(fields[i].path, "results.0.fd_hi") ||
                             !strcmp(fields[i].path, "context") ||
                             !strcmp(fields[i].path, "results.0.metrics.L1-dcache-load-misses")
                         ? ANY : REJECT;
        try_text(name, s, expect);
        free(s);
    }
    assert_int_equal(nfail - before, 0);
}

/* Tokens in place of a number: those JSON forbids must be refused. */
static const struct {
    const char *tok;
    int json;   /* valid JSON number */
} tokens[] = {
    {"NaN", 0}, {"nan", 0}, {"-NaN", 0}, {"Infinity", 0}, {"-Infinity", 0}, {"inf", 0},
    {"1e400", 1}, {"-1e400", 1}, {"1e-400", 1}, {"4.9e-324", 1},
    {"1.7976931348623157e308", 1}, {"9223372036854775807", 1}, {"9223372036854775808", 1},
    {"-9223372036854775809", 1}, {"18446744073709551616", 1}, {"1e18", 1}, {"1e19", 1},
    {"-0", 1}, {"0", 1}, {"-1", 1}, {"0.5", 1}, {"2147483648", 1}, {"4294967296", 1},
    {"123456789012345678901234567890123456789012345678901234567890", 1},
    {"0x10", 0}, {"+5", 0}, {"1e", 0}, {"-", 0}, {".5", 0}, {"--1", 0},
    {"1.e5", 1},   /* not JSON, but cJSON (strtod) takes it: harmless */
};
static const char *number_fields[] = {
    "results.0.nfds", "results.0.metrics.wall_ns.p50", "results.0.metrics.wall_ns.n",
    "results.0.metrics.L1-dcache-load-misses.p50", "results.0.fd_hi", "topology.line_bytes",
    "topology.caches.0.size_bytes", "topology.caches.0.level",
};

static void test_number_tokens(void **state)
{
    (void)state;
    int before = nfail;
    for (size_t f = 0; f < sizeof number_fields / sizeof number_fields[0]; f++)
        for (size_t t = 0; t < sizeof tokens / sizeof tokens[0]; t++) {
            char name[160];
            snprintf(name, sizeof name, "%s = %.40s", number_fields[f], tokens[t].tok);
            char *s = with_token(number_fields[f], tokens[t].tok);
            /* strtod gives inf for 1e400: the required fields must refuse it */
            int expect = !tokens[t].json ? REJECT
                       : (!strcmp(tokens[t].tok, "1e400") || !strcmp(tokens[t].tok, "-1e400")) &&
                                 f < 2
                           ? REJECT : ANY;
            try_text(name, s, expect);
            free(s);
        }
    assert_int_equal(nfail - before, 0);
}

static char *repeat(const char *a, int n, const char *mid, const char *b, int m)
{
    size_t la = strlen(a), lb = strlen(b), lm = strlen(mid);
    char *s = malloc(la * (size_t)n + lm + lb * (size_t)m + 1), *p = s;
    for (int i = 0; i < n; i++, p += la)
        memcpy(p, a, la);
    memcpy(p, mid, lm);
    p += lm;
    for (int i = 0; i < m; i++, p += lb)
        memcpy(p, b, lb);
    *p = 0;
    return s;
}

static void test_nesting(void **state)
{
    (void)state;
    int before = nfail;
    static const struct {
        const char *name, *open, *mid, *close;
        int n, closed, expect;
    } nests[] = {
        {"10000 [ unclosed", "[", "", "]", 10000, 0, REJECT},
        {"10000 [ closed", "[", "", "]", 10000, 1, REJECT},
        {"10000 { unclosed", "{\"a\":", "1", "}", 10000, 0, REJECT},
        {"10000 { closed", "{\"a\":", "1", "}", 10000, 1, REJECT},
        {"100000 [ closed", "[", "", "]", 100000, 1, REJECT},
    };
    for (size_t i = 0; i < sizeof nests / sizeof nests[0]; i++) {
        char *s = repeat(nests[i].open, nests[i].n, nests[i].mid, nests[i].close,
                         nests[i].closed ? nests[i].n : 0);
        try_text(nests[i].name, s, nests[i].expect);
        free(s);
    }
    /* deep values inside a valid file: refused by the parser or ignored */
    static const struct {
        const char *path;
        int depth;
    } deep[] = {{"results", 5000}, {"results.0.backend", 900}, {"topology", 900},
                {"counters", 990}, {"results.0.metrics.wall_ns", 900}, {"context.host", 999},
                {"calibration", 1500}};
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        char *inner = repeat("[", deep[i].depth, "", "]", deep[i].depth);
        char *s = with_token(deep[i].path, inner);
        char name[160];
        snprintf(name, sizeof name, "%s nested %d deep", deep[i].path, deep[i].depth);
        try_text(name, s, strcmp(deep[i].path, "topology") && strcmp(deep[i].path, "counters") &&
                              strcmp(deep[i].path, "context.host") ? REJECT : ANY);
        free(inner);
        free(s);
    }
    assert_int_equal(nfail - before, 0);
}

static void test_truncated(void **state)
{
    (void)state;
    int before = nfail;
    char *s = emit(base());
    size_t len = strlen(s);
    size_t cuts[] = {1, 2, 10, 11, 100, 1000, len / 4, len / 3, len / 2, 2 * len / 3,
                     len - 100, len - 3, len - 2, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "truncated to %zu of %zu bytes", cuts[i], len);
        try_input(name, s, cuts[i], REJECT);
    }
    /* and the pretty-printed fixture, cut inside a number and inside a string */
    const char *num = strstr(base_text, "\"nfds\":");
    const char *str = strstr(base_text, "\"backend\":");
    try_input("pretty, cut after \"nfds\":", base_text, (size_t)(num - base_text) + 9, REJECT);
    try_input("pretty, cut inside a string", base_text, (size_t)(str - base_text) + 14, REJECT);
    free(s);
    assert_int_equal(nfail - before, 0);
}

static void test_duplicates(void **state)
{
    (void)state;
    int before = nfail;
    char *s = emit(base());
    static const struct {
        const char *key, *dup;
    } dups[] = {
        {"{\"schema\":", "{\"schema\":7,\"schema\":"},
        {"{\"schema\":", "{\"schema\":\"muxprof-results/1\",\"results\":[],\"schema\":"},
        {"\"results\":", "\"results\":{\"a\":1},\"results\":"},
        {"\"results\":", "\"results\":[],\"results\":"},
        {"\"backend\":", "\"backend\":\"epoll\",\"backend\":"},
        {"\"backend\":", "\"backend\":[1],\"backend\":"},
        {"\"nfds\":", "\"nfds\":-5,\"nfds\":"},
        {"\"wall_ns\":", "\"wall_ns\":null,\"wall_ns\":"},
        {"\"p50\":", "\"p50\":\"fast\",\"p50\":"},
        {"\"status\":", "\"status\":\"ok\",\"status\":"},
        {"\"status\":", "\"status\":\"bad\",\"status\":"},
    };
    const char *cells = strstr(s, "\"results\":[");
    assert_non_null(cells);
    for (size_t i = 0; i < sizeof dups / sizeof dups[0]; i++) {
        /* top-level keys: the first occurrence; cell keys: inside results[0] */
        char *at = strstr(dups[i].key[0] == '{' || !strcmp(dups[i].key, "\"results\":") ? s
                          : cells, dups[i].key);
        assert_non_null(at);
        size_t pre = (size_t)(at - s), kl = strlen(dups[i].key), dl = strlen(dups[i].dup);
        char *r = malloc(strlen(s) + dl + 1);
        memcpy(r, s, pre);
        memcpy(r + pre, dups[i].dup, dl);
        strcpy(r + pre + dl, at + kl);
        char name[160];
        snprintf(name, sizeof name, "duplicate key: %s", dups[i].dup);
        /* one key twice is refused whichever value is wrong: readers disagree
         * on which one counts */
        int expect = REJECT;
        try_text(name, r, expect);
        free(r);
    }
    free(s);
    assert_int_equal(nfail - before, 0);
}

static void test_names_and_sizes(void **state)
{
    (void)state;
    int before = nfail;
    static const struct {
        const char *path, *value;
        int expect;
    } names[] = {
        {"results.0.backend", "../../../../tmp/evil", REJECT},
        {"results.0.backend", "a b", REJECT},
        {"results.0.backend", "$(touch /tmp/mp-pwned)", REJECT},
        {"results.0.backend", "`id`", REJECT},
        {"results.0.backend", "", REJECT},
        {"results.0.backend", "\xc3\xa9poll", REJECT},
        {"results.0.backend", "poll\nset output '/tmp/x'", REJECT},
        {"results.0.backend", "abcdefghijklmnopqrstuvwxyz01234", ANY},     /* 31 */
        {"results.0.backend", "abcdefghijklmnopqrstuvwxyz012345", REJECT}, /* 32 */
        {"results.0.mode", "abcdefghijklmnop", REJECT},                    /* 16 */
        {"results.0.fd_kind", "../x", REJECT},
        {"results.0.reason", "a\nb\"c\\d`e$(f)|g#h", ANY},
        {"context.host", "host\"; system('id'); \"", ANY},
        {"context.arch", "../../x\n#", ANY},
        {"status", "interrupted\n> **fake**", ANY},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s = '%.40s'", names[i].path, names[i].value);
        char *s = with(names[i].path, cJSON_CreateString(names[i].value));
        try_text(name, s, names[i].expect);
        free(s);
    }
    /* long strings */
    char *big = malloc(1 << 20);
    memset(big, 'a', (1 << 20) - 1);
    big[(1 << 20) - 1] = 0;
    static const char *long_paths[] = {"results.0.backend", "results.0.reason", "context.host",
                                       "status"};
    for (size_t i = 0; i < sizeof long_paths / sizeof long_paths[0]; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s of 1 MiB", long_paths[i]);
        char *s = with(long_paths[i], cJSON_CreateString(big));
        try_text(name, s, strcmp(long_paths[i], "results.0.backend") ? ANY : REJECT);
        free(s);
    }
    /* metric names: long, odd characters */
    static const struct {
        const char *metric;
        int expect;
    } metrics[] = {
        {"../../../tmp/evil", ANY}, {"a b", REJECT}, {"a\"b", REJECT}, {"a|b", REJECT},
        {"a#b", ANY}, {"", REJECT}, {"$(id)", ANY},
        {"averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongname",
         REJECT},
    };
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
        cJSON *j = base(), *par;
        char key[64];
        cJSON *mt = walk(j, "results.0.metrics", &par, key, sizeof key);
        cJSON *w = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(mt, "wall_ns"), 1);
        cJSON_AddItemToObject(mt, metrics[i].metric, w);
        char name[160];
        snprintf(name, sizeof name, "metric named '%.40s'", metrics[i].metric);
        char *s = emit(j);
        try_text(name, s, metrics[i].expect);
        free(s);
    }
    free(big);

    /* many cells: past the reader's limit, and many distinct names */
    {
        char *s = repeat("{\"schema\":\"muxprof-results/1\",\"results\":[", 1, "{}",
                         ",{}", 100000);
        char *t = malloc(strlen(s) + 3);
        sprintf(t, "%s]}", s);
        try_text("100001 empty cells", t, REJECT);
        free(s);
        free(t);
    }
    {
        cJSON *j = base(), *par;
        char key[64];
        cJSON *res = walk(j, "results", &par, key, sizeof key);
        cJSON *c0 = cJSON_GetArrayItem(res, 0);
        for (int i = 0; i < 3000; i++) {
            cJSON *c = cJSON_Duplicate(c0, 1);
            char b[32];
            snprintf(b, sizeof b, "be%d", i % 40);
            cJSON_ReplaceItemInObjectCaseSensitive(c, "backend", cJSON_CreateString(b));
            snprintf(b, sizeof b, "m%d", i % 37);
            cJSON_ReplaceItemInObjectCaseSensitive(c, "mode", cJSON_CreateString(b));
            cJSON_ReplaceItemInObjectCaseSensitive(c, "nfds", cJSON_CreateNumber(1 + i % 90));
            cJSON_AddItemToArray(res, c);
        }
        char *s = emit(j);
        try_text("3000 extra cells, 40 backends, 37 modes, 90 counts", s, ANY);
        free(s);
    }
    assert_int_equal(nfail - before, 0);
}

static void test_junk(void **state)
{
    (void)state;
    int before = nfail;
    static const struct {
        const char *name, *text;
        int expect;
    } lits[] = {
        {"empty file", "", REJECT}, {"one newline", "\n", REJECT}, {"spaces", "   \t  ", REJECT},
        {"null", "null", REJECT}, {"true", "true", REJECT}, {"number", "42", REJECT},
        {"string", "\"muxprof-results/1\"", REJECT}, {"empty array", "[]", REJECT},
        {"empty object", "{}", REJECT}, {"schema only", "{\"schema\":\"muxprof-results/1\"}", REJECT},
        {"results only", "{\"results\":[]}", REJECT},
        {"other schema", "{\"schema\":\"muxprof-results/2\",\"results\":[]}", REJECT},
        {"lone quote", "\"", REJECT}, {"lone brace", "{", REJECT},
        {"unterminated string", "{\"schema\":\"muxprof-res", REJECT},
        {"bad escape", "{\"schema\":\"\\u12\"}", REJECT},
        {"lone surrogate", "{\"schema\":\"\\ud800\",\"results\":[]}", REJECT},
        {"single quotes", "{'schema':'muxprof-results/1','results':[]}", REJECT},
        {"comments", "/* c */{\"schema\":\"muxprof-results/1\",\"results\":[]}", REJECT},
        {"trailing comma", "{\"schema\":\"muxprof-results/1\",\"results\":[],}", REJECT},
        {"two documents", "{\"schema\":\"muxprof-results/1\",\"results\":[]}"
                          "{\"schema\":\"muxprof-results/1\",\"results\":[]}", REJECT},
        {"trailing garbage", "{\"schema\":\"muxprof-results/1\",\"results\":[]} x", REJECT},
    };
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++)
        try_text(lits[i].name, lits[i].text, lits[i].expect);

    /* NUL bytes and encodings around a valid file */
    size_t bl = strlen(base_text);
    char *buf = malloc(bl * 2 + 16);
    memcpy(buf, "\xef\xbb\xbf", 3);
    memcpy(buf + 3, base_text, bl);
    try_input("UTF-8 BOM before a valid file", buf, bl + 3, ANY);
    memcpy(buf, base_text, bl);
    memcpy(buf + bl, "\0garbage\xff", 9);
    try_input("NUL and junk after a valid file", buf, bl + 9, ANY);
    memcpy(buf, base_text, bl);
    buf[strstr(base_text, "results/1") - base_text] = 0;
    try_input("NUL inside the schema string", buf, bl, REJECT);
    memcpy(buf, base_text, bl);
    buf[strchr(base_text, '\n') - base_text] = 0;   /* cJSON skips it as whitespace */
    try_input("NUL in place of a newline", buf, bl, ANY);
    for (size_t i = 0; i < bl; i++) {   /* UTF-16LE */
        buf[2 * i] = base_text[i];
        buf[2 * i + 1] = 0;
    }
    try_input("UTF-16LE", buf, 2 * bl, REJECT);
    free(buf);

    /* binary junk, seeded */
    unsigned long long x = 0x9e3779b97f4a7c15ULL;
    size_t sizes[] = {1, 7, 64, 512, 4096, 65536, 1 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int variant = 0; variant < 2; variant++) {
            unsigned char *j = malloc(sizes[i]);
            for (size_t k = 0; k < sizes[i]; k++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                j[k] = (unsigned char)x;
                if (variant)   /* JSON punctuation soup */
                    j[k] = (unsigned char)"{}[]\":,0123456789.eE+-tfnul \\\"ab"[x % 33];
            }
            if (!variant)
                j[0] = 0xfe;   /* never a valid start */
            else
                j[0] = '{';
            char name[64];
            snprintf(name, sizeof name, "%s junk, %zu bytes", variant ? "JSON-alphabet" : "binary",
                     sizes[i]);
            try_input(name, j, sizes[i], REJECT);
            free(j);
        }
    assert_int_equal(nfail - before, 0);
}

/* Error messages echo names from the file: control characters in them
 * (a newline, a terminal escape) must not reach stderr raw. */
static void test_control_echo(void **state)
{
    (void)state;
    static const char *bad_names[] = {"x\ny", "\x1b[2J\x1b[31mred", "a\rb", "t\tab"};
    int raw = 0, before = nfail;
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        cJSON *j = base(), *par;
        char key[64], dir[128], path[192], errp[192];
        cJSON *mt = walk(j, "results.0.metrics", &par, key, sizeof key);
        cJSON_AddItemToObject(mt, bad_names[i],
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(mt, "wall_ns"), 1));
        char *s = emit(j);
        snprintf(dir, sizeof dir, "%s/e%04d", root, ++ncase);
        assert_int_equal(mkdir(dir, 0755), 0);
        snprintf(path, sizeof path, "%s/results.json", dir);
        snprintf(errp, sizeof errp, "%s.err", dir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(s, f);
        fclose(f);
        free(s);
        outcome o;
        char *argv[] = {MP_TEST_BIN, "report", dir, "--no-plots", NULL};
        run_bin(argv, errp, TIMEOUT_MS, &o);
        if (o.signaled || o.timed_out || (o.code != 1 && o.code != 2)) {
            print_error("metric name with control characters: exit %d signal %d\n", o.code,
                        o.sig);
            nfail++;
            continue;
        }
        nrejected++;
        size_t len = strlen(o.err);
        for (size_t k = 0; k + 1 < len; k++)
            if ((unsigned char)o.err[k] < ' ' || o.err[k] == 0x7f) {
                raw++;
                break;
            }
    }
    assert_int_equal(nfail - before, 0);
    if (raw)
        fail_msg("%d of %zu error messages echo control characters from a metric name raw "
                 "(a newline splits the one-line error; an escape sequence reaches the "
                 "terminal)", raw, sizeof bad_names / sizeof bad_names[0]);
}

/* Not regular files: a directory, a sparse file past the size limit, a
 * symlink to /dev/zero, a FIFO.  Each is refused without reading it. */
static void special(const char *name, int kind)
{
    char dir[128], path[192], errp[192];
    int n = ++ncase;
    snprintf(dir, sizeof dir, "%s/s%04d", root, n);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/results.json", dir);
    snprintf(errp, sizeof errp, "%s.err", dir);
    if (kind == 0) {
        assert_int_equal(mkdir(path, 0755), 0);
    } else if (kind == 1) {
        int fd = open(path, O_WRONLY | O_CREAT, 0644);
        assert_true(fd >= 0);
        assert_int_equal(ftruncate(fd, 600LL << 20), 0);
        close(fd);
    } else if (kind == 2) {
        assert_int_equal(symlink("/dev/zero", path), 0);
    } else {
        assert_int_equal(mkfifo(path, 0644), 0);
    }
    char out[192];
    snprintf(out, sizeof out, "%s.cmp", dir);
    char *rargv[] = {MP_TEST_BIN, "report", dir, "--no-plots", NULL};
    char *cargv[] = {MP_TEST_BIN, "compare", dir, good_dir, "--out", out, "--no-plots", NULL};
    int hung = 0;
    for (int v = 0; v < 1 + have_compare; v++) {
        outcome o;
        const char *verb = v ? "compare" : "report";
        run_bin(v ? cargv : rargv, errp, kind == 3 ? 3000 : TIMEOUT_MS, &o);
        if (kind == 3 && o.timed_out) {
            print_error("`muxprof %s` blocks when results.json is a FIFO\n", verb);
            hung++;
            continue;
        }
        if (judge(verb, name, REJECT, &o))
            nfail++;
        if (!v)
            o.code ? nrejected++ : naccepted++;
    }
    if (hung)
        fail_msg("%d verb(s) blocked on a FIFO results.json", hung);
}

static void test_special_files(void **state)
{
    (void)state;
    int before = nfail;
    special("results.json is a directory", 0);
    special("sparse 600 MiB results.json", 1);
    special("results.json -> /dev/zero", 2);
    assert_int_equal(nfail - before, 0);
}

static void test_fifo(void **state)
{
    (void)state;
    int before = nfail;
    special("results.json is a FIFO", 3);
    assert_int_equal(nfail - before, 0);
}

/* ---- setup -------------------------------------------------------------- */

static int setup(void **state)
{
    (void)state;
    if (access(MP_TEST_BIN, X_OK) != 0) {
        print_error("%s is missing or not executable: build the muxprof target\n", MP_TEST_BIN);
        return -1;
    }
    snprintf(root, sizeof root, "/tmp/mp-hostile-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    base_text = mp_test_slurp(FIXTURE);
    if (!base_text)
        return -1;
    snprintf(good_dir, sizeof good_dir, "%s/good", root);
    mkdir(good_dir, 0755);
    char p[192];
    snprintf(p, sizeof p, "%s/results.json", good_dir);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(base_text, f);
    fclose(f);
    /* compare: exercised once it exists (a placeholder says "not implemented") */
    outcome o;
    char errp[192];
    snprintf(errp, sizeof errp, "%s/compare-probe.err", root);
    char *argv[] = {MP_TEST_BIN, "compare", "--help", NULL};
    run_bin(argv, errp, 10000, &o);
    have_compare = !o.signaled && o.code == 0;
    print_message("compare verb %s\n", have_compare ? "present: fed every input too"
                                                    : "not implemented: report only");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    print_message("hostile results.json: %d inputs tried (%d refused, %d accepted by report), "
                  "%d mishandled\n", ncase, nrejected, naccepted, nfail);
    free(base_text);
    if (nfail)
        print_message("kept the mishandled inputs under %s\n", root);
    else {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd) != 0)
            return -1;
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_matrix),
        cmocka_unit_test(test_missing_fields),
        cmocka_unit_test(test_number_tokens),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_names_and_sizes),
        cmocka_unit_test(test_junk),
        cmocka_unit_test(test_control_echo),
        cmocka_unit_test(test_special_files),
        cmocka_unit_test(test_fifo),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
