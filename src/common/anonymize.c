/* SPDX-License-Identifier: MIT */
/* anonymize.c - see anonymize.h.  The document is walked once; the path of
 * each node is kept as a stack of its keys ("[]" for array elements) and
 * compared with the rows, which are split into the same segments first. */
#include "common/anonymize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SEGS 16            /* segments of a row's path; deeper nodes match no row */
#define ELEMENT "[]"

typedef struct label {
    char *prefix, *value, *label;
} label;

struct mp_anon {
    label *v;
    size_t n, cap;
};

mp_anon *mp_anon_new(void)
{
    return calloc(1, sizeof(mp_anon));
}

void mp_anon_free(mp_anon *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++) {
        free(a->v[i].prefix);
        free(a->v[i].value);
        free(a->v[i].label);
    }
    free(a->v);
    free(a);
}

/* The label of value under prefix, handed out on first sight. */
static const char *label_of(mp_anon *a, const char *prefix, const char *value)
{
    int same_prefix = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (strcmp(a->v[i].prefix, prefix))
            continue;
        if (!strcmp(a->v[i].value, value))
            return a->v[i].label;
        same_prefix++;
    }
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 8;
        label *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return NULL;
        a->v = v;
        a->cap = cap;
    }
    size_t len = strlen(prefix) + 24;
    label l = {strdup(prefix), strdup(value), malloc(len)};
    if (!l.prefix || !l.value || !l.label) {
        free(l.prefix);
        free(l.value);
        free(l.label);
        return NULL;
    }
    snprintf(l.label, len, "%s-%d", prefix, same_prefix + 1);
    a->v[a->n++] = l;
    return l.label;
}

/* ---- free text -------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void puts_(sbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

static char *done(sbuf *b)
{
    if (b->oom) {
        free(b->p);
        return NULL;
    }
    return b->p;
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

static int hex_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* What ends a path inside a sentence or a list. */
static int path_end(char c)
{
    return !c || strchr(" \t\n\r\"'`,;:()[]<>{}|", c) != NULL;
}

/* The length of the path that starts at at (0: none starts there); kept
 * says it names a kernel interface. */
static size_t path_at(const char *s, const char *at, int *kept)
{
    static const char *const starts[] = {"/", "~/", "./", "../"};
    static const char *const kernel[] = {"/proc", "/sys", "/dev"};
    if (at > s && !path_end(at[-1]))
        return 0;
    size_t i = 0;
    while (i < sizeof starts / sizeof starts[0] && strncmp(at, starts[i], strlen(starts[i])))
        i++;
    if (i == sizeof starts / sizeof starts[0])
        return 0;
    size_t n = 0;
    while (!path_end(at[n]))
        n++;
    while (n > 1 && at[n - 1] == '.')   /* the full stop of a sentence */
        n--;
    if (n < 2)
        return 0;
    *kept = 0;
    for (i = 0; i < sizeof kernel / sizeof kernel[0]; i++) {
        size_t l = strlen(kernel[i]);
        *kept |= !strncmp(at, kernel[i], l) && (l == n || at[l] == '/');
    }
    return n;
}

/* "0x" optional, then ffff and 12 more hex digits, standing alone. */
static size_t kaddr_at(const char *s, const char *at)
{
    const char *p = at;
    if (at > s && word_char(at[-1]))
        return 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (strncasecmp(p, "ffff", 4))
        return 0;
    for (int i = 4; i < 16; i++)
        if (!hex_char(p[i]))
            return 0;
    if (word_char(p[16]))
        return 0;
    return (size_t)(p + 16 - at);
}

static void scrub(sbuf *b, const char *in)
{
    const char *p = in;
    while (*p && !b->oom) {
        int kept = 0;
        size_t n = path_at(in, p, &kept);
        if (n) {
            if (kept)
                put(b, p, n);
            else
                puts_(b, MP_ANON_PATH);
        } else if ((n = kaddr_at(in, p))) {
            puts_(b, MP_ANON_KADDR);
        } else {
            put(b, p, 1);
            n = 1;
        }
        p += n;
    }
}

char *mp_anon_text(const char *in)
{
    sbuf b = {0};
    puts_(&b, "");
    scrub(&b, in);
    return done(&b);
}

int mp_anon_text_in_place(char *buf, size_t len)
{
    char *t = mp_anon_text(buf);
    if (!t)
        return -ENOMEM;
    snprintf(buf, len, "%s", t);
    free(t);
    return 0;
}

/* ---- command lines ---------------------------------------------------- */

/* 1 when word (of length n) is "--" and at least one more character of one
 * of the space-separated names in opts: getopt_long takes any unambiguous
 * prefix of a long option for it, and a command that ran had none other. */
static int named(const char *opts, const char *word, size_t n)
{
    if (n < 3 || strncmp(word, "--", 2))
        return 0;
    for (const char *o = opts; o && *o;) {
        size_t l = strcspn(o, " ");
        if (n <= l && !strncmp(o, word, n))
            return 1;
        o += l + (o[l] == ' ');
    }
    return 0;
}

/* The words of in, split at spaces.  An option named in opts (or a prefix
 * of one) keeps its name; its value (after '=', or the next word, whatever
 * it starts with) becomes one MP_ANON_PATH, together with the words after
 * it up to the next that starts with '-': the command line was joined with
 * spaces, so "--out /tmp/a b" was one value as likely as two words. */
