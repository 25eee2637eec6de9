/* SPDX-License-Identifier: MIT */
/* plan_pack.c - the available events of a plan packed into passes that fit
 * the counter budget, and each core pass tried once: a group that does not
 * schedule shrinks the budget. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- packing into passes ---------------------------------------------- */

/* Put event i into pass pi, in the group of its PMU (same kind and type;
 * CPU-wide groups apart), or a new group; unavailable with why_full when the
 * pass has no group left. */
static void place_by_pmu(mp_pmu_plan *pl, unsigned pi, unsigned i, const char *why_full)
{
    mp__passdef *pd = &pl->pass[pi];
    mp__event *ev = &pl->ev[i];
    unsigned gi;
    for (gi = 0; gi < pd->ngroups; gi++) {
        const mp__event *lead = &pl->ev[pd->g[gi].ev[0]];
        if (pd->g[gi].kind == ev->kind && lead->attr.type == ev->attr.type &&
            pd->g[gi].cpu_wide == ev->cpu_wide && pd->g[gi].nev < MP_PMU_MAX_COUNTERS)
            break;
    }
    if (gi == pd->ngroups) {
        if (pd->ngroups >= MP_PMU_MAX_GROUPS) {
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "counter budget: more than %d %s",
                     MP_PMU_MAX_GROUPS, why_full);
            return;
        }
        pd->g[gi].kind = ev->kind;
        pd->g[gi].cpu_wide = ev->cpu_wide;
        pd->ngroups++;
    }
    ev->pass = (int)pi;
    ev->group = (int)gi;
    pd->g[gi].ev[pd->g[gi].nev++] = i;
}

/* CPU-wide events: a pass of their own after the others, one group per PMU,
 * opened on the measured thread's CPU and read with read().  They cannot
 * join a per-thread group, and a pass of their own keeps the per-thread
 * counts when they cannot open (an unpinned thread, privilege gone). */
static int pack_cpu_wide(mp_pmu_plan *pl)
{
    unsigned pi = pl->npasses;
    for (unsigned i = 0; i < pl->nev; i++) {
        mp__event *ev = &pl->ev[i];
        if (!ev->available || !ev->cpu_wide) continue;
        if (pi >= MP__MAX_PASSES) {
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "counter budget: no pass left for "
                     "CPU-wide events (at most %d passes)", MP__MAX_PASSES);
            continue;
        }
        place_by_pmu(pl, pi, i, "CPU-wide PMUs");
    }
    if (pi < MP__MAX_PASSES && pl->pass[pi].ngroups) pl->npasses = pi + 1;
    return 0;
}

int mp__plan_pack(mp_pmu_plan *pl, mp_err *err)
{
    unsigned general = pl->budget_general, fixed = pl->budget_fixed;
    mp__passdef *p0;
    if (pl->host.nmi_watchdog && general > 1) general--;
    if (general == 0) general = 1;
    snprintf(pl->budget_note, sizeof pl->budget_note, "%u general + %u fixed counters per "
             "pass (%s data file%s)", general, fixed, pl->model,
             pl->host.nmi_watchdog ? ", one general counter left to the NMI watchdog" : "");
    pl->npasses = 0;
    memset(pl->pass, 0, sizeof pl->pass);

    /* Pass 0: the software group, then other PMUs' groups (read() anyway). */
    p0 = &pl->pass[0];
    for (unsigned i = 0; i < pl->nev; i++)
        if (pl->ev[i].available && pl->ev[i].kind != MP__KIND_CORE && !pl->ev[i].cpu_wide)
            place_by_pmu(pl, 0, i, "software/other-PMU groups in one pass");
    if (p0->ngroups) pl->npasses = 1;

    /* Core events: one group per pass, within the budget. */
    for (;;) {
        unsigned used_g = 0, used_f = 0, placed = 0, pi = pl->npasses;
        mp__group *g;
        int pending = 0;
        for (unsigned i = 0; i < pl->nev; i++)
            if (pl->ev[i].available && pl->ev[i].kind == MP__KIND_CORE && pl->ev[i].pass < 0)
                pending = 1;
        if (!pending) break;
        if (pi >= MP__MAX_PASSES) {
            for (unsigned i = 0; i < pl->nev; i++)
                if (pl->ev[i].available && pl->ev[i].kind == MP__KIND_CORE &&
                    pl->ev[i].pass < 0) {
                    pl->ev[i].available = 0;
                    snprintf(pl->ev[i].reason, sizeof pl->ev[i].reason, "counter budget: "
                             "does not fit in %d passes of %u counters", MP__MAX_PASSES,
                             general + fixed);
                }
            break;
        }
        g = &pl->pass[pi].g[0];
        g->kind = MP__KIND_CORE;
        for (unsigned i = 0; i < pl->nev; i++) {
            mp__event *ev = &pl->ev[i];
            if (!ev->available || ev->kind != MP__KIND_CORE || ev->pass >= 0) continue;
            if (g->nev >= MP_PMU_MAX_COUNTERS) break;
            if (ev->fixed && used_f < fixed) used_f++;
            else if (used_g < general) used_g++;
            else continue;
            ev->pass = (int)pi;
            ev->group = 0;
            g->ev[g->nev++] = i;
            placed++;
        }
        if (!placed)
            return mp_errf(err, -EIO, "internal: could not place core events in a pass");
        pl->pass[pi].ngroups = 1;
        pl->npasses++;
    }
    return pack_cpu_wide(pl);
}

