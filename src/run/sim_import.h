/* sim_import.h - a run directory of scripts/muxsim.sh (what the QEMU plugin
 * libmuxsim.so and the guest's driver wrote) made into results.json, so
 * that `muxprof report` and `muxprof compare` read a simulated run as they
 * read a measured one.  The inputs (docs/cachesim.md, "The run directory"):
 *
 *   plan.env      KEY=VALUE lines: geometry (the file given to the plugin;
 *                 a relative path is taken from DIR), backends, fds, fd_kind,
 *                 calls, warmup, prefetch, kernel, qemu, boot_seconds,
 *                 load_end; optional load, started, finished (UTC).  The
 *                 first line of a key counts.
 *   cells.txt     "BACKEND N STATUS" per cell the guest ran, in order; STATUS
 *                 the exit status of `muxprof loop`.
 *   muxsim.tsv    the plugin's summaries: a "# muxsim:" line, the column
 *                 header, then per (cell, core, event, priv) p10 p50 p90 mean
 *                 min max over the kept calls.  Cell k is the k-th loop that
 *                 exited 0.
 *   guest/loop-BACKEND-N.log   what a loop that failed printed (its reason).
 *   functions.json  optional (scripts/muxsim/functions.py): {"cells": [{
 *                 backend, nfds, functions: [{name, L1d-misses, L2-misses,
 *                 LLC-load-misses}], attributed_L1d_share: >= 0 or null}]};
 *                 an "ok" cell of the same backend and N (the last such
 *                 entry) gets {functions, attributed_L1d_share} as its
 *                 "sim_functions".
 *
 * Every input is read and checked before anything is written: a missing
 * file is its errno, a malformed one -EBADMSG, each with one line naming the
 * file and what is wrong in it; then results.json is written whole
 * (common/file.h) into DIR, replacing only a results.json muxprof wrote. */
#ifndef MP_RUN_SIM_IMPORT_H
#define MP_RUN_SIM_IMPORT_H

#include <stddef.h>

#include "common/mp_err.h"

typedef struct mp_sim_import {
    size_t ncells;       /* cells written */
    size_t nfailed;      /* of them, loops that failed in the guest ("error") */
    char failed[256];    /* "poll 1000, epoll 200000" (cut when long) */
} mp_sim_import;

/* Import dir as above.  geometry, when not NULL, is the geometry file to
 * state instead of plan.env's (a directory moved from the host that ran it). */
int mp_sim_import_dir(const char *dir, const char *geometry, mp_sim_import *out, mp_err *err);

#endif
