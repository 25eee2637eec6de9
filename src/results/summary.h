/* summary.h - a metric's summary as results.json writes it. */
#ifndef MP_RESULTS_SUMMARY_H
#define MP_RESULTS_SUMMARY_H

#include <cjson/cJSON.h>
#include "common/stats.h"

/* A summary as results.json writes it: {p10, p50, ..., n}. */
cJSON *mp_summary_json(const mp_summary *s);

#endif
