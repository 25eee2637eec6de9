/* SPDX-License-Identifier: MIT */
/* ringbuf.h - a reader of perf_event ring-buffer records over a buffer the
 * caller gives: the live mmap data area (pmu/profile.c) or a recorded or
 * hand-built buffer (the tests).  No system call, no allocation.
 *
 * The buffer is the data area of a perf mmap: `size` bytes, a power of
 * two; positions `tail` and `head` are free-running byte counters (the
 * kernel's data_tail and data_head), so a record at position p sits at
 * data[p & (size - 1)] and may wrap past the end of the area.  Records are
 * a perf_event_header {u32 type; u16 misc; u16 size} and a body.
 *
 * The constants below mirror linux/perf_event.h (ringbuf.c checks each
 * against it at compile time) so tests can build records without the
 * kernel header, which stays private to pmu/.
 */
#ifndef MP_RINGBUF_H
#define MP_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

/* perf_event_attr.sample_type bits the reader understands, in record order. */
#define MP_RB_SAMPLE_IP        (1u << 0)
#define MP_RB_SAMPLE_TID       (1u << 1)
#define MP_RB_SAMPLE_TIME      (1u << 2)
#define MP_RB_SAMPLE_CALLCHAIN (1u << 5)
#define MP_RB_SAMPLE_CPU       (1u << 7)
#define MP_RB_SAMPLE_PERIOD    (1u << 8)
#define MP_RB_SAMPLE_SUPPORTED (MP_RB_SAMPLE_IP | MP_RB_SAMPLE_TID | MP_RB_SAMPLE_TIME | \
                                MP_RB_SAMPLE_CALLCHAIN | MP_RB_SAMPLE_CPU | MP_RB_SAMPLE_PERIOD)

/* Record types. */
#define MP_RB_RECORD_LOST       2u
#define MP_RB_RECORD_THROTTLE   5u
#define MP_RB_RECORD_UNTHROTTLE 6u
#define MP_RB_RECORD_SAMPLE     9u

/* header.misc: where the sample was taken. */
#define MP_RB_MISC_CPUMODE_MASK 7u
#define MP_RB_MISC_KERNEL       1u
#define MP_RB_MISC_USER         2u

/* Callchain entries at or above this value are context markers. */
#define MP_RB_CONTEXT_MAX    ((uint64_t)-4095)
#define MP_RB_CONTEXT_KERNEL ((uint64_t)-128)
#define MP_RB_CONTEXT_USER   ((uint64_t)-512)

#define MP_RB_HEADER_BYTES 8u

/* One decoded sample; chain points into the buffer or a scratch copy and
 * is valid only during the callback. */
typedef struct mp_rb_sample {
    uint16_t misc;
    uint64_t ip;
    uint32_t pid, tid;
    uint64_t time;
    uint32_t cpu;
    uint64_t period;
    uint64_t nchain;
    const uint64_t *chain;
} mp_rb_sample;

/* What a parse saw; counters accumulate over calls. */
typedef struct mp_rb_stats {
    uint64_t records;      /* complete records of any type */
    uint64_t samples;      /* PERF_RECORD_SAMPLE delivered to the callback */
    uint64_t lost_records; /* PERF_RECORD_LOST records */
    uint64_t lost;         /* samples the kernel says it dropped (sum of their counts) */
    uint64_t truncated;    /* records cut short or malformed (skipped) */
    uint64_t throttled;    /* THROTTLE records: the kernel slowed the sampling */
    uint64_t other;        /* records of other types (skipped) */
    uint64_t overrun;      /* head ran more than a whole buffer ahead of tail */
} mp_rb_stats;

typedef void (*mp_rb_fn)(const mp_rb_sample *s, void *ctx);

/* Decode the records between tail and head.  Returns the position up to
 * which the buffer was consumed (head, unless the last record is
 * incomplete: then the position of that record, counted in truncated, so
 * a live reader can retry it once the kernel has finished writing).
 * sample_type must be a subset of MP_RB_SAMPLE_SUPPORTED (else nothing is
 * decoded and every sample counts as truncated). */
uint64_t mp_rb_parse(const void *data, uint64_t size, uint64_t tail, uint64_t head,
                     uint64_t sample_type, mp_rb_fn fn, void *ctx, mp_rb_stats *st);

#endif
