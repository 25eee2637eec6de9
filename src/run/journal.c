/* journal.c - the run's append-only journal and its reader; see journal.h.
 *
 * The file is opened O_EXCL|O_NOFOLLOW (never through a link, never an old
 * journal appended to) and held under an exclusive flock while the run
 * appends, so that `muxprof report DIR` does not take a run that is still
 * going for one that died.  After the first failed write nothing more is
 * appended: a torn line may only ever be the last one. */
#include "run/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"
#include "results/schema.h"

static int init(mp_journal *j, const char *dir, mp_err *err)
{
    memset(j, 0, sizeof *j);
    j->fd = -1;
    j->last_index = -1;
    int n = snprintf(j->path, sizeof j->path, "%s/%s", dir, MP_JOURNAL_NAME);
    if (n < 0 || (size_t)n >= sizeof j->path)
        return mp_errf(err, -ENAMETOOLONG, "%s/%s: path too long", dir, MP_JOURNAL_NAME);
    if (!(j->cells = cJSON_CreateArray()))
        return mp_errf(err, -ENOMEM, "out of memory");
    return 0;
}

int mp_journal_create(mp_journal *j, mp_dir *dir, mp_err *err)
{
    int rc = init(j, dir->path, err);
    if (rc < 0)
        return rc;
    j->fd = openat(dir->fd, MP_JOURNAL_NAME,
                   O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        int e = errno;
        if (e == EEXIST)
            return mp_errf(err, MP_EUSAGE, "%s exists: a run into %s did not finish; `muxprof "
                           "report %s` writes its results.json from it (or remove it to run "
                           "there again)", j->path, dir->path, dir->path);
        return mp_errf(err, -e, "cannot create %s: %s", j->path, strerror(e));
    }
    flock(j->fd, LOCK_EX | LOCK_NB);   /* only a reader's hint: a failure is not fatal */
    fsync(dir->fd);   /* the journal's name survives a crash, not only its data */
    return 0;
}

static void fail(mp_journal *j, int e, const char *what)
{
    if (!j->failed.code)
        mp_errf(&j->failed, -e, "%s %s failed: %s", what, j->path, strerror(e));
}

