/* SPDX-License-Identifier: MIT */
/* fuzz_simimport.c - libFuzzer target: `muxprof sim-import DIR`
 * (mp_sim_import_dir) on a scripts/muxsim.sh run directory, fed one
 * directory per call.
 *
 * The input holds the files of the directory, each as a section:
 *
 *     === plan.env
 *     geometry=neoverse-n1
 *     ...
 *     === cells.txt
 *     poll 100 0
 *
 * A section starts with a line "=== NAME" and holds every byte up to the
 * next line that starts with "=== " or the end of the input (so a file
 * ends with its newline, except the last one when the input does not).
 * Bytes before the first section are ignored; a later section of the same
 * NAME replaces the earlier one.  Only these names are written, anything
 * else is skipped, so the harness never writes outside its directory:
 *     plan.env  cells.txt  muxsim.tsv  functions.json  geometry.conf
 *     results.json  .muxprof-manifest
 *     guest/plugin.log  guest/loop-BACKEND-N.log   (BACKEND 1 to 16 of
 *                                                  [a-z0-9], N 1 to 9 digits)
 * geometry.conf is there for plan.env's "geometry=geometry.conf" (a file
 * inside DIR); results.json and .muxprof-manifest for an earlier import
 * or a measured run the import must not replace.
 *
 * One execution: a fresh private directory (fuzz_tmpdir.h) gets the files;
 * mp_sim_import_dir(dir, NULL, mp_rm_check_text, ...) imports it, with
 * the check the sim-import verb passes (src/cmd/sim_import.c); the
 * directory is removed afterwards.  Rejection is fine.  Findings, besides
 * a crash, a sanitizer report or a leak: a refusal without a message or
 * with a message of more than one line, or one that changed the directory
 * (a file added, results.json replaced: "nothing written"); a success
 * whose results.json `muxprof report` refuses, or whose summary counts
 * disagree (no cell, more failed loops than cells).
 *
 * Built like fuzz_json.c (see tests/hardening.cmake): a libFuzzer binary
 * fuzz_simimport, and always the replay program test_fuzz_simimport_replay
 * that runs tests/fuzz/corpus_simimport/ and tests/fuzz/regress/simimport/.
 * tests/fuzz/make_corpus_simimport.py writes the seeds.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/model.h"
#include "run/sim_import.h"
#include "fuzz_tmpdir.h"
#define MP_FUZZ_NAME "fuzz_simimport"
#include "fuzz_say.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 32
#define NAME_LEN 64

static const char *const fixed_names[] = {
    "plan.env",      "cells.txt",         "muxsim.tsv",      "functions.json",
    "geometry.conf", "results.json",      ".muxprof-manifest", "guest/plugin.log",
};

static int in_set(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr(set, s[i]))
            return 0;
    return 1;
}

/* 1 when name (n bytes, not terminated) is one the harness writes. */
static int allowed(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof fixed_names / sizeof fixed_names[0]; i++)
        if (strlen(fixed_names[i]) == n && !memcmp(fixed_names[i], name, n))
            return 1;
    static const char pre[] = "guest/loop-", suf[] = ".log";
    size_t np = sizeof pre - 1, ns = sizeof suf - 1;
    if (n <= np + ns || memcmp(name, pre, np) || memcmp(name + n - ns, suf, ns))
        return 0;
    const char *b = name + np, *end = name + n - ns;
    const char *dash = memchr(b, '-', (size_t)(end - b));
    if (!dash)
        return 0;
    size_t lb = (size_t)(dash - b), ln = (size_t)(end - dash - 1);
    return lb >= 1 && lb <= 16 && in_set(b, lb, "abcdefghijklmnopqrstuvwxyz0123456789") &&
           ln >= 1 && ln <= 9 && in_set(dash + 1, ln, "0123456789");
}

typedef struct section {
    char name[NAME_LEN];
    const uint8_t *data;
    size_t len;
} section;

