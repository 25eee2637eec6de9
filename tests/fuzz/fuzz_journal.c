/* SPDX-License-Identifier: MIT */
/* fuzz_journal.c - libFuzzer target: the journal reader and the recovery
 * of `muxprof report DIR` (src/cmd/report.c, recover()), fed one
 * journal.jsonl per call.
 *
 * One execution: a fresh private directory (fuzz_tmpdir.h) gets the input
 * as journal.jsonl; mp_journal_read() reads it back; a journal that reads
 * gets mp_journal_recovered_json() and, with the directory opened as an
 * mp_dir as recover() opens it, mp_journal_write_outputs() (results.json,
 * results.csv, samples.csv, experiments.csv) with the check recover() passes
 * (mp_rm_check_text), then the anonymized copy when the head's config asks
 * for one, as recover() does; the results.json written is then loaded as
 * `muxprof report` loads it next.  The directory is removed afterwards.
 *
 * Rejection is fine.  Findings, besides a crash, a sanitizer report or a
 * leak: a refusal without a message or with a message of more than one
 * line; a journal read back whose cells, samples and sweep indexes do not
 * agree (counts, indexes not ascending, a sample array without its
 * count), or whose recovered object does not say how many cells it has;
 * a results.json written that the loader refuses.
 *
 * Built like fuzz_json.c (see tests/hardening.cmake): a libFuzzer binary
 * fuzz_journal, and always the replay program test_fuzz_journal_replay that
 * runs tests/fuzz/corpus_journal/ and tests/fuzz/regress/journal/.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "report/anonymize.h"
#include "report/model.h"
#include "results/config.h"
#include "run/journal.h"
#include "fuzz_tmpdir.h"
#define MP_FUZZ_NAME "fuzz_journal"
#include "fuzz_say.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal says what is wrong, on one line. */
static void check_refusal(int rc, const mp_err *err, const char *where)
{
    if (rc >= 0)
        return;
    if (!err->msg[0])
        finding(where, "refused without a message");
    if (strchr(err->msg, '\n'))
        finding(where, err->msg);
}

/* What mp_journal_read promises of a journal it read back. */
static void check_read_back(const mp_journal *j)
{
    if (!j->head || !j->cells)
        finding("read back without a head or a cell array", NULL);
    if ((size_t)cJSON_GetArraySize(j->cells) != j->ncells)
        finding("ncells is not the length of the cell array", NULL);
    if (j->npartials)
        finding("partial cells left after reading", NULL);
    if (j->from_passes > j->ncells)
        finding("more cells from pass records than cells", NULL);
    for (size_t i = 0; i < j->ncells; i++) {
        if (i && j->index[i] <= j->index[i - 1])
            finding("sweep indexes not ascending", NULL);
        if (j->samples[i].n && !j->samples[i].wall_raw_ns)
            finding("samples counted but not held", NULL);
    }
    if (j->ncells && j->last_index != j->index[j->ncells - 1])
        finding("last_index is not the last cell's", NULL);
}

static void recover(mp_journal *j, const char *dir)
{
    mp_err err;
    mp_err_clear(&err);
    cJSON *how = mp_journal_recovered_json(j);
    if (!how)
        abort();
    if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(how, "cells")) != (double)j->ncells)
        finding("the recovered object's cell count is not the journal's", NULL);
    mp_dir d = {.fd = -1};
    int rc = mp_dir_open(&d, dir, 1, &err);
    if (rc) {
        fprintf(stderr, "fuzz_journal: %s\n", err.msg);
        abort();
    }
    rc = mp_journal_write_outputs(j, &d, how, mp_rm_check_text, &err);
    check_refusal(rc, &err, "mp_journal_write_outputs");
    if (rc)
        say("outputs refused: %s", err.msg);
    mp_rconfig cfg;
    mp_rconfig_read(cJSON_GetObjectItemCaseSensitive(j->head, "config"), &cfg);
    if (rc == 0 && cfg.anonymize) {
        rc = mp_report_anonymize_run(dir, &d, &err);
        check_refusal(rc, &err, "mp_report_anonymize_run");
        say("anonymized: %s", rc ? err.msg : "ok");
    }
    mp_dir_close(&d);
    cJSON_Delete(how);
    if (rc)
        return;
    char path[128];
    snprintf(path, sizeof path, "%s/results.json", dir);
    mp_rmodel m;
    mp_err_clear(&err);
    rc = mp_rm_load(&m, path, &err);
    if (rc)   /* written only when report reads it (the check above) */
        finding("report refuses the results.json recovered", err.msg);
    say("recovered %zu cells (%zu from pass records%s%s)", j->ncells, j->from_passes,
        j->torn ? ", torn last line" : "", j->tail ? ", finished" : "");
    mp_rm_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[64], path[96];
    fuzz_tmpdir_make(dir, sizeof dir, "journal");
    snprintf(path, sizeof path, "%s/%s", dir, MP_JOURNAL_NAME);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0) {
        perror(path);
        abort();
    }

    mp_journal j;
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_journal_read(&j, dir, &err);
    check_refusal(rc, &err, "mp_journal_read");
    if (rc < 0)
        say("refused: %s", err.msg);
    if (rc > 0)
        finding("mp_journal_read returned a positive value", NULL);
    if (rc == 0) {
        check_read_back(&j);
        recover(&j, dir);
    }
    mp_journal_free(&j);
    fuzz_tmpdir_remove(dir);
    return 0;
}
