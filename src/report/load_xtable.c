/* SPDX-License-Identifier: MIT */
/* load_xtable.c - the "experiments" object of results.json: each
 * experiment's table (experiments.X.table, results/exp_table.h; see
 * docs/experiments.md; an old file's register, herd and ltet converted by
 * exp_legacy.c) read into m->xtabs.  Checked like the other optional
 * parts: a table of the wrong shape is left out whole and a row of the wrong
 * shape alone, each with a warning; nothing here refuses the file. */
#include "report/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#define BIG 1e18
#define MAX_ROWS 100000

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

static int kind_of(const char *s)
{
    static const char *const kinds[] = {"key", "value", "status", "reason"};
    for (int i = 0; s && i < 4; i++)
        if (!strcmp(s, kinds[i]))
            return i;
    return -1;
}

static int column_of(const mp_rxtable *t, const char *key)
{
    for (size_t i = 0; key && i < t->ncols; i++)
        if (!strcmp(t->cols[i].key, key))
            return (int)i;
    return -1;
}

/* columns[]: each {key, label, unit, kind}, keys distinct and safe names
 * (dotted paths of them); -1 when any is not. */
static int load_columns(mp_rxtable *t, const cJSON *cols)
{
    const cJSON *c;
    t->status_col = t->reason_col = -1;
    if (!cJSON_IsArray(cols) || cJSON_GetArraySize(cols) > MP_RM_MAX_XCOLS)
        return -1;
    cJSON_ArrayForEach(c, cols) {
        mp_rxcol *x = &t->cols[t->ncols];
        x->key = str(c, "key");
        x->label = str(c, "label");
        x->unit = str(c, "unit");
        x->kind = kind_of(str(c, "kind"));
        if (!x->key || !x->label || !x->unit || x->kind < 0 || !mp__rm_safe_name(x->key) ||
            column_of(t, x->key) >= 0)
            return -1;
        if (x->kind == MP_RX_STATUS)
            t->status_col = (int)t->ncols;
        if (x->kind == MP_RX_REASON)
            t->reason_col = (int)t->ncols;
        t->ncols++;
    }
    return t->ncols ? 0 : -1;
}

/* A row: ncols values, each a finite number below 1e18, a string or null;
 * a status column holds "ok", "unsupported" or "error". */
static int row_ok(const mp_rxtable *t, const cJSON *r)
{
    if (!cJSON_IsArray(r) || (size_t)cJSON_GetArraySize(r) != t->ncols)
        return 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, r)
        if (!cJSON_IsNull(v) && !cJSON_IsString(v) &&
            !(cJSON_IsNumber(v) && isfinite(v->valuedouble) && fabs(v->valuedouble) < BIG))
            return 0;
    if (t->status_col >= 0) {
        const cJSON *s = cJSON_GetArrayItem(r, t->status_col);
        if (!cJSON_IsString(s) || (strcmp(s->valuestring, "ok") &&
                                   strcmp(s->valuestring, "unsupported") &&
                                   strcmp(s->valuestring, "error")))
            return 0;
    }
    return 1;
}

static void load_rows(mp_rmodel *m, mp_rxtable *t, const cJSON *rows)
{
    int n = cJSON_GetArraySize(rows);
    t->rows = calloc(n > 0 ? (size_t)(n < MAX_ROWS ? n : MAX_ROWS) : 1, sizeof *t->rows);
    if (!t->rows)
        return;
    const cJSON *r;
    int i = -1;
    size_t skipped = 0, first = 0;
    cJSON_ArrayForEach(r, rows) {
        i++;
        if (t->nrows >= MAX_ROWS) {
            mp__rm_warn(m, "experiments.%s.table.rows: only the first %d rows are reported",
                        t->name, MAX_ROWS);
            break;
        }
        if (row_ok(t, r))
            t->rows[t->nrows++] = r;
        else if (!skipped++)
            first = (size_t)i;
    }
    if (skipped)
        mp__rm_warn(m, "experiments.%s.table.rows: %zu row(s) left out (first: [%zu]): not "
                    "one finite number, string or null per column, or a bad status",
                    t->name, skipped, first);
}

static int fig_column(const mp_rxtable *t, const cJSON *g, const char *key, int optional)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(g, key);
    if (optional && (!j || cJSON_IsNull(j)))
        return -1;
    return cJSON_IsString(j) ? column_of(t, j->valuestring) : -2;
}

