/* SPDX-License-Identifier: MIT */
/* md.h - Markdown helpers shared by the report sections and compare. */
#ifndef MP_REPORT_MD_H
#define MP_REPORT_MD_H

#include <stdio.h>

#include "report/fig.h"
#include "report/model.h"

/* Embed the prepared figure NAME (or say why it was not drawn); nothing
 * when no such figure was prepared. */
void mp_rmd_figure(FILE *f, const mp_rfigs *figs, const char *name);
/* Scalars of a JSON object (and of objects one level down) as table rows. */
void mp_rmd_scalar_rows(FILE *f, const cJSON *o, const char *prefix);
/* The strings, numbers and booleans of a JSON object (not its lists, its
 * objects or its member `except`) as table rows. */
void mp_rmd_scalar_rows_except(FILE *f, const cJSON *o, const char *prefix, const char *except);
/* The fields a file held (results/table.h: mp_rtable_held) of rec, the
 * model their table reads, as the rows "| KEY | VALUE |" that
 * mp_rmd_scalar_rows makes of the same object: a field of an object as
 * "OBJECT.KEY", a JSON field's scalars as "KEY.NAME". */
void mp_rmd_table_rows(FILE *f, const mp_rtheld *held, size_t n, const void *rec);

#endif
