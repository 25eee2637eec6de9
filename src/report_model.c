/* report_model.c - read results.json, check every field the report uses,
 * and index its cells.  See report_model.h. */
#include "report_model.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_BYTES (512L << 20)
#define MAX_CELLS 100000
#define MAX_NFDS 100000000LL

static int bad(mp_err *err, const mp_rmodel *m, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(mp_err *err, const mp_rmodel *m, const char *field, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return mp_errf(err, -EBADMSG, "%s: field %s: %s (the file does not follow "
                   "docs/results-schema.md; rerun `muxprof run` to rewrite it)",
                   m->path, field, what);
}

void mp__rm_warn(mp_rmodel *m, const char *fmt, ...)
{
    if (m->nwarn >= MP_RM_MAX_WARN)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->warn[m->nwarn++], sizeof m->warn[0], fmt, ap);
    va_end(ap);
}

static const char *type_name(const cJSON *j)
{
    if (!j) return "nothing";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    return "an invalid value";
}

int mp__rm_safe_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s))
            return 0;
    return 1;
}

static int get_name(mp_rmodel *m, const cJSON *o, const char *key, const char *field,
                    char *dst, size_t len, int required, mp_err *err)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!j && !required) {
        snprintf(dst, len, "unknown");
        return 0;
    }
    if (!cJSON_IsString(j))
        return bad(err, m, field, "expected a string, found %s", type_name(j));
    if (strlen(j->valuestring) >= len || !mp__rm_safe_name(j->valuestring))
        return bad(err, m, field, "expected a short name of letters, digits, '_', '.', "
                   "'+' or '-' (at most %zu characters)", len - 1);
    snprintf(dst, len, "%s", j->valuestring);
    return 0;
}

static int get_count(mp_rmodel *m, const cJSON *j, const char *field, long long lo,
                     long long hi, long long *out, mp_err *err)
{
    if (!cJSON_IsNumber(j))
        return bad(err, m, field, "expected a whole number, found %s", type_name(j));
    double v = j->valuedouble;
    if (!isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return bad(err, m, field, "expected a whole number from %lld to %lld, found %g",
                   lo, hi, v);
    *out = (long long)v;
    return 0;
}

static int get_summary(mp_rmodel *m, const cJSON *o, const char *field, mp_rsum *s,
                       int need_p50, mp_err *err)
{
    static const char *keys[] = {"p10", "p50", "p90", "p99", "mean", "min", "max",
                                 "stddev", "n"};
    double *dst[] = {&s->p10, &s->p50, &s->p90, &s->p99, &s->mean, &s->min, &s->max,
                     &s->stddev, &s->n};
    char f[256];
    if (!cJSON_IsObject(o))
        return bad(err, m, field, "expected a summary object, found %s", type_name(o));
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
        *dst[i] = NAN;
        snprintf(f, sizeof f, "%s.%s", field, keys[i]);
        if (!j || cJSON_IsNull(j))
            continue;
        if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble) || fabs(j->valuedouble) > 1e18)
            return bad(err, m, f, "expected a finite number below 1e18, found %s",
                       cJSON_IsNumber(j) ? "an out-of-range number" : type_name(j));
        *dst[i] = j->valuedouble;
    }
    if (need_p50 && isnan(s->p50)) {
        snprintf(f, sizeof f, "%s.p50", field);
        return bad(err, m, f, "missing (every summary needs its median)");
    }
    return 0;
}

static void add_unique(char (*list)[32], size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(list[i], s))
            return;
    if (*n < MP_RM_MAX_LIST)
        snprintf(list[(*n)++], 32, "%s", s);
}

static void add_mode(mp_rmodel *m, const char *s)
{
    for (size_t i = 0; i < m->nmodes; i++)
        if (!strcmp(m->modes[i], s))
            return;
    if (m->nmodes < MP_RM_MAX_LIST)
        snprintf(m->modes[m->nmodes++], sizeof m->modes[0], "%s", s);
}

static void add_metric(mp_rmodel *m, const char *s)
{
    for (size_t i = 0; i < m->nmetrics; i++)
        if (!strcmp(m->metrics[i], s))
            return;
    if (m->nmetrics < MP_RM_MAX_LIST)
        snprintf(m->metrics[m->nmetrics++], MP_RM_NAME, "%s", s);
}

