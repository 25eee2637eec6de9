/* SPDX-License-Identifier: MIT */
/* test_file.c - common/file.c: writes through a directory held open never
 * follow a planted link; directories that are links, another user's or
 * writable by others are refused; the manifest lists what was written, and
 * only that (still the same inode) is ever removed; a directory can be
 * claimed by one process only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "test_util.h"

static char root[96];

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", root, name);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

#define HAS(s, sub) do { if (!strstr((s), (sub))) fail_msg("'%s' lacks '%s'", (s), (sub)); } while (0)

/* A link planted under the temporary name is neither followed nor removed. */
static void planted_tmp_link(void **st)
{
    (void)st;
    char d[128], secret[128], link[192];
    path_of(d, sizeof d, "planted");
    path_of(secret, sizeof secret, "secret");
    put(secret, "secret\n");
    mp_dir dir;
    mp_err err;
    assert_int_equal(mp_dir_create(&dir, d, &err), 0);
    snprintf(link, sizeof link, "%s/.results.json.tmp.%ld", d, (long)getpid());
    assert_int_equal(symlink(secret, link), 0);
    assert_int_equal(mp_write_file(&dir, "results.json", "{}\n", 3, &err), 0);
    mp_dir_close(&dir);
    assert_string_equal(get(secret), "secret\n");
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    char res[160];
    snprintf(res, sizeof res, "%s/results.json", d);
    assert_string_equal(get(res), "{}\n");
}

/* A name with a '/' or "..": refused, nothing written. */
static void names_are_one_component(void **st)
{
    (void)st;
    char d[128];
    path_of(d, sizeof d, "names");
    mp_dir dir;
    mp_err err;
    assert_int_equal(mp_dir_create(&dir, d, &err), 0);
    const char *bad[] = {"../escape", "a/b", "..", ".", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mp_afile a;
        assert_int_equal(mp_afile_open(&a, &dir, bad[i], &err), -EINVAL);
        mp_afile_abort(&a);
    }
    mp_dir_close(&dir);
    char esc[128];
    path_of(esc, sizeof esc, "escape");
    assert_int_not_equal(access(esc, F_OK), 0);
}

/* A directory that exists, links of both kinds, and the subdirectory link. */
static void directories_refused(void **st)
{
    (void)st;
    char d[128], link[128], dangling[128], gw[128], target[160];
    mp_dir dir, sub;
    mp_err err;
    path_of(d, sizeof d, "dirs");
    assert_int_equal(mp_dir_create(&dir, d, &err), 0);
    mp_dir_close(&dir);
    assert_int_equal(mp_dir_create(&dir, d, &err), -EEXIST);   /* never taken twice */

    path_of(link, sizeof link, "dirs-link");
    assert_int_equal(symlink(d, link), 0);
    assert_int_equal(mp_dir_open(&dir, link, 1, &err), -ELOOP);
    HAS(err.msg, "is a symbolic link (to ");
    path_of(dangling, sizeof dangling, "dangling");
    assert_int_equal(symlink("/nonexistent/x", dangling), 0);
    assert_int_equal(mp_dir_open(&dir, dangling, 1, &err), -ELOOP);
    HAS(err.msg, "symbolic link to /nonexistent/x, which does not exist");

    path_of(gw, sizeof gw, "groupw");
    assert_int_equal(mkdir(gw, 0700), 0);
    assert_int_equal(chmod(gw, 0770), 0);
    assert_int_equal(mp_dir_open(&dir, gw, 1, &err), -EPERM);
    HAS(err.msg, "chmod go-w");
    if (geteuid() == 0) {   /* another user's directory */
        assert_int_equal(chmod(gw, 0755), 0);
        assert_int_equal(chown(gw, 65534, 65534), 0);
        assert_int_equal(mp_dir_open(&dir, gw, 1, &err), -EPERM);
        HAS(err.msg, "not to you");
    }

    /* figures -> elsewhere: refused, nothing created there */
    path_of(target, sizeof target, "elsewhere");
    assert_int_equal(mkdir(target, 0755), 0);
    char fig[192];
    snprintf(fig, sizeof fig, "%s/figures", d);
    assert_int_equal(symlink(target, fig), 0);
    assert_int_equal(mp_dir_open(&dir, d, 1, &err), 0);
    assert_int_equal(mp_dir_sub(&sub, &dir, "figures", &err), -ELOOP);
    HAS(err.msg, "is a symbolic link");
    mp_dir_close(&sub);
    mp_dir_close(&dir);
}

