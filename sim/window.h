/* SPDX-License-Identifier: MIT */
/* window.h - counting windows: the model's counters of one core read at a
 * begin marker and an end marker, one window per call, kept per cell (the
 * calls of one (backend, N)), summarised with the first calls left out. */
#ifndef MP_SIM_WINDOW_H
#define MP_SIM_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "common/stats.h"
#include "model.h"

#define MP_SIM_WVALUES (2 * MP_SIM_NEVENTS)   /* user events, then kernel events */

typedef struct mp_sim_cell {
    unsigned core;
    size_t calls, cap;
    uint64_t *v;                        /* calls x MP_SIM_WVALUES */
    uint64_t start[MP_SIM_WVALUES];
    int open;                           /* a begin without its end yet */
} mp_sim_cell;

/* A cell of core's calls; free with mp_sim_cell_free. */
void mp_sim_cell_init(mp_sim_cell *c, unsigned core);
void mp_sim_cell_free(mp_sim_cell *c);
/* The counters at the begin marker. */
void mp_sim_cell_begin(mp_sim_cell *c, const mp_sim *s);
/* At the end marker: one call's differences kept.  0; -EINVAL without a
 * begin (nothing kept); -ENOMEM. */
int mp_sim_cell_end(mp_sim_cell *c, const mp_sim *s);
/* One call's value of event: priv 0 user, 1 kernel, 2 both. */
uint64_t mp_sim_cell_value(const mp_sim_cell *c, size_t call, int event, int priv);
/* Summary of event over calls warmup..calls-1 (n = 0 when none are left). */
int mp_sim_cell_summary(const mp_sim_cell *c, size_t warmup, int event, int priv,
                        mp_summary *out);

#endif