static int load_cell(mp_rmodel *m, const cJSON *o, size_t i, mp_rcell *c, mp_err *err)
{
    char f[256];
    int rc;
    c->index = i;
    c->fd_hi = -1;
    if (!cJSON_IsObject(o)) {
        snprintf(f, sizeof f, "results[%zu]", i);
        return bad(err, m, f, "expected an object, found %s", type_name(o));
    }
#define F(name) (snprintf(f, sizeof f, "results[%zu].%s", i, name), f)
    if ((rc = get_name(m, o, "backend", F("backend"), c->backend, sizeof c->backend, 1, err)) ||
        (rc = get_name(m, o, "mode", F("mode"), c->mode, sizeof c->mode, 1, err)) ||
        (rc = get_name(m, o, "fd_kind", F("fd_kind"), c->fd_kind, sizeof c->fd_kind, 0, err)) ||
        (rc = get_count(m, cJSON_GetObjectItemCaseSensitive(o, "nfds"), F("nfds"), 1,
                        MAX_NFDS, &c->nfds, err)))
        return rc;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
    if (!cJSON_IsString(st) || (strcmp(st->valuestring, "ok") &&
                                strcmp(st->valuestring, "unsupported") &&
                                strcmp(st->valuestring, "error")))
        return bad(err, m, F("status"), "expected \"ok\", \"unsupported\" or \"error\"");
    c->status = !strcmp(st->valuestring, "ok") ? MP_RC_OK
              : !strcmp(st->valuestring, "unsupported") ? MP_RC_UNSUPPORTED : MP_RC_ERROR;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "reason");
    if (r && !cJSON_IsNull(r) && !cJSON_IsString(r))
        return bad(err, m, F("reason"), "expected a string or null, found %s", type_name(r));
    if (cJSON_IsString(r))
        snprintf(c->reason, sizeof c->reason, "%s", r->valuestring);
    /* "active" (K ready at once) came after the first files: absent or null
     * means 1.  A value that is not a whole number >= 1 leaves the cell out
     * (active = 0) with a warning rather than refusing the file. */
    const cJSON *ac = cJSON_GetObjectItemCaseSensitive(o, "active");
    c->active = 1;
    if (ac && !cJSON_IsNull(ac)) {
        double v = cJSON_IsNumber(ac) ? ac->valuedouble : NAN;
        if (!isfinite(v) || v != floor(v) || v < 1 || v > (double)MAX_NFDS) {
            mp__rm_warn(m, "results[%zu] left out: active is %s, not a whole number of "
                        "ready fds from 1 to %lld", i, cJSON_IsNumber(ac) ? "out of range" :
                        type_name(ac), MAX_NFDS);
            c->active = 0;
            return 0;
        }
        c->active = (long long)v;
    }
    const cJSON *hi = cJSON_GetObjectItemCaseSensitive(o, "fd_hi");
    if (hi && !cJSON_IsNull(hi) &&
        (rc = get_count(m, hi, F("fd_hi"), 0, 1LL << 31, &c->fd_hi, err)))
        return rc;
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "profile");
    if (p && mp__rm_check_profile(m, p, F("profile")))
        c->profile = p;
    if (c->status != MP_RC_OK)
        return 0;

    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(o, "metrics");
    if (!cJSON_IsObject(mt))
        return bad(err, m, F("metrics"), "expected an object (an \"ok\" cell has metrics), "
                   "found %s", type_name(mt));
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(mt, "wall_ns");
    if (!w && !m->simulated)
        return bad(err, m, F("metrics.wall_ns"), "missing (every \"ok\" cell has it)");
    c->wall = (mp_rsum){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};   /* simulated: no time */
    if (w && (rc = get_summary(m, w, F("metrics.wall_ns"), &c->wall, 1, err)))
        return rc;
    int nm = cJSON_GetArraySize(mt);
    c->counters = calloc(nm > 0 ? (size_t)nm : 1, sizeof *c->counters);
    if (!c->counters)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", m->path);
    const cJSON *e;
    cJSON_ArrayForEach(e, mt) {
        if (!strcmp(e->string, "wall_ns") || !strcmp(e->string, "wall_raw_ns"))
            continue;
        char shown[64];   /* the name as read, control characters shown as '?' */
        snprintf(shown, sizeof shown, "%.60s", e->string);
        for (char *q = shown; *q; q++)
            if ((unsigned char)*q < ' ' || *q == 0x7f)
                *q = '?';
        snprintf(f, sizeof f, "results[%zu].metrics.%s", i, shown);
        if (strlen(e->string) >= MP_RM_NAME || !*e->string)
            return bad(err, m, f, "metric name is empty or longer than %d characters",
                       MP_RM_NAME - 1);
        for (const char *s = e->string; *s; s++)
            if ((unsigned char)*s <= ' ' || strchr("\"'`\\|#", *s))
                return bad(err, m, f, "metric name has a space, quote, '|', '#' or "
                           "control character");
        mp_rmetric *x = &c->counters[c->ncounters];
        if ((rc = get_summary(m, e, f, &x->s, 1, err)))
            return rc;
        snprintf(x->name, sizeof x->name, "%s", e->string);
        c->ncounters++;
        add_metric(m, e->string);
    }
