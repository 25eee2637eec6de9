/* SPDX-License-Identifier: MIT */
/* cell.c - a cell of results.json through the table of its fields; see
 * results/cell.h. */
#include "results/cell.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/stats.h"

const char *mp_cell_status_name(mp_cell_status s)
{
    switch (s) {
    case MP_CELL_OK: return "ok";
    case MP_CELL_UNSUPPORTED: return "unsupported";
    case MP_CELL_ERROR: return "error";
    default: return "not run";
    }
}

static cJSON *rlimit_json(const mp_rcell *c)
{
    cJSON *rl = cJSON_CreateObject();
    cJSON_AddNumberToObject(rl, "soft", (double)c->rl_soft);
    cJSON_AddNumberToObject(rl, "hard", (double)c->rl_hard);
    return rl;
}

static cJSON *repeat_medians_json(const mp_rcell *c)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < c->nrepeats; i++)   /* null: no sample kept in that repeat */
        cJSON_AddItemToArray(a, isnan(c->repeat_medians[i])
                                    ? cJSON_CreateNull()
                                    : cJSON_CreateNumber(c->repeat_medians[i]));
    return a;
}

/* The repeat medians are of wall_ns (ready mode: the bracket subtracted);
 * files without this field hold medians of wall_raw_ns. */
static cJSON *repeat_medians_of_json(const mp_rcell *c)
{
    (void)c;
    return cJSON_CreateString("wall_ns");
}

static cJSON *repeat_spread_json(const mp_rcell *c)
{
    double *x = malloc((c->nrepeats ? c->nrepeats : 1) * sizeof *x);
    size_t n = 0;
    mp_summary rs;
    if (!x)
        return NULL;
    for (size_t i = 0; i < c->nrepeats; i++)
        if (!isnan(c->repeat_medians[i]))
            x[n++] = c->repeat_medians[i];
    mp_summarize(x, n, &rs);
    free(x);
    cJSON *sp = cJSON_CreateObject();
    cJSON_AddNumberToObject(sp, "median", rs.p50);
    cJSON_AddNumberToObject(sp, "min", rs.min);
    cJSON_AddNumberToObject(sp, "max", rs.max);
    return sp;
}

static cJSON *ci_json(const mp_rcell *c)
{
    if (!isfinite(c->ci_lo) || !isfinite(c->ci_hi))
        return NULL;
    cJSON *ci = cJSON_CreateObject();
    cJSON_AddNumberToObject(ci, "lo", c->ci_lo);
    cJSON_AddNumberToObject(ci, "hi", c->ci_hi);
    size_t n = 0;
    for (size_t i = 0; i < c->nrepeats; i++)
        n += !isnan(c->repeat_medians[i]);
    cJSON_AddStringToObject(ci, "method", MP_CI_METHOD);
    cJSON_AddNumberToObject(ci, "level", c->ci_level);
    cJSON_AddNumberToObject(ci, "repeats", (double)n);
    return ci;
}

/* Nothing counted: null in metrics{}, never zeros; why in counters_missing{}. */
static int counted_nothing(const mp_metric *mt)
{
    return mt->is_counter && mt->s.n == 0;
}

static cJSON *metrics_json(const mp_rcell *c)
{
    cJSON *m = cJSON_CreateObject();
    for (size_t i = 0; i < c->nmetrics; i++) {
        const mp_metric *mt = &c->metrics[i];
        if (counted_nothing(mt)) {
            cJSON_AddNullToObject(m, mt->name);
            continue;
        }
        cJSON *s = mp_summary_json(&mt->s);
        if (mt->is_counter) {
            cJSON_AddStringToObject(s, "scope", mt->scope);
            cJSON_AddNumberToObject(s, "pass", mt->pass);
            cJSON_AddStringToObject(s, "read_path", mt->read_path);
            cJSON_AddStringToObject(s, "unit", mt->unit[0] ? mt->unit : "events");
            cJSON_AddNumberToObject(s, "bracket", mt->bracket);
            cJSON_AddNumberToObject(s, "dropped", (double)mt->dropped);
        }
        cJSON_AddItemToObject(m, mt->name, s);
    }
    return m;
}

