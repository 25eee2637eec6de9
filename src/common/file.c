/* file.c - files written under a temporary name and renamed into place, and
 * directories created on demand.  See file.h. */
#include "common/file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mp_afile_open(mp_afile *a, const char *dir, const char *name, mp_err *err)
{
    memset(a, 0, sizeof *a);
    int n1 = snprintf(a->path, sizeof a->path, "%s/%s", dir, name);
    int n2 = snprintf(a->tmp, sizeof a->tmp, "%s/.%s.tmp.%ld", dir, name, (long)getpid());
    if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof a->path || (size_t)n2 >= sizeof a->tmp)
        return mp_errf(err, -ENAMETOOLONG, "%s/%s: path too long", dir, name);
    a->f = fopen(a->tmp, "w");
    if (!a->f) {
        int e = errno;
        return mp_errf(err, -e, "cannot create %s: %s (is the directory writable?)",
                       a->tmp, strerror(e));
    }
    return 0;
}

int mp_afile_commit(mp_afile *a, mp_err *err)
{
    int bad = ferror(a->f);
    int e = errno;
    if (fclose(a->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    a->f = NULL;
    if (bad) {
        unlink(a->tmp);
        return mp_errf(err, -(e ? e : EIO), "cannot write %s: %s", a->tmp,
                       strerror(e ? e : EIO));
    }
    if (rename(a->tmp, a->path) != 0) {
        e = errno;
        unlink(a->tmp);
        return mp_errf(err, -e, "cannot rename %s to %s: %s", a->tmp, a->path, strerror(e));
    }
    return 0;
}

void mp_afile_abort(mp_afile *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp[0])
        unlink(a->tmp);
}

int mp_write_file(const char *dir, const char *name, const char *data, size_t len,
                  mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    if (len && fwrite(data, 1, len, a.f) != len) {
        int e = errno ? errno : EIO;
        mp_afile_abort(&a);
        return mp_errf(err, -e, "cannot write %s/%s: %s", dir, name, strerror(e));
    }
    return mp_afile_commit(&a, err);
}

int mp_mkdir(const char *dir, mp_err *err)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
        return mp_errf(err, -ENOTDIR, "%s exists and is not a directory", dir);
    }
    int e = errno;
    return mp_errf(err, -e, "cannot create directory %s: %s", dir, strerror(e));
}

int mp_mkdir_p(const char *dir, mp_err *err)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp)
        return mp_errf(err, -ENAMETOOLONG, "%s: path too long", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) < 0 && errno != EEXIST) {
                int e = errno;
                return mp_errf(err, -e, "cannot create directory %s: %s", tmp, strerror(e));
            }
            *p = '/';
        }
    return mp_mkdir(dir, err);
}
