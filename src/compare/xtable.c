/* SPDX-License-Identifier: MIT */
/* xtable.c - the experiments part of the comparison report, drawn from the
 * experiments' tables (report/model.h: m->xtabs): per experiment and row
 * key that at least two hosts measured, each host's value of the table's
 * compared column (its first figure's first y, else its first value
 * column); a host without the experiment is marked in its column. */
#include "compare/internal.h"

#include <stdio.h>
#include <string.h>

#include "common/quote.h"
#include "report/format.h"

#define ROWKEY 512

static const mp_rxtable *xtab_of(const mp_cmp_host *h, const char *name)
{
    for (size_t i = 0; i < h->m.nxtabs; i++)
        if (!strcmp(h->m.xtabs[i].name, name) && h->m.xtabs[i].title)
            return &h->m.xtabs[i];
    return NULL;
}

static int col_of(const mp_rxtable *t, const char *key)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (!strcmp(t->cols[i].key, key))
            return (int)i;
    return -1;
}

static int compared(const mp_rxtable *t)
{
    if (t->nfigs)
        return t->figs[0].y[0];
    for (size_t i = 0; i < t->ncols; i++)
        if (t->cols[i].kind == MP_RX_VALUE)
            return (int)i;
    return -1;
}

static void put_value(char *buf, size_t len, const cJSON *v)
{
    char b[64];
    if (cJSON_IsNumber(v))
        snprintf(buf, len, "%s", mp_fmt_num(b, sizeof b, v->valuedouble));
    else if (cJSON_IsString(v))
        mp_md_cell(buf, len, v->valuestring);
    else
        snprintf(buf, len, "–");
}

/* Row r's key as text, "a, b, c", from the key columns of ref (the first
 * host's table) looked up by key in t; 0, or -1 when t lacks one. */
static int row_key(const mp_rxtable *ref, const mp_rxtable *t, const cJSON *row, char *buf,
                   size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (size_t c = 0; c < ref->ncols && o < len; c++) {
        if (ref->cols[c].kind != MP_RX_KEY)
            continue;
        int k = col_of(t, ref->cols[c].key);
        if (k < 0)
            return -1;
        char v[128];
        put_value(v, sizeof v, cJSON_GetArrayItem(row, k));
        o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", v);
    }
    return 0;
}

static const cJSON *find_row(const mp_rxtable *ref, const mp_rxtable *t, const char *key)
{
    char k[ROWKEY];
    for (size_t r = 0; t && r < t->nrows; r++)
        if (!row_key(ref, t, t->rows[r], k, sizeof k) && !strcmp(k, key))
            return t->rows[r];
    return NULL;
}

static void host_cell(FILE *f, const mp_rxtable *ref, const mp_rxtable *t, const char *key)
{
    const cJSON *row = find_row(ref, t, key);
    char b[256];
    if (!t) {
        fputs(" not run |", f);
        return;
    }
    if (!row) {
        fputs(" not measured |", f);
        return;
    }
    const cJSON *st = t->status_col >= 0 ? cJSON_GetArrayItem(row, t->status_col) : NULL;
    if (cJSON_IsString(st) && strcmp(st->valuestring, "ok")) {
        fprintf(f, " %s |", st->valuestring);
        return;
    }
    int v = col_of(t, ref->cols[compared(ref)].key);
    put_value(b, sizeof b, v >= 0 ? cJSON_GetArrayItem(row, v) : NULL);
    fprintf(f, " %s |", b);
}

static void rows(FILE *f, const mp_cmp *c, const mp_rxtable *ref)
{
    char key[ROWKEY];
    for (size_t i = 0; i < c->n; i++) {
        const mp_rxtable *t = xtab_of(&c->h[i], ref->name);
        for (size_t r = 0; t && r < t->nrows; r++) {
            if (row_key(ref, t, t->rows[r], key, sizeof key))
                continue;
            size_t have = 0, first = 1;   /* each key once: from the first host that has it */
            for (size_t o = 0; o < c->n; o++) {
                const mp_rxtable *y = xtab_of(&c->h[o], ref->name);
                const cJSON *yr = find_row(ref, y, key);
                have += yr != NULL;
                if (yr && (o < i || (o == i && yr != t->rows[r])))
                    first = 0;
            }
            if (!first || have < 2)
                continue;
            fprintf(f, "| %s |", key);
            for (size_t o = 0; o < c->n; o++)
                host_cell(f, ref, xtab_of(&c->h[o], ref->name), key);
            fputc('\n', f);
        }
    }
    fputc('\n', f);
}

static void one(FILE *f, const mp_cmp *c, const mp_rxtable *ref)
{
    size_t with = 0;
    char b[512], keys[512] = "";
    for (size_t i = 0; i < c->n; i++)
        with += xtab_of(&c->h[i], ref->name) != NULL;
    if (with < 2) {
        size_t i = 0;
        while (i + 1 < c->n && !xtab_of(&c->h[i], ref->name))
            i++;
        fprintf(f, "- %s (%s): only %s ran it; not compared.\n\n",
                mp_md_cell(b, sizeof b, ref->title), ref->name, MP_QMD(c->h[i].label));
        return;
    }
    int v = compared(ref);
    fprintf(f, "### %s (%s)\n\n", mp_md_cell(b, sizeof b, ref->title), ref->name);
    if (v < 0) {
        fprintf(f, "No value column to compare.\n\n");
        return;
    }
    for (size_t k = 0, o = 0; k < ref->ncols; k++)
        if (ref->cols[k].kind == MP_RX_KEY)
            o += (size_t)snprintf(keys + o, o < sizeof keys ? sizeof keys - o : 0, "%s%s",
                                  o ? ", " : "", ref->cols[k].label);
    fprintf(f, "%s", mp_md_cell(b, sizeof b, ref->cols[v].label));
    if (*ref->cols[v].unit)
        fprintf(f, " (%s)", MP_QMD(ref->cols[v].unit));
    fprintf(f, " for the rows that at least two hosts measured.\n\n");
    mp__cmp_head(f, c, mp_md_cell(b, sizeof b, keys), NULL);
    rows(f, c, ref);
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!xtab_of(&c->h[i], ref->name)) {
            fprintf(f, "- %s: **not run** (no `%s` under experiments).\n", MP_QMD(c->h[i].label),
                    ref->name);
            any = 1;
        }
    if (any)
        fputc('\n', f);
}

void mp__cmp_experiments(FILE *f, const mp_cmp *c)
{
    size_t any = 0;
    for (size_t i = 0; i < c->n; i++)
        any += c->h[i].m.nxtabs;
    if (!any)
        return;
    fprintf(f, "## Experiments side by side\n\n");
    /* each experiment once, described by the first host that has its table */
    for (size_t i = 0; i < c->n; i++)
        for (size_t k = 0; k < c->h[i].m.nxtabs; k++) {
            const mp_rxtable *t = &c->h[i].m.xtabs[k];
            size_t o = 0;
            while (o < i && !xtab_of(&c->h[o], t->name))
                o++;
            if (o == i && t->title && xtab_of(&c->h[i], t->name) == t)
                one(f, c, t);
        }
}
