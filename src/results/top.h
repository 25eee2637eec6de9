/* SPDX-License-Identifier: MIT */
/* top.h - the members of results.json's top level that come before its
 * objects (docs/results-schema.md): the schema, the tool that wrote it,
 * how the run ended, where it was recovered from, when it ran.  One
 * model, mp_rrun, that run/ fills and writes (the journal's head and tail
 * each with the members it knows, results.json with all of them) and
 * report/ reads back, through the table of its fields.  context,
 * topology, counters, config, calibration, experiments and results follow
 * them, each written by its own writer. */
#ifndef MP_RESULTS_TOP_H
#define MP_RESULTS_TOP_H

#include <cjson/cJSON.h>
#include "results/table.h"

/* The "tool" object: which muxprof wrote a document. */
typedef struct mp_rtool {
    const char *name, *version, *git_describe;
} mp_rtool;

typedef struct mp_rrun {
    const char *schema;           /* NULL: left out */
    int has_tool;
    mp_rtool tool;
    const char *status;           /* complete, interrupted, errors; NULL: left out */
    const char *interrupted_cell; /* NULL or "": left out */
    int interrupted_signal;       /* 0: left out */
    const cJSON *recovered;       /* NULL: left out */
    const char *started_utc, *finished_utc;   /* NULL or "": left out */
} mp_rrun;

extern const mp_rtable mp_rtool_table;
extern const mp_rtable mp_rrun_table;

/* This binary's name, release and git describe. */
mp_rtool mp_rtool_this(void);

/* The members of r, in the table's order, into a new object; NULL when
 * out of memory. */
cJSON *mp_rrun_json(const mp_rrun *r);
/* The members of o into r, unchecked (results/table.h: mp_rtable_read);
 * interrupted_signal absent or not a number reads 0; r's strings and
 * objects point into o. */
void mp_rrun_read(const cJSON *o, mp_rrun *r);

#endif
