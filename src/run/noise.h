/* SPDX-License-Identifier: MIT */
/* noise.h - what makes a run noisy, recorded in results.json's context:
 * load average at start and end, steal time over the run (/proc/stat),
 * CPU frequency where readable, and the kernel's mitigations
 * (/sys/devices/system/cpu/vulnerabilities).  Never fails: what cannot be
 * read is null with a reason. */
#ifndef MP_NOISE_H
#define MP_NOISE_H

#include <cjson/cJSON.h>

/* A snapshot of the load and CPU time counters. */
typedef struct mp_noise_snap {
    double load1, load5, load15;   /* NaN when unreadable */
    unsigned long long total, steal, idle;   /* /proc/stat "cpu" line, USER_HZ ticks */
    int have_stat;
} mp_noise_snap;

void mp_noise_snap_take(mp_noise_snap *s);

/* Add "noise" to context: load at start and end, steal and busy shares
 * between the two snapshots, frequencies, mitigations, and "warnings"
 * (strings) when steal or load was high. */
void mp_noise_json(cJSON *context, const mp_noise_snap *start, const mp_noise_snap *end);

/* Thresholds above which the run is flagged noisy. */
#define MP_NOISE_STEAL_WARN 0.02        /* share of CPU time stolen by the hypervisor */
#define MP_NOISE_LOAD_WARN 1.0          /* load average per online CPU */

#endif
