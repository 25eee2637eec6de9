/* SPDX-License-Identifier: MIT */
/* anonymize.h - a JSON document rewritten field by field before it is
 * published.  The caller owns the policy: a table of field paths, each with
 * what to do with the value found there; this file owns the mechanism
 * (matching paths, labels, free text scrubbed by shape).
 *
 * A path names nodes from the document's root: keys joined by '.', "[]" for
 * every element of an array, '*' for every member of an object:
 * "context.host", "results[].reason", "experiments.*.cells[].reason".
 * Keys are never rewritten.  Error convention: common/mp_err.h. */
#ifndef MP_ANONYMIZE_H
#define MP_ANONYMIZE_H

#include <cjson/cJSON.h>

#include "common/mp_err.h"

#define MP_ANON_PATH "<path>"
#define MP_ANON_KADDR "<kernel address>"

typedef enum mp_anon_act {
    MP_ANON_KEEP,   /* left as it is */
    MP_ANON_DROP,   /* removed from its object or array */
    MP_ANON_LABEL,  /* a string replaced by the label of its value: arg "host" gives
                     * "host-1", "host-2", ... one per distinct value */
    MP_ANON_TEXT,   /* free text scrubbed by shape (mp_anon_text) */
    MP_ANON_ARGV,   /* a command line joined by spaces: the value of each option
                     * named in arg ("--out --xml"), or by a prefix of its name
                     * ("--o=", "--ou"), becomes one MP_ANON_PATH, with the
                     * words after it up to the next that starts with '-';
                     * every other argument is scrubbed as free text */
} mp_anon_act;

typedef struct mp_anon_field {
    const char *path;
    mp_anon_act act;
    const char *arg;
} mp_anon_field;

/* The labels handed out so far: one mp_anon for all the documents of one
 * output, so a host met in two of them gets one label.  NULL when out of
 * memory. */
typedef struct mp_anon mp_anon;
mp_anon *mp_anon_new(void);
void mp_anon_free(mp_anon *a);

/* Rewrite doc: a node whose path matches a row of rows[0..n-1] gets the
 * first such row's action; a string that matches no row gets dflt.  A
 * LABEL, TEXT or ARGV row that finds something other than a string drops
 * it (a value of an unexpected shape cannot be vouched for). */
int mp_anon_doc(mp_anon *a, cJSON *doc, const mp_anon_field *rows, size_t n,
                mp_anon_act dflt, mp_err *err);

/* Free text with every path replaced by MP_ANON_PATH and every kernel
 * address by MP_ANON_KADDR; malloc'd, NULL when out of memory.  A path is a
 * word that starts with '/', "~/", "./" or "../"; /proc, /sys, /dev and
 * the paths under them name kernel interfaces and are kept.  A kernel address is
 * "0xffff" or "ffff" and 12 more hex digits, standing alone. */
char *mp_anon_text(const char *in);

/* mp_anon_text of the string in buf (of size len), written back into it
 * (cut to fit); left as it is when out of memory returns -ENOMEM. */
int mp_anon_text_in_place(char *buf, size_t len);

#endif
