/* config.c - the "config" object through the table of its fields; see
 * results/config.h. */
#include "results/config.h"

#include <string.h>

#define ROW(k, type, unit, doc) \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rconfig, k), 0, 0, 0, 0, NULL, NULL, unit, doc}
#define LIST(k, type, unit, doc) \
    {#k, type, MP_RT_ALWAYS, offsetof(mp_rconfig, k), MP_RCFG_MAX_LIST, \
     offsetof(mp_rconfig, n##k), 0, 0, NULL, NULL, unit, doc}

static const mp_rtfield fields[] = {
    LIST(backends, MP_RT_TEXT_LIST, "", "--backends"),
    LIST(fds, MP_RT_COUNT_LIST, "fds", "--fds: the N measured, ascending"),
    LIST(active, MP_RT_COUNT_LIST, "fds", "--active: K ready at once, ascending"),
    LIST(modes, MP_RT_TEXT_LIST, "", "--modes: ready, wakeup"),
    LIST(wake_delays_ns, MP_RT_COUNT_LIST, "ns",
         "--wake-delay: how long the waiter sleeps before the poke, ascending"),
    LIST(fd_kinds, MP_RT_TEXT_LIST, "", "--fd-kind"),
    ROW(fd_kind, MP_RT_STR, "", "the first of fd_kinds"),
    LIST(fd_table, MP_RT_TEXT_LIST, "", "--fd-table: private, shared"),
    ROW(samples, MP_RT_COUNT, "samples", "--samples: timed calls per repeat"),
    ROW(repeats, MP_RT_COUNT, "repeats", "--repeats"),
    ROW(warmup, MP_RT_COUNT, "calls", "--warmup: untimed calls before each block"),
    ROW(ready_pos, MP_RT_STR, "", "--ready-pos: where the ready descriptor lies"),
    ROW(repeat_order, MP_RT_STR, "", "--repeat-order: passes or back-to-back"),
    ROW(events, MP_RT_STR, "", "--events as given"),
    ROW(placement, MP_RT_STR, "", "--placement as given"),
    ROW(quick, MP_RT_BOOL, "", "--quick"),
    LIST(experiments, MP_RT_TEXT_LIST, "", "--experiment, in registry order"),
    ROW(waiters, MP_RT_COUNT, "threads", "--waiters: the herd's M"),
    ROW(profile, MP_RT_BOOL, "", "--profile"),
    ROW(anonymize, MP_RT_BOOL, "", "--anonymize: every output was anonymized"),
};
#undef ROW
#undef LIST

const mp_rtable mp_rconfig_table = {"config", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rconfig_json(const mp_rconfig *c)
{
    return mp_rtable_json(&mp_rconfig_table, c);
}

void mp_rconfig_read(const cJSON *o, mp_rconfig *c)
{
    memset(c, 0, sizeof *c);
    mp_rtable_read(&mp_rconfig_table, o, c);
}
