/* profile_agg.c - samples -> a cell's "profile" object: counts per kernel
 * function and per phase, the user share, and the ns per call they stand
 * for (share x the cell's wall p50).
 *
 * A sample is charged to the function holding its IP (self time).  Its
 * phase is that function's phase in the phase file; a generic helper
 * (phase "=caller": locks, thunks, allocators) is charged to the nearest
 * caller in the kernel callchain that has a phase, and to "other" when the
 * walk meets an unclassified function first (an interrupt, for example,
 * must not be charged to the syscall it interrupted).
 */
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringbuf.h"

#define UNKNOWN ((size_t)-1)
#define MAX_PH 16

typedef struct slot {
    size_t sym;      /* index in the ksyms table, UNKNOWN for unresolved IPs */
    uint64_t count;
    int used;
} slot;

struct mp_profile_agg {
    const mp_ksyms *k;
    const mp_phases *ph;
    slot *tab;
    size_t cap, used;
    uint64_t total, user, phase[MAX_PH];
};

mp_profile_agg *mp_profile_agg_new(const mp_ksyms *k, const mp_phases *ph)
{
    mp_profile_agg *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->k = k;
    a->ph = ph;
    a->cap = 1024;
    a->tab = calloc(a->cap, sizeof *a->tab);
    if (!a->tab) {
        free(a);
        return NULL;
    }
    return a;
}

void mp_profile_agg_free(mp_profile_agg *a)
{
    if (!a)
        return;
    free(a->tab);
    free(a);
}

static slot *find_slot(slot *tab, size_t cap, size_t sym)
{
    size_t h = (sym * 0x9E3779B97F4A7C15ull) & (cap - 1);
    while (tab[h].used && tab[h].sym != sym)
        h = (h + 1) & (cap - 1);
    return &tab[h];
}

static void count_function(mp_profile_agg *a, size_t sym)
{
    if ((a->used + 1) * 10 > a->cap * 7) {   /* grow at 70% */
        size_t cap = a->cap * 2;
        slot *t = calloc(cap, sizeof *t);
        if (!t)
            return;   /* keep counting phases; this function goes uncounted */
        for (size_t i = 0; i < a->cap; i++)
            if (a->tab[i].used)
                *find_slot(t, cap, a->tab[i].sym) = a->tab[i];
        free(a->tab);
        a->tab = t;
        a->cap = cap;
    }
    slot *s = find_slot(a->tab, a->cap, sym);
    if (!s->used) {
        s->used = 1;
        s->sym = sym;
        a->used++;
    }
    s->count++;
}

/* Phase of a function name; MP_PHASE_CALLER for helpers, "other" for the rest. */
static int phase_of(const mp_profile_agg *a, const char *fn)
{
    unsigned other = mp_phases_count(a->ph) - 1;
    if (!fn)
        return (int)other;
    int p = mp_phases_match(a->ph, fn);
    return p == -1 ? (int)other : p;
}

void mp_profile_agg_add(mp_profile_agg *a, int user, uint64_t ip, const uint64_t *chain,
                        size_t nchain)
{
    a->total++;
    if (user) {
        a->user++;
        return;
    }
    size_t sym = UNKNOWN;
    const char *fn = mp_ksyms_lookup(a->k, ip, &sym);
    count_function(a, fn ? sym : UNKNOWN);
    if (!a->ph)
        return;
    unsigned other = mp_phases_count(a->ph) - 1;
    int p = phase_of(a, fn);
    if (p == MP_PHASE_CALLER) {
        p = (int)other;
        int skip_leaf = 1;
        for (size_t i = 0; i < nchain; i++) {
            uint64_t e = chain[i];
            if (e == MP_RB_CONTEXT_USER)
                break;
            if (e >= MP_RB_CONTEXT_MAX)
                continue;
            if (skip_leaf) {          /* the first entry is the sample's own IP */
                skip_leaf = 0;
                if (e == ip)
                    continue;
            }
            /* A return address points after the call: look up e - 1. */
            int q = phase_of(a, mp_ksyms_lookup(a->k, e - 1, NULL));
            if (q == MP_PHASE_CALLER)
                continue;
            int o = mp_phases_match_under(a->ph, fn, q);
            p = o >= 0 ? o : q;
            break;
        }
    }
    if ((unsigned)p < MAX_PH)
        a->phase[p]++;
}

uint64_t mp_profile_agg_samples(const mp_profile_agg *a)
{
    return a->total;
}

