/* SPDX-License-Identifier: MIT */
/* sim_import.c - a scripts/muxsim.sh directory as results.json; see
 * run/sim_import.h. */
#include "run/sim_import.h"

#include "run/internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file.h"
#include "common/input.h"
#include "common/json.h"
#include "run/fdset.h"

#define MP__SIM_ENV_MAX 64
#define CELLS_MAX 100000
#define SMALL_FILE (64 * 1024)
#define TSV_FILE (256u * 1024 * 1024)
#define FN_FILE (16u * 1024 * 1024)
#define RESULTS_FILE (256u * 1024 * 1024)
#define TSV_HEADER "cell\tcore\tcalls\tkept\tevent\tpriv\tp10\tp50\tp90\tmean\tmin\tmax"

static int bad(mp_err *err, const mp__sim_in *im, const char *file, size_t line, const char *what)
{
    if (line)
        return mp_errf(err, -EBADMSG, "%s/%s line %zu: %s", im->dir, file, line, what);
    return mp_errf(err, -EBADMSG, "%s/%s: %s", im->dir, file, what);
}

/* DIR/name, a text file of at most max bytes; no symbolic link inside DIR is
 * followed (a link to /etc/passwd would end up in results.json). */
static int slurp(const mp__sim_in *im, const char *name, size_t max, char **out, mp_err *err)
{
    size_t len;
    int rc = mp_read_regular_file_in(im->dir, name, max, out, &len, err);
    if (rc == -ENOENT)
        return mp_errf(err, rc, "%s/%s: no such file (is %s a directory scripts/muxsim.sh "
                       "wrote?)", im->dir, name, im->dir);
    if (rc == -ELOOP)
        return bad(err, im, name, 0, "a symbolic link: sim-import reads only the files "
                   "themselves (copy the file into place)");
    if (rc == 0 && memchr(*out, 0, len)) {
        free(*out);
        *out = NULL;
        return bad(err, im, name, 0, "a NUL byte: not a text file");
    }
    return rc;
}

/* The next line of *p (cut in place, "\r" kept as text); NULL at the end. */
static char *next_line(char **p)
{
    char *s = *p;
    if (!s || !*s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = 0;
        *p = nl + 1;
    } else {
        *p = s + strlen(s);
    }
    return s;
}

