/* SPDX-License-Identifier: MIT */
/* sec_harness.c - the report section on the harness itself and the run's
 * noise: who shared the measuring process's descriptor table, who else
 * watched the descriptors, which interval each figure covers, counters
 * that counted nothing or dropped samples, and the host's load, steal,
 * frequency and mitigations.  Reads every entry of results[] (m->all,
 * m->all_metrics), private and shared tables, K of N and every wake delay. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/internal.h"
#include "report/md.h"
#include "common/quote.h"
#include "report/format.h"

#define MAXROWS 64

/* A text field as shown: "?" when the file does not hold it. */
static const char *shown(const char *s)
{
    return *s ? s : "?";
}

/* Two cells' text fields name the same thing (both present). */
static int same(const char *a, const char *b)
{
    return *a && !strcmp(a, b);
}

/* "active" as written since it exists; 1 for files without it. */
static long long active_of(const mp_rcell *c)
{
    return c->active < 0 ? 1 : c->active;
}

static void noise(FILE *f, const mp_rmodel *m)
{
    const mp_rnoise *o = &m->noise;
    char a[32], b[300];
    if (!o->present) {
        fprintf(f, "This run recorded no noise context (load, steal, frequency, mitigations): "
                   "it predates them.\n\n");
        return;
    }
    for (size_t i = 0; i < o->nwarnings; i++)
        fprintf(f, "> **Noisy run:** %s.\n\n", mp_md_cell(b, sizeof b, o->warnings[i]));
    fprintf(f, "| noise | value |\n|---|---|\n");
    for (int k = 0; k < 2; k++) {
        fprintf(f, "| load average (1, 5, 15 min) at %s |", k ? "end" : "start");
        if (!o->loadavg_ok[k])
            fprintf(f, " not readable");
        for (size_t i = 0; i < o->nloadavg[k]; i++)
            fprintf(f, " %.2f", o->loadavg[k][i]);
        fprintf(f, " |\n");
    }
    double steal = o->steal_share, busy = o->busy_share;
    fprintf(f, "| CPU time stolen by the hypervisor, over the run | %s |\n",
            isnan(steal) ? "not readable" : (snprintf(a, sizeof a, "%.2f%%", steal * 100), a));
    fprintf(f, "| CPUs busy (all work, not only muxprof) | %s |\n",
            isnan(busy) ? "not readable" : (snprintf(b, sizeof b, "%.0f%%", busy * 100), b));
    if (o->canary_passes) {
        static const char *const what[MP_RCANARY_N] = {"one getppid() call",
            "one step of a pointer chase in L1", "one step of a pointer chase in the LLC"};
        for (int k = 0; k < MP_RCANARY_N; k++)
            if (isfinite(o->canary[k]))
                fprintf(f, "| host level: %s (median of %zu passes; max/min %.2f) | %.3g ns |\n",
                        what[k], o->canary_passes, o->canary_spread[k], o->canary[k]);
    }
    fprintf(f, "| CPU MHz (%s) |", MP_QMD(o->cpu_mhz_source));
    if (!o->cpu_mhz_ok)
        fprintf(f, " not readable");
    for (size_t i = 0; i < o->ncpu_mhz; i++)
        fprintf(f, " %.0f", o->cpu_mhz[i]);
    fprintf(f, " |\n");
    int unaffected = 0;
    for (size_t i = 0; i < o->nvuln; i++) {
        if (!strcmp(o->vuln_state[i], "Not affected"))
            unaffected++;
        else
            fprintf(f, "| vulnerability %s | %s |\n", MP_QMD(o->vuln[i]),
                    mp_md_cell(b, sizeof b, o->vuln_state[i]));
    }
    if (unaffected)
        fprintf(f, "| vulnerabilities the CPU is not affected by | %d (results.json lists "
                   "them) |\n", unaffected);
    if (!o->mitigations_ok)
        fprintf(f, "| mitigations | not readable |\n");
    fputc('\n', f);
}

/* Distinct (mode, fd_table, process_threads, watch_sets) among ok cells. */
static void table_users(FILE *f, const mp_rmodel *m)
{
    struct { char mode[16], table[16]; int threads, sets, n; } row[MAXROWS];
    size_t nr = 0;
    int private_shared = 0;
    for (size_t k = 0; k < m->nall; k++) {
        const mp_rcell *c = &m->all[k];
        if (c->status != MP_CELL_OK)
            continue;
        const char *mode = shown(c->mode), *t = shown(c->fd_table);
        int th = (int)c->process_threads, ws = (int)c->watch_sets;
        if (!strcmp(t, "private") && th > 1)
            private_shared++;
        size_t i;
        for (i = 0; i < nr; i++)
            if (!strcmp(row[i].mode, mode) && !strcmp(row[i].table, t) &&
                row[i].threads == th && row[i].sets == ws)
                break;
        if (i == nr && nr < MAXROWS) {
            snprintf(row[nr].mode, sizeof row[nr].mode, "%s", mode);
            snprintf(row[nr].table, sizeof row[nr].table, "%s", t);
            row[nr].threads = th;
            row[nr].sets = ws;
            row[nr++].n = 0;
        }
        if (i < MAXROWS)
            row[i].n++;
    }
    fprintf(f, "Who shared the measuring process while its calls were timed (`fd_table`, "
               "`process_threads` from /proc/self/status) and how many epoll/io_uring sets "
               "were open on its descriptors (`watch_sets`, the cell's own included). With a "
               "private table (one thread) the kernel's fd lookup skips a reference count per "
               "file and call; a shared table pays it.\n\n"
               "| mode | fd_table | process_threads | watch_sets | cells |\n"
               "|---|---|---:|---:|---:|\n");
    for (size_t i = 0; i < nr; i++) {
        char th[16] = "not recorded", ws[16] = "not recorded";
        if (row[i].threads >= 0)
            snprintf(th, sizeof th, "%d", row[i].threads);
        if (row[i].sets >= 0)
            snprintf(ws, sizeof ws, "%d", row[i].sets);
        fprintf(f, "| %s | %s | %s | %s | %d |\n", MP_QMD(row[i].mode), MP_QMD(row[i].table), th,
                ws, row[i].n);
    }
    fputc('\n', f);
    if (private_shared)
        fprintf(f, "> **Warning:** %d cell(s) asked for a private descriptor table ran with "
                   "more than one thread in the process: their times include the shared "
                   "table's reference counting.\n\n", private_shared);
}

