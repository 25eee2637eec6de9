/* SPDX-License-Identifier: MIT */
/* test_sim_model.c - the cache and TLB model of sim/ fed synthetic address
 * traces with known answers: LRU order, set conflicts, an inclusive L3's
 * back-invalidation, an exclusive victim L3's fills, TLB reach, the
 * next-line prefetcher, user and kernel apart, counting windows, and every
 * geometry file of sim/geometries parsed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "sim/model.h"
#include "sim/window.h"

#define L 64
#define KB 1024u

/* A geometry whose levels are given; TLBs large unless set later. */
static mp_sim_geometry geo(uint64_t l1d, unsigned l1d_w, uint64_t l2, unsigned l2_w, uint64_t l3,
                           unsigned l3_w, mp_sim_policy pol)
{
    mp_sim_geometry g = {.line = L, .l1i = {32 * KB, 8}, .l1d = {l1d, l1d_w}, .l2 = {l2, l2_w},
                         .l3 = {l3, l3_w}, .l3_policy = pol, .itlb = {64, 64},
                         .dtlb = {64, 64}, .l2tlb = {1024, 8}, .page = 4096};
    snprintf(g.name, sizeof g.name, "test");
    return g;
}

static mp_sim *model(const mp_sim_geometry *g, unsigned cores)
{
    mp_sim *s;
    mp_err err;
    int rc = mp_sim_new(&s, g, cores, &err);
    if (rc)
        fail_msg("mp_sim_new: %s", err.msg);
    return s;
}

static uint64_t n(const mp_sim *s, int ev)
{
    return mp_sim_counts(s, 0, 0)[ev];
}

static void load(mp_sim *s, uint64_t a)
{
    mp_sim_data(s, 0, 0, a, a, 0);
}

/* One set of two ways: A B A C leaves A (used last but one) and evicts B. */
static void test_lru_order(void **state)
{
    (void)state;
    mp_sim_geometry g = geo(2 * L, 2, 64 * KB, 8, 1024 * KB, 16, MP_SIM_INCLUSIVE);
    mp_sim *s = model(&g, 1);
    uint64_t A = 0, B = 0x1000, C = 0x2000;
    load(s, A), load(s, B), load(s, A), load(s, C);
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, A));
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, B));
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, C));
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 3);
    load(s, A);   /* hit */
    load(s, B);   /* miss, evicts C (A was used after it) */
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 4);
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, A));
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, C));
    /* the L1 misses went to the L2: three lines, three L2 misses, one hit */
    assert_int_equal(n(s, MP_SIM_L2_ACC), 4);
    assert_int_equal(n(s, MP_SIM_L2_MISS), 3);
    mp_sim_free(s);
}

/* 4 KiB 2-way, 64-byte lines: 32 sets, 2 KiB apart map to one set. */
static void test_ways_conflict(void **state)
{
    (void)state;
    mp_sim_geometry g = geo(4 * KB, 2, 64 * KB, 8, 1024 * KB, 16, MP_SIM_INCLUSIVE);
    mp_sim *s = model(&g, 1);
    for (int r = 0; r < 10; r++)
        for (uint64_t i = 0; i < 3; i++)
            load(s, i * 2048);   /* three lines in one 2-way set: LRU misses every time */
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 30);
    mp_sim_free(s);
    s = model(&g, 1);
    for (int r = 0; r < 10; r++)
        for (uint64_t i = 0; i < 3; i++)
            load(s, i * L);      /* three sets: only the first touches miss */
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 3);
    assert_int_equal(n(s, MP_SIM_L1D_ACC), 30);
    assert_int_equal(n(s, MP_SIM_L1D_LOADS), 30);
    mp_sim_free(s);
}

/* An L3 of two lines under an L1d of four: the third line evicts the first
 * from the inclusive L3, and with it from the L1d and L2; a victim L3 of
 * the same size leaves the L1d alone. */
static void test_inclusive_back_invalidate(void **state)
{
    (void)state;
    uint64_t A = 0, B = 1 * L, C = 2 * L;
    mp_sim_geometry g = geo(4 * L, 4, 8 * L, 8, 2 * L, 2, MP_SIM_INCLUSIVE);
    mp_sim *s = model(&g, 2);
    load(s, A), load(s, B), load(s, C);
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L3, A));
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, A));
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L2, A));
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, B));
    load(s, A);
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 4);
    assert_int_equal(n(s, MP_SIM_L3_MISS), 4);
    /* another core's copy goes too: core 1 loads B, core 0 brings D and E */
    mp_sim_data(s, 1, 0, B, B, 0);
    load(s, 3 * L), load(s, 4 * L);
    assert_false(mp_sim_holds(s, 1, MP_SIM_LVL_L1D, B));
    mp_sim_free(s);

    g.l3_policy = MP_SIM_VICTIM;
    s = model(&g, 1);
    load(s, A), load(s, B), load(s, C), load(s, A);
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L1D, A));
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 3);
    mp_sim_free(s);
}

