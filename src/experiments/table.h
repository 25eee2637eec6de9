/* SPDX-License-Identifier: MIT */
/* table.h - the run's terminal summary of an experiment, printed from its
 * self-describing table (results/exp_table.h: the description and the
 * "table" object it writes into results.json).
 * Error convention: common/mp_err.h. */
#ifndef MP_EXP_TABLE_H
#define MP_EXP_TABLE_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "results/exp_table.h"

/* Print the terminal summary of experiment `name` from t and o's "table"
 * (no rows when o has none: the experiment failed as a whole). */
void mp_exp_table_print(const char *name, const mp_exp_table *t, const cJSON *o, FILE *f);

#endif
