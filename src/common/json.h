/* SPDX-License-Identifier: MIT */
/* json.h - strict parsing of JSON input, and lenient getters for cJSON
 * objects: a member of the wrong type reads as the caller's "missing"
 * value.  Readers that must refuse bad input (report/'s loader) check
 * types themselves. */
#ifndef MP_JSON_H
#define MP_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include "common/mp_err.h"

/* Parse len bytes of text as exactly one JSON document: refused (-EBADMSG,
 * with where) when it is not valid UTF-8 (JSON text is), when it is not
 * JSON, when anything but white space follows the document, or when an
 * object holds one key twice.  0 and *out the
 * document (the caller deletes it), or -EBADMSG / -ENOMEM and *out NULL. */
int mp_json_parse(const char *text, size_t len, cJSON **out, mp_err *err);

/* j as JSON text (formatted: indented, as cJSON_Print; else one line),
 * always valid UTF-8: a byte of a string or key that is not (a command-line
 * argument, a host's file) is written as the escape \ufffd, U+FFFD, one per
 * byte.  Every JSON document muxprof writes goes through it.  malloc'd (free
 * it), NULL when out of memory. */
char *mp_json_print(const cJSON *j, int formatted);

/* The number at o.key, or missing when absent or not a number. */
double mp_json_num(const cJSON *o, const char *key, double missing);
/* The string at o.key, or missing when absent or not a string. */
const char *mp_json_str(const cJSON *o, const char *key, const char *missing);

#endif
