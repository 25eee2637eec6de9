/* SPDX-License-Identifier: MIT */
/* out_json.c - results.json through cJSON (schema: docs/results-schema.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/duration.h"
#include "common/json.h"
#include "results/limits.h"
#include "common/file.h"
#include "run/context.h"
#include "run/results.h"
#include "results/counters.h"
#include "results/schema.h"
#include "results/top.h"

cJSON *mp_counters_json(const mp_pmu_plan *plan)
{
    mp_pmu_plan_info info;
    mp_rcounters c;
    mp_pmu_plan_describe(plan, &info);
    memset(&c, 0, sizeof c);
    c.spec = info.spec;
    c.preset = info.preset;
    c.scope = info.scope;
    c.scope_note = info.scope_note;
    c.passes = info.passes;
    c.planned = info.planned;
    c.preset_file = info.preset_file;
    c.preset_source = info.preset_source;
    c.libpfm4_pmu = info.libpfm4_pmu;
    c.budget = (mp_rbudget){info.budget_general, info.budget_fixed, info.nmi_watchdog,
                            info.budget_note};
    for (unsigned i = 0; i < info.nsoftware_added && i < MP_RCNT_MAX_SOFTWARE; i++)
        c.software_added[c.nsoftware_added++] = info.software_added[i];
    c.software_why = info.software_why;
    mp_rcounter_event *ev = calloc(info.nevents ? info.nevents : 1, sizeof *ev);
    if (!ev)
        return NULL;
    for (unsigned i = 0; i < info.nevents; i++) {
        mp_pmu_event_info e;
        mp_pmu_plan_event(plan, i, &e);
        ev[i] = (mp_rcounter_event){
            .name = e.name, .event = e.event, .origin = e.origin, .encoded = e.encoded,
            .pmu = e.pmu, .encoding = e.encoding, .type = e.type, .config = e.config,
            .config1 = e.config1, .exclude_user = e.exclude_user,
            .exclude_kernel = e.exclude_kernel, .exclude_hv = e.exclude_hv, .scope = e.scope,
            .unit = e.unit, .cpu_wide = e.cpu_wide, .cpu_scope = e.cpu_scope, .opened = e.opened,
            .pass = e.pass, .group = e.group, .access = e.access, .reason = e.reason};
    }
    c.events = ev;
    c.nevents = info.nevents;
    cJSON *o = mp_rcounters_json(&c);
    free(ev);
    return o;
}

/* The cell as results.json holds it (results/cell.h). */
static void cell_record(const mp_cell *c, int repeats, mp_rcell *rec)
{
    memset(rec, 0, sizeof *rec);
    snprintf(rec->backend, sizeof rec->backend, "%s", c->backend->name);
    snprintf(rec->syscall, sizeof rec->syscall, "%s", mp_backend_syscall(c->backend));
    snprintf(rec->fd_kind, sizeof rec->fd_kind, "%s", mp_fd_kind_name(c->kind));
    snprintf(rec->mode, sizeof rec->mode, "%s", mp_mode_name(c->mode));
    rec->nfds = c->nfds;
    rec->active = c->active;
    rec->wake_delay_ns = c->wake_delay_ns;
    rec->status = c->status;
    snprintf(rec->reason, sizeof rec->reason, "%s", c->reason);
    rec->fd_lo = c->fd_lo;
    rec->fd_hi = c->fd_hi;
    rec->ready_fd = c->ready_fd;
    snprintf(rec->fd_table, sizeof rec->fd_table, "%s", mp_fd_table_name(c->fd_table));
    rec->process_threads = c->process_threads;
    rec->watch_sets = c->watch_sets;
    rec->rl_soft = c->rl_soft;
    rec->rl_hard = c->rl_hard;
    rec->samples_kept = (long long)c->kept;
    rec->samples_discarded = (long long)c->discarded;
    rec->samples_stopped = (long long)c->stopped;
    /* not read in ready mode: it would take a system call between the timed calls */
    rec->samples_preempted = c->mode == MP_MODE_WAKEUP ? (long long)c->preempted : -1;
    rec->repeat_medians = c->repeat_medians;
    rec->nrepeats = c->status == MP_CELL_OK ? (size_t)repeats : 0;
    rec->ci_kind = MP_CI_REPEATS;
    rec->ci_lo = c->p50_ci_lo;
    rec->ci_hi = c->p50_ci_hi;
    rec->ci_level = c->p50_ci_level;
    rec->empty_bracket_ns = c->empty_bracket_ns;
    rec->bare_loop_ns = rec->bare_loop_mean_ns = NAN;
    if (c->status == MP_CELL_OK && c->mode == MP_MODE_READY) {
        double tmp[MP_REPEATS_MAX], sum = 0;
        size_t n = 0;
        for (int i = 0; i < repeats; i++)   /* NaN: a repeat that did not run */
            if (!isnan(c->bare_loop[i]) && !isnan(c->bare_loop_mean[i])) {
                tmp[n++] = c->bare_loop[i];
                sum += c->bare_loop_mean[i];
            }
        if (n) {
            rec->bare_loop_ns = mp_median(tmp, n);
            rec->bare_loop_mean_ns = sum / (double)n;
        }
    }
    rec->metrics = c->metrics;
    rec->nmetrics = c->nmetrics;
    rec->profile = c->profile;
}