static int cmp_count_desc(const void *x, const void *y)
{
    const slot *a = x, *b = y;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    return (a->sym > b->sym) - (a->sym < b->sym);
}

static void add_share(cJSON *o, double share, double ns_per_call)
{
    cJSON_AddNumberToObject(o, "share", share);
    if (isfinite(ns_per_call) && ns_per_call >= 0)
        cJSON_AddNumberToObject(o, "ns_per_call", share * ns_per_call);
    else
        cJSON_AddNullToObject(o, "ns_per_call");
}

cJSON *mp_profile_agg_json(const mp_profile_agg *a, const mp_profile_info *in)
{
    cJSON *o = cJSON_CreateObject();
    const char *hidden = a->k ? mp_ksyms_hidden(a->k)
                              : in->symbols_error ? in->symbols_error : "no kernel symbol table";
    double tot = (double)a->total;
    cJSON_AddStringToObject(o, "event", in->event ? in->event : "cpu-clock");
    if (in->period)
        cJSON_AddNumberToObject(o, "period", (double)in->period);
    cJSON_AddStringToObject(o, "scope", in->scope ? in->scope : "user+kernel");
    cJSON_AddNumberToObject(o, "samples", tot);
    cJSON_AddNumberToObject(o, "lost", (double)in->lost);
    if (in->truncated)
        cJSON_AddNumberToObject(o, "truncated", (double)in->truncated);
    cJSON_AddNumberToObject(o, "calls", (double)in->calls);
    /* "calls": only samples taken inside a call's bracket were kept;
     * "blocks": the harness between calls is in the samples too. */
    cJSON_AddStringToObject(o, "window", in->windowed ? "calls" : "blocks");
    if (in->windowed)
        cJSON_AddNumberToObject(o, "outside_calls", (double)in->outside);
    if (isfinite(in->ns_per_call))
        cJSON_AddNumberToObject(o, "wall_p50_ns", in->ns_per_call);
    if (in->period && in->calls && in->event && !strcmp(in->event, "cpu-clock"))
        cJSON_AddNumberToObject(o, "on_cpu_ns_per_call",
                                tot * (double)in->period / (double)in->calls);
    if (hidden) {
        char b[512];
        snprintf(b, sizeof b, "hidden: %s", hidden);
        cJSON_AddStringToObject(o, "symbols", b);
    } else {
        cJSON_AddStringToObject(o, "symbols", "kallsyms");
    }
    if (in->note)
        cJSON_AddStringToObject(o, "note", in->note);
    if (!a->total) {
        cJSON_AddNullToObject(o, "user_share");
        cJSON_AddArrayToObject(o, "functions");
        cJSON_AddArrayToObject(o, "phases");
        return o;
    }
    cJSON_AddNumberToObject(o, "user_share", (double)a->user / tot);
    cJSON_AddNumberToObject(o, "kernel_share", (double)(a->total - a->user) / tot);

    cJSON *fa = cJSON_AddArrayToObject(o, "functions");
    cJSON *pa = cJSON_AddArrayToObject(o, "phases");
    if (hidden)
        return o;   /* no attribution without addresses: say so, do not guess */
    slot *s = malloc(sizeof *s * (a->used ? a->used : 1));
    size_t n = 0;
    for (size_t i = 0; s && i < a->cap; i++)
        if (a->tab[i].used)
            s[n++] = a->tab[i];
    if (s)
        qsort(s, n, sizeof *s, cmp_count_desc);
    for (size_t i = 0; s && i < n && i < MP_PROFILE_TOP; i++) {
        cJSON *f = cJSON_CreateObject();
        const char *name = s[i].sym == UNKNOWN ? NULL : mp_ksyms_name(a->k, s[i].sym);
        cJSON_AddStringToObject(f, "name", name ? name : "[unknown kernel address]");
        add_share(f, (double)s[i].count / tot, in->ns_per_call);
        if (a->ph) {
            int p = phase_of(a, name);
            cJSON_AddStringToObject(f, "phase", p == MP_PHASE_CALLER
                                    ? "=caller" : mp_phases_name(a->ph, (unsigned)p));
        }
        cJSON_AddItemToArray(fa, f);
    }
    free(s);
    for (unsigned i = 0; a->ph && i < mp_phases_count(a->ph); i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "phase", mp_phases_name(a->ph, i));
        add_share(e, (double)a->phase[i] / tot, in->ns_per_call);
        cJSON_AddItemToArray(pa, e);
    }
    return o;
}
