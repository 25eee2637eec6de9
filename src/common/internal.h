/* SPDX-License-Identifier: MIT */
/* internal.h - what the files of common/ share and nothing outside uses:
 * file.c (directories and files) and manifest.c (the manifest of what was
 * written in a directory).  Error convention: common/mp_err.h. */
#ifndef MP_COMMON_INTERNAL_H
#define MP_COMMON_INTERNAL_H

#include <stddef.h>

#include "common/file.h"
#include "common/mp_err.h"

#define MP__FILE_MODE 0644

/* What tells a file muxprof wrote from another one under its name: the
 * inode, and its change time as it was right after the write (an inode number
 * alone can be reused by a file made after ours was removed). */
typedef struct stamp {
    unsigned long long ino, ctime_ns;
} stamp;

typedef struct entry {
    stamp st;
    char *name;                    /* relative to the top directory */
    size_t seq;                    /* order of writing */
} entry;

struct mp_dir_list {
    entry *v;
    size_t n, cap, seq;
    int fd;                        /* the manifest, open for appending; -1 until written */
};

/* ---- manifest.c ---- */

void mp__file_list_drop(mp_dir_list *l, size_t i);
/* Keep the last entry of each name (a file rewritten has a new stamp). */
void mp__file_list_dedup(mp_dir_list *l);
void mp__file_list_free(mp_dir_list *l);
/* The whole of fd, a regular file (-EINVAL otherwise) of at most max bytes
 * (-EFBIG), NUL-terminated into *out (malloc'd), its length in *len. */
int mp__file_read_fd(int fd, size_t max, char **out, size_t *len);
/* The entries of an existing manifest; a line that is not "INODE NAME" with a
 * valid NAME is skipped. */
int mp__file_manifest_load(mp_dir *d, mp_err *err);
/* Create a fresh temporary file in dir for name: a descriptor, its name in tmp. */
int mp__file_open_tmp(int dirfd, const char *name, char *tmp, size_t len);
/* Write the whole manifest anew (tmp + rename), then keep it open for
 * appending. */
int mp__file_manifest_write(mp_dir *top, mp_err *err);
/* d/name (name relative to d) was just written, as inode ino: listed with
 * its stamp. */
int mp__file_record(mp_dir *d, const char *name, unsigned long long ino, mp_err *err);
/* The directory holding entry name of top (top's own descriptor, or a
 * subdirectory opened without following a link, which *close gets), and the
 * file's own name in it. */
int mp__file_entry_dir(mp_dir *top, const char *name, const char **base, int *to_close);
/* 1 when base in dirfd is still the file muxprof wrote with stamp was. */
int mp__file_still_written(int dirfd, const char *base, stamp was);

/* ---- file.c ---- */

/* A manifest name: "NAME" or "SUB/NAME". */
int mp__file_valid_rel(const char *s);

#endif