static int whole(const char *s, long lo, long hi, long *out)
{
    char *e;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (errno || *e || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

const char *mp__sim_env(const mp__sim_in *im, const char *key)
{
    for (size_t i = 0; i < im->nenv; i++)
        if (!strcmp(im->key[i], key))
            return im->val[i];
    return NULL;
}

static int name_ok(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (!n || n >= max)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

static int read_env(mp__sim_in *im, mp_err *err)
{
    static const char *const need[] = {"geometry", "backends", "fds", "fd_kind", "calls",
                                       "warmup", "prefetch"};
    int rc = slurp(im, "plan.env", SMALL_FILE, &im->envtext, err);
    if (rc)
        return rc;
    char *p = im->envtext, *l;
    size_t n = 0;
    while ((l = next_line(&p))) {
        n++;
        if (!*l)
            continue;
        char *eq = strchr(l, '=');
        if (!eq || eq == l)
            return bad(err, im, "plan.env", n, "not KEY=VALUE");
        *eq = 0;
        if (mp__sim_env(im, l))
            continue;
        if (im->nenv == MP__SIM_ENV_MAX)
            return bad(err, im, "plan.env", n, "more keys than the " "64 it may hold");
        im->key[im->nenv] = l;
        im->val[im->nenv++] = eq + 1;
    }
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!mp__sim_env(im, need[i])) {
            char what[64];
            snprintf(what, sizeof what, "no %s= line", need[i]);
            return bad(err, im, "plan.env", 0, what);
        }
    long v;
    if (whole(mp__sim_env(im, "calls"), 1, 100000000, &v) ||
        whole(mp__sim_env(im, "warmup"), 0, 100000000, &v))
        return bad(err, im, "plan.env", 0, "calls= and warmup= must be whole numbers");
    /* the lists are config's: names and counts only */
    const char *fds = mp__sim_env(im, "fds"), *be = mp__sim_env(im, "backends");
    for (const char *c = fds; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c == ',' && c > fds && c[1] && c[1] != ',')))
            return bad(err, im, "plan.env", 0, "fds= must be counts separated by commas");
    for (const char *c = fds; *c;) {   /* each count in the range a cell may have */
        char one[16];
        size_t len = strcspn(c, ",");
        if (len >= sizeof one)
            return bad(err, im, "plan.env", 0, "fds= must be counts from 1 to 16777216");
        memcpy(one, c, len);
        one[len] = 0;
        if (whole(one, 1, 1 << 24, &v))
            return bad(err, im, "plan.env", 0, "fds= must be counts from 1 to 16777216");
        c += len + (c[len] == ',');
    }
    for (const char *c = be; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' ||
              (*c == ',' && c > be && c[1] && c[1] != ',')))
            return bad(err, im, "plan.env", 0, "backends= must be names separated by commas");
    if (!*fds || !*be)
        return bad(err, im, "plan.env", 0, "fds= and backends= must not be empty");
    mp_fd_kind kind;
    if (mp_fd_kind_parse(mp__sim_env(im, "fd_kind"), &kind)) {
        char what[160];
        snprintf(what, sizeof what, "fd_kind= must be one of %s", mp_fd_kind_names());
        return bad(err, im, "plan.env", 0, what);
    }
    unsigned bits;
    mp_err why;
    if (mp_sim_prefetch_parse(mp__sim_env(im, "prefetch"), &bits, &why))
        return bad(err, im, "plan.env", 0, why.msg);
    const char *arch = mp__sim_env(im, "arch");
    if (arch && strcmp(arch, "arm64") && strcmp(arch, "x86_64"))
        return bad(err, im, "plan.env", 0, "arch= must be arm64 or x86_64");
    return 0;
}

const char *mp__sim_guest_arch(const mp__sim_in *in)
{
    const char *arch = mp__sim_env(in, "arch");
    return arch && !strcmp(arch, "x86_64") ? "x86_64" : "aarch64";
}

static int read_cells(mp__sim_in *im, mp_err *err)
{
    int rc = slurp(im, "cells.txt", (size_t)CELLS_MAX * 64, &im->cellstext, err);
    if (rc)
        return rc;
    size_t cap = 16, n = 0;
    im->loops = malloc(cap * sizeof *im->loops);
    if (!im->loops)
        return mp_errf(err, -ENOMEM, "out of memory");
    char *p = im->cellstext, *l;
    while ((l = next_line(&p))) {
        n++;
        char b[64], ns[32], rs[32], extra;
        mp__sim_loop r;
        if (sscanf(l, "%63s %31s %31s %c", b, ns, rs, &extra) != 3 || !name_ok(b, sizeof r.backend)
            || whole(ns, 1, 1L << 24, &r.nfds) || whole(rs, 0, 255, &r.status))
            return bad(err, im, "cells.txt", n, "expected \"BACKEND N STATUS\" (poll 1000 0)");
        snprintf(r.backend, sizeof r.backend, "%.31s", b);   /* name_ok: it fits */
        if (im->nloops == CELLS_MAX)
            return bad(err, im, "cells.txt", n, "more cells than the 100000 it may hold");
        if (im->nloops == cap) {
            mp__sim_loop *q = realloc(im->loops, 2 * cap * sizeof *q);
            if (!q)
                return mp_errf(err, -ENOMEM, "out of memory");
            im->loops = q;
            cap *= 2;
        }
        im->loops[im->nloops++] = r;
    }
    if (!im->nloops)
        return bad(err, im, "cells.txt", 0, "no cell: the guest ran nothing");
    return 0;
}

int mp__sim_number(const char *s, double *out)
{
    char *e;
    if (!*s)
        return -1;
    *out = strtod(s, &e);
    return *e || !isfinite(*out) ? -1 : 0;
}

