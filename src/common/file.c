/* SPDX-License-Identifier: MIT */
/* file.c - files written into directories held open, under temporary names
 * renamed into place, each listed in the directory's manifest (manifest.c).
 * See file.h. */
#include "common/file.h"
#include "common/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_MODE 0755              /* never group- or other-writable, whatever the umask */

/* ---- names ------------------------------------------------------------- */

static int one_component(const char *s, size_t len)
{
    if (len == 0 || len > NAME_MAX || memchr(s, '/', len) || memchr(s, '\0', len))
        return 0;
    return !(len == 1 && s[0] == '.') && !(len == 2 && s[0] == '.' && s[1] == '.');
}

static int bad_name(mp_err *err, const mp_dir *d, const char *name)
{
    return mp_errf(err, -EINVAL, "%s: '%.*s' is not a file name of its own (no '/', not . "
                   "or ..)", d->path, 64, name);
}

/* A manifest name: "NAME" or "SUB/NAME". */
int mp__file_valid_rel(const char *s)
{
    const char *slash = strchr(s, '/');
    if (!slash)
        return one_component(s, strlen(s));
    return one_component(s, (size_t)(slash - s)) && one_component(slash + 1, strlen(slash + 1));
}

/* ---- directory checks -------------------------------------------------- */

static const char *user_name(uid_t uid, char *buf, size_t len)
{
    struct passwd *pw = getpwuid(uid);
    snprintf(buf, len, "%s", pw && pw->pw_name ? pw->pw_name : "another user");
    return buf;
}