/* L1d and L2 of one line each, a victim L3 of four: the L3 holds only what
 * the L2 evicted, and a hit there moves the line back up. */
static void test_victim_fills(void **state)
{
    (void)state;
    uint64_t A = 0, B = 0x1000;
    mp_sim_geometry g = geo(L, 1, L, 1, 4 * L, 4, MP_SIM_VICTIM);
    mp_sim *s = model(&g, 1);
    load(s, A);
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L3, A));   /* memory fills the L2, not the L3 */
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L2, A));
    load(s, B);
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L3, A));    /* A's eviction from the L2 */
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L3, B));
    load(s, A);
    assert_int_equal(n(s, MP_SIM_L3_ACC), 3);
    assert_int_equal(n(s, MP_SIM_L3_MISS), 2);            /* the third was a hit */
    assert_int_equal(n(s, MP_SIM_LLC_LOADS), 3);
    assert_int_equal(n(s, MP_SIM_LLC_LOAD_MISS), 2);
    assert_false(mp_sim_holds(s, 0, MP_SIM_LVL_L3, A));   /* moved up */
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L2, A));
    assert_true(mp_sim_holds(s, 0, MP_SIM_LVL_L3, B));    /* B's eviction */
    mp_sim_free(s);
}

/* dTLB of 4 entries and L2 TLB of 8: pages cycled within 4 miss once, within
 * 8 miss the dTLB every time but walk once, beyond 8 walk every time. */
static void test_tlb_reach(void **state)
{
    (void)state;
    static const struct { unsigned pages; uint64_t miss, walk; } want[] = {
        {4, 4, 4}, {8, 80, 8}, {16, 160, 160},
    };
    for (size_t t = 0; t < 3; t++) {
        mp_sim_geometry g = geo(32 * KB, 8, 1024 * KB, 8, 4096 * KB, 16, MP_SIM_INCLUSIVE);
        g.dtlb = (mp_sim_tlb_geo){4, 4};
        g.l2tlb = (mp_sim_tlb_geo){8, 8};
        mp_sim *s = model(&g, 1);
        for (int r = 0; r < 10; r++)
            for (uint64_t p = 0; p < want[t].pages; p++)
                load(s, p * 4096 + 8 * (uint64_t)r);
        assert_int_equal(n(s, MP_SIM_DTLB_ACC), 10 * want[t].pages);
        assert_int_equal(n(s, MP_SIM_DTLB_MISS), want[t].miss);
        assert_int_equal(n(s, MP_SIM_DTLB_WALK), want[t].walk);
        assert_int_equal(n(s, MP_SIM_ITLB_ACC), 0);
        mp_sim_free(s);
    }
    /* page size: the same 16 addresses, 4 KiB apart, fit in one 64 KiB page */
    mp_sim_geometry g = geo(32 * KB, 8, 1024 * KB, 8, 4096 * KB, 16, MP_SIM_INCLUSIVE);
    g.dtlb = (mp_sim_tlb_geo){4, 4};
    g.l2tlb = (mp_sim_tlb_geo){8, 8};
    g.page = 64 * KB;
    mp_sim *s = model(&g, 1);
    for (int r = 0; r < 10; r++)
        for (uint64_t p = 0; p < 16; p++)
            load(s, p * 4096);
    assert_int_equal(n(s, MP_SIM_DTLB_MISS), 1);
    mp_sim_free(s);
}

/* A sequential walk of 256 lines, 8 bytes at a time: 256 L1d misses
 * without the prefetcher, 1 with next-line prefetch into the L1d; a walk
 * touching every other line gains nothing from it. */
static void test_prefetch(void **state)
{
    (void)state;
    for (int pf = 0; pf < 2; pf++) {
        mp_sim_geometry g = geo(32 * KB, 8, 1024 * KB, 8, 4096 * KB, 16, MP_SIM_INCLUSIVE);
        g.prefetch = pf ? MP_SIM_PF_L1D : 0;
        mp_sim *s = model(&g, 1);
        for (uint64_t a = 0; a < 256 * L; a += 8)
            load(s, a);
        assert_int_equal(n(s, MP_SIM_L1D_ACC), 2048);
        assert_int_equal(n(s, MP_SIM_L1D_MISS), pf ? 1 : 256);
        assert_int_equal(n(s, MP_SIM_L2_MISS), pf ? 1 : 256);   /* prefetch fills not counted */
        assert_int_equal(n(s, MP_SIM_PREFETCH), pf ? 256 : 0);
        mp_sim_free(s);
        s = model(&g, 1);
        for (uint64_t a = 0x100000; a < 0x100000 + 256 * L; a += 2 * L)
            load(s, a);
        assert_int_equal(n(s, MP_SIM_L1D_MISS), 128);
        mp_sim_free(s);
    }
    /* next-line into the L2: the L1d still misses every line, the L2 once */
    mp_sim_geometry g = geo(32 * KB, 8, 1024 * KB, 8, 4096 * KB, 16, MP_SIM_INCLUSIVE);
    g.prefetch = MP_SIM_PF_L2;
    mp_sim *s = model(&g, 1);
    for (uint64_t a = 0; a < 256 * L; a += 8)
        load(s, a);
    assert_int_equal(n(s, MP_SIM_L1D_MISS), 256);
    assert_int_equal(n(s, MP_SIM_L2_MISS), 1);
    mp_sim_free(s);
}

