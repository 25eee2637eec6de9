// SPDX-License-Identifier: MIT
/* sec_trace.c - "Traced program": what a `muxprof trace` run traced (the
 * command or pid, the window, how it ended, the calls seen, dropped and
 * left out of the cells) and how its cells are made; nothing for a run of
 * muxprof's own harness, whose method and harness sections it stands in
 * for (they are left out of a trace: mp_rsection.harness_only). */
#include "report/internal.h"

#include <math.h>

#include "report/format.h"
#include "report/md.h"
#include "common/quote.h"

/* The traced cells beside the cells of the run they were set against
 * (--against DIR, or the quick run --against-quick made). */
static void beside(FILE *f, const mp_rmodel *m)
{
    size_t rows = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        mp_rtrace_cell t;
        mp_rtable_read(&mp_rtrace_cell_table,
                       cJSON_GetObjectItemCaseSensitive(c->json, "trace"), &t);
        if (c->status != MP_CELL_OK || isnan(t.harness_p50_ns) || t.harness_p50_ns <= 0 ||
            !t.harness_mode || !t.harness_fd_kind)
            continue;
        if (!rows++)
            fprintf(f, "### Beside the harness\n\nEach traced cell beside the cell of "
                       "the `muxprof run` it was set against (%s): the same backend, ready "
                       "mode for timeout 0 and wakeup otherwise, the nearest N within a "
                       "quarter. They are not the same measurement: a traced call's time "
                       "runs from its entry to its exit, its wait included; a wakeup cell's "
                       "from the poker's write to the waiter's return.\n\n"
                       "| backend | traced mode | N | traced p50 (ns) | run's mode, fd kind | run's "
                       "N | run's p50 (ns) | traced / run |\n|---|---|---:|---:|---|---:|---:|---:|"
                       "\n", MP_QMD(m->trace.against ? m->trace.against : "?"));
        char a[32], b[32];
        fprintf(f, "| %s | %s | %lld | %s | %s, %s | %lld | %s | %.2f |\n", MP_QMD(c->backend),
                MP_QMD(c->mode), c->nfds, mp_fmt_num(a, sizeof a, c->wall.p50),
                MP_QMD(t.harness_mode), MP_QMD(t.harness_fd_kind), t.harness_nfds,
                mp_fmt_num(b, sizeof b, t.harness_p50_ns), c->wall.p50 / t.harness_p50_ns);
    }
    if (rows)
        fprintf(f, "\n");
    else if (m->trace.against)
        fprintf(f, "No cell of %s lies beside a traced one (same backend, ready mode for "
                   "timeout 0 and wakeup otherwise, N within a quarter).\n\n",
                MP_QMD(m->trace.against));
}

static void markdown(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    if (!m->traced)
        return;
    const mp_rtrace *t = &m->trace;
    fprintf(f, "## Traced program\n\n");
    if (t->target_exited)
        fprintf(f, "> **The target exited inside the window**: the trace holds its calls "
                   "until then.\n\n");
    if (t->calls_dropped > 0)
        fprintf(f, "> **%lld calls were dropped** by the BPF program (ring buffer full or no "
                   "room for their entry): they are in no cell.\n\n", t->calls_dropped);
    if (t->calls_unknown_n > 0)
        fprintf(f, "> **%lld %s no known N** (an epoll instance neither created nor "
                   "seeded since the attach, or a select with nfds above %lld): in no "
                   "cell.\n\n", t->calls_unknown_n, t->calls_unknown_n == 1 ? "call has"
                   : "calls have", t->select_bits);
    fprintf(f, "Every select, pselect6, poll, ppoll, epoll_wait, epoll_pwait and epoll_pwait2 "
               "of the program, recorded by muxprof trace (eBPF on the raw syscall "
               "tracepoints), not by muxprof's harness: the program chose its descriptors, "
               "timeouts and what was ready. A cell is one (syscall, N bucket, timeout class, "
               "ready bucket): N and the ready count in buckets 1, 2, 3-4, 5-8, ...; its N is "
               "the median N of its calls, its mode the timeout class (`t0`, `finite`, "
               "`infinite`) and `-rK`, K the top of its ready bucket (`-err`: the calls "
               "failed). A call's time runs from its sys_enter to its sys_exit and holds its "
               "wait, and a little of the tracing's cost (the program pays about 1.5-1.7 us "
               "per call for it on the development VM, measured against `muxprof run`'s "
               "harness, of which its calls' times hold 0.1-0.4 us: docs/trace.md, "
               "\"Overhead\"); its counters are CPU-wide on its CPU. There are no repeats, so "
               "no interval on a median.\n\n");
    fprintf(f, "| field | value |\n|---|---|\n");
    mp_rmd_table_rows(f, m->trace_held, m->ntrace_held, t);
    fprintf(f, "\n");
    beside(f, m);
}

const mp_rsection mp_rsec_trace = {
    .name = "trace",
    .markdown = markdown,
};
