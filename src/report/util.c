/* report_util.c - atomic file writes and table formatting for the report
 * writers.  See report_util.h. */
#include "report/util.h"

#include <errno.h>
#include <math.h>
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

const char *mp_fmt_num(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    double a = fabs(v);
    if (a >= 1e15) {
        snprintf(buf, len, "%.3g", v);
    } else if (a >= 10000) {
        /* thousands grouped with commas: 656,745 */
        char digits[32];
        snprintf(digits, sizeof digits, "%.0f", a);
        size_t nd = strlen(digits), o = 0;
        char tmp[48];
        if (v < 0)
            tmp[o++] = '-';
        for (size_t i = 0; i < nd; i++) {
            if (i && (nd - i) % 3 == 0)
                tmp[o++] = ',';
            tmp[o++] = digits[i];
        }
        tmp[o] = 0;
        snprintf(buf, len, "%s", tmp);
    } else if (a >= 100) {
        snprintf(buf, len, "%.0f", v);
    } else if (a >= 10) {
        snprintf(buf, len, "%.1f", v);
        size_t n = strlen(buf);
        if (n > 2 && !strcmp(buf + n - 2, ".0"))   /* 80.0 -> 80 */
            buf[n - 2] = 0;
    } else if (a >= 0.01 || a == 0) {
        snprintf(buf, len, "%.3g", v);
    } else {
        snprintf(buf, len, "%.2e", v);
    }
    return buf;
}

const char *mp_md_cell(char *buf, size_t len, const char *s)
{
    size_t o = 0;
    if (len == 0)
        return buf;
    for (; s && *s && o + 2 < len; s++) {
        char c = *s;
        if (c == '|') {
            buf[o++] = '\\';
            buf[o++] = '|';
            continue;
        }
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
        if ((unsigned char)c < 0x20)
            c = '?';
        buf[o++] = c;
    }
    buf[o < len ? o : len - 1] = 0;
    return buf;
}
