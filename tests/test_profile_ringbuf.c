/* SPDX-License-Identifier: MIT */
/* test_profile_ringbuf.c - the perf ring-buffer reader (pmu/ringbuf.c)
 * against hand-built buffers (wrap-around of a header and of a body,
 * PERF_RECORD_LOST, truncated and malformed records, overrun) and against
 * rings recorded on the development VM (tests/fixtures/profile/, see
 * README there), placed at every offset of a ring so records wrap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/ringbuf.h"
#include "test_util.h"

#define ST (MP_RB_SAMPLE_IP | MP_RB_SAMPLE_TID | MP_RB_SAMPLE_CALLCHAIN)

/* A linear stream of records being built. */
typedef struct stream {
    uint64_t w[4096];
    size_t n;   /* u64 words */
} stream;

static void hdr(stream *s, uint32_t type, uint16_t misc, uint16_t size)
{
    uint64_t h = (uint64_t)type | (uint64_t)misc << 32 | (uint64_t)size << 48;
    s->w[s->n++] = h;
}

/* A SAMPLE with IP, TID and a callchain of nchain entries. */
static void sample(stream *s, uint16_t misc, uint64_t ip, uint32_t tid, const uint64_t *chain,
                   size_t nchain)
{
    hdr(s, MP_RB_RECORD_SAMPLE, misc, (uint16_t)(8 * (4 + nchain)));
    s->w[s->n++] = ip;
    s->w[s->n++] = (uint64_t)tid << 32 | tid;
    s->w[s->n++] = nchain;
    for (size_t i = 0; i < nchain; i++)
        s->w[s->n++] = chain[i];
}

static void lost(stream *s, uint64_t n)
{
    hdr(s, MP_RB_RECORD_LOST, 0, 24);
    s->w[s->n++] = 7;   /* id */
    s->w[s->n++] = n;
}

typedef struct seen {
    uint64_t ip[64], chain_last[64], nchain[64];
    uint16_t misc[64];
    size_t n;
} seen;

static void collect(const mp_rb_sample *s, void *ctx)
{
    seen *v = ctx;
    if (v->n < 64) {
        v->ip[v->n] = s->ip;
        v->misc[v->n] = s->misc;
        v->nchain[v->n] = s->nchain;
        v->chain_last[v->n] = s->nchain ? s->chain[s->nchain - 1] : 0;
    }
    v->n++;
}

/* Copy a linear stream into a ring of `size` bytes starting at position pos. */
static void place(uint64_t *ring, uint64_t size, uint64_t pos, const void *src, size_t len)
{
    const unsigned char *b = src;
    unsigned char *r = (unsigned char *)ring;
    for (size_t i = 0; i < len; i++)
        r[(pos + i) & (size - 1)] = b[i];
}

static void test_plain_and_lost(void **state)
{
    (void)state;
    static stream s;
    uint64_t chain[] = {MP_RB_CONTEXT_KERNEL, 0xffffffff81000508, 0xffffffff81000410};
    s.n = 0;
    sample(&s, MP_RB_MISC_KERNEL, 0xffffffff81000508, 42, chain, 3);
    lost(&s, 5);
    sample(&s, MP_RB_MISC_USER, 0x401000, 42, NULL, 0);
    hdr(&s, MP_RB_RECORD_THROTTLE, 0, 32);   /* time, id, stream_id: skipped */
    s.n += 3;
    hdr(&s, 3 /* COMM */, 0, 16);
    s.w[s.n++] = 0;
    static uint64_t ring[512];
    memcpy(ring, s.w, s.n * 8);
    seen v = {0};
    mp_rb_stats st = {0};
    uint64_t t = mp_rb_parse(ring, sizeof ring, 0, s.n * 8, ST, collect, &v, &st);
    assert_int_equal(t, s.n * 8);
    assert_int_equal(v.n, 2);
    assert_int_equal(st.samples, 2);
    assert_int_equal(st.records, 5);
    assert_int_equal(st.lost_records, 1);
    assert_int_equal(st.lost, 5);
    assert_int_equal(st.throttled, 1);
    assert_int_equal(st.other, 1);
    assert_int_equal(st.truncated, 0);
    assert_int_equal(v.ip[0], 0xffffffff81000508);
    assert_int_equal(v.misc[0] & MP_RB_MISC_CPUMODE_MASK, MP_RB_MISC_KERNEL);
    assert_int_equal(v.nchain[0], 3);
    assert_int_equal(v.chain_last[0], 0xffffffff81000410);
    assert_int_equal(v.misc[1] & MP_RB_MISC_CPUMODE_MASK, MP_RB_MISC_USER);
    assert_int_equal(v.nchain[1], 0);
}