static cJSON *counters_missing_json(const mp_rcell *c)
{
    cJSON *missing = NULL;
    for (size_t i = 0; i < c->nmetrics; i++) {
        const mp_metric *mt = &c->metrics[i];
        if (!counted_nothing(mt))
            continue;
        if (!missing)
            missing = cJSON_CreateObject();
        cJSON *w = cJSON_AddObjectToObject(missing, mt->name);
        cJSON_AddStringToObject(w, "reason", isnan(mt->bracket)
            ? "the empty-bracket calibration kept no sample (every read failed or the "
              "group did not run throughout)"
            : "no sample kept: every one was dropped (a read failed or the group did "
              "not run throughout the call)");
        cJSON_AddStringToObject(w, "scope", mt->scope);
        cJSON_AddNumberToObject(w, "pass", mt->pass);
        cJSON_AddNumberToObject(w, "dropped", (double)mt->dropped);
    }
    return missing;
}

static cJSON *profile_json(const mp_rcell *c)
{
    return c->profile ? cJSON_Duplicate(c->profile, 1) : NULL;
}

#define TEXT(k, absent, doc) \
    {#k, MP_RF_TEXT, absent, 0, offsetof(mp_rcell, k), sizeof ((mp_rcell *)0)->k, NULL, "", doc, 0}
#define COUNT(k, absent, cells, unit, doc) \
    {#k, MP_RF_COUNT, absent, cells, offsetof(mp_rcell, k), 0, NULL, unit, doc, 0}
#define NUMBER(k, absent, cells, unit, doc) \
    {#k, MP_RF_NUMBER, absent, cells, offsetof(mp_rcell, k), 0, NULL, unit, doc, 0}
/* A dimension of the sweep. */
#define DIM_TEXT(k, doc) \
    {#k, MP_RF_TEXT, MP_RF_ALWAYS, 0, offsetof(mp_rcell, k), sizeof ((mp_rcell *)0)->k, NULL, \
     "", doc, 1}
#define DIM_COUNT(k, cells, unit, doc) \
    {#k, MP_RF_COUNT, MP_RF_ALWAYS, cells, offsetof(mp_rcell, k), 0, NULL, unit, doc, 1}
#define OBJECT(k, absent, cells, fn, unit, doc) \
    {k, MP_RF_OBJECT, absent, cells, 0, 0, fn, unit, doc, 0}
#define OK MP_RF_OK_CELLS
#define READY (MP_RF_OK_CELLS | MP_RF_READY_CELLS)
const mp_rfield mp_rcell_fields[] = {
    DIM_TEXT(backend, "the API measured (--backends)"),
    TEXT(syscall, MP_RF_ALWAYS, "the system call the backend made"),
    DIM_TEXT(fd_kind, "what the descriptors are (--fd-kind)"),
    DIM_TEXT(mode, "ready or wakeup"),
    DIM_COUNT(nfds, 0, "fds", "descriptors watched"),
    DIM_COUNT(active, 0, "fds", "descriptors ready at once (--active)"),
    DIM_COUNT(wake_delay_ns, MP_RF_WAKEUP_CELLS, "ns",
          "wakeup: how long the waiter had slept before the poke (--wake-delay); absent in "
          "ready cells, and in older files, whose wakeup cells read as 0"),
    {"status", MP_RF_STATUS, MP_RF_ALWAYS, 0, offsetof(mp_rcell, status), 0, NULL, "",
     "ok, unsupported or error", 0},
    TEXT(reason, MP_RF_NULL_EMPTY, "why a cell is not ok; null when it is"),
    COUNT(fd_lo, MP_RF_WITH_FDS, 0, "", "lowest descriptor number of the set"),
    COUNT(fd_hi, MP_RF_WITH_FDS, 0, "", "highest descriptor number of the set"),
    COUNT(ready_fd, MP_RF_WITH_FDS, 0, "", "the descriptor made ready"),
    DIM_TEXT(fd_table, "private or shared (--fd-table)"),
    COUNT(process_threads, MP_RF_NULL_NONPOS, 0, "threads",
          "most threads of the measuring process at the timed blocks; null: unread"),
    COUNT(watch_sets, MP_RF_NULL_NEG, 0, "sets",
          "epoll/io_uring instances open at the first timed block"),
    OBJECT("rlimit_nofile", MP_RF_ALWAYS, 0, rlimit_json, "fds",
           "RLIMIT_NOFILE during the cell: {soft, hard}"),
    COUNT(samples_kept, MP_RF_ALWAYS, OK, "samples", "wall-time samples in metrics.wall_ns"),
    COUNT(samples_discarded, MP_RF_ALWAYS, OK, "samples",
          "wakeup: samples whose waiter was not asleep when poked"),
    COUNT(samples_stopped, MP_RF_ALWAYS, OK, "samples",
          "kept samples during which the process was stopped"),
    COUNT(samples_preempted, MP_RF_NULL_NEG, OK, "samples",
          "wakeup: kept samples in which the waiter was preempted; ready: null"),
    OBJECT("repeat_medians_ns", MP_RF_ALWAYS, OK, repeat_medians_json, "ns",
           "the median of each repeat, of the samples wall_ns summarises; null: no sample "
           "kept in it"),
    OBJECT("repeat_medians_of", MP_RF_ALWAYS, OK, repeat_medians_of_json, "",
           "\"wall_ns\": the repeat medians are on wall_ns's scale; absent in older files, "
           "whose repeat medians are of wall_raw_ns"),
    OBJECT("repeat_spread_ns", MP_RF_ALWAYS, OK, repeat_spread_json, "ns",
           "{median, min, max} of the repeat medians"),
    OBJECT("wall_p50_ci95_ns", MP_RF_IF_ANY, OK, ci_json, "ns",
           "interval of wall_ns's median from the repeat medians (order statistics): "
           "{lo, hi, method, level, repeats}; level is its coverage"),
    NUMBER(empty_bracket_ns, MP_RF_NULL_NAN, READY, "ns",
           "ready: the empty clock bracket subtracted from each sample"),
    NUMBER(bare_loop_ns, MP_RF_ALWAYS, READY, "ns",
           "ready: ns per call in a tight loop (median over repeats)"),
    NUMBER(bare_loop_mean_ns, MP_RF_ALWAYS, READY, "ns",
           "ready: the same, all loops' mean"),
    OBJECT("metrics", MP_RF_ALWAYS, OK, metrics_json, "",
           "a <summary> per metric: wall_ns, wall_raw_ns, waiter_ns, counters"),
    OBJECT("counters_missing", MP_RF_IF_ANY, OK, counters_missing_json, "",
           "counters that counted nothing: {reason, scope, pass, dropped}"),
    OBJECT("profile", MP_RF_IF_ANY, OK, profile_json, "", "--profile: where the time went"),
};
#undef TEXT
#undef COUNT
#undef NUMBER
#undef OBJECT
#undef DIM_TEXT
#undef DIM_COUNT
#undef OK
#undef READY
const size_t mp_nrcell_fields = sizeof mp_rcell_fields / sizeof mp_rcell_fields[0];

static int holds(const mp_rfield *f, const mp_rcell *c)
{
    if ((f->cells & MP_RF_OK_CELLS) && c->status != MP_CELL_OK)
        return 0;
    if ((f->cells & MP_RF_READY_CELLS) && strcmp(c->mode, "ready"))
        return 0;
    if ((f->cells & MP_RF_WAKEUP_CELLS) && strcmp(c->mode, "wakeup"))
        return 0;
    return f->absent != MP_RF_WITH_FDS || c->fd_lo >= 0;
}

static void put_field(cJSON *o, const mp_rfield *f, const mp_rcell *c)
{
    const char *at = (const char *)c + f->off;
    long long n = f->type == MP_RF_COUNT ? *(const long long *)at : 0;
    double x = f->type == MP_RF_NUMBER ? *(const double *)at : 0;
    switch (f->type) {
    case MP_RF_TEXT:
        if (f->absent == MP_RF_NULL_EMPTY && !*at)
            cJSON_AddNullToObject(o, f->key);
        else
            cJSON_AddStringToObject(o, f->key, at);
        return;
    case MP_RF_STATUS:
        cJSON_AddStringToObject(o, f->key, mp_cell_status_name(*(const int *)at));
        return;
    case MP_RF_COUNT:
        if ((f->absent == MP_RF_NULL_NEG && n < 0) || (f->absent == MP_RF_NULL_NONPOS && n <= 0))
            cJSON_AddNullToObject(o, f->key);
        else
            cJSON_AddNumberToObject(o, f->key, (double)n);
        return;
    case MP_RF_NUMBER:
        if (f->absent == MP_RF_NULL_NAN && isnan(x))
            cJSON_AddNullToObject(o, f->key);
        else
            cJSON_AddNumberToObject(o, f->key, x);
        return;
    case MP_RF_OBJECT: {
        cJSON *v = f->object(c);
        if (v)
            cJSON_AddItemToObject(o, f->key, v);
        return;
    }
    }
}

cJSON *mp_rcell_json(const mp_rcell *c)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < mp_nrcell_fields; i++)
        if (holds(&mp_rcell_fields[i], c))
            put_field(o, &mp_rcell_fields[i], c);
    return o;
}

static int named(const char *key, const char *const *keys, size_t nkeys)
{
    for (size_t i = 0; i < nkeys; i++)
        if (!strcmp(key, keys[i]))
            return 1;
    return 0;
}

cJSON *mp_rcell_json_of(const mp_rcell *c, const char *const *keys, size_t nkeys)
{
    cJSON *all = mp_rcell_json(c), *o = cJSON_CreateObject();
    if (!all || !o) {
        cJSON_Delete(all);
        cJSON_Delete(o);
        return NULL;
    }
    for (size_t i = 0; i < mp_nrcell_fields; i++) {
        const char *key = mp_rcell_fields[i].key;
        cJSON *v = named(key, keys, nkeys) ? cJSON_DetachItemFromObjectCaseSensitive(all, key)
                                          : NULL;
        if (v)
            cJSON_AddItemToObject(o, key, v);
    }
    cJSON_Delete(all);
    return o;
}

void mp_rcell_read(const cJSON *o, mp_rcell *c)
{
    for (size_t i = 0; i < mp_nrcell_fields; i++) {
        const mp_rfield *f = &mp_rcell_fields[i];
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, f->key);
        char *at = (char *)c + f->off;
        switch (f->type) {
        case MP_RF_TEXT:
            snprintf(at, f->len, "%s", cJSON_IsString(j) ? j->valuestring : "");
            break;
        case MP_RF_COUNT:
            *(long long *)at = cJSON_IsNumber(j) && isfinite(j->valuedouble) &&
                                       fabs(j->valuedouble) < 1e18
                                   ? (long long)j->valuedouble : -1;
            break;
        case MP_RF_NUMBER:
            *(double *)at = cJSON_IsNumber(j) ? j->valuedouble : NAN;
            break;
        case MP_RF_STATUS:
            *(int *)at = MP_CELL_PENDING;
            for (int s = MP_CELL_OK; s <= MP_CELL_ERROR; s++)
                if (cJSON_IsString(j) && !strcmp(j->valuestring, mp_cell_status_name(s)))
                    *(int *)at = s;
            break;
        case MP_RF_OBJECT:   /* the reader checks those it uses */
            break;
        }
    }
    /* A wakeup cell of a file from before --wake-delay was poked as soon as
     * the waiter slept: delay 0. */
    if (!strcmp(c->mode, "wakeup") && c->wake_delay_ns < 0)
        c->wake_delay_ns = 0;
    const cJSON *p50 = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "metrics"),
                                         "wall_ns"), "p50");
    c->wall.p50 = cJSON_IsNumber(p50) ? p50->valuedouble : NAN;
}

const char *mp_metric_unit(const char *name, const cJSON *m)
{
    static const char *const units[] = {"ns", "events"};
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(m, "unit");
    for (size_t i = 0; cJSON_IsString(u) && i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(u->valuestring, units[i]))
            return units[i];
    if (!strncmp(name, "poker:", 6))
        name += 6;
    static const char *const ns[] = {"wall_ns", "wall_raw_ns", "waiter_ns", "task-clock",
                                     "cpu-clock"};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        if (!strcmp(name, ns[i]))
            return "ns";
    return "events";
}
