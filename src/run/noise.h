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

/* Waiting for the host to settle before a run measures: a run started
 * right after a build (scripts/setup.sh, then `muxprof run`) would
 * otherwise measure beside the compiler's tail.  The other CPUs' busy
 * time is read from /proc/stat (less muxprof's own, getrusage) over short
 * windows; the host has settled when it is below the threshold in the
 * first window, or in two windows in a row after a busy one.
 * The wait ends there, at bound_s, or when *stop is set (a signal). */
typedef struct mp_noise_settle {
    int checked;          /* 0: not checked (--no-wait) */
    int settled;          /* below the threshold before the bound */
    double bound_s;       /* the longest wait allowed */
    double waited_s;      /* from the first window to the end of the last */
    double busy_first;    /* CPUs busy besides muxprof in the first window, NaN unreadable */
    double busy_last;     /* ... in the last window */
    double built_s_ago;   /* age of muxprof's binary at the start, NaN unknown */
    double threshold;     /* settled below this many CPUs busy (mp_noise_settle_threshold) */
    int unreadable;       /* /proc/stat could not be read: nothing waited for */
} mp_noise_settle;

/* The busy CPUs besides muxprof below which a host of ncpu CPUs counts as
 * settled: a quarter of one CPU, or 5% of them on a large host (where
 * others' work on far cores is the normal state); twice it in a pass is
 * the "other work competed" warning. */
double mp_noise_settle_threshold(long ncpu);

/* The file the CPU time counters are read from: /proc/stat, or
 * MUXPROF_PROC_STAT when set (tests give a file they rewrite). */
const char *mp_noise_proc_stat(void);

/* Wait as above, saying on stderr (unless quiet) that it waits, why, and
 * how it ended.  bound_s <= 0: nothing checked. */
void mp_noise_settle_wait(mp_noise_settle *s, double bound_s, int quiet,
                          volatile int *stop);

/* Add "noise" to context: load at start and end, steal and busy shares
 * between the two snapshots, frequencies, mitigations, the settling wait
 * before the run ("settle", when settle is not NULL), and "warnings"
 * (strings) when steal or other work was high.  other_busy_max is the most
 * CPUs other work kept busy in one pass (run/canary.h), NaN when no pass
 * measured it: other work is then judged by the 1-minute load average,
 * which also remembers the minute before the run (a build just ended). */
void mp_noise_json(cJSON *context, const mp_noise_snap *start, const mp_noise_snap *end,
                   const mp_noise_settle *settle, double other_busy_max);

/* Thresholds above which the run is flagged noisy. */
#define MP_NOISE_STEAL_WARN 0.02        /* share of CPU time stolen by the hypervisor */
#define MP_NOISE_LOAD_WARN 1.0          /* load average per online CPU */
#define MP_NOISE_SETTLE_BUSY 0.25       /* CPUs busy besides muxprof: settled below, */
#define MP_NOISE_SETTLE_SHARE 0.05      /* ... or below this share of the CPUs */
#define MP_NOISE_SETTLE_S 60.0          /* the default bound of the wait, seconds */
#define MP_NOISE_BUILT_RECENT_S 600.0   /* a binary this young: the load is likely its build's */

#endif
