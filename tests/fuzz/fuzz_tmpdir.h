/* SPDX-License-Identifier: MIT */
/* fuzz_tmpdir.h - a fresh private directory per execution for the fuzz
 * targets that write a run directory: made 0700 by mkdtemp under /dev/shm
 * (else /tmp), and removed with everything in it afterwards, links
 * removed, never followed.  A failure to make or remove one is the
 * harness's, not the input's: it aborts. */
#ifndef MP_FUZZ_TMPDIR_H
#define MP_FUZZ_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void fuzz_tmpdir_make(char *dir, size_t size, const char *tag)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, size, "%s/mp-fuzz-%s-XXXXXX", base, tag);
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
}

static inline int fuzz_tmpdir_rm1(const char *path, const struct stat *st, int flag,
                                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    if (remove(path) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

static inline void fuzz_tmpdir_remove(const char *dir)
{
    if (nftw(dir, fuzz_tmpdir_rm1, 16, FTW_DEPTH | FTW_PHYS) != 0) {
        fprintf(stderr, "fuzz: could not remove %s\n", dir);
        abort();
    }
}

#endif
