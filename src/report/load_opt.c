/* SPDX-License-Identifier: MIT */
/* load_opt.c - the optional parts of results.json: "topology" (line
 * size, caches), "counters" (what was opened or refused, and why) and the
 * per-cell "profile" objects.  Whatever does not fit the schema is left out
 * with a warning in the model, never fatal.  See report/model.h. */
#include "report/model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "report/internal.h"
#include "results/counters.h"
#include "results/profile.h"

int mp__rm_check_profile(mp_rmodel *m, const cJSON *p, const char *field)
{
    static const char *lists[] = {"functions", "phases"};
    static const char *names[] = {"name", "phase"};
    if (!cJSON_IsObject(p))
        goto drop;
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(p, "samples");
    if (samples && (!cJSON_IsNumber(samples) || !isfinite(samples->valuedouble)))
        goto drop;
    for (int l = 0; l < 2; l++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, lists[l]);
        if (!a)
            continue;
        if (!cJSON_IsArray(a))
            goto drop;
        const cJSON *e;
        cJSON_ArrayForEach(e, a) {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, names[l]);
            const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "share");
            const cJSON *ns = cJSON_GetObjectItemCaseSensitive(e, "ns_per_call");
            if (!cJSON_IsString(nm) || !cJSON_IsNumber(sh) || !isfinite(sh->valuedouble) ||
                (ns && !cJSON_IsNull(ns) &&
                 (!cJSON_IsNumber(ns) || !isfinite(ns->valuedouble))))
                goto drop;
        }
    }
    return 1;
drop:
    mp__rm_warn(m, "%s ignored: it does not follow the profile schema", field);
    return 0;
}

int mp__rm_load_profiles(mp_rmodel *m)
{
    m->profiles = calloc(m->ncells ? m->ncells : 1, sizeof *m->profiles);
    if (!m->profiles)
        return -ENOMEM;
    for (size_t i = 0; i < m->ncells; i++)
        if (m->cells[i].profile && mp_rprofile_read(m->cells[i].profile, &m->profiles[i]) < 0)
            return -ENOMEM;
    return 0;
}

/* The entries of a as numbers, NaN for one that is not; *ok 1 when a is
 * an array (the entries of another container are read all the same). */
static int read_numbers(const cJSON *a, double **out, size_t *n, int *ok)
{
    const cJSON *e;
    *ok = cJSON_IsArray(a);
    int size = cJSON_GetArraySize(a);
    if (size <= 0)
        return 0;
    if (!(*out = calloc((size_t)size, sizeof **out)))
        return -ENOMEM;
    cJSON_ArrayForEach(e, a)
        (*out)[(*n)++] = cJSON_IsNumber(e) ? e->valuedouble : NAN;
    return 0;
}

const char *const mp_rcanary_keys[MP_RCANARY_N] = {"syscall_ns", "l1_ns", "llc_ns"};