/* Kernel work counts apart from user work; stores are no loads; fetches
 * count instructions, the iTLB and the L1i. */
static void test_user_kernel(void **state)
{
    (void)state;
    mp_sim_geometry g = geo(32 * KB, 8, 1024 * KB, 8, 4096 * KB, 16, MP_SIM_INCLUSIVE);
    mp_sim *s = model(&g, 2);
    mp_sim_fetch(s, 1, 1, 0xffff800008000000ull, 0x40000000);
    mp_sim_fetch(s, 1, 1, 0xffff800008000004ull, 0x40000004);
    mp_sim_data(s, 1, 1, 0xffff000000001000ull, 0x41001000, 1);
    mp_sim_fetch(s, 1, 0, 0x400000, 0x50000000);
    const uint64_t *k = mp_sim_counts(s, 1, 1), *u = mp_sim_counts(s, 1, 0);
    assert_int_equal(k[MP_SIM_INSNS], 2);
    assert_int_equal(k[MP_SIM_L1I_ACC], 2);
    assert_int_equal(k[MP_SIM_L1I_MISS], 1);
    assert_int_equal(k[MP_SIM_ITLB_MISS], 1);
    assert_int_equal(k[MP_SIM_L1D_ACC], 1);
    assert_int_equal(k[MP_SIM_L1D_LOADS], 0);
    assert_int_equal(k[MP_SIM_LLC_LOADS], 0);
    assert_int_equal(k[MP_SIM_L3_ACC], 2);   /* one instruction line, one data line */
    assert_int_equal(u[MP_SIM_INSNS], 1);
    assert_int_equal(u[MP_SIM_L1D_ACC], 0);
    assert_int_equal(mp_sim_counts(s, 0, 0)[MP_SIM_INSNS], 0);   /* core 0 did nothing */
    mp_sim_free(s);
}

/* Windows: per call differences, the warm-up left out of the summary. */
static void test_windows(void **state)
{
    (void)state;
    mp_sim_geometry g = geo(32 * KB, 8, 1024 * KB, 8, 4096 * KB, 16, MP_SIM_INCLUSIVE);
    mp_sim *s = model(&g, 2);
    mp_sim_cell c;
    mp_sim_cell_init(&c, 1);
    assert_int_equal(mp_sim_cell_end(&c, s), -EINVAL);   /* no begin */
    for (int call = 0; call < 12; call++) {
        mp_sim_cell_begin(&c, s);
        /* call k fetches k+1 kernel instructions (the first two 100: warm-up) */
        int k = call < 2 ? 100 : call - 1;
        for (int i = 0; i < k; i++)
            mp_sim_fetch(s, 1, 1, 0xffff800008000000ull + 4 * (uint64_t)i, 0x40000000 + 4 * (uint64_t)i);
        mp_sim_fetch(s, 1, 0, 0x400000, 0x50000000);
        mp_sim_fetch(s, 0, 0, 0x400000, 0x50000000);          /* another core: not counted */
        assert_int_equal(mp_sim_cell_end(&c, s), 0);
    }
    assert_int_equal(c.calls, 12);
    assert_int_equal(mp_sim_cell_value(&c, 5, MP_SIM_INSNS, 1), 4);
    assert_int_equal(mp_sim_cell_value(&c, 5, MP_SIM_INSNS, 0), 1);
    assert_int_equal(mp_sim_cell_value(&c, 5, MP_SIM_INSNS, 2), 5);
    mp_summary sum;
    assert_int_equal(mp_sim_cell_summary(&c, 2, MP_SIM_INSNS, 1, &sum), 0);
    assert_int_equal(sum.n, 10);                 /* 1..10 */
    assert_float_equal(sum.p50, 5.5, 1e-9);
    assert_float_equal(sum.p10, 1.9, 1e-9);
    assert_float_equal(sum.p90, 9.1, 1e-9);
    assert_float_equal(sum.max, 10, 1e-9);
    assert_int_equal(mp_sim_cell_summary(&c, 0, MP_SIM_INSNS, 1, &sum), 0);
    assert_float_equal(sum.max, 100, 1e-9);      /* with the warm-up */
    assert_int_equal(mp_sim_cell_summary(&c, 20, MP_SIM_INSNS, 1, &sum), 0);
    assert_int_equal(sum.n, 0);
    mp_sim_cell_free(&c);
    mp_sim_free(s);
}

