/* SPDX-License-Identifier: MIT */
/* limits.h - the most of a results.json `muxprof report` reads back, so
 * that every writer (a run, its recovery from the journal) refuses what
 * the reader would. */
#ifndef MP_RESULTS_LIMITS_H
#define MP_RESULTS_LIMITS_H

#define MP_RESULTS_MAX_BYTES (64u << 20)
#define MP_RESULTS_MAX_CELLS 50000
/* About the fewest bytes a measured cell takes in results.json (without
 * counters: its keys, reason, three metrics, and four numbers per
 * repeat), for a plan's size before it runs. */
#define MP_RESULTS_CELL_MIN_BYTES(repeats) (1000.0 + 64.0 * (repeats))

#endif
