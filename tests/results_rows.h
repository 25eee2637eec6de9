/* SPDX-License-Identifier: MIT */
/* results_rows.h - docs/results-schema.md's line for each field of a
 * results/ table (results/table.h): `| \`key\` | kind | unit | doc |`, the
 * fields of an object or a list of objects under their own heading. */
#ifndef MP_TEST_RESULTS_ROWS_H
#define MP_TEST_RESULTS_ROWS_H

#include <stdio.h>
#include "results/table.h"

/* An element of an ARRAY: a count, else a text (a name, a string, a
 * reference to a named thing). */
static int rt_is_count(const mp_rtfield *f)
{
    return f->type == MP_RT_COUNT || f->type == MP_RT_INT;
}

static const char *rt_kind(const mp_rtfield *f)
{
    switch (f->type) {
    case MP_RT_TEXT:
    case MP_RT_STR: return "text";
    case MP_RT_COUNT: return "count";
    case MP_RT_NUMBER:
        return f->absent == MP_RT_UNAVAILABLE_NAN ? "number or \"unavailable\""
               : f->absent == MP_RT_NULL_NAN      ? "number or null"
                                                  : "number";
    case MP_RT_BOOL: return "boolean";
    case MP_RT_HEX: return "text \"0x...\"";
    case MP_RT_CHOICE: return "text (a name)";
    case MP_RT_TEXT_LIST: return "array of text";
    case MP_RT_COUNT_LIST: return "array of counts";
    case MP_RT_OBJECT: return "object";
    case MP_RT_OBJECT_LIST: return "array of objects";
    case MP_RT_JSON: return "object";
    case MP_RT_INT: return "count";
    case MP_RT_ARRAY: return rt_is_count(f->sub->fields) ? "array of counts" : "array of text";
    case MP_RT_REF: return rt_kind(f->sub->fields);
    case MP_RT_KEYED_LIST: return "object of objects, by name";
    }
    return "?";
}

/* Field f's line, without its newline. */
static void rt_row(const mp_rtfield *f, char *buf, size_t len)
{
    snprintf(buf, len, "| `%s` | %s | %s | %s |", f->key, rt_kind(f), f->unit[0] ? f->unit : "-",
             f->doc);
}

#endif
