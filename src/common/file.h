/* file.h - the one way muxprof writes a file: under DIR/.NAME.tmp.PID, then
 * renamed to DIR/NAME, so a reader never sees half a file; and directories
 * created on demand.  Error convention: common/mp_err.h. */
#ifndef MP_FILE_H
#define MP_FILE_H

#include <limits.h>
#include <stdio.h>

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

/* Create DIR if it does not exist (one level); an existing non-directory is an
 * error. */
int mp_mkdir(const char *dir, mp_err *err);

/* Create DIR and any missing parents. */
int mp_mkdir_p(const char *dir, mp_err *err);

#endif
