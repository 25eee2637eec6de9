/* SPDX-License-Identifier: MIT */
/* config.h - what report/ reads back of results.json's "config" object
 * (docs/results-schema.md): the order of the backends and modes a run
 * asked for, and whether its outputs were anonymized.  run/ writes the object from its configuration through the
 * table of the options it records (run/config.h: mp_run_config_table),
 * which holds each field's kind, unit and doc; the rows here read fields
 * of it by their key, and test_results holds each to its row there. */
#ifndef MP_RESULTS_CONFIG_H
#define MP_RESULTS_CONFIG_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/table.h"

#define MP_RCFG_MAX_LIST 64   /* the most values of a list read back */

typedef struct mp_rconfig {
    const char *backends[MP_RCFG_MAX_LIST];
    size_t nbackends;
    const char *modes[MP_RCFG_MAX_LIST];
    size_t nmodes;
    int anonymize;                /* every output of the run was anonymized */
} mp_rconfig;

extern const mp_rtable mp_rconfig_table;

/* config o into c, unchecked (results/table.h: mp_rtable_read): a list
 * keeps its first MP_RCFG_MAX_LIST values of its kind; c's strings point
 * into o. */
void mp_rconfig_read(const cJSON *o, mp_rconfig *c);

#endif
