/* sec_xtable_read.c - what an experiment's table asks the report to compute
 * beside its rows (results/exp_table.h): each comparison read out as one
 * line (y per value of `by` among rows alike in `at` and `split`, and the
 * highest over the lowest), and each fit as a table (the least-squares
 * line of y against x per series and split value, report/numeric.h).
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

/* One line: "- Y (unit) at AT = v, SPLIT s: a 1, b 2; b's is 2× a's." */
static void reading(FILE *f, const mp_rxtable *t, const mp_rxcmp *c, const char *s,
                    const cJSON *at)
{
    const cJSON *g[MAXROWS];
    size_t n = group(t, c, s, at, g, MAXROWS), lo = 0, hi = 0;
    char a[256], b[256];
    if (n < 2)
        return;
    const mp_rxcol *y = &t->cols[c->y];
    fprintf(f, "- %s", label(a, sizeof a, y));
    if (*y->unit)
        fprintf(f, " (%s)", mp_md_cell(a, sizeof a, y->unit));
    if (at)
        fprintf(f, " at %s = %s", label(a, sizeof a, &t->cols[c->at]),
                shown(b, sizeof b, mp__rx_val(at, c->at)));
    if (c->split >= 0)
        fprintf(f, "%s %s %s", at ? "," : " for", label(a, sizeof a, &t->cols[c->split]),
                mp_md_cell(b, sizeof b, s));
    fputc(':', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s %s %s", i ? "," : "", shown(a, sizeof a, mp__rx_val(g[i], c->by)),
                mp_fmt_num(b, sizeof b, num(g[i], c->y)));
        if (num(g[i], c->y) < num(g[lo], c->y))
            lo = i;
        if (num(g[i], c->y) > num(g[hi], c->y))
            hi = i;
    }
    if (num(g[lo], c->y) > 0 && hi != lo)
        fprintf(f, "; %s's is %s× %s's", shown(a, sizeof a, mp__rx_val(g[hi], c->by)),
                MP_NUM(num(g[hi], c->y) / num(g[lo], c->y)),
                shown(b, sizeof b, mp__rx_val(g[lo], c->by)));
    fputs(".\n", f);
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
static void readings_of(FILE *f, const mp_rxtable *t, const mp_rxcmp *c, const char *s)
{
    if (c->at < 0) {
        reading(f, t, c, s, NULL);
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
        reading(f, t, c, s, first);
    if (last && !same(mp__rx_val(first, c->at), mp__rx_val(last, c->at)))
        reading(f, t, c, s, last);
}

void mp__rx_readings(FILE *f, const mp_rxtable *t)
{
    long pos = ftell(f);
    for (size_t i = 0; i < t->ncmps; i++) {
        char split[MP_RX_MAXV][MP_RM_NAME];
        size_t ns = mp__rx_names(t, t->cmps[i].split, split);
        for (size_t s = 0; s < ns; s++)
            readings_of(f, t, &t->cmps[i], split[s]);
    }
    if (ftell(f) != pos)
        fputc('\n', f);
}

/* ---- fits ---------------------------------------------------------------- */

static void fit_rows(FILE *f, const mp_rxtable *t, const mp_rxfit *g, const char *split)
{
    char series[MP_RX_MAXV][MP_RM_NAME], a[64], b[64], c[64];
    size_t nser = mp__rx_names(t, g->series, series);
    for (size_t s = 0; s < nser; s++) {
        double x[MAXROWS], y[MAXROWS];
        size_t n = 0;
        for (size_t r = 0; r < t->nrows && n < MAXROWS; r++) {
            const cJSON *row = t->rows[r];
            if (!mp__rx_row_ok(t, row) || !mp__rx_matches(row, g->split, split) ||
                !mp__rx_matches(row, g->series, series[s]) || !number(row, g->x) ||
                !number(row, g->y))
                continue;
            x[n] = num(row, g->x);
            y[n++] = num(row, g->y);
        }
        mp_fit fit = mp_fit_linear(x, y, n);
        if (!fit.ok)
            continue;
        fputc('|', f);
        if (g->split >= 0)
            fprintf(f, " %s |", mp_md_cell(a, sizeof a, split));
        if (g->series >= 0)
            fprintf(f, " %s |", mp_md_cell(a, sizeof a, series[s]));
        fprintf(f, " %s | %s | %s | %zu |\n", mp_fmt_num(a, sizeof a, fit.slope),
                mp_fmt_num(b, sizeof b, fit.intercept),
                isfinite(fit.r2) ? mp_fmt_num(c, sizeof c, fit.r2) : "–", fit.n);
    }
}

static void one_fit(FILE *f, const mp_rxtable *t, const mp_rxfit *g)
{
    char a[256], b[256], c[256], split[MP_RX_MAXV][MP_RM_NAME];
    const mp_rxcol *y = &t->cols[g->y];
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
    size_t ns = mp__rx_names(t, g->split, split);
    for (size_t s = 0; s < ns; s++)
        fit_rows(f, t, g, split[s]);
    fputc('\n', f);
}

void mp__rx_fits(FILE *f, const mp_rxtable *t)
{
    for (size_t i = 0; i < t->nfits; i++)
        one_fit(f, t, &t->fits[i]);
}
