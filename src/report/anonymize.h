/* SPDX-License-Identifier: MIT */
/* anonymize.h - what --anonymize does to a results.json: a table of its
 * fields (src/report/anonymize.c) says which are replaced by labels, which
 * are dropped, which are scrubbed as free text and which are kept; every
 * other output is then made again from the rewritten document, so nothing
 * searches the written text.  The mechanism is common/anonymize.h; the
 * fields and what each may carry are described in docs/privileges.md.
 * Error convention: common/mp_err.h. */
#ifndef MP_REPORT_ANONYMIZE_H
#define MP_REPORT_ANONYMIZE_H

#include <cjson/cJSON.h>

#include "common/anonymize.h"
#include "common/file.h"
#include "common/mp_err.h"
#include "report/model.h"

/* Rewrite a parsed results.json by the field table and record what was
 * done in context.anonymized.  labels is shared by every document of one
 * output (two runs of one host get one host label). */
int mp_rm_anonymize(cJSON *doc, mp_anon *labels, mp_err *err);

/* mp_rm_load with the document anonymized before the model is built from it
 * (labels NULL: not anonymized). */
int mp_rm_load_anonymized(mp_rmodel *m, const char *path, mp_anon *labels, mp_err *err);

/* The largest results.csv or samples.csv copied: a run's samples.csv of
 * 100 M samples is about 6 GB. */
#define MP_ANON_COPY_MAX_BYTES (8ull << 30)

/* SRC/results.json anonymized into DST/results.json; when DST is another
 * directory, results.csv, samples.csv and experiments.csv are copied beside it (they hold
 * cell keys, metric names and numbers only), each opened as the run
 * directory's inputs are: a symbolic link, anything but a regular file and a
 * file over MP_ANON_COPY_MAX_BYTES are refused (-EBADMSG).  report.md and figures are then
 * made from DST with mp_report_build. */
int mp_report_anonymize_run(const char *src, mp_dir *dst, mp_err *err);

#endif
