/* SPDX-License-Identifier: MIT */
/* sec_xtable.c - one report.md section per experiment, drawn from its table
 * alone (m->xtabs, checked by report/load_xtable.c; results/exp_table.h
 * writes it): the title, the method, the rows under their labels and units,
 * the readings and fits it asks for (sec_xtable_read.c), and each figure it
 * asks for (plots/table.gp: y against x, one line per series, or bars per
 * row when x is a column of names; one figure per split value).  See
 * report/md.h and report/fig.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/quote.h"
#include "report/series.h"
#include "report/fig.h"
#include "report/internal.h"
#include "report/md.h"
#include "report/format.h"
#include "report/paper.h"

#define MAX_NAME 150  /* a figure's name (mp_rfig.name, its files' names) */

static int shown(const mp_rxcol *c)
{
    return c->kind == MP_RX_KEY || c->kind == MP_RX_VALUE;
}

/* EXPERIMENT_FIGURE[_SPLIT]: 0, or -1 when it is too long. */
static int fig_name(char *buf, size_t len, const mp_rxtable *t, const mp_rxfig *g,
                    const char *split)
{
    int n = snprintf(buf, len, "%s_%s%s%s", t->name, g->name, *split ? "_" : "", split);
    return n >= 0 && (size_t)n < len && n < MAX_NAME ? 0 : -1;
}

/* ---- markdown ------------------------------------------------------------ */

static void cell(FILE *f, const cJSON *v)
{
    char b[512];
    if (cJSON_IsNumber(v))
        fprintf(f, " %s |", mp_fmt_num(b, sizeof b, v->valuedouble));
    else if (cJSON_IsString(v))
        fprintf(f, " %s |", mp_md_cell(b, sizeof b, v->valuestring));
    else
        fputs(" – |", f);
}

