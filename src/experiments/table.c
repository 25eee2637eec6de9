/* table.c - an experiment's table: written into results.json from its cell
 * objects, and printed as the run's terminal summary.  See table.h. */
#include "experiments/table.h"

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
    cJSON_Delete(keys);
    cJSON_AddItemToObject(o, "table", j);
    return 0;
}

/* ---- the terminal summary ------------------------------------------------ */

/* Position of key in the table's columns, or -1. */
static int column_of(const cJSON *cols, const char *key)
{
    int i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cols) {
        if (!strcmp(mp_json_str(c, "key", ""), key))
            return i;
        i++;
    }
    return -1;
}

static int is_kind(const mp_exp_column *c, const char *kind)
{
    return !strcmp(c->kind, kind);
}

/* One value as column c shows it; a missing number prints as -1. */
static void put(FILE *f, const mp_exp_column *c, const cJSON *v, int first)
{
    if (!first)
        fputc(' ', f);
    if (c->tty_digits < 0)
        fprintf(f, "%*s", c->tty_width, cJSON_IsString(v) ? v->valuestring : "");
    else
        fprintf(f, "%*.*f", c->tty_width, c->tty_digits, cJSON_IsNumber(v) ? v->valuedouble : -1);
}

static const char *text_in(const cJSON *row, int i)
{
    const cJSON *v = i >= 0 ? cJSON_GetArrayItem(row, i) : NULL;
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* A row shows its values when its status is "ok" and every shown value is there. */
static int measured(const mp_exp_table *t, const int *at, const cJSON *row, int status_at)
{
    if (status_at >= 0 && strcmp(text_in(row, status_at), "ok"))
        return 0;
    for (size_t i = 0; t->columns[i].key; i++)
        if (t->columns[i].tty_label && is_kind(&t->columns[i], "value") &&
            !cJSON_IsNumber(cJSON_GetArrayItem(row, at[i])))
            return 0;
    return 1;
}

static void print_failed(FILE *f, const mp_exp_table *t, const cJSON *row, int status_at,
                         int reason_at)
{
    if (t->tty_failed == MP_EXP_TTY_REASON) {
        fprintf(f, " %s", text_in(row, reason_at));
        return;
    }
    int first = 1;
    for (const mp_exp_column *c = t->columns; c->key; c++)
        if (c->tty_label && !is_kind(c, "key")) {
            fprintf(f, " %*s", c->tty_width, first ? text_in(row, status_at) : "-");
            first = 0;
        }
}

static void print_row(FILE *f, const mp_exp_table *t, const int *at, const cJSON *row,
                      int status_at, int reason_at)
{
    int ok = measured(t, at, row, status_at), first = 1;
    for (size_t i = 0; t->columns[i].key; i++) {
        const mp_exp_column *c = &t->columns[i];
        if (c->tty_label && (ok || is_kind(c, "key"))) {
            put(f, c, cJSON_GetArrayItem(row, at[i]), first);
            first = 0;
        }
    }
    if (!ok)
        print_failed(f, t, row, status_at, reason_at);
    fputc('\n', f);
}

void mp_exp_table_print(const char *name, const mp_exp_table *t, const cJSON *o, FILE *f)
{
    const cJSON *table = cJSON_GetObjectItemCaseSensitive(o, "table");
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows"), *row;
    int at[MP_EXP_MAX_COLUMNS], status_at = -1, reason_at = -1, first = 1;
    fprintf(f, "\n%s: %s\n", name, t->summary);
    for (size_t i = 0; t->columns[i].key; i++) {
        const mp_exp_column *c = &t->columns[i];
        at[i] = column_of(cols, c->key);
        if (is_kind(c, "status"))
            status_at = at[i];
        if (is_kind(c, "reason"))
            reason_at = at[i];
        if (c->tty_label) {
            fprintf(f, "%s%*s", first ? "" : " ", c->tty_width, c->tty_label);
            first = 0;
        }
    }
    fputc('\n', f);
    if (!cJSON_IsArray(rows))
        return;
    cJSON_ArrayForEach(row, rows)
        print_row(f, t, at, row, status_at, reason_at);
}
