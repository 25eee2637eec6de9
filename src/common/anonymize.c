/* anonymize.c - literal secrets (host names, user names, paths) replaced
 * longest first, each only where it stands alone (a host "vm" is replaced in
 * "runs/vm-2026..." but not in "kvm"); home directories and kernel
 * addresses found by their shape.  See anonymize.h. */
#include "common/anonymize.h"
#include "common/json.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"

#define LABEL_PATH "<path>"
#define LABEL_HOME "~"
#define LABEL_USER "user"
#define LABEL_KADDR "<kernel address>"

enum kind { WORD, PATH };

typedef struct rule {
    char *from, *to;
    size_t len;
    enum kind kind;
} rule;

struct mp_anon {
    rule *r;          /* longest first */
    size_t n, cap;
    int hosts;        /* host labels handed out */
};

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

static int path_char(char c)
{
    return word_char(c) || c == '.' || c == '-' || c == '/' || c == '~';
}

static int hex_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const rule *find(const mp_anon *a, const char *from)
{
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->r[i].from, from)) return &a->r[i];
    return NULL;
}

static int add(mp_anon *a, const char *from, size_t len, const char *to, enum kind kind)
{
    char buf[PATH_MAX];
    if (len < 2 || len >= sizeof buf) return 0;
    memcpy(buf, from, len);
    buf[len] = '\0';
    if (find(a, buf)) return 0;
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        rule *r = realloc(a->r, cap * sizeof *r);
        if (!r) return -ENOMEM;
        a->r = r;
        a->cap = cap;
    }
    size_t at = 0;
    while (at < a->n && a->r[at].len >= len) at++;
    rule nr = {strdup(buf), strdup(to), len, kind};
    if (!nr.from || !nr.to) {
        free(nr.from);
        free(nr.to);
        return -ENOMEM;
    }
    memmove(&a->r[at + 1], &a->r[at], (a->n - at) * sizeof *a->r);
    a->r[at] = nr;
    a->n++;
    return 0;
}

static int add_word(mp_anon *a, const char *s, const char *to)
{
    return s ? add(a, s, strlen(s), to, WORD) : 0;
}

/* A host name and its first label ("build7" of "build7.example.org"). */
static int add_host(mp_anon *a, const char *host)
{
    const rule *k;
    char label[32];
    int rc;
    if (!host || strlen(host) < 2) return 0;
    if ((k = find(a, host))) return 0;
    snprintf(label, sizeof label, "host-%d", ++a->hosts);
    if ((rc = add_word(a, host, label))) return rc;
    size_t dot = strcspn(host, ".");
    return host[dot] ? add(a, host, dot, label, WORD) : 0;
}

static int add_user(mp_anon *a, const char *user)
{
    if (!user || !strcmp(user, "root") || !*user) return 0;
    return add_word(a, user, LABEL_USER);
}

int mp_anon_add_path(mp_anon *a, const char *path)
{
    char real[PATH_MAX];
    size_t len;
    int rc;
    if (!path || !*path) return 0;
    len = strlen(path);
    while (len > 1 && path[len - 1] == '/') len--;
    if (len == 1 && path[0] == '.') return 0;
    if ((rc = add(a, path, len, LABEL_PATH, PATH))) return rc;
    if (realpath(path, real) && strcmp(real, "/"))
        return add(a, real, strlen(real), LABEL_PATH, PATH);
    return 0;
}

static int add_home(mp_anon *a, const char *home)
{
    if (!home || strlen(home) < 2) return 0;
    return add(a, home, strlen(home), LABEL_HOME, PATH);
}

mp_anon *mp_anon_new(void)
{
    mp_anon *a = calloc(1, sizeof *a);
    char host[256] = "";
    struct passwd *pw = getpwuid(geteuid());
    if (!a) return NULL;
    if (gethostname(host, sizeof host - 1) == 0 && add_host(a, host)) goto oom;
    if (pw && (add_user(a, pw->pw_name) || (strcmp(pw->pw_dir, "/") && add_home(a, pw->pw_dir))))
        goto oom;
    if (add_user(a, getenv("USER")) || add_user(a, getenv("LOGNAME")) ||
        add_user(a, getenv("SUDO_USER")) || add_home(a, getenv("HOME")))
        goto oom;
    return a;
oom:
    mp_anon_free(a);
    return NULL;
}

void mp_anon_free(mp_anon *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->n; i++) {
        free(a->r[i].from);
        free(a->r[i].to);
    }
    free(a->r);
    free(a);
}

/* ---- text ------------------------------------------------------------- */