/* A row's p10, p50, p90, mean, min and max (v[]): counts of events per call,
 * so none below 0, and min <= p10 <= p50 <= p90 <= max, min <= mean <= max,
 * as every summary of the same calls is (report refuses any other). */
static int summary_ok(const mp__sim_in *im, const double *v, size_t line, mp_err *err)
{
    static const char *const name[] = {"p10", "p50", "p90", "mean", "min", "max"};
    static const int order[][2] = {{4, 0}, {0, 1}, {1, 2}, {2, 5}, {4, 3}, {3, 5}};
    char what[160];
    for (int i = 0; i < 6; i++)
        if (v[i] < 0) {
            snprintf(what, sizeof what, "%s is %g: a count per call is never below 0",
                     name[i], v[i]);
            return bad(err, im, "muxsim.tsv", line, what);
        }
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (v[order[i][0]] > v[order[i][1]]) {
            snprintf(what, sizeof what, "%s %g is over %s %g: expected min <= p10 <= p50 <= "
                     "p90 <= max and min <= mean <= max", name[order[i][0]], v[order[i][0]],
                     name[order[i][1]], v[order[i][1]]);
            return bad(err, im, "muxsim.tsv", line, what);
        }
    return 0;
}

/* One row of muxsim.tsv into im->cells; f[] its 12 fields. */
static int tsv_row(mp__sim_in *im, char **f, size_t line, mp_err *err)
{
    long cell, core, calls, kept;
    int rc;
    if (whole(f[0], 0, CELLS_MAX - 1, &cell) || whole(f[1], 0, MP_SIM_CORES_MAX - 1, &core) ||
        whole(f[2], 0, LONG_MAX, &calls) || whole(f[3], 0, calls, &kept))
        return bad(err, im, "muxsim.tsv", line, "cell, core, calls and kept must be whole "
                   "numbers (kept at most calls)");
    if (!kept)   /* a summary of no call: results.json's n would be 0 beside numbers */
        return bad(err, im, "muxsim.tsv", line, "kept is 0: a summary row must keep at least "
                   "one call");
    if (strcmp(f[5], "user") && strcmp(f[5], "kernel") && strcmp(f[5], "all"))
        return bad(err, im, "muxsim.tsv", line, "priv is not user, kernel or all");
    double v[6];
    for (int i = 0; i < 6; i++)
        if (mp__sim_number(f[6 + i], &v[i]))
            return bad(err, im, "muxsim.tsv", line, "p10, p50, p90, mean, min and max must be "
                       "finite numbers");
    if ((rc = summary_ok(im, v, line, err)))
        return rc;
    if ((size_t)cell >= im->ncells) {
        mp__sim_cell *q = realloc(im->cells, ((size_t)cell + 1) * sizeof *q);
        if (!q)
            return mp_errf(err, -ENOMEM, "out of memory");
        memset(q + im->ncells, 0, ((size_t)cell + 1 - im->ncells) * sizeof *q);
        for (size_t i = im->ncells; i <= (size_t)cell; i++)
            q[i].core = -1;
        im->cells = q;
        im->ncells = (size_t)cell + 1;
    }
    mp__sim_cell *c = &im->cells[cell];
    if (c->core >= 0 && c->core != core)
        return bad(err, im, "muxsim.tsv", line, "a cell on two cores");
    c->core = core;
    if (strcmp(f[5], "all"))
        return 0;
    for (size_t m = 0; m < MP__SIM_NMETRICS; m++)
        if (!strcmp(f[4], mp__sim_metrics[m].event)) {
            if (c->have & (1u << m))
                return bad(err, im, "muxsim.tsv", line, "the same event twice in one cell");
            c->have |= 1u << m;
            c->s[m] = (mp_summary){.p10 = v[0], .p50 = v[1], .p90 = v[2], .p99 = NAN,
                                   .mean = v[3], .min = v[4], .max = v[5], .stddev = NAN,
                                   .n = (size_t)kept};
        }
    return 0;
}

