/* SPDX-License-Identifier: MIT */
/* schema.h - the schema results.json follows (docs/results-schema.md),
 * named by its "schema" value. */
#ifndef MP_RESULTS_SCHEMA_H
#define MP_RESULTS_SCHEMA_H

#include <cjson/cJSON.h>

#define MP_RESULTS_SCHEMA "muxprof-results/1"

/* The "tool" object of results.json and of every --json document: this
 * binary's name, release and git describe. */
cJSON *mp_res_tool_json(void);

#endif
