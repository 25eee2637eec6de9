/* SPDX-License-Identifier: MIT */
/* model.c - caches and TLBs of model.h: set-associative arrays with LRU
 * stamps, and the way a miss travels down and a fill comes back up. */
#include "model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const mp_sim_event_names[MP_SIM_NEVENTS] = {
    [MP_SIM_INSNS] = "instructions",
    [MP_SIM_L1I_ACC] = "L1-icache-loads",
    [MP_SIM_L1I_MISS] = "L1-icache-load-misses",
    [MP_SIM_L1D_ACC] = "L1-dcache-accesses",
    [MP_SIM_L1D_MISS] = "L1-dcache-misses",
    [MP_SIM_L1D_LOADS] = "L1-dcache-loads",
    [MP_SIM_L1D_LOAD_MISS] = "L1-dcache-load-misses",
    [MP_SIM_L2_ACC] = "L2-accesses",
    [MP_SIM_L2_MISS] = "L2-misses",
    [MP_SIM_L3_ACC] = "L3-accesses",
    [MP_SIM_L3_MISS] = "L3-misses",
    [MP_SIM_LLC_LOADS] = "LLC-loads",
    [MP_SIM_LLC_LOAD_MISS] = "LLC-load-misses",
    [MP_SIM_DTLB_ACC] = "dTLB-accesses",
    [MP_SIM_DTLB_MISS] = "dTLB-misses",
    [MP_SIM_DTLB_WALK] = "dTLB-walks",
    [MP_SIM_ITLB_ACC] = "iTLB-accesses",
    [MP_SIM_ITLB_MISS] = "iTLB-misses",
    [MP_SIM_ITLB_WALK] = "iTLB-walks",
    [MP_SIM_PREFETCH] = "prefetches",
};

/* One set-associative array of tags (a line or page number + 1; 0 is
 * empty) with LRU stamps.  last: the entry found or filled most recently,
 * looked at first (consecutive instructions and accesses mostly fall in the
 * same line and page, and a fully associative TLB is otherwise a scan of
 * every way); a tag sits in one entry at most, so a match there is the
 * answer the scan would give.  mask: sets - 1 when sets is a power of two
 * (the set from a mask, not a division), else 0. */
typedef struct array {
    uint64_t *tag, *stamp;
    uint64_t sets, clock, mask, last;
    unsigned ways;
} array;

static uint64_t set_base(const array *a, uint64_t n)
{
    return (a->mask ? n & a->mask : n % a->sets) * a->ways;
}

typedef struct core {
    array l1i, l1d, l2, itlb, dtlb, l2tlb;
    uint64_t n[2][MP_SIM_NEVENTS];
} core;

struct mp_sim {
    mp_sim_geometry g;
    unsigned ncores, line_shift, page_shift;
    array l3;
    core *c;
    uint64_t scratch[MP_SIM_NEVENTS];   /* where prefetch fills count */
};

static int array_init(array *a, uint64_t entries, unsigned ways)
{
    a->ways = ways;
    a->sets = entries / ways;
    a->clock = 0;
    a->last = 0;
    a->mask = a->sets > 1 && !(a->sets & (a->sets - 1)) ? a->sets - 1 : 0;
    a->tag = calloc(entries, sizeof *a->tag);
    a->stamp = calloc(entries, sizeof *a->stamp);
    return a->tag && a->stamp ? 0 : -ENOMEM;
}

static void array_free(array *a)
{
    free(a->tag);
    free(a->stamp);
}

/* The way of n in its set, or -1; touch: make it the most recent. */
static long array_find(array *a, uint64_t n, int touch)
{
    if (a->tag[a->last] == n + 1) {
        if (touch)
            a->stamp[a->last] = ++a->clock;
        return (long)a->last;
    }
    uint64_t base = set_base(a, n);
    for (unsigned w = 0; w < a->ways; w++)
        if (a->tag[base + w] == n + 1) {
            if (touch)
                a->stamp[base + w] = ++a->clock;
            a->last = base + w;
            return (long)(base + w);
        }
    return -1;
}

/* Put n in (it is not there); returns the number it evicted + 1, or 0. */
static uint64_t array_insert(array *a, uint64_t n)
{
    uint64_t base = set_base(a, n), victim = base;
    for (unsigned w = 0; w < a->ways; w++) {
        if (!a->tag[base + w]) {
            victim = base + w;
            break;
        }
        if (a->stamp[base + w] < a->stamp[victim])
            victim = base + w;
    }
    uint64_t old = a->tag[victim];
    a->tag[victim] = n + 1;
    a->stamp[victim] = ++a->clock;
    a->last = victim;
    return old;
}

static void array_remove(array *a, uint64_t n)
{
    long i = array_find(a, n, 0);
    if (i >= 0)
        a->tag[i] = 0;
}

static int pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static unsigned log2u(uint64_t v)
{
    unsigned s = 0;
    while (v > 1) {
        v >>= 1;
        s++;
    }
    return s;
}

