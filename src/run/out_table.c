/* SPDX-License-Identifier: MIT */
/* out_table.c - the tables `muxprof run` prints: per fd kind and mode, one
 * row per N, p50 wall ns per backend, then poll/epoll. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/json.h"
#include "common/stats.h"
#include "run/results.h"

static const mp_cell *find(const mp_results *r, mp_fd_kind k, mp_mode m, long long delay,
                           int n, int a, mp_fd_table t, const char *b)
{
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->kind == k && c->mode == m && c->wake_delay_ns == delay && c->nfds == n &&
            c->active == a && c->fd_table == t && !strcmp(c->backend->name, b))
            return c;
    }
    return NULL;
}

static const mp_summary *wall(const mp_cell *c)
{
    const mp_metric *m = c && c->status == MP_CELL_OK ? mp_cell_metric(c, "wall_ns") : NULL;
    return m ? &m->s : NULL;
}

static double p50(const mp_cell *c)
{
    const mp_summary *s = wall(c);
    return s ? s->p50 : -1;
}

/* poll's median over epoll's as report.md and report --json give it
 * (mp_ratio_est: from the repeat medians where both cells have two or
 * more); -1 where either has no median. */
static double ratio_to_epoll(const mp_cell *p, const mp_cell *e, int repeats)
{
    double pp = p50(p), pe = p50(e), lo, hi;
    if (!(pp > 0) || !(pe > 0) || repeats <= 0)
        return -1;
    double *rp = calloc((size_t)repeats * 2, sizeof *rp);
    if (!rp)
        return pp / pe;
    double *re = rp + repeats;
    size_t np = 0, ne = 0;
    for (int i = 0; i < repeats; i++) {
        if (p->repeat_medians && isfinite(p->repeat_medians[i]))
            rp[np++] = p->repeat_medians[i];
        if (e->repeat_medians && isfinite(e->repeat_medians[i]))
            re[ne++] = e->repeat_medians[i];
    }
    double r = mp_ratio_est(re, ne, pe, rp, np, pp, &lo, &hi);
    free(rp);
    return isfinite(r) ? r : -1;
}

/* v ns at 3 significant digits in the unit v's size asks for. */
static const char *scaled(char *buf, size_t len, double v, double unit)
{
    double x = v / unit;
    int dec = x >= 100 || x <= -100 ? 0 : x >= 10 || x <= -10 ? 1 : 2;
    if (unit == 1)
        dec = 0;   /* below 1 us: whole ns */
    snprintf(buf, len, "%.*f", dec, x);
    return buf;
}

const char *mp_fmt_spread(char *buf, size_t len, const mp_summary *s)
{
    double a = s->p50;
    double unit = a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
    const char *name = unit == 1e6 ? "ms" : unit == 1e3 ? "us" : "ns";
    char m[16], lo[16], hi[16];
    snprintf(buf, len, "%s %s [%s-%s]", scaled(m, sizeof m, s->p50, unit), name,
             scaled(lo, sizeof lo, s->p10, unit), scaled(hi, sizeof hi, s->p90, unit));
    return buf;
}

/* 1 when the JSON array of strings holds s. */
static int in_list(const cJSON *arr, const char *s)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, arr)
        if (cJSON_IsString(a) && !strcmp(a->valuestring, s))
            return 1;
    return 0;
}

/* x > 0 at 3 significant digits, trailing zeros kept: 129, 16.3, 1.63, 0.830 */
static const char *sig3(char *buf, size_t len, double x)
{
    if (x >= 999.5)
        snprintf(buf, len, "%.0f", x);
    else
        snprintf(buf, len, "%#.3g", x);
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '.')   /* "%#.3g" of 129 is "129." */
        buf[n - 1] = 0;
    return buf;
}

#define COLW 22

