/* SPDX-License-Identifier: MIT */
/* manifest.c - the manifest of a directory muxprof writes: the list of
 * what it wrote (inode, change time, name), loaded, appended to, written
 * anew, and the checks that a listed file is still the one written.  See
 * file.h and internal.h. */
#include "common/file.h"
#include "common/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST_MAX_BYTES (8u << 20)
#define TMP_TRIES 100

/* ---- the manifest ------------------------------------------------------ */

static int list_add(mp_dir_list *l, stamp st, const char *name)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        entry *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    char *s = strdup(name);
    if (!s)
        return -ENOMEM;
    l->v[l->n++] = (entry){st, s, l->seq++};
    return 0;
}

void mp__file_list_drop(mp_dir_list *l, size_t i)
{
    free(l->v[i].name);
    l->v[i] = l->v[--l->n];
}

static int by_name(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Keep the last entry of each name (a file rewritten has a new stamp). */
void mp__file_list_dedup(mp_dir_list *l)
{
    size_t n = l->n, k = 0;
    entry *v = l->v;
    if (n < 2)
        return;
    qsort(v, n, sizeof *v, by_name);
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && !strcmp(v[i].name, v[i + 1].name)) {
            free(v[i].name);
            continue;
        }
        v[k++] = v[i];
    }
    l->n = k;
}

void mp__file_list_free(mp_dir_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    if (l->fd >= 0)
        close(l->fd);
    free(l);
}

int mp__file_read_fd(int fd, size_t max, char **out, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        return -EINVAL;
    if ((uintmax_t)st.st_size > max)
        return -EFBIG;
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return -ENOMEM;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > max) {
                free(buf);
                return -EFBIG;
            }
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                return -ENOMEM;
            }
            buf = b;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return -e;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* The entries of an existing manifest; a line that is not "INODE NAME" with a
 * valid NAME is skipped. */
