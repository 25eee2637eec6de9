/* SPDX-License-Identifier: MIT */
/* profile_out.c - a cell's "profile" object from a profile pass; see
 * run/profile_out.h.  Shares are of every sample kept (user and kernel);
 * ns per call is a share times the cell's wall p50 (docs/profile.md says
 * when that is a fair product and when not). */
#include "run/profile_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/mp_err.h"
#include "results/profile.h"

/* An entry's share of tot samples and the ns per call it stands for. */
static mp_rprof_entry entry(const char *name, uint64_t samples, double tot, double p50)
{
    double share = (double)samples / tot;
    return (mp_rprof_entry){
        .name = name, .share = share,
        .ns_per_call = isfinite(p50) && p50 >= 0 ? share * p50 : NAN, .ns_per_fd = NAN,
    };
}

/* The "symbols" text: "kallsyms", or "hidden: " and why not. */
static const char *symbols_text(char *b, size_t len, const mp_profile_agg *a,
                                const mp_profile_cell *cell)
{
    const char *hidden = cell->no_symbols ? cell->no_symbols : mp_profile_agg_hidden(a);
    if (!hidden)
        return "kallsyms";
    snprintf(b, len, "hidden: %s", hidden);
    return b;
}

/* The user and kernel shares, and the functions and phases (stored in fn and
 * ph) with their shares, ns per call and per fd, into o. */
static void shares(mp_rprofile *o, const mp_profile_agg *a, const mp_profile_cell *cell,
                   mp_rprof_entry *fn, mp_rprof_entry *ph)
{
    mp_profile_count c[MP_PROFILE_TOP], cp[MP_PROFILE_MAX_PHASES];
    double tot = (double)mp_profile_agg_samples(a), p50 = cell->wall_p50_ns;
    if (!mp_profile_agg_samples(a))
        return;   /* no shares: user_share null, no kernel_share */
    o->user_share = (double)mp_profile_agg_user(a) / tot;
    o->kernel_share = (double)(mp_profile_agg_samples(a) - mp_profile_agg_user(a)) / tot;
    o->nfunctions = mp_profile_agg_functions(a, c, MP_PROFILE_TOP);
    for (size_t i = 0; i < o->nfunctions; i++) {
        fn[i] = entry(c[i].name ? c[i].name : "[unknown kernel address]", c[i].samples, tot,
                      p50);
        fn[i].phase = c[i].phase;
    }
    o->nphases = mp_profile_agg_phases(a, cp, MP_PROFILE_MAX_PHASES);
    for (size_t i = 0; i < o->nphases; i++) {
        ph[i] = entry(cp[i].name, cp[i].samples, tot, p50);
        if (isfinite(ph[i].ns_per_call) && cell->nfds > 0)
            ph[i].ns_per_fd = ph[i].ns_per_call / (double)cell->nfds;
    }
}

cJSON *mp_profile_pass_json(const mp_profile_agg *a, const mp_profile_info *pass,
                            const mp_profile_cell *cell)
{
    mp_rprof_entry fn[MP_PROFILE_TOP], ph[MP_PROFILE_MAX_PHASES];
    char sym[MP_ERR_MAX + 16];   /* "hidden: " and a message: never cut */
    uint64_t tot = mp_profile_agg_samples(a);
    int cpu_clock = pass->event && !strcmp(pass->event, "cpu-clock");
    mp_rprofile o = {
        .sampled = 1,
        .event = pass->event ? pass->event : "cpu-clock",
        .period = (long long)pass->period,
        .scope = pass->scope ? pass->scope : "user+kernel",
        .samples = (long long)tot,
        .lost = (long long)pass->lost,
        .truncated = (long long)pass->truncated,
        .calls = (long long)cell->calls,
        .window = pass->windowed ? MP_RPROF_CALLS : MP_RPROF_BLOCKS,
        .outside_calls = (long long)pass->outside,
        .wall_p50_ns = isfinite(cell->wall_p50_ns) ? cell->wall_p50_ns : NAN,
        /* on-CPU time per call while sampled: cpu-clock's period is ns of it */
        .on_cpu_ns_per_call = pass->period && cell->calls && cpu_clock
                                  ? (double)tot * (double)pass->period / (double)cell->calls
                                  : NAN,
        .symbols = symbols_text(sym, sizeof sym, a, cell),
        .note = pass->note,
        .user_share = NAN,
        .kernel_share = NAN,
        .functions = fn,
        .phases = ph,
        .throttled = (long long)pass->throttled,
    };
    shares(&o, a, cell, fn, ph);
    return mp_rprofile_json(&o);
}

cJSON *mp_profile_unavailable_json(const char *why)
{
    mp_rprofile o = {.reason = why};
    return mp_rprofile_json(&o);
}