static int read_tsv(mp__sim_in *im, mp_err *err)
{
    int rc = slurp(im, "muxsim.tsv", TSV_FILE, &im->tsvtext, err);
    if (rc)
        return rc;
    char *p = im->tsvtext, *l = next_line(&p);
    if (!l || strncmp(l, "# muxsim:", 9))
        return bad(err, im, "muxsim.tsv", 1, "expected the plugin's \"# muxsim:\" line");
    if (!(l = next_line(&p)) || strcmp(l, TSV_HEADER))
        return bad(err, im, "muxsim.tsv", 2, "expected the header " "\"cell core calls kept "
                   "event priv p10 p50 p90 mean min max\" (tab-separated)");
    for (size_t n = 3; (l = next_line(&p)); n++) {
        char *f[12];
        size_t k = 0;
        for (char *s = l; k < 12; k++) {
            f[k] = s;
            char *t = strchr(s, '\t');
            if (!t)
                break;
            *t = 0;
            s = t + 1;
        }
        if (k != 11)
            return bad(err, im, "muxsim.tsv", n, "expected 12 tab-separated fields");
        if ((rc = tsv_row(im, f, n, err)))
            return rc;
    }
    for (size_t c = 0; c < im->ncells; c++)
        for (size_t m = 0; m < MP__SIM_NMETRICS; m++)
            if (!(im->cells[c].have & (1u << m))) {
                char what[160];
                snprintf(what, sizeof what, "cell %zu has no \"all\" row of %s", c,
                         mp__sim_metrics[m].event);
                return bad(err, im, "muxsim.tsv", 0, what);
            }
    return 0;
}

/* The geometry sim/geometries/NAME.conf as the binary carries it; NULL when
 * there is none of that name. */
static const mp_sim_geometry_file *builtin_geometry(const char *name)
{
    for (const mp_sim_geometry_file *f = mp_sim_geometries; f->name; f++)
        if (!strcmp(f->name, name))
            return f;
    return NULL;
}

/* The built-in geometry g names: NAME itself, or a path ending in
 * sim/geometries/NAME.conf (what scripts/muxsim.sh writes for one; the
 * path is never opened); NULL for any other g. */
static const mp_sim_geometry_file *named_geometry(const char *g)
{
    static const char tail[] = "sim/geometries/";
    const char *base = strrchr(g, '/');
    if (!base)
        return builtin_geometry(g);
    base++;
    size_t n = strlen(base), pre = (size_t)(base - g);
    char name[64];
    if (n <= 5 || n - 5 >= sizeof name || strcmp(base + n - 5, ".conf") ||
        pre < sizeof tail - 1 || strncmp(base - (sizeof tail - 1), tail, sizeof tail - 1) ||
        (pre > sizeof tail - 1 && base[-(int)sizeof tail] != '/'))
        return NULL;
    memcpy(name, base, n - 5);
    name[n - 5] = 0;
    return builtin_geometry(name);
}

/* 1 when rel is a path inside a directory: relative, no "..", no empty
 * component. */
static int inside(const char *rel)
{
    if (!*rel || *rel == '/')
        return 0;
    for (const char *c = rel; *c;) {
        size_t len = strcspn(c, "/");
        if (!len || (len == 2 && c[0] == '.' && c[1] == '.'))
            return 0;
        c += len + (c[len] == '/');
    }
    return rel[strlen(rel) - 1] != '/';
}

/* A geometry file from outside DIR that does not parse: its message keeps
 * the file and line ("NAME:LINE:") but not the line, which may be any
 * file's (a /etc file named as the geometry). */
static void hide_lines(mp_err *err, const char *name, const char *path)
{
    size_t n = strlen(name), d = 0;
    if (strncmp(err->msg, name, n) || err->msg[n] != ':')
        return;
    while (err->msg[n + 1 + d] >= '0' && err->msg[n + 1 + d] <= '9')
        d++;
    if (!d || err->msg[n + 1 + d] != ':')
        return;
    char line[24];
    snprintf(line, sizeof line, "%.*s", (int)(d < 12 ? d : 12), err->msg + n + 1);
    mp_errf(err, err->code, "%.200s line %s: not a geometry line (KEY=VALUE with the keys of "
            "sim/geometries/*.conf)", path, line);
}

