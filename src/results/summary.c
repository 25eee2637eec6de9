/* summary.c - summaries into results.json; see results/summary.h. */
#include "results/summary.h"

cJSON *mp_summary_json(const mp_summary *s)
{
    cJSON *o = cJSON_CreateObject();
    if (s->n == 0) {   /* nothing measured: null, never zeros */
        const char *keys[] = {"p10", "p50", "p90", "p99", "mean", "min", "max", "stddev"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            cJSON_AddNullToObject(o, keys[i]);
        cJSON_AddNumberToObject(o, "n", 0);
        return o;
    }
    cJSON_AddNumberToObject(o, "p10", s->p10);
    cJSON_AddNumberToObject(o, "p50", s->p50);
    cJSON_AddNumberToObject(o, "p90", s->p90);
    cJSON_AddNumberToObject(o, "p99", s->p99);
    cJSON_AddNumberToObject(o, "mean", s->mean);
    cJSON_AddNumberToObject(o, "min", s->min);
    cJSON_AddNumberToObject(o, "max", s->max);
    cJSON_AddNumberToObject(o, "stddev", s->stddev);
    cJSON_AddNumberToObject(o, "n", (double)s->n);
    return o;
}
