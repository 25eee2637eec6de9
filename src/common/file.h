/* SPDX-License-Identifier: MIT */
/* file.h - the one way muxprof writes files.
 *
 * Every file is written into a directory held open as an mp_dir, never by a
 * path that could be re-resolved: created under a fresh temporary name with
 * O_CREAT|O_EXCL|O_NOFOLLOW relative to the directory's descriptor, then
 * renamed into place, so a reader never sees half a file and nothing planted
 * under either name is followed.  A directory is written into only when it is
 * a real directory (never a symbolic link) owned by the effective user and not
 * writable by group or others, so nobody else can plant or swap a file in it
 * between a write and a use (a gnuplot script between its write and its run).
 *
 * A top directory keeps a manifest, MP_MANIFEST: one line "INODE CTIME NAME"
 * per file written into it or into its subdirectories (NAME relative to the
 * top, "figures/x.dat"; CTIME in ns, as right after the write).  A file is
 * removed only when the manifest lists it and the name still holds that
 * inode with that change time: only what muxprof wrote, never by a name
 * pattern, and never what a copied or forged manifest names (a file changed
 * since, appended to, say, is not removed either).
 *
 * Error convention: common/mp_err.h. */
#ifndef MP_FILE_H
#define MP_FILE_H

#include <limits.h>
#include <stdio.h>

#include "common/mp_err.h"

#define MP_MANIFEST ".muxprof-manifest"

typedef struct mp_dir_list mp_dir_list;   /* the manifest's entries (file.c) */

/* A directory held open for writing. */
typedef struct mp_dir {
    int fd;                   /* O_DIRECTORY; -1 when closed */
    char path[PATH_MAX];      /* as named, for messages and for readers that take paths */
    char rel[NAME_MAX + 2];   /* "" for a top directory, "SUB/" for a subdirectory */
    struct mp_dir *top;       /* the directory that keeps the manifest (itself for a top) */
    int created;              /* made by this process */
    mp_dir_list *list;        /* a top directory's manifest */
} mp_dir;

/* The path of a directory taken by mp_dir_create or mp_dir_open is opened
 * one component at a time with openat (from / or the current directory),
 * so no name is resolved twice; running as root no component is followed
 * when it is a symbolic link: -ELOOP naming the link and its target. */

/* Create the directory path (its missing parents too) and take it, with an
 * empty manifest.  The last component must not exist: -EEXIST ("PATH exists")
 * when it does, so two processes cannot both create the same directory. */
int mp_dir_create(mp_dir *d, const char *path, mp_err *err);

/* Take the existing directory path and read its manifest, when it has one.
 * With nofollow, path itself must not be a symbolic link.  Refused with
 * -ENOTDIR, -ELOOP (a link, dangling or not), -EPERM (owned by another user,
 * or writable by group or others) and a message that says which. */
int mp_dir_open(mp_dir *d, const char *path, int nofollow, mp_err *err);

/* 1 when d holds a manifest (it was written by muxprof), 0 when not. */
int mp_dir_has_manifest(const mp_dir *d);
/* 1 when d holds no entry at all. */
int mp_dir_is_empty(const mp_dir *d);
/* Create d's manifest, which must not exist yet: -EEXIST when another
 * process made one first (so two processes cannot both take an empty
 * directory). */
int mp_dir_claim(mp_dir *d, mp_err *err);
/* Start writing into d now rather than at its first file: its manifest is
 * written anew, which shows that the directory is writable. */
int mp_dir_start(mp_dir *d, mp_err *err);

/* Open (creating when missing) the subdirectory NAME of the top directory
 * top, with the same checks as mp_dir_open(nofollow); its files are listed
 * in top's manifest.  top must stay open while sub is. */
int mp_dir_sub(mp_dir *sub, mp_dir *top, const char *name, mp_err *err);

/* Remove the files of d (a top or a subdirectory) that its manifest lists
 * and that are still the ones written; returns how many were removed. */
size_t mp_dir_prune(mp_dir *d);
/* The same, keeping (and still listing) every file keep(NAME) says 1 for. */
size_t mp_dir_prune_except(mp_dir *d, int (*keep)(const char *name));

/* Record in the manifest the regular file NAME of d, written by another
 * program (gnuplot's figures). */
int mp_dir_note(mp_dir *d, const char *name, mp_err *err);

/* Call fn(in, name, ctx, err) for every file that the manifest of the top
 * directory top lists and that still is the one written, once each; in is
 * top or the subdirectory that holds it.  Stops at the first non-zero
 * return, which it returns. */
int mp_dir_each(mp_dir *top, int (*fn)(mp_dir *in, const char *name, void *ctx, mp_err *err),
                void *ctx, mp_err *err);

/* A directory made by this process and left unused: remove what was written
 * into it (as mp_dir_prune), its manifest and itself, then close it.  Any
 * other directory is only closed. */
void mp_dir_discard(mp_dir *d);

void mp_dir_close(mp_dir *d);

/* The regular file NAME of d, at most max bytes, into a malloc'd,
 * NUL-terminated *out (*len bytes).  Not followed when a symbolic link; a
 * FIFO or device is refused without blocking. */
int mp_dir_read(mp_dir *d, const char *name, size_t max, char **out, size_t *len,
                mp_err *err);

/* NAME of d opened for appending (O_APPEND), created when missing (then
 * recorded in the manifest): a descriptor, or a negative errno with err
 * filled.  An existing NAME must be a regular file with one link. */
int mp_file_open_append(mp_dir *d, const char *name, mp_err *err);

/* A file being written as DIR/.NAME.tmp.PID (or a fresh variant of that
 * name), renamed to DIR/NAME on commit. */
typedef struct mp_afile {
    FILE *f;
    mp_dir *dir;
    char tmp[NAME_MAX + 1];
    char name[NAME_MAX + 1];
} mp_afile;

/* NAME: one path component, not "." or "..". */
int mp_afile_open(mp_afile *a, mp_dir *dir, const char *name, mp_err *err);
/* Flush, close, rename and record in the manifest; on any failure removes the
 * temporary file. */
int mp_afile_commit(mp_afile *a, mp_err *err);
/* Close and remove the temporary file (safe after a failed open). */
void mp_afile_abort(mp_afile *a);

/* Write len bytes to DIR/NAME atomically. */
int mp_write_file(mp_dir *dir, const char *name, const char *data, size_t len, mp_err *err);

#endif
