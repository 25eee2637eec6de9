/* SPDX-License-Identifier: MIT */
/* internal.h - what the verb files of cmd/ share and nothing outside uses. */
#ifndef MP_CMD_INTERNAL_H
#define MP_CMD_INTERNAL_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "common/file.h"
#include "common/mp_err.h"
#include "pmu/pmu.h"
#include "run/config.h"
#include "topology/topology.h"

/* A whole decimal number in [lo, hi] for option opt ("--fds"): 0, or
 * MP_EUSAGE with "OPT: 'S' is not a whole number; expected LO..HI" or
 * "... is out of range" (cmd/run_options.c). */
int mp__cli_parse_count(const char *opt, const char *s, long lo, long hi, long *out,
                        mp_err *err);

/* Take path as a verb's output directory (--out) into d: created anew; or an
 * existing empty directory of yours, claimed so that no other process takes
 * it too; or, with force, one that muxprof wrote (it holds a manifest).
 * Anything else, and a directory common/file.h will not write into (a link,
 * another user's, writable by others), is MP_EUSAGE with a message that says
 * what to do (cmd/cmd.c). */
int mp__cmd_out_dir(mp_dir *d, const char *path, int force, mp_err *err);

/* The line of `muxprof events` on the software counters every plan adds,
 * from the plan's JSON: those that opened under "adds:", any that did not
 * under "would add", each counter named once (cmd/events.c). */
void mp__events_adds(FILE *f, const cJSON *plan);
/* The plan's table of metrics, one row each; a metric not opened gets its
 * reason below it, each reason once: a later metric with the same one
 * points back to it by number. */
void mp__events_table(FILE *f, const cJSON *evs);
/* The plan's JSON as `muxprof events` reads it: results.json's counters
 * object, with pass_status: whether each pass opens now, tried pinned to
 * the CPU the caller is on. */
cJSON *mp__events_plan_json(const mp_pmu_plan *plan);
/* What `muxprof events` prints of a plan below its first line: scope,
 * source, budget, what it adds, its passes and whether each opens, its
 * table of metrics. */
void mp__events_plan_print(FILE *f, const cJSON *plan);

/* `muxprof run`'s placement line: the placement, the PUs, whether they were
 * bound, and what it means (cmd/run.c). */
void mp__run_print_placement(const mp_pu_pair *pair, int bound, FILE *f);
/* `muxprof run --dry-run` for a checked config: the cells, the passes, the
 * counters, the placement and an estimate of the time on stdout; nothing
 * measured or written.  Returns the exit status (cmd/run_plan.c). */
int mp__run_dry(const mp_run_config *cfg, const mp_pmu_plan *plan, const mp_pu_pair *pair);

#endif