/* figures[]: an entry naming a column that is not there is left out. */
static void load_figures(mp_rmodel *m, mp_rxtable *t, const cJSON *figs)
{
    const cJSON *g;
    int i = -1;
    if (!cJSON_IsArray(figs))
        return;
    cJSON_ArrayForEach(g, figs) {
        i++;
        mp_rxfig *x = &t->figs[t->nfigs];
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(g, "y"), *k;
        memset(x, 0, sizeof *x);
        x->name = str(g, "name");
        x->title = str(g, "title");
        x->x = fig_column(t, g, "x", 0);
        x->series = fig_column(t, g, "series", 1);
        x->split = fig_column(t, g, "split", 1);
        x->logx = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "logx"));
        x->logy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "logy"));
        int bad = !x->name || !mp__rm_safe_name(x->name) || !x->title || x->x < 0 ||
                  x->series < -1 || x->split < -1 || !cJSON_IsArray(y) ||
                  t->nfigs >= MP_RM_MAX_XFIGS;
        for (k = bad ? NULL : y->child; k; k = k->next) {
            int c = cJSON_IsString(k) ? column_of(t, k->valuestring) : -1;
            if (c < 0 || t->cols[c].kind != MP_RX_VALUE || x->ny >= 4) {
                bad = 1;
                break;
            }
            x->y[x->ny++] = c;
        }
        if (bad || !x->ny) {
            mp__rm_warn(m, "experiments.%s.table.figures[%d] left out: no name, title, x or "
                        "y of its columns", t->name, i);
            continue;
        }
        t->nfigs++;
    }
}

/* The column an entry of fits[] or compare[] names at key (-1 when it is
 * optional and absent), or -2 when it names none or one of the wrong kind
 * (want: a kind, or -1 for any). */
static int named(const mp_rxtable *t, const cJSON *g, const char *key, int optional, int want)
{
    int c = fig_column(t, g, key, optional);
    return c >= 0 && want >= 0 && t->cols[c].kind != want ? -2 : c;
}

/* fits[]: y a value column, x any column, series and split optional. */
static void load_fits(mp_rmodel *m, mp_rxtable *t, const cJSON *fits)
{
    const cJSON *g;
    int i = -1;
    if (!cJSON_IsArray(fits))
        return;
    cJSON_ArrayForEach(g, fits) {
        i++;
        mp_rxfit *x = &t->fits[t->nfits];
        x->y = named(t, g, "y", 0, MP_RX_VALUE);
        x->x = named(t, g, "x", 0, -1);
        x->series = named(t, g, "series", 1, -1);
        x->split = named(t, g, "split", 1, -1);
        x->label = str(g, "label");
        if (x->y < 0 || x->x < 0 || x->series < -1 || x->split < -1 || !x->label ||
            t->nfits >= MP_RM_MAX_XFITS) {
            mp__rm_warn(m, "experiments.%s.table.fits[%d] left out: no label, or y, x, "
                        "series or split not one of its columns", t->name, i);
            continue;
        }
        t->nfits++;
    }
}

/* compare[]: y a value column, by a key column, at and split optional. */
static void load_compare(mp_rmodel *m, mp_rxtable *t, const cJSON *cmps)
{
    const cJSON *g;
    int i = -1;
    if (!cJSON_IsArray(cmps))
        return;
    cJSON_ArrayForEach(g, cmps) {
        i++;
        mp_rxcmp *x = &t->cmps[t->ncmps];
        x->y = named(t, g, "y", 0, MP_RX_VALUE);
        x->by = named(t, g, "by", 0, MP_RX_KEY);
        x->at = named(t, g, "at", 1, -1);
        x->split = named(t, g, "split", 1, -1);
        if (x->y < 0 || x->by < 0 || x->at < -1 || x->split < -1 ||
            t->ncmps >= MP_RM_MAX_XCMPS) {
            mp__rm_warn(m, "experiments.%s.table.compare[%d] left out: y, by, at or split "
                        "not one of its columns", t->name, i);
            continue;
        }
        t->ncmps++;
    }
}

/* The table of experiment object o; t->title stays NULL when it has none
 * that fits (o's own status and reason then say why, if it has them). */
