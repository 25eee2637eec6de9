/* SPDX-License-Identifier: MIT */
/* check.c - the checks of results.json's fields: each field the report
 * uses is type- and range-checked, and a failure names the file and the
 * field; optional parts that do not fit are left out with a warning.  See
 * report/model.h. */
#include "report/model.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#include "common/stats.h"

#define MAX_NFDS 100000000LL

int mp__rm_bad(mp_err *err, const mp_rmodel *m, const char *field, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return mp_errf(err, -EBADMSG, "%s: field %s: %s (the file does not follow "
                   "docs/results-schema.md; rerun `muxprof run` to rewrite it)",
                   m->path, field, what);
}

void mp__rm_warn(mp_rmodel *m, const char *fmt, ...)
{
    if (m->nwarn >= MP_RM_MAX_WARN)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->warn[m->nwarn++], sizeof m->warn[0], fmt, ap);
    va_end(ap);
}

const char *mp__rm_type_name(const cJSON *j)
{
    if (!j) return "nothing";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    return "an invalid value";
}

int mp__rm_safe_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s))
            return 0;
    return 1;
}

static int get_name(mp_rmodel *m, const cJSON *o, const char *key, const char *field,
                    char *dst, size_t len, int required, mp_err *err)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!j && !required) {
        snprintf(dst, len, "unknown");
        return 0;
    }
    if (!cJSON_IsString(j))
        return mp__rm_bad(err, m, field, "expected a string, found %s", mp__rm_type_name(j));
    if (strlen(j->valuestring) >= len || !mp__rm_safe_name(j->valuestring))
        return mp__rm_bad(err, m, field, "expected a short name of letters, digits, '_', '.', "
                   "'+' or '-' (at most %zu characters)", len - 1);
    snprintf(dst, len, "%s", j->valuestring);
    return 0;
}

static int get_count(mp_rmodel *m, const cJSON *j, const char *field, long long lo,
                     long long hi, long long *out, mp_err *err)
{
    if (!cJSON_IsNumber(j))
        return mp__rm_bad(err, m, field, "expected a whole number, found %s", mp__rm_type_name(j));
    double v = j->valuedouble;
    if (!isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return mp__rm_bad(err, m, field, "expected a whole number from %lld to %lld, found %g",
                   lo, hi, v);
    *out = (long long)v;
    return 0;
}

static int get_summary(mp_rmodel *m, const cJSON *o, const char *field, mp_rsum *s,
                       int need_p50, mp_err *err)
{
    char f[256];
    if (!cJSON_IsObject(o))
        return mp__rm_bad(err, m, field, "expected a summary object, found %s", mp__rm_type_name(o));
    for (size_t i = 0; i < mp_nrsum_fields; i++) {
        const mp_rsum_field *k = &mp_rsum_fields[i];
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k->key);
        double *dst = (double *)((char *)s + k->rsum_off);
        *dst = NAN;
        snprintf(f, sizeof f, "%s.%s", field, k->key);
        if (!j || cJSON_IsNull(j))
            continue;
        if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble) || fabs(j->valuedouble) > 1e18)
            return mp__rm_bad(err, m, f, "expected a finite number below 1e18, found %s",
                       cJSON_IsNumber(j) ? "an out-of-range number" : mp__rm_type_name(j));
        *dst = j->valuedouble;
    }
    if (need_p50 && isnan(s->p50)) {
        snprintf(f, sizeof f, "%s.p50", field);
        return mp__rm_bad(err, m, f, "missing (every summary needs its median)");
    }
    return 0;
}

/* The interval on the median and the repeat medians of an ok cell.  These
 * decorate the numbers, so a field that does not fit is left out with a
 * warning instead of refusing the file. */
