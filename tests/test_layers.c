/* SPDX-License-Identifier: MIT */
/* test_layers.c - the layering of src/ (docs/ARCHITECTURE.md), checked on
 * the sources themselves: every #include "..." of a file in src/, pmu/ and
 * topology/ names a folder the file's folder may use (its own or one below
 * it), and no module (x.c with its x.h) reaches itself through includes.
 * An include names its folder ("report/fig.h", "pmu/pmu.h") or is a header
 * beside the file ("internal.h" in pmu/).
 * A folder's internal.h is its private header, not a module: a file that
 * includes it is taken to include what it includes.
 * Calls upward fail to link (mp_FOLDER_links, cmake/layer.cmake); this test
 * sees what no link does: a header of types or macros, and circles.
 *
 *   test_layers SOURCE_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXF 256
#define MAXI 32
#define NAME 128

/* Who may include whom: a folder, then the folders below it, as the build
 * links them (layers_table.h, written by tests/layers.cmake from what each
 * folder's library links: cmake/layer.cmake). */
static const struct {
    const char *folder;
    const char *may_use;
} layers[] = {
#include "layers_table.h"
};

typedef struct file {
    char path[NAME];         /* "report/fig.c", "main.c", "pmu/plan.c" */
    char folder[32];
    char inc[MAXI][NAME];    /* resolved: "report/fig.h", "pmu/pmu.h" */
    int ninc;
} file;

static file files[MAXF];
static int nfiles;
static const char *root;

static void folder_of(const char *path, char *out, size_t len)
{
    const char *s = strchr(path, '/');
    if (!s)
        snprintf(out, len, "main");
    else
        snprintf(out, len, "%.*s", (int)(s - path), path);
}

static int exists(const char *rel)
{
    char p[1024];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", root, rel);
    return stat(p, &st) == 0;
}

/* Paths are relative to the source root: "src/report/fig.c" is stored as
 * "report/fig.c", "pmu/plan.c" as "pmu/plan.c". */
static void scan_file(const char *rel, const char *key)
{
    char p[1024], line[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    assert_true(nfiles < MAXF);
    file *x = &files[nfiles++];
    memset(x, 0, sizeof *x);
    snprintf(x->path, sizeof x->path, "%s", key);
    folder_of(key, x->folder, sizeof x->folder);
    while (fgets(line, sizeof line, f)) {
        char name[NAME - 16];
        if (sscanf(line, " #include \"%111[^\"]\"", name) != 1)
            continue;
        assert_true(x->ninc < MAXI);
        char beside[512], to[NAME];
        snprintf(beside, sizeof beside, "%.*s%s", (int)(strrchr(rel, '/') + 1 - rel), rel, name);
        if (strchr(name, '/'))
            snprintf(to, sizeof to, "%s", name);
        else if (exists(beside))
            snprintf(to, sizeof to, "%s/%s", x->folder, name);
        else
            snprintf(to, sizeof to, "?/%s", name);
        memcpy(x->inc[x->ninc++], to, NAME);
    }
    fclose(f);
}

static void scan_dir(const char *rel, const char *prefix)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    DIR *d = opendir(p);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        char sub[256], key[NAME];
        if (snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name) >= (int)sizeof sub ||
            snprintf(key, sizeof key, "%s%s", prefix, e->d_name) >= (int)sizeof key)
            fail_msg("%s/%s: path too long for this test", rel, e->d_name);
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", root, sub);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (!strcmp(rel, "src")) {
                char pre[256];
                snprintf(pre, sizeof pre, "%s/", e->d_name);
                scan_dir(sub, pre);
            }
            continue;
        }
        if (n > 2 && (!strcmp(e->d_name + n - 2, ".c") || !strcmp(e->d_name + n - 2, ".h")))
            scan_file(sub, key);
    }
    closedir(d);
}

static void scan_all(void)
{
    nfiles = 0;
    scan_dir("src", "");
    scan_dir("pmu", "pmu/");
    scan_dir("topology", "topology/");
    scan_dir("sim", "sim/");
    assert_true(nfiles > 50);
}

static const char *allowed(const char *from)
{
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        if (!strcmp(layers[i].folder, from))
            return layers[i].may_use;
    return "(a folder the layers table does not know)";
}

