/* SPDX-License-Identifier: MIT */
/* out_csv.c - results.csv (one row per cell and metric), samples.csv
 * (every kept wall-time sample) and experiments.csv (one row per row of an
 * experiment's table and value), built in memory from results.json's
 * document and written atomically.  Every row begins with its cell's key
 * columns, so no two cells share a row's keys and each file stands alone
 * in pandas or R (docs/results-schema.md). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/json.h"
#include "results/cell.h"
#include "run/results.h"

typedef struct {
    char *buf;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->buf && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t ncap = b->cap ? b->cap * 2 : 65536;
        while (ncap < b->len + (size_t)n + 1)
            ncap *= 2;
        char *nb = realloc(b->buf, ncap);
        if (!nb) {
            b->oom = 1;
            return;
        }
        b->buf = nb;
        b->cap = ncap;
    }
}

static int sb_write(sbuf *b, mp_dir *dir, const char *name, mp_err *err)
{
    int rc = b->oom ? mp_errf(err, -ENOMEM, "out of memory writing %s", name)
                    : mp_write_file(dir, name, b->buf ? b->buf : "", b->len, err);
    free(b->buf);
    return rc;
}

/* One CSV field: quoted (RFC 4180) when it holds a comma, a quote or a
 * line break. */
static void put_text(sbuf *b, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        sb_printf(b, "%s", s);
        return;
    }
    sb_printf(b, "\"");
    for (const char *p = s; *p; p++)
        sb_printf(b, *p == '"' ? "\"\"" : "%c", *p);
    sb_printf(b, "\"");
}

/* A JSON scalar as text, into t (room for n); absent, null, not finite or
 * not a scalar: "".  A number as cJSON writes it into results.json: %.15g,
 * or %.17g where that reads back further off than a DBL_EPSILON of the
 * larger. */
static void scalar_text(char *t, size_t n, const cJSON *v)
{
    *t = 0;
    if (cJSON_IsString(v))
        snprintf(t, n, "%s", v->valuestring);
    else if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        double x = v->valuedouble;
        snprintf(t, n, "%.15g", x);
        double back = strtod(t, NULL);
        if (fabs(back - x) > fmax(fabs(back), fabs(x)) * DBL_EPSILON)
            snprintf(t, n, "%.17g", x);
    } else if (cJSON_IsBool(v))
        snprintf(t, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
}

/* A JSON scalar as a CSV field, an array as its elements joined by single
 * spaces (as the journal joins samples; no quotes needed); absent, null or
 * an object: empty. */
static void put_value(sbuf *b, const cJSON *v)
{
    char t[512];
    if (cJSON_IsString(v)) {
        put_text(b, v->valuestring);
        return;
    }
    if (!cJSON_IsArray(v)) {
        scalar_text(t, sizeof t, v);
        sb_printf(b, "%s", t);
        return;
    }
    sbuf list = {0};
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        scalar_text(t, sizeof t, e);
        sb_printf(&list, "%s%s", e == v->child ? "" : " ", t);
    }
    put_text(b, list.buf ? list.buf : "");
    b->oom |= list.oom;
    free(list.buf);
}

/* The run parameters: the fields of config that are key columns
 * (run/config.h's table, mp_rtfield.not_key), each followed by a comma. */
static void params_header(sbuf *b)
{
    for (size_t i = 0; i < mp_run_config_table.nfields; i++)
        if (!mp_run_config_table.fields[i].not_key)
            sb_printf(b, "%s,", mp_run_config_table.fields[i].key);
}

/* Their values in config cfg. */
static void params(sbuf *b, const cJSON *cfg)
{
    for (size_t i = 0; i < mp_run_config_table.nfields; i++)
        if (!mp_run_config_table.fields[i].not_key) {
            put_value(b, cJSON_GetObjectItemCaseSensitive(cfg, mp_run_config_table.fields[i].key));
            sb_printf(b, ",");
        }
}

