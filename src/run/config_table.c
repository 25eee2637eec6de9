/* SPDX-License-Identifier: MIT */
/* config_table.c - results.json's "config" object: the options a run
 * records, one row each, read straight from mp_run_config through
 * results/table.h (names by their mp_*_name_of[], a backend by its ops'
 * name).  See run/config.h. */
#include "run/config.h"

_Static_assert(sizeof(mp_mode) == sizeof(int) && sizeof(mp_fd_kind) == sizeof(int) &&
               sizeof(mp_fd_table) == sizeof(int) && sizeof(mp_ready_pos) == sizeof(int) &&
               sizeof(mp_repeat_order) == sizeof(int), "CHOICE rows read an enum as an int");

/* What an element of an ARRAY row is written as: one field at its start. */
#define ELEMENT(name, ...)                                                                  \
    static const mp_rtfield name##_field[] = {{__VA_ARGS__}};                               \
    static const mp_rtable name = {"config[]", name##_field, 1}

ELEMENT(count_el, .type = MP_RT_COUNT);
ELEMENT(int_el, .type = MP_RT_INT);
ELEMENT(str_el, .type = MP_RT_STR);
ELEMENT(mode_el, .type = MP_RT_CHOICE, .names = mp_mode_name_of);
ELEMENT(kind_el, .type = MP_RT_CHOICE, .names = mp_fd_kind_name_of);
ELEMENT(fd_table_el, .type = MP_RT_CHOICE, .names = mp_fd_table_name_of);
ELEMENT(backend_name, .type = MP_RT_STR, .off = offsetof(mp_backend_ops, name));
ELEMENT(backend_el, .type = MP_RT_REF, .sub = &backend_name);

#define AT(member) .off = offsetof(mp_run_config, member)
#define SIZE(member) sizeof ((mp_run_config *)0)->member
/* key, the kind of value, the member it is, its unit and doc line */
#define ROW(k, kind, member, u, d) {.key = #k, .type = kind, AT(member), .unit = u, .doc = d}
/* a C array of the config and the int counting it, each element as el */
#define ARRAY(k, member, count, el, u, d)                                                    \
    {.key = #k, .type = MP_RT_ARRAY, AT(member), .len = SIZE(member[0]),                    \
     .count_off = offsetof(mp_run_config, count), .sub = &el, .unit = u, .doc = d}
/* an enum member written as its name */
#define NAME(k, member, names_of, d)                                                         \
    {.key = #k, .type = MP_RT_CHOICE, AT(member), .names = names_of, .unit = "", .doc = d}
/* a char[] member of the same name */
#define TEXT(k, d)                                                                           \
    {.key = #k, .type = MP_RT_TEXT, AT(k), .len = SIZE(k), .unit = "", .doc = d}
/* A list of the sweep: each cell holds its own value of it, so it is no key
 * column of the CSVs (every other row is: the run's parameters). */
#define SWEEP(k, member, count, el, u, d)                                                    \
    {.key = #k, .type = MP_RT_ARRAY, AT(member), .len = SIZE(member[0]),                    \
     .count_off = offsetof(mp_run_config, count), .sub = &el, .unit = u, .doc = d,          \
     .not_key = 1}
/* Neither a list of the sweep nor a condition of the measurement: no key column. */
#define NOT_KEY(k, kind, member, names_of, d)                                                \
    {.key = #k, .type = kind, AT(member), .names = names_of, .unit = "", .doc = d,          \
     .not_key = 1}

static const mp_rtfield fields[] = {
    SWEEP(backends, backends, nbackends, backend_el, "", "--backends"),
    SWEEP(fds, fds, ncounts, int_el, "fds", "--fds: the N measured, ascending"),
    SWEEP(active, actives, nactives, int_el, "fds", "--active: K ready at once, ascending"),
    SWEEP(modes, modes, nmodes, mode_el, "", "--modes: ready, wakeup"),
    SWEEP(wake_delays_ns, wake_delays_ns, nwake_delays, count_el, "ns",
          "--wake-delay: how long the waiter sleeps before the poke, ascending"),
    SWEEP(fd_kinds, kinds, nkinds, kind_el, "", "--fd-kind"),
    NOT_KEY(fd_kind, MP_RT_CHOICE, kinds, mp_fd_kind_name_of, "the first of fd_kinds"),
    SWEEP(fd_table, fd_tables, nfd_tables, fd_table_el, "", "--fd-table: private, shared"),
    ROW(samples, MP_RT_INT, samples, "samples", "--samples: timed calls per repeat"),
    ROW(repeats, MP_RT_INT, repeats, "repeats", "--repeats"),
    ROW(warmup, MP_RT_INT, warmup, "calls", "--warmup: untimed calls before each block"),
    NAME(ready_pos, ready_pos, mp_ready_pos_name_of,
         "--ready-pos: where the ready descriptor lies"),
    NAME(repeat_order, repeat_order, mp_repeat_order_name_of,
         "--repeat-order: passes or back-to-back"),
    TEXT(events, "--events as given"),
    TEXT(placement, "--placement as given"),
    ROW(quick, MP_RT_BOOL, quick, "", "--quick"),
    ARRAY(experiments, experiment_names, nexperiments, str_el, "",
          "--experiment, in registry order"),
    ROW(waiters, MP_RT_INT, waiters, "threads", "--waiters: the herd's M"),
    ROW(profile, MP_RT_BOOL, profile, "", "--profile"),
    NOT_KEY(anonymize, MP_RT_BOOL, anonymize, NULL, "--anonymize: every output was anonymized"),
};

const mp_rtable mp_run_config_table = {"config", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_run_config_json(const mp_run_config *c)
{
    if (c->nwake_delays > 0)
        return mp_rtable_json(&mp_run_config_table, c);
    mp_run_config one = *c;   /* no wake delay given reads as one of 0 */
    one.nwake_delays = 1;
    one.wake_delays_ns[0] = 0;
    return mp_rtable_json(&mp_run_config_table, &one);
}