/* Only the files the manifest lists, still of the listed inode, are removed. */
static void prune_only_what_was_written(void **st)
{
    (void)st;
    char d[128], p[192];
    mp_dir dir, sub;
    mp_err err;
    path_of(d, sizeof d, "prune");
    assert_int_equal(mp_dir_create(&dir, d, &err), 0);
    assert_int_equal(mp_dir_sub(&sub, &dir, "figures", &err), 0);
    assert_int_equal(mp_write_file(&sub, "old.dat", "1\n", 2, &err), 0);
    assert_int_equal(mp_write_file(&sub, "kept.dat", "2\n", 2, &err), 0);
    mp_dir_close(&sub);
    mp_dir_close(&dir);
    /* kept.dat replaced by another file of that name: no longer muxprof's */
    char q[192];
    snprintf(q, sizeof q, "%s/figures/users.tmp", d);
    put(q, "the user's\n");
    snprintf(p, sizeof p, "%s/figures/kept.dat", d);
    assert_int_equal(rename(q, p), 0);
    snprintf(p, sizeof p, "%s/figures/mine.dat", d);   /* never written by muxprof */
    put(p, "mine\n");
    snprintf(p, sizeof p, "%s/%s", d, MP_MANIFEST);   /* a forged line */
    FILE *f = fopen(p, "a");
    assert_non_null(f);
    fprintf(f, "12345 1 figures/mine.dat\n999 1 ../../etc/passwd\n");
    fclose(f);

    assert_int_equal(mp_dir_open(&dir, d, 1, &err), 0);
    assert_true(mp_dir_has_manifest(&dir));
    assert_int_equal(mp_dir_sub(&sub, &dir, "figures", &err), 0);
    assert_int_equal(mp_dir_prune(&sub), 1);
    snprintf(p, sizeof p, "%s/figures/old.dat", d);
    assert_int_not_equal(access(p, F_OK), 0);
    snprintf(p, sizeof p, "%s/figures/kept.dat", d);
    assert_string_equal(get(p), "the user's\n");
    snprintf(p, sizeof p, "%s/figures/mine.dat", d);
    assert_string_equal(get(p), "mine\n");
    /* a file written again is listed with its new inode, and removed */
    assert_int_equal(mp_write_file(&sub, "new.dat", "a\n", 2, &err), 0);
    assert_int_equal(mp_write_file(&sub, "new.dat", "b\n", 2, &err), 0);
    assert_int_equal(mp_dir_prune(&sub), 1);
    snprintf(p, sizeof p, "%s/figures/new.dat", d);
    assert_int_not_equal(access(p, F_OK), 0);
    mp_dir_close(&sub);
    mp_dir_close(&dir);
}

/* An empty directory is claimed by one process only. */
static void claim_once(void **st)
{
    (void)st;
    char d[128];
    mp_dir a, b;
    mp_err err;
    path_of(d, sizeof d, "claim");
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(mp_dir_open(&a, d, 1, &err), 0);
    assert_int_equal(mp_dir_open(&b, d, 1, &err), 0);
    assert_true(mp_dir_is_empty(&a) && !mp_dir_has_manifest(&a));
    assert_int_equal(mp_dir_claim(&a, &err), 0);
    assert_int_equal(mp_dir_claim(&b, &err), -EEXIST);
    mp_dir_close(&a);
    mp_dir_close(&b);
}

/* Appending: created once, then appended to; a link refused.  A directory
 * made and left unused is discarded with what was written into it. */
static void append_and_discard(void **st)
{
    (void)st;
    char d[128], p[192], secret[128];
    mp_dir dir;
    mp_err err;
    path_of(d, sizeof d, "append");
    path_of(secret, sizeof secret, "secret2");
    put(secret, "secret\n");
    assert_int_equal(mp_dir_create(&dir, d, &err), 0);
    int fd = mp_file_open_append(&dir, "journal", &err);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "a\n", 2), 2);
    close(fd);
    fd = mp_file_open_append(&dir, "journal", &err);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "b\n", 2), 2);
    close(fd);
    snprintf(p, sizeof p, "%s/journal", d);
    assert_string_equal(get(p), "a\nb\n");
    snprintf(p, sizeof p, "%s/link", d);
    assert_int_equal(symlink(secret, p), 0);
    assert_true(mp_file_open_append(&dir, "link", &err) < 0);
    assert_string_equal(get(secret), "secret\n");
    mp_dir_close(&dir);

    path_of(d, sizeof d, "discard");
    assert_int_equal(mp_dir_create(&dir, d, &err), 0);
    assert_int_equal(mp_write_file(&dir, "results.json", "{}\n", 3, &err), 0);
    mp_dir_discard(&dir);
    assert_int_not_equal(access(d, F_OK), 0);
}

int main(void)
{
    if (mp_test_mkdtemp(root, sizeof root, "file") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(planted_tmp_link),
        cmocka_unit_test(names_are_one_component),
        cmocka_unit_test(directories_refused),
        cmocka_unit_test(prune_only_what_was_written),
        cmocka_unit_test(claim_once),
        cmocka_unit_test(append_and_discard),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mp_test_rmtree(root);
    return rc;
}
