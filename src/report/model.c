/* SPDX-License-Identifier: MIT */
/* model.c - the model of a run read from results.json: the lists that
 * index its cells (backends, modes, fd kinds, metrics), freeing it, and the
 * queries the sections and compare ask of it.  Reading is load.c, the
 * field checks check.c.  See report/model.h. */
#include "report/model.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/internal.h"















static void add_unique(char (*list)[32], size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(list[i], s))
            return;
    if (*n < MP_RM_MAX_LIST)
        snprintf(list[(*n)++], 32, "%s", s);
}

static void add_mode(mp_rmodel *m, const char *s)
{
    for (size_t i = 0; i < m->nmodes; i++)
        if (!strcmp(m->modes[i], s))
            return;
    if (m->nmodes < MP_RM_MAX_LIST)
        snprintf(m->modes[m->nmodes++], sizeof m->modes[0], "%s", s);
}

void mp__rm_add_metric(mp_rmodel *m, const char *s, const char *unit)
{
    for (size_t i = 0; i < m->nmetrics; i++)
        if (!strcmp(m->metrics[i], s))
            return;
    if (m->nmetrics < MP_RM_MAX_LIST) {
        m->metric_units[m->nmetrics] = unit;
        snprintf(m->metrics[m->nmetrics++], MP_RM_NAME, "%s", s);
    }
}

/* Key order of cells: mode, fd kind, backend, nfds, then file order. */
static int key_cmp(const void *a, const void *b)
{
    const mp_rcell *x = *(const mp_rcell *const *)a, *y = *(const mp_rcell *const *)b;
    int r = strcmp(x->mode, y->mode);
    if (!r)
        r = strcmp(x->fd_kind, y->fd_kind);
    if (!r)
        r = strcmp(x->backend, y->backend);
    if (!r)
        r = (x->nfds > y->nfds) - (x->nfds < y->nfds);
    return r ? r : (x > y) - (x < y);
}

int mp__rm_index(mp_rmodel *m)
{
    const mp_rconfig *cfg = &m->config;
    m->by_key = malloc(sizeof *m->by_key * (m->ncells ? m->ncells : 1));
    if (!m->by_key)
        return -ENOMEM;
    for (size_t i = 0; i < m->ncells; i++)
        m->by_key[i] = &m->cells[i];
    qsort(m->by_key, m->ncells, sizeof *m->by_key, key_cmp);
    /* config order first, but only for values that have cells (a list
     * longer than the model keeps is not looked at further) */
    for (size_t k = 0; k < cfg->nbackends && k < MP_RM_MAX_LIST; k++)
        for (size_t i = 0; i < m->ncells; i++)
            if (!strcmp(m->cells[i].backend, cfg->backends[k])) {
                add_unique(m->backends, &m->nbackends, cfg->backends[k]);
                break;
            }
    for (size_t k = 0; k < cfg->nmodes && k < MP_RM_MAX_LIST; k++)
        for (size_t i = 0; i < m->ncells; i++)
            if (!strcmp(m->cells[i].mode, cfg->modes[k])) {
                add_mode(m, cfg->modes[k]);
                break;
            }
    for (size_t i = 0; i < m->ncells; i++) {
        add_unique(m->backends, &m->nbackends, m->cells[i].backend);
        add_mode(m, m->cells[i].mode);
        add_unique(m->kinds, &m->nkinds, m->cells[i].fd_kind);
    }
    return 0;
}

/* c against the key prefix (mode, kind[, backend]): <0, 0, >0. */
static int prefix_cmp(const mp_rcell *c, const char *mode, const char *kind,
                      const char *backend)
{
    int r = strcmp(c->mode, mode);
    if (!r)
        r = strcmp(c->fd_kind, kind);
    if (!r && backend)
        r = strcmp(c->backend, backend);
    return r;
}

