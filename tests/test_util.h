/* SPDX-License-Identifier: MIT */
/* test_util.h - small helpers shared by the tests. */
#ifndef MP_TEST_UTIL_H
#define MP_TEST_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A scratch directory for one test program: mp_test_mkdtemp fills dir
 * (at least 64 bytes) with a new /tmp/mp-NAME-XXXXXX, mp_test_rmtree removes it
 * (0, or -1 on failure: cmocka group setup/teardown conventions). */
static inline int mp_test_mkdtemp(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "/tmp/mp-%s-XXXXXX", name);
    return mkdtemp(dir) ? 0 : -1;
}

static inline int mp_test_rmtree(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Entries in /proc/self/fd, less ".", ".." and the directory's own fd. */
static inline int mp_test_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1;
}

/* Read a whole file (NUL-terminated, its length in *len when len is not
 * NULL: binary files hold NUL bytes); NULL on failure. */
static inline char *mp_test_slurp_n(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    if (b && len)
        *len = (size_t)n;
    fclose(f);
    return b;
}

static inline char *mp_test_slurp(const char *path)
{
    return mp_test_slurp_n(path, NULL);
}

/* Live processes whose command line mentions s (zombies have none), each
 * named on stdout.  The descriptor helper is a fork of muxprof, so its
 * command line is the parent's: a unique --out path finds both. */
static inline int mp_test_procs_mentioning(const char *s)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        char path[300], buf[8192];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < k; i++)
            if (!buf[i])
                buf[i] = ' ';
        buf[k] = 0;
        if (strstr(buf, s)) {
            printf("  still running: pid %s: %.200s\n", e->d_name, buf);
            n++;
        }
    }
    closedir(d);
    return n;
}

#endif