static char *argv_text(const char *in, const char *opts)
{
    sbuf b = {0};
    char *copy = strdup(in), *save = NULL;
    int value_next = 0, in_value = 0;
    if (!copy)
        return NULL;
    puts_(&b, "");
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        size_t n = eq ? (size_t)(eq - t) : strlen(t);
        if (in_value && t[0] != '-')
            continue;
        in_value = 0;
        if (b.n)
            puts_(&b, " ");
        if (value_next) {
            puts_(&b, MP_ANON_PATH);
            value_next = 0;
            in_value = 1;
        } else if (named(opts, t, n)) {
            put(&b, t, n);
            if (eq) {
                puts_(&b, "=" MP_ANON_PATH);
                in_value = 1;
            } else {
                value_next = 1;
            }
        } else {
            scrub(&b, t);
        }
    }
    free(copy);
    return done(&b);
}

/* ---- the document ----------------------------------------------------- */

typedef struct row {
    const mp_anon_field *f;
    const char *seg[MAX_SEGS];
    size_t len[MAX_SEGS], nseg;
} row;

typedef struct walk {
    mp_anon *a;
    row *rows;
    size_t nrows;
    mp_anon_act dflt;
    const char *stack[MAX_SEGS];
    size_t depth;
} walk;

/* "results[].reason" into "results", "[]", "reason"; 0 when it has more
 * than MAX_SEGS segments. */
static int split(row *r)
{
    const char *p = r->f->path;
    r->nseg = 0;
    while (*p) {
        size_t n;
        if (!strncmp(p, ELEMENT, 2))
            n = 2;
        else
            n = strcspn(p, ".[");
        if (r->nseg == MAX_SEGS)
            return 0;
        r->seg[r->nseg] = p;
        r->len[r->nseg++] = n;
        p += n;
        if (*p == '.')
            p++;
    }
    return 1;
}

static const row *match(const walk *w)
{
    if (w->depth > MAX_SEGS)
        return NULL;
    for (size_t i = 0; i < w->nrows; i++) {
        const row *r = &w->rows[i];
        size_t k = 0;
        if (r->nseg != w->depth)
            continue;
        for (; k < r->nseg; k++) {
            const char *s = w->stack[k];
            int elem = !strcmp(s, ELEMENT);
            if (r->len[k] == 1 && r->seg[k][0] == '*' ? elem
                : strlen(s) != r->len[k] || strncmp(s, r->seg[k], r->len[k]))
                break;
        }
        if (k == r->nseg)
            return r;
    }
    return NULL;
}

static int set_string(cJSON *node, char *text)
{
    if (!text)
        return -ENOMEM;
    size_t n = strlen(text) + 1;
    char *copy = cJSON_malloc(n);
    if (!copy) {
        free(text);
        return -ENOMEM;
    }
    memcpy(copy, text, n);
    free(text);
    cJSON_free(node->valuestring);
    node->valuestring = copy;
    return 0;
}

/* 1: the caller removes node; 0: done; negative errno. */
static int visit(walk *w, cJSON *node)
{
    const row *r = match(w);
    mp_anon_act act = r ? r->f->act : cJSON_IsString(node) ? w->dflt : MP_ANON_KEEP;
    const char *arg = r ? r->f->arg : NULL;
    if (act == MP_ANON_DROP)
        return 1;
    if (act != MP_ANON_KEEP) {
        if (!cJSON_IsString(node) || !node->valuestring)
            return 1;
        if (act == MP_ANON_TEXT)
            return set_string(node, mp_anon_text(node->valuestring));
        if (act == MP_ANON_ARGV)
            return set_string(node, argv_text(node->valuestring, arg));
        const char *l = label_of(w->a, arg ? arg : "value", node->valuestring);
        return set_string(node, l ? strdup(l) : NULL);
    }
    if (r)   /* a KEEP row keeps the whole subtree */
        return 0;
    cJSON *c = node->child, *next;
    for (; c; c = next) {
        next = c->next;
        if (w->depth < MAX_SEGS)
            w->stack[w->depth] = cJSON_IsArray(node) ? ELEMENT : c->string ? c->string : "";
        w->depth++;
        int rc = visit(w, c);
        w->depth--;
        if (rc < 0)
            return rc;
        if (rc == 1)
            cJSON_Delete(cJSON_DetachItemViaPointer(node, c));
    }
    return 0;
}

int mp_anon_doc(mp_anon *a, cJSON *doc, const mp_anon_field *rows, size_t n,
                mp_anon_act dflt, mp_err *err)
{
    walk w = {a, calloc(n ? n : 1, sizeof *w.rows), n, dflt, {0}, 0};
    int rc = 0;
    if (!w.rows)
        return mp_errf(err, -ENOMEM, "out of memory anonymizing");
    for (size_t i = 0; i < n && !rc; i++) {
        w.rows[i].f = &rows[i];
        if (!split(&w.rows[i]))
            rc = mp_errf(err, -EINVAL, "anonymizing: field path %s has more than %d parts",
                         rows[i].path, MAX_SEGS);
    }
    if (!rc && (rc = visit(&w, doc)) < 0)
        mp_errf(err, rc, "out of memory anonymizing");
    else if (rc == 1)
        rc = mp_errf(err, -EBADMSG, "anonymizing: the whole document would be dropped");
    free(w.rows);
    return rc;
}
