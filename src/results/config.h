/* config.h - the "config" object of results.json (docs/results-schema.md):
 * the settings a run measured with.  One model, mp_rconfig, that run/
 * fills from its options and writes, and report/ reads back, through the
 * table of its fields. */
#ifndef MP_RESULTS_CONFIG_H
#define MP_RESULTS_CONFIG_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "results/table.h"

#define MP_RCFG_MAX_LIST 64   /* the longest list of a run's options (--fds) */

typedef struct mp_rconfig {
    const char *backends[MP_RCFG_MAX_LIST];
    size_t nbackends;
    long long fds[MP_RCFG_MAX_LIST];
    size_t nfds;
    long long active[MP_RCFG_MAX_LIST];
    size_t nactive;
    const char *modes[MP_RCFG_MAX_LIST];
    size_t nmodes;
    long long wake_delays_ns[MP_RCFG_MAX_LIST];
    size_t nwake_delays_ns;
    const char *fd_kinds[MP_RCFG_MAX_LIST];
    size_t nfd_kinds;
    const char *fd_kind;          /* the first of fd_kinds */
    const char *fd_table[MP_RCFG_MAX_LIST];
    size_t nfd_table;
    long long samples, repeats, warmup;
    const char *ready_pos, *repeat_order, *events, *placement;
    int quick;
    const char *experiments[MP_RCFG_MAX_LIST];
    size_t nexperiments;
    long long waiters;
    int profile, anonymize;
} mp_rconfig;

extern const mp_rtable mp_rconfig_table;

cJSON *mp_rconfig_json(const mp_rconfig *c);
/* config o into c, unchecked (results/table.h: mp_rtable_read): a list
 * keeps its first MP_RCFG_MAX_LIST values of its kind; c's strings point
 * into o. */
void mp_rconfig_read(const cJSON *o, mp_rconfig *c);

#endif
