/* SPDX-License-Identifier: MIT */
/* opt.c - parsing and --help from a verb's option table.  See opt.h. */
#include "cmd/opt.h"

#include <getopt.h>
#include <string.h>

#define MP_OPT_VALUE_MAX 4096  /* a value set may change: a copy of at most this */

/* ---- parsing ---- */

static int unknown(const mp_cli *v, char **argv, mp_err *err)
{
    mp_echo e;
    if (optopt > ' ' && optopt < 127)   /* a short one, maybe inside "-xy" */
        return mp_errf(err, MP_EUSAGE, "%s '-%c'%s", v->unknown, optopt, v->see);
    return mp_errf(err, MP_EUSAGE, "%s '%s'%s", v->unknown, mp_echo_arg(&e, argv[optind - 1]),
                   v->see);
}

static int missing(const mp_cli *v, const mp_opt *o, char **argv, mp_err *err)
{
    mp_echo e;
    if (o && o->needs)
        return mp_errf(err, MP_EUSAGE, "--%s needs %s", o->name, o->needs);
    return mp_errf(err, MP_EUSAGE, "%s needs a value%s", mp_echo_arg(&e, argv[optind - 1]),
                   v->see);
}

/* set(cfg, "--name", v): v itself when raw (argv's own string), else a copy
 * that set may change. */
static int call(const mp_opt *o, void *cfg, const char *v, int raw, mp_err *err)
{
    char opt[64], buf[MP_OPT_VALUE_MAX];
    snprintf(opt, sizeof opt, "--%s", o->name);
    if (!v)
        return o->set(cfg, opt, NULL, err);
    if (raw)
        return o->set(cfg, opt, (char *)v, err);
    if (strlen(v) >= sizeof buf)
        return mp_errf(err, MP_EUSAGE, "%s: argument too long", opt);
    strcpy(buf, v);
    return o->set(cfg, opt, buf, err);
}

/* Row o was given, with value s (NULL for a flag). */
static int take(const mp_cli *v, const mp_opt *o, void *cfg, char **argv, const char *s,
                mp_err *err)
{
    char *at = (char *)cfg + o->off;
    switch (o->kind) {
    case MP_OPT_FLAG:
    case MP_OPT_STOP:
        *(int *)(void *)at = 1;
        return 0;
    case MP_OPT_STRING:
        if (!*s && o->needs)
            return missing(v, o, argv, err);
        *(const char **)(void *)at = s;
        return 0;
    case MP_OPT_CALL:
        return call(o, cfg, s, (o->flags & MP_OPT_RAW) != 0, err);
    }
    return 0;
}

static int find(const mp_cli *v, const char *name)
{
    for (size_t i = 0; name && i < v->nopts; i++)
        if (!strcmp(v->opts[i].name, name))
            return (int)i;
    return -1;
}