/* One line: the record as one write() (looping only on a short write). */
static int append(mp_journal *j, const cJSON *rec, int sync)
{
    char *text = cJSON_PrintUnformatted(rec);
    if (!text)
        return -ENOMEM;
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (!line) {
        free(text);
        return -ENOMEM;
    }
    line[len++] = '\n';
    for (size_t off = 0; j->fd >= 0 && !j->failed.code && off < len;) {
        ssize_t w = write(j->fd, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            fail(j, w < 0 ? errno : ENOSPC, "writing");
        else
            off += (size_t)w;
    }
    free(line);
    if (sync && j->fd >= 0 && !j->failed.code && fsync(j->fd) < 0)
        fail(j, errno, "fsync of");
    return 0;
}

/* {"type":TYPE, KEY: item} with item referenced, not copied. */
static int append_ref(mp_journal *j, const char *type, const char *key, cJSON *item, int sync)
{
    cJSON *rec = cJSON_CreateObject();
    int rc = rec && cJSON_AddStringToObject(rec, "type", type) &&
                     cJSON_AddItemReferenceToObject(rec, key, item)
                 ? append(j, rec, sync) : -ENOMEM;
    cJSON_Delete(rec);
    return rc;
}

int mp_journal_head(mp_journal *j, const mp_results *r)
{
    cJSON_Delete(j->head);
    if (!(j->head = mp_results_head_json(r)))
        return -ENOMEM;
    return append_ref(j, "head", "head", j->head, 1);
}

/* A growing string for the sample lists. */
typedef struct {
    char *s;
    size_t len, cap;
} jbuf;

static int jb_num(jbuf *b, double v)
{
    if (b->cap - b->len < 48) {
        size_t ncap = b->cap ? b->cap * 2 : 4096;
        char *ns = realloc(b->s, ncap);
        if (!ns)
            return -ENOMEM;
        b->s = ns;
        b->cap = ncap;
    }
    int n = snprintf(b->s + b->len, b->cap - b->len, "%s%.0f", b->len ? " " : "", v);
    if (n < 0 || (size_t)n >= b->cap - b->len)
        return -ERANGE;
    b->len += (size_t)n;
    return 0;
}

/* "wall_raw_ns": one string of the samples of each repeat ("" when none). */
static cJSON *samples_json(const mp_samples *s, int repeats)
{
    cJSON *a = cJSON_CreateArray();
    jbuf b = {0};
    for (int rep = 0; a && rep < repeats; rep++) {
        b.len = 0;
        int rc = 0;
        for (size_t k = 0; rc == 0 && k < s->n; k++)
            if (s->repeat[k] == rep)
                rc = jb_num(&b, s->wall_raw_ns[k]);
        cJSON *str = rc == 0 ? cJSON_CreateString(b.len ? b.s : "") : NULL;
        if (!str || !cJSON_AddItemToArray(a, str)) {
            cJSON_Delete(str);
            cJSON_Delete(a);
            a = NULL;
        }
    }
    free(b.s);
    return a;
}

/* Keep cell json (taken) and its samples s (taken) as record j->ncells. */
static int keep_cell(mp_journal *j, long index, cJSON *cell, mp_samples s)
{
    if (j->ncells == j->cap) {
        size_t ncap = j->cap ? j->cap * 2 : 64;
        mp_samples *ns = realloc(j->samples, ncap * sizeof *ns);
        if (!ns)
            goto oom;
        j->samples = ns;
        j->cap = ncap;
    }
    if (!cJSON_AddItemToArray(j->cells, cell))
        goto oom;
    j->samples[j->ncells++] = s;
    j->last_index = index;
    return 0;
oom:
    cJSON_Delete(cell);
    free(s.wall_raw_ns);
    free(s.repeat);
    return -ENOMEM;
}

/* o (taken) as its journal line reads back: every number through its
 * text, so that the outputs of a run and of its recovery agree to the last
 * digit (cJSON prints 15 significant digits where they read back within
 * an epsilon, and results.csv rounds them again). */
static cJSON *as_read_back(cJSON *o)
{
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    cJSON *back = text ? cJSON_Parse(text) : NULL;
    free(text);
    return back;
}

int mp_journal_cells(mp_journal *j, mp_results *r, size_t first, size_t n)
{
    int repeats = r->cfg->repeats, wrote = 0;
    for (size_t i = first; i < first + n && i < r->ncells; i++) {
        mp_cell *c = &r->cells[i];
        if (c->status == MP_CELL_PENDING)
            continue;
        cJSON *cj = as_read_back(mp_cell_json(c, repeats));
        mp_samples s = {c->samples, c->sample_repeat, c->status == MP_CELL_OK ? c->nsamples : 0};
        c->samples = NULL;   /* the journal owns them from here on */
        c->sample_repeat = NULL;
        int rc = keep_cell(j, (long)i, cj, s);   /* frees s when it cannot keep it */
        if (rc < 0)
            return rc;
        cJSON *rec = cJSON_CreateObject(), *sj = samples_json(&s, repeats);
        int ok = rec && sj && cJSON_AddStringToObject(rec, "type", "cell") &&
                 cJSON_AddNumberToObject(rec, "index", (double)i) &&
                 cJSON_AddItemReferenceToObject(rec, "cell", cj);
        if (ok && cJSON_AddItemToObject(rec, "wall_raw_ns", sj))
            sj = NULL;   /* rec owns it */
        else
            ok = 0;
        rc = ok ? append(j, rec, 0) : -ENOMEM;
        cJSON_Delete(sj);
        cJSON_Delete(rec);
        if (rc < 0)
            return rc;
        wrote = 1;
    }
    /* One fsync for the cells that became final together. */
    if (wrote && j->fd >= 0 && !j->failed.code && fsync(j->fd) < 0)
        fail(j, errno, "fsync of");
    return 0;
}

int mp_journal_experiment(mp_journal *j, const char *name, const cJSON *result)
{
    cJSON *copy = cJSON_Duplicate(result, 1);
    if (!j->experiments)
        j->experiments = cJSON_CreateObject();
    if (!copy || !j->experiments || !cJSON_AddItemToObject(j->experiments, name, copy)) {
        cJSON_Delete(copy);
        return -ENOMEM;
    }
    cJSON *rec = cJSON_CreateObject();
    int rc = rec && cJSON_AddStringToObject(rec, "type", "experiment") &&
                     cJSON_AddStringToObject(rec, "name", name) &&
                     cJSON_AddItemReferenceToObject(rec, "result", copy)
                 ? append(j, rec, 1) : -ENOMEM;
    cJSON_Delete(rec);
    return rc;
}

int mp_journal_tail(mp_journal *j, const mp_results *r)
{
    cJSON_Delete(j->tail);
    if (!(j->tail = mp_results_tail_json(r)))
        return -ENOMEM;
    return append_ref(j, "tail", "tail", j->tail, 1);
}

int mp_journal_write_outputs(const mp_journal *j, mp_dir *dir, const cJSON *recovered,
                             mp_err *err)
{
    cJSON *root = mp_results_assemble(j->head, j->tail, j->experiments, j->cells, recovered);
    if (!root)
        return mp_errf(err, -ENOMEM, "out of memory while writing results.json");
    int rc = mp_write_results_json(root, dir, err);
    if (rc == 0)
        rc = mp_write_csv(root, dir, err);
    if (rc == 0)
        rc = mp_write_samples(root, j->samples, dir, err);
    cJSON_Delete(root);
    return rc;
}

static int sync_file(mp_dir *dir, const char *name, mp_err *err)
{
    int fd = openat(dir->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    int rc = fd < 0 || fsync(fd) < 0 ? -errno : 0;
    if (fd >= 0)
        close(fd);
    return rc < 0 ? mp_errf(err, rc, "fsync of %s/%s failed: %s", dir->path, name,
                            strerror(-rc)) : 0;
}

int mp_journal_discard(mp_journal *j, mp_dir *dir, mp_err *err)
{
    static const char *outputs[] = {"results.json", "results.csv", "samples.csv"};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        int rc = sync_file(dir, outputs[i], err);
        if (rc < 0)
            return rc;
    }
    fsync(dir->fd);
    if (j->fd < 0)
        return 0;
    /* Only the file this process created and still holds. */
    struct stat mine, named;
    int rc = 0;
    if (fstat(j->fd, &mine) == 0 &&
        fstatat(dir->fd, MP_JOURNAL_NAME, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
        mine.st_dev == named.st_dev && mine.st_ino == named.st_ino &&
        unlinkat(dir->fd, MP_JOURNAL_NAME, 0) < 0)
        rc = mp_errf(err, -errno, "cannot remove %s: %s", j->path, strerror(errno));
    close(j->fd);
    j->fd = -1;
    return rc;
}

/* ---- reading back ------------------------------------------------------- */

/* "812 799 803": integers separated by one space; appends repeat rep's
 * samples to s.  -EBADMSG when the string is anything else. */
static int parse_samples(const char *str, int rep, mp_samples *s)
{
    size_t count = *str ? 1 : 0;
    for (const char *p = str; *p; p++)
        count += *p == ' ';
    if (!count)
        return 0;
    double *w = realloc(s->wall_raw_ns, (s->n + count) * sizeof *w);
    if (w)
        s->wall_raw_ns = w;
    int *r = realloc(s->repeat, (s->n + count) * sizeof *r);
    if (r)
        s->repeat = r;
    if (!w || !r)
        return -ENOMEM;
    const char *p = str;
    for (size_t k = 0; k < count; k++) {
        const char *start = p;
        if (*p == '-')
            p++;
        size_t digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 19) {
            p++;
            digits++;
        }
        if (!digits || (*p != ' ' && *p != '\0') || (*p == ' ' && k + 1 == count) ||
            (*p == '\0' && k + 1 != count))
            return -EBADMSG;
        s->wall_raw_ns[s->n] = strtod(start, NULL);
        s->repeat[s->n++] = rep;
        if (*p == ' ')
            p++;
    }
    return 0;
}

static int is_type(const cJSON *rec, const char *type)
{
    return !strcmp(mp_json_str(rec, "type", ""), type);
}

static int bad(const mp_journal *j, size_t lineno, mp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(const mp_journal *j, size_t lineno, mp_err *err, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return mp_errf(err, -EBADMSG, "%s: line %zu: %s", j->path, lineno, why);
}

/* One parsed line into j; lineno for messages.  -EBADMSG: not a record. */
static int take_record(mp_journal *j, cJSON *rec, size_t lineno, mp_err *err)
{
#define BAD(...) bad(j, lineno, err, __VA_ARGS__)
    if (j->tail)
        return BAD("a record after the tail record (the journal is damaged)");
    if (lineno == 1) {
        cJSON *h = cJSON_GetObjectItemCaseSensitive(rec, "head");
        if (!is_type(rec, "head") || !cJSON_IsObject(h) ||
            strcmp(mp_json_str(h, "schema", ""), MP_RESULTS_SCHEMA))
            return BAD("not a muxprof journal (its first line must be the head record of a "
                       MP_RESULTS_SCHEMA " run)");
        j->head = cJSON_DetachItemViaPointer(rec, h);
        return 0;
    }
    if (is_type(rec, "cell")) {
        const cJSON *idx = cJSON_GetObjectItemCaseSensitive(rec, "index");
        cJSON *cell = cJSON_GetObjectItemCaseSensitive(rec, "cell");
        const cJSON *walls = cJSON_GetObjectItemCaseSensitive(rec, "wall_raw_ns");
        if (!cJSON_IsNumber(idx) || idx->valuedouble != (double)(long)idx->valuedouble ||
            idx->valuedouble <= (double)j->last_index || idx->valuedouble > 1e12)
            return BAD("cell index missing, not an integer or not above the previous one");
        if (!cJSON_IsObject(cell) || !cJSON_IsArray(walls) ||
            cJSON_GetArraySize(walls) > MP_REPEATS_MAX)
            return BAD("a cell record needs a \"cell\" object and at most %d sample strings "
                       "in \"wall_raw_ns\"", MP_REPEATS_MAX);
        mp_samples s = {0};
        int rep = 0, rc = 0;
        const cJSON *w;
        cJSON_ArrayForEach(w, walls) {
            rc = cJSON_IsString(w) ? parse_samples(w->valuestring, rep++, &s) : -EBADMSG;
            if (rc < 0)
                break;
        }
        if (rc < 0) {
            free(s.wall_raw_ns);
            free(s.repeat);
            return rc == -ENOMEM ? mp_errf(err, rc, "out of memory reading %s", j->path)
                                 : BAD("samples of repeat %d are not integers separated by "
                                       "single spaces", rep - 1);
        }
        if (keep_cell(j, (long)idx->valuedouble, cJSON_DetachItemViaPointer(rec, cell), s) < 0)
            return mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
        return 0;
    }
    if (is_type(rec, "experiment")) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(rec, "name");
        cJSON *res = cJSON_GetObjectItemCaseSensitive(rec, "result");
        if (!cJSON_IsString(name) || !cJSON_IsObject(res) ||
            cJSON_GetObjectItemCaseSensitive(j->experiments, name->valuestring))
            return BAD("an experiment record needs a new \"name\" and a \"result\" object");
        if (!j->experiments && !(j->experiments = cJSON_CreateObject()))
            return mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
        cJSON_AddItemToObject(j->experiments, name->valuestring,
                              cJSON_DetachItemViaPointer(rec, res));
        return 0;
    }
    cJSON *tail = cJSON_GetObjectItemCaseSensitive(rec, "tail");
    if (is_type(rec, "tail") && cJSON_IsObject(tail)) {
        j->tail = cJSON_DetachItemViaPointer(rec, tail);
        return 0;
    }
    return BAD("not a journal record (type head, cell, experiment or tail)");
#undef BAD
}

static int open_for_reading(mp_journal *j, mp_err *err)
{
    int fd = open(j->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mp_errf(err, -errno, "cannot open %s: %s", j->path, strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) < 0)
        rc = mp_errf(err, -errno, "cannot stat %s: %s", j->path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = mp_errf(err, -EBADMSG, "%s is not a regular file", j->path);
    else if (st.st_size > MP_JOURNAL_MAX_BYTES)
        rc = mp_errf(err, -EFBIG, "%s is %lld bytes; a journal is read up to %lld bytes",
                     j->path, (long long)st.st_size, (long long)MP_JOURNAL_MAX_BYTES);
    else if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK)
        rc = mp_errf(err, -EBUSY, "%s is held by a run that is still going; wait for it to "
                     "finish", j->path);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

int mp_journal_read(mp_journal *j, const char *dir, mp_err *err)
{
    int rc = init(j, dir, err);
    if (rc < 0)
        return rc;
    int fd = open_for_reading(j, err);
    if (fd < 0)
        return fd;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
    }
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n') {   /* torn: the process died while writing it */
            j->torn = 1;
            break;
        }
        cJSON *rec = cJSON_ParseWithLength(line, (size_t)len - 1);
        if (!cJSON_IsObject(rec))
            rc = mp_errf(err, -EBADMSG, "%s: line %zu is not a JSON object (the journal is "
                         "damaged)", j->path, lineno);
        else
            rc = take_record(j, rec, lineno, err);
        cJSON_Delete(rec);
    }
    if (rc == 0 && ferror(f))
        rc = mp_errf(err, -EIO, "cannot read %s: %s", j->path, strerror(errno));
    if (rc == 0 && !j->head)
        rc = mp_errf(err, -EBADMSG, "%s holds no head record: the run stopped before its "
                     "first cell; nothing to recover", j->path);
    free(line);
    fclose(f);
    return rc;
}

cJSON *mp_journal_recovered_json(const mp_journal *j)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "from", MP_JOURNAL_NAME);
    cJSON_AddNumberToObject(o, "cells", (double)j->ncells);
    cJSON_AddBoolToObject(o, "finished", j->tail != NULL);
    cJSON_AddBoolToObject(o, "torn_line_ignored", j->torn);
    return o;
}

void mp_journal_free(mp_journal *j)
{
    if (j->fd >= 0)
        close(j->fd);
    for (size_t i = 0; i < j->ncells; i++) {
        free(j->samples[i].wall_raw_ns);
        free(j->samples[i].repeat);
    }
    free(j->samples);
    cJSON_Delete(j->head);
    cJSON_Delete(j->tail);
    cJSON_Delete(j->cells);
    cJSON_Delete(j->experiments);
    memset(j, 0, sizeof *j);
    j->fd = -1;
}
