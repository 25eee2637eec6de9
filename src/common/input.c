/* SPDX-License-Identifier: MIT */
/* input.c - see input.h. */
#include "common/input.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    return "not a plain file";
}

/* "64 MiB", "67108865 bytes (64.0 MiB)" or "4096 bytes". */
static const char *size_text(char *buf, size_t len, unsigned long long n)
{
    const unsigned long long mib = 1024 * 1024;
    if (n >= mib && n % mib == 0)
        snprintf(buf, len, "%llu MiB", n / mib);
    else if (n >= mib)
        snprintf(buf, len, "%llu bytes (%.1f MiB)", n, (double)n / (double)mib);
    else
        snprintf(buf, len, "%llu bytes", n);
    return buf;
}

static int too_big(const char *path, unsigned long long n, size_t max_bytes, mp_err *err)
{
    char a[48], b[48];
    return mp_errf(err, -EFBIG, "%s is %s, over the limit of %s for this input",
                   path, size_text(a, sizeof a, n), size_text(b, sizeof b, max_bytes));
}

/* fd (opened non-blocking as path) checked as a regular file of at most
 * max_bytes and made blocking: fd, or -errno with fd closed. */
static int regular_fd(int fd, const char *path, size_t max_bytes, mp_err *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return mp_errf(err, -e, "cannot stat %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return mp_errf(err, -EBADMSG, "%s is %s, not a regular file; give the file itself",
                       path, kind_of(st.st_mode));
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        return too_big(path, (unsigned long long)st.st_size, max_bytes, err);
    }
    if (fcntl(fd, F_SETFL, 0) != 0) {
        int e = errno;
        close(fd);
        return mp_errf(err, -e, "%s: fcntl: %s", path, strerror(e));
    }
    return fd;
}

int mp_open_regular_file(const char *path, size_t max_bytes, mp_err *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        return mp_errf(err, -e, "cannot open %s: %s", path, strerror(e));
    }
    return regular_fd(fd, path, max_bytes, err);
}

/* rel's next component opened in at (O_NOFOLLOW): a symbolic link is -ELOOP
 * whether O_DIRECTORY made open say ENOTDIR or ELOOP. */
static int open_step(int at, const char *name, int flags, const char *path, mp_err *err)
{
    int fd = openat(at, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0)
        return fd;
    int e = errno;
    struct stat st;
    if ((e == ELOOP || e == ENOTDIR) && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(st.st_mode))
        return mp_errf(err, -ELOOP, "%s is a symbolic link, not followed", path);
    return mp_errf(err, -e, "cannot open %s: %s", path, strerror(e));
}

int mp_open_regular_file_in(const char *dir, const char *rel, size_t max_bytes, mp_err *err)
{
    char path[4096], name[256];
    if (snprintf(path, sizeof path, "%s/%s", dir, rel) >= (int)sizeof path)
        return mp_errf(err, -ENAMETOOLONG, "%s/%s: path too long", dir, rel);
    int at = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (at < 0) {
        int e = errno;
        return mp_errf(err, -e, "cannot open %s: %s", dir, strerror(e));
    }
    for (const char *s = rel;;) {
        size_t n = strcspn(s, "/");
        if (!n || n >= sizeof name) {   /* "a//b", "/a", "a/" */
            close(at);
            return mp_errf(err, -EINVAL, "%s: not a relative path of names", path);
        }
        memcpy(name, s, n);
        name[n] = 0;
        int last = !s[n];
        int fd = open_step(at, name, last ? O_RDONLY | O_NONBLOCK : O_RDONLY | O_DIRECTORY,
                           path, err);
        close(at);
        if (fd < 0 || last)
            return fd < 0 ? fd : regular_fd(fd, path, max_bytes, err);
        at = fd;
        s += n + 1;
    }
}

/* The whole of the regular file fd (path, for messages) into *out; fd closed. */
static int read_whole(int fd, const char *path, size_t max_bytes, char **out, size_t *len,
                      mp_err *err)
{
    /* Room for the size fstat gave and the NUL; grown (up to one byte past
     * the limit, to see it passed) when the file grew. */
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096, n = 0;
    char *buf = malloc(cap);
    int rc = buf ? 0 : -ENOMEM;
    while (rc == 0) {
        if (n + 1 == cap) {
            size_t ncap = cap * 2 < max_bytes + 2 ? cap * 2 : max_bytes + 2;
            char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nb) {
                rc = -ENOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            rc = r < 0 ? -errno : 0;
            break;
        }
        n += (size_t)r;
        if (n > max_bytes)
            rc = -EFBIG;
    }
    close(fd);
    if (rc < 0) {
        free(buf);
        if (rc == -EFBIG)
            return too_big(path, n, max_bytes, err);
        if (rc == -ENOMEM)
            return mp_errf(err, rc, "out of memory reading %s", path);
        return mp_errf(err, rc, "cannot read %s: %s", path, strerror(-rc));
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return 0;
}

int mp_read_regular_file(const char *path, size_t max_bytes, char **out, size_t *len,
                         mp_err *err)
{
    int fd = mp_open_regular_file(path, max_bytes, err);
    return fd < 0 ? fd : read_whole(fd, path, max_bytes, out, len, err);
}

int mp_read_regular_file_in(const char *dir, const char *rel, size_t max_bytes, char **out,
                            size_t *len, mp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    int fd = mp_open_regular_file_in(dir, rel, max_bytes, err);
    return fd < 0 ? fd : read_whole(fd, path, max_bytes, out, len, err);
}