/* The key columns' names: the cell's index in results[], its dimensions
 * (results/cell.h, mp_rfield.dim), the run parameters, each followed by a
 * comma. */
static void key_header(sbuf *b)
{
    sb_printf(b, "cell,");
    for (size_t i = 0; i < mp_nrcell_fields; i++)
        if (mp_rcell_fields[i].dim)
            sb_printf(b, "%s,", mp_rcell_fields[i].key);
    params_header(b);
}

/* The key columns of cell j (results[j]) of a run with config cfg. */
static void keys(sbuf *b, size_t j, const cJSON *c, const cJSON *cfg)
{
    sb_printf(b, "%zu,", j);
    for (size_t i = 0; i < mp_nrcell_fields; i++)
        if (mp_rcell_fields[i].dim) {
            put_value(b, cJSON_GetObjectItemCaseSensitive(c, mp_rcell_fields[i].key));
            sb_printf(b, ",");
        }
    params(b, cfg);
}

static int cell_ok(const cJSON *c)
{
    return !strcmp(mp_json_str(c, "status", ""), "ok");
}

static const char *const fields[] = {"p10", "p50", "p90", "p99", "mean", "min", "max",
                                     "stddev", "n"};
#define NFIELDS (sizeof fields / sizeof fields[0])

int mp_write_csv(const cJSON *root, mp_dir *dir, mp_err *err)
{
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "results");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
    sbuf b = {0};
    key_header(&b);
    sb_printf(&b, "status,metric,unit");
    for (size_t k = 0; k < NFIELDS; k++)
        sb_printf(&b, ",%s", fields[k]);
    sb_printf(&b, ",p50_lo,p50_hi,p50_level\n");
    size_t j = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cells) {
        const char *status = mp_json_str(c, "status", "");
        if (!cell_ok(c)) {
            keys(&b, j++, c, cfg);
            put_text(&b, status);
            sb_printf(&b, ",,");
            for (size_t k = 0; k < NFIELDS + 3; k++)
                sb_printf(&b, ",");
            sb_printf(&b, "\n");
            continue;
        }
        /* The interval results.json gives is of wall_ns's median. */
        const cJSON *ci = cJSON_GetObjectItemCaseSensitive(c, "wall_p50_ci95_ns");
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c, "metrics")) {
            keys(&b, j, c, cfg);
            put_text(&b, status);
            sb_printf(&b, ",");
            put_text(&b, m->string);
            sb_printf(&b, ",%s", mp_metric_unit(m->string, m));
            for (size_t k = 0; k < NFIELDS; k++) {
                sb_printf(&b, ",");
                /* a counter that counted nothing (null): empty numbers, n 0 */
                if (!cJSON_IsObject(m) && !strcmp(fields[k], "n"))
                    sb_printf(&b, "0");
                else
                    put_value(&b, cJSON_GetObjectItemCaseSensitive(m, fields[k]));
            }
            int with_ci = !strcmp(m->string, "wall_ns") && cJSON_IsObject(ci);
            static const char *const civ[] = {"lo", "hi", "level"};
            for (size_t k = 0; k < 3; k++) {
                sb_printf(&b, ",");
                if (with_ci)
                    put_value(&b, cJSON_GetObjectItemCaseSensitive(ci, civ[k]));
            }
            sb_printf(&b, "\n");
        }
        j++;
    }
    return sb_write(&b, dir, "results.csv", err);
}

int mp_write_samples(const cJSON *root, const mp_samples *samples, mp_dir *dir,
                     mp_err *err)
{
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "results");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
    sbuf b = {0};
    key_header(&b);
    sb_printf(&b, "repeat,wall_raw_ns\n");
    size_t j = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cells) {
        const mp_samples *s = &samples[j];
        if (cell_ok(c) && s->n) {
            sbuf k = {0};   /* the cell's key columns, once */
            keys(&k, j, c, cfg);
            for (size_t i = 0; !k.oom && i < s->n; i++) {
                sb_printf(&b, "%.*s", (int)k.len, k.buf);
                sb_printf(&b, "%d,%.0f\n", s->repeat[i], s->wall_raw_ns[i]);
            }
            b.oom |= k.oom;
            free(k.buf);
        }
        j++;
    }
    return sb_write(&b, dir, "samples.csv", err);
}