static void load_one(mp_rmodel *m, mp_rxtable *t, const cJSON *o)
{
    const cJSON *tab = cJSON_GetObjectItemCaseSensitive(o, "table");
    t->status = str(o, "status");
    t->reason = str(o, "reason");
    if (!tab) {
        if (!t->status)
            mp__rm_warn(m, "experiments.%s ignored: no table", t->name);
        return;
    }
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(tab, "rows");
    const char *title = str(tab, "title"), *method = str(tab, "method");
    if (!cJSON_IsObject(tab) || !title || !cJSON_IsArray(rows) ||
        load_columns(t, cJSON_GetObjectItemCaseSensitive(tab, "columns")) < 0) {
        mp__rm_warn(m, "experiments.%s.table ignored: title, columns (key, label, unit, kind) "
                    "or rows missing or of the wrong type", t->name);
        return;
    }
    t->title = title;
    t->method = method;
    load_rows(m, t, rows);
    load_figures(m, t, cJSON_GetObjectItemCaseSensitive(tab, "figures"));
    load_fits(m, t, cJSON_GetObjectItemCaseSensitive(tab, "fits"));
    load_compare(m, t, cJSON_GetObjectItemCaseSensitive(tab, "compare"));
}

void mp__rm_load_xtable(mp_rmodel *m, const char *name, const cJSON *o)
{
    if (!mp__rm_safe_name(name) || strlen(name) >= MP_RM_NAME) {
        mp__rm_warn(m, "an experiment ignored: its name is not letters, digits, '_', '.', "
                    "'+' or '-'");
        return;
    }
    if (!cJSON_IsObject(o)) {
        mp__rm_warn(m, "experiments.%s ignored: expected an object", name);
        return;
    }
    mp_rxtable *v = realloc(m->xtabs, (m->nxtabs + 1) * sizeof *v);
    if (!v)
        return;
    m->xtabs = v;
    mp_rxtable *t = &v[m->nxtabs++];
    memset(t, 0, sizeof *t);
    t->name = name;
    load_one(m, t, o);
}

/* ---- reading a checked table (internal.h) -------------------------------- */

const cJSON *mp__rx_val(const cJSON *row, int col)
{
    return col >= 0 ? cJSON_GetArrayItem(row, col) : NULL;
}

const char *mp__rx_text(const cJSON *row, int col)
{
    const cJSON *v = mp__rx_val(row, col);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int mp__rx_row_ok(const mp_rxtable *t, const cJSON *row)
{
    const char *s = mp__rx_text(row, t->status_col);
    return !s || !strcmp(s, "ok");
}

const char *mp__rx_name_of(char *buf, size_t len, const cJSON *v)
{
    if (cJSON_IsString(v))
        return mp__rm_safe_name(v->valuestring) && strlen(v->valuestring) < len
                   ? strcpy(buf, v->valuestring) : NULL;
    if (cJSON_IsNumber(v)) {
        snprintf(buf, len, "%g", v->valuedouble);
        return buf;
    }
    return NULL;
}

size_t mp__rx_names(const mp_rxtable *t, int col, char out[][MP_RM_NAME])
{
    if (col < 0) {
        out[0][0] = 0;
        return 1;
    }
    size_t n = 0;
    char b[MP_RM_NAME];
    for (size_t r = 0; r < t->nrows; r++) {
        if (!mp__rx_row_ok(t, t->rows[r]) ||
            !mp__rx_name_of(b, sizeof b, mp__rx_val(t->rows[r], col)))
            continue;
        size_t j = 0;
        while (j < n && strcmp(out[j], b))
            j++;
        if (j == n && n < MP_RX_MAXV)
            strcpy(out[n++], b);
    }
    return n;
}

int mp__rx_matches(const cJSON *row, int col, const char *name)
{
    char b[MP_RM_NAME];
    return col < 0 || ((mp__rx_name_of(b, sizeof b, mp__rx_val(row, col)) && !strcmp(b, name)));
}

void mp__rm_load_experiments(mp_rmodel *m)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(m->root, "experiments"), *o;
    if (!x || cJSON_IsNull(x))
        return;
    if (!cJSON_IsObject(x)) {
        mp__rm_warn(m, "experiments ignored: expected an object");
        return;
    }
    cJSON_ArrayForEach(o, x) {
        if (cJSON_IsNull(o))
            continue;
        const cJSON *t = mp__rm_exp_legacy(m, o->string, o);
        if (t)
            mp__rm_load_xtable(m, o->string, t);
    }
}

void mp__rm_free_experiments(mp_rmodel *m)
{
    mp__rm_free_xtables(m);
    cJSON_Delete(m->legacy);
    m->legacy = NULL;
}

void mp__rm_free_xtables(mp_rmodel *m)
{
    for (size_t i = 0; i < m->nxtabs; i++)
        free(m->xtabs[i].rows);
    free(m->xtabs);
    m->xtabs = NULL;
    m->nxtabs = 0;
}