static void load_uncertainty(mp_rmodel *m, const cJSON *o, size_t i, mp_rcell *c)
{
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(o, "metrics");
    const cJSON *raw = cJSON_GetObjectItemCaseSensitive(mt, "wall_raw_ns");
    const cJSON *rp50 = cJSON_GetObjectItemCaseSensitive(raw, "p50");
    const cJSON *of = cJSON_GetObjectItemCaseSensitive(o, "repeat_medians_of");
    /* Repeat medians of wall_ns as the run says, or (files without
     * repeat_medians_of) of the raw samples, from which wall_ns subtracts a
     * constant. */
    double shift = cJSON_IsString(of) && !strcmp(of->valuestring, "wall_ns") ? 0
                   : cJSON_IsNumber(rp50) && isfinite(rp50->valuedouble)
                       ? rp50->valuedouble - c->wall.p50 : 0;
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(o, "repeat_medians_ns"), *e;
    size_t over = 0;
    c->ci_kind = MP_CI_NONE;
    c->ci_lo = c->ci_hi = c->ci_level = NAN;
    if (!cJSON_IsArray(rm))
        rm = NULL;
    cJSON_ArrayForEach(e, rm) {
        if (cJSON_IsNull(e))
            continue;
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 1e18) {
            mp__rm_warn(m, "results[%zu].repeat_medians_ns left out: %s is not a number",
                        i, mp__rm_type_name(e));
            c->nrep = 0;
            break;
        }
        if (c->nrep < MP_RM_MAX_REP)
            c->rep[c->nrep++] = e->valuedouble - shift;
        else
            over++;
    }
    if (over)
        mp__rm_warn(m, "results[%zu].repeat_medians_ns: %zu more than the %d read; the "
                    "interval and compare use the first %d", i, over, MP_RM_MAX_REP,
                    MP_RM_MAX_REP);
    if (c->nrep >= 2 && mp_median_ci_order(c->rep, c->nrep, MP_CI_LEVEL, &c->ci_lo, &c->ci_hi,
                                           &c->ci_level) == 0)
        c->ci_kind = MP_CI_REPEATS;
}