/* The key columns of the experiments' tables (the columns of kind "key"
 * of each experiments.NAME.table in results.json), each once, in the order
 * first seen: at most max into out, and how many. */
static size_t table_keys(const cJSON *xs, const char **out, size_t max)
{
    size_t n = 0;
    const cJSON *x, *col;
    cJSON_ArrayForEach(x, xs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(x, "table");
        cJSON_ArrayForEach(col, cJSON_GetObjectItemCaseSensitive(t, "columns")) {
            const char *k = mp_json_str(col, "key", "");
            size_t i = 0;
            while (i < n && strcmp(out[i], k))
                i++;
            if (*k && i == n && n < max && !strcmp(mp_json_str(col, "kind", ""), "key"))
                out[n++] = k;
        }
    }
    return n;
}

/* Row r of an experiment's table whose columns are cols: the value in
 * the column named key, of kind kind; NULL when there is none. */
static const cJSON *table_value(const cJSON *cols, const cJSON *r, const char *key,
                                const char *kind)
{
    const cJSON *col, *v = r ? r->child : NULL;
    cJSON_ArrayForEach(col, cols) {
        if ((!key || !strcmp(mp_json_str(col, "key", ""), key)) &&
            !strcmp(mp_json_str(col, "kind", ""), kind))
            return v;
        v = v ? v->next : NULL;
    }
    return NULL;
}

int mp_write_experiments_csv(const cJSON *root, mp_dir *dir, mp_err *err)
{
    const cJSON *xs = cJSON_GetObjectItemCaseSensitive(root, "experiments");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
    const char *tkeys[64];
    size_t ntkeys = table_keys(xs, tkeys, sizeof tkeys / sizeof tkeys[0]);
    sbuf b = {0};
    sb_printf(&b, "experiment,cell,");
    for (size_t i = 0; i < ntkeys; i++)
        sb_printf(&b, "%s,", tkeys[i]);
    params_header(&b);
    sb_printf(&b, "status,metric,unit,value\n");
    const cJSON *x;
    cJSON_ArrayForEach(x, xs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(x, "table");
        const cJSON *cols = cJSON_GetObjectItemCaseSensitive(t, "columns");
        const cJSON *r;
        size_t j = 0;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(t, "rows")) {
            sbuf k = {0};   /* the row's key columns and status, once */
            put_text(&k, x->string);
            sb_printf(&k, ",%zu,", j++);
            for (size_t i = 0; i < ntkeys; i++) {
                put_value(&k, table_value(cols, r, tkeys[i], "key"));
                sb_printf(&k, ",");
            }
            params(&k, cfg);
            const cJSON *st = table_value(cols, r, NULL, "status");
            int ok = !cJSON_IsString(st) || !strcmp(st->valuestring, "ok");
            put_text(&k, ok ? "ok" : st->valuestring);
            b.oom |= k.oom;
            const cJSON *col, *v = r->child;
            cJSON_ArrayForEach(col, cols) {
                if (ok && !strcmp(mp_json_str(col, "kind", ""), "value") && k.buf) {
                    sb_printf(&b, "%.*s,", (int)k.len, k.buf);
                    put_text(&b, mp_json_str(col, "key", ""));
                    sb_printf(&b, ",");
                    put_text(&b, mp_json_str(col, "unit", ""));
                    sb_printf(&b, ",");
                    put_value(&b, v);
                    sb_printf(&b, "\n");
                }
                v = v ? v->next : NULL;
            }
            if (!ok && k.buf)   /* one row, its reason in results.json */
                sb_printf(&b, "%.*s,,,\n", (int)k.len, k.buf);
            free(k.buf);
        }
    }
    return sb_write(&b, dir, "experiments.csv", err);
}
