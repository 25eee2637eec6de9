/* SPDX-License-Identifier: MIT */
/* oracle_quote.h - what the fuzz targets check in what they wrote: strings
 * of the input stayed data (common/quote.h).
 *
 * - Every gnuplot wrapper (a figure's NAME.gp; the figure-kind scripts of
 *   plots/ are the build's own) holds only comment lines, `NAME = VALUE`
 *   assignments and `load "FILE"`, each line with every quote closed and no
 *   backtick that gnuplot would run as a command.
 * - report.md, outside its code spans, opens no HTML tag.
 * A finding is printed with the line and ends the process (abort), as a
 * sanitizer report does. */
#ifndef MP_FUZZ_ORACLE_QUOTE_H
#define MP_FUZZ_ORACLE_QUOTE_H

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"

static inline void oracle_finding(const char *file, const char *what, const char *at)
{
    fprintf(stderr, "oracle: %s: %s: %.120s\n", file, what, at);
    abort();
}

/* 1 when the line is a comment, an assignment or a load whose quotes all
 * close and that has no live backtick; a '#' outside quotes ends it. */
static inline int oracle_gp_line_ok(const char *l)
{
    const char *p = l;
    if (*p != '#') {
        if (!strncmp(p, "load \"", 6)) {
            p += 5;
        } else {
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            if (p == l || strncmp(p, " = ", 3))
                return 0;
            p += 3;
        }
    }
    int dq = 0, sq = 0;
    for (; *p && *p != '\n'; p++) {
        if (dq) {
            if (*p == '\\' && p[1] && p[1] != '\n')
                p++;
            else if (*p == '"')
                dq = 0;
            else if (*p == '`')
                return 0;
        } else if (sq) {
            sq = *p != '\'';
        } else if (*p == '#') {
            return 1;
        } else if (*p == '"') {
            dq = 1;
        } else if (*p == '\'') {
            sq = 1;
        } else if (*p == '`') {
            return 0;
        }
    }
    return !dq && !sq;
}

static inline char *oracle_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, k;
    char *b = malloc(cap);
    while (b && (k = fread(b + n, 1, cap - n - 1, f)) > 0)
        if ((n += k) + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

static inline void oracle_wrappers(const char *figdir)
{
    DIR *d = opendir(figdir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".gp") || mp_plot_find(e->d_name))
            continue;
        char path[4096 + 2 * NAME_MAX];
        snprintf(path, sizeof path, "%s/%s", figdir, e->d_name);
        char *text = oracle_slurp(path);
        for (char *l = text; l && *l;) {
            if (!oracle_gp_line_ok(l))
                oracle_finding(path, "a line that is not data", l);
            char *nl = strchr(l, '\n');
            l = nl ? nl + 1 : l + strlen(l);
        }
        free(text);
    }
    closedir(d);
}

/* Markdown text, in place, without what Markdown shows as literal text:
 * each backslash escape, and each code span (a run of k backticks up to the
 * next run of exactly k); a backtick run that nothing closes stays, as text. */
static inline void oracle_strip_code_spans(char *s)
{
    char *o = s;
    for (char *p = s; *p;) {
        if (*p == '\\' && p[1]) {
            p += 2;
            continue;
        }
        if (*p != '`') {
            *o++ = *p++;
            continue;
        }
        size_t k = strspn(p, "`");
        char *q = p + k, *end = NULL;
        while ((q = strchr(q, '`'))) {
            size_t r = strspn(q, "`");
            if (r == k) {
                end = q;
                break;
            }
            q += r;
        }
        if (end) {
            p = end + k;
            continue;
        }
        memmove(o, p, k);
        o += k;
        p += k;
    }
    *o = 0;
}

/* report.md without its code spans and escapes (shown as text): no '<' that
 * opens a tag, a closing tag, a comment or a processing instruction. */
static inline void oracle_markdown(const char *path)
{
    char *s = oracle_slurp(path);
    if (!s)
        return;
    oracle_strip_code_spans(s);
    for (const char *p = s; *p; p++)
        if (*p == '<' && (isalpha((unsigned char)p[1]) || (p[1] && strchr("/!?", p[1]))))
            oracle_finding(path, "raw markup", p);
    free(s);
}

#endif