cJSON *mp_cell_json(const mp_cell *c, int repeats)
{
    mp_rcell rec;
    cell_record(c, repeats, &rec);
    return mp_rcell_json(&rec);
}

/* The part of "calibration" known before the sweep; "bare_loop" is added
 * from the cells when results.json is assembled. */
static cJSON *calibration_json(const mp_results *r)
{
    cJSON *o = cJSON_CreateObject();
    char clock[192];
    cJSON_AddStringToObject(o, "clock", mp_clock_label(clock, sizeof clock));
    cJSON_AddItemToObject(o, "empty_bracket_ns", mp_summary_json(&r->empty_bracket));
    cJSON_AddStringToObject(o, "subtracted",
                            "ready mode: from every wall_ns sample, the cell's own "
                            "empty_bracket_ns (the median of an empty clock bracket measured "
                            "just before each of its timing blocks, median over repeats); "
                            "empty_bracket_ns here is the run's start-up figure, for reference; "
                            "wakeup mode: nothing");
    return o;
}

/* calibration.bare_loop: each ok ready cell's bare_loop_ns. */
static cJSON *bare_loop_json(const cJSON *cells)
{
    cJSON *a = cJSON_CreateArray();
    const cJSON *c;
    cJSON_ArrayForEach(c, cells) {
        const cJSON *ns = cJSON_GetObjectItemCaseSensitive(c, "bare_loop_ns");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
        const cJSON *mode = cJSON_GetObjectItemCaseSensitive(c, "mode");
        if (!cJSON_IsNumber(ns) || !cJSON_IsString(st) || strcmp(st->valuestring, "ok") ||
            !cJSON_IsString(mode) || strcmp(mode->valuestring, "ready"))
            continue;
        cJSON *e = cJSON_CreateObject();
        static const char *keys[] = {"backend", "fd_kind", "nfds"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, keys[k]);
            if (v)
                cJSON_AddItemToObject(e, keys[k], cJSON_Duplicate(v, 1));
        }
        cJSON_AddNumberToObject(e, "ns_per_call", ns->valuedouble);
        cJSON_AddItemToArray(a, e);
    }
    return a;
}

static cJSON *dup_or_empty(const cJSON *o)
{
    return o ? cJSON_Duplicate(o, 1) : cJSON_CreateObject();
}

cJSON *mp_results_head_json(const mp_results *r)
{
    mp_rrun top = {.schema = MP_RESULTS_SCHEMA, .has_tool = 1, .tool = mp_rtool_this(),
                   .started_utc = r->started_utc};
    cJSON *h = mp_rrun_json(&top);
    cJSON_AddItemToObject(h, "context", dup_or_empty(r->context));
    cJSON_AddItemToObject(h, "topology", dup_or_empty(r->topology));
    cJSON_AddItemToObject(h, "counters", dup_or_empty(r->counters));
    cJSON_AddItemToObject(h, "config", mp_run_config_json(r->cfg));
    cJSON_AddItemToObject(h, "calibration", calibration_json(r));
    return h;
}

