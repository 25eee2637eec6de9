/* report_util.h - small helpers shared by the report writers (and later by
 * compare): files written under a temporary name and renamed into place,
 * and Markdown-safe number formatting. */
#ifndef MP_REPORT_UTIL_H
#define MP_REPORT_UTIL_H

#include <stdio.h>
#include <limits.h>
#include "common/mp_err.h"

/* A file being written as DIR/.NAME.tmp.PID, renamed to DIR/NAME on commit. */
typedef struct mp_afile {
    FILE *f;
    char tmp[PATH_MAX];
    char path[PATH_MAX];
} mp_afile;

int mp_afile_open(mp_afile *a, const char *dir, const char *name, mp_err *err);
/* Flush, close and rename; on any failure removes the temporary file. */
int mp_afile_commit(mp_afile *a, mp_err *err);
/* Close and remove the temporary file (safe after a failed open). */
void mp_afile_abort(mp_afile *a);

/* Write len bytes to DIR/NAME atomically. */
int mp_write_file(const char *dir, const char *name, const char *data, size_t len,
                  mp_err *err);

/* Create DIR if it does not exist (one level). */
int mp_mkdir(const char *dir, mp_err *err);

/* A number for a table: 3 significant digits for small values, thousands
 * grouped for large ones; "–" (n/a) for NaN. Returns buf. */
const char *mp_fmt_num(char *buf, size_t len, double v);

/* Copy s into buf for a Markdown table cell: '|' and newlines replaced. */
const char *mp_md_cell(char *buf, size_t len, const char *s);

#endif
