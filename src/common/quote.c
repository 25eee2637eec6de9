/* SPDX-License-Identifier: MIT */
/* quote.c - one quoting function per target language.  See common/quote.h.
 *
 * Each function is a mapping of single ASCII bytes (map_*), run by one
 * writer that copies valid UTF-8 sequences whole, turns invalid bytes into
 * '?', and stops at the first piece that does not fit in front of the
 * closing part the function reserved (a quote, a fence). */
#include "common/quote.h"

#include <stdio.h>
#include <string.h>

typedef struct qout {
    char *buf;
    size_t len, o;
    int full;       /* a piece did not fit: everything after it is dropped */
} qout;

static void q_begin(qout *w, char *buf, size_t len)
{
    w->buf = buf;
    w->len = len;
    w->o = 0;
    w->full = len == 0;
    if (len)
        buf[0] = 0;
}

/* Append n bytes when they fit with `keep` bytes still free for the end. */
static int q_put(qout *w, const char *p, size_t n, size_t keep)
{
    if (w->full || w->o + n + keep + 1 > w->len) {
        w->full = 1;
        return 0;
    }
    memcpy(w->buf + w->o, p, n);
    w->o += n;
    w->buf[w->o] = 0;
    return 1;
}

/* The closing part, for which room was kept. */
static void q_end(qout *w, const char *p)
{
    size_t n = strlen(p);
    if (w->len && w->o + n + 1 <= w->len) {
        memcpy(w->buf + w->o, p, n);
        w->o += n;
        w->buf[w->o] = 0;
    }
}

size_t mp_utf8_seq(const char *str, size_t avail)
{
    const unsigned char *s = (const unsigned char *)str;
    if (!avail)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;   /* the allowed range of the second byte */
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;        /* no overlong forms */
        if (c == 0xed)
            hi = 0x9f;        /* no surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;        /* nothing above U+10FFFF */
    } else
        return 0;
    if (avail < 2 || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (i >= avail || s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

/* The replacement of the ASCII byte at s (tmp may hold it), or NULL to copy
 * the byte; arg is the function's own setting. */
typedef const char *(*q_map)(const char *s, char *tmp, const void *arg);

static void q_text(qout *w, const char *s, size_t keep, q_map map, const void *arg)
{
    while (s && *s && !w->full) {
        size_t n = mp_utf8_seq(s, 4);   /* stops at the NUL, which is no continuation */
        if (n == 0) {
            q_put(w, "?", 1, keep);
            s++;
        } else if (n > 1) {
            q_put(w, s, n, keep);
            s += n;
        } else {
            char tmp[8];
            const char *r = map(s, tmp, arg);
            q_put(w, r ? r : s, r ? strlen(r) : 1, keep);
            s++;
        }
    }
}

static int is_ctl(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* ---- gnuplot --------------------------------------------------------------- */

static const char *map_gp(const char *s, char *tmp, const void *arg)
{
    (void)arg;
    switch (*s) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '`': return "\\`";
    }
    if (is_ctl((unsigned char)*s)) {
        snprintf(tmp, 8, "\\%03o", (unsigned char)*s);
        return tmp;
    }
    return NULL;
}

const char *mp_quote_gp(char *buf, size_t len, const char *s)
{
    qout w;
    q_begin(&w, buf, len);
    if (len < 3)   /* not even "" fits */
        return buf;
    q_put(&w, "\"", 1, 1);
    q_text(&w, s, 1, map_gp, NULL);
    q_end(&w, "\"");
    return buf;
}

static const char *map_comment(const char *s, char *tmp, const void *arg)
{
    (void)tmp;
    (void)arg;
    return is_ctl((unsigned char)*s) ? " " : NULL;
}

const char *mp_quote_comment(char *buf, size_t len, const char *s)
{
    qout w;
    q_begin(&w, buf, len);
    q_text(&w, s, 0, map_comment, NULL);
    while (w.o > 0 && buf[w.o - 1] == '\\')
        buf[--w.o] = 0;
    return buf;
}

static const char *map_dat(const char *s, char *tmp, const void *arg)
{
    (void)tmp;
    (void)arg;
    unsigned char c = (unsigned char)*s;
    return c <= ' ' || c == 0x7f || strchr("#\"'\\", c) ? "_" : NULL;
}

const char *mp_quote_dat(char *buf, size_t len, const char *s)
{
    qout w;
    q_begin(&w, buf, len);
    q_text(&w, s && *s ? s : "_", 0, map_dat, NULL);
    return buf;
}

/* ---- Markdown -------------------------------------------------------------- */

static const char *map_md(const char *s, char *tmp, const void *arg)
{
    (void)tmp;
    (void)arg;
    switch (*s) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '|': return "\\|";
    case '`': return "\\`";
    case '\\': return "\\\\";
    case ']': return s[1] == '(' ? "]\\" : NULL;   /* "](" opens a link target */
    case '\n': case '\r': case '\t': return " ";
    }
    return is_ctl((unsigned char)*s) ? "?" : NULL;
}

const char *mp_quote_md(char *buf, size_t len, const char *s)
{
    qout w;
    q_begin(&w, buf, len);
    q_text(&w, s, 0, map_md, NULL);
    return buf;
}

static const char *map_md_code(const char *s, char *tmp, const void *arg)
{
    (void)tmp;
    if (*s == '|' && *(const int *)arg)
        return "\\|";
    return is_ctl((unsigned char)*s) ? " " : NULL;
}

const char *mp_quote_md_code(char *buf, size_t len, const char *s, int in_table)
{
    size_t run = 0, longest = 0, n = s ? strlen(s) : 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    char fence[40];
    size_t nf = longest + 1 < sizeof fence - 2 ? longest + 1 : sizeof fence - 2;
    memset(fence, '`', nf);
    fence[nf] = 0;
    int pad = n == 0 || s[0] == '`' || s[n - 1] == '`';
    char end[42];
    snprintf(end, sizeof end, "%s%s", pad ? " " : "", fence);
    qout w;
    q_begin(&w, buf, len);
    if (!q_put(&w, fence, nf, strlen(end)) || (pad && !q_put(&w, " ", 1, strlen(end)))) {
        if (len)
            buf[0] = 0;
        return buf;
    }
    q_text(&w, s, strlen(end), map_md_code, &in_table);
    q_end(&w, end);
    return buf;
}

/* ---- shell ----------------------------------------------------------------- */

static int sh_plain(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || strchr("_-./+,:=@%", *s)))
            return 0;
    return 1;
}

static const char *map_sh(const char *s, char *tmp, const void *arg)
{
    (void)tmp;
    (void)arg;
    if (*s == '\'')
        return "'\\''";
    return is_ctl((unsigned char)*s) ? "'?'" : NULL;
}

const char *mp_quote_sh(char *buf, size_t len, const char *s)
{
    qout w;
    q_begin(&w, buf, len);
    if (!s)
        s = "";
    if (sh_plain(s)) {
        q_text(&w, s, 0, map_sh, NULL);
        return buf;
    }
    if (len < 3)
        return buf;
    q_put(&w, "'", 1, 1);
    q_text(&w, s, 1, map_sh, NULL);
    q_end(&w, "'");
    return buf;
}