#define GEO_FILE (64 * 1024)
static int read_geometry(mp__sim_in *im, const char *given, mp_err *err)
{
    const char *g = given ? given : mp__sim_env(im, "geometry");
    const mp_sim_geometry_file *named = given && strchr(given, '/') ? NULL : named_geometry(g);
    char path[PATH_MAX], name[64], *text = NULL;
    size_t len;
    int rc;
    if (named) {
        snprintf(name, sizeof name, "%s", named->name);
        rc = mp_sim_geometry_parse(named->text, name, &im->g, err);
        if (rc)
            err->code = -EBADMSG;
        return rc ? -EBADMSG : 0;
    }
    if (given) {   /* the caller's own file, wherever it lies */
        snprintf(path, sizeof path, "%s", given);
        rc = mp_read_regular_file(given, GEO_FILE, &text, &len, err);
    } else if (!inside(g)) {
        return bad(err, im, "plan.env", 0, "geometry= is neither a name of sim/geometries "
                   "nor a file inside the directory: copy the file into it and give its "
                   "relative path, or give --geometry FILE");
    } else {
        if (snprintf(path, sizeof path, "%s/%s", im->dir, g) >= (int)sizeof path)
            return mp_errf(err, -ENAMETOOLONG, "%s/%.60s: path too long", im->dir, g);
        rc = slurp(im, g, GEO_FILE, &text, err);
    }
    if (rc == -ENOENT)
        return mp_errf(err, rc, "%s: no such geometry file (%s; give a name of "
                       "sim/geometries or the file with --geometry FILE)", path,
                       given ? "--geometry" : "plan.env's geometry=");
    if (rc)
        return rc;
    if (given && memchr(text, 0, len)) {
        free(text);
        return mp_errf(err, -EBADMSG, "%s: a NUL byte: not a geometry file", path);
    }
    const char *base = strrchr(path, '/');
    snprintf(name, sizeof name, "%.63s", base ? base + 1 : path);
    char *dot = strstr(name, ".conf");
    if (dot && !dot[5])
        *dot = 0;
    rc = mp_sim_geometry_parse(text, name, &im->g, err);
    free(text);
    if (rc && given)
        hide_lines(err, name, path);
    if (rc)   /* a geometry that does not parse is a malformed input */
        err->code = -EBADMSG;
    return rc ? -EBADMSG : 0;
}

/* An entry of functions.json's "functions": an object with a "name" and the
 * three misses per call functions.py counts, each a finite number >= 0. */
static int fn_row_ok(const cJSON *e)
{
    static const char *const num[] = {"L1d-misses", "L2-misses", "LLC-load-misses"};
    if (!cJSON_IsObject(e) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "name")))
        return 0;
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, num[i]);
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
            return 0;
    }
    return 1;
}

/* DIR/functions.json (scripts/muxsim/functions.py), when the run has one:
 * {"cells": [{"backend", "nfds", "functions": [...], "attributed_L1d_share":
 * a number or null}, ...]}, checked whole into im->fn.  The share may pass
 * 1 a little: functions.py divides exact sums by muxsim.tsv's mean, which
 * the plugin rounds to two decimals (4 misses in 30 calls: 4 / 3.9).  The
 * least mean it prints above 0 is 0.01, which stands for a true mean up to
 * 0.015 (a mean printed as 0 gives null), so a share over 1.5 is no rounding
 * but a broken file: refused. */