void mp_print_tables(const mp_results *r, FILE *f)
{
    const mp_run_config *cfg = r->cfg;
    for (int k = 0; k < cfg->nkinds; k++)
        for (int ti = 0; ti < cfg->nfd_tables; ti++)
        for (int ai = 0; ai < cfg->nactives; ai++)
        for (int m = 0; m < mp_run_nslots(cfg); m++) {
            mp_fd_table tab = cfg->fd_tables[ti];
            long long delay;
            mp_mode mode = mp_run_slot(cfg, m, &delay);
            int a = cfg->actives[ai];
            if (mode == MP_MODE_WAKEUP && a > 1)
                continue;   /* wakeup pokes one fd */
            char what[96], d[32];
            if (a > 1)
                snprintf(what, sizeof what, "timeout 0, %d fds readable", a);
            if (mode == MP_MODE_WAKEUP)
                snprintf(what, sizeof what, "poker write -> waiter return, waiter asleep %s "
                         "before the write", mp_duration_fmt(d, sizeof d, delay));
            char table[48] = "";
            if (cfg->nfd_tables > 1)   /* one table per --fd-table value */
                snprintf(table, sizeof table, ", %s fd table", mp_fd_table_name(tab));
            fprintf(f, "\n%s mode, %s%s, median per call [p10-p90] (%s)\n", mp_mode_name(mode),
                    mp_fd_kind_name(cfg->kinds[k]), table,
                    mode == MP_MODE_WAKEUP || a > 1 ? what : "timeout 0, one fd readable");
            fprintf(f, "%8s", "N");
            for (int b = 0; b < cfg->nbackends; b++)
                fprintf(f, " %*s", COLW, cfg->backends[b]->name);
            fprintf(f, " %11s\n", "poll/epoll");
            for (int n = 0; n < cfg->ncounts; n++) {
                fprintf(f, "%8d", cfg->fds[n]);
                for (int b = 0; b < cfg->nbackends; b++) {
                    const mp_cell *c = find(r, cfg->kinds[k], mode, delay, cfg->fds[n], a, tab,
                                            cfg->backends[b]->name);
                    const mp_summary *s = wall(c);
                    char t[64];
                    if (s)
                        fprintf(f, " %*s", COLW, mp_fmt_spread(t, sizeof t, s));
                    else
                        fprintf(f, " %*s", COLW, c ? (c->status == MP_CELL_UNSUPPORTED
                                                      ? "unsupported"
                                                      : c->status == MP_CELL_ERROR ? "error"
                                                                                   : "-")
                                                   : "-");
                }
                const mp_cell *cp = find(r, cfg->kinds[k], mode, delay, cfg->fds[n], a, tab,
                                         "poll");
                const mp_cell *ce = find(r, cfg->kinds[k], mode, delay, cfg->fds[n], a, tab,
                                         "epoll");
                double ratio = ratio_to_epoll(cp, ce, cfg->repeats);
                char rt[32];
                if (ratio > 0)
                    fprintf(f, " %11s\n", sig3(rt, sizeof rt, ratio));
                else
                    fprintf(f, " %11s\n", "-");
            }
        }
}

size_t mp_results_ok_cells(const mp_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncells; i++)
        n += r->cells[i].status == MP_CELL_OK;
    return n;
}

size_t mp_print_stopped(const mp_results *r, const char *head, FILE *f)
{
    size_t total = 0;
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->status != MP_CELL_OK || !c->stopped)
            continue;
        if (!total && head)
            fputs(head, f);
        total += c->stopped;
        fprintf(f, "  %s %s %s N=%d: %zu of %zu samples spanned a stop of the process "
                "(SIGSTOP, a debugger, a suspended job): their times include it\n",
                c->backend->name, mp_fd_kind_name(c->kind), mp_mode_name(c->mode), c->nfds,
                c->stopped, c->kept);
    }
    return total;
}

/* Cells not measured, one line per distinct status and reason, with how
 * many cells each stopped, in the order the sweep met them. */
