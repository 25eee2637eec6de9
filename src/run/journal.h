/* SPDX-License-Identifier: MIT */
/* journal.h - the run's journal: DIR/journal.jsonl, append-only, one JSON
 * document per line, each line written with one write(): a record per
 * cell per pass, made durable (fsync) once per pass, and a record per
 * cell once it is final.  A run killed at any point (SIGKILL, a crash, a
 * second Ctrl-C, a lost terminal) leaves every repeat measured before its
 * last pass in it; `muxprof report DIR` assembles results.json and
 * samples.csv from it.  The journal also keeps in memory what it wrote, and results.json,
 * results.csv and samples.csv of a run are written from that: one path
 * for a run that finished and one that is recovered.
 *
 * Lines (docs/results-schema.md):
 *   {"type":"head","head":{...}}          first: mp_results_head_json()
 *   {"type":"pass","index":I,"pass":P,"cell":{...},"wall_raw_ns":"812 799 ..."}
 *                                         after each pass but the last, one per
 *                                         cell it timed: the cell as if the run
 *                                         had stopped there, repeat P's samples
 *   {"type":"cell","index":I,"cell":{...},"wall_raw_ns":["812 799 ...",...],
 *    "pass_records":P}                    one per finished cell, sweep order;
 *                                         samples as one string per repeat
 *                                         ("" for the P repeats whose samples
 *                                         are in its pass records)
 *   {"type":"experiment","name":N,"result":{...}}
 *   {"type":"tail","tail":{...}}          last, when the run ended by itself
 *                                         or by a handled signal
 * A last line without its newline (a crash during its write) is ignored
 * when reading.  Error convention: common/mp_err.h. */
#ifndef MP_JOURNAL_H
#define MP_JOURNAL_H

#include <limits.h>
#include <stddef.h>

#include <cjson/cJSON.h>
#include "common/file.h"
#include "common/mp_err.h"
#include "run/results.h"

#define MP_JOURNAL_NAME "journal.jsonl"
/* The files a run's journal is written out as (mp_journal_write_outputs),
 * NULL-ended. */
extern const char *const mp_journal_outputs[];
/* The largest journal `muxprof report` reads back (a run at the sample
 * limits of `muxprof run` writes about 1 GiB of samples). */
#define MP_JOURNAL_MAX_BYTES (2LL << 30)
/* The samples a journal holds back: per line (a cell's, as `muxprof run`
 * keeps at most per cell) and in all (as it keeps at most per run), and
 * the longest line (those samples at 20 characters each, and 1 MiB for
 * the rest of the record).  Past one the journal is refused before its
 * line is parsed. */
#define MP_JOURNAL_MAX_LINE_SAMPLES 20000000L
#define MP_JOURNAL_MAX_SAMPLES 100000000L
#define MP_JOURNAL_MAX_LINE (MP_JOURNAL_MAX_LINE_SAMPLES * 20 + (1L << 20))

/* A cell known only from its pass records, while reading. */
typedef struct mp_jpartial {
    long index;
    int passes;             /* pass records taken: repeats 0 .. passes-1 */
    cJSON *cell;            /* owned: the last pass record's cell */
    mp_samples s;           /* owned */
} mp_jpartial;

typedef struct mp_journal {
    int fd;                 /* the file being appended; -1 when none */
    char path[PATH_MAX];    /* DIR/journal.jsonl */
    mp_err failed;          /* first failed append (code 0: none); the records stay in memory */
    cJSON *head, *tail;     /* owned; NULL until written (tail: never, after a crash) */
    cJSON *cells;           /* owned array: the cells as results[] holds them, sweep order */
    mp_samples *samples;    /* owned: samples[i] belongs to cells[i] */
    size_t ncells, cap;
    long *index;            /* index[i]: sweep index of cells[i] */
    long last_index;        /* sweep index of the last cell, -1 */
    unsigned char *passes;  /* writing: pass records written per sweep index (NULL: none) */
    size_t npasses;
    mp_jpartial *partials;  /* reading: cells with pass records and no cell record yet */
    size_t npartials, partials_cap;
    size_t from_passes;     /* read back: cells recovered from their pass records alone */
    size_t nsamples_read;   /* read back: samples taken, against MP_JOURNAL_MAX_SAMPLES */
    cJSON *experiments;     /* owned object, NULL when no experiment finished */
    int torn;               /* read back: a torn last line was ignored */
} mp_journal;

