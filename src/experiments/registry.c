/* SPDX-License-Identifier: MIT */
/* registry.c - the experiments a run can do: --experiment, its --help and
 * its errors are printed from this table, cmd/run runs its rows in order,
 * and the run's terminal summary prints their tables in the same order.  See experiment.h. */
#include "experiments/experiment.h"

#include <stdio.h>
#include <string.h>

#include "common/names.h"

const mp_experiment mp_experiments[] = {
    {"calls", "the per-call sweep", NULL, NULL},
    {"register", "cost of adding N fds", mp_exp_register, &mp_exp_register_table},
    {"herd", "M waiters on one fd", mp_exp_herd, &mp_exp_herd_table},
    {"ltet", "LT vs ET, partial reads", mp_exp_ltet, &mp_exp_ltet_table},
    {NULL, NULL, NULL, NULL},
};

const mp_experiment *mp_experiment_find(const char *name, unsigned *bit)
{
    for (unsigned i = 0; mp_experiments[i].name; i++)
        if (!strcmp(mp_experiments[i].name, name)) {
            *bit = 1u << i;
            return &mp_experiments[i];
        }
    return NULL;
}

const char *mp_experiment_names(void)
{
    static char buf[256];
    const char *names[MP_MAX_EXPERIMENTS];
    size_t n = 0;
    for (; mp_experiments[n].name && n < MP_MAX_EXPERIMENTS; n++)
        names[n] = mp_experiments[n].name;
    return mp_names_join(buf, sizeof buf, names, n);
}

const char *mp_experiment_help(void)
{
    static char buf[512];
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; mp_experiments[i].name && o < sizeof buf; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s (%s)", i ? ", " : "",
                              mp_experiments[i].name, mp_experiments[i].summary);
    return buf;
}

void mp_experiments_print(const cJSON *experiments, FILE *f)
{
    for (size_t i = 0; mp_experiments[i].name; i++) {
        const mp_experiment *x = &mp_experiments[i];
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(experiments, x->name);
        if (x->table && o)
            mp_exp_table_print(x->name, x->table, o, f);
    }
}