/* Every start position in a small ring: headers and bodies split at the end. */
static void test_wrap_every_offset(void **state)
{
    (void)state;
    static stream s;
    uint64_t chain[6];
    s.n = 0;
    for (int i = 0; i < 5; i++) {
        for (int k = 0; k < 6; k++)
            chain[k] = 0xffffffff81000000 + (uint64_t)(i * 16 + k);
        sample(&s, MP_RB_MISC_KERNEL, 0xffffffff81000000 + (uint64_t)i, 1, chain,
               (size_t)(i + 1));
    }
    lost(&s, 3);
    size_t len = s.n * 8;
    static uint64_t ring[64];   /* 512 bytes, the records take 368 */
    assert_true(len < sizeof ring);
    for (uint64_t pos = 0; pos < sizeof ring; pos += 8) {
        uint64_t base = (uint64_t)1 << 40;   /* free-running positions, far from 0 */
        memset(ring, 0xa5, sizeof ring);
        place(ring, sizeof ring, base + pos, s.w, len);
        seen v = {0};
        mp_rb_stats st = {0};
        uint64_t t = mp_rb_parse(ring, sizeof ring, base + pos, base + pos + len, ST, collect,
                                 &v, &st);
        assert_int_equal(t, base + pos + len);
        assert_int_equal(v.n, 5);
        assert_int_equal(st.lost, 3);
        assert_int_equal(st.truncated, 0);
        for (int i = 0; i < 5; i++) {
            assert_int_equal(v.ip[i], 0xffffffff81000000 + (uint64_t)i);
            assert_int_equal(v.nchain[i], (uint64_t)(i + 1));
            assert_int_equal(v.chain_last[i], 0xffffffff81000000 + (uint64_t)(i * 16 + i));
        }
    }
}

static void test_truncated(void **state)
{
    (void)state;
    static stream s;
    static uint64_t ring[512];
    uint64_t chain[] = {MP_RB_CONTEXT_KERNEL, 1, 2};
    seen v = {0};
    mp_rb_stats st = {0};

    /* 1. The last record is cut: its header claims more than head allows. */
    s.n = 0;
    sample(&s, MP_RB_MISC_KERNEL, 0x10, 1, chain, 3);
    size_t first = s.n * 8;
    sample(&s, MP_RB_MISC_KERNEL, 0x20, 1, chain, 3);
    memcpy(ring, s.w, s.n * 8);
    uint64_t t = mp_rb_parse(ring, sizeof ring, 0, s.n * 8 - 8, ST, collect, &v, &st);
    assert_int_equal(t, first);   /* stops before the cut record, for a retry */
    assert_int_equal(v.n, 1);
    assert_int_equal(st.truncated, 1);

    /* 2. A sample whose size is too small for its fields, then a good one. */
    s.n = 0;
    memset(&v, 0, sizeof v);
    memset(&st, 0, sizeof st);
    hdr(&s, MP_RB_RECORD_SAMPLE, MP_RB_MISC_KERNEL, 16);   /* IP only, no TID, no chain */
    s.w[s.n++] = 0x30;
    sample(&s, MP_RB_MISC_KERNEL, 0x40, 1, NULL, 0);
    memcpy(ring, s.w, s.n * 8);
    t = mp_rb_parse(ring, sizeof ring, 0, s.n * 8, ST, collect, &v, &st);
    assert_int_equal(t, s.n * 8);
    assert_int_equal(v.n, 1);
    assert_int_equal(v.ip[0], 0x40);
    assert_int_equal(st.truncated, 1);

    /* 3. A callchain count that runs past the record. */
    s.n = 0;
    memset(&v, 0, sizeof v);
    memset(&st, 0, sizeof st);
    sample(&s, MP_RB_MISC_KERNEL, 0x50, 1, chain, 3);
    s.w[3] = 1000;   /* nr */
    lost(&s, 2);
    memcpy(ring, s.w, s.n * 8);
    t = mp_rb_parse(ring, sizeof ring, 0, s.n * 8, ST, collect, &v, &st);
    assert_int_equal(t, s.n * 8);
    assert_int_equal(v.n, 0);
    assert_int_equal(st.truncated, 1);
    assert_int_equal(st.lost, 2);

    /* 4. A LOST record too short for its count. */
    s.n = 0;
    memset(&st, 0, sizeof st);
    hdr(&s, MP_RB_RECORD_LOST, 0, 16);
    s.w[s.n++] = 7;
    memcpy(ring, s.w, s.n * 8);
    mp_rb_parse(ring, sizeof ring, 0, s.n * 8, ST, NULL, NULL, &st);
    assert_int_equal(st.truncated, 1);
    assert_int_equal(st.lost, 0);

    /* 5. A header with size 0 (or not a multiple of 8): nothing after it can be trusted. */
    s.n = 0;
    memset(&v, 0, sizeof v);
    memset(&st, 0, sizeof st);
    hdr(&s, MP_RB_RECORD_SAMPLE, 0, 0);
    sample(&s, MP_RB_MISC_KERNEL, 0x60, 1, NULL, 0);
    memcpy(ring, s.w, s.n * 8);
    t = mp_rb_parse(ring, sizeof ring, 0, s.n * 8, ST, collect, &v, &st);
    assert_int_equal(t, s.n * 8);
    assert_int_equal(v.n, 0);
    assert_int_equal(st.truncated, 1);

    /* 6. Fewer bytes than a header left over. */
    memset(&st, 0, sizeof st);
    t = mp_rb_parse(ring, sizeof ring, 0, 4, ST, NULL, NULL, &st);
    assert_int_equal(t, 0);
    assert_int_equal(st.truncated, 1);
}

