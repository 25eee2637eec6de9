/* SPDX-License-Identifier: MIT */
/* json_out.c - `muxprof report DIR --json`: the analysis behind report.md
 * as one JSON object.  Each section that computes something prints its
 * part (mp_rsection.json) from the same functions its Markdown is written
 * from; this file holds the pieces they share and the input's identity. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/model.h"

void mp__rj_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static const char *status_name(int status)
{
    return status == MP_CELL_OK ? "ok" : status == MP_CELL_UNSUPPORTED ? "unsupported" : "error";
}

static const char *ci_name(int kind)
{
    return kind == MP_CI_REPEATS ? "repeats" : NULL;
}

void mp__rj_median(cJSON *o, const char *key, const mp_rcell *c)
{
    cJSON *j = cJSON_AddObjectToObject(o, key);
    mp__rj_num(j, "p50", c ? c->wall.p50 : NAN);
    if (c && ci_name(c->ci_kind))
        cJSON_AddStringToObject(j, "interval", ci_name(c->ci_kind));
    else
        cJSON_AddNullToObject(j, "interval");
    mp__rj_num(j, "lo", c ? c->ci_lo : NAN);
    mp__rj_num(j, "hi", c ? c->ci_hi : NAN);
    mp__rj_num(j, "level", c ? c->ci_level : NAN);
}

cJSON *mp__rj_cell(const mp_rcell *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "nfds", (double)c->nfds);
    cJSON_AddStringToObject(o, "status", status_name(c->status));
    if (c->status != MP_CELL_OK) {
        cJSON_AddStringToObject(o, "reason", c->reason);
        return o;
    }
    mp__rj_median(o, "median_ns", c);
    mp__rj_num(o, "p99_ns", c->wall.p99);
    if (c->fd_hi >= 0)
        cJSON_AddNumberToObject(o, "fd_hi", (double)c->fd_hi);
    else
        cJSON_AddNullToObject(o, "fd_hi");
    return o;
}

/* v as a string member of o, or null. */
static void text_or_null(cJSON *o, const char *name, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

cJSON *mp__rj_input(const mp_rmodel *m)
{
    static const char *const keys[] = {"context.host", "context.cpu_model", "context.arch",
                                       "context.git_describe"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", m->path);
    const struct { const char *name, *value; } top[] = {
        {"schema", m->run.schema}, {"status", m->run.status},
        {"started_utc", m->run.started_utc}, {"finished_utc", m->run.finished_utc}};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", top[i].value ? top[i].value : "");
        text_or_null(o, top[i].name, top[i].value ? buf : NULL);
    }
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char buf[512];
        text_or_null(o, strchr(keys[i], '.') + 1, mp_rm_text(m, keys[i], buf, sizeof buf));
    }
    cJSON_AddBoolToObject(o, "simulated", m->simulated);
    cJSON_AddBoolToObject(o, "anonymized", m->anonymized);
    return o;
}