#define SHARE_MAX 1.5
static int read_functions(mp__sim_in *im, mp_err *err)
{
    static const char fix[] = " (scripts/muxsim/functions.py writes it: run it again, or "
                              "remove the file to import without kernel functions)";
    char *text = NULL, what[320];
    int rc = slurp(im, "functions.json", FN_FILE, &text, err);
    if (rc == -ENOENT) {
        mp_err_clear(err);
        return 0;
    }
    if (rc)
        return rc;
    const char *end = NULL;
    im->fn = cJSON_ParseWithOpts(text, &end, 1);
    if (!im->fn) {
        size_t line = 1;
        for (const char *c = text; end && c < end; c++)
            line += *c == '\n';
        free(text);
        snprintf(what, sizeof what, "not JSON%s", fix);
        return bad(err, im, "functions.json", line, what);
    }
    free(text);
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(im->fn, "cells"), *c;
    if (!cJSON_IsArray(cells)) {
        snprintf(what, sizeof what, "no \"cells\" list%s", fix);
        return bad(err, im, "functions.json", 0, what);
    }
    size_t i = 0;
    cJSON_ArrayForEach(c, cells) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "backend");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "nfds");
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(c, "functions");
        const cJSON *sh = cJSON_GetObjectItemCaseSensitive(c, "attributed_L1d_share");
        const cJSON *e;
        int ok = cJSON_IsString(b) && name_ok(b->valuestring, sizeof im->loops[0].backend) &&
                 cJSON_IsNumber(n) && n->valuedouble >= 1 && n->valuedouble <= (1 << 24) &&
                 n->valuedouble == (double)(long)n->valuedouble && cJSON_IsArray(f) &&
                 (cJSON_IsNull(sh) || (cJSON_IsNumber(sh) && sh->valuedouble >= 0 &&
                                       sh->valuedouble <= SHARE_MAX));
        cJSON_ArrayForEach(e, f) {
            ok = ok && fn_row_ok(e);
        }
        if (!ok) {
            snprintf(what, sizeof what, "cell %zu: expected backend, nfds (1..16777216), "
                     "functions (each a name with L1d-, L2- and LLC-load-misses >= 0) and "
                     "attributed_L1d_share (a number from 0 to 1.5, or null)%s", i, fix);
            return bad(err, im, "functions.json", 0, what);
        }
        i++;
    }
    return 0;
}

/* The log of every loop that failed, which gives its cell's reason, is a
 * file or missing: a link or anything else unreadable is refused. */
static int check_logs(const mp__sim_in *im, mp_err *err)
{
    for (size_t i = 0; i < im->nloops; i++) {
        const mp__sim_loop *r = &im->loops[i];
        char name[96], *text = NULL;
        if (!r->status)
            continue;
        snprintf(name, sizeof name, "guest/loop-%s-%ld.log", r->backend, r->nfds);
        int rc = slurp(im, name, SMALL_FILE, &text, err);
        free(text);
        if (rc == -ENOENT)
            mp_err_clear(err);
        else if (rc)
            return rc;
    }
    return 0;
}

void mp__sim_loop_reason(const mp__sim_in *im, const mp__sim_loop *r, char *out, size_t len)
{
    char name[96], *text = NULL;
    mp_err ignored;
    snprintf(name, sizeof name, "guest/loop-%s-%ld.log", r->backend, r->nfds);
    if (slurp(im, name, SMALL_FILE, &text, &ignored) == 0) {
        size_t o = 0;
        for (const char *s = text; *s && o + 1 < len; s++) {
            if (*s == '\n' || *s == '\r')
                o += (size_t)snprintf(out + o, len - o, "%s", o && s[1] ? "; " : "");
            else
                out[o++] = (unsigned char)*s < 0x20 ? '?' : *s;
            if (o >= len)
                o = len - 1;
        }
        out[o] = 0;
        while (o && (out[o - 1] == ' ' || out[o - 1] == ';'))
            out[--o] = 0;
        free(text);
        if (o)
            return;
    }
    snprintf(out, len, "muxprof loop exited %ld", r->status);
}

static int is_results(mp_dir *in, const char *name, void *ctx, mp_err *err)
{
    (void)err;
    if (in->rel[0] == 0 && !strcmp(name, "results.json"))
        *(int *)ctx = 1;
    return 0;
}

