/* SPDX-License-Identifier: MIT */
/* sec_xtable_read.c - what an experiment's table asks the report to compute
 * beside its rows (results/exp_table.h): each comparison read out as one
 * line (y per value of `by` among rows alike in `at` and `split`, and the
 * highest over the lowest), and each fit as a table (the least-squares
 * line of y against x per series and split value, report/numeric.h); and
 * the same numbers, with the rows, for `report --json` (mp__rx_json).
 * Input: a table checked by report/load_xtable.c.  See report/md.h. */
#include <math.h>
#include <string.h>

#include "report/format.h"
#include "report/internal.h"
#include "report/md.h"
#include "report/model.h"

#define MAXROWS 256   /* rows one fit or one reading uses */

static const char *label(char *buf, size_t len, const mp_rxcol *c)
{
    return mp_md_cell(buf, len, c->label);
}

/* A key or at value as text: a number formatted, a string made a cell. */
static const char *shown(char *buf, size_t len, const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return mp_fmt_num(buf, len, v->valuedouble);
    if (cJSON_IsString(v))
        return mp_md_cell(buf, len, v->valuestring);
    return "–";
}

static int number(const cJSON *row, int col)
{
    return cJSON_IsNumber(mp__rx_val(row, col));
}

static double num(const cJSON *row, int col)
{
    return mp__rx_val(row, col)->valuedouble;
}

static int same(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return a->valuedouble == b->valuedouble;
    return cJSON_IsString(a) && cJSON_IsString(b) && !strcmp(a->valuestring, b->valuestring);
}

/* The ok rows of comparison c in split value s whose y is a number and whose
 * at value is that of row `at` (any when at is NULL), each value of `by`
 * once (its first row): their count, at most max. */
static size_t group(const mp_rxtable *t, const mp_rxcmp *c, const char *s, const cJSON *at,
                    const cJSON **out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows && n < max; r++) {
        const cJSON *row = t->rows[r];
        if (!mp__rx_row_ok(t, row) || !mp__rx_matches(row, c->split, s) || !number(row, c->y) ||
            (at && !same(mp__rx_val(row, c->at), mp__rx_val(at, c->at))))
            continue;
        size_t j = 0;
        while (j < n && !same(mp__rx_val(out[j], c->by), mp__rx_val(row, c->by)))
            j++;
        if (j == n)
            out[n++] = row;
    }
    return n;
}

/* One reading: the rows compared and which of them is the lowest and the
 * highest (a comparison, its split value and its at row; NULL: all rows). */
typedef struct reading {
    const mp_rxcmp *c;
    const char *split;
    const cJSON *at, *g[MAXROWS];
    size_t n, lo, hi;
} reading;

/* The emitters: one line of report.md, one object of report --json. */
typedef void (*emit_fn)(void *to, const mp_rxtable *t, const reading *r);

/* "- Y (unit) at AT = v, SPLIT s: a 1, b 2; b's is 2× a's." */
static void emit_md(void *to, const mp_rxtable *t, const reading *r)
{
    FILE *f = to;
    const mp_rxcmp *c = r->c;
    const cJSON *const *g = r->g;
    char a[256], b[256];
    const mp_rxcol *y = &t->cols[c->y];
    fprintf(f, "- %s", label(a, sizeof a, y));
    if (*y->unit)
        fprintf(f, " (%s)", mp_md_cell(a, sizeof a, y->unit));
    if (r->at)
        fprintf(f, " at %s = %s", label(a, sizeof a, &t->cols[c->at]),
                shown(b, sizeof b, mp__rx_val(r->at, c->at)));
    if (c->split >= 0)
        fprintf(f, "%s %s %s", r->at ? "," : " for", label(a, sizeof a, &t->cols[c->split]),
                mp_md_cell(b, sizeof b, r->split));
    fputc(':', f);
    for (size_t i = 0; i < r->n; i++)
        fprintf(f, "%s %s %s", i ? "," : "", shown(a, sizeof a, mp__rx_val(g[i], c->by)),
                mp_fmt_num(b, sizeof b, num(g[i], c->y)));
    if (num(g[r->lo], c->y) > 0 && r->hi != r->lo)
        fprintf(f, "; %s's is %s× %s's", shown(a, sizeof a, mp__rx_val(g[r->hi], c->by)),
                MP_NUM(num(g[r->hi], c->y) / num(g[r->lo], c->y)),
                shown(b, sizeof b, mp__rx_val(g[r->lo], c->by)));
    fputs(".\n", f);
}