/* The open directory fd (named path) is one only this user can write. */
static int private_dir(int fd, const char *path, mp_err *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return mp_errf(err, -errno, "cannot inspect %s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return mp_errf(err, -ENOTDIR, "%s exists and is not a directory", path);
    if (st.st_uid != geteuid()) {
        char who[64];
        return mp_errf(err, -EPERM, "%s belongs to %s (uid %u), not to you (uid %u); muxprof "
                       "writes only into directories of its own user", path,
                       user_name(st.st_uid, who, sizeof who), (unsigned)st.st_uid,
                       (unsigned)geteuid());
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return mp_errf(err, -EPERM, "%s is writable by %s (mode %04o), so others could change "
                       "what muxprof writes there; `chmod go-w %s`, or choose another "
                       "directory", path, st.st_mode & S_IWOTH ? "others" : "its group",
                       (unsigned)(st.st_mode & 07777), path);
    return 0;
}

/* Why path, a symbolic link, is not taken. */
static int link_refused(const char *path, mp_err *err)
{
    char to[PATH_MAX];
    ssize_t n = readlink(path, to, sizeof to - 1);
    to[n > 0 ? n : 0] = '\0';
    struct stat st;
    if (stat(path, &st) != 0)
        return mp_errf(err, -ELOOP, "%s is a symbolic link to %s, which does not exist; "
                       "name a new path (muxprof creates the directory) or a real "
                       "directory, not a link", path, n > 0 ? to : "?");
    return mp_errf(err, -ELOOP, "%s is a symbolic link (to %s); name the directory itself, "
                   "not a link", path, n > 0 ? to : "?");
}

static void dir_init(mp_dir *d, const char *path)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    snprintf(d->path, sizeof d->path, "%s", path);
    d->top = d;
}

/* ---- directories ------------------------------------------------------- */

/* Why the component upto of a path (a symbolic link, in the directory at)
 * is not followed. */
static int parent_link_refused(int at, const char *name, const char *upto, mp_err *err)
{
    char to[PATH_MAX];
    ssize_t n = readlinkat(at, name, to, sizeof to - 1);
    to[n > 0 ? n : 0] = '\0';
    return mp_errf(err, -ELOOP, "%s is a symbolic link (to %s); running as root, muxprof "
                   "follows no link in an output directory's path, whoever made it: name "
                   "the directory by its own path (`realpath -m`)", upto, n > 0 ? to : "?");
}

/* The directory that holds path's last component, opened one component at a
 * time from / (or the current directory, for a relative path) with openat,
 * so that no name is resolved twice; with create, missing components are
 * made (mode 0777 less the umask, as mkdir -p).  Running as root no
 * component is followed when a symbolic link (O_NOFOLLOW): a link planted
 * by another user among the parents of --out (/tmp/reports -> /root/x)
 * cannot take root's output elsewhere.  As any other user a link among the
 * parents is followed, as the kernel resolves it: it leads only where that
 * user may write.  The last component goes into last ("" for "/"); the
 * descriptor, or -errno with err filled. */
static int open_parent(const char *path, int create, char *last, size_t last_len,
                       mp_err *err)
{
    char tmp[PATH_MAX];
    if (!*path)
        return mp_errf(err, -ENOENT, "an empty path names no directory");
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
        return mp_errf(err, -ENAMETOOLONG, "%s: path too long", path);
    size_t n = strlen(tmp);
    while (n > 1 && tmp[n - 1] == '/')
        tmp[--n] = '\0';
    char *slash = strrchr(tmp, '/');
    const char *base = slash ? slash + 1 : tmp;
    if (strlen(base) >= last_len)
        return mp_errf(err, -ENAMETOOLONG, "%s: name too long", path);
    snprintf(last, last_len, "%s", base);
    int nofollow = geteuid() == 0 ? O_NOFOLLOW : 0;
    int at = open(tmp[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (at < 0)
        return mp_errf(err, -errno, "cannot open %s: %s", tmp[0] == '/' ? "/" : ".",
                       strerror(errno));
    if (!slash)
        return at;
    *slash = '\0';   /* tmp: the parent part; walked component by component */
    for (char *p = tmp; *p;) {
        while (*p == '/')
            p++;
        char *end = p + strcspn(p, "/");
        char c = *end;
        *end = '\0';
        if (*p && strcmp(p, ".")) {
            if (create && mkdirat(at, p, 0777) != 0 && errno != EEXIST) {
                int e = errno;
                close(at);
                return mp_errf(err, -e, "cannot create directory %s: %s", tmp, strerror(e));
            }
            int fd = openat(at, p, O_RDONLY | O_DIRECTORY | O_CLOEXEC | nofollow);
            if (fd < 0) {
                int e = errno;
                struct stat st;
                int rc = (e == ELOOP || e == ENOTDIR) && nofollow &&
                                 fstatat(at, p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                                 S_ISLNK(st.st_mode)
                             ? parent_link_refused(at, p, tmp, err)
                             : mp_errf(err, -e, e == ENOTDIR ? "%s is not a directory"
                                       : "cannot open %s: %s", tmp, strerror(e));
                close(at);
                return rc;
            }
            close(at);
            at = fd;
        }
        *end = c;
        p = end;
    }
    return at;
}

static int dir_take(mp_dir *d, int fd, mp_err *err)
{
    d->fd = fd;
    int rc = private_dir(fd, d->path, err);
    if (!rc && !(d->list = calloc(1, sizeof *d->list)))
        rc = mp_errf(err, -ENOMEM, "out of memory");
    if (!rc) {
        d->list->fd = -1;
        rc = mp__file_manifest_load(d, err);
    }
    if (rc)
        mp_dir_close(d);
    return rc;
}

int mp_dir_create(mp_dir *d, const char *path, mp_err *err)
{
    dir_init(d, path);
    char last[NAME_MAX + 1];
    int at = open_parent(path, 1, last, sizeof last, err);
    if (at < 0)
        return at;
    if (!*last || mkdirat(at, last, DIR_MODE) != 0) {
        int e = *last ? errno : EEXIST;
        close(at);
        return e == EEXIST ? mp_errf(err, -EEXIST, "%s exists", path)
                           : mp_errf(err, -e, "cannot create directory %s: %s", path,
                                     strerror(e));
    }
    int fd = openat(at, last, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(at);
    if (fd < 0)
        return mp_errf(err, -errno, "cannot open %s: %s", path, strerror(errno));
    int rc = dir_take(d, fd, err);
    if (rc)
        return rc;
    d->created = 1;
    if ((rc = mp_dir_claim(d, err)) == -EEXIST)
        rc = mp_errf(err, -EEXIST, "%s exists (another process took it)", path);
    if (rc)
        mp_dir_close(d);
    return rc;
}

int mp_dir_open(mp_dir *d, const char *path, int nofollow, mp_err *err)
{
    dir_init(d, path);
    char last[NAME_MAX + 1];
    int at = open_parent(path, 0, last, sizeof last, err);
    if (at < 0)
        return at;
    const char *name = *last ? last : ".";
    struct stat st;
    if (nofollow && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
        close(at);
        return link_refused(path, err);
    }
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    int e = errno;
    close(at);
    if (fd < 0) {
        if (e == ENOTDIR)
            return mp_errf(err, -ENOTDIR, "%s exists and is not a directory", path);
        if (e == ELOOP)
            return link_refused(path, err);
        return mp_errf(err, -e, "cannot open %s: %s", path, strerror(e));
    }
    return dir_take(d, fd, err);
}

int mp_dir_has_manifest(const mp_dir *d)
{
    struct stat st;
    return fstatat(d->top->fd, MP_MANIFEST, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int mp_dir_is_empty(const mp_dir *d)
{
    int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dd = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dd) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(dd)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(dd);
    return empty;
}

int mp_dir_claim(mp_dir *d, mp_err *err)
{
    mp_dir_list *l = d->top->list;
    int fd = openat(d->top->fd, MP_MANIFEST,
                    O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, MP__FILE_MODE);
    if (fd < 0)
        return mp_errf(err, -errno, errno == EEXIST ? "%s holds a muxprof manifest already"
                       : "cannot write a manifest in %s: %s", d->path, strerror(errno));
    if (l->fd >= 0)
        close(l->fd);
    l->fd = fd;
    return 0;
}

int mp_dir_start(mp_dir *d, mp_err *err)
{
    return d->top->list->fd >= 0 ? 0 : mp__file_manifest_write(d->top, err);
}

int mp_dir_sub(mp_dir *sub, mp_dir *top, const char *name, mp_err *err)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", top->path, name);
    dir_init(sub, path);
    if (n < 0 || (size_t)n >= sizeof path)
        return mp_errf(err, -ENAMETOOLONG, "%s/%s: path too long", top->path, name);
    if (top->rel[0] || !one_component(name, strlen(name)))
        return bad_name(err, top, name);
    if (mkdirat(top->fd, name, DIR_MODE) == 0)
        sub->created = 1;
    else if (errno != EEXIST)
        return mp_errf(err, -errno, "cannot create directory %s: %s", path, strerror(errno));
    int fd = openat(top->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        struct stat st;   /* a link gives ENOTDIR with O_DIRECTORY */
        if (fstatat(top->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            return mp_errf(err, -ELOOP, "%s is a symbolic link; muxprof writes its files only "
                           "into a directory of its own: remove the link, or copy the run "
                           "to another directory", path);
        return mp_errf(err, -e, e == ENOTDIR ? "%s exists and is not a directory"
                       : "cannot open %s: %s", path, strerror(e));
    }
    int rc = private_dir(fd, path, err);
    if (rc) {
        close(fd);
        return rc;
    }
    sub->fd = fd;
    sub->top = top;
    snprintf(sub->rel, sizeof sub->rel, "%s/", name);
    return 0;
}

size_t mp_dir_prune(mp_dir *d)
{
    return mp_dir_prune_except(d, NULL);
}

size_t mp_dir_prune_except(mp_dir *d, int (*keep)(const char *name))
{
    mp_dir_list *l = d->top->list;
    size_t rl = strlen(d->rel), removed = 0, dropped = 0;
    for (size_t i = l->n; i-- > 0;) {
        const char *name = l->v[i].name;
        if (strncmp(name, d->rel, rl) || strchr(name + rl, '/') || (keep && keep(name + rl)))
            continue;
        if (mp__file_still_written(d->fd, name + rl, l->v[i].st) && unlinkat(d->fd, name + rl, 0) == 0)
            removed++;
        mp__file_list_drop(l, i);
        dropped++;
    }
    mp_err err;
    if (dropped)
        mp__file_manifest_write(d->top, &err);   /* a failure leaves entries that no longer match */
    return removed;
}

int mp_dir_note(mp_dir *d, const char *name, mp_err *err)
{
    struct stat st;
    if (!one_component(name, strlen(name)))
        return bad_name(err, d, name);
    if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return mp_errf(err, -ENOENT, "%s/%s is not a regular file", d->path, name);
    return mp__file_record(d, name, (unsigned long long)st.st_ino, err);
}

int mp_dir_each(mp_dir *top, int (*fn)(mp_dir *in, const char *name, void *ctx, mp_err *err),
                void *ctx, mp_err *err)
{
    mp_dir_list *l = top->list;
    mp__file_list_dedup(l);
    size_t n = l->n;
    entry *snap = malloc((n ? n : 1) * sizeof *snap);
    if (!snap)
        return mp_errf(err, -ENOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        snap[i] = l->v[i];
        if (!(snap[i].name = strdup(l->v[i].name))) {
            n = i;
            rc = mp_errf(err, -ENOMEM, "out of memory");
        }
    }
    mp_dir sub = {.fd = -1};
    for (size_t i = 0; i < n && !rc; i++) {
        const char *slash = strchr(snap[i].name, '/');
        mp_dir *in = top;
        if (slash) {
            size_t sl = (size_t)(slash - snap[i].name) + 1;
            if (sub.fd < 0 || strncmp(sub.rel, snap[i].name, sl) || sub.rel[sl]) {
                char name[NAME_MAX + 1];
                snprintf(name, sizeof name, "%.*s", (int)sl - 1, snap[i].name);
                mp_dir_close(&sub);
                mp_err ignore;
                if (mp_dir_sub(&sub, top, name, &ignore))
                    continue;
            }
            in = &sub;
        }
        const char *base = slash ? slash + 1 : snap[i].name;
        if (mp__file_still_written(in->fd, base, snap[i].st))
            rc = fn(in, base, ctx, err);
    }
    mp_dir_close(&sub);
    for (size_t i = 0; i < n; i++)
        free(snap[i].name);
    free(snap);
    return rc;
}

void mp_dir_discard(mp_dir *d)
{
    if (d->fd >= 0 && d->created && d->top == d) {
        mp_dir_list *l = d->list;
        for (size_t i = 0; i < l->n; i++) {
            const char *base;
            int sub, dfd = mp__file_entry_dir(d, l->v[i].name, &base, &sub);
            if (mp__file_still_written(dfd, base, l->v[i].st))
                unlinkat(dfd, base, 0);
            if (sub >= 0)
                close(sub);
            if (base != l->v[i].name) {
                char name[NAME_MAX + 1];
                snprintf(name, sizeof name, "%.*s", (int)(base - l->v[i].name - 1),
                         l->v[i].name);
                unlinkat(d->fd, name, AT_REMOVEDIR);   /* only when left empty */
            }
        }
        unlinkat(d->fd, MP_MANIFEST, 0);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s", d->path);
        mp_dir_close(d);
        rmdir(path);   /* only when left empty */
        return;
    }
    mp_dir_close(d);
}

void mp_dir_close(mp_dir *d)
{
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
    if (d->top == d)
        mp__file_list_free(d->list);
    d->list = NULL;
}

/* ---- files ------------------------------------------------------------- */

int mp_dir_read(mp_dir *d, const char *name, size_t max, char **out, size_t *len,
                mp_err *err)
{
    if (!one_component(name, strlen(name)))
        return bad_name(err, d, name);
    int fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mp_errf(err, -errno, "cannot read %s/%s: %s", d->path, name, strerror(errno));
    int rc = mp__file_read_fd(fd, max, out, len);
    close(fd);
    if (rc)
        return mp_errf(err, rc, "cannot read %s/%s: %s", d->path, name,
                       rc == -EINVAL ? "not a regular file"
                       : rc == -EFBIG ? "too large" : strerror(-rc));
    return 0;
}

int mp_file_open_append(mp_dir *d, const char *name, mp_err *err)
{
    if (!one_component(name, strlen(name)))
        return bad_name(err, d, name);
    int fd = openat(d->fd, name, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW |
                    O_CLOEXEC, MP__FILE_MODE);
    struct stat st;
    if (fd >= 0) {
        int rc = fstat(fd, &st) == 0 ? mp__file_record(d, name, (unsigned long long)st.st_ino, err)
                                     : mp_errf(err, -errno, "cannot inspect %s/%s: %s",
                                               d->path, name, strerror(errno));
        if (rc) {
            close(fd);
            return rc;
        }
        return fd;
    }
    if (errno != EEXIST)
        return mp_errf(err, -errno, "cannot create %s/%s: %s", d->path, name, strerror(errno));
    fd = openat(d->fd, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mp_errf(err, -errno, "cannot open %s/%s: %s", d->path, name, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
        st.st_uid != geteuid() || fcntl(fd, F_SETFL, O_APPEND) != 0) {
        close(fd);
        return mp_errf(err, -EPERM, "%s/%s is not a regular file of yours with one link; "
                       "muxprof does not append to it", d->path, name);
    }
    return fd;
}

int mp_afile_open(mp_afile *a, mp_dir *dir, const char *name, mp_err *err)
{
    memset(a, 0, sizeof *a);
    a->dir = dir;
    size_t len = strlen(name);
    if (!one_component(name, len))
        return bad_name(err, dir, name);
    if (len + 32 > NAME_MAX)
        return mp_errf(err, -ENAMETOOLONG, "%s/%s: file name too long", dir->path, name);
    snprintf(a->name, sizeof a->name, "%s", name);
    int fd = mp__file_open_tmp(dir->fd, name, a->tmp, sizeof a->tmp);
    if (fd < 0) {
        a->tmp[0] = '\0';
        return mp_errf(err, fd, "cannot create a file in %s: %s (is the directory writable?)",
                       dir->path, strerror(-fd));
    }
    if (!(a->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        mp_afile_abort(a);
        return mp_errf(err, -e, "cannot write %s/%s: %s", dir->path, name, strerror(e));
    }
    return 0;
}

int mp_afile_commit(mp_afile *a, mp_err *err)
{
    mp_dir *d = a->dir;
    struct stat st;
    int bad = fflush(a->f) != 0 || ferror(a->f);
    int e = bad ? (errno ? errno : EIO) : 0;
    if (!bad && fstat(fileno(a->f), &st) != 0) {
        bad = 1;
        e = errno;
    }
    if (fclose(a->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    a->f = NULL;
    if (bad) {
        mp_afile_abort(a);
        return mp_errf(err, -e, "cannot write %s/%s: %s", d->path, a->name, strerror(e));
    }
    if (renameat(d->fd, a->tmp, d->fd, a->name) != 0) {
        e = errno;
        mp_afile_abort(a);
        return mp_errf(err, -e, "cannot rename %s/%s to %s: %s", d->path, a->tmp, a->name,
                       strerror(e));
    }
    a->tmp[0] = '\0';
    return mp__file_record(d, a->name, (unsigned long long)st.st_ino, err);
}

void mp_afile_abort(mp_afile *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp[0] && a->dir)
        unlinkat(a->dir->fd, a->tmp, 0);
    a->tmp[0] = '\0';
}

int mp_write_file(mp_dir *dir, const char *name, const char *data, size_t len, mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    if (len && fwrite(data, 1, len, a.f) != len) {
        int e = errno ? errno : EIO;
        mp_afile_abort(&a);
        return mp_errf(err, -e, "cannot write %s/%s: %s", dir->path, name, strerror(e));
    }
    return mp_afile_commit(&a, err);
}
