/* SPDX-License-Identifier: MIT */
/* exp_table.c - an experiment's table written into results.json from its
 * cell objects.  See exp_table.h. */
#include "results/exp_table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"

/* The item at dotted path key under o (no member name holds a '.'), or NULL. */
static const cJSON *at_path(const cJSON *o, const char *key)
{
    char part[128];
    while (o && *key) {
        size_t n = strcspn(key, ".");
        if (n >= sizeof part)
            return NULL;
        memcpy(part, key, n);
        part[n] = 0;
        o = cJSON_GetObjectItemCaseSensitive(o, part);
        key += n + (key[n] == '.');
    }
    return o;
}

static int is_members(const char *key)
{
    size_t n = strlen(key);
    return n >= 2 && !strcmp(key + n - 2, ".*");
}

static int has_key(const cJSON *keys, const char *key)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, keys)
        if (!strcmp(k->valuestring, key))
            return 1;
    return 0;
}

static void add_column(cJSON *cols, cJSON *keys, const mp_exp_column *c, const char *key,
                       const char *member)
{
    char label[160];
    cJSON *j = cJSON_CreateObject();
    if (member)
        snprintf(label, sizeof label, "%s %s", member, c->label);
    cJSON_AddStringToObject(j, "key", key);
    cJSON_AddStringToObject(j, "label", member ? label : c->label);
    cJSON_AddStringToObject(j, "unit", c->unit);
    cJSON_AddStringToObject(j, "kind", c->kind);
    cJSON_AddItemToArray(cols, j);
    cJSON_AddItemToArray(keys, cJSON_CreateString(key));
}

/* The columns of t over cells, members of "X.*" columns in first-seen order;
 * keys gets their keys. */
static void columns(const mp_exp_table *t, const cJSON *cells, cJSON *cols, cJSON *keys)
{
    for (const mp_exp_column *c = t->columns; c->key; c++) {
        if (!is_members(c->key)) {
            add_column(cols, keys, c, c->key, NULL);
            continue;
        }
        char path[128], key[256];
        snprintf(path, sizeof path, "%.*s", (int)strlen(c->key) - 2, c->key);
        const cJSON *cell, *m;
        cJSON_ArrayForEach(cell, cells) {
            const cJSON *obj = at_path(cell, path);
            if (!cJSON_IsObject(obj))
                continue;
            cJSON_ArrayForEach(m, obj) {
                snprintf(key, sizeof key, "%s.%s", path, m->string);
                if (!has_key(keys, key))
                    add_column(cols, keys, c, key, m->string);
            }
        }
    }
}

static cJSON *row(const cJSON *cols, const cJSON *keys, const cJSON *cell)
{
    cJSON *r = cJSON_CreateArray();
    const cJSON *k, *col = cols ? cols->child : NULL;
    cJSON_ArrayForEach(k, keys) {
        const cJSON *v = at_path(cell, k->valuestring);
        int status = !strcmp(mp_json_str(col, "kind", ""), "status");
        if (cJSON_IsNumber(v) || cJSON_IsString(v))
            cJSON_AddItemToArray(r, cJSON_Duplicate(v, 0));
        else
            cJSON_AddItemToArray(r, status ? cJSON_CreateString("ok") : cJSON_CreateNull());
        col = col->next;
    }
    return r;
}

static cJSON *figure(const mp_exp_figure *g)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", g->name);
    cJSON_AddStringToObject(j, "x", g->x);
    cJSON *y = cJSON_AddArrayToObject(j, "y");
    for (size_t i = 0; i < sizeof g->y / sizeof g->y[0] && g->y[i]; i++)
        cJSON_AddItemToArray(y, cJSON_CreateString(g->y[i]));
    if (g->series)
        cJSON_AddStringToObject(j, "series", g->series);
    if (g->split)
        cJSON_AddStringToObject(j, "split", g->split);
    cJSON_AddBoolToObject(j, "logx", g->logx);
    cJSON_AddBoolToObject(j, "logy", g->logy);
    cJSON_AddStringToObject(j, "title", g->title);
    return j;
}

static void add_opt(cJSON *j, const char *key, const char *v)
{
    if (v)
        cJSON_AddStringToObject(j, key, v);
}

static cJSON *fit(const mp_exp_fit *g)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "y", g->y);
    cJSON_AddStringToObject(j, "x", g->x);
    add_opt(j, "series", g->series);
    add_opt(j, "split", g->split);
    cJSON_AddStringToObject(j, "label", g->label);
    return j;
}

static cJSON *comparison(const mp_exp_compare *g)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "y", g->y);
    cJSON_AddStringToObject(j, "by", g->by);
    add_opt(j, "at", g->at);
    add_opt(j, "split", g->split);
    return j;
}

int mp_exp_table_json(const mp_exp_table *t, const cJSON *cells, cJSON *o, mp_err *err)
{
    cJSON *j = cJSON_CreateObject(), *keys = cJSON_CreateArray();
    if (!j || !keys) {
        cJSON_Delete(j);
        cJSON_Delete(keys);
        return mp_errf(err, -ENOMEM, "out of memory for an experiment's table");
    }
    cJSON_AddStringToObject(j, "title", t->title);
    cJSON_AddStringToObject(j, "summary", t->summary);
    cJSON_AddStringToObject(j, "method", t->method);
    cJSON *cols = cJSON_AddArrayToObject(j, "columns");
    columns(t, cells, cols, keys);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    const cJSON *cell;
    cJSON_ArrayForEach(cell, cells)
        cJSON_AddItemToArray(rows, row(cols, keys, cell));
    cJSON *figs = cJSON_AddArrayToObject(j, "figures");
    for (const mp_exp_figure *g = t->figures; g->name; g++)
        cJSON_AddItemToArray(figs, figure(g));
    cJSON *fits = cJSON_AddArrayToObject(j, "fits");
    for (const mp_exp_fit *g = t->fits; g->y; g++)
        cJSON_AddItemToArray(fits, fit(g));
    cJSON *cmp = cJSON_AddArrayToObject(j, "compare");
    for (const mp_exp_compare *g = t->compare; g->y; g++)
        cJSON_AddItemToArray(cmp, comparison(g));
    cJSON_Delete(keys);
    cJSON_AddItemToObject(o, "table", j);
    return 0;
}