/* {y, by, at, at_value, split, split_value, values: {by value: y},
 *  highest, lowest, ratio (null when the lowest is not above 0)}. */
static void emit_json(void *to, const mp_rxtable *t, const reading *r)
{
    const mp_rxcmp *c = r->c;
    cJSON *o = cJSON_CreateObject(), *v;
    char a[MP_RM_NAME];
    cJSON_AddStringToObject(o, "y", t->cols[c->y].key);
    cJSON_AddStringToObject(o, "by", t->cols[c->by].key);
    if (r->at) {
        cJSON_AddStringToObject(o, "at", t->cols[c->at].key);
        cJSON_AddItemToObject(o, "at_value", cJSON_Duplicate(mp__rx_val(r->at, c->at), 0));
    }
    if (c->split >= 0) {
        cJSON_AddStringToObject(o, "split", t->cols[c->split].key);
        cJSON_AddStringToObject(o, "split_value", r->split);
    }
    v = cJSON_AddObjectToObject(o, "values");
    for (size_t i = 0; i < r->n; i++)
        if (mp__rx_name_of(a, sizeof a, mp__rx_val(r->g[i], c->by)))
            cJSON_AddNumberToObject(v, a, num(r->g[i], c->y));
    cJSON_AddItemToObject(o, "highest", cJSON_Duplicate(mp__rx_val(r->g[r->hi], c->by), 0));
    cJSON_AddItemToObject(o, "lowest", cJSON_Duplicate(mp__rx_val(r->g[r->lo], c->by), 0));
    double lo = num(r->g[r->lo], c->y);
    mp__rj_num(o, "ratio", lo > 0 ? num(r->g[r->hi], c->y) / lo : NAN);
    cJSON_AddItemToArray(to, o);
}

/* The reading of comparison c in split value s at row `at`, when two or
 * more values of `by` ran there. */
static void read_one(void *to, emit_fn emit, const mp_rxtable *t, const mp_rxcmp *c,
                     const char *s, const cJSON *at)
{
    reading r = {.c = c, .split = s, .at = at};
    r.n = group(t, c, s, at, r.g, MAXROWS);
    if (r.n < 2)
        return;
    for (size_t i = 0; i < r.n; i++) {
        if (num(r.g[i], c->y) < num(r.g[r.lo], c->y))
            r.lo = i;
        if (num(r.g[i], c->y) > num(r.g[r.hi], c->y))
            r.hi = i;
    }
    emit(to, t, &r);
}

/* 1 when row's at value comes before (sign -1) or after (+1) best's. */
static int beyond(const mp_rxtable *t, const mp_rxcmp *c, const cJSON *row, const cJSON *best,
                  int sign)
{
    if (!best)
        return 1;
    const cJSON *x = mp__rx_val(row, c->at), *y = mp__rx_val(best, c->at);
    if (cJSON_IsNumber(x) && cJSON_IsNumber(y))
        return sign < 0 ? x->valuedouble < y->valuedouble : x->valuedouble > y->valuedouble;
    (void)t;
    return sign > 0;   /* names: the first and the last in table order */
}

