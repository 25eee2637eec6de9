/* SPDX-License-Identifier: MIT */
/* hosts.c - the parts of the comparison report about its inputs: the hosts
 * table with each input's notes and warnings, first, and the cells only one
 * input measured, last.  See compare/internal.h. */
#include "compare/internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/duration.h"
#include "common/quote.h"
#include "report/model.h"
#include "report/report.h"
#include "report/format.h"

/* keys that only one input measured */
void mp__cmp_not_compared(FILE *f, const mp_cmp *c)
{
    fprintf(f, "## Not compared (measured by one input only)\n\n");
    int any = 0;
    for (size_t i = 0; i < c->n; i++) {
        const mp_rmodel *m = &c->h[i].m;
        for (size_t j = 0; j < m->ncells; j++) {
            const mp_rcell *x = &m->cells[j];
            int first = 1;   /* list each (mode, kind, backend) once */
            for (size_t k = 0; k < j; k++)
                first &= strcmp(m->cells[k].mode, x->mode) || strcmp(m->cells[k].fd_kind,
                         x->fd_kind) || strcmp(m->cells[k].backend, x->backend);
            if (!first)
                continue;
            char ns[512] = "";
            for (size_t k = j; k < m->ncells; k++) {
                const mp_rcell *y = &m->cells[k];
                if (strcmp(y->mode, x->mode) || strcmp(y->fd_kind, x->fd_kind) ||
                    strcmp(y->backend, x->backend))
                    continue;
                /* the group kind this cell is looked up under */
                size_t have = 0;
                for (size_t o = 0; o < c->n; o++) {
                    if (o == i)
                        continue;
                    const char *gk = strcmp(y->fd_kind, "unknown") ? y->fd_kind : NULL;
                    if (!gk) {   /* unknown kind: any kind of the other host */
                        for (size_t q = 0; q < c->n && !have; q++)
                            for (size_t kk = 0; q != i && kk < c->h[q].m.nkinds; kk++)
                                have += mp_cmp_cell(&c->h[o], y->mode, c->h[q].m.kinds[kk],
                                                    y->backend, y->nfds) != NULL;
                    } else {
                        have += mp_cmp_cell(&c->h[o], y->mode, gk, y->backend, y->nfds) != NULL;
                    }
                }
                if (!have && strlen(ns) + 24 < sizeof ns)
                    snprintf(ns + strlen(ns), sizeof ns - strlen(ns), "%s%lld",
                             ns[0] ? ", " : "", y->nfds);
            }
            if (ns[0]) {
                fprintf(f, "- %s: %s mode, %s fds, %s at N = %s\n", MP_QMD(c->h[i].label),
                        x->mode, x->fd_kind, x->backend, ns);
                any = 1;
            }
        }
    }
    fprintf(f, "%s\n", any ? "" : "Nothing: every measured cell has a counterpart.\n");
}

/* One of an input's own report warnings (report/report.h) as a line of
 * the hosts part: the text from the file in it is Markdown-safe already
 * (the report quotes it for its own report.md), the rest is muxprof's. */
typedef struct md_warn_ctx {
    FILE *f;
    const char *label;
} md_warn_ctx;

static void md_warn(void *ctx, const char *line)
{
    const md_warn_ctx *o = ctx;
    fprintf(o->f, "- warning (%s, from its report): %s\n\n", MP_QMD(o->label), line);
}