static int defaults(const mp_cli *v, const int *seen, void *cfg, mp_err *err)
{
    int a = find(v, v->alt);
    for (size_t i = 0; i < v->nopts; i++) {
        const mp_opt *o = &v->opts[i];
        const char *def = a >= 0 && seen[a] && o->alt ? o->alt : o->def;
        if (seen[i] || !def || o->kind != MP_OPT_CALL)
            continue;
        int rc = call(o, cfg, def, 0, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int stray(const mp_cli *v, char **argv, mp_err *err)
{
    mp_echo e;
    if (!*v->stray)
        return mp_errf(err, MP_EUSAGE, "%s '%s'%s", v->unknown, mp_echo_arg(&e, argv[optind]),
                       v->see);
    return mp_errf(err, MP_EUSAGE, "unexpected argument '%s'%s", mp_echo_arg(&e, argv[optind]),
                   v->stray);
}

int mp_opt_parse(const mp_cli *v, int argc, char **argv, void *cfg, mp_opt_parsed *p,
                 mp_err *err)
{
    struct option lo[MP_OPT_ROWS_MAX + 2];
    int seen[MP_OPT_ROWS_MAX] = {0};
    size_t n = v->nopts < MP_OPT_ROWS_MAX ? v->nopts : MP_OPT_ROWS_MAX;

    *p = (mp_opt_parsed){0};
    for (size_t i = 0; i < n; i++)
        lo[i] = (struct option){v->opts[i].name,
                                v->opts[i].arg ? required_argument : no_argument, 0,
                                256 + (int)i};
    /* not 'h': a refused "--help=x" is then echoed whole, as any long option */
    lo[n] = (struct option){"help", no_argument, 0, 256 + (int)n};
    lo[n + 1] = (struct option){0, 0, 0, 0};
    /* 0, not 1: glibc then also drops what an earlier call left half read
     * (the "y" of a refused "-xy"), which it would otherwise parse next */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
        if (c == 'h' || c == 256 + (int)n) {
            p->help = 1;
            return 0;
        }
        const mp_opt *o = c >= 256 && c < 256 + (int)n ? &v->opts[c - 256] : NULL;
        p->malformed = 1;
        if (c == ':')
            return missing(v, optopt >= 256 && optopt < 256 + (int)n ? &v->opts[optopt - 256]
                           : NULL, argv, err);
        if (!o)
            return unknown(v, argv, err);
        p->malformed = 0;
        if (seen[c - 256] && !(o->flags & MP_OPT_REPEAT))
            return mp_errf(err, MP_EUSAGE, "--%s given twice", o->name);
        int rc = take(v, o, cfg, argv, optarg, err);
        if (rc < 0)
            return rc;
        seen[c - 256] = 1;
        if (o->kind == MP_OPT_STOP) {
            p->next = optind;
            return 0;
        }
    }
    p->next = optind;
    if (v->stray && optind < argc) {
        p->malformed = 1;
        return stray(v, argv, err);
    }
    int rc = defaults(v, seen, cfg, err);
    if (rc == 0)
        mp_err_clear(err);
    return rc;
}

/* ---- --help ---- */

const char *mp_opt_text(const mp_cli *v, const mp_opt *o, char *buf, size_t len)
{
    const char *names = o->shown ? o->shown() : o->values ? o->values() : "";
    const char *at = strstr(o->help, "%s");
    size_t n;
    if (at)
        n = (size_t)snprintf(buf, len, "%.*s%s%s", (int)(at - o->help), o->help, names,
                             at + 2);
    else
        n = (size_t)snprintf(buf, len, "%s", o->help);
    if (o->def && n < len)
        snprintf(buf + n, len - n, " [%s%s%s%s%s]", o->def, o->alt ? "; --" : "",
                 o->alt ? v->alt : "", o->alt ? ": " : "", o->alt ? o->alt : "");
    return buf;
}

/* One line of text: its words wrapped to width, continuation lines at col. */
static void wrap(FILE *f, const char *p, size_t len, int col, int width)
{
    const char *end = p + len;
    int at = col;
    while (p < end) {
        while (p < end && *p == ' ')
            p++;
        size_t w = 0;
        while (p + w < end && p[w] != ' ')
            w++;
        if (!w)
            break;
        if (at > col && at + 1 + (int)w > width) {
            fprintf(f, "\n%*s", col, "");
            at = col;
        } else if (at > col) {
            fputc(' ', f);
            at++;
        }
        fwrite(p, 1, w, f);
        at += (int)w;
        p += w;
    }
}

/* "  HEAD" padded to the text's column (a long head gets a line of its
 * own), then the text, its lines at the column. */
static void row(const mp_cli *v, FILE *f, const char *head, const char *text)
{
    int at = fprintf(f, "  %-*s", v->col - 3, head);
    if (at >= v->col)
        fprintf(f, "\n%*s", v->col, "");
    else
        fputc(' ', f);
    for (const char *p = text;; p++) {
        size_t len = strcspn(p, "\n");
        if (v->width)
            wrap(f, p, len, v->col, v->width);
        else
            fwrite(p, 1, len, f);
        p += len;
        if (!*p)
            break;
        fprintf(f, "\n%*s", v->col, "");
    }
    fputc('\n', f);
}

void mp_opt_usage(const mp_cli *v, FILE *f)
{
    fputs(v->intro, f);
    for (size_t i = 0; i < v->nopts; i++) {
        const mp_opt *o = &v->opts[i];
        char head[64], text[2048];
        snprintf(head, sizeof head, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        row(v, f, head, mp_opt_text(v, o, text, sizeof text));
    }
    if (v->help_head)
        row(v, f, v->help_head, "this text");
    fputs(v->outro, f);
}
