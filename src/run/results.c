/* SPDX-License-Identifier: MIT */
/* results.c - allocation and lookup for the results model; see results.h. */
#include "run/results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"

int mp_results_init(mp_results *r, const mp_run_config *cfg, mp_err *err)
{
    memset(r, 0, sizeof *r);
    r->cfg = cfg;
    r->interrupted_cell = -1;
    r->ncells = (cfg->experiments & MP_EXP_CALLS)
                    ? (size_t)cfg->nkinds * (size_t)cfg->ncounts * (size_t)cfg->nactives *
                          (size_t)mp_run_nslots(cfg) * (size_t)cfg->nfd_tables *
                          (size_t)cfg->nbackends
                    : 0;
    r->cells = calloc(r->ncells ? r->ncells : 1, sizeof *r->cells);
    if (!r->cells)
        return mp_errf(err, -ENOMEM, "out of memory for %zu cells", r->ncells);
    size_t i = 0;
    for (int k = 0; r->ncells && k < cfg->nkinds; k++)
        for (int n = 0; n < cfg->ncounts; n++)
            for (int a = 0; a < cfg->nactives; a++)
                for (int m = 0; m < mp_run_nslots(cfg); m++)
                    for (int t = 0; t < cfg->nfd_tables; t++)
                    for (int b = 0; b < cfg->nbackends; b++) {
                        mp_cell *c = &r->cells[i++];
                        c->fd_table = cfg->fd_tables[t];
                        c->backend = cfg->backends[b];
                        c->kind = cfg->kinds[k];
                        c->mode = mp_run_slot(cfg, m, &c->wake_delay_ns);
                        c->nfds = cfg->fds[n];
                        c->active = cfg->actives[a];
                        c->fd_lo = c->fd_hi = c->ready_fd = -1;
                        c->process_threads = -1;
                        c->watch_sets = -1;
                        c->empty_bracket_ns = NAN;
                        c->p50_ci_lo = c->p50_ci_hi = NAN;
                    }
    return 0;
}

void mp_results_free(mp_results *r)
{
    for (size_t i = 0; i < r->ncells; i++) {
        mp_cell *c = &r->cells[i];
        free(c->repeat_medians);
        free(c->bare_loop);
        free(c->bare_loop_mean);
        free(c->samples);
        free(c->waiter);
        free(c->bracket_ns);
        free(c->sample_repeat);
        free(c->metrics);
        cJSON_Delete(c->profile);
    }
    free(r->cells);
    cJSON_Delete(r->context);
    cJSON_Delete(r->topology);
    cJSON_Delete(r->counters);
    cJSON_Delete(r->experiments);
    memset(r, 0, sizeof *r);
}

const char *mp_cell_name(const mp_cell *c, char *buf, size_t len)
{
    char d[32] = "";
    if (c->wake_delay_ns > 0)
        snprintf(d, sizeof d, " asleep %s", mp_duration_fmt((char[24]){0}, 24, c->wake_delay_ns));
    snprintf(buf, len, "%s %s N=%d%s%.0d %s%s", c->backend->name, mp_fd_kind_name(c->kind),
             c->nfds, c->active > 1 ? " K=" : "", c->active > 1 ? c->active : 0,
             mp_mode_name(c->mode), d);
    return buf;
}

mp_metric *mp_cell_add_metric(mp_cell *c, const char *name)
{
    mp_metric *m = realloc(c->metrics, (c->nmetrics + 1) * sizeof *m);
    if (!m)
        return NULL;
    c->metrics = m;
    m = &c->metrics[c->nmetrics++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    return m;
}

const mp_metric *mp_cell_metric(const mp_cell *c, const char *name)
{
    for (size_t i = 0; i < c->nmetrics; i++)
        if (!strcmp(c->metrics[i].name, name))
            return &c->metrics[i];
    return NULL;
}

size_t mp_results_error_cells(const mp_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncells; i++)
        n += r->cells[i].status == MP_CELL_ERROR || r->cells[i].failed;
    const cJSON *x;
    cJSON_ArrayForEach(x, r->experiments) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(x, "status");
        n += cJSON_IsString(st) && !strcmp(st->valuestring, "error");
    }
    return n;
}

const char *mp_results_status(const mp_results *r)
{
    return r->interrupted ? "interrupted" : mp_results_error_cells(r) ? "errors" : "complete";
}