/* The sections of the input with an allowed name, the last of each name. */
static size_t split(const uint8_t *data, size_t size, section *out)
{
    size_t n = 0, i = 0;
    section *cur = NULL;
    while (i < size) {
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        size_t line_end = nl ? (size_t)(nl - data) : size;
        size_t next = nl ? line_end + 1 : size;
        if (line_end - i >= 4 && !memcmp(data + i, "=== ", 4)) {
            if (cur)
                cur->len = (size_t)(data + i - cur->data);
            cur = NULL;
            const char *name = (const char *)data + i + 4;
            size_t len = line_end - i - 4;
            if (allowed(name, len)) {
                size_t k = 0;
                while (k < n && (strlen(out[k].name) != len || memcmp(out[k].name, name, len)))
                    k++;
                if (k == n && n < MAX_FILES)
                    n++;
                if (k < n) {
                    cur = &out[k];
                    memcpy(cur->name, name, len);
                    cur->name[len] = 0;
                    cur->data = data + next;
                    cur->len = 0;
                }
            }
        }
        i = next;
    }
    if (cur)
        cur->len = (size_t)(data + size - cur->data);
    return n;
}

static void write_file(int dfd, const section *s)
{
    if (!strncmp(s->name, "guest/", 6) && mkdirat(dfd, "guest", 0700) != 0 && errno != EEXIST) {
        perror("fuzz_simimport: mkdir guest");
        abort();
    }
    int fd = openat(dfd, s->name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || (s->len && write(fd, s->data, s->len) != (ssize_t)s->len) || close(fd) != 0) {
        perror(s->name);
        abort();
    }
}

/* The names in dir and guest/ (sorted, one string), and results.json's
 * bytes: what a refusal must leave as it was. */
typedef struct snapshot {
    char names[4096];
    char *results;
    size_t results_len;
} snapshot;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_into(const char *dir, const char *prefix, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s\n", prefix, names[i] ? names[i] : "?");
        free(names[i]);
    }
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *buf = malloc(cap + 1);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(buf, (cap *= 2) + 1);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf)
        abort();
    buf[n] = 0;
    *len = n;
    return buf;
}

static void snap(const char *dir, snapshot *s)
{
    char path[128];
    s->names[0] = 0;
    s->results_len = 0;
    list_into(dir, "", s->names, sizeof s->names);
    snprintf(path, sizeof path, "%s/guest", dir);
    list_into(path, "guest/", s->names, sizeof s->names);
    snprintf(path, sizeof path, "%s/results.json", dir);
    s->results = slurp(path, &s->results_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    section secs[MAX_FILES];
    size_t n = split(data, size, secs);
    char dir[64];
    fuzz_tmpdir_make(dir, sizeof dir, "simimport");
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        abort();
    for (size_t i = 0; i < n; i++)
        write_file(dfd, &secs[i]);
    close(dfd);

    snapshot before, after;
    snap(dir, &before);
    mp_sim_import sum;
    memset(&sum, 0, sizeof sum);
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_sim_import_dir(dir, NULL, mp_rm_check_text, &sum, &err);
    snap(dir, &after);
    if (rc > 0)
        finding("mp_sim_import_dir returned a positive value", NULL);
    if (rc < 0) {
        say("refused: %s", err.msg);
        if (!err.msg[0])
            finding("refused without a message", NULL);
        if (strchr(err.msg, '\n'))
            finding("a refusal of more than one line", err.msg);
        if (strcmp(before.names, after.names))
            finding("a refusal changed the directory's files", err.msg);
        if (!before.results != !after.results || before.results_len != after.results_len ||
            (before.results && memcmp(before.results, after.results, before.results_len)))
            finding("a refusal changed results.json", err.msg);
    } else {
        say("imported %zu cells, %zu failed (%s)", sum.ncells, sum.nfailed, sum.failed);
        if (!after.results)
            finding("imported, but no results.json", NULL);
        mp_err cerr;
        mp_err_clear(&cerr);
        if (mp_rm_check_text(after.results, after.results_len, "results.json", &cerr) != 0)
            finding("imported a results.json that report refuses", cerr.msg);
        if (sum.ncells == 0 || sum.nfailed > sum.ncells)
            finding("summary counts disagree", NULL);
        if (!memchr(sum.failed, 0, sizeof sum.failed))
            finding("summary's failed list not terminated", NULL);
    }
    free(before.results);
    free(after.results);
    fuzz_tmpdir_remove(dir);
    return 0;
}