static void test_overrun_and_bad_args(void **state)
{
    (void)state;
    static uint64_t ring[64];
    mp_rb_stats st = {0};
    seen v = {0};
    assert_int_equal(mp_rb_parse(ring, sizeof ring, 0, 1024, ST, collect, &v, &st), 1024);
    assert_int_equal(st.overrun, 1);
    assert_int_equal(v.n, 0);
    /* Unsupported sample_type bits: samples are refused, not misread. */
    static stream s;
    s.n = 0;
    sample(&s, MP_RB_MISC_KERNEL, 0x10, 1, NULL, 0);
    memcpy(ring, s.w, s.n * 8);
    memset(&st, 0, sizeof st);
    mp_rb_parse(ring, sizeof ring, 0, s.n * 8, ST | (1u << 3) /* ADDR */, collect, &v, &st);
    assert_int_equal(v.n, 0);
    assert_int_equal(st.truncated, 1);
}

/* A ring recorded on the development VM: every record decodes, whatever
 * the starting offset in the ring. */
static void check_recording(const char *name, uint64_t want_samples)
{
    char path[512];
    snprintf(path, sizeof path, "%s/profile/%s", MP_TEST_FIXTURES, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static unsigned char rec[1 << 16];
    size_t len = fread(rec, 1, sizeof rec, f);
    fclose(f);
    assert_true(len > 0 && len % 8 == 0 && len < sizeof rec);
    static uint64_t ring[(1 << 17) / 8];
    uint64_t size = sizeof ring;
    for (uint64_t pos = 0; pos < size; pos += size / 8 - 40) {
        place(ring, size, pos, rec, len);
        seen v = {0};
        mp_rb_stats st = {0};
        uint64_t t = mp_rb_parse(ring, size, pos, pos + len, ST, collect, &v, &st);
        assert_int_equal(t, pos + len);
        assert_int_equal(st.samples, want_samples);
        assert_int_equal(st.truncated, 0);
        assert_true(st.records >= st.samples + st.lost_records);
    }
}

static void test_recorded_poll(void **state)
{
    (void)state;
    check_recording("poll-10k.ring", 461);
}

static void test_recorded_epoll(void **state)
{
    (void)state;
    check_recording("epoll-10k.ring", 216);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_lost),
        cmocka_unit_test(test_wrap_every_offset),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_overrun_and_bad_args),
        cmocka_unit_test(test_recorded_poll),
        cmocka_unit_test(test_recorded_epoll),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
