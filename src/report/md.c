/* SPDX-License-Identifier: MIT */
/* md.c - Markdown helpers of the report sections: embedding a prepared
 * figure, a JSON object or a model's fields as table rows.  See md.h. */
#include "report/md.h"

#include <math.h>
#include <string.h>

#include "common/quote.h"
#include "report/format.h"

/* A row "| KEY | VALUE |", both cells escaped. */
static void row(FILE *f, const char *key, const char *v)
{
    char kc[220], cell[2400];
    fprintf(f, "| %s | %s |\n", mp_md_cell(kc, sizeof kc, key), mp_md_cell(cell, sizeof cell, v));
}

/* A list's item t appended to v (of len bytes, *o used): every item whole
 * ("; " before a sentence), and a count in *left of those that do not fit
 * rather than one cut short. */
static void list_item(char *v, size_t len, size_t *o, size_t *left, const char *t)
{
    if (*left || *o + strlen(t) + 40 >= len) {
        (*left)++;
        return;
    }
    *o += (size_t)snprintf(v + *o, len - *o, "%s%s", !*o ? "" : strchr(t, ' ') ? "; " : ", ", t);
}

/* The end of a list: 1 when it has a row (an item, or a count left). */
static int list_end(char *v, size_t len, size_t o, size_t left)
{
    if (left)
        snprintf(v + o, len - o, " (and %zu more)", left);
    return o || left;
}

/* A JSON value as a row's text: a string, a finite number, yes or no, a
 * list of the strings and numbers of an array; 0 for anything else. */
static int json_text(const cJSON *e, char *v, size_t len)
{
    if (cJSON_IsString(e))
        snprintf(v, len, "%s", e->valuestring);
    else if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
        snprintf(v, len, "%.15g", e->valuedouble);
    else if (cJSON_IsBool(e))
        snprintf(v, len, "%s", cJSON_IsTrue(e) ? "yes" : "no");
    else if (cJSON_IsArray(e)) {
        size_t o = 0, left = 0;
        const cJSON *x;
        v[0] = 0;
        cJSON_ArrayForEach(x, e) {
            char item[64];
            const char *t = cJSON_IsString(x) ? x->valuestring : NULL;
            if (!t && cJSON_IsNumber(x))
                t = (snprintf(item, sizeof item, "%g", x->valuedouble), item);
            if (t)
                list_item(v, len, &o, &left, t);
        }
        return list_end(v, len, o, left);
    } else
        return 0;
    return 1;
}

/* Scalars of a JSON object (and of objects one level down) as table rows. */
void mp_rmd_scalar_rows(FILE *f, const cJSON *o, const char *prefix)
{
    const cJSON *e;
    char v[2048], key[200];
    cJSON_ArrayForEach(e, o) {
        if (!e->string)
            continue;
        snprintf(key, sizeof key, "%s%s", prefix, e->string);
        if (cJSON_IsObject(e) && !*prefix) {
            char p[160];
            snprintf(p, sizeof p, "%.100s.", e->string);
            mp_rmd_scalar_rows(f, e, p);
            continue;
        }
        if (json_text(e, v, sizeof v))
            row(f, key, v);
    }
}

void mp_rmd_scalar_rows_except(FILE *f, const cJSON *o, const char *prefix, const char *except)
{
    const cJSON *e;
    char v[2048], key[200];
    cJSON_ArrayForEach(e, o)
        if (e->string && strcmp(e->string, except) && !cJSON_IsArray(e) && !cJSON_IsObject(e) &&
            json_text(e, v, sizeof v)) {
            snprintf(key, sizeof key, "%s%s", prefix, e->string);
            row(f, key, v);
        }
}

/* Field x of a model rec as a row's text, as json_text gives its value in
 * the file; 0 when it has no row (an empty list, a list of objects). */
static int field_text(const mp_rtfield *x, const char *rec, char *v, size_t len)
{
    const char *at = rec + x->off;
    size_t o = 0, left = 0;
    switch (x->type) {
    case MP_RT_TEXT:
        snprintf(v, len, "%s", at);
        return 1;
    case MP_RT_STR:
        snprintf(v, len, "%s", *(const char *const *)at ? *(const char *const *)at : "");
        return 1;
    case MP_RT_COUNT:
        snprintf(v, len, "%.15g", (double)*(const long long *)at);
        return 1;
    case MP_RT_NUMBER:   /* NaN: "unavailable" in the file (the row's only string) */
        if (isnan(*(const double *)at))
            snprintf(v, len, "unavailable");
        else
            snprintf(v, len, "%.15g", *(const double *)at);
        return 1;
    case MP_RT_BOOL:
        snprintf(v, len, "%s", *(const int *)at ? "yes" : "no");
        return 1;
    case MP_RT_HEX:
        snprintf(v, len, "0x%llx", *(const unsigned long long *)at);
        return 1;
    case MP_RT_CHOICE:
        snprintf(v, len, "%s", *(const int *)at >= 0 ? x->names[*(const int *)at] : "");
        return 1;
    case MP_RT_TEXT_LIST:
    case MP_RT_COUNT_LIST:
        v[0] = 0;
        for (size_t i = 0; i < *(const size_t *)(rec + x->count_off) && i < x->len; i++) {
            char item[64];
            if (x->type == MP_RT_COUNT_LIST)
                snprintf(item, sizeof item, "%g", (double)((const long long *)at)[i]);
            list_item(v, len, &o, &left,
                      x->type == MP_RT_TEXT_LIST ? ((const char *const *)at)[i] : item);
        }
        return list_end(v, len, o, left);
    default:   /* objects and lists of them: their own rows, or none */
        return 0;
    }
}

void mp_rmd_table_rows(FILE *f, const mp_rtheld *held, size_t n, const void *rec)
{
    char v[2048], key[200];
    for (size_t i = 0; i < n; i++) {
        const mp_rtfield *x = held[i].field, *in = held[i].in;
        const char *r = (const char *)rec + (in ? in->off : 0);
        snprintf(key, sizeof key, "%s%s%s", in ? in->key : "", in ? "." : "", x->key);
        if (x->type == MP_RT_JSON) {   /* an object another writer made: its scalars */
            const cJSON *j = *(const cJSON *const *)(r + x->off);
            if (cJSON_IsObject(j) && !in) {
                char p[160];
                snprintf(p, sizeof p, "%.100s.", x->key);
                mp_rmd_scalar_rows(f, j, p);
            } else if (json_text(j, v, sizeof v))
                row(f, key, v);
        } else if (field_text(x, r, v, sizeof v))
            row(f, key, v);
    }
}

void mp_rmd_figure(FILE *f, const mp_rfigs *figs, const char *name)
{
    const mp_rfig *x = mp_rfig_find(figs, name);
    char e[400];
    if (!x)
        return;
    const char *cap = MP_QMD(x->caption);
    if (x->drawn)
        fprintf(f, "![%s](figures/%s.png)\n\n*%s* ([SVG](figures/%s.svg), "
                   "[PDF](figures/%s.pdf), [script](figures/%s.gp))\n\n",
                cap, x->name, cap, x->name, x->name, x->name);
    else if (!figs->asked || !figs->gnuplot)
        fprintf(f, "Figure not drawn (%s): `figures/%s.gp`, %s.\n\n",
                figs->asked ? "gnuplot is not installed"
                            : "--no-plots; a drawing an earlier report made is kept",
                x->name, cap);
    else
        fprintf(f, "- `figures/%s.gp` (%s) was not drawn: %s\n\n", x->name, cap,
                mp_md_cell(e, sizeof e, x->error));
}
