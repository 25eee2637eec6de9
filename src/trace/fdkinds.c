// SPDX-License-Identifier: MIT
/* fdkinds.c - what a traced program's descriptors are; see internal.h. */
#include "trace/internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const mp__fdk_name[MP__FDK_N] = {"tcp", "socketpair", "pipe", "eventfd", "other"};

typedef struct inodes {
    unsigned long *v;
    size_t n, cap;
} inodes;

static int inode_cmp(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

/* ino appended to s; -1 when there is no memory for it. */
static int add(inodes *s, unsigned long ino)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        unsigned long *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = ino;
    return 0;
}

/* The inodes in column col (0-based, blank-separated) of a /proc/net table
 * after its header line, appended to s; a table that cannot be read adds none. */
static void read_inodes(inodes *s, const char *path, int col)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return;
    char line[512];
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        if (first) {
            first = 0;
            continue;
        }
        char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
        for (int c = 0; tok && c < col; c++)
            tok = strtok_r(NULL, " \t\n", &save);
        if (!tok)
            continue;
        char *e;
        unsigned long ino = strtoul(tok, &e, 10);
        if (*e || !ino)
            continue;
        if (add(s, ino))
            break;
    }
    fclose(f);
}

static int has(const inodes *s, unsigned long ino)
{
    return s->n && bsearch(&ino, s->v, s->n, sizeof *s->v, inode_cmp) != NULL;
}

/* The descriptors first, the socket tables after: a connection made while
 * the descriptors are walked is then in the tables (one made after the
 * tables were read would be taken for another kind of socket). */
int mp__fd_census(long pid, long long count[MP__FDK_N])
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd", pid);
    DIR *d = opendir(path);
    if (!d)
        return -errno;
    memset(count, 0, MP__FDK_N * sizeof count[0]);
    inodes socks = {0}, tcp = {0}, unx = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char link[300], to[128];
        snprintf(link, sizeof link, "/proc/%ld/fd/%s", pid, e->d_name);
        ssize_t k = readlink(link, to, sizeof to - 1);
        if (k < 0)
            continue;   /* closed meanwhile */
        to[k] = 0;
        unsigned long ino;
        if (!strncmp(to, "pipe:[", 6))
            count[MP__FDK_PIPE]++;
        else if (!strcmp(to, "anon_inode:[eventfd]"))
            count[MP__FDK_EVENTFD]++;
        else if (sscanf(to, "socket:[%lu]", &ino) != 1)
            count[MP__FDK_OTHER]++;
        else if (add(&socks, ino))
            count[MP__FDK_OTHER]++;   /* no memory to tell it apart */
    }
    closedir(d);
    if (socks.n) {
        static const char *const tcp_tables[] = {"tcp", "tcp6"};
        for (size_t i = 0; i < sizeof tcp_tables / sizeof tcp_tables[0]; i++) {
            snprintf(path, sizeof path, "/proc/%ld/net/%s", pid, tcp_tables[i]);
            read_inodes(&tcp, path, 9);
        }
        snprintf(path, sizeof path, "/proc/%ld/net/unix", pid);
        read_inodes(&unx, path, 6);
        if (tcp.n)
            qsort(tcp.v, tcp.n, sizeof *tcp.v, inode_cmp);
        if (unx.n)
            qsort(unx.v, unx.n, sizeof *unx.v, inode_cmp);
    }
    for (size_t i = 0; i < socks.n; i++)
        count[has(&tcp, socks.v[i]) ? MP__FDK_TCP : has(&unx, socks.v[i]) ? MP__FDK_UNIX
                                                                           : MP__FDK_OTHER]++;
    free(socks.v);
    free(tcp.v);
    free(unx.v);
    return 0;
}
