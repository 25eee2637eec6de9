/* SPDX-License-Identifier: MIT */
/* test_input.c - mp_open_regular_file / mp_read_regular_file: a regular
 * file read whole up to its limit; a FIFO (no writer: an open without
 * O_NONBLOCK would wait for one), a directory and a device refused with a
 * line naming the path and what it is; a file one byte over the limit
 * refused, one at the limit read; mp_read_regular_file_in: a file inside a
 * directory read, a symbolic link as the file or as a directory above it
 * refused (-ELOOP), not followed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/input.h"
#include "test_util.h"

static char dir[64];

static void put(const char *name, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc('a' + (int)(i % 26), f);
    fclose(f);
}

static int read_it(const char *name, size_t max, char **buf, size_t *len, mp_err *err)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *buf = NULL;
    alarm(20);   /* a blocking open of a FIFO would never return */
    int rc = mp_read_regular_file(path, max, buf, len, err);
    alarm(0);
    return rc;
}

static void regular_and_limits(void **st)
{
    (void)st;
    char *buf;
    size_t len;
    mp_err err;
    put("empty", 0);
    put("small", 100);
    put("big", 70000);   /* more than the first read of an unknown size */
    assert_int_equal(read_it("empty", 10, &buf, &len, &err), 0);
    assert_int_equal(len, 0);
    assert_int_equal(buf[0], 0);
    free(buf);
    assert_int_equal(read_it("small", 100, &buf, &len, &err), 0);   /* at the limit */
    assert_int_equal(len, 100);
    assert_int_equal(buf[99], 'a' + 99 % 26);
    assert_int_equal(buf[100], 0);
    free(buf);
    assert_int_equal(read_it("big", 1 << 20, &buf, &len, &err), 0);
    assert_int_equal(len, 70000);
    free(buf);
    assert_int_equal(read_it("small", 99, &buf, &len, &err), -EFBIG);   /* one byte over */
    assert_null(buf);
    assert_non_null(strstr(err.msg, "/small is 100 bytes, over the limit of 99 bytes"));
    assert_int_equal(read_it("missing", 99, &buf, &len, &err), -ENOENT);
    assert_non_null(strstr(err.msg, "cannot open "));
}

static void not_regular(void **st)
{
    (void)st;
    char path[300], *buf;
    size_t len;
    mp_err err;
    snprintf(path, sizeof path, "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(read_it("fifo", 1000, &buf, &len, &err), -EBADMSG);
    assert_non_null(strstr(err.msg, "/fifo is a FIFO, not a regular file"));
    snprintf(path, sizeof path, "%s/sub", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(read_it("sub", 1000, &buf, &len, &err), -EBADMSG);
    assert_non_null(strstr(err.msg, "/sub is a directory, not a regular file"));
    alarm(20);
    int fd = mp_open_regular_file("/dev/zero", 1000, &err);
    alarm(0);
    assert_int_equal(fd, -EBADMSG);
    assert_non_null(strstr(err.msg, "/dev/zero is a character device"));
}

static void links_inside(void **st)
{
    (void)st;
    char path[300], *buf = NULL;
    size_t len;
    mp_err err;
    snprintf(path, sizeof path, "%s/in", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    put("in/f", 10);
    put("plain", 5);
    snprintf(path, sizeof path, "%s/lnk", dir);
    assert_int_equal(symlink("plain", path), 0);
    snprintf(path, sizeof path, "%s/dl", dir);
    assert_int_equal(symlink("in", path), 0);
    assert_int_equal(mp_read_regular_file_in(dir, "plain", 100, &buf, &len, &err), 0);
    assert_int_equal(len, 5);
    free(buf);
    assert_int_equal(mp_read_regular_file_in(dir, "in/f", 100, &buf, &len, &err), 0);
    assert_int_equal(len, 10);
    free(buf);
    buf = NULL;
    assert_int_equal(mp_read_regular_file_in(dir, "lnk", 100, &buf, &len, &err), -ELOOP);
    assert_non_null(strstr(err.msg, "/lnk is a symbolic link, not followed"));
    assert_int_equal(mp_read_regular_file_in(dir, "dl/f", 100, &buf, &len, &err), -ELOOP);
    assert_non_null(strstr(err.msg, "/dl/f is a symbolic link, not followed"));
    assert_int_equal(mp_read_regular_file_in(dir, "in/none", 100, &buf, &len, &err), -ENOENT);
    assert_int_equal(mp_read_regular_file_in(dir, "/etc/passwd", 100, &buf, &len, &err),
                     -EINVAL);
    assert_null(buf);
}

int main(void)
{
    if (mp_test_mkdtemp(dir, sizeof dir, "input") < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_and_limits),
        cmocka_unit_test(not_regular),
        cmocka_unit_test(links_inside),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mp_test_rmtree(dir);
    return rc;
}