size_t mp_rm_range(const mp_rmodel *m, const char *mode, const char *kind,
                   const char *backend, const mp_rcell *const **first)
{
    size_t lo = 0, hi = m->ncells;
    while (lo < hi) {   /* the first cell not before the prefix */
        size_t mid = lo + (hi - lo) / 2;
        if (prefix_cmp(m->by_key[mid], mode, kind, backend) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    hi = m->ncells;
    while (end < hi) {   /* the first cell after it */
        size_t mid = end + (hi - end) / 2;
        if (prefix_cmp(m->by_key[mid], mode, kind, backend) <= 0)
            end = mid + 1;
        else
            hi = mid;
    }
    *first = m->by_key + lo;
    return end - lo;
}

void mp_rm_free(mp_rmodel *m)
{
    for (size_t i = 0; i < m->ncells; i++) {
        free(m->cells[i].counters);
        if (m->profiles)
            mp_rprofile_free(&m->profiles[i]);
    }
    free(m->profiles);
    free(m->cells);
    free(m->by_key);
    for (size_t i = 0; i < m->nkcells; i++)
        free(m->kcells[i].counters);
    free(m->kcells);
    for (size_t i = 0; i < m->ndcells; i++)
        free(m->dcells[i].counters);
    free(m->dcells);
    free(m->all);
    free(m->all_metrics);
    for (size_t i = 0; m->sim_fns && i < m->ncells; i++)
        free(m->sim_fns[i].fns);
    free(m->sim_fns);
    mp__rm_free_experiments(m);
    mp__rm_free_noise(m);
    free(m->counters);
    cJSON_Delete(m->root);
    memset(m, 0, sizeof *m);
}

const mp_rprofile *mp_rm_profile(const mp_rmodel *m, const mp_rcell *c)
{
    if (!c->profile || !m->profiles || c < m->cells || c >= m->cells + m->ncells)
        return NULL;
    return &m->profiles[c - m->cells];
}

size_t mp_rm_series(const mp_rmodel *m, const char *mode, const char *kind,
                    const char *backend, const mp_rcell **out, size_t max)
{
    const mp_rcell *const *c;
    size_t n = mp_rm_range(m, mode, kind, backend, &c), k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && c[i]->nfds == c[i - 1]->nfds)
            continue;   /* a repeated nfds keeps its first cell */
        if (k < max)
            out[k] = c[i];
        k++;
    }
    return k;
}

const mp_rcell *mp_rm_find_any(const mp_rmodel *m, const char *mode, const char *kind,
                               const char *backend, long long nfds, int ok_only)
{
    const mp_rcell *const *c;
    size_t n = mp_rm_range(m, mode, kind, backend, &c), lo = 0, hi = n;
    while (lo < hi) {   /* the first cell of the series with this nfds */
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid]->nfds < nfds)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && c[lo]->nfds == nfds; lo++)
        if (!ok_only || c[lo]->status == MP_CELL_OK)
            return c[lo];
    return NULL;
}

const mp_rcell *mp_rm_find(const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend, long long nfds)
{
    return mp_rm_find_any(m, mode, kind, backend, nfds, 1);
}

const mp_rsum *mp_rm_sum(const mp_rcell *c, const char *name)
{
    for (size_t i = 0; c && c->status == MP_CELL_OK && i < c->ncounters; i++)
        if (!strcmp(c->counters[i].name, name))
            return &c->counters[i].s;
    return NULL;
}

double mp_rm_p50(const mp_rcell *c, const char *name)
{
    if (!c || c->status != MP_CELL_OK)
        return NAN;
    if (!strcmp(name, "wall_ns"))
        return c->wall.p50;
    if (!strcmp(name, "waiter_ns"))
        return c->waiter.p50;
    const mp_rsum *v = mp_rm_sum(c, name);
    if (v)
        return v->p50;
    return NAN;
}

const char *mp_rm_guest_isa(const mp_rmodel *m)
{
    return m->abi == MP_ABI_ARM64 ? "arm64" : m->abi == MP_ABI_X86_64 ? "x86_64" : m->arch;
}

const char *mp_rm_text(const mp_rmodel *m, const char *dotted, char *buf, size_t len)
{
    const cJSON *j = m->root;
    char key[128];
    const char *p = dotted;
    while (j && *p) {
        size_t k = strcspn(p, ".");
        if (k >= sizeof key)
            return NULL;
        memcpy(key, p, k);
        key[k] = 0;
        j = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, key) : NULL;
        p += k + (p[k] == '.');
    }
    if (!j)
        return NULL;
    if (cJSON_IsString(j))
        snprintf(buf, len, "%s", j->valuestring);
    else if (cJSON_IsNumber(j) && isfinite(j->valuedouble))
        snprintf(buf, len, "%.15g", j->valuedouble);
    else if (cJSON_IsBool(j))
        snprintf(buf, len, "%s", cJSON_IsTrue(j) ? "yes" : "no");
    else
        return NULL;
    return buf;
}
