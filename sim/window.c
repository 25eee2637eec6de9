/* SPDX-License-Identifier: MIT */
/* window.c - counting windows (window.h). */
#include "window.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void mp_sim_cell_init(mp_sim_cell *c, unsigned core)
{
    memset(c, 0, sizeof *c);
    c->core = core;
}

void mp_sim_cell_free(mp_sim_cell *c)
{
    free(c->v);
    c->v = NULL;
    c->calls = c->cap = 0;
}

static void read_counts(const mp_sim *s, unsigned core, uint64_t *v)
{
    memcpy(v, mp_sim_counts(s, core, 0), MP_SIM_NEVENTS * sizeof *v);
    memcpy(v + MP_SIM_NEVENTS, mp_sim_counts(s, core, 1), MP_SIM_NEVENTS * sizeof *v);
}

void mp_sim_cell_begin(mp_sim_cell *c, const mp_sim *s)
{
    read_counts(s, c->core, c->start);
    c->open = 1;
}

int mp_sim_cell_end(mp_sim_cell *c, const mp_sim *s)
{
    if (!c->open)
        return -EINVAL;
    c->open = 0;
    if (c->calls == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        uint64_t *v = realloc(c->v, cap * MP_SIM_WVALUES * sizeof *v);
        if (!v)
            return -ENOMEM;
        c->v = v, c->cap = cap;
    }
    uint64_t *row = c->v + c->calls * MP_SIM_WVALUES;
    read_counts(s, c->core, row);
    for (int i = 0; i < MP_SIM_WVALUES; i++)
        row[i] -= c->start[i];
    c->calls++;
    return 0;
}

uint64_t mp_sim_cell_value(const mp_sim_cell *c, size_t call, int event, int priv)
{
    const uint64_t *row = c->v + call * MP_SIM_WVALUES;
    if (priv == 2)
        return row[event] + row[MP_SIM_NEVENTS + event];
    return row[priv ? MP_SIM_NEVENTS + event : event];
}

int mp_sim_cell_summary(const mp_sim_cell *c, size_t warmup, int event, int priv,
                        mp_summary *out)
{
    size_t n = c->calls > warmup ? c->calls - warmup : 0;
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++)
        x[i] = (double)mp_sim_cell_value(c, warmup + i, event, priv);
    mp_summarize(x, n, out);
    free(x);
    return 0;
}