typedef struct sbuf { char *p; size_t n, cap; int oom; } sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static int rule_at(const rule *r, const char *s, const char *at)
{
    if (strncmp(at, r->from, r->len)) return 0;
    char before = at > s ? at[-1] : '\0', after = at[r->len];
    if (r->kind == WORD) return !word_char(before) && !word_char(after);
    /* A path: not the tail of a longer one, not a prefix of a longer name. */
    return !path_char(before) && (after == '/' || !path_char(after) || after == '.');
}

/* "0x" optional, then ffff and 12 more hex digits, standing alone. */
static size_t kaddr_at(const char *s, const char *at)
{
    const char *p = at;
    if (at > s && (word_char(at[-1]))) return 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    if (strncasecmp(p, "ffff", 4)) return 0;
    for (int i = 4; i < 16; i++)
        if (!hex_char(p[i])) return 0;
    if (word_char(p[16])) return 0;
    return (size_t)(p + 16 - at);
}

/* /home/NAME, /Users/NAME, /var/home/NAME at the start of a path: the
 * length of that prefix, and NAME. */
static size_t home_at(const char *s, const char *at, const char **name, size_t *nlen)
{
    static const char *const roots[] = {"/home/", "/Users/", "/var/home/"};
    if (at > s && path_char(at[-1])) return 0;
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        size_t rl = strlen(roots[i]), l = 0;
        if (strncmp(at, roots[i], rl)) continue;
        while (path_char(at[rl + l]) && at[rl + l] != '/') l++;
        if (!l) return 0;
        *name = at + rl;
        *nlen = l;
        return rl + l;
    }
    return 0;
}

char *mp_anon_text(const mp_anon *a, const char *in)
{
    sbuf b = {0};
    const char *p = in;
    put(&b, "", 0);
    while (*p && !b.oom) {
        size_t n, nl;
        const char *name;
        const rule *hit = NULL;
        for (size_t i = 0; i < a->n && !hit; i++)
            if (rule_at(&a->r[i], in, p)) hit = &a->r[i];
        if (hit) {
            put(&b, hit->to, strlen(hit->to));
            p += hit->len;
        } else if ((n = kaddr_at(in, p))) {
            put(&b, LABEL_KADDR, strlen(LABEL_KADDR));
            p += n;
        } else if ((n = home_at(in, p, &name, &nl))) {
            put(&b, LABEL_HOME, strlen(LABEL_HOME));
            p += n;
        } else {
            put(&b, p, 1);
            p++;
        }
    }
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- JSON ------------------------------------------------------------- */

/* User names in home paths anywhere in the document. */
static int learn_users(mp_anon *a, const cJSON *o)
{
    const cJSON *c;
    if (cJSON_IsString(o)) {
        for (const char *p = o->valuestring; *p; p++) {
            const char *name;
            size_t nl;
            if (home_at(o->valuestring, p, &name, &nl)) {
                char u[256];
                snprintf(u, sizeof u, "%.*s", (int)(nl < 255 ? nl : 255), name);
                if (add_user(a, u)) return -ENOMEM;
            }
        }
        return 0;
    }
    cJSON_ArrayForEach(c, o)
        if (learn_users(a, c)) return -ENOMEM;
    return 0;
}

/* The paths of a recorded command line: arguments that look like paths and
 * the values of --out. */
static int learn_command(mp_anon *a, const char *cmd)
{
    char buf[4096], *save = NULL;
    int after_out = 0, rc = 0;
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok_r(buf, " \t", &save); t && !rc; t = strtok_r(NULL, " \t", &save)) {
        const char *v = t;
        if (!strncmp(t, "--out=", 6)) v = t + 6;
        if (after_out || v != t || t[0] == '/' || t[0] == '~' || !strncmp(t, "./", 2) ||
            !strncmp(t, "../", 3))
            rc = mp_anon_add_path(a, v);
        after_out = !strcmp(t, "--out");
    }
    return rc;
}

static int rewrite(const mp_anon *a, cJSON *o)
{
    cJSON *c;
    if (cJSON_IsString(o) && o->valuestring) {
        char *t = mp_anon_text(a, o->valuestring);
        if (!t) return -ENOMEM;
        if (strcmp(t, o->valuestring)) {
            size_t n = strlen(t) + 1;
            char *copy = cJSON_malloc(n);
            if (!copy) {
                free(t);
                return -ENOMEM;
            }
            memcpy(copy, t, n);
            cJSON_free(o->valuestring);
            o->valuestring = copy;
        }
        free(t);
        return 0;
    }
    cJSON_ArrayForEach(c, o)
        if (rewrite(a, c)) return -ENOMEM;
    return 0;
}