static void table(FILE *f, const mp_rxtable *t)
{
    char b[512];
    fputc('|', f);
    for (size_t c = 0; c < t->ncols; c++)
        if (shown(&t->cols[c]))
            fprintf(f, " %s%s%s%s |", mp_md_cell(b, sizeof b, t->cols[c].label),
                    *t->cols[c].unit ? " (" : "", *t->cols[c].unit ? MP_QMD(t->cols[c].unit) : "",
                    *t->cols[c].unit ? ")" : "");
    fputs("\n|", f);
    for (size_t c = 0; c < t->ncols; c++)
        if (shown(&t->cols[c]))
            fputs(t->cols[c].kind == MP_RX_KEY ? "---|" : "---:|", f);
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        const cJSON *row = t->rows[r];
        int ok = mp__rx_row_ok(t, row), said = 0;
        fputc('|', f);
        for (size_t c = 0; c < t->ncols; c++) {
            if (!shown(&t->cols[c]))
                continue;
            if (ok || t->cols[c].kind == MP_RX_KEY)
                cell(f, mp__rx_val(row, (int)c));
            else if (!said++) {
                const char *why = mp__rx_text(row, t->reason_col);
                fprintf(f, " %s: %s |", mp__rx_text(row, t->status_col),
                        why ? mp_md_cell(b, sizeof b, why) : "no reason given");
            } else
                fputs(" |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* The method as a paragraph: each `...` pair a code span, the rest quoted
 * text (the file's text is never markup of its own). */
static void method(FILE *f, const char *s)
{
    char part[2048], b[4096];
    for (int code = 0; *s; code = !code) {
        const char *end = strchr(s, '`');
        if (code && !end) {
            fputs(mp_md_cell(b, sizeof b, s - 1), f);   /* an unpaired backtick: text */
            break;
        }
        size_t n = end ? (size_t)(end - s) : strlen(s);
        snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part ? n : sizeof part - 1), s);
        fputs(code ? mp_quote_md_code(b, sizeof b, part, 0) : mp_md_cell(b, sizeof b, part), f);
        s += n + (end != NULL);
    }
    fputs("\n\n", f);
}

static void section(FILE *f, const mp_rxtable *t, const mp_rfigs *figs)
{
    char b[2048];
    if (!t->title) {
        fprintf(f, "## Experiment: %s\n\n", t->name);
        if (t->status)
            fprintf(f, "Not measured: %s: %s.\n\n", mp_md_cell(b, sizeof b, t->status),
                    t->reason ? MP_QMD(t->reason) : "no reason given");
        else
            fprintf(f, "No usable table in `experiments.%s`.\n\n", t->name);
        return;
    }
    fprintf(f, "## Experiment: %s (%s)\n\n", mp_md_cell(b, sizeof b, t->title), t->name);
    if (t->method)
        method(f, t->method);
    if (!t->nrows) {
        fprintf(f, "No usable rows in `experiments.%s.table`.\n\n", t->name);
        return;
    }
    table(f, t);
    mp__rx_readings(f, t);
    mp__rx_fits(f, t);
    for (size_t i = 0; i < t->nfigs; i++) {
        char split[MP_RX_MAXV][MP_RM_NAME], name[3 * MP_RM_NAME];
        size_t ns = mp__rx_names(t, t->figs[i].split, split);
        for (size_t s = 0; s < ns; s++) {
            if (!fig_name(name, sizeof name, t, &t->figs[i], split[s]))
                mp_rmd_figure(f, figs, name);
        }
    }
}

static void markdown(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    for (size_t i = 0; i < m->nxtabs; i++)
        section(f, &m->xtabs[i], figs);
}

/* ---- figures ------------------------------------------------------------- */

/* 1 when figure g's x is a key column of names (no row holds a number
 * there): bars, one group per row. */
static int bars(const mp_rxtable *t, const mp_rxfig *g)
{
    if (t->cols[g->x].kind != MP_RX_KEY)
        return 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (cJSON_IsNumber(mp__rx_val(t->rows[r], g->x)))
            return 0;
    return 1;
}

/* The ok rows of one line (split and series values) with x and every y
 * above 0 on a log axis, sorted by x (bars: x a name, in table order):
 * their count, at most max. */
static size_t line_rows(const mp_rxtable *t, const mp_rxfig *g, const char *split,
                        const char *series, const cJSON **out, size_t max)
{
    size_t n = 0;
    int cat = bars(t, g);
    char b[MP_RM_NAME];
    for (size_t r = 0; r < t->nrows && n < max; r++) {
        const cJSON *row = t->rows[r], *x = mp__rx_val(row, g->x);
        int ok = mp__rx_row_ok(t, row) && mp__rx_matches(row, g->split, split) &&
                 mp__rx_matches(row, g->series, series) &&
                 (cat ? cJSON_IsString(x) && mp__rx_name_of(b, sizeof b, x)
                      : cJSON_IsNumber(x) && (!g->logx || x->valuedouble > 0));
        for (size_t j = 0; ok && j < g->ny; j++) {
            const cJSON *y = mp__rx_val(row, g->y[j]);
            ok = cJSON_IsNumber(y) && (!g->logy || y->valuedouble > 0);
        }
        if (!ok)
            continue;
        size_t k = n++;
        while (!cat && k > 0 && mp__rx_val(out[k - 1], g->x)->valuedouble > x->valuedouble) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = row;
    }
    return n;
}

static int write_dat(const mp_rmodel *m, const mp_rxtable *t, const mp_rxfig *g,
                     const char *file, const cJSON **rows, size_t n, mp_dir *dir, mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, dir, file, err);
    if (rc)
        return rc;
    fprintf(a.f, "# muxprof %s: experiment %s, %s\n%s", MP_QCOMMENT(m->shown), t->name,
            MP_QCOMMENT(t->title), t->cols[g->x].key);
    for (size_t j = 0; j < g->ny; j++)
        fprintf(a.f, " %s", t->cols[g->y[j]].key);
    fputc('\n', a.f);
    for (size_t i = 0; i < n; i++) {
        const cJSON *x = mp__rx_val(rows[i], g->x);
        if (cJSON_IsString(x))
            fprintf(a.f, "%s", x->valuestring);   /* a safe name (line_rows) */
        else
            fprintf(a.f, "%.10g", x->valuedouble);
        for (size_t j = 0; j < g->ny; j++)
            mp__rfig_num(a.f, mp__rx_val(rows[i], g->y[j])->valuedouble);
        fputc('\n', a.f);
    }
    return mp_afile_commit(&a, err);
}

/* tmpl with its first "%s" replaced by s (the title is the file's text, never
 * a format). */
static void subst(char *buf, size_t len, const char *tmpl, const char *s)
{
    const char *p = strstr(tmpl, "%s");
    if (p)
        snprintf(buf, len, "%.*s%s%s", (int)(p - tmpl), tmpl, s, p + 2);
    else
        snprintf(buf, len, "%s", tmpl);
}

/* Add word to the space-separated list in buf (cut short when full). */
static void append(char *buf, size_t len, const char *word)
{
    size_t l = strlen(buf), w = strlen(word);
    if (l + !!l + w >= len)
        return;
    if (l)
        buf[l++] = ' ';
    memcpy(buf + l, word, w + 1);
}

static int one_figure(const mp_rmodel *m, const mp_rxtable *t, const mp_rxfig *g,
                      const char *split, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    char series[MP_RX_MAXV][MP_RM_NAME], name[3 * MP_RM_NAME], file[4 * MP_RM_NAME];
    char files[MP_RX_MAXV * 4 * MP_RM_NAME] = "", titles[MP_RX_MAXV * MP_RM_NAME] = "", ys[512] = "";
    const cJSON *rows[256];
    size_t nser = mp__rx_names(t, g->series, series), pts = 0;
    if (fig_name(name, sizeof name, t, g, split))
        return 0;   /* a name too long for a file: no figure */
    for (size_t s = 0; s < nser; s++) {
        size_t n = line_rows(t, g, split, series[s], rows, sizeof rows / sizeof rows[0]);
        if (!n)
            continue;
        int fl = snprintf(file, sizeof file, "data_%s%s%s.dat", name, *series[s] ? "_" : "",
                          series[s]);
        if (fl < 0 || (size_t)fl >= sizeof file)
            continue;
        int rc = write_dat(m, t, g, file, rows, n, dir, err);
        if (rc)
            return rc;
        append(files, sizeof files, file);
        append(titles, sizeof titles, *series[s] ? series[s] : t->name);
        pts += n;
    }
    if (!pts)
        return 0;
    char cpu[120], ttl[256], vars[MP_RFIG_VARS];
    subst(ttl, sizeof ttl, g->title, split);
    for (size_t j = 0; j < g->ny; j++)
        append(ys, sizeof ys, t->cols[g->y[j]].key);
    int nv = snprintf(vars, sizeof vars, "files = %s\ntitles = %s\nxcol = %s\nycols = %s\n"
                      "xlabel = %s\nylabel = %s\nlogx = %d\nlogy = %d\nbars = %d\n"
                      "ttl = %s\n",
                      MP_QGP(files), MP_QGP(titles), MP_QGP(t->cols[g->x].key), MP_QGP(ys),
                      MP_QGP(t->cols[g->x].label), MP_QGP(g->ny > 1 && *t->cols[g->y[0]].unit ? t->cols[g->y[0]].unit : t->cols[g->y[0]].label), g->logx,
                      g->logy, bars(t, g), MP_QGP(ttl));
    if (nv < 0 || (size_t)nv >= sizeof vars)
        return 0;   /* too many or too long names for one figure's variables: none */
    mp_rfig *f = mp__rfig_add(o, MP_FIG_TABLE, name, err);
    if (!f)
        return -ENOMEM;
    mp_rc_host_cpu(m, cpu, sizeof cpu);
    char ylabels[512] = "";
    for (size_t j = 0, l = 0; j < g->ny && l < sizeof ylabels; j++)
        l += (size_t)snprintf(ylabels + l, sizeof ylabels - l, "%s%s",
                              !j ? "" : j + 1 < g->ny ? ", " : " and ", t->cols[g->y[j]].label);
    snprintf(f->caption, sizeof f->caption, "%s, %s: %s against %s%s%s%s", t->title, cpu,
             ylabels, t->cols[g->x].label, g->logx || g->logy ? " (" : "",
             g->logx && g->logy ? "log-log" : g->logx ? "log x" : g->logy ? "log y" : "",
             g->logx || g->logy ? ")" : "");
    if (!o->paper)
        return mp__rfig_wrapper(dir, f, "table.gp", vars, err);
    /* what table.gp draws: a line (or bars) per data file and y column */
    mp_rpaper pp;
    int rc = 0;
    mp_rpaper_init(&pp, g->logx ? MP_RPAPER_LOG10 : MP_RPAPER_LIN,
                   g->logy ? MP_RPAPER_LOG10 : MP_RPAPER_LIN);
    pp.bars = bars(t, g);
    char fl[sizeof files], tl[sizeof titles], *fs = NULL, *ts = NULL;
    snprintf(fl, sizeof fl, "%s", files);
    snprintf(tl, sizeof tl, "%s", titles);
    size_t nf = 0;
    for (char *w = strtok_r(fl, " ", &fs); w; w = strtok_r(NULL, " ", &fs))
        nf++;
    snprintf(fl, sizeof fl, "%s", files);
    char *fname = strtok_r(fl, " ", &fs), *title = strtok_r(tl, " ", &ts);
    for (; fname && rc >= 0; fname = strtok_r(NULL, " ", &fs)) {
        for (size_t j = 0; j < g->ny && rc >= 0; j++) {
            const char *y = t->cols[g->y[j]].key;
            char key[2 * MP_RM_NAME + 2];
            rc = mp_rpaper_dat(&pp, dir, fname, MP_RPAPER_LINE, t->cols[g->x].key, y, NULL,
                               err);
            /* table.gp's legend(i, j) */
            if (g->ny > 1)
                snprintf(key, sizeof key, "%s%s%s", nf > 1 && title ? title : "",
                         nf > 1 && title ? " " : "", y);
            else
                snprintf(key, sizeof key, "%s", title ? title : "");
            mp_rpaper_key(&pp, key);
        }
        title = strtok_r(NULL, " ", &ts);
    }
    if (rc >= 0)
        rc = mp__rfig_wrapper_paper(dir, f, "table.gp", vars, &pp, err);
    mp_rpaper_free(&pp);
    return rc;
}

static int figures(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    for (size_t i = 0; i < m->nxtabs; i++)
        for (size_t k = 0; k < m->xtabs[i].nfigs; k++) {
            const mp_rxtable *t = &m->xtabs[i];
            char split[MP_RX_MAXV][MP_RM_NAME];
            size_t ns = mp__rx_names(t, t->figs[k].split, split);
            for (size_t s = 0; s < ns; s++) {
                int rc = one_figure(m, t, &t->figs[k], split[s], dir, o, err);
                if (rc)
                    return rc;
            }
        }
    return 0;
}

const mp_rsection mp_rsec_xtables = {"experiment tables", 0, 1, figures, markdown, mp__rx_json, 0};