/* The smallest and the largest at value where two or more `by` values ran. */
static void readings_of(void *to, emit_fn emit, const mp_rxtable *t, const mp_rxcmp *c,
                        const char *s)
{
    if (c->at < 0) {
        read_one(to, emit, t, c, s, NULL);
        return;
    }
    const cJSON *first = NULL, *last = NULL, *g[MAXROWS];
    for (size_t r = 0; r < t->nrows; r++) {
        const cJSON *row = t->rows[r];
        if (!mp__rx_row_ok(t, row) || !mp__rx_matches(row, c->split, s) ||
            !mp__rx_val(row, c->at) || group(t, c, s, row, g, MAXROWS) < 2)
            continue;
        if (beyond(t, c, row, first, -1))
            first = row;
        if (beyond(t, c, row, last, 1))
            last = row;
    }
    if (first)
        read_one(to, emit, t, c, s, first);
    if (last && !same(mp__rx_val(first, c->at), mp__rx_val(last, c->at)))
        read_one(to, emit, t, c, s, last);
}

static void each_reading(void *to, emit_fn emit, const mp_rxtable *t)
{
    for (size_t i = 0; i < t->ncmps; i++) {
        char split[MP_RX_MAXV][MP_RM_NAME];
        size_t ns = mp__rx_names(t, t->cmps[i].split, split);
        for (size_t s = 0; s < ns; s++)
            readings_of(to, emit, t, &t->cmps[i], split[s]);
    }
}

void mp__rx_readings(FILE *f, const mp_rxtable *t)
{
    long pos = ftell(f);
    each_reading(f, emit_md, t);
    if (ftell(f) != pos)
        fputc('\n', f);
}

/* ---- fits ---------------------------------------------------------------- */

/* The fit of g over the ok rows of one split and series value. */
static mp_fit fit_of(const mp_rxtable *t, const mp_rxfit *g, const char *split,
                     const char *series)
{
    double x[MAXROWS], y[MAXROWS];
    size_t n = 0;
    for (size_t r = 0; r < t->nrows && n < MAXROWS; r++) {
        const cJSON *row = t->rows[r];
        if (!mp__rx_row_ok(t, row) || !mp__rx_matches(row, g->split, split) ||
            !mp__rx_matches(row, g->series, series) || !number(row, g->x) || !number(row, g->y))
            continue;
        x[n] = num(row, g->x);
        y[n++] = num(row, g->y);
    }
    return mp_fit_linear(x, y, n);
}

typedef void (*fit_fn)(void *to, const mp_rxfit *g, const char *split, const char *series,
                       const mp_fit *fit);

/* Each fit of g that holds (two or more distinct x), per split and series
 * value: their count. */
static size_t each_fit(void *to, fit_fn emit, const mp_rxtable *t, const mp_rxfit *g)
{
    char split[MP_RX_MAXV][MP_RM_NAME], series[MP_RX_MAXV][MP_RM_NAME];
    size_t ns = mp__rx_names(t, g->split, split), nser = mp__rx_names(t, g->series, series);
    size_t n = 0;
    for (size_t s = 0; s < ns; s++)
        for (size_t k = 0; k < nser; k++) {
            mp_fit fit = fit_of(t, g, split[s], series[k]);
            if (!fit.ok)
                continue;
            if (emit)
                emit(to, g, split[s], series[k], &fit);
            n++;
        }
    return n;
}

static void fit_md(void *to, const mp_rxfit *g, const char *split, const char *series,
                   const mp_fit *fit)
{
    FILE *f = to;
    char a[64], b[64], c[64];
    fputc('|', f);
    if (g->split >= 0)
        fprintf(f, " %s |", mp_md_cell(a, sizeof a, split));
    if (g->series >= 0)
        fprintf(f, " %s |", mp_md_cell(a, sizeof a, series));
    fprintf(f, " %s | %s | %s | %zu |\n", mp_fmt_num(a, sizeof a, fit->slope),
            mp_fmt_num(b, sizeof b, fit->intercept),
            isfinite(fit->r2) ? mp_fmt_num(c, sizeof c, fit->r2) : "–", fit->n);
}