int mp__rm_load_noise(mp_rmodel *m)
{
    mp_rnoise *x = &m->noise;
    const cJSON *o = m->context.noise, *e;
    static const char *const load[2] = {"loadavg_start", "loadavg_end"};
    for (int k = 0; k < MP_RCANARY_N; k++)
        x->canary[k] = x->canary_spread[k] = NAN;
    x->present = cJSON_IsObject(o);
    if (!x->present)
        return 0;
    const cJSON *warn = cJSON_GetObjectItemCaseSensitive(o, "warnings");
    const cJSON *mit = cJSON_GetObjectItemCaseSensitive(o, "mitigations");
    int nw = cJSON_GetArraySize(warn), nm = cJSON_GetArraySize(mit);
    x->warnings = calloc(nw > 0 ? (size_t)nw : 1, sizeof *x->warnings);
    x->vuln = calloc(nm > 0 ? (size_t)nm : 1, sizeof *x->vuln);
    x->vuln_state = calloc(nm > 0 ? (size_t)nm : 1, sizeof *x->vuln_state);
    if (!x->warnings || !x->vuln || !x->vuln_state)
        return -ENOMEM;
    cJSON_ArrayForEach(e, warn)
        if (cJSON_IsString(e))
            x->warnings[x->nwarnings++] = e->valuestring;
    for (int k = 0; k < 2; k++)
        if (read_numbers(cJSON_GetObjectItemCaseSensitive(o, load[k]), &x->loadavg[k],
                         &x->nloadavg[k], &x->loadavg_ok[k]) < 0)
            return -ENOMEM;
    x->steal_share = mp_json_num(o, "steal_share", NAN);
    x->busy_share = mp_json_num(o, "busy_share", NAN);
    x->cpu_mhz_source = mp_json_str(o, "cpu_mhz_source", "?");
    if (read_numbers(cJSON_GetObjectItemCaseSensitive(o, "cpu_mhz"), &x->cpu_mhz,
                     &x->ncpu_mhz, &x->cpu_mhz_ok) < 0)
        return -ENOMEM;
    const cJSON *can = cJSON_GetObjectItemCaseSensitive(o, "canary");
    const cJSON *med = cJSON_GetObjectItemCaseSensitive(can, "median");
    const cJSON *spr = cJSON_GetObjectItemCaseSensitive(can, "spread");
    for (int k = 0; k < MP_RCANARY_N; k++) {
        x->canary[k] = mp_json_num(med, mp_rcanary_keys[k], NAN);
        x->canary_spread[k] = mp_json_num(spr, mp_rcanary_keys[k], NAN);
        if (!(x->canary[k] > 0))
            x->canary[k] = NAN;
    }
    int np = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(can, "passes"));
    x->canary_passes = np > 0 ? (size_t)np : 0;
    x->mitigations_ok = cJSON_IsObject(mit);
    cJSON_ArrayForEach(e, mit)
        if (cJSON_IsString(e)) {
            x->vuln[x->nvuln] = e->string;
            x->vuln_state[x->nvuln++] = e->valuestring;
        }
    return 0;
}

void mp__rm_free_noise(mp_rmodel *m)
{
    mp_rnoise *x = &m->noise;
    free(x->warnings);
    free(x->loadavg[0]);
    free(x->loadavg[1]);
    free(x->cpu_mhz);
    free(x->vuln);
    free(x->vuln_state);
}

/* Metric e of an entry into x; missing: the entry's counters_missing. */
static void metric_of(const cJSON *e, const cJSON *missing, mp_rall_metric *x)
{
    const cJSON *info = cJSON_IsNull(e) ? cJSON_GetObjectItemCaseSensitive(missing, e->string) : e;
    x->name = e->string;
    x->counter = cJSON_IsNull(e) || cJSON_GetObjectItemCaseSensitive(e, "scope");
    x->counted = !cJSON_IsNull(e);
    x->scope = mp_json_str(info, "scope", "?");
    x->dropped = mp_json_num(info, "dropped", 0);
    x->read_path = mp_json_str(e, "read_path", NULL);
    x->max = mp_json_num(e, "max", NAN);
}

int mp__rm_load_all_metrics(mp_rmodel *m, const cJSON *results)
{
    const cJSON *c, *e;
    size_t n = 0, cell = 0;
    cJSON_ArrayForEach(c, results)
        n += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "metrics"));
    if (!(m->all_metrics = calloc(n ? n : 1, sizeof *m->all_metrics)))
        return -ENOMEM;
    cJSON_ArrayForEach(c, results) {
        const cJSON *missing = cJSON_GetObjectItemCaseSensitive(c, "counters_missing");
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "metrics"))
            if (e->string && m->nall_metrics < n) {
                mp_rall_metric *x = &m->all_metrics[m->nall_metrics++];
                metric_of(e, missing, x);
                x->cell = cell;
            }
        cell++;
    }
    return 0;
}

static double number_at(const cJSON *o, const char *key)
{
    return mp_json_num(o, key, NAN);
}

