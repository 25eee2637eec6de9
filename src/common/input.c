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

int mp_open_regular_file(const char *path, size_t max_bytes, mp_err *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        return mp_errf(err, -e, "cannot open %s: %s", path, strerror(e));
    }
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

int mp_read_regular_file(const char *path, size_t max_bytes, char **out, size_t *len,
                         mp_err *err)
{
    int fd = mp_open_regular_file(path, max_bytes, err);
    if (fd < 0)
        return fd;
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