/* Every file in sim/geometries parses, checks and builds a model. */
static void test_geometry_files(void **state)
{
    (void)state;
    DIR *d = opendir(MP_SIM_GEOMETRIES);
    assert_non_null(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".conf"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", MP_SIM_GEOMETRIES, e->d_name);
        mp_sim_geometry g;
        mp_err err;
        if (mp_sim_geometry_load(path, &g, &err))
            fail_msg("%s: %s", path, err.msg);
        assert_true(g.l3.size >= 8 * 1024 * 1024 && g.l1d.size && g.dtlb.entries && g.page == 4096);
        assert_int_equal(g.prefetch, 0);   /* off unless asked for */
        if (strcmp(g.isa, "arm64") && strcmp(g.isa, "x86_64"))
            fail_msg("%s: isa '%s', want arm64 or x86_64", path, g.isa);
        mp_sim *s = model(&g, 2);
        mp_sim_free(s);
        files++;
    }
    closedir(d);
    assert_true(files >= 4);
    mp_sim_geometry g;
    mp_err err;
    assert_int_equal(mp_sim_geometry_load(MP_SIM_GEOMETRIES "/epyc-9354p.conf", &g, &err), 0);
    assert_string_equal(g.name, "epyc-9354p");
    assert_string_equal(g.isa, "x86_64");
    assert_int_equal(g.l1d.size, 32 * 1024);
    assert_int_equal(g.l3.size, 32u * 1024 * 1024);
    assert_int_equal(g.l3.ways, 16);
    assert_int_equal(g.l3_policy, MP_SIM_VICTIM);
    assert_int_equal(g.l2tlb.entries, 3072);
}

static void test_geometry_errors(void **state)
{
    (void)state;
    static const char base[] = "description=x\nline=64\nl1i=32K,8\nl1d=32K,8\nl2=1M,8\n"
                               "l3=32M,16\nl3_policy=victim\nitlb=64,64\ndtlb=72,72\n"
                               "l2tlb=3072,24\npage=4K\n";
    static const struct { const char *extra, *want; } bad[] = {
        {"l4=1M,8\n", "t:12: unknown key 'l4'"},
        {"l1d=32K,8\n", "t:12: l1d given twice"},
        {"prefetch=l3\n", "prefetch: 'l3' is not one of none, l1d, l2, l1d+l2"},
        {"isa=sparc\n", "isa: 'sparc' is not arm64 or x86_64"},
        {"source=a\nsource=b\nprefetch=l1d\n", NULL},
    };
    mp_sim_geometry g;
    mp_err err;
    char text[1024];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", base, bad[i].extra);
        int rc = mp_sim_geometry_parse(text, "t", &g, &err);
        if (!bad[i].want) {
            assert_int_equal(rc, 0);
            assert_int_equal(g.prefetch, MP_SIM_PF_L1D);
            assert_string_equal(g.isa, "");   /* optional */
            continue;
        }
        assert_int_equal(rc, MP_EUSAGE);
        if (!strstr(err.msg, bad[i].want))
            fail_msg("'%s' said: %s", bad[i].extra, err.msg);
    }
    assert_int_equal(mp_sim_geometry_parse("line=64\n", "t", &g, &err), MP_EUSAGE);
    assert_non_null(strstr(err.msg, "t: no description= line"));
    snprintf(text, sizeof text, "%s", base);
    memcpy(strstr(text, "l2=1M,8"), "l2=1M,7", 7);   /* 1 MiB is no whole number of 7-way sets */
    assert_int_equal(mp_sim_geometry_parse(text, "t", &g, &err), MP_EUSAGE);
    assert_non_null(strstr(err.msg, "l2: 1048576 bytes in 7 ways of 64-byte lines"));
    assert_int_equal(mp_sim_geometry_load("/nonexistent/x.conf", &g, &err), -ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_order),
        cmocka_unit_test(test_ways_conflict),
        cmocka_unit_test(test_inclusive_back_invalidate),
        cmocka_unit_test(test_victim_fills),
        cmocka_unit_test(test_tlb_reach),
        cmocka_unit_test(test_prefetch),
        cmocka_unit_test(test_user_kernel),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_geometry_files),
        cmocka_unit_test(test_geometry_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