/* Create DIR/journal.jsonl (it must not exist: a journal left by a run
 * that did not finish is recovered with `muxprof report DIR`, not
 * overwritten: MP_EUSAGE). */
int mp_journal_create(mp_journal *j, mp_dir *dir, mp_err *err);

/* Before a run writes over DIR (--force): remove the journal of a run whose
 * results.json was written from it.  A journal a run still holds, or one
 * whose run was never recovered (the only copy of its measurements), is
 * refused (MP_EUSAGE) and left, as is everything else in DIR.  0 when DIR
 * holds no journal. */
int mp_journal_clear(mp_dir *dir, mp_err *err);

/* Append a record.  A failed write is kept in j->failed and the record
 * in memory (the run goes on); the return is negative only when memory
 * ran out and the record is lost. */
int mp_journal_head(mp_journal *j, const mp_results *r);
/* Cells first .. first+n-1 of r that are not pending, one line each, then
 * one fsync.  Their samples move from the cells into the journal. */
int mp_journal_cells(mp_journal *j, mp_results *r, size_t first, size_t n);
/* A "pass" record of cell `index` of a run of ncells cells after pass
 * `pass` (0-based, one after the other for the cell): `cell` (taken) as
 * results[] would hold it had the run stopped there, and c's samples of
 * repeat `pass`.  Not made durable: mp_journal_sync, once per pass. */
int mp_journal_pass(mp_journal *j, size_t index, size_t ncells, int pass, cJSON *cell,
                    const mp_cell *c);
int mp_journal_sync(mp_journal *j);
int mp_journal_experiment(mp_journal *j, const char *name, const cJSON *result);
int mp_journal_tail(mp_journal *j, const mp_results *r);

/* A check of results.json before it is written (the reader's own, so that
 * what is written is what `muxprof report` reads): 0, or what is wrong with
 * it, named as path. */
typedef int (*mp_journal_check)(const char *text, size_t len, const char *path, mp_err *err);

/* results.json, results.csv and samples.csv of DIR from the records;
 * recovered: the "recovered" object of results.json, or NULL.  A
 * results.json that `muxprof report` would refuse (over MP_RESULTS_MAX_CELLS
 * cells or MP_RESULTS_MAX_BYTES) is not written: -EFBIG, nothing written.
 * check, when not NULL, sees results.json first; a refusal is -EBADMSG
 * and nothing is written. */
int mp_journal_write_outputs(const mp_journal *j, mp_dir *dir, const cJSON *recovered,
                             mp_journal_check check, mp_err *err);

/* Once the outputs of DIR are written: make them durable, then remove
 * the journal this process created (nothing else of that name). */
int mp_journal_discard(mp_journal *j, mp_dir *dir, mp_err *err);

/* Read DIR/journal.jsonl back into j (no file is kept open).  A regular
 * file only, at most MP_JOURNAL_MAX_BYTES, with a head first; a line that
 * is not a record (anywhere but a torn last line) is -EBADMSG, one past
 * the line or sample limits above -EFBIG.  Cells with pass records and no
 * cell record are taken from their last pass record, with the samples of
 * all of them, in sweep order among the others. */
int mp_journal_read(mp_journal *j, const char *dir, mp_err *err);

/* The "recovered" object results.json gets after mp_journal_read. */
cJSON *mp_journal_recovered_json(const mp_journal *j);

void mp_journal_free(mp_journal *j);

#endif