size_t mp_print_cell_reasons(const mp_results *r, const char *head, FILE *f)
{
    size_t lines = 0;
    char *done = calloc(r->ncells ? r->ncells : 1, 1);
    if (!done)
        return 0;
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (done[i] || (c->status != MP_CELL_UNSUPPORTED && c->status != MP_CELL_ERROR))
            continue;
        size_t n = 0;
        for (size_t j = i; j < r->ncells; j++) {
            const mp_cell *d = &r->cells[j];
            if (!done[j] && d->status == c->status && !strcmp(d->reason, c->reason)) {
                done[j] = 1;
                n++;
            }
        }
        if (!lines++ && head)
            fprintf(f, "%s", head);
        fprintf(f, "  %s, %zu cell%s: %s\n", mp_cell_status_name(c->status), n,
                n == 1 ? "" : "s", c->reason[0] ? c->reason : "no reason recorded");
    }
    free(done);
    return lines;
}

/* Which counters were measured and which not, grouped by reason, so a run
 * never leaves a reader guessing why a figure is missing. */
void mp_print_counters(const cJSON *counters, FILE *f)
{
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(counters, "events");
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(counters, "scope");
    const cJSON *preset = cJSON_GetObjectItemCaseSensitive(counters, "preset");
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(counters, "scope_note");
    if (!cJSON_IsArray(events) || cJSON_GetArraySize(events) == 0) {
        fprintf(f, "\ncounters: none (--events %s)\n",
                cJSON_IsString(preset) ? preset->valuestring : "none");
        return;
    }
    fprintf(f, "\ncounters (--events %s, scope %s):\n",
            cJSON_IsString(preset) ? preset->valuestring : "?",
            cJSON_IsString(scope) ? scope->valuestring : "?");
    if (cJSON_IsString(scope) && strcmp(scope->valuestring, "user+kernel") &&
        cJSON_IsString(note))
        fprintf(f, "  NOTE: %s\n", note->valuestring);
    int n = cJSON_GetArraySize(events);
    char *done = calloc((size_t)n, 1);
    const cJSON *added = cJSON_GetObjectItemCaseSensitive(counters, "software_added");
    /* Each counter is named once: measured as asked, measured because every
     * plan adds it, or not available with its reason. */
    for (int pass = 0; pass < 2; pass++) {
        int any = 0;
        for (int i = 0; i < n; i++) {
            const cJSON *e = cJSON_GetArrayItem(events, i);
            const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "status");
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
            if (!cJSON_IsString(st) || strcmp(st->valuestring, "opened") || !cJSON_IsString(nm) ||
                in_list(added, nm->valuestring) != pass)
                continue;
            if (!any)
                fputs(pass ? "  also measured, added to every plan:" : "  measured:", f);
            fprintf(f, "%s %s", any ? "," : "", nm->valuestring);
            any = 1;
            if (done)
                done[i] = 1;
        }
        if (pass == 0 && !any)
            fprintf(f, "  measured: none of the counters --events %s names",
                    cJSON_IsString(preset) ? preset->valuestring : "?");
        if (pass == 1 && any)
            fprintf(f, " (%s)", mp_json_str(counters, "software_why", ""));
        if (pass == 0 || any)
            fputc('\n', f);
    }
    /* Unavailable ones, one line per distinct reason. */
    for (int i = 0; done && i < n; i++) {
        if (done[i])
            continue;
        const cJSON *ri = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(events, i),
                                                           "reason");
        const char *why = cJSON_IsString(ri) ? ri->valuestring : "no reason recorded";
        fprintf(f, "  not available:");
        for (int j = i, first = 1; j < n; j++) {
            if (done[j])
                continue;
            const cJSON *e = cJSON_GetArrayItem(events, j);
            const cJSON *rj = cJSON_GetObjectItemCaseSensitive(e, "reason");
            const char *wj = cJSON_IsString(rj) ? rj->valuestring : "no reason recorded";
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
            if (strcmp(wj, why))
                continue;
            fprintf(f, "%s %s", first ? "" : ",", cJSON_IsString(nm) ? nm->valuestring : "?");
            first = 0;
            done[j] = 1;
        }
        fprintf(f, "\n    because: %s\n", why);
    }
    free(done);
}
