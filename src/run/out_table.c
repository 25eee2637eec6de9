/* out_table.c - the tables `muxprof run` prints: per fd kind and mode, one
 * row per N, p50 wall ns per backend, then poll/epoll. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "run/results.h"

static const mp_cell *find(const mp_results *r, mp_fd_kind k, mp_mode m, int n, int a,
                           const char *b)
{
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->kind == k && c->mode == m && c->nfds == n && c->active == a &&
            c->fd_table == r->cfg->fd_tables[0] && !strcmp(c->backend->name, b))
            return c;
    }
    return NULL;
}

static double p50(const mp_cell *c)
{
    const mp_metric *m = c && c->status == MP_CELL_OK ? mp_cell_metric(c, "wall_ns") : NULL;
    return m ? m->s.p50 : -1;
}

void mp_print_tables(const mp_results *r, FILE *f)
{
    const mp_run_config *cfg = r->cfg;
    for (int k = 0; k < cfg->nkinds; k++)
        for (int ai = 0; ai < cfg->nactives; ai++)
        for (int m = 0; m < cfg->nmodes; m++) {
            mp_mode mode = cfg->modes[m];
            int a = cfg->actives[ai];
            if (mode == MP_MODE_WAKEUP && a > 1)
                continue;   /* wakeup pokes one fd */
            char what[64];
            if (a > 1)
                snprintf(what, sizeof what, "timeout 0, %d fds readable", a);
            fprintf(f, "\n%s mode, %s, p50 ns per call (%s)\n", mp_mode_name(mode),
                    mp_fd_kind_name(cfg->kinds[k]),
                    mode == MP_MODE_WAKEUP ? "poker write -> waiter return"
                    : a > 1 ? what : "timeout 0, one fd readable");
            fprintf(f, "%8s", "N");
            for (int b = 0; b < cfg->nbackends; b++)
                fprintf(f, " %12s", cfg->backends[b]->name);
            fprintf(f, " %11s\n", "poll/epoll");
            for (int n = 0; n < cfg->ncounts; n++) {
                fprintf(f, "%8d", cfg->fds[n]);
                for (int b = 0; b < cfg->nbackends; b++) {
                    const mp_cell *c = find(r, cfg->kinds[k], mode, cfg->fds[n], a,
                                            cfg->backends[b]->name);
                    double v = p50(c);
                    if (v >= 0)
                        fprintf(f, " %12.0f", v);
                    else
                        fprintf(f, " %12s", c ? (c->status == MP_CELL_UNSUPPORTED ? "unsupported"
                                                 : c->status == MP_CELL_ERROR ? "error" : "-")
                                              : "-");
                }
                double pp = p50(find(r, cfg->kinds[k], mode, cfg->fds[n], a, "poll"));
                double pe = p50(find(r, cfg->kinds[k], mode, cfg->fds[n], a, "epoll"));
                if (pp > 0 && pe > 0)
                    fprintf(f, " %11.2f\n", pp / pe);
                else
                    fprintf(f, " %11s\n", "-");
            }
        }
}

/* Which counters were measured and which not, grouped by reason, so a run
 * never leaves a reader guessing why a figure is missing. */
void mp_print_counters(const cJSON *counters, FILE *f)
{
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(counters, "events");
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(counters, "scope");
    const cJSON *preset = cJSON_GetObjectItemCaseSensitive(counters, "preset");
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(counters, "scope_note");
    if (!cJSON_IsArray(events) || cJSON_GetArraySize(events) == 0) {
        fprintf(f, "\ncounters: none (--events %s)\n",
                cJSON_IsString(preset) ? preset->valuestring : "none");
        return;
    }
    fprintf(f, "\ncounters (--events %s, scope %s):\n",
            cJSON_IsString(preset) ? preset->valuestring : "?",
            cJSON_IsString(scope) ? scope->valuestring : "?");
    if (cJSON_IsString(scope) && strcmp(scope->valuestring, "user+kernel") &&
        cJSON_IsString(note))
        fprintf(f, "  NOTE: %s\n", note->valuestring);
    int n = cJSON_GetArraySize(events);
    char *done = calloc((size_t)n, 1);
    fprintf(f, "  measured:");
    int any = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(events, i);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "status");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(st) && !strcmp(st->valuestring, "opened") && cJSON_IsString(nm)) {
            fprintf(f, "%s %s", any ? "," : "", nm->valuestring);
            any = 1;
            if (done)
                done[i] = 1;
        }
    }
    fprintf(f, "%s\n", any ? "" : " nothing");
    /* Unavailable ones, one line per distinct reason. */
    for (int i = 0; done && i < n; i++) {
        if (done[i])
            continue;
        const cJSON *ri = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(events, i),
                                                           "reason");
        const char *why = cJSON_IsString(ri) ? ri->valuestring : "no reason recorded";
        fprintf(f, "  not available:");
        for (int j = i, first = 1; j < n; j++) {
            if (done[j])
                continue;
            const cJSON *e = cJSON_GetArrayItem(events, j);
            const cJSON *rj = cJSON_GetObjectItemCaseSensitive(e, "reason");
            const char *wj = cJSON_IsString(rj) ? rj->valuestring : "no reason recorded";
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
            if (strcmp(wj, why))
                continue;
            fprintf(f, "%s %s", first ? "" : ",", cJSON_IsString(nm) ? nm->valuestring : "?");
            first = 0;
            done[j] = 1;
        }
        fprintf(f, "\n    because: %s\n", why);
    }
    free(done);
}

