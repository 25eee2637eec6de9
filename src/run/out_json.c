/* out_json.c - results.json through cJSON (schema: docs/results-schema.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/duration.h"
#include "common/file.h"
#include "run/context.h"
#include "run/results.h"
#include "results/schema.h"

static cJSON *config_json(const mp_run_config *c)
{
    cJSON *o = cJSON_CreateObject(), *a;
    a = cJSON_AddArrayToObject(o, "backends");
    for (int i = 0; i < c->nbackends; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(c->backends[i]->name));
    a = cJSON_AddArrayToObject(o, "fds");
    for (int i = 0; i < c->ncounts; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(c->fds[i]));
    a = cJSON_AddArrayToObject(o, "active");
    for (int i = 0; i < c->nactives; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(c->actives[i]));
    a = cJSON_AddArrayToObject(o, "modes");
    for (int i = 0; i < c->nmodes; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(mp_mode_name(c->modes[i])));
    a = cJSON_AddArrayToObject(o, "wake_delays_ns");
    for (int i = 0; i < (c->nwake_delays ? c->nwake_delays : 1); i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(c->nwake_delays ? c->wake_delays_ns[i] : 0));
    a = cJSON_AddArrayToObject(o, "fd_kinds");
    for (int i = 0; i < c->nkinds; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(mp_fd_kind_name(c->kinds[i])));
    cJSON_AddStringToObject(o, "fd_kind", mp_fd_kind_name(c->kinds[0]));
    a = cJSON_AddArrayToObject(o, "fd_table");
    for (int i = 0; i < c->nfd_tables; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(mp_fd_table_name(c->fd_tables[i])));
    cJSON_AddNumberToObject(o, "samples", c->samples);
    cJSON_AddNumberToObject(o, "repeats", c->repeats);
    cJSON_AddNumberToObject(o, "warmup", c->warmup);
    cJSON_AddStringToObject(o, "ready_pos", mp_ready_pos_name(c->ready_pos));
    cJSON_AddStringToObject(o, "repeat_order", mp_repeat_order_name(c->repeat_order));
    cJSON_AddStringToObject(o, "events", c->events);
    cJSON_AddStringToObject(o, "placement", c->placement);
    cJSON_AddBoolToObject(o, "quick", c->quick);
    a = cJSON_AddArrayToObject(o, "experiments");
    for (int i = 0; i < c->nexperiments; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(c->experiment_names[i]));
    cJSON_AddNumberToObject(o, "waiters", c->waiters);
    cJSON_AddBoolToObject(o, "profile", c->profile);
    cJSON_AddBoolToObject(o, "anonymize", c->anonymize);
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
    cJSON *h = cJSON_CreateObject();
    cJSON_AddStringToObject(h, "schema", MP_RESULTS_SCHEMA);
    cJSON_AddItemToObject(h, "tool", mp_res_tool_json());
    cJSON_AddStringToObject(h, "started_utc", r->started_utc);
    cJSON_AddItemToObject(h, "context", dup_or_empty(r->context));
    cJSON_AddItemToObject(h, "topology", dup_or_empty(r->topology));
    cJSON_AddItemToObject(h, "counters", dup_or_empty(r->counters));
    cJSON_AddItemToObject(h, "config", config_json(r->cfg));
    cJSON_AddItemToObject(h, "calibration", calibration_json(r));
    return h;
}

cJSON *mp_results_tail_json(const mp_results *r)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "status", mp_results_status(r));
    if (r->interrupted && r->interrupted_cell >= 0 && (size_t)r->interrupted_cell < r->ncells) {
        const mp_cell *c = &r->cells[r->interrupted_cell];
        char buf[160];
        char d[32] = "";
        if (c->wake_delay_ns > 0)
            snprintf(d, sizeof d, " asleep %s", mp_duration_fmt((char[24]){0}, 24,
                                                                c->wake_delay_ns));
        snprintf(buf, sizeof buf, "%s %s %s N=%d%s", c->backend->name,
                 mp_fd_kind_name(c->kind), mp_mode_name(c->mode), c->nfds, d);
        cJSON_AddStringToObject(t, "interrupted_cell", buf);
    } else if (r->interrupted && r->interrupted_what[0]) {
        cJSON_AddStringToObject(t, "interrupted_cell", r->interrupted_what);
    }
    if (r->interrupted)
        cJSON_AddNumberToObject(t, "interrupted_signal", r->interrupted);
    cJSON_AddStringToObject(t, "finished_utc", r->finished_utc);
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
    cJSON *root = cJSON_CreateObject();
    copy_key(root, head, "schema");
    copy_key(root, head, "tool");
    if (tail) {
        copy_key(root, tail, "status");
        copy_key(root, tail, "interrupted_cell");
        copy_key(root, tail, "interrupted_signal");
    } else {
        cJSON_AddStringToObject(root, "status", "interrupted");
    }
    if (recovered)
        cJSON_AddItemToObject(root, "recovered", cJSON_Duplicate(recovered, 1));
    copy_key(root, head, "started_utc");
    if (tail)
        copy_key(root, tail, "finished_utc");
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
    char *text = cJSON_Print(root);
    if (!text)
        return mp_errf(err, -ENOMEM, "out of memory while writing results.json");
    int rc = mp_write_file(dir, "results.json", text, strlen(text), err);
    free(text);
    return rc;
}
