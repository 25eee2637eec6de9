/* input.h - reading a file muxprof did not write: a results.json, a
 * samples.csv or a topology XML may come from anyone (a downloaded run, a
 * fleet host, a shared /tmp).  The file is opened non-blocking, so that a
 * FIFO or a device put in its place cannot block the open; anything but a
 * regular file is refused, and so is a file larger than the caller's limit,
 * each with one line naming the path and what it is.
 * Error convention: common/mp_err.h. */
#ifndef MP_INPUT_H
#define MP_INPUT_H

#include <stddef.h>

#include "common/mp_err.h"

/* Open path for reading: a regular file of at most max_bytes.  Returns the
 * descriptor (blocking, close-on-exec) or -errno: -ENOENT and the like from
 * open, -EBADMSG for a file that is not regular, -EFBIG for one too large. */
int mp_open_regular_file(const char *path, size_t max_bytes, mp_err *err);

/* The whole of such a file in *out (malloc'd, NUL-terminated; *len bytes
 * before the NUL); a file that grows past max_bytes while read is refused
 * too.  0 or -errno. */
int mp_read_regular_file(const char *path, size_t max_bytes, char **out, size_t *len,
                         mp_err *err);

#endif
