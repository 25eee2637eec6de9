/* SPDX-License-Identifier: MIT */
/* json.c - `muxprof compare --json`: the inputs and every shared cell with
 * each input's median and the change against the first input, as one JSON
 * object (docs/json-output.md).  Missing numbers are null with a reason. */
#include "compare/internal.h"

#include <math.h>
#include <string.h>

static void num_or_null(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *inputs(const mp_cmp *c)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < c->n; i++) {
        const mp_cmp_host *h = &c->h[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", h->label);
        cJSON_AddStringToObject(o, "machine", h->machine);
        cJSON_AddStringToObject(o, "argument", h->arg);
        cJSON_AddStringToObject(o, "file", h->m.shown);
        cJSON_AddBoolToObject(o, "reference", h->reference);
        cJSON_AddBoolToObject(o, "builtin", h->builtin);
        /* the host's canary medians, and against the first input's */
        cJSON *can = cJSON_AddObjectToObject(o, "canary");
        mp_cmp_level lvl;
        mp_cmp_level_of(c, i, &lvl);
        for (int k = 0; k < MP_RCANARY_N; k++)
            num_or_null(can, mp_rcanary_keys[k], h->m.noise.canary[k]);
        cJSON *lv = cJSON_AddObjectToObject(can, "ratio_to_first");
        for (int k = 0; k < MP_RCANARY_N; k++)
            num_or_null(lv, mp_rcanary_keys[k], i ? lvl.ratio[k] : (lvl.known ? 1 : NAN));
        cJSON_AddBoolToObject(can, "level_differs", i && lvl.differs);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *cell(const mp_cmp *c, const mp_cmp_group *g, const char *b, long long n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "mode", g->mode);
    cJSON_AddStringToObject(o, "fd_kind", g->kind);
    cJSON_AddStringToObject(o, "backend", b);
    cJSON_AddNumberToObject(o, "nfds", (double)n);
    cJSON *med = cJSON_AddArrayToObject(o, "median_ns");
    cJSON *why = cJSON_AddArrayToObject(o, "reason");
    for (size_t i = 0; i < c->n; i++) {
        const mp_rcell *x = mp_cmp_cell(&c->h[i], g->mode, g->kind, b, n);
        if (x && x->status == MP_CELL_OK) {
            cJSON_AddItemToArray(med, cJSON_CreateNumber(x->wall.p50));
            cJSON_AddItemToArray(why, cJSON_CreateNull());
            continue;
        }
        char r[600];
        snprintf(r, sizeof r, "%s%s%s", !x ? "not measured" : x->status == MP_CELL_UNSUPPORTED
                 ? "unsupported" : "error", x && x->reason[0] ? ": " : "", x ? x->reason : "");
        cJSON_AddItemToArray(med, cJSON_CreateNull());
        cJSON_AddItemToArray(why, cJSON_CreateString(r));
    }
    cJSON *sim = mp__cmp_sim_json(c, g, b, n);
    if (sim)   /* simulated inputs: their counts per call (p50), no times */
        cJSON_AddItemToObject(o, "simulated", sim);
    cJSON *chg = cJSON_AddArrayToObject(o, "change");
    for (size_t i = 1; i < c->n; i++) {
        mp_cmp_change ch;
        mp_cmp_change_of(c, i, g, b, n, &ch);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "input", (double)i + 1);
        num_or_null(e, "change_pct", ch.pct);
        int testable = isfinite(ch.p);
        cJSON_AddBoolToObject(e, "testable", testable);
        num_or_null(e, "p_value", ch.p);
        cJSON_AddStringToObject(e, "verdict", mp_cmp_verdict_name(ch.verdict));
        if (testable) {
            num_or_null(e, "ratio", ch.ratio);
            cJSON *ci = cJSON_AddObjectToObject(e, "ratio_ci");
            num_or_null(ci, "lo", ch.ratio_lo);
            num_or_null(ci, "hi", ch.ratio_hi);
            num_or_null(ci, "level", ch.ratio_level);
            cJSON_AddNumberToObject(e, "min_effect_pct", ch.min_effect * 100);
            num_or_null(e, "could_show_slower_pct", ch.could_up);
            num_or_null(e, "could_show_faster_pct", ch.could_down);
            cJSON_AddNumberToObject(e, "repeats_first", (double)ch.n_base);
            cJSON_AddNumberToObject(e, "repeats_this", (double)ch.n_value);
            cJSON_AddBoolToObject(e, "significant", ch.significant);
            if (ch.why[0])
                cJSON_AddStringToObject(e, "reason", ch.why);
            else
                cJSON_AddNullToObject(e, "reason");
        } else {
            cJSON_AddNullToObject(e, "significant");
            cJSON_AddStringToObject(e, "reason", ch.why);
        }
        cJSON_AddItemToArray(chg, e);
    }
    return o;
}

cJSON *mp_cmp_json(const mp_cmp *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "inputs", inputs(c));
    cJSON *t = cJSON_AddObjectToObject(o, "test");
    cJSON_AddStringToObject(t, "name", "permutation test, two-sided, of the mean log repeat "
                            "median (exact up to 200,000 splits); ratio interval "
                            "Hodges-Lehmann over the repeat medians");
    cJSON_AddNumberToObject(t, "alpha", MP_CMP_ALPHA);
    cJSON_AddNumberToObject(t, "min_repeats", MP_CMP_MIN_REPEATS);
    /* pooled inputs: the replicates are runs (compare --pool) */
    cJSON_AddStringToObject(t, "replicate", c->h[0].pooled ? "run" : "repeat");
    cJSON_AddNumberToObject(t, "runs_per_input", c->h[0].pooled ? (double)c->h[0].pooled : 1);
    cJSON_AddNumberToObject(t, "min_effect_pct", MP_CMP_MIN_EFFECT * 100);
    cJSON_AddNumberToObject(t, "host_level_min_pct", MP_CMP_LEVEL_MIN * 100);
    cJSON *cells = cJSON_AddArrayToObject(o, "cells");
    mp_cmp_group g[64];
    size_t ng = mp_cmp_groups(c, g, 64);
    for (size_t i = 0; i < ng && i < 64; i++) {
        char be[16][32];
        size_t nb = mp_cmp_backends(c, &g[i], be, 16);
        for (size_t b = 0; b < nb && b < 16; b++) {
            long long sh[MP_CMP_MAXPTS];
            size_t ns = mp_cmp_shared_n(c, &g[i], be[b], sh, MP_CMP_MAXPTS);
            for (size_t k = 0; k < ns && k < MP_CMP_MAXPTS; k++)
                cJSON_AddItemToArray(cells, cell(c, &g[i], be[b], sh[k]));
        }
    }
    return o;
}
