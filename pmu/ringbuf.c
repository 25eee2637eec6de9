/* SPDX-License-Identifier: MIT */
/* ringbuf.c - decode perf ring-buffer records (see ringbuf.h).
 *
 * A record that wraps past the end of the data area is copied into a
 * scratch buffer first (a record is at most 65535 bytes: header.size is a
 * u16), so the decoder always reads one contiguous, 8-byte aligned body.
 * Lengths are checked before every field: a record whose header says it
 * is shorter than its fields (or whose callchain count runs past its end)
 * is counted as truncated and skipped, never read past.
 */
#include "ringbuf.h"

#include <linux/perf_event.h>
#include <string.h>

_Static_assert(MP_RB_SAMPLE_IP == PERF_SAMPLE_IP, "sample bit");
_Static_assert(MP_RB_SAMPLE_TID == PERF_SAMPLE_TID, "sample bit");
_Static_assert(MP_RB_SAMPLE_TIME == PERF_SAMPLE_TIME, "sample bit");
_Static_assert(MP_RB_SAMPLE_CALLCHAIN == PERF_SAMPLE_CALLCHAIN, "sample bit");
_Static_assert(MP_RB_SAMPLE_CPU == PERF_SAMPLE_CPU, "sample bit");
_Static_assert(MP_RB_SAMPLE_PERIOD == PERF_SAMPLE_PERIOD, "sample bit");
_Static_assert(MP_RB_RECORD_LOST == PERF_RECORD_LOST, "record type");
_Static_assert(MP_RB_RECORD_THROTTLE == PERF_RECORD_THROTTLE, "record type");
_Static_assert(MP_RB_RECORD_UNTHROTTLE == PERF_RECORD_UNTHROTTLE, "record type");
_Static_assert(MP_RB_RECORD_SAMPLE == PERF_RECORD_SAMPLE, "record type");
_Static_assert(MP_RB_MISC_CPUMODE_MASK == PERF_RECORD_MISC_CPUMODE_MASK, "misc");
_Static_assert(MP_RB_MISC_KERNEL == PERF_RECORD_MISC_KERNEL, "misc");
_Static_assert(MP_RB_MISC_USER == PERF_RECORD_MISC_USER, "misc");
_Static_assert(MP_RB_CONTEXT_MAX == (uint64_t)PERF_CONTEXT_MAX, "context");
_Static_assert(MP_RB_CONTEXT_KERNEL == (uint64_t)PERF_CONTEXT_KERNEL, "context");
_Static_assert(MP_RB_CONTEXT_USER == (uint64_t)PERF_CONTEXT_USER, "context");
_Static_assert(MP_RB_HEADER_BYTES == sizeof(struct perf_event_header), "header");

/* Copy len bytes starting at ring position pos into dst, across the wrap. */
static void ring_copy(void *dst, const unsigned char *data, uint64_t size, uint64_t pos,
                      size_t len)
{
    uint64_t off = pos & (size - 1);
    size_t first = (size_t)(size - off) < len ? (size_t)(size - off) : len;
    memcpy(dst, data + off, first);
    if (first < len)
        memcpy((unsigned char *)dst + first, data, len - first);
}

/* A bounded cursor over one record body. */
typedef struct cur {
    const unsigned char *p;
    size_t left;
} cur;

static int take_u64(cur *c, uint64_t *v)
{
    if (c->left < 8)
        return -1;
    memcpy(v, c->p, 8);
    c->p += 8;
    c->left -= 8;
    return 0;
}

static int take_2u32(cur *c, uint32_t *a, uint32_t *b)
{
    if (c->left < 8)
        return -1;
    memcpy(a, c->p, 4);
    memcpy(b, c->p + 4, 4);
    c->p += 8;
    c->left -= 8;
    return 0;
}

/* Decode a SAMPLE body; -1 when it is shorter than its fields. */
static int decode_sample(const unsigned char *body, size_t len, uint16_t misc, uint64_t type,
                         mp_rb_sample *s)
{
    cur c = {body, len};
    uint32_t res;
    memset(s, 0, sizeof *s);
    s->misc = misc;
    if ((type & MP_RB_SAMPLE_IP) && take_u64(&c, &s->ip) < 0)
        return -1;
    if ((type & MP_RB_SAMPLE_TID) && take_2u32(&c, &s->pid, &s->tid) < 0)
        return -1;
    if ((type & MP_RB_SAMPLE_TIME) && take_u64(&c, &s->time) < 0)
        return -1;
    if ((type & MP_RB_SAMPLE_CPU) && take_2u32(&c, &s->cpu, &res) < 0)
        return -1;
    if ((type & MP_RB_SAMPLE_PERIOD) && take_u64(&c, &s->period) < 0)
        return -1;
    if (type & MP_RB_SAMPLE_CALLCHAIN) {
        if (take_u64(&c, &s->nchain) < 0 || s->nchain > c.left / 8)
            return -1;
        s->chain = (const uint64_t *)(const void *)c.p;   /* 8-byte aligned: see callers */
    }
    return 0;
}

uint64_t mp_rb_parse(const void *data, uint64_t size, uint64_t tail, uint64_t head,
                     uint64_t sample_type, mp_rb_fn fn, void *ctx, mp_rb_stats *st)
{
    static _Thread_local uint64_t scratch[65536 / 8];
    const unsigned char *d = data;
    int type_ok = (sample_type & ~(uint64_t)MP_RB_SAMPLE_SUPPORTED) == 0;

    if (size == 0 || (size & (size - 1)) || head == tail)
        return head;
    if (head - tail > size) {
        /* The writer lapped the reader: what lies between is garbage. */
        st->overrun++;
        return head;
    }
    while (head - tail >= MP_RB_HEADER_BYTES) {
        struct perf_event_header h;
        ring_copy(&h, d, size, tail, sizeof h);
        if (h.size < sizeof h || (h.size & 7)) {
            /* No way to find the next record boundary: drop the rest. */
            st->truncated++;
            return head;
        }
        if (h.size > head - tail) {
            st->truncated++;
            return tail;
        }
        size_t blen = h.size - sizeof h;
        uint64_t boff = (tail + sizeof h) & (size - 1);
        const unsigned char *body;
        if (boff + blen <= size) {
            body = d + boff;
        } else {
            ring_copy(scratch, d, size, tail + sizeof h, blen);
            body = (const unsigned char *)scratch;
        }
        st->records++;
        if (h.type == MP_RB_RECORD_SAMPLE) {
            mp_rb_sample s;
            if (!type_ok || decode_sample(body, blen, h.misc, sample_type, &s) < 0) {
                st->truncated++;
            } else {
                st->samples++;
                if (fn)
                    fn(&s, ctx);
            }
        } else if (h.type == MP_RB_RECORD_LOST) {
            cur c = {body, blen};
            uint64_t id, n;
            st->lost_records++;
            if (take_u64(&c, &id) < 0 || take_u64(&c, &n) < 0)
                st->truncated++;
            else
                st->lost += n;
        } else if (h.type == MP_RB_RECORD_THROTTLE) {
            st->throttled++;
        } else if (h.type != MP_RB_RECORD_UNTHROTTLE) {
            st->other++;
        }
        tail += h.size;
    }
    if (head != tail) {   /* fewer bytes left than a header */
        st->truncated++;
        return tail;
    }
    return head;
}
