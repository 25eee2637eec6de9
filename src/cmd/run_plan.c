/* SPDX-License-Identifier: MIT */
/* run_plan.c - `muxprof run --dry-run`: the plan of a run, with nothing
 * measured and nothing written: the cells in sweep order, the passes and
 * their order, the counters as `muxprof events` shows them (each pass opened
 * and closed again, as events does), the placement, and an estimate of the
 * time from a cost model of one call.  The options were checked as for a
 * run before this is called. */
#include <stdio.h>

#include "cmd/internal.h"
#include "common/duration.h"
#include "pmu/pmu.h"
#include "run/config.h"
#include "run/measure.h"
#include "run/results.h"

/* The cost model of the estimate: one sample (a timed call and what
 * brackets it) by mode and N, a block's warm-up, a profile pass, and
 * building a descriptor set.  The per-call costs are poll's medians over
 * pipes (a call that scans its N fds) in README.md's default run on the
 * development VM (2 CPUs, idle), a wakeup sample with about 20 us of
 * handshake on top; with them that default sweep comes to 18 s, against
 * the 17 s it took. */
#define READY_CALL_NS 500.0      /* a ready call ... */
#define READY_PER_FD_NS 40.0     /* ... and each fd it watches */
#define WAKE_SAMPLE_NS 35e3      /* a wakeup sample: the waiter seen asleep, poked, woken */
#define WAKE_PER_FD_NS 130.0     /* ... and each fd it watches */
#define WARMUP_MIN_NS 2e6        /* each block warms up for at least 2 ms */
#define PROFILE_NS 0.5e9         /* one cell's profile pass */
#define SET_PER_FD_NS 10e3       /* building a set: each fd, its far end sent to the helper */

static const char *about(char *buf, size_t len, double s)
{
    if (s < 60)
        snprintf(buf, len, "%.0f s", s < 1 ? 1 : s);
    else if (s < 3600)
        snprintf(buf, len, "%d min %02d s", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, len, "%d h %02d min", (int)(s / 3600), (int)(s / 60) % 60);
    return buf;
}

static void print_cells(const mp_run_config *cfg, const mp_results *r)
{
    if (!r->ncells) {
        printf("cells: none (the per-call sweep, --experiment calls, is not asked for)\n");
        return;
    }
    printf("cells: %zu (fd kind x N x K x mode x fd table x backend), in the order measured:\n",
           r->ncells);
    for (size_t i = 0; i < r->ncells; i++) {
        char name[160];
        printf("  %5zu  %s", i + 1, mp_cell_name(&r->cells[i], name, sizeof name));
        if (cfg->nfd_tables > 1)
            printf(", fd table %s", mp_fd_table_name(r->cells[i].fd_table));
        putchar('\n');
    }
}

static void print_experiments(const mp_run_config *cfg)
{
    if (cfg->nexperiments == 1 && (cfg->experiments & MP_EXP_CALLS))
        return;
    printf("\nexperiments:");
    for (int i = 0; i < cfg->nexperiments; i++)
        printf("%s %s", i ? "," : "", cfg->experiment_names[i]);
    printf(" (those other than calls run after the sweep and are not in the estimate)\n");
}

/* "pass 3" or "passes 3-5". */
static const char *passes(char *buf, size_t len, long lo, long hi)
{
    if (lo == hi)
        snprintf(buf, len, "pass %ld", lo);
    else
        snprintf(buf, len, "passes %ld-%ld", lo, hi);
    return buf;
}

/* The passes as the progress line numbers them, and their order. */
static void print_passes(const mp_run_config *cfg, const mp_pmu_plan *plan)
{
    size_t units = mp_run_units_per_cell(cfg, plan);
    long R = cfg->repeats, np = (long)mp_pmu_plan_passes(plan);
    char a[48], b[48];
    printf("\npasses per cell: %zu, as the progress line counts them\n", units);
    printf("  %s: timing repeats, --samples %d calls each\n", passes(a, sizeof a, 1, R),
           cfg->samples);
    if (np)
        printf("  %s: counter pass%s (%s under counters below), --samples calls each\n",
               passes(a, sizeof a, R + 1, R + np), np > 1 ? "es" : "",
               passes(b, sizeof b, 0, np - 1));
    if (cfg->profile)
        printf("  pass %zu: the profile pass (--profile)\n", units);
    const char *after = np && cfg->profile ? "counter passes and profile pass"
                        : np ? "counter passes" : cfg->profile ? "profile pass" : NULL;
    if (cfg->repeat_order == MP_REPEATS_PASSES)
        printf("order (--repeat-order passes): each timing pass takes one repeat of every\n"
               "  cell in the order above; each fd kind and N gets a descriptor set built\n"
               "  afresh, on which its backends run one after another, their order rotated\n"
               "  by one from pass to pass%s%s%s\n", after ? "; in the last timing pass each "
               "cell's\n  " : "", after ? after : "", after ? " follow its last repeat" : "");
    else
        printf("order (--repeat-order back-to-back): the cells in the order above, each fd\n"
               "  kind and N on one descriptor set: a cell's %ld repeats one after another\n"
               "  (its backends interleaved, their order rotated by one per repeat)%s%s\n", R,
               after ? ", then its " : "", after ? after : "");
}