/* The cell, or what else, that a signal interrupted, into buf ("" when none). */
static const char *interrupted_what(const mp_results *r, char *buf, size_t len)
{
    buf[0] = 0;
    if (r->interrupted && r->interrupted_cell >= 0 && (size_t)r->interrupted_cell < r->ncells) {
        const mp_cell *c = &r->cells[r->interrupted_cell];
        char d[32] = "";
        if (c->wake_delay_ns > 0)
            snprintf(d, sizeof d, " asleep %s", mp_duration_fmt((char[24]){0}, 24,
                                                                c->wake_delay_ns));
        snprintf(buf, len, "%s %s %s N=%d%s", c->backend->name, mp_fd_kind_name(c->kind),
                 mp_mode_name(c->mode), c->nfds, d);
    } else if (r->interrupted) {
        snprintf(buf, len, "%s", r->interrupted_what);
    }
    return buf;
}

/* The tail carries context.noise for the assembler, which puts it in context. */
cJSON *mp_results_tail_json(const mp_results *r)
{
    char what[160];
    mp_rrun top = {.status = mp_results_status(r),
                   .interrupted_cell = interrupted_what(r, what, sizeof what),
                   .interrupted_signal = r->interrupted, .finished_utc = r->finished_utc};
    cJSON *t = mp_rrun_json(&top);
    const cJSON *noise = cJSON_GetObjectItemCaseSensitive(r->context, "noise");
    if (noise)
        cJSON_AddItemToObject(t, "noise", cJSON_Duplicate(noise, 1));
    return t;
}

/* Copy key from src to dst when src has it. */
static void copy_key(cJSON *dst, const cJSON *src, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, key);
    if (v)
        cJSON_AddItemToObject(dst, key, cJSON_Duplicate(v, 1));
}

cJSON *mp_results_assemble(const cJSON *head, const cJSON *tail, const cJSON *experiments,
                           const cJSON *cells, const cJSON *recovered)
{
    mp_rrun top, end;
    mp_rrun_read(head, &top);
    mp_rrun_read(tail, &end);
    top.status = tail ? end.status : "interrupted";
    top.interrupted_cell = end.interrupted_cell;
    top.interrupted_signal = end.interrupted_signal;
    top.finished_utc = end.finished_utc;
    top.recovered = recovered;
    cJSON *root = mp_rrun_json(&top);
    cJSON *ctx = dup_or_empty(cJSON_GetObjectItemCaseSensitive(head, "context"));
    if (tail)
        copy_key(ctx, tail, "noise");
    cJSON_AddItemToObject(root, "context", ctx);
    cJSON_AddItemToObject(root, "topology",
                          dup_or_empty(cJSON_GetObjectItemCaseSensitive(head, "topology")));
    cJSON_AddItemToObject(root, "counters",
                          dup_or_empty(cJSON_GetObjectItemCaseSensitive(head, "counters")));
    copy_key(root, head, "config");
    cJSON *cal = dup_or_empty(cJSON_GetObjectItemCaseSensitive(head, "calibration"));
    cJSON_AddItemToObject(cal, "bare_loop", bare_loop_json(cells));
    cJSON_AddItemToObject(root, "calibration", cal);
    if (experiments)
        cJSON_AddItemToObject(root, "experiments", cJSON_Duplicate(experiments, 1));
    /* Cells never reached (an interrupted run) are not among them: results[]
     * holds what was measured, "interrupted_cell" names where it stopped. */
    cJSON_AddItemToObject(root, "results",
                          cells ? cJSON_Duplicate(cells, 1) : cJSON_CreateArray());
    return root;
}

int mp_write_results_json(const cJSON *root, mp_dir *dir, mp_err *err)
{
    char *text = mp_json_print(root, 1);
    if (!text)
        return mp_errf(err, -ENOMEM, "out of memory while writing results.json");
    size_t len = strlen(text);
    int rc = len > MP_RESULTS_MAX_BYTES
                 ? mp_errf(err, -EFBIG, "results.json would be %zu bytes (%zu MiB), over the %u "
                           "MiB `muxprof report` reads; nothing written (split the run)", len,
                           len >> 20, MP_RESULTS_MAX_BYTES >> 20)
                 : mp_write_file(dir, "results.json", text, len, err);
    free(text);
    return rc;
}
