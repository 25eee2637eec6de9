/* anonymize.h - results that people publish, without the secrets of the host
 * that made them: its host name (-> "host-1", "host-2", ... in the order the
 * hosts are met), user names (-> "user"), home directories (-> "~"), the
 * paths of the command line and of the run directory (-> "<path>"), and
 * kernel addresses (-> "<kernel address>").  Everything else stays: CPU
 * model, kernel version, configuration and every measured value.
 *
 * One anonymizer is used for a whole output: learn the secrets (from the
 * environment, from each results.json, from paths given on the command
 * line), then rewrite the JSON document before anything is made from it,
 * and finally every text file written (report.md, figures' .gp/.dat/.svg,
 * CSVs) for what the writers took from elsewhere.  Error convention:
 * common/mp_err.h. */
#ifndef MP_ANONYMIZE_H
#define MP_ANONYMIZE_H

#include <cjson/cJSON.h>

#include "common/file.h"
#include "common/mp_err.h"

typedef struct mp_anon mp_anon;

/* A new anonymizer that knows this process's host name, user name and home
 * directory.  NULL when out of memory. */
mp_anon *mp_anon_new(void);
void mp_anon_free(mp_anon *a);

/* Replace every occurrence of secret by label in what follows.  Host and
 * user names are replaced only as whole words (not inside a longer name).
 * A path (starting with '/') also gets its canonical form registered. */
int mp_anon_add_path(mp_anon *a, const char *path);

/* Learn what doc reveals: context.host, the paths of context.command, home
 * directories and the user names in them; then rewrite every string of
 * doc, set context.host to the host's label and context.anonymized to what
 * was replaced.  Numbers and keys are left as they are. */
int mp_anon_json(mp_anon *a, cJSON *doc);

/* in, rewritten; malloc'd (NULL when out of memory). */
char *mp_anon_text(const mp_anon *a, const char *in);

/* Rewrite, atomically, every text file (.md .json .csv .gp .dat .svg .txt)
 * that dir's manifest lists (what muxprof wrote there) and that holds
 * something to replace. */
int mp_anon_tree(const mp_anon *a, mp_dir *dir, mp_err *err);

/* A run directory: src/results.json rewritten into dst/results.json and
 * src/{results,samples}.csv into dst (src and dst may be the same). */
int mp_anon_run_dir(mp_anon *a, const char *src, mp_dir *dst, mp_err *err);

#endif