/* 1 when d's results.json is a simulated run's (context.simulated true). */
static int simulated_results(mp_dir *d)
{
    char *text = NULL;
    size_t len;
    mp_err ignored;
    if (mp_dir_read(d, "results.json", RESULTS_FILE, &text, &len, &ignored))
        return 0;
    cJSON *j = cJSON_Parse(text);
    free(text);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "context"), "simulated");
    int yes = cJSON_IsTrue(s);
    cJSON_Delete(j);
    return yes;
}

/* Write text as DIR/results.json: a results.json already there is replaced
 * only when muxprof wrote it (DIR's manifest lists it) as a simulated run's;
 * a measured run's results.json is the measurement and is never replaced. */
static int write_out(const mp__sim_in *im, const char *text, mp_err *err)
{
    mp_dir d;
    struct stat st;
    char path[PATH_MAX];
    int rc = mp_dir_open(&d, im->dir, 1, err);
    if (rc)
        return rc == -ENOTDIR || rc == -ELOOP || rc == -EPERM ? MP_EUSAGE : rc;
    snprintf(path, sizeof path, "%s/results.json", im->dir);
    int ours = 0;
    if (lstat(path, &st) == 0 && (rc = mp_dir_each(&d, is_results, &ours, err)) == 0) {
        if (!ours)
            rc = mp_errf(err, MP_EUSAGE, "%s was not written by muxprof; move it away to "
                         "import %s", path, im->dir);
        else if (!simulated_results(&d))
            rc = mp_errf(err, MP_EUSAGE, "%s holds a measured run's results.json; give "
                         "sim-import the muxsim.sh output directory", im->dir);
    }
    if (rc == 0)
        rc = mp_write_file(&d, "results.json", text, strlen(text), err);
    mp_dir_close(&d);
    return rc;
}

int mp_sim_import_dir(const char *dir, const char *geometry, mp_sim_check check,
                      mp_sim_import *out, mp_err *err)
{
    mp__sim_in im;
    memset(&im, 0, sizeof im);
    memset(out, 0, sizeof *out);
    im.dir = dir;
    int rc = read_env(&im, err);
    if (!rc)
        rc = read_cells(&im, err);
    if (!rc)
        rc = read_tsv(&im, err);
    if (!rc)
        rc = read_geometry(&im, geometry, err);
    if (!rc)
        rc = read_functions(&im, err);
    if (!rc)
        rc = check_logs(&im, err);
    size_t ok = 0;
    for (size_t i = 0; !rc && i < im.nloops; i++)
        ok += im.loops[i].status == 0;
    if (!rc && ok != im.ncells)
        rc = mp_errf(err, -EBADMSG, "%s: %zu loops succeeded (cells.txt) but the plugin saw %zu "
                     "cells (muxsim.tsv): the two do not pair up", dir, ok, im.ncells);
    cJSON *doc = rc ? NULL : mp__sim_document(&im, out);
    char *text = doc ? mp_json_print(doc, 1) : NULL;
    if (!rc && !text)
        rc = mp_errf(err, -ENOMEM, "out of memory building %s/results.json", dir);
    if (!rc && check) {   /* what report would refuse is never written */
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/results.json", dir);
        if ((rc = check(text, strlen(text), path, err)) && rc != -ENOMEM) {
            char why[MP_ERR_MAX];
            char *tail = strstr(err->msg, " (the file does not follow");
            if (tail)
                *tail = 0;
            snprintf(why, sizeof why, "%s", err->msg);
            rc = mp_errf(err, -EBADMSG, "not written, `muxprof report` would refuse it: %s "
                         "(check muxsim.tsv and plan.env)", why);
        }
    }
    if (!rc)
        rc = write_out(&im, text, err);
    free(text);
    cJSON_Delete(doc);
    free(im.envtext);
    free(im.cellstext);
    free(im.tsvtext);
    free(im.loops);
    free(im.cells);
    cJSON_Delete(im.fn);
    return rc;
}