/* The counters as `muxprof events --events SPEC` shows them. */
static void print_counters(const mp_run_config *cfg, const mp_pmu_plan *plan)
{
    cJSON *j = mp__events_plan_json(plan);
    printf("\ncounters (--events %s, as `muxprof events --events %s` shows them;\n"
           "  each pass opened and closed again now):\n", cfg->events, cfg->events);
    if (j)
        mp__events_plan_print(stdout, j);
    cJSON_Delete(j);
}

/* The model's seconds for the per-call sweep. */
static double estimate_s(const mp_run_config *cfg, const mp_pmu_plan *plan, const mp_results *r)
{
    double blocks = (double)cfg->repeats + mp_pmu_plan_passes(plan), ns = 0;
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        double call = c->mode == MP_MODE_READY
                          ? READY_CALL_NS + READY_PER_FD_NS * c->nfds
                          : WAKE_SAMPLE_NS + WAKE_PER_FD_NS * c->nfds + (double)MP_CELL_DELAY(c);
        double warm = cfg->warmup * call;
        ns += blocks * ((warm > WARMUP_MIN_NS ? warm : WARMUP_MIN_NS) + cfg->samples * call);
        ns += cfg->profile ? PROFILE_NS : 0;
    }
    double sets = r->ncells ? (cfg->repeat_order == MP_REPEATS_PASSES ? cfg->repeats : 1) : 0;
    for (int k = 0; k < cfg->nkinds; k++)
        for (int n = 0; n < cfg->ncounts; n++)
            ns += sets * SET_PER_FD_NS * cfg->fds[n];
    return ns / 1e9;
}

int mp__run_dry(const mp_run_config *cfg, const mp_pmu_plan *plan, const mp_pu_pair *pair)
{
    mp_results r;
    mp_err err;
    if (mp_results_init(&r, cfg, &err)) {
        fprintf(stderr, "muxprof run: %s\n", err.msg);
        return 1;
    }
    char t[48];
    printf("muxprof run --dry-run: the plan of this run; nothing is measured or written\n\n");
    print_cells(cfg, &r);
    print_experiments(cfg);
    print_passes(cfg, plan);
    print_counters(cfg, plan);
    mp__run_print_placement(pair, 1, stdout);
    printf("\nrun directory: %s (not created)\n",
           cfg->out_dir[0] ? cfg->out_dir : "reports/runs/<host>-<UTC stamp>");
    char d[7][24];
    printf("\nestimated time: about %s for the per-call sweep (an estimate, not a measurement)\n"
           "  how: per cell, each timing repeat and counter pass is a block of --warmup\n"
           "  and --samples calls (at least %s of warm-up), at a modelled cost per\n"
           "  call of %s + %s per watched fd in ready mode and %s + %s\n"
           "  per watched fd + the wake delay in wakeup mode; a profile pass %s;\n"
           "  each descriptor set built at %s per fd.  The costs are poll's over\n"
           "  pipes on an idle 2-core VM: epoll's calls do not grow with N, cells found\n"
           "  unsupported take no time, and a loaded or another host may be several\n"
           "  times slower or faster.\n", about(t, sizeof t, estimate_s(cfg, plan, &r)),
           mp_duration_fmt(d[0], sizeof d[0], (long long)WARMUP_MIN_NS),
           mp_duration_fmt(d[1], sizeof d[1], (long long)READY_CALL_NS),
           mp_duration_fmt(d[2], sizeof d[2], (long long)READY_PER_FD_NS),
           mp_duration_fmt(d[3], sizeof d[3], (long long)WAKE_SAMPLE_NS),
           mp_duration_fmt(d[4], sizeof d[4], (long long)WAKE_PER_FD_NS),
           mp_duration_fmt(d[5], sizeof d[5], (long long)PROFILE_NS),
           mp_duration_fmt(d[6], sizeof d[6], (long long)SET_PER_FD_NS));
    if (!cfg->no_wait && cfg->settle_max_s > 0)
        printf("  Before it, up to %.0f s waiting for a busy host to settle (--settle-max;\n"
               "  on a quiet host a quarter of a second).\n", cfg->settle_max_s);
    mp_results_free(&r);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
