/* SPDX-License-Identifier: MIT */
/* table.c - an experiment's table printed as the run's terminal summary.
 * See table.h. */
#include "experiments/table.h"

#include <stdio.h>
#include <string.h>

#include "common/json.h"

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