static void one_fit(FILE *f, const mp_rxtable *t, const mp_rxfit *g)
{
    char a[256], b[256], c[256];
    const mp_rxcol *y = &t->cols[g->y];
    if (!each_fit(NULL, NULL, t, g))
        return;
    fprintf(f, "%s against %s, least squares over the measured rows", label(a, sizeof a, y),
            label(b, sizeof b, &t->cols[g->x]));
    if (g->series >= 0)
        fprintf(f, " of each %s", label(a, sizeof a, &t->cols[g->series]));
    if (g->split >= 0)
        fprintf(f, "%s %s", g->series >= 0 ? " and" : " of each",
                label(a, sizeof a, &t->cols[g->split]));
    fprintf(f, ": the slope is the %s.\n\n|", mp_md_cell(a, sizeof a, g->label));
    if (g->split >= 0)
        fprintf(f, " %s |", label(a, sizeof a, &t->cols[g->split]));
    if (g->series >= 0)
        fprintf(f, " %s |", label(a, sizeof a, &t->cols[g->series]));
    fprintf(f, " %s | intercept%s%s%s | R² | rows |\n|", mp_md_cell(b, sizeof b, g->label),
            *y->unit ? " (" : "", *y->unit ? mp_md_cell(c, sizeof c, y->unit) : "",
            *y->unit ? ")" : "");
    for (int k = (g->split >= 0) + (g->series >= 0); k > 0; k--)
        fputs("---|", f);
    fputs("---:|---:|---:|---:|\n", f);
    each_fit(f, fit_md, t, g);
    fputc('\n', f);
}

void mp__rx_fits(FILE *f, const mp_rxtable *t)
{
    for (size_t i = 0; i < t->nfits; i++)
        one_fit(f, t, &t->fits[i]);
}

/* ---- report --json ------------------------------------------------------- */

typedef struct fitctx {
    cJSON *arr;
    const mp_rxtable *t;
} fitctx;

/* {y, x, label, split, split_value, series, series_value, slope, intercept, r2, rows} */
static void fit_json(void *to, const mp_rxfit *g, const char *split, const char *series,
                     const mp_fit *fit)
{
    fitctx *x = to;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "y", x->t->cols[g->y].key);
    cJSON_AddStringToObject(o, "x", x->t->cols[g->x].key);
    cJSON_AddStringToObject(o, "label", g->label);
    if (g->split >= 0) {
        cJSON_AddStringToObject(o, "split", x->t->cols[g->split].key);
        cJSON_AddStringToObject(o, "split_value", split);
    }
    if (g->series >= 0) {
        cJSON_AddStringToObject(o, "series", x->t->cols[g->series].key);
        cJSON_AddStringToObject(o, "series_value", series);
    }
    mp__rj_num(o, "slope", fit->slope);
    mp__rj_num(o, "intercept", fit->intercept);
    mp__rj_num(o, "r2", fit->r2);
    cJSON_AddNumberToObject(o, "rows", (double)fit->n);
    cJSON_AddItemToArray(x->arr, o);
}

/* experiments.NAME: {title, rows: [{column key: value}], readings, fits}. */
void mp__rx_json(cJSON *doc, const mp_rmodel *m)
{
    if (!m->nxtabs)
        return;
    cJSON *x = cJSON_AddObjectToObject(doc, "experiments");
    for (size_t i = 0; i < m->nxtabs; i++) {
        const mp_rxtable *t = &m->xtabs[i];
        if (!t->title || cJSON_GetObjectItemCaseSensitive(x, t->name))
            continue;
        cJSON *o = cJSON_AddObjectToObject(x, t->name);
        cJSON_AddStringToObject(o, "title", t->title);
        cJSON *rows = cJSON_AddArrayToObject(o, "rows");
        for (size_t r = 0; r < t->nrows; r++) {
            cJSON *row = cJSON_CreateObject();
            for (size_t c = 0; c < t->ncols; c++)
                cJSON_AddItemToObject(row, t->cols[c].key,
                                      cJSON_Duplicate(mp__rx_val(t->rows[r], (int)c), 0));
            cJSON_AddItemToArray(rows, row);
        }
        each_reading(cJSON_AddArrayToObject(o, "readings"), emit_json, t);
        fitctx fx = {cJSON_AddArrayToObject(o, "fits"), t};
        for (size_t k = 0; k < t->nfits; k++)
            each_fit(&fx, fit_json, t, &t->fits[k]);
    }
}