int mp__rm_load_cell(mp_rmodel *m, const cJSON *o, size_t i, mp_rcell *c, mp_err *err)
{
    char f[256];
    int rc;
    c->index = i;
    c->json = o;
    c->fd_hi = -1;
    if (!cJSON_IsObject(o)) {
        snprintf(f, sizeof f, "results[%zu]", i);
        return mp__rm_bad(err, m, f, "expected an object, found %s", mp__rm_type_name(o));
    }
    mp_rcell_read(o, c);
#define F(name) (snprintf(f, sizeof f, "results[%zu].%s", i, name), f)
    if ((rc = get_name(m, o, "backend", F("backend"), c->backend, sizeof c->backend, 1, err)) ||
        (rc = get_name(m, o, "mode", F("mode"), c->mode, sizeof c->mode, 1, err)) ||
        (rc = get_name(m, o, "fd_kind", F("fd_kind"), c->fd_kind, sizeof c->fd_kind, 0, err)) ||
        (rc = get_count(m, cJSON_GetObjectItemCaseSensitive(o, "nfds"), F("nfds"), 1,
                        MAX_NFDS, &c->nfds, err)))
        return rc;
    const cJSON *wd = cJSON_GetObjectItemCaseSensitive(o, "wake_delay_ns");
    if (wd && !strcmp(c->mode, "wakeup") &&
        (rc = get_count(m, wd, F("wake_delay_ns"), 0, MP_WAKE_DELAY_MAX_NS, &c->wake_delay_ns,
                        err)))
        return rc;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
    if (!cJSON_IsString(st) || (strcmp(st->valuestring, "ok") &&
                                strcmp(st->valuestring, "unsupported") &&
                                strcmp(st->valuestring, "error")))
        return mp__rm_bad(err, m, F("status"), "expected \"ok\", \"unsupported\" or \"error\"");
    c->status = !strcmp(st->valuestring, "ok") ? MP_CELL_OK
              : !strcmp(st->valuestring, "unsupported") ? MP_CELL_UNSUPPORTED : MP_CELL_ERROR;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "reason");
    if (r && !cJSON_IsNull(r) && !cJSON_IsString(r))
        return mp__rm_bad(err, m, F("reason"), "expected a string or null, found %s", mp__rm_type_name(r));
    if (cJSON_IsString(r))
        snprintf(c->reason, sizeof c->reason, "%s", r->valuestring);
    /* "active" (K ready at once) came after the first files: absent or null
     * means 1.  A value that is not a whole number >= 1 leaves the cell out
     * (active = 0) with a warning rather than refusing the file. */
    const cJSON *ac = cJSON_GetObjectItemCaseSensitive(o, "active");
    c->active = 1;
    if (ac && !cJSON_IsNull(ac)) {
        double v = cJSON_IsNumber(ac) ? ac->valuedouble : NAN;
        if (!isfinite(v) || v != floor(v) || v < 1 || v > (double)MAX_NFDS) {
            mp__rm_warn(m, "results[%zu] left out: active is %s, not a whole number of "
                        "ready fds from 1 to %lld", i, cJSON_IsNumber(ac) ? "out of range" :
                        mp__rm_type_name(ac), MAX_NFDS);
            c->active = 0;
            return 0;
        }
        c->active = (long long)v;
    }
    const cJSON *hi = cJSON_GetObjectItemCaseSensitive(o, "fd_hi");
    if (hi && !cJSON_IsNull(hi) &&
        (rc = get_count(m, hi, F("fd_hi"), 0, 1LL << 31, &c->fd_hi, err)))
        return rc;
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "profile");
    if (p && mp__rm_check_profile(m, p, F("profile")))
        c->profile = p;
    if (c->status != MP_CELL_OK)
        return 0;

    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(o, "metrics");
    if (!cJSON_IsObject(mt))
        return mp__rm_bad(err, m, F("metrics"), "expected an object (an \"ok\" cell has metrics), "
                   "found %s", mp__rm_type_name(mt));
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(mt, "wall_ns");
    if (!w && !m->simulated)
        return mp__rm_bad(err, m, F("metrics.wall_ns"), "missing (every \"ok\" cell has it)");
    c->wall = (mp_rsum){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};   /* simulated: no time */
    if (w && (rc = get_summary(m, w, F("metrics.wall_ns"), &c->wall, 1, err)))
        return rc;
    c->waiter.p50 = NAN;
    const cJSON *wt = cJSON_GetObjectItemCaseSensitive(mt, "waiter_ns");
    if (wt && !cJSON_IsNull(wt) && (rc = get_summary(m, wt, F("metrics.waiter_ns"), &c->waiter,
                                                     1, err)))
        return rc;
    load_uncertainty(m, o, i, c);
    int nm = cJSON_GetArraySize(mt);
    c->counters = calloc(nm > 0 ? (size_t)nm : 1, sizeof *c->counters);
    if (!c->counters)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", m->path);
    const cJSON *e;
    cJSON_ArrayForEach(e, mt) {
        if (!strcmp(e->string, "wall_ns") || !strcmp(e->string, "wall_raw_ns") ||
            !strcmp(e->string, "waiter_ns"))
            continue;
        if (cJSON_IsNull(e))
            continue;   /* nothing was counted: missing, not zero */
        char shown[64];   /* the name as read, control characters shown as '?' */
        snprintf(shown, sizeof shown, "%.60s", e->string);
        for (char *q = shown; *q; q++)
            if ((unsigned char)*q < ' ' || *q == 0x7f)
                *q = '?';
        snprintf(f, sizeof f, "results[%zu].metrics.%s", i, shown);
        if (strlen(e->string) >= MP_RM_NAME || !*e->string)
            return mp__rm_bad(err, m, f, "metric name is empty or longer than %d characters",
                       MP_RM_NAME - 1);
        for (const char *s = e->string; *s; s++)
            if ((unsigned char)*s <= ' ' || strchr("\"'`\\|#", *s))
                return mp__rm_bad(err, m, f, "metric name has a space, quote, '|', '#' or "
                           "control character");
        mp_rmetric *x = &c->counters[c->ncounters];
        if ((rc = get_summary(m, e, f, &x->s, 1, err)))
            return rc;
        snprintf(x->name, sizeof x->name, "%s", e->string);
        c->ncounters++;
        mp__rm_add_metric(m, e->string, mp_metric_unit(e->string, e));
    }
#undef F
    return 0;
}