#undef F
    return 0;
}

static void load_lists(mp_rmodel *m)
{
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m->root, "config");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(cfg, "backends");
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(cfg, "modes");
    const cJSON *e;
    if (!cJSON_IsArray(b))
        b = NULL;
    if (!cJSON_IsArray(md))
        md = NULL;
    /* config order first, but only for values that have cells */
    cJSON_ArrayForEach(e, b)
        if (cJSON_IsString(e))
            for (size_t i = 0; i < m->ncells; i++)
                if (!strcmp(m->cells[i].backend, e->valuestring)) {
                    add_unique(m->backends, &m->nbackends, e->valuestring);
                    break;
                }
    cJSON_ArrayForEach(e, md)
        if (cJSON_IsString(e))
            for (size_t i = 0; i < m->ncells; i++)
                if (!strcmp(m->cells[i].mode, e->valuestring)) {
                    add_mode(m, e->valuestring);
                    break;
                }
    for (size_t i = 0; i < m->ncells; i++) {
        add_unique(m->backends, &m->nbackends, m->cells[i].backend);
        add_mode(m, m->cells[i].mode);
        add_unique(m->kinds, &m->nkinds, m->cells[i].fd_kind);
    }
}

static int read_all(const char *path, char **out, size_t *len, mp_err *err)
{
    /* O_NONBLOCK: a FIFO planted as results.json must not block the open */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return mp_errf(err, -e, "cannot open %s: %s (is this a muxprof run directory?)",
                       path, strerror(e));
    }
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_FILE_BYTES ||
        fcntl(fd, F_SETFL, 0) != 0 || !(f = fdopen(fd, "rb"))) {
        close(fd);
        return mp_errf(err, -EBADMSG, "%s: not a regular file of at most %ld MiB", path,
                       MAX_FILE_BYTES >> 20);
    }
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        fclose(f);
        return mp_errf(err, -ENOMEM, "out of memory reading %s", path);
    }
    size_t n = fread(buf, 1, (size_t)st.st_size, f);
    int e = ferror(f);
    fclose(f);
    if (e) {
        free(buf);
        return mp_errf(err, -EIO, "cannot read %s", path);
    }
    buf[n] = 0;
    /* JSON text has no raw NUL (cJSON would keep one inside a string and
     * cut the string there, hiding what followed) */
    const char *nul = memchr(buf, 0, n);
    if (nul) {
        size_t at = (size_t)(nul - buf);
        free(buf);
        return mp_errf(err, -EBADMSG, "%s: not valid JSON: a NUL byte at byte %zu", path, at);
    }
    *out = buf;
    *len = n;
    return 0;
}