int mp__file_manifest_load(mp_dir *d, mp_err *err)
{
    int fd = openat(d->fd, MP_MANIFEST, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : mp_errf(err, -errno, "cannot read %s/%s: %s", d->path,
                                             MP_MANIFEST, strerror(errno));
    char *text;
    size_t len;
    int rc = mp__file_read_fd(fd, MANIFEST_MAX_BYTES, &text, &len);
    close(fd);
    if (rc)
        return mp_errf(err, rc, "cannot read %s/%s: %s", d->path, MP_MANIFEST,
                       rc == -EINVAL ? "not a regular file" : strerror(-rc));
    for (char *line = text, *next; line && *line && !rc; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        stamp st;
        int used = 0;
        if (sscanf(line, "%llu %llu %n", &st.ino, &st.ctime_ns, &used) != 2 || !used ||
            !mp__file_valid_rel(line + used))
            continue;
        rc = list_add(d->list, st, line + used);
    }
    free(text);
    if (rc)
        return mp_errf(err, rc, "out of memory reading %s/%s", d->path, MP_MANIFEST);
    mp__file_list_dedup(d->list);
    return 0;
}

static int put_line(int fd, const entry *e)
{
    char line[PATH_MAX + 32];
    int n = snprintf(line, sizeof line, "%llu %llu %s\n", e->st.ino, e->st.ctime_ns, e->name);
    if (n < 0 || (size_t)n >= sizeof line)
        return -ENAMETOOLONG;
    for (const char *p = line; n > 0;) {
        ssize_t w = write(fd, p, (size_t)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? -errno : -EIO;
        p += w;
        n -= (int)w;
    }
    return 0;
}

/* Create a fresh temporary file in dir for name: a descriptor, its name in tmp. */
int mp__file_open_tmp(int dirfd, const char *name, char *tmp, size_t len)
{
    for (int k = 0; k < TMP_TRIES; k++) {
        if (k == 0)
            snprintf(tmp, len, ".%s.tmp.%ld", name, (long)getpid());
        else
            snprintf(tmp, len, ".%s.tmp.%ld.%d", name, (long)getpid(), k);
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        MP__FILE_MODE);
        if (fd >= 0 || errno != EEXIST)
            return fd < 0 ? -errno : fd;
    }
    return -EEXIST;
}

/* Write the whole manifest anew (tmp + rename), then keep it open for
 * appending. */
int mp__file_manifest_write(mp_dir *top, mp_err *err)
{
    mp_dir_list *l = top->list;
    char tmp[NAME_MAX + 1];
    if (l->fd >= 0) {
        close(l->fd);
        l->fd = -1;
    }
    int fd = mp__file_open_tmp(top->fd, MP_MANIFEST, tmp, sizeof tmp), rc = 0;
    if (fd < 0)
        return mp_errf(err, fd, "cannot write the manifest in %s: %s", top->path,
                       strerror(-fd));
    for (size_t i = 0; i < l->n && !rc; i++)
        rc = put_line(fd, &l->v[i]);
    if (close(fd) != 0 && !rc)
        rc = -errno;
    if (!rc && renameat(top->fd, tmp, top->fd, MP_MANIFEST) != 0)
        rc = -errno;
    if (rc) {
        unlinkat(top->fd, tmp, 0);
        return mp_errf(err, rc, "cannot write %s/%s: %s", top->path, MP_MANIFEST,
                       strerror(-rc));
    }
    l->fd = openat(top->fd, MP_MANIFEST, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (l->fd < 0)
        return mp_errf(err, -errno, "cannot open %s/%s: %s", top->path, MP_MANIFEST,
                       strerror(errno));
    return 0;
}

/* The stamp of the regular file base of dirfd (not followed when a link). */
static int stamp_of(int dirfd, const char *base, stamp *s)
{
    struct stat st;
    if (dirfd < 0 || fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode))
        return -1;
    s->ino = (unsigned long long)st.st_ino;
    s->ctime_ns = (unsigned long long)st.st_ctim.tv_sec * 1000000000ull +
                  (unsigned long long)st.st_ctim.tv_nsec;
    return 0;
}

/* d/name (name relative to d) was just written, as inode ino: listed with
 * its stamp. */
int mp__file_record(mp_dir *d, const char *name, unsigned long long ino, mp_err *err)
{
    mp_dir *top = d->top;
    char rel[PATH_MAX];
    stamp st;
    snprintf(rel, sizeof rel, "%s%s", d->rel, name);
    if (stamp_of(d->fd, name, &st) != 0 || st.ino != ino)
        return mp_errf(err, -ESTALE, "%s/%s changed while muxprof wrote it", d->path, name);
    if (list_add(top->list, st, rel))
        return mp_errf(err, -ENOMEM, "out of memory");
    if (top->list->fd < 0)   /* written anew, the new entry with the others */
        return mp__file_manifest_write(top, err);
    int rc;
    if ((rc = put_line(top->list->fd, &top->list->v[top->list->n - 1])))
        return mp_errf(err, rc, "cannot write %s/%s: %s", top->path, MP_MANIFEST,
                       strerror(-rc));
    return 0;
}

/* The directory holding entry name of top (top's own descriptor, or a
 * subdirectory opened without following a link, which *close gets), and the
 * file's own name in it. */
int mp__file_entry_dir(mp_dir *top, const char *name, const char **base, int *to_close)
{
    const char *slash = strchr(name, '/');
    *to_close = -1;
    *base = slash ? slash + 1 : name;
    if (!slash)
        return top->fd;
    char sub[NAME_MAX + 1];
    snprintf(sub, sizeof sub, "%.*s", (int)(slash - name), name);
    *to_close = openat(top->fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return *to_close;
}

/* 1 when base in dirfd is still the file muxprof wrote with stamp was. */
int mp__file_still_written(int dirfd, const char *base, stamp was)
{
    stamp now;
    return stamp_of(dirfd, base, &now) == 0 && now.ino == was.ino &&
           now.ctime_ns == was.ctime_ns;
}