static int may_use(const char *from, const char *to)
{
    if (!strcmp(from, to))
        return 1;
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        if (!strcmp(layers[i].folder, from)) {
            const char *s = layers[i].may_use;
            size_t n = strlen(to);
            while ((s = strstr(s, to))) {
                if ((s == layers[i].may_use || s[-1] == ' ') && (s[n] == ' ' || !s[n]))
                    return 1;
                s += n;
            }
            return 0;
        }
    return 0;
}

static void test_nothing_includes_upward(void **state)
{
    (void)state;
    scan_all();
    int bad = 0;
    for (int i = 0; i < nfiles; i++)
        for (int k = 0; k < files[i].ninc; k++) {
            char to[32];
            folder_of(files[i].inc[k], to, sizeof to);
            if (!strcmp(to, "?")) {
                fprintf(stderr, "%s includes \"%s\": no such header beside it; name its "
                        "folder (\"pmu/pmu.h\")\n",
                        files[i].path, files[i].inc[k] + 2);
                bad++;
            } else if (!may_use(files[i].folder, to)) {
                fprintf(stderr, "%s includes %s: %s/ may use only itself and: %s\n",
                        files[i].path, files[i].inc[k], files[i].folder,
                        allowed(files[i].folder));
                bad++;
            }
        }
    assert_int_equal(bad, 0);
}

/* ---- circles ---- */

static int module_of(const char *path, char *out, size_t len)
{
    size_t n = strlen(path);
    if (n < 3)
        return -1;
    snprintf(out, len, "%.*s", (int)(n - 2), path);
    return 0;
}

/* A folder's private header: its internal.h. */
static int is_internal(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && !strcmp(s + 1, "internal.h");
}

static const file *find_file(const char *path)
{
    for (int i = 0; i < nfiles; i++)
        if (!strcmp(files[i].path, path))
            return &files[i];
    return NULL;
}

static char modules[MAXF][NAME];
static int nmodules;
static unsigned char edge[MAXF][MAXF];

static int module_index(const char *m)
{
    for (int i = 0; i < nmodules; i++)
        if (!strcmp(modules[i], m))
            return i;
    snprintf(modules[nmodules], NAME, "%s", m);
    return nmodules++;
}

static void add_edges(int from, const file *f, int depth)
{
    for (int k = 0; k < f->ninc; k++) {
        const char *to = f->inc[k];
        if (is_internal(to)) {
            const file *h = find_file(to);
            if (h && depth < 2)
                add_edges(from, h, depth + 1);
            continue;
        }
        char m[NAME];
        if (module_of(to, m, sizeof m) < 0)
            continue;
        int t = module_index(m);
        if (t != from)
            edge[from][t] = 1;
    }
}

static int color[MAXF], stack[MAXF], depth_, circles;

static void dfs(int v)
{
    color[v] = 1;
    stack[depth_++] = v;
    for (int t = 0; t < nmodules; t++) {
        if (!edge[v][t])
            continue;
        if (color[t] == 1) {
            fprintf(stderr, "include circle:");
            int i = depth_ - 1;
            while (i > 0 && stack[i] != t)
                i--;
            for (; i < depth_; i++)
                fprintf(stderr, " %s ->", modules[stack[i]]);
            fprintf(stderr, " %s\n", modules[t]);
            circles++;
        } else if (color[t] == 0) {
            dfs(t);
        }
    }
    color[v] = 2;
    depth_--;
}

static void test_no_include_circle(void **state)
{
    (void)state;
    scan_all();
    nmodules = 0;
    memset(edge, 0, sizeof edge);
    for (int i = 0; i < nfiles; i++) {
        char m[NAME];
        if (is_internal(files[i].path) || module_of(files[i].path, m, sizeof m) < 0)
            continue;
        add_edges(module_index(m), &files[i], 0);
    }
    memset(color, 0, sizeof color);
    circles = 0;
    depth_ = 0;
    for (int v = 0; v < nmodules; v++)
        if (color[v] == 0)
            dfs(v);
    assert_int_equal(circles, 0);
}

int main(int argc, char **argv)
{
    root = argc > 1 ? argv[1] : MP_TEST_SOURCE_DIR;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_includes_upward),
        cmocka_unit_test(test_no_include_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
