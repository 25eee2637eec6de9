/* SPDX-License-Identifier: MIT */
/* context.h - the host context recorded in every results file: CPU,
 * kernel, clock source, governor, perf_event_paranoid, descriptor limits,
 * build.  Never fails: what cannot be read is recorded as "unavailable (...)". */
#ifndef MP_CONTEXT_H
#define MP_CONTEXT_H

#include <cjson/cJSON.h>
#include "results/context.h"

/* This host's context into c (its strings are static or c's own). */
void mp_context_read(mp_rcontext *c, const char *command);
/* The same as results.json's "context" object. */
cJSON *mp_context_json(const char *command);

/* Short host name for run directory names ([A-Za-z0-9._-] only). */
void mp_context_hostname(char *buf, size_t len);

/* How clock_gettime(CLOCK_MONOTONIC) is read with this clocksource (the
 * name in /sys/devices/system/clocksource/clocksource0/current_clocksource):
 * "... via the vDSO" only for clocksources with a vDSO mode (tsc,
 * kvm-clock, hyperv_clocksource_tsc_page, arch_sys_counter), else "... via
 * a system call".  Returns buf. */
const char *mp_clock_label_for(const char *clocksource, char *buf, size_t len);
/* The same for this host's current clocksource. */
const char *mp_clock_label(char *buf, size_t len);

/* Read the first line of a small file into buf (no newline); 0 or -errno. */
int mp_read_line(const char *path, char *buf, size_t len);

#endif
