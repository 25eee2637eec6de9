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

void mp__rm_add_metric(mp_rmodel *m, const char *s)
{
    for (size_t i = 0; i < m->nmetrics; i++)
        if (!strcmp(m->metrics[i], s))
            return;
    if (m->nmetrics < MP_RM_MAX_LIST)
        snprintf(m->metrics[m->nmetrics++], MP_RM_NAME, "%s", s);
}

void mp__rm_index(mp_rmodel *m)
{
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m->root, "config");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(cfg, "backends");
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(cfg, "modes");
    const cJSON *e;
    if (!cJSON_IsArray(b))
        b = NULL;
    if (!cJSON_IsArray(md))
        md = NULL;
    /* config order first, but only for values that have cells */
    cJSON_ArrayForEach(e, b)
        if (cJSON_IsString(e))
            for (size_t i = 0; i < m->ncells; i++)
                if (!strcmp(m->cells[i].backend, e->valuestring)) {
                    add_unique(m->backends, &m->nbackends, e->valuestring);
                    break;
                }
    cJSON_ArrayForEach(e, md)
        if (cJSON_IsString(e))
            for (size_t i = 0; i < m->ncells; i++)
                if (!strcmp(m->cells[i].mode, e->valuestring)) {
                    add_mode(m, e->valuestring);
                    break;
                }
    for (size_t i = 0; i < m->ncells; i++) {
        add_unique(m->backends, &m->nbackends, m->cells[i].backend);
        add_mode(m, m->cells[i].mode);
        add_unique(m->kinds, &m->nkinds, m->cells[i].fd_kind);
    }
}

void mp_rm_free(mp_rmodel *m)
{
    for (size_t i = 0; i < m->ncells; i++)
        free(m->cells[i].counters);
    free(m->cells);
    for (size_t i = 0; i < m->nkcells; i++)
        free(m->kcells[i].counters);
    free(m->kcells);
    mp__rm_free_experiments(m);
    free(m->counters);
    cJSON_Delete(m->root);
    memset(m, 0, sizeof *m);
}

size_t mp_rm_series(const mp_rmodel *m, const char *mode, const char *kind,
                    const char *backend, const mp_rcell **out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->mode, mode) || strcmp(c->fd_kind, kind) || strcmp(c->backend, backend))
            continue;
        int dup = 0;   /* a repeated nfds keeps its first cell */
        for (size_t j = 0; j < k && j < max; j++)
            dup |= out[j]->nfds == c->nfds;
        if (dup)
            continue;
        if (k < max) {
            size_t j = k;
            while (j > 0 && out[j - 1]->nfds > c->nfds) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = c;
        }
        k++;
    }
    return k;
}

const mp_rcell *mp_rm_find(const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend, long long nfds)
{
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->status == MP_RC_OK && c->nfds == nfds && !strcmp(c->mode, mode) &&
            !strcmp(c->fd_kind, kind) && !strcmp(c->backend, backend))
            return c;
    }
    return NULL;
}

double mp_rm_p50(const mp_rcell *c, const char *name)
{
    if (!c || c->status != MP_RC_OK)
        return NAN;
    if (!strcmp(name, "wall_ns"))
        return c->wall.p50;
    if (!strcmp(name, "waiter_ns"))
        return c->waiter.p50;
    for (size_t i = 0; i < c->ncounters; i++)
        if (!strcmp(c->counters[i].name, name))
            return c->counters[i].s.p50;
    return NAN;
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
