/* SPDX-License-Identifier: MIT */
/* profile_agg.c - samples -> counts per kernel function and per phase, and
 * the user samples: what a cell's "profile" object is made of (run/ turns
 * them into shares and ns per call).
 *
 * A sample is charged to the function holding its IP (self time).  Its
 * phase is that function's phase in the phase file; a generic helper
 * (phase "=caller": locks, thunks, allocators) is charged to the nearest
 * caller in the kernel callchain that has a phase, and to "other" when the
 * walk meets an unclassified function first (an interrupt, for example,
 * must not be charged to the syscall it interrupted).
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#include "ringbuf.h"

#define UNKNOWN ((size_t)-1)

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
    uint64_t total, user, phase[MP_PROFILE_MAX_PHASES];
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
    if ((unsigned)p < MP_PROFILE_MAX_PHASES)
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

uint64_t mp_profile_agg_user(const mp_profile_agg *a)
{
    return a->user;
}

const char *mp_profile_agg_hidden(const mp_profile_agg *a)
{
    return mp_ksyms_hidden(a->k);
}

static const char *function_phase(const mp_profile_agg *a, const char *name)
{
    if (!a->ph)
        return NULL;
    int p = phase_of(a, name);
    return p == MP_PHASE_CALLER ? "=caller" : mp_phases_name(a->ph, (unsigned)p);
}

size_t mp_profile_agg_functions(const mp_profile_agg *a, mp_profile_count *out, size_t max)
{
    if (mp_profile_agg_hidden(a))
        return 0;   /* no attribution without addresses: say so, do not guess */
    slot *s = malloc(sizeof *s * (a->used ? a->used : 1));
    if (!s)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < a->cap; i++)
        if (a->tab[i].used)
            s[n++] = a->tab[i];
    qsort(s, n, sizeof *s, cmp_count_desc);
    n = n < max ? n : max;
    for (size_t i = 0; i < n; i++) {
        const char *name = s[i].sym == UNKNOWN ? NULL : mp_ksyms_name(a->k, s[i].sym);
        out[i] = (mp_profile_count){name, function_phase(a, name), s[i].count};
    }
    free(s);
    return n;
}

size_t mp_profile_agg_phases(const mp_profile_agg *a, mp_profile_count *out, size_t max)
{
    if (!a->total || !a->ph || mp_profile_agg_hidden(a))
        return 0;
    size_t n = 0;
    for (unsigned i = 0; i < mp_phases_count(a->ph) && n < max; i++)
        out[n++] = (mp_profile_count){mp_phases_name(a->ph, i), NULL, a->phase[i]};
    return n;
}