static int read_sim_fns(const cJSON *cell, mp_rsim_fns *x)
{
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(cell, "sim_functions");
    const cJSON *fns = cJSON_GetObjectItemCaseSensitive(sf, "functions"), *e;
    const cJSON *chk = cJSON_GetObjectItemCaseSensitive(sf, "mapping_check");
    x->present = sf != NULL;
    x->l1d_share = number_at(sf, "attributed_L1d_share");
    x->checked = number_at(chk, "instructions");
    x->agree = number_at(chk, "agree");
    x->other_core_l1d = number_at(cJSON_GetObjectItemCaseSensitive(cell, "sim_other_core"),
                                  "L1d-misses");
    if (!cJSON_IsArray(fns) || !(x->nentries = (size_t)cJSON_GetArraySize(fns)))
        return 0;
    if (!(x->fns = calloc(x->nentries, sizeof *x->fns)))
        return -ENOMEM;
    cJSON_ArrayForEach(e, fns) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(name))
            x->fns[x->nfns++] = (mp_rsim_fn){name->valuestring, number_at(e, "L1d-misses"),
                                             number_at(e, "L2-misses"), number_at(e, "L1i-misses"),
                                             number_at(e, "LLC-load-misses")};
    }
    return 0;
}

int mp__rm_load_sim_fns(mp_rmodel *m)
{
    if (!(m->sim_fns = calloc(m->ncells ? m->ncells : 1, sizeof *m->sim_fns)))
        return -ENOMEM;
    for (size_t i = 0; i < m->ncells; i++)
        if (read_sim_fns(m->cells[i].json, &m->sim_fns[i]) < 0)
            return -ENOMEM;
    return 0;
}

void mp__rm_load_topology(mp_rmodel *m)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(m->root, "topology");
    m->line_bytes = 64;
    if (!t)
        return;
    if (!cJSON_IsObject(t)) {
        mp__rm_warn(m, "topology ignored: expected an object");
        return;
    }
    m->topology = t;
    const cJSON *lb = cJSON_GetObjectItemCaseSensitive(t, "line_bytes");
    if (cJSON_IsNumber(lb) && lb->valuedouble >= 8 && lb->valuedouble <= 4096 &&
        lb->valuedouble == floor(lb->valuedouble)) {
        m->line_bytes = (unsigned)lb->valuedouble;
        m->line_known = 1;
    } else if (lb && !cJSON_IsNull(lb)) {
        mp__rm_warn(m, "topology.line_bytes ignored: not a whole number from 8 to 4096; "
             "64-byte lines assumed");
    }
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(t, "caches");
    if (!cs)
        return;
    if (!cJSON_IsArray(cs)) {
        mp__rm_warn(m, "topology.caches ignored: expected an array");
        return;
    }
    const cJSON *c;
    size_t i = 0;
    cJSON_ArrayForEach(c, cs) {
        const cJSON *lv = cJSON_GetObjectItemCaseSensitive(c, "level");
        const cJSON *sz = cJSON_GetObjectItemCaseSensitive(c, "size_bytes");
        if (!sz)
            sz = cJSON_GetObjectItemCaseSensitive(c, "size");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(c, "type");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(c, "name");
        i++;
        if (!cJSON_IsNumber(lv) || lv->valuedouble < 1 || lv->valuedouble > 5 ||
            !cJSON_IsNumber(sz) || !(sz->valuedouble >= 64) || sz->valuedouble > 1e13) {
            mp__rm_warn(m, "topology.caches[%zu] ignored: needs a level 1..5 and a size in bytes",
                 i - 1);
            continue;
        }
        if (cJSON_IsString(ty) && (strstr(ty->valuestring, "instr") ||
                                   !strcmp(ty->valuestring, "i")))
            continue;
        int level = (int)lv->valuedouble;
        int dup = 0;
        for (size_t k = 0; k < m->ncaches; k++)
            dup |= m->caches[k].level == level;
        if (dup || m->ncaches >= MP_RM_MAX_CACHES)
            continue;
        mp_rcache *d = &m->caches[m->ncaches++];
        d->level = level;
        d->bytes = (unsigned long long)sz->valuedouble;
        if (cJSON_IsString(nm) && strlen(nm->valuestring) < sizeof d->name &&
            mp__rm_safe_name(nm->valuestring))
            snprintf(d->name, sizeof d->name, "%s", nm->valuestring);
        else
            snprintf(d->name, sizeof d->name, "L%d%s", level, level == 1 ? "d" : "");
    }
    /* sort by level */
    for (size_t a = 1; a < m->ncaches; a++)
        for (size_t b = a; b > 0 && m->caches[b].level < m->caches[b - 1].level; b--) {
            mp_rcache tmp = m->caches[b];
            m->caches[b] = m->caches[b - 1];
            m->caches[b - 1] = tmp;
        }
}

