/* SPDX-License-Identifier: MIT */
/* format.h - Markdown-safe number and cell formatting shared by the report
 * writers and compare. */
#ifndef MP_REPORT_FORMAT_H
#define MP_REPORT_FORMAT_H

#include <stdio.h>
#include "results/profile.h"

/* One number format for every report and compare table and sentence:
 * values from 1,000 up rounded to whole numbers with thousands grouped by
 * commas; below that 3 significant digits (ratios included), trailing
 * ".0" dropped; "n/a" for NaN. Returns buf. */
const char *mp_fmt_num(char *buf, size_t len, double v);

/* mp_fmt_num into a buffer that lives until the end of the enclosing block:
 * for numbers in one printf ("N=%s", MP_NUM(n)). */
#define MP_NUM(v) mp_fmt_num((char[32]){0}, 32, (double)(v))

/* A cell's profile: the samples it left out as taken in the harness between
 * calls, or why there is no such count ("not separated ..."). Returns buf. */
const char *mp_fmt_outside_calls(char *buf, size_t len, const mp_rprofile *p);

/* Copy s into buf as Markdown text, for a table cell or a sentence: the
 * report's name for mp_quote_md (common/quote.h). */
const char *mp_md_cell(char *buf, size_t len, const char *s);

#endif
