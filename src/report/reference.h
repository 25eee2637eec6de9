/* SPDX-License-Identifier: MIT */
/* reference.h - the reference datasets: published figures from the
 * articles muxprof was started from, kept in reports/reference/<name>.json
 * (results.json's schema plus "reference": true and a "source" naming
 * the article) and embedded in the binary at build time, so
 * `muxprof compare RUN epyc-9354p` works from any directory.
 */
#ifndef MP_COMPARE_REF_H
#define MP_COMPARE_REF_H

#include <stddef.h>
#include "common/mp_err.h"
#include "report/model.h"

typedef struct mp_cmp_ref {
    const char *name;    /* file name without .json, e.g. "epyc-9354p" */
    const char *text;    /* the JSON, NUL-terminated */
    size_t len;
} mp_cmp_ref;

/* Generated from the .json files in reports/reference/ by cmake/embed.cmake (mp_embed);
 * ends with {0}. */
extern const mp_cmp_ref mp_cmp_refs[];

/* The embedded dataset NAME (".json" suffix allowed), or NULL. */
const mp_cmp_ref *mp_cmp_ref_find(const char *name);

/* Load an embedded dataset into m, through the same checked reader as a
 * run's results.json; m->path becomes "reference NAME".  A reference must
 * carry "reference": true and a non-empty "source" string. */
int mp_cmp_ref_load(mp_rmodel *m, const mp_cmp_ref *r, mp_err *err);

/* A figure the article of embedded dataset NAME states, its
 * "source_claims".KEY ("poll_over_epoll_at_10000"): the one home of the
 * seeds' figures that the report sets a run beside.  NaN when the dataset or
 * the key is missing or not a number. */
double mp_cmp_ref_claim(const char *name, const char *key);

/* Check the reference-specific fields of a loaded model: when "reference"
 * is present it must be a boolean, and a reference needs "source".
 * *is_ref is set to 1 for a reference.  -EBADMSG naming the field. */
int mp_cmp_ref_check(const mp_rmodel *m, int *is_ref, mp_err *err);

#endif
