/* SPDX-License-Identifier: MIT */
/* names.h - "a, b, c" lists for usage text and "expected one of" messages,
 * printed from the table that holds the names. */
#ifndef MP_NAMES_H
#define MP_NAMES_H

#include <stddef.h>

/* names[0..n) joined with ", " into buf (truncated to len).  Returns buf. */
const char *mp_names_join(char *buf, size_t len, const char *const *names, size_t n);

#endif
