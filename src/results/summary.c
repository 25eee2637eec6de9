/* SPDX-License-Identifier: MIT */
/* summary.c - summaries into results.json; see results/summary.h. */
#include "results/summary.h"

#include <string.h>

#define F(k, doc) {#k, offsetof(mp_summary, k), offsetof(mp_rsum, k), doc}
const mp_rsum_field mp_rsum_fields[] = {
    F(p10, "10th percentile (type 7)"),
    F(p50, "median"),
    F(p90, "90th percentile"),
    F(p99, "99th percentile"),
    F(mean, "mean"),
    F(min, "smallest sample"),
    F(max, "largest sample"),
    F(stddev, "sample standard deviation (divides by n - 1)"),
    F(n, "samples summarised"),
};
#undef F
const size_t mp_nrsum_fields = sizeof mp_rsum_fields / sizeof mp_rsum_fields[0];

cJSON *mp_summary_json(const mp_summary *s)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < mp_nrsum_fields; i++) {
        const mp_rsum_field *f = &mp_rsum_fields[i];
        const char *at = (const char *)s + f->summary_off;
        if (f->summary_off == offsetof(mp_summary, n))
            cJSON_AddNumberToObject(o, f->key, (double)s->n);
        else if (s->n == 0)   /* nothing measured: null, never zeros */
            cJSON_AddNullToObject(o, f->key);
        else
            cJSON_AddNumberToObject(o, f->key, *(const double *)at);
    }
    return o;
}
