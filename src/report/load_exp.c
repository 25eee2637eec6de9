/* load_exp.c - the "experiments" object of results.json (register, herd,
 * ltet; docs/experiments.md) read into m->exp; any other experiment is read
 * by its table (load_xtable.c).  Like the other optional
 * parts, it is checked field by field: an entry of the wrong shape is left
 * out with a warning naming it, an object of the wrong shape is left out
 * whole, and nothing here refuses the file.  See report/model.h. */
#include "report/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#define BIG 1e18

/* A finite number below 1e18 at key, else NaN; *bad is set when the key is
 * there but is not such a number (null counts as absent). */
static double num(const cJSON *o, const char *key, int *bad)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!j || cJSON_IsNull(j))
        return NAN;
    if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble) || fabs(j->valuedouble) >= BIG) {
        *bad = 1;
        return NAN;
    }
    return j->valuedouble;
}

/* A summary object {p10 p50 p90 min max mean n}: 0 when it is an object
 * with a usable p50 (other keys may be absent: NaN), else -1. */
static int summ(const cJSON *o, const char *key, mp_rsum *s)
{
    static const char *keys[] = {"p10", "p50", "p90", "p99", "mean", "min", "max",
                                 "stddev", "n"};
    double *dst[] = {&s->p10, &s->p50, &s->p90, &s->p99, &s->mean, &s->min, &s->max,
                     &s->stddev, &s->n};
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    int bad = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        *dst[i] = NAN;
    if (!cJSON_IsObject(j))
        return -1;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        *dst[i] = num(j, keys[i], &bad);
    return bad || isnan(s->p50) ? -1 : 0;
}

/* A name used in file names and tables: letters, digits, _ . + - */
static int name(const cJSON *o, const char *key, char *dst, size_t len)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(j) || strlen(j->valuestring) >= len ||
        !mp__rm_safe_name(j->valuestring))
        return -1;
    snprintf(dst, len, "%s", j->valuestring);
    return 0;
}

/* "status" ("ok" when absent if ok_default) and "reason". -1 if bad. */
static int status(const cJSON *o, int ok_default, int *st, char *reason, size_t len)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "status");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "reason");
    reason[0] = 0;
    if (!j && ok_default)
        *st = MP_CELL_OK;
    else if (cJSON_IsString(j) && !strcmp(j->valuestring, "ok"))
        *st = MP_CELL_OK;
    else if (cJSON_IsString(j) && !strcmp(j->valuestring, "unsupported"))
        *st = MP_CELL_UNSUPPORTED;
    else if (cJSON_IsString(j) && !strcmp(j->valuestring, "error"))
        *st = MP_CELL_ERROR;
    else
        return -1;
    if (cJSON_IsString(r))
        snprintf(reason, len, "%s", r->valuestring);
    else if (r && !cJSON_IsNull(r))
        return -1;
    return 0;
}

