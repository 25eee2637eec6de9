/* SPDX-License-Identifier: MIT */
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
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"
#include "results/limits.h"
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

/* The journal DIR holds already: say whose it is (a run still writing it, a
 * run recovered from it, or one that did not finish). */
static int journal_taken(const mp_journal *j, const mp_dir *dir, mp_err *err)
{
    int fd = openat(dir->fd, MP_JOURNAL_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    int busy = fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
    if (fd >= 0)
        close(fd);
    struct stat st;
    if (busy)
        return mp_errf(err, MP_EUSAGE, "%s is being written by a run that is still going; "
                       "choose another --out", j->path);
    if (fstatat(dir->fd, "results.json", &st, AT_SYMLINK_NOFOLLOW) == 0)
        return mp_errf(err, MP_EUSAGE, "%s holds a run already (its results.json is there); "
                       "choose another --out", dir->path);
    return mp_errf(err, MP_EUSAGE, "%s exists: a run into %s did not finish; `muxprof "
                   "report %s` writes its results.json from it (or remove it to run "
                   "there again)", j->path, dir->path, dir->path);
}

int mp_journal_clear(mp_dir *dir, mp_err *err)
{
    int fd = openat(dir->fd, MP_JOURNAL_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return 0;
    struct stat st;
    int rc = 0;
    if (fd < 0)
        rc = mp_errf(err, MP_EUSAGE, "%s/%s cannot be opened (%s); remove it to run there",
                     dir->path, MP_JOURNAL_NAME, strerror(errno));
    else if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK)
        rc = mp_errf(err, MP_EUSAGE, "%s/%s is being written by a run that is still going; "
                     "choose another --out", dir->path, MP_JOURNAL_NAME);
    else if (fstatat(dir->fd, "results.json", &st, AT_SYMLINK_NOFOLLOW) < 0)
        rc = mp_errf(err, MP_EUSAGE, "%s holds the journal of a run that did not finish and "
                     "was not recovered; `muxprof report %s` writes its results.json first "
                     "(or remove %s to lose it)", dir->path, dir->path, MP_JOURNAL_NAME);
    else if (unlinkat(dir->fd, MP_JOURNAL_NAME, 0) < 0)
        rc = mp_errf(err, -errno, "cannot remove %s/%s: %s", dir->path, MP_JOURNAL_NAME,
                     strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc;
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
            return journal_taken(j, dir, err);
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
    char *text = mp_json_print(rec, 0);
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

/* "wall_raw_ns": one string of the samples of each repeat ("" when none,
 * and for the repeats before `from`, whose samples are in pass records). */
static cJSON *samples_json(const mp_samples *s, int repeats, int from)
{
    cJSON *a = cJSON_CreateArray();
    jbuf b = {0};
    for (int rep = 0; a && rep < repeats; rep++) {
        b.len = 0;
        int rc = 0;
        for (size_t k = 0; rc == 0 && rep >= from && k < s->n; k++)
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
        long *ni = realloc(j->index, ncap * sizeof *ni);
        if (!ni)
            goto oom;
        j->index = ni;
        j->cap = ncap;
    }
    if (!cJSON_AddItemToArray(j->cells, cell))
        goto oom;
    j->index[j->ncells] = index;
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
    char *text = o ? mp_json_print(o, 0) : NULL;
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
        int from = j->passes && i < j->npasses ? j->passes[i] : 0;
        cJSON *rec = cJSON_CreateObject(), *sj = samples_json(&s, repeats, from);
        int ok = rec && sj && cJSON_AddStringToObject(rec, "type", "cell") &&
                 cJSON_AddNumberToObject(rec, "index", (double)i) &&
                 cJSON_AddItemReferenceToObject(rec, "cell", cj) &&
                 (!from || cJSON_AddNumberToObject(rec, "pass_records", from));
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

int mp_journal_pass(mp_journal *j, size_t index, size_t ncells, int pass, cJSON *cell,
                    const mp_cell *c)
{
    if (!j->passes) {
        if (!(j->passes = calloc(ncells ? ncells : 1, 1))) {
            cJSON_Delete(cell);
            return -ENOMEM;
        }
        j->npasses = ncells;
    }
    if (index >= j->npasses || j->passes[index] != pass || pass >= MP_REPEATS_MAX) {
        cJSON_Delete(cell);   /* a gap: the cell record carries its samples */
        return 0;
    }
    /* repeat `pass` is the last one taken: its samples end the list */
    size_t k = c->nsamples;
    while (k > 0 && c->sample_repeat[k - 1] == pass)
        k--;
    jbuf b = {0};
    int rc = 0;
    for (size_t i = k; rc == 0 && i < c->nsamples; i++)
        rc = jb_num(&b, c->samples[i]);
    cJSON *rec = cJSON_CreateObject();
    int ok = rc == 0 && rec && cJSON_AddStringToObject(rec, "type", "pass") &&
             cJSON_AddNumberToObject(rec, "index", (double)index) &&
             cJSON_AddNumberToObject(rec, "pass", pass) &&
             cJSON_AddItemToObject(rec, "cell", cell);
    if (!ok && !cJSON_GetObjectItemCaseSensitive(rec, "cell"))
        cJSON_Delete(cell);
    ok = ok && cJSON_AddStringToObject(rec, "wall_raw_ns", b.len ? b.s : "");
    free(b.s);
    rc = ok ? append(j, rec, 0) : -ENOMEM;
    cJSON_Delete(rec);
    if (rc == 0 && j->fd >= 0 && !j->failed.code)
        j->passes[index]++;
    return rc;
}

int mp_journal_sync(mp_journal *j)
{
    if (j->fd >= 0 && !j->failed.code && fsync(j->fd) < 0)
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

/* check's refusal of results.json as the one line that says so. */
static int refused(const mp_journal *j, const mp_dir *dir, mp_err *err)
{
    char why[MP_ERR_MAX];
    char *tail = strstr(err->msg, " (the file does not follow");
    if (tail)
        *tail = 0;
    snprintf(why, sizeof why, "%s", err->msg);
    return mp_errf(err, -EBADMSG, "%s: not recovered, `muxprof report` would refuse the "
                   "results.json its records make (%s); nothing written in %s", j->path, why,
                   dir->path);
}

const char *const mp_journal_outputs[] = {"results.json", "results.csv", "samples.csv",
                                          "experiments.csv", NULL};

int mp_journal_write_outputs(const mp_journal *j, mp_dir *dir, const cJSON *recovered,
                             mp_journal_check check, mp_err *err)
{
    if (j->ncells > MP_RESULTS_MAX_CELLS)
        return mp_errf(err, -EFBIG, "%zu cells: a results.json holds at most %d (what `muxprof "
                       "report` reads); nothing written", j->ncells, MP_RESULTS_MAX_CELLS);
    cJSON *root = mp_results_assemble(j->head, j->tail, j->experiments, j->cells, recovered);
    if (!root)
        return mp_errf(err, -ENOMEM, "out of memory while writing results.json");
    int rc = 0;
    if (check) {   /* the text mp_write_results_json writes */
        char *text = mp_json_print(root, 1);
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/results.json", dir->path);
        rc = text ? check(text, strlen(text), path, err)
                  : mp_errf(err, -ENOMEM, "out of memory while writing results.json");
        if (rc && rc != -ENOMEM)
            rc = refused(j, dir, err);
        free(text);
    }
    if (rc == 0)
        rc = mp_write_results_json(root, dir, err);
    if (rc == 0)
        rc = mp_write_csv(root, dir, err);
    if (rc == 0)
        rc = mp_write_samples(root, j->samples, dir, err);
    if (rc == 0)
        rc = mp_write_experiments_csv(root, dir, err);
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
    for (size_t i = 0; mp_journal_outputs[i]; i++) {
        int rc = sync_file(dir, mp_journal_outputs[i], err);
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
 * samples to s.  -EBADMSG when the string is anything else, -EFBIG past
 * a cell's (MP_JOURNAL_MAX_LINE_SAMPLES) or the journal's
 * (MP_JOURNAL_MAX_SAMPLES, counted in *total) samples. */
static int parse_samples(const char *str, int rep, mp_samples *s, size_t *total)
{
    size_t count = *str ? 1 : 0;
    for (const char *p = str; *p; p++)
        count += *p == ' ';
    if (!count)
        return 0;
    if (s->n + count > MP_JOURNAL_MAX_LINE_SAMPLES || *total + count > MP_JOURNAL_MAX_SAMPLES)
        return -EFBIG;
    *total += count;
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

static int too_many(const mp_journal *j, size_t lineno, mp_err *err)
{
    return mp_errf(err, -EFBIG, "%s: line %zu: more samples than a journal holds (%ld for a "
                   "cell, %ld in all, as `muxprof run` keeps at most)", j->path, lineno,
                   MP_JOURNAL_MAX_LINE_SAMPLES, MP_JOURNAL_MAX_SAMPLES);
}

/* The partial of sweep index `index`, or where it would go (*at). */
static mp_jpartial *find_partial(mp_journal *j, long index, size_t *at)
{
    size_t lo = 0, hi = j->npartials;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (j->partials[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    return lo < j->npartials && j->partials[lo].index == index ? &j->partials[lo] : NULL;
}

static void free_samples(mp_samples *s)
{
    free(s->wall_raw_ns);
    free(s->repeat);
    memset(s, 0, sizeof *s);
}

/* A sweep index as a record holds it: an integer in 0 .. 1e12 (the range
 * checked before the conversion, which is undefined outside long's). */
static int index_of(const cJSON *rec, long *index)
{
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(rec, "index");
    if (!cJSON_IsNumber(idx) || !(idx->valuedouble >= 0 && idx->valuedouble <= 1e12) ||
        idx->valuedouble != (double)(long)idx->valuedouble)
        return -1;
    *index = (long)idx->valuedouble;
    return 0;
}

/* {"type":"pass",...}: the cell's latest state and repeat `pass`'s samples. */
static int take_pass(mp_journal *j, cJSON *rec, size_t lineno, mp_err *err)
{
#define BAD(...) bad(j, lineno, err, __VA_ARGS__)
    long index;
    const cJSON *pass = cJSON_GetObjectItemCaseSensitive(rec, "pass");
    cJSON *cell = cJSON_GetObjectItemCaseSensitive(rec, "cell");
    const cJSON *walls = cJSON_GetObjectItemCaseSensitive(rec, "wall_raw_ns");
    if (index_of(rec, &index) < 0 || index <= j->last_index)
        return BAD("pass record's index missing, not an integer or of a cell already final");
    if (!cJSON_IsNumber(pass) ||
        !(pass->valuedouble >= INT_MIN && pass->valuedouble <= INT_MAX) ||
        pass->valuedouble != (double)(int)pass->valuedouble ||
        !cJSON_IsObject(cell) || !cJSON_IsString(walls))
        return BAD("a pass record needs an integer \"pass\", a \"cell\" object and one "
                   "sample string in \"wall_raw_ns\"");
    size_t at;
    mp_jpartial *p = find_partial(j, index, &at);
    int want = p ? p->passes : 0;
    if ((int)pass->valuedouble != want || want >= MP_REPEATS_MAX)
        return BAD("pass %d of cell %ld where pass %d was due (at most %d)",
                   (int)pass->valuedouble, index, want, MP_REPEATS_MAX - 1);
    if (!p) {
        if (j->npartials == j->partials_cap) {
            size_t ncap = j->partials_cap ? j->partials_cap * 2 : 64;
            mp_jpartial *np = realloc(j->partials, ncap * sizeof *np);
            if (!np)
                return mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
            j->partials = np;
            j->partials_cap = ncap;
        }
        memmove(&j->partials[at + 1], &j->partials[at],
                (j->npartials - at) * sizeof *j->partials);
        j->npartials++;
        p = &j->partials[at];
        memset(p, 0, sizeof *p);
        p->index = index;
    }
    int rc = parse_samples(walls->valuestring, want, &p->s, &j->nsamples_read);
    if (rc == -EFBIG)
        return too_many(j, lineno, err);
    if (rc < 0)
        return rc == -ENOMEM ? mp_errf(err, rc, "out of memory reading %s", j->path)
                             : BAD("samples of pass %d are not integers separated by single "
                                   "spaces", want);
    cJSON_Delete(p->cell);
    p->cell = cJSON_DetachItemViaPointer(rec, cell);
    p->passes++;
    return 0;
#undef BAD
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
    if (is_type(rec, "pass"))
        return take_pass(j, rec, lineno, err);
    if (is_type(rec, "cell")) {
        long index;
        cJSON *cell = cJSON_GetObjectItemCaseSensitive(rec, "cell");
        const cJSON *walls = cJSON_GetObjectItemCaseSensitive(rec, "wall_raw_ns");
        const cJSON *from = cJSON_GetObjectItemCaseSensitive(rec, "pass_records");
        if (index_of(rec, &index) < 0 || index <= j->last_index)
            return BAD("cell index missing, not an integer or not above the previous one");
        if (!cJSON_IsObject(cell) || !cJSON_IsArray(walls) ||
            cJSON_GetArraySize(walls) > MP_REPEATS_MAX)
            return BAD("a cell record needs a \"cell\" object and at most %d sample strings "
                       "in \"wall_raw_ns\"", MP_REPEATS_MAX);
        size_t at;
        mp_jpartial *p = find_partial(j, index, &at);
        int npass = p ? p->passes : 0;
        if (from ? !cJSON_IsNumber(from) || from->valuedouble != npass : npass != 0)
            return BAD("\"pass_records\" of cell %ld is not the %d pass records before it",
                       index, npass);
        mp_samples s = {0};
        if (p) {   /* the samples of its pass records come first */
            s = p->s;
            cJSON_Delete(p->cell);
            memmove(p, p + 1, (j->npartials - at - 1) * sizeof *p);
            j->npartials--;
        }
        int rep = 0, rc = 0;
        const cJSON *w;
        cJSON_ArrayForEach(w, walls) {
            rc = cJSON_IsString(w) && (rep >= npass || !*w->valuestring)
                     ? parse_samples(w->valuestring, rep, &s, &j->nsamples_read) : -EBADMSG;
            rep++;
            if (rc < 0)
                break;
        }
        if (rc < 0) {
            free(s.wall_raw_ns);
            free(s.repeat);
            if (rc == -EFBIG)
                return too_many(j, lineno, err);
            return rc == -ENOMEM ? mp_errf(err, rc, "out of memory reading %s", j->path)
                                 : BAD("samples of repeat %d are not integers separated by "
                                       "single spaces", rep - 1);
        }
        if (keep_cell(j, index, cJSON_DetachItemViaPointer(rec, cell), s) < 0)
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
    return BAD("not a journal record (type head, pass, cell, experiment or tail)");
#undef BAD
}

/* One line of f, its newline kept (none: the last line, torn), in *buf;
 * 1, 0 at the end, -EFBIG past MP_JOURNAL_MAX_LINE bytes, -ENOMEM. */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len)
{
    *len = 0;
    for (int c; (c = getc_unlocked(f)) != EOF;) {
        if (*len + 2 > *cap) {
            if (*cap >= (size_t)MP_JOURNAL_MAX_LINE + 2)
                return -EFBIG;
            size_t ncap = *cap ? *cap * 2 : 1u << 16;
            if (ncap > (size_t)MP_JOURNAL_MAX_LINE + 2)
                ncap = (size_t)MP_JOURNAL_MAX_LINE + 2;
            char *nb = realloc(*buf, ncap);
            if (!nb)
                return -ENOMEM;
            *buf = nb;
            *cap = ncap;
        }
        (*buf)[(*len)++] = (char)c;
        if (c == '\n')
            break;
    }
    if (*len)
        (*buf)[*len] = '\0';
    return *len > 0;
}

/* The cells known from their pass records alone join the others, in
 * sweep order. */
static int take_partials(mp_journal *j, mp_err *err)
{
    size_t n = j->ncells + j->npartials, a = 0, b = 0, k = 0;
    cJSON **cells = malloc(n * sizeof *cells);
    mp_samples *samples = malloc(n * sizeof *samples);
    long *index = malloc(n * sizeof *index);
    if (!cells || !samples || !index) {
        free(cells);
        free(samples);
        free(index);
        return mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
    }
    cJSON *c;
    while ((c = j->cells->child))
        cells[k++] = cJSON_DetachItemViaPointer(j->cells, c);
    /* merge: cells[0 .. ncells) are in index order, the partials too */
    cJSON **merged = malloc(n * sizeof *merged);
    if (!merged) {
        for (size_t i = 0; i < k; i++)
            cJSON_AddItemToArray(j->cells, cells[i]);
        free(cells);
        free(samples);
        free(index);
        return mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
    }
    for (k = 0; k < n; k++) {
        int from_cell = b >= j->npartials ||
                        (a < j->ncells && j->index[a] < j->partials[b].index);
        if (from_cell) {
            merged[k] = cells[a];
            samples[k] = j->samples[a];
            index[k] = j->index[a++];
        } else {
            merged[k] = j->partials[b].cell;
            samples[k] = j->partials[b].s;
            index[k] = j->partials[b++].index;
        }
    }
    for (k = 0; k < n; k++)
        cJSON_AddItemToArray(j->cells, merged[k]);
    free(merged);
    free(cells);
    free(j->samples);
    free(j->index);
    j->samples = samples;
    j->index = index;
    j->from_passes = j->npartials;
    j->ncells = j->cap = n;
    j->last_index = n ? index[n - 1] : -1;
    j->npartials = 0;
    return 0;
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
    size_t cap = 0, lineno = 0, len;
    int lr = 0;
    while (rc == 0 && (lr = read_line(f, &line, &cap, &len)) > 0) {
        lineno++;
        if (line[len - 1] != '\n') {   /* torn: the process died while writing it */
            j->torn = 1;
            break;
        }
        size_t spaces = 0;   /* a bound on its samples, before any is parsed */
        for (size_t i = 0; i < len; i++)
            spaces += line[i] == ' ';
        if (spaces > MP_JOURNAL_MAX_LINE_SAMPLES + (1u << 16)) {
            rc = too_many(j, lineno, err);
            break;
        }
        cJSON *rec = NULL;
        mp_err jerr;   /* as strictly as results.json: one document, no key twice */
        if (mp_json_parse(line, (size_t)len - 1, &rec, &jerr) == -ENOMEM)
            rc = mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
        else if (!cJSON_IsObject(rec))
            rc = mp_errf(err, -EBADMSG, "%s: line %zu is not one JSON object (the journal is "
                         "damaged)", j->path, lineno);
        else
            rc = take_record(j, rec, lineno, err);
        cJSON_Delete(rec);
    }
    if (rc == 0 && lr == -EFBIG)
        rc = mp_errf(err, -EFBIG, "%s: line %zu is longer than the %ld bytes a journal line "
                     "holds", j->path, lineno + 1, (long)MP_JOURNAL_MAX_LINE);
    else if (rc == 0 && lr == -ENOMEM)
        rc = mp_errf(err, -ENOMEM, "out of memory reading %s", j->path);
    if (rc == 0 && j->npartials)
        rc = take_partials(j, err);
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
    cJSON_AddNumberToObject(o, "cells_from_passes", (double)j->from_passes);
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
    free(j->index);
    free(j->passes);
    for (size_t i = 0; i < j->npartials; i++) {
        cJSON_Delete(j->partials[i].cell);
        free_samples(&j->partials[i].s);
    }
    free(j->partials);
    cJSON_Delete(j->head);
    cJSON_Delete(j->tail);
    cJSON_Delete(j->cells);
    cJSON_Delete(j->experiments);
    memset(j, 0, sizeof *j);
    j->fd = -1;
}