int mp_anon_json(mp_anon *a, cJSON *doc)
{
    cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(ctx, "host");
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(ctx, "command");
    if (cJSON_IsString(host) && add_host(a, host->valuestring)) return -ENOMEM;
    if (cJSON_IsString(cmd) && learn_command(a, cmd->valuestring)) return -ENOMEM;
    if (learn_users(a, doc) || rewrite(a, doc)) return -ENOMEM;
    if (cJSON_IsObject(ctx)) {
        cJSON_DeleteItemFromObjectCaseSensitive(ctx, "anonymized");
        if (!cJSON_AddStringToObject(ctx, "anonymized", "host name, user names, home "
                                     "directories, command-line paths and kernel addresses "
                                     "replaced by labels (muxprof --anonymize)"))
            return -ENOMEM;
    }
    return 0;
}

/* ---- files ------------------------------------------------------------ */

static int read_all(const char *path, char **out, mp_err *err)
{
    FILE *f = fopen(path, "rb");
    sbuf b = {0};
    char chunk[65536];
    size_t n;
    if (!f) return mp_errf(err, -errno, "cannot read %s: %s", path, strerror(errno));
    put(&b, "", 0);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) put(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (b.oom || bad) {
        free(b.p);
        return mp_errf(err, b.oom ? -ENOMEM : -EIO, "cannot read %s", path);
    }
    *out = b.p;
    return 0;
}

static int text_file(const char *name)
{
    static const char *const ext[] = {".md", ".json", ".csv", ".gp", ".dat", ".svg", ".txt"};
    size_t l = strlen(name);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t el = strlen(ext[i]);
        if (l > el && !strcmp(name + l - el, ext[i])) return 1;
    }
    return 0;
}

/* src_dir/name through the text rules into dst_dir/name (when it changed,
 * or always when the directories differ).  A missing file is skipped. */
static int copy_text(const mp_anon *a, const char *src_dir, const char *dst_dir,
                     const char *name, mp_err *err)
{
    char path[PATH_MAX], *in = NULL, *out;
    int rc;
    snprintf(path, sizeof path, "%s/%s", src_dir, name);
    if (access(path, F_OK) != 0) return 0;
    if ((rc = read_all(path, &in, err))) return rc;
    if (!(out = mp_anon_text(a, in))) {
        free(in);
        return mp_errf(err, -ENOMEM, "out of memory anonymizing %s", path);
    }
    if (strcmp(out, in) || strcmp(src_dir, dst_dir))
        rc = mp_write_file(dst_dir, name, out, strlen(out), err);
    free(in);
    free(out);
    return rc;
}

int mp_anon_tree(const mp_anon *a, const char *dir, mp_err *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;
    if (!d) return mp_errf(err, -errno, "cannot list %s: %s", dir, strerror(errno));
    while (!rc && (e = readdir(d))) {
        char path[PATH_MAX];
        struct stat st;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) rc = mp_anon_tree(a, path, err);
        else if (S_ISREG(st.st_mode) && text_file(e->d_name))
            rc = copy_text(a, dir, dir, e->d_name, err);
    }
    closedir(d);
    return rc;
}

int mp_anon_run_dir(mp_anon *a, const char *src, const char *dst, mp_err *err)
{
    char path[PATH_MAX], *text = NULL, *out;
    cJSON *doc;
    int rc;
    if ((rc = mp_anon_add_path(a, src)) || (rc = mp_anon_add_path(a, dst)))
        return mp_errf(err, rc, "out of memory");
    snprintf(path, sizeof path, "%s/results.json", src);
    if ((rc = read_all(path, &text, err))) return rc;
    mp_err jerr;
    rc = mp_json_parse(text, strlen(text), &doc, &jerr);
    free(text);
    if (rc) return mp_errf(err, rc, "%s: %s", path, jerr.msg);
    if ((rc = mp_anon_json(a, doc))) {
        cJSON_Delete(doc);
        return mp_errf(err, rc, "out of memory anonymizing %s", path);
    }
    out = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!out) return mp_errf(err, -ENOMEM, "out of memory writing %s/results.json", dst);
    rc = mp_write_file(dst, "results.json", out, strlen(out), err);
    free(out);
    if (!rc) rc = copy_text(a, src, dst, "results.csv", err);
    if (!rc) rc = copy_text(a, src, dst, "samples.csv", err);
    return rc;
}