static int check_cache(const char *what, mp_sim_cache_geo c, unsigned line, mp_err *err)
{
    if (!c.size || !c.ways || c.size % ((uint64_t)c.ways * line))
        return mp_errf(err, MP_EUSAGE, "%s: %llu bytes in %u ways of %u-byte lines is not a "
                       "whole number of sets", what, (unsigned long long)c.size, c.ways, line);
    return 0;
}

static int check_tlb(const char *what, mp_sim_tlb_geo t, mp_err *err)
{
    if (!t.entries || !t.ways || t.entries % t.ways)
        return mp_errf(err, MP_EUSAGE, "%s: %u entries in %u ways is not a whole number of "
                       "sets", what, t.entries, t.ways);
    return 0;
}

int mp_sim_geometry_check(const mp_sim_geometry *g, mp_err *err)
{
    if (!pow2(g->line) || g->line < 8)
        return mp_errf(err, MP_EUSAGE, "line: %u is not a power of two of at least 8", g->line);
    if (!pow2(g->page) || g->page < 1024)
        return mp_errf(err, MP_EUSAGE, "page: %llu is not a power of two of at least 1024",
                       (unsigned long long)g->page);
    int rc;
    if ((rc = check_cache("l1i", g->l1i, g->line, err)) || (rc = check_cache("l1d", g->l1d, g->line, err)) ||
        (rc = check_cache("l2", g->l2, g->line, err)) || (rc = check_cache("l3", g->l3, g->line, err)) ||
        (rc = check_tlb("itlb", g->itlb, err)) || (rc = check_tlb("dtlb", g->dtlb, err)) ||
        (rc = check_tlb("l2tlb", g->l2tlb, err)))
        return rc;
    if (g->prefetch & ~(MP_SIM_PF_L1D | MP_SIM_PF_L2))
        return mp_errf(err, MP_EUSAGE, "prefetch: unknown bits %#x", g->prefetch);
    return 0;
}

void mp_sim_free(mp_sim *s)
{
    if (!s)
        return;
    for (unsigned i = 0; s->c && i < s->ncores; i++) {
        core *c = &s->c[i];
        array_free(&c->l1i), array_free(&c->l1d), array_free(&c->l2);
        array_free(&c->itlb), array_free(&c->dtlb), array_free(&c->l2tlb);
    }
    free(s->c);
    array_free(&s->l3);
    free(s);
}

int mp_sim_new(mp_sim **out, const mp_sim_geometry *g, unsigned cores, mp_err *err)
{
    *out = NULL;
    int rc = mp_sim_geometry_check(g, err);
    if (rc)
        return rc;
    if (cores < 1 || cores > MP_SIM_CORES_MAX)
        return mp_errf(err, MP_EUSAGE, "cores: %u is not in 1..%d", cores, MP_SIM_CORES_MAX);
    mp_sim *s = calloc(1, sizeof *s);
    if (!s)
        return mp_errf(err, -ENOMEM, "out of memory for the cache model");
    s->g = *g;
    s->ncores = cores;
    s->line_shift = log2u(g->line);
    s->page_shift = log2u(g->page);
    s->c = calloc(cores, sizeof *s->c);
    rc = s->c ? array_init(&s->l3, g->l3.size / g->line, g->l3.ways) : -ENOMEM;
    for (unsigned i = 0; rc == 0 && i < cores; i++) {
        core *c = &s->c[i];
        if ((rc = array_init(&c->l1i, g->l1i.size / g->line, g->l1i.ways)) ||
            (rc = array_init(&c->l1d, g->l1d.size / g->line, g->l1d.ways)) ||
            (rc = array_init(&c->l2, g->l2.size / g->line, g->l2.ways)) ||
            (rc = array_init(&c->itlb, g->itlb.entries, g->itlb.ways)) ||
            (rc = array_init(&c->dtlb, g->dtlb.entries, g->dtlb.ways)) ||
            (rc = array_init(&c->l2tlb, g->l2tlb.entries, g->l2tlb.ways)))
            break;
    }
    if (rc) {
        mp_sim_free(s);
        return mp_errf(err, -ENOMEM, "out of memory for the cache model (L3 %llu bytes)",
                       (unsigned long long)g->l3.size);
    }
    *out = s;
    return 0;
}

/* An inclusive L3 evicted line n: no private cache may keep it. */
static void back_invalidate(mp_sim *s, uint64_t n)
{
    for (unsigned i = 0; i < s->ncores; i++) {
        array_remove(&s->c[i].l1i, n);
        array_remove(&s->c[i].l1d, n);
        array_remove(&s->c[i].l2, n);
    }
}

/* Line n fills core c's L2; under a victim L3 the L2's own victim goes
 * there. */
static void fill_l2(mp_sim *s, core *c, uint64_t n)
{
    uint64_t old = array_insert(&c->l2, n);
    if (old && s->g.l3_policy == MP_SIM_VICTIM && array_find(&s->l3, old - 1, 1) < 0)
        array_insert(&s->l3, old - 1);
}

/* Line n from beyond the L2 (an L2 miss): the L3 and memory.  load: a data
 * load (LLC-loads).  n counts into cnt. */
