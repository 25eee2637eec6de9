/* SPDX-License-Identifier: MIT */
/* config.c - the fields of the "config" object that report/ reads back;
 * see results/config.h. */
#include "results/config.h"

#include <string.h>

#define LIST(k)                                                                            \
    {.key = #k, .type = MP_RT_TEXT_LIST, .off = offsetof(mp_rconfig, k),                  \
     .len = MP_RCFG_MAX_LIST, .count_off = offsetof(mp_rconfig, n##k), .unit = "", .doc = ""}

static const mp_rtfield fields[] = {
    LIST(backends),
    LIST(modes),
    {.key = "anonymize", .type = MP_RT_BOOL, .off = offsetof(mp_rconfig, anonymize), .unit = "",
     .doc = ""},
};
#undef LIST

const mp_rtable mp_rconfig_table = {"config", fields, sizeof fields / sizeof fields[0]};

void mp_rconfig_read(const cJSON *o, mp_rconfig *c)
{
    memset(c, 0, sizeof *c);
    mp_rtable_read(&mp_rconfig_table, o, c);
}