int mp_rm_load(mp_rmodel *m, const char *path, mp_err *err)
{
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    m->line_bytes = 64;
    char *buf = NULL;
    size_t len = 0;
    int rc = read_all(path, &buf, &len, err);
    if (rc)
        return rc;
    const char *end = NULL;
    m->root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!m->root) {
        size_t line = 1, off = end && end >= buf ? (size_t)(end - buf) : 0;
        for (size_t i = 0; i < off && i < len; i++)
            line += buf[i] == '\n';
        free(buf);
        return mp_errf(err, -EBADMSG, "%s: not valid JSON near line %zu (byte %zu); "
                       "NaN and Infinity are not JSON", path, line, off);
    }
    free(buf);
    if (!cJSON_IsObject(m->root))
        return bad(err, m, "(top level)", "expected an object, found %s", type_name(m->root));
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(m->root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, "muxprof-results/1"))
        return bad(err, m, "schema", "expected \"muxprof-results/1\", found %s",
                   cJSON_IsString(schema) ? "another version" : type_name(schema));
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(m->root, "context");
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(ctx, "arch");
    if (ctx && !cJSON_IsObject(ctx))
        return bad(err, m, "context", "expected an object, found %s", type_name(ctx));
    snprintf(m->arch, sizeof m->arch, "%s",
             cJSON_IsString(arch) ? arch->valuestring : "unknown");
    m->abi = mp_abi_from_arch(m->arch);
    const cJSON *sim = cJSON_GetObjectItemCaseSensitive(ctx, "simulated");
    const cJSON *label = cJSON_GetObjectItemCaseSensitive(ctx, "label");
    m->simulated = cJSON_IsTrue(sim);
    snprintf(m->sim_label, sizeof m->sim_label, "%.90s",
             m->simulated && cJSON_IsString(label) ? label->valuestring : "simulated");

    const cJSON *res = cJSON_GetObjectItemCaseSensitive(m->root, "results");
    if (!cJSON_IsArray(res))
        return bad(err, m, "results", "expected an array of cells, found %s", type_name(res));
    int n = cJSON_GetArraySize(res);
    if (n > MAX_CELLS)
        return bad(err, m, "results", "%d cells, more than the %d a report can hold", n,
                   MAX_CELLS);
    m->cells = calloc(n > 0 ? (size_t)n : 1, sizeof *m->cells);
    m->kcells = calloc(n > 0 ? (size_t)n : 1, sizeof *m->kcells);
    if (!m->cells || !m->kcells)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", path);
    const cJSON *c;
    size_t idx = 0;
    cJSON_ArrayForEach(c, res) {
        mp_rcell *x = &m->cells[m->ncells];
        if ((rc = load_cell(m, c, idx++, x, err))) {
            m->ncells++;   /* so mp_rm_free releases its counters */
            return rc;
        }
        if (x->active == 1) {
            m->ncells++;
            continue;
        }
        if (x->active > 1)   /* K of N: kept apart so per-call analyses never see it */
            m->kcells[m->nkcells++] = *x;
        else
            free(x->counters);
        memset(x, 0, sizeof *x);
    }
    mp__rm_load_topology(m);
    mp__rm_load_counters(m);
    load_lists(m);
    mp__rm_load_experiments(m);
    return 0;
}

void mp_rm_free(mp_rmodel *m)
{
    for (size_t i = 0; i < m->ncells; i++)
        free(m->cells[i].counters);
    free(m->cells);
    for (size_t i = 0; i < m->nkcells; i++)
        free(m->kcells[i].counters);
    free(m->kcells);
    mp__rm_free_experiments(m);
    free(m->counters);
    cJSON_Delete(m->root);
    memset(m, 0, sizeof *m);
}

size_t mp_rm_series(const mp_rmodel *m, const char *mode, const char *kind,
                    const char *backend, const mp_rcell **out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (strcmp(c->mode, mode) || strcmp(c->fd_kind, kind) || strcmp(c->backend, backend))
            continue;
        int dup = 0;   /* a repeated nfds keeps its first cell */
        for (size_t j = 0; j < k && j < max; j++)
            dup |= out[j]->nfds == c->nfds;
        if (dup)
            continue;
        if (k < max) {
            size_t j = k;
            while (j > 0 && out[j - 1]->nfds > c->nfds) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = c;
        }
        k++;
    }
    return k;
}

const mp_rcell *mp_rm_find(const mp_rmodel *m, const char *mode, const char *kind,
                           const char *backend, long long nfds)
{
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (c->status == MP_RC_OK && c->nfds == nfds && !strcmp(c->mode, mode) &&
            !strcmp(c->fd_kind, kind) && !strcmp(c->backend, backend))
            return c;
    }
    return NULL;
}

double mp_rm_p50(const mp_rcell *c, const char *name)
{
    if (!c || c->status != MP_RC_OK)
        return NAN;
    if (!strcmp(name, "wall_ns"))
        return c->wall.p50;
    for (size_t i = 0; i < c->ncounters; i++)
        if (!strcmp(c->counters[i].name, name))
            return c->counters[i].s.p50;
    return NAN;
}

const char *mp_rm_text(const mp_rmodel *m, const char *dotted, char *buf, size_t len)
{
    const cJSON *j = m->root;
    char key[128];
    const char *p = dotted;
    while (j && *p) {
        size_t k = strcspn(p, ".");
        if (k >= sizeof key)
            return NULL;
        memcpy(key, p, k);
        key[k] = 0;
        j = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, key) : NULL;
        p += k + (p[k] == '.');
    }
    if (!j)
        return NULL;
    if (cJSON_IsString(j))
        snprintf(buf, len, "%s", j->valuestring);
    else if (cJSON_IsNumber(j) && isfinite(j->valuedouble))
        snprintf(buf, len, "%.15g", j->valuedouble);
    else if (cJSON_IsBool(j))
        snprintf(buf, len, "%s", cJSON_IsTrue(j) ? "yes" : "no");
    else
        return NULL;
    return buf;
}