/* ---- does each core pass really schedule? ------------------------------ */

/* 0: the pass ran; 1: it opened but never ran; <0: it did not open. */
static int try_pass(mp_pmu_plan *pl, unsigned pi)
{
    mp_pmu_pass *p;
    mp_pmu_snap a, b;
    volatile unsigned long sink = 0;
    int r;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if ((r = mp_pmu_pass_open(&p, pl, pi, NULL))) return r;
    for (unsigned g = 0, i = 0; g < pl->pass[pi].ngroups; g++)
        for (unsigned k = 0; k < pl->pass[pi].g[g].nev; k++, i++)
            snprintf(pl->ev[pl->pass[pi].g[g].ev[k]].access, sizeof pl->ev[0].access, "%s",
                     mp_pmu_pass_access(p, i));
    r = mp_pmu_pass_read(p, &a);
    for (unsigned long i = 0; i < 20000 && !r; i++) sink += i;
    if (!r) r = mp_pmu_pass_read(p, &b);
    (void)sink;
    mp_pmu_pass_close(p);
    if (r) return r;
    for (unsigned g = 0; g < pl->pass[pi].ngroups; g++)
        if (b.enabled_ns[g] > a.enabled_ns[g] && b.running_ns[g] == a.running_ns[g]) return 1;
    return 0;
}

static int core_pass(const mp_pmu_plan *pl, unsigned pi)
{
    return pl->pass[pi].ngroups && pl->pass[pi].g[0].kind == MP__KIND_CORE;
}

/* A group larger than the free counters opens but never runs (or gives
 * EINVAL): shrink the budget and re-pack; at one counter, give up on the
 * pass's events and say why. */
int mp__verify_passes(mp_pmu_plan *pl, mp_err *err)
{
    unsigned file_budget = pl->budget_general;
    for (int attempt = 0; attempt < 16; attempt++) {
        int bad = -1, r = 0;
        for (unsigned pi = 0; pi < pl->npasses && bad < 0; pi++)
            if (core_pass(pl, pi) && (r = try_pass(pl, pi)) != 0) bad = (int)pi;
        if (bad < 0) {
            if (pl->budget_general < file_budget) {
                size_t l = strlen(pl->budget_note);
                snprintf(pl->budget_note + l, sizeof pl->budget_note - l, "; reduced from "
                         "%u: a larger group did not schedule", file_budget);
            }
            return 0;
        }
        if (pl->budget_general > 1 && pl->pass[bad].g[0].nev > 1) {
            pl->budget_general--;
        } else {
            const mp__group *g = &pl->pass[bad].g[0];
            for (unsigned k = 0; k < g->nev; k++) {
                mp__event *ev = &pl->ev[g->ev[k]];
                ev->available = 0;
                if (r == 1)
                    snprintf(ev->reason, sizeof ev->reason, "counter budget: the group "
                             "opened but never ran (time_running stayed 0): no free "
                             "counter (the NMI watchdog or another perf user holds them)");
                else
                    mp_pmu_classify(-r, &pl->host, 1, !ev->attr.exclude_kernel,
                                    ev->reason, sizeof ev->reason);
            }
        }
        for (unsigned i = 0; i < pl->nev; i++) pl->ev[i].pass = pl->ev[i].group = -1;
        if ((r = mp__plan_pack(pl, err))) return r;
    }
    return 0;
}
