/* SPDX-License-Identifier: MIT */
/* sim_import.h - a run directory of scripts/muxsim.sh (what the QEMU plugin
 * libmuxsim.so and the guest's driver wrote) made into results.json, so
 * that `muxprof report` and `muxprof compare` read a simulated run as they
 * read a measured one.  The inputs (docs/cachesim.md, "The run directory"):
 *
 *   plan.env      KEY=VALUE lines: geometry (the geometry given to the
 *                 plugin: the name of one of sim/geometries, which the binary
 *                 carries, or a path ending in sim/geometries/NAME.conf, which
 *                 names it too and is not opened; or a file inside DIR by its
 *                 relative path, opened without following links; nothing
 *                 else), backends, fds, fd_kind,
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

/* The files of sim/geometries as the binary carries them; ends with {0}. */
typedef struct mp_sim_geometry_file {
    const char *name;    /* the file name without .conf, e.g. "neoverse-n1" */
    const char *text;    /* the file, NUL-terminated */
    size_t len;
} mp_sim_geometry_file;
extern const mp_sim_geometry_file mp_sim_geometries[];

typedef struct mp_sim_import {
    size_t ncells;       /* cells written */
    size_t nfailed;      /* of them, loops that failed in the guest ("error") */
    char failed[256];    /* "poll 1000, epoll 200000" (cut when long) */
} mp_sim_import;

/* A check of the document before it is written (the reader's own, so that
 * what is written is what `muxprof report` reads): 0, or what is wrong with
 * it, named as path. */
typedef int (*mp_sim_check)(const char *text, size_t len, const char *path, mp_err *err);

/* Import dir as above.  geometry, when not NULL, is the geometry to state
 * instead of plan.env's (a directory moved from the host that ran it): a
 * name of sim/geometries or a file the caller names (read as a regular
 * file of at most 64 KiB; its lines are never echoed, since the file may
 * lie outside DIR).  check, when not NULL, sees the document before it is
 * written; a refusal is -EBADMSG and nothing is written. */
int mp_sim_import_dir(const char *dir, const char *geometry, mp_sim_check check,
                      mp_sim_import *out, mp_err *err);

#endif