/* p50 of wall_ns of the ok cell with these keys and fd_table, NaN if none. */
static double p50_of(const mp_rmodel *m, const mp_rcell *like, const char *table)
{
    for (size_t k = 0; k < m->nall; k++) {
        const mp_rcell *c = &m->all[k];
        if (c->status == MP_CELL_OK && !strcmp(c->fd_table, table) &&
            same(c->backend, like->backend) && same(c->mode, like->mode) &&
            same(c->fd_kind, like->fd_kind) && c->nfds >= 0 && c->nfds == like->nfds &&
            active_of(c) == active_of(like))
            return c->wall.p50;
    }
    return NAN;
}

/* Private against shared, per backend and N, when the run holds both. */
static void table_shared(FILE *f, const mp_rmodel *m)
{
    int rows = 0;
    char a[32], b[32];
    for (size_t k = 0; k < m->nall; k++) {
        const mp_rcell *c = &m->all[k];
        if (c->status != MP_CELL_OK || strcmp(c->fd_table, "private"))
            continue;
        double p = p50_of(m, c, "private"), s = p50_of(m, c, "shared");
        if (isnan(s))
            continue;
        if (!rows++)
            fprintf(f, "Private against shared descriptor table (p50 `wall_ns`):\n\n"
                       "| backend | mode | fds | N | private | shared | shared / private |\n"
                       "|---|---|---|---:|---:|---:|---:|\n");
        fprintf(f, "| %s | %s | %s | %.0f | %s | %s | %.3f |\n", MP_QMD(shown(c->backend)),
                MP_QMD(shown(c->mode)), MP_QMD(shown(c->fd_kind)),
                c->nfds < 0 ? NAN : (double)c->nfds, mp_fmt_num(a, sizeof a, p),
                mp_fmt_num(b, sizeof b, s), s / p);
    }
    if (rows)
        fputc('\n', f);
}

/* Per counter: cells that counted it, cells where nothing was counted,
 * samples dropped, and the scope it really counts. */
static void table_dropped(FILE *f, const mp_rmodel *m)
{
    struct { char name[96], scope[16]; int counted, missing; double dropped; } row[MAXROWS];
    size_t nr = 0;
    for (size_t k = 0; k < m->nall_metrics; k++) {
        const mp_rall_metric *e = &m->all_metrics[k];
        if (!e->counter || m->all[e->cell].status != MP_CELL_OK)
            continue;
        size_t i;
        for (i = 0; i < nr; i++)
            if (!strcmp(row[i].name, e->name))
                break;
        if (i == nr) {
            if (nr == MAXROWS)
                continue;
            snprintf(row[nr].name, sizeof row[nr].name, "%s", e->name);
            snprintf(row[nr].scope, sizeof row[nr].scope, "%s", e->scope);
            row[nr].counted = row[nr].missing = 0;
            row[nr++].dropped = 0;
        }
        e->counted ? row[i].counted++ : row[i].missing++;
        row[i].dropped += e->dropped;
    }
    if (!nr)
        return;
    fprintf(f, "Counter samples kept and dropped (a sample is dropped when a read failed or its "
               "group did not run for the whole call; a cell where every sample was dropped "
               "has no value, never a 0). In wakeup cells the counters cover the waiter's "
               "bracket `waiter_ns` (arm to return), not the poke-to-return `wall_ns`, and "
               "the waiter only: the waker's kernel work (the write, the poll or epoll "
               "callbacks, the wakeup itself) runs in the poker process, whose own counts of "
               "the same pass around its write are the `poker:` rows.\n\n"
               "| counter | scope | cells counted | cells with nothing counted | samples "
               "dropped |\n|---|---|---:|---:|---:|\n");
    for (size_t i = 0; i < nr; i++)
        fprintf(f, "| %s | %s | %d | %d | %.0f |\n", MP_QMD(row[i].name), MP_QMD(row[i].scope),
                row[i].counted,
                row[i].missing, row[i].dropped);
    fputc('\n', f);
}

static void markdown(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    fprintf(f, "## The harness and the noise of this run\n\n");
    noise(f, m);
    table_users(f, m);
    table_shared(f, m);
    table_dropped(f, m);
}

const mp_rsection mp_rsec_harness = {
    .name = "harness",
    .calls_only = 1,
    .markdown = markdown,
    .harness_only = 1,
};