void mp__cmp_hosts(FILE *f, const mp_cmp *c)
{
    fprintf(f, "## Hosts\n\n| host (CPU model, arch) | input | kernel | CPUs | counters "
                  "| notes |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < c->n; i++) {
        const mp_cmp_host *h = &c->h[i];
        char k[64], n[32], p[PATH_MAX + 32], s[600];
        const char *kernel = mp_rm_text(&h->m, "context.kernel", k, sizeof k);
        const char *cpus = mp_rm_text(&h->m, "context.nr_cpus", n, sizeof n);
        fprintf(f, "| %s%s%s | %s | %s | %s | ", MP_QMD(h->label),
                strcmp(h->label, h->machine) ? ": " : "",
                strcmp(h->label, h->machine) ? MP_QMD(h->machine) : "",
                mp_md_cell(p, sizeof p, h->m.shown), MP_QMD(kernel ? kernel : "?"),
                MP_QMD(cpus ? cpus : "?"));
        if (h->reference)
            fputs("not published", f);
        else if (!h->has_counters)
            fprintf(f, "no PMU data%s%s", h->m.counters_note[0] ? ": " : "",
                    mp_md_cell(s, sizeof s, h->m.counters_note));
        else
            fprintf(f, "%s, scope %s%s",
                    MP_QMD(h->m.counters_preset[0] ? h->m.counters_preset : "counted"),
                    MP_QMD(h->scope[0] ? h->scope : "unknown"),
                    h->user_only ? " (**user only**: kernel work not counted)" : "");
        fputs(" | ", f);
        if (h->reference)
            fprintf(f, "%s, median only (no spread known); source: %s%s",
                    h->builtin ? "published figures built into muxprof"
                               : "**a file that calls itself a reference dataset** (not one "
                                 "built into muxprof)",
                    mp_md_cell(s, sizeof s, h->source),
                    h->shadowed ? " (the built-in dataset of this name, not the local path "
                                  "of the same name: name that ./NAME)" : "");
        if (h->m.simulated)
            fputs("**simulated: counts of a cache model, no times** ", f);
        else if (h->emulated)
            fputs("**emulated CPU: timings mean nothing** ", f);
        char d[32];
        if (h->wake_apart)
            fprintf(f, "**wakeup cells not compared**: its waiter slept %s before the poke, "
                    "not the first input's; ", mp_duration_fmt(d, sizeof d, h->m.wake_delay_ns));
        else if (h->m.wake_delay_ns > 0 || h->m.ndcells)
            fprintf(f, "wakeup compared at a wake delay of %s%s; ",
                    mp_duration_fmt(d, sizeof d, h->m.wake_delay_ns),
                    h->m.ndcells ? " (its other delays are in its own report)" : "");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(h->m.root, "status");
        if (cJSON_IsString(st) && !strcmp(st->valuestring, "errors"))
            fputs("**run with errors**: cells that ended in error are missing", f);
        else if (cJSON_IsString(st) && strcmp(st->valuestring, "complete"))
            fprintf(f, "**run %s**: cells after the interruption are missing",
                    mp_md_cell(s, sizeof s, st->valuestring));
        fputs(" |\n", f);
    }
    fputc('\n', f);
    int arm = 0, other = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (!strcmp(c->h[i].m.arch, "aarch64"))
            arm = 1;
        else if (c->h[i].m.arch[0])
            other = 1;
    }
    if (arm && other)
        fprintf(f, "Hosts of different architectures side by side: on aarch64 the C library's "
                      "poll() is the ppoll system call, select() is pselect6 and epoll_wait() is "
                      "epoll_pwait (no older calls exist there), so the same backend name is a "
                      "different kernel entry on each (`syscall` of each cell in results.json).\n\n");
    for (size_t i = 0; i < c->n; i++) {
        const cJSON *notes = cJSON_GetObjectItemCaseSensitive(c->h[i].m.root, "notes");
        const cJSON *e;
        int first = 1;
        cJSON_ArrayForEach(e, notes) {
            if (!cJSON_IsString(e))
                continue;
            if (first)
                fprintf(f, "Notes on %s:\n\n", MP_QMD(c->h[i].label));
            first = 0;
            fprintf(f, "- %s\n", MP_QMD(e->valuestring));
        }
        if (!first)
            fputc('\n', f);
        for (size_t k = 0; k < c->h[i].m.nwarn; k++)
            fprintf(f, "- warning (%s): %s\n\n", MP_QMD(c->h[i].label), c->h[i].m.warn[k]);
        char w[400];
        if (mp__cmp_repeat_warning(&c->h[i], w, sizeof w)[0])
            fprintf(f, "- warning (%s): %s\n\n", MP_QMD(c->h[i].label), w);
        mp_cmp_level lvl;
        char t[160];
        mp_cmp_level_of(c, i, &lvl);
        if (i && lvl.known)
            fprintf(f, "- the host's level of %s against %s, from the canaries of their "
                       "passes: %s%s\n\n", MP_QMD(c->h[i].label), MP_QMD(c->h[0].label),
                    mp_cmp_level_text(&lvl, t, sizeof t),
                    lvl.differs ? "; a change it explains is \"host level\", not slower or faster"
                                : "");
        md_warn_ctx ctx = {f, c->h[i].label};
        mp_report_warnings(&c->h[i].m, md_warn, &ctx);
    }
}
