/* util.h - Markdown-safe number and cell formatting shared by the report
 * writers and compare. */
#ifndef MP_REPORT_UTIL_H
#define MP_REPORT_UTIL_H

#include <stdio.h>

/* A number for a table: 3 significant digits for small values, thousands
 * grouped for large ones; "–" (n/a) for NaN. Returns buf. */
const char *mp_fmt_num(char *buf, size_t len, double v);

/* Copy s into buf for a Markdown table cell: '|' and newlines replaced. */
const char *mp_md_cell(char *buf, size_t len, const char *s);

#endif