static double jnum(const cJSON *o, const char *k)
{
    return mp_json_num(o, k, -1);
}

static const char *jstr(const cJSON *o, const char *k)
{
    return mp_json_str(o, k, "");
}

static void print_register(const cJSON *reg, FILE *f)
{
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(reg, "cells"), *c;
    fprintf(f, "\nregister: ns per fd to build the watched set (p50 of whole registrations / N)\n");
    fprintf(f, "%-10s %-8s %8s %14s %10s\n", "backend", "kind", "N", "total p50 ns", "ns/fd");
    cJSON_ArrayForEach(c, cells) {
        if (strcmp(jstr(c, "status"), "ok")) {
            fprintf(f, "%-10s %-8s %8.0f %14s %10s\n", jstr(c, "backend"), jstr(c, "fd_kind"),
                    jnum(c, "nfds"), jstr(c, "status"), "-");
            continue;
        }
        fprintf(f, "%-10s %-8s %8.0f %14.0f %10.1f\n", jstr(c, "backend"), jstr(c, "fd_kind"),
                jnum(c, "nfds"), jnum(cJSON_GetObjectItemCaseSensitive(c, "total_ns"), "p50"),
                jnum(c, "ns_per_fd"));
    }
}

static void print_herd(const cJSON *herd, FILE *f)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(herd, "arrangements"), *a;
    fprintf(f, "\nherd: per written byte, M waiters on one pipe (mean over rounds)\n");
    fprintf(f, "%-20s %3s %7s %8s %9s %8s %14s\n", "arrangement", "M", "rounds", "woken",
            "returned", "wasted", "first p50 ns");
    cJSON_ArrayForEach(a, arr) {
        if (!cJSON_GetObjectItemCaseSensitive(a, "woken_per_event")) {
            fprintf(f, "%-20s %s\n", jstr(a, "arrangement"), jstr(a, "reason"));
            continue;
        }
        fprintf(f, "%-20s %3.0f %7.0f %8.2f %9.2f %8.2f %14.0f\n", jstr(a, "arrangement"),
                jnum(a, "waiters"), jnum(a, "rounds"),
                jnum(cJSON_GetObjectItemCaseSensitive(a, "woken_per_event"), "mean"),
                jnum(cJSON_GetObjectItemCaseSensitive(a, "returned_per_event"), "mean"),
                jnum(cJSON_GetObjectItemCaseSensitive(a, "wasted_per_event"), "mean"),
                jnum(cJSON_GetObjectItemCaseSensitive(a, "first_wakeup_ns"), "p50"));
    }
}

static void print_ltet(const cJSON *lt, FILE *f)
{
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(lt, "cells"), *c;
    fprintf(f, "\nltet: one %0.f-byte write consumed in chunks (epoll LT vs ET)\n",
            jnum(lt, "event_bytes"));
    fprintf(f, "%-6s %6s %10s %12s %12s\n", "mode", "chunk", "syscalls", "ns/event", "ns/syscall");
    cJSON_ArrayForEach(c, cells) {
        if (strcmp(jstr(c, "status"), "ok")) {
            fprintf(f, "%-6s %6.0f %s\n", jstr(c, "trigger"), jnum(c, "chunk"), jstr(c, "reason"));
            continue;
        }
        fprintf(f, "%-6s %6.0f %10.0f %12.0f %12.0f\n", jstr(c, "trigger"), jnum(c, "chunk"),
                jnum(c, "syscalls_per_event"), jnum(c, "ns_per_event_p50"),
                jnum(c, "ns_per_syscall_p50"));
    }
}

void mp_print_experiments(const cJSON *experiments, FILE *f)
{
    const cJSON *e;
    if ((e = cJSON_GetObjectItemCaseSensitive(experiments, "register")))
        print_register(e, f);
    if ((e = cJSON_GetObjectItemCaseSensitive(experiments, "herd")))
        print_herd(e, f);
    if ((e = cJSON_GetObjectItemCaseSensitive(experiments, "ltet")))
        print_ltet(e, f);
}
