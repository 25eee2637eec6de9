/* out_json.c - results.json through cJSON (schema: docs/results-schema.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/version.h"
#include "run/context.h"
#include "run/results.h"

cJSON *mp_summary_json(const mp_summary *s)
{
    cJSON *o = cJSON_CreateObject();
    if (s->n == 0) {   /* nothing measured: null, never zeros */
        const char *keys[] = {"p10", "p50", "p90", "p99", "mean", "min", "max", "stddev"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            cJSON_AddNullToObject(o, keys[i]);
        cJSON_AddNumberToObject(o, "n", 0);
        return o;
    }
    cJSON_AddNumberToObject(o, "p10", s->p10);
    cJSON_AddNumberToObject(o, "p50", s->p50);
    cJSON_AddNumberToObject(o, "p90", s->p90);
    cJSON_AddNumberToObject(o, "p99", s->p99);
    cJSON_AddNumberToObject(o, "mean", s->mean);
    cJSON_AddNumberToObject(o, "min", s->min);
    cJSON_AddNumberToObject(o, "max", s->max);
    cJSON_AddNumberToObject(o, "stddev", s->stddev);
    cJSON_AddNumberToObject(o, "n", (double)s->n);
    return o;
}

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

cJSON *mp_cell_json(const mp_cell *c, int repeats)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "backend", c->backend->name);
    cJSON_AddStringToObject(o, "syscall", mp_backend_syscall(c->backend));
    cJSON_AddStringToObject(o, "fd_kind", mp_fd_kind_name(c->kind));
    cJSON_AddStringToObject(o, "mode", mp_mode_name(c->mode));
    cJSON_AddNumberToObject(o, "nfds", c->nfds);
    cJSON_AddNumberToObject(o, "active", c->active);
    cJSON_AddStringToObject(o, "status", mp_cell_status_name(c->status));
    if (c->reason[0])
        cJSON_AddStringToObject(o, "reason", c->reason);
    else
        cJSON_AddNullToObject(o, "reason");
    if (c->fd_lo >= 0) {
        cJSON_AddNumberToObject(o, "fd_lo", c->fd_lo);
        cJSON_AddNumberToObject(o, "fd_hi", c->fd_hi);
        cJSON_AddNumberToObject(o, "ready_fd", c->ready_fd);
    }
    cJSON_AddStringToObject(o, "fd_table", mp_fd_table_name(c->fd_table));
    if (c->process_threads > 0)
        cJSON_AddNumberToObject(o, "process_threads", c->process_threads);
    else
        cJSON_AddNullToObject(o, "process_threads");
    if (c->watch_sets >= 0)
        cJSON_AddNumberToObject(o, "watch_sets", c->watch_sets);
    else
        cJSON_AddNullToObject(o, "watch_sets");
    cJSON *rl = cJSON_AddObjectToObject(o, "rlimit_nofile");
    cJSON_AddNumberToObject(rl, "soft", (double)c->rl_soft);
    cJSON_AddNumberToObject(rl, "hard", (double)c->rl_hard);
    if (c->status != MP_CELL_OK)
        return o;

    cJSON_AddNumberToObject(o, "samples_kept", (double)c->kept);
    cJSON_AddNumberToObject(o, "samples_discarded", (double)c->discarded);
    cJSON_AddNumberToObject(o, "samples_stopped", (double)c->stopped);
    if (c->mode == MP_MODE_WAKEUP)
        cJSON_AddNumberToObject(o, "samples_preempted", (double)c->preempted);
    else   /* not read: it would take a system call between the timed calls */
        cJSON_AddNullToObject(o, "samples_preempted");
    cJSON *a = cJSON_AddArrayToObject(o, "repeat_medians_ns");
    double tmp[MP_REPEATS_MAX];
    size_t nrep = 0;
    for (int i = 0; i < repeats; i++) {
        if (isnan(c->repeat_medians[i])) {   /* no sample kept in that repeat */
            cJSON_AddItemToArray(a, cJSON_CreateNull());
            continue;
        }
        cJSON_AddItemToArray(a, cJSON_CreateNumber(c->repeat_medians[i]));
        tmp[nrep++] = c->repeat_medians[i];
    }
    /* The repeat medians are of wall_ns (ready mode: the bracket subtracted);
     * files without this field hold medians of wall_raw_ns. */
    cJSON_AddStringToObject(o, "repeat_medians_of", "wall_ns");
    mp_summary rs;
    mp_summarize(tmp, nrep, &rs);
    cJSON *sp = cJSON_AddObjectToObject(o, "repeat_spread_ns");
    cJSON_AddNumberToObject(sp, "median", rs.p50);
    cJSON_AddNumberToObject(sp, "min", rs.min);
    cJSON_AddNumberToObject(sp, "max", rs.max);
    if (isfinite(c->p50_ci_lo) && isfinite(c->p50_ci_hi)) {
        cJSON *ci = cJSON_AddObjectToObject(o, "wall_p50_ci95_ns");
        cJSON_AddNumberToObject(ci, "lo", c->p50_ci_lo);
        cJSON_AddNumberToObject(ci, "hi", c->p50_ci_hi);
        cJSON_AddStringToObject(ci, "method", MP_CI_METHOD);
        cJSON_AddNumberToObject(ci, "level", c->p50_ci_level);
        cJSON_AddNumberToObject(ci, "repeats", (double)nrep);
    }
    if (c->mode == MP_MODE_READY) {
        if (!isnan(c->empty_bracket_ns))
            cJSON_AddNumberToObject(o, "empty_bracket_ns", c->empty_bracket_ns);
        else
            cJSON_AddNullToObject(o, "empty_bracket_ns");
        for (int i = 0; i < repeats; i++)
            tmp[i] = c->bare_loop[i];
        cJSON_AddNumberToObject(o, "bare_loop_ns", mp_median(tmp, (size_t)repeats));
        double sum = 0;
        for (int i = 0; i < repeats; i++)
            sum += c->bare_loop_mean[i];
        cJSON_AddNumberToObject(o, "bare_loop_mean_ns", sum / repeats);
    }
    cJSON *m = cJSON_AddObjectToObject(o, "metrics");
    cJSON *missing = NULL;
    for (size_t i = 0; i < c->nmetrics; i++) {
        const mp_metric *mt = &c->metrics[i];
        if (mt->is_counter && mt->s.n == 0) {
            /* Nothing counted: null, never zeros; why in counters_missing. */
            cJSON_AddNullToObject(m, mt->name);
            if (!missing)
                missing = cJSON_AddObjectToObject(o, "counters_missing");
            cJSON *w = cJSON_AddObjectToObject(missing, mt->name);
            cJSON_AddStringToObject(w, "reason", isnan(mt->bracket)
                ? "the empty-bracket calibration kept no sample (every read failed or the "
                  "group did not run throughout)"
                : "no sample kept: every one was dropped (a read failed or the group did "
                  "not run throughout the call)");
            cJSON_AddStringToObject(w, "scope", mt->scope);
            cJSON_AddNumberToObject(w, "pass", mt->pass);
            cJSON_AddNumberToObject(w, "dropped", (double)mt->dropped);
            continue;
        }
        cJSON *s = mp_summary_json(&mt->s);
        if (mt->is_counter) {
            cJSON_AddStringToObject(s, "scope", mt->scope);
            cJSON_AddNumberToObject(s, "pass", mt->pass);
            cJSON_AddStringToObject(s, "read_path", mt->read_path);
            cJSON_AddNumberToObject(s, "bracket", mt->bracket);
            cJSON_AddNumberToObject(s, "dropped", (double)mt->dropped);
        }
        cJSON_AddItemToObject(m, mt->name, s);
    }
    if (c->profile)
        cJSON_AddItemToObject(o, "profile", cJSON_Duplicate(c->profile, 1));
    return o;
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
    cJSON_AddStringToObject(h, "schema", "muxprof-results/1");
    cJSON *tool = cJSON_AddObjectToObject(h, "tool");
    cJSON_AddStringToObject(tool, "name", "muxprof");
    cJSON_AddStringToObject(tool, "version", mp_version_release());
    cJSON_AddStringToObject(tool, "git_describe", mp_version_git());
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
        snprintf(buf, sizeof buf, "%s %s %s N=%d", c->backend->name, mp_fd_kind_name(c->kind),
                 mp_mode_name(c->mode), c->nfds);
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