static void str_field(const cJSON *o, const char *key, char *dst, size_t len)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(j))
        snprintf(dst, len, "%s", j->valuestring);
}

/* s into dst, "" when NULL. */
static void put(char *dst, size_t len, const char *s)
{
    snprintf(dst, len, "%s", s ? s : "");
}

void mp__rm_load_counters(mp_rmodel *m)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(m->root, "counters");
    if (!c)
        return;
    if (!cJSON_IsObject(c)) {
        mp__rm_warn(m, "counters ignored: expected an object");
        return;
    }
    m->has_counters = 1;
    mp_rcounters rc;
    mp_rcounters_read(c, &rc);
    put(m->counters_preset, sizeof m->counters_preset, rc.preset);
    put(m->counters_scope, sizeof m->counters_scope, rc.scope);
    m->counters_preset_file = rc.preset_file;
    put(m->counters_note, sizeof m->counters_note, rc.note);
    if (!m->counters_note[0])
        put(m->counters_note, sizeof m->counters_note, rc.scope_note);
    if (!m->counters_note[0])   /* the first files' name for it */
        str_field(c, "reason", m->counters_note, sizeof m->counters_note);
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(c, "events");
    if (!ev)
        return;
    if (!cJSON_IsArray(ev)) {
        mp__rm_warn(m, "counters.events ignored: expected an array");
        return;
    }
    int n = cJSON_GetArraySize(ev);
    m->counters = calloc(n > 0 ? (size_t)n : 1, sizeof *m->counters);
    if (!m->counters)
        return;
    mp_rcounter_event *x = calloc(n > 0 ? (size_t)n : 1, sizeof *x);
    if (!x)
        return;
    const cJSON *e;
    size_t i = 0;
    cJSON_ArrayForEach(e, ev)
        mp_rcounter_event_read(e, &x[i++]);
    for (i = 0; i < (size_t)n; i++) {
        if (!x[i].name) {
            mp__rm_warn(m, "counters.events[%zu] ignored: no \"name\" string", i);
            continue;
        }
        e = cJSON_GetArrayItem(ev, (int)i);
        mp_rcounter *d = &m->counters[m->ncounters++];
        snprintf(d->name, sizeof d->name, "%s", x[i].name);
        /* the first files said "available": true or false instead of a status */
        const cJSON *av = cJSON_GetObjectItemCaseSensitive(e, "available");
        d->opened = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "status"))
                        ? x[i].opened == 1 : cJSON_IsBool(av) ? cJSON_IsTrue(av) : 0;
        put(d->reason, sizeof d->reason, x[i].reason);
        d->cpu_wide = x[i].cpu_wide;
        d->encoding = x[i].encoding;
        for (size_t k = 0; k < (size_t)n && !d->cpu_scope; k++)   /* the first of its name */
            if (x[k].name && !strcmp(x[k].name, x[i].name))
                d->cpu_scope = x[k].cpu_scope;
    }
    free(x);
}
