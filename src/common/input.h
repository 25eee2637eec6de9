/* SPDX-License-Identifier: MIT */
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

/* The same for the file rel inside the directory dir, no component of rel
 * followed when a symbolic link (openat with O_NOFOLLOW, one component at a
 * time): a link is -ELOOP, "DIR/REL is a symbolic link, not followed".  For
 * the inputs of a directory someone handed over, whose links may point
 * anywhere (a /etc file read into a results.json). */
int mp_open_regular_file_in(const char *dir, const char *rel, size_t max_bytes, mp_err *err);
int mp_read_regular_file_in(const char *dir, const char *rel, size_t max_bytes, char **out,
                            size_t *len, mp_err *err);

#endif