/* Whole number in [lo, hi] at key. */
static int whole(const cJSON *o, const char *key, long long lo, long long hi, long long *out)
{
    int bad = 0;
    double v = num(o, key, &bad);
    if (bad || isnan(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return -1;
    *out = (long long)v;
    return 0;
}

/* The array at obj.key, or NULL after a warning. */
static const cJSON *array_of(mp_rmodel *m, const cJSON *obj, const char *what,
                             const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsArray(a)) {
        mp__rm_warn(m, "experiments.%s ignored: %s is not an array", what, key);
        return NULL;
    }
    return a;
}

static void load_register(mp_rmodel *m, const cJSON *obj)
{
    const cJSON *a = array_of(m, obj, "register", "cells");
    if (!a)
        return;
    int n = cJSON_GetArraySize(a);
    m->exp.reg = calloc(n > 0 ? (size_t)(n < MP_RM_MAX_REG ? n : MP_RM_MAX_REG) : 1,
                        sizeof *m->exp.reg);
    if (!m->exp.reg)
        return;
    m->exp.has_register = 1;
    const cJSON *e;
    int i = -1;
    size_t skipped = 0, first = 0;
    cJSON_ArrayForEach(e, a) {
        i++;
        if (m->exp.nreg >= MP_RM_MAX_REG) {
            mp__rm_warn(m, "experiments.register.cells: only the first %d cells are reported",
                        MP_RM_MAX_REG);
            break;
        }
        mp_rreg *r = &m->exp.reg[m->exp.nreg];
        memset(r, 0, sizeof *r);
        int bad = 0;
        if (!cJSON_IsObject(e) || name(e, "backend", r->backend, sizeof r->backend) ||
            status(e, 0, &r->status, r->reason, sizeof r->reason) ||
            whole(e, "nfds", 1, 100000000LL, &r->nfds))
            bad = 1;
        if (!bad && name(e, "fd_kind", r->fd_kind, sizeof r->fd_kind))
            snprintf(r->fd_kind, sizeof r->fd_kind, "unknown");
        r->ns_per_fd = bad ? NAN : num(e, "ns_per_fd", &bad);
        if (!bad && r->status == MP_CELL_OK) {
            bad = summ(e, "total_ns", &r->total) != 0;
            if (!bad && isnan(r->ns_per_fd))
                r->ns_per_fd = r->total.p50 / (double)r->nfds;
        }
        const cJSON *cpf = cJSON_GetObjectItemCaseSensitive(e, "counters_per_fd");
        if (!bad && cJSON_IsObject(cpf)) {
            const cJSON *c;
            cJSON_ArrayForEach(c, cpf) {
                if (r->ncpf >= MP_RM_MAX_CPF || !cJSON_IsNumber(c) ||
                    !isfinite(c->valuedouble) || fabs(c->valuedouble) >= BIG ||
                    strlen(c->string) >= MP_RM_NAME || !mp__rm_safe_name(c->string))
                    continue;   /* odd counters are dropped, the cell stays */
                mp_rmetric *x = &r->cpf[r->ncpf++];
                snprintf(x->name, sizeof x->name, "%s", c->string);
                x->s.p50 = c->valuedouble;
            }
        }
        if (bad) {
            if (!skipped++)
                first = (size_t)i;
            continue;
        }
        m->exp.nreg++;
    }
    if (skipped)
        mp__rm_warn(m, "experiments.register.cells: %zu cell(s) left out (first: [%zu]): "
                    "backend, nfds, status or total_ns missing or of the wrong type",
                    skipped, first);
}

static void load_herd(mp_rmodel *m, const cJSON *obj)
{
    const cJSON *a = array_of(m, obj, "herd", "arrangements");
    if (!a)
        return;
    m->exp.has_herd = 1;
    const cJSON *e;
    int i = -1;
    cJSON_ArrayForEach(e, a) {
        i++;
        if (m->exp.nherd >= MP_RM_MAX_HERD) {
            mp__rm_warn(m, "experiments.herd.arrangements: only the first %d are reported",
                        MP_RM_MAX_HERD);
            break;
        }
        mp_rherd *h = &m->exp.herd[m->exp.nherd];
        memset(h, 0, sizeof *h);
        int bad = 0;
        if (!cJSON_IsObject(e) || name(e, "arrangement", h->name, sizeof h->name) ||
            status(e, 1, &h->status, h->reason, sizeof h->reason)) {
            mp__rm_warn(m, "experiments.herd.arrangements[%d] left out: no arrangement name "
                        "of letters, digits, '_', '.', '+' or '-', or a bad status", i);
            continue;
        }
        h->waiters = num(e, "waiters", &bad);
        h->rounds = num(e, "rounds", &bad);
        h->rounds_lost = num(e, "rounds_lost", &bad);
        h->rounds_miscounted = num(e, "rounds_miscounted", &bad);
        if (h->status == MP_CELL_OK) {
            static const char *keys[] = {"woken_per_event", "returned_per_event",
                                         "wasted_per_event", "first_wakeup_ns",
                                         "context_switches_per_event"};
            mp_rsum *dst[] = {&h->woken, &h->returned, &h->wasted, &h->first_ns, &h->csw};
            int have = 0, missing = 0;
            for (size_t k = 0; k < 5; k++) {
                int r = summ(e, keys[k], dst[k]);
                have += r == 0;
                missing += r != 0 && k < 3;
                if (r != 0 && cJSON_GetObjectItemCaseSensitive(e, keys[k]))
                    bad = 1;
            }
            h->has_events = have > 0 && !missing;
            if (!h->has_events && !(h->rounds == 0))
                bad = 1;   /* no per-event numbers, and not because no round ran */
        }
        if (bad) {
            mp__rm_warn(m, "experiments.herd.arrangements[%d] (%s) left out: a count or a "
                        "per-event summary is missing or not a finite number", i, h->name);
            continue;
        }
        m->exp.nherd++;
    }
}

static void load_ltet(mp_rmodel *m, const cJSON *obj)
{
    const cJSON *a = array_of(m, obj, "ltet", "cells");
    if (!a)
        return;
    int bad = 0;
    m->exp.has_ltet = 1;
    m->exp.event_bytes = num(obj, "event_bytes", &bad);
    if (bad || !(m->exp.event_bytes > 0))
        m->exp.event_bytes = NAN;
    const cJSON *e;
    int i = -1;
    cJSON_ArrayForEach(e, a) {
        i++;
        if (m->exp.nltet >= MP_RM_MAX_LTET) {
            mp__rm_warn(m, "experiments.ltet.cells: only the first %d are reported",
                        MP_RM_MAX_LTET);
            break;
        }
        mp_rltet *t = &m->exp.ltet[m->exp.nltet];
        memset(t, 0, sizeof *t);
        const cJSON *tr = cJSON_GetObjectItemCaseSensitive(e, "trigger");
        bad = 0;
        if (!cJSON_IsObject(e) || !cJSON_IsString(tr) ||
            (strcmp(tr->valuestring, "level") && strcmp(tr->valuestring, "edge")) ||
            whole(e, "chunk", 1, 1LL << 30, &t->chunk) ||
            status(e, 1, &t->status, t->reason, sizeof t->reason))
            bad = 1;
        if (!bad) {
            t->edge = !strcmp(tr->valuestring, "edge");
            t->syscalls = num(e, "syscalls_per_event", &bad);
            t->ns_p50 = num(e, "ns_per_event_p50", &bad);
            t->ns_p90 = num(e, "ns_per_event_p90", &bad);
            t->ns_per_syscall = num(e, "ns_per_syscall_p50", &bad);
            t->n = num(e, "n", &bad);
            if (t->status == MP_CELL_OK && (isnan(t->syscalls) || isnan(t->ns_p50)))
                bad = 1;
            if (isnan(t->ns_per_syscall) && t->syscalls > 0)
                t->ns_per_syscall = t->ns_p50 / t->syscalls;
        }
        if (bad) {
            mp__rm_warn(m, "experiments.ltet.cells[%d] left out: trigger (level|edge), "
                        "chunk, syscalls_per_event or ns_per_event_p50 missing or of the "
                        "wrong type", i);
            continue;
        }
        m->exp.nltet++;
    }
}

void mp__rm_load_experiments(mp_rmodel *m)
{
    m->exp.event_bytes = NAN;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(m->root, "experiments");
    if (!x || cJSON_IsNull(x))
        return;
    if (!cJSON_IsObject(x)) {
        mp__rm_warn(m, "experiments ignored: expected an object");
        return;
    }
    static const char *names[] = {"register", "herd", "ltet"};
    void (*load[])(mp_rmodel *, const cJSON *) = {load_register, load_herd, load_ltet};
    for (size_t i = 0; i < 3; i++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(x, names[i]);
        if (!o || cJSON_IsNull(o))
            continue;
        if (!cJSON_IsObject(o)) {
            mp__rm_warn(m, "experiments.%s ignored: expected an object", names[i]);
            continue;
        }
        load[i](m, o);
    }
    const cJSON *o;
    cJSON_ArrayForEach(o, x) {
        size_t i = 0;
        while (i < 3 && strcmp(o->string, names[i]))
            i++;
        if (i == 3)
            mp__rm_load_xtable(m, o->string, o);
    }
}

void mp__rm_free_experiments(mp_rmodel *m)
{
    free(m->exp.reg);
    m->exp.reg = NULL;
    m->exp.nreg = 0;
    mp__rm_free_xtables(m);
}
