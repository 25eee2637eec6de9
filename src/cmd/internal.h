/* SPDX-License-Identifier: MIT */
/* internal.h - what the verb files of cmd/ share and nothing outside uses. */
#ifndef MP_CMD_INTERNAL_H
#define MP_CMD_INTERNAL_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "common/file.h"
#include "common/mp_err.h"

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

#endif
