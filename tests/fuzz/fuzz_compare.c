/* SPDX-License-Identifier: MIT */
/* fuzz_compare.c - libFuzzer target: `muxprof compare` with one hostile
 * input beside a valid run.
 *
 * One execution: the input is written to a memfd and opened as the first
 * host through /proc/self/fd/N (mp_cmp_host_open takes a path, a run
 * directory or a reference name), the second host is the valid seed
 * MP_FUZZ_SECOND_HOST (tests/fuzz/corpus_json/valid_small.json); when both
 * open and share a cell, the comparison report is written without figures
 * (data files, gnuplot wrappers, report.md) into a private directory.
 * Refusal is fine; a crash, a sanitizer report, a leak, or a string of the
 * input that is not data in a gnuplot wrapper or report.md (oracle_quote.h)
 * is a finding.
 * Seeds: tests/fuzz/corpus_json/; regression inputs: tests/fuzz/regress/compare/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare/compare.h"
#include "oracle_quote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;
static char dir[64];

static void cleanup(void)
{
    char cmd[128];
    if (dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "fuzz_compare: could not remove %s\n", dir);
    }
}

static void init_once(void)
{
    if (memfd >= 0)
        return;
    memfd = memfd_create("results.json", MFD_CLOEXEC);
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/mp-fuzz-cmp-XXXXXX", base);
    if (memfd < 0 || !mkdtemp(dir)) {
        perror("fuzz_compare: setup");
        abort();
    }
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init_once();
    if (ftruncate(memfd, 0) < 0 || (size && pwrite(memfd, data, size, 0) != (ssize_t)size))
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);

    mp_cmp_host h[2];
    mp_cmp c = {h, 2};
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_cmp_host_open(&h[0], path, &err);
    mp_err e2;
    mp_err_clear(&e2);
    int rc2 = mp_cmp_host_open(&h[1], MP_FUZZ_SECOND_HOST, &e2);
    if (rc2) {
        fprintf(stderr, "fuzz_compare: the valid host does not open: %s\n", e2.msg);
        abort();
    }
    if (rc == 0 && mp_cmp_prepare(&c, &err) == 0) {
        size_t drawn = 0;
        char note[512];
        mp_dir d;
        if (mp_dir_open(&d, dir, 0, &err) != 0) {
            fprintf(stderr, "fuzz_compare: %s\n", err.msg);
            abort();
        }
        int wrc = mp_cmp_write(&c, &d, 1, &drawn, note, sizeof note, &err);
        mp_dir_close(&d);
        if (wrc == 0) {
            char figdir[128], md[128];
            snprintf(figdir, sizeof figdir, "%s/figures", dir);
            snprintf(md, sizeof md, "%s/report.md", dir);
            oracle_wrappers(figdir);
            oracle_markdown(md);
        }
    } else if (!err.msg[0]) {
        fprintf(stderr, "fuzz_compare: refused (%d) without a message\n", rc);
        abort();
    }
    mp_cmp_host_free(&h[0]);
    mp_cmp_host_free(&h[1]);
    return 0;
}