static void from_l3(mp_sim *s, uint64_t n, int load, uint64_t *cnt)
{
    cnt[MP_SIM_L3_ACC]++;
    cnt[MP_SIM_LLC_LOADS] += load;
    long hit = array_find(&s->l3, n, 1);
    if (hit < 0) {
        cnt[MP_SIM_L3_MISS]++;
        cnt[MP_SIM_LLC_LOAD_MISS] += load;
        if (s->g.l3_policy == MP_SIM_INCLUSIVE) {
            uint64_t old = array_insert(&s->l3, n);
            if (old)
                back_invalidate(s, old - 1);
        }
    } else if (s->g.l3_policy == MP_SIM_VICTIM) {
        s->l3.tag[hit] = 0;   /* the line moves up to the L2 */
    }
}

/* Line n at core c's L2 (an L1 miss, or a prefetch into the L2 with
 * counts going to scratch). */
static void at_l2(mp_sim *s, core *c, uint64_t n, int load, uint64_t *cnt)
{
    cnt[MP_SIM_L2_ACC]++;
    if (array_find(&c->l2, n, 1) < 0) {
        cnt[MP_SIM_L2_MISS]++;
        from_l3(s, n, load, cnt);
        fill_l2(s, c, n);
    }
}

/* Next-line prefetch into the L2 (and what it passes on the way). */
static void prefetch_l2(mp_sim *s, core *c, uint64_t n, int kernel)
{
    if (array_find(&c->l2, n + 1, 0) >= 0)
        return;
    at_l2(s, c, n + 1, 0, s->scratch);
    c->n[kernel][MP_SIM_PREFETCH]++;
}

/* Demand access to line n through L1 array l1 of core c. */
static void line_access(mp_sim *s, core *c, array *l1, uint64_t n, int kernel, int load,
                        enum mp_sim_event acc, int pf_l1)
{
    uint64_t *cnt = c->n[kernel];
    cnt[acc]++;
    if (load)
        cnt[MP_SIM_L1D_LOADS]++;
    if (array_find(l1, n, 1) < 0) {
        cnt[acc + 1]++;   /* the miss counter follows its access counter */
        if (load)
            cnt[MP_SIM_L1D_LOAD_MISS]++;
        at_l2(s, c, n, load, cnt);
        if (s->g.prefetch & MP_SIM_PF_L2)
            prefetch_l2(s, c, n, kernel);
        array_insert(l1, n);
    }
    if (pf_l1 && array_find(l1, n + 1, 0) < 0) {
        if (array_find(&c->l2, n + 1, 1) < 0) {
            at_l2(s, c, n + 1, 0, s->scratch);
        }
        array_insert(l1, n + 1);
        cnt[MP_SIM_PREFETCH]++;
    }
}

/* Page p through L1 TLB t and core c's L2 TLB. */
static void tlb_access(core *c, array *t, uint64_t p, int kernel, enum mp_sim_event acc)
{
    uint64_t *cnt = c->n[kernel];
    cnt[acc]++;
    if (array_find(t, p, 1) >= 0)
        return;
    cnt[acc + 1]++;
    if (array_find(&c->l2tlb, p, 1) < 0) {
        cnt[acc + 2]++;
        array_insert(&c->l2tlb, p);
    }
    array_insert(t, p);
}

void mp_sim_data(mp_sim *s, unsigned core_i, int kernel, uint64_t vaddr, uint64_t paddr,
                 int store)
{
    core *c = &s->c[core_i % s->ncores];
    kernel = !!kernel;
    tlb_access(c, &c->dtlb, vaddr >> s->page_shift, kernel, MP_SIM_DTLB_ACC);
    line_access(s, c, &c->l1d, paddr >> s->line_shift, kernel, !store, MP_SIM_L1D_ACC,
                !!(s->g.prefetch & MP_SIM_PF_L1D));
}

void mp_sim_fetch(mp_sim *s, unsigned core_i, int kernel, uint64_t vaddr, uint64_t paddr)
{
    core *c = &s->c[core_i % s->ncores];
    kernel = !!kernel;
    c->n[kernel][MP_SIM_INSNS]++;
    tlb_access(c, &c->itlb, vaddr >> s->page_shift, kernel, MP_SIM_ITLB_ACC);
    line_access(s, c, &c->l1i, paddr >> s->line_shift, kernel, 0, MP_SIM_L1I_ACC, 0);
}

const uint64_t *mp_sim_counts(const mp_sim *s, unsigned core_i, int kernel)
{
    return s->c[core_i % s->ncores].n[!!kernel];
}

int mp_sim_holds(const mp_sim *s, unsigned core_i, enum mp_sim_level level, uint64_t paddr)
{
    core *c = &s->c[core_i % s->ncores];
    array *a = level == MP_SIM_LVL_L1I ? &c->l1i : level == MP_SIM_LVL_L1D ? &c->l1d :
               level == MP_SIM_LVL_L2 ? &c->l2 : (array *)&s->l3;
    return array_find(a, paddr >> s->line_shift, 0) >= 0;
}
