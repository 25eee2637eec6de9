/* SPDX-License-Identifier: MIT */
/* summary.h - a <summary> of results.json (docs/results-schema.md): the
 * statistics of one metric over a cell's kept samples, as one table that
 * the writer, the reader and the schema's test go through. */
#ifndef MP_RESULTS_SUMMARY_H
#define MP_RESULTS_SUMMARY_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "common/stats.h"

/* A <summary> as read back; fields absent from the file are NaN. */
typedef struct mp_rsum {
    double p10, p50, p90, p99, mean, min, max, stddev, n;
} mp_rsum;

/* One key of a <summary>: where it lies in mp_summary (what the run
 * computes) and in mp_rsum (what the report reads). */
typedef struct mp_rsum_field {
    const char *key;
    size_t summary_off;   /* a double of mp_summary; n: its size_t count */
    size_t rsum_off;      /* a double of mp_rsum */
    const char *doc;
} mp_rsum_field;

extern const mp_rsum_field mp_rsum_fields[];
extern const size_t mp_nrsum_fields;

/* A summary as results.json writes it: {p10, p50, ..., n}; every statistic
 * null when nothing was measured (n 0). */
cJSON *mp_summary_json(const mp_summary *s);

#endif
