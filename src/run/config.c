/* SPDX-License-Identifier: MIT */
/* config.c - names of the modes and ready positions a run configuration
 * holds.  See config.h. */
#include "run/config.h"

#include <string.h>

#include "common/names.h"

const char *const mp_mode_name_of[] = {"ready", "wakeup", NULL};
const char *const mp_ready_pos_name_of[] = {"first", "middle", "last", NULL};
const char *const mp_fd_table_name_of[] = {"private", "shared", NULL};

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

static int ndelays(const mp_run_config *c)
{
    return c->nwake_delays > 0 ? c->nwake_delays : 1;
}

int mp_run_nslots(const mp_run_config *c)
{
    int n = 0;
    for (int i = 0; i < c->nmodes; i++)
        n += c->modes[i] == MP_MODE_WAKEUP ? ndelays(c) : 1;
    return n;
}

mp_mode mp_run_slot(const mp_run_config *c, int i, long long *delay_ns)
{
    for (int m = 0; m < c->nmodes; m++) {
        int k = c->modes[m] == MP_MODE_WAKEUP ? ndelays(c) : 1;
        if (i < k) {
            *delay_ns = c->modes[m] == MP_MODE_READY ? -1
                        : c->nwake_delays > 0 ? c->wake_delays_ns[i] : 0;
            return c->modes[m];
        }
        i -= k;
    }
    *delay_ns = -1;
    return MP_MODE_READY;
}

const char *mp_mode_name(mp_mode m)
{
    return m == MP_MODE_READY ? mp_mode_name_of[0] : mp_mode_name_of[1];
}

int mp_mode_parse(const char *s, mp_mode *out)
{
    int i = find(mp_mode_name_of, 2, s);
    if (i < 0)
        return MP_EUSAGE;
    *out = (mp_mode)i;
    return 0;
}

const char *mp_mode_names(void)
{
    static char buf[64];
    return mp_names_join(buf, sizeof buf, mp_mode_name_of, 2);
}

int mp_ready_pos_parse(const char *s, mp_ready_pos *out)
{
    int i = find(mp_ready_pos_name_of, 3, s);
    if (i < 0)
        return MP_EUSAGE;
    *out = (mp_ready_pos)i;
    return 0;
}

const char *mp_ready_pos_names(void)
{
    static char buf[64];
    return mp_names_join(buf, sizeof buf, mp_ready_pos_name_of, 3);
}

const char *const mp_repeat_order_name_of[] = {"passes", "back-to-back", NULL};

int mp_repeat_order_parse(const char *s, mp_repeat_order *out)
{
    int i = find(mp_repeat_order_name_of, 2, s);
    if (i < 0)
        return MP_EUSAGE;
    *out = (mp_repeat_order)i;
    return 0;
}

const char *mp_repeat_order_names(void)
{
    static char buf[64];
    return mp_names_join(buf, sizeof buf, mp_repeat_order_name_of, 2);
}

int mp_ready_first(mp_ready_pos p, int n, int k)
{
    if (k > n)
        k = n;
    return p == MP_POS_FIRST ? 0 : p == MP_POS_MIDDLE ? (n - k + 1) / 2 : n - k;
}

const char *mp_fd_table_name(mp_fd_table t)
{
    return t == MP_FDT_SHARED ? mp_fd_table_name_of[1] : mp_fd_table_name_of[0];
}

int mp_fd_table_parse(const char *s, mp_fd_table *out)
{
    int i = find(mp_fd_table_name_of, 2, s);
    if (i < 0)
        return MP_EUSAGE;
    *out = (mp_fd_table)i;
    return 0;
}

const char *mp_fd_table_names(void)
{
    static char buf[64];
    return mp_names_join(buf, sizeof buf, mp_fd_table_name_of, 2);
}
