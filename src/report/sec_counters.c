/* SPDX-License-Identifier: MIT */
/* sec_counters.c - "Counters": the preset, the events opened and those this
 * host refused, with the reason. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/series.h"
#include "report/md.h"
#include "common/quote.h"
#include "report/format.h"

/* An event name as a Markdown code span. */
static const char *code(char *buf, size_t len, const char *s)
{
    return mp_quote_md_code(buf, len, s, 0);
}

static void counters(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    char a[300];
    fprintf(f, "## Counters\n\n");
    if (!m->has_counters) {
        fprintf(f, "results.json has no `counters` object, so this run recorded no counter "
                   "availability (counters off, or a build without pmu/).%s\n\n",
                m->nmetrics ? " Counter metrics found in the cells are reported above." : "");
        return;
    }
    if (m->counters_preset[0] || m->counters_scope[0])
        fprintf(f, "Preset %s, scope %s.\n\n",
                code(a, sizeof a, m->counters_preset[0] ? m->counters_preset : "?"),
                MP_QMD(m->counters_scope[0] ? m->counters_scope : "not recorded"));
    if (m->counters_note[0])
        fprintf(f, "Note from the run: %s\n\n", mp_md_cell(a, sizeof a, m->counters_note));
    size_t opened = 0, refused = 0;
    for (size_t i = 0; i < m->ncounters; i++)
        m->counters[i].opened ? opened++ : refused++;
    if (!m->ncounters) {
        fprintf(f, "No events were listed: nothing was counted.\n\n");
        return;
    }
    fprintf(f, "Opened (%zu):", opened);
    for (size_t i = 0, k = 0; i < m->ncounters; i++)
        if (m->counters[i].opened)
            fprintf(f, "%s %s", k++ ? "," : "", code(a, sizeof a, m->counters[i].name));
    fprintf(f, "%s\n\n", opened ? "." : " none.");
    const char *pf = m->counters_preset_file;
    if (pf && !strcmp(pf, "armv8_common")) {
        fprintf(f, "These are the **architected ARMv8 common events** (by number, through the "
                   "CPU's sysfs PMU), not a model-specific table: no preset matches this Arm "
                   "core. Each was checked against the PMU's common-event bitmap (PMCEID):");
        const char *sep = " ";
        for (size_t i = 0; i < m->ncounters; i++) {
            const char *enc = m->counters[i].encoding;
            if (enc && strstr(enc, "architected ARMv8")) {
                char c[300];
                fprintf(f, "%s%s = %s", sep, code(c, sizeof c, m->counters[i].name),
                        mp_md_cell(a, sizeof a, enc));
                sep = "; ";
            }
        }
        fprintf(f, ".\n\n");
    }
    size_t wide = 0;
    for (size_t i = 0; i < m->ncounters; i++)
        if (m->counters[i].opened && m->counters[i].cpu_wide) {
            const char *scope = m->counters[i].cpu_scope;
            fprintf(f, "%s%s", wide++ ? ", " : "CPU-wide (uncore) events: ",
                    code(a, sizeof a, m->counters[i].name));
            if (scope) fprintf(f, " (%s)", mp_md_cell(a, sizeof a, scope));
        }
    if (wide)
        fprintf(f, ". They count all work their PMU sees in its scope during the call (for "
                   "amd_l3 filtered to the waiter's core: both of its SMT threads and its "
                   "prefetchers included; otherwise the whole CPU, CCX or socket), other "
                   "tasks' included, not only the measured thread: per-call values are an "
                   "upper bound. A CPU-wide event cannot join the per-thread group: it is "
                   "opened on the waiter's CPU on its own fd, in a counter pass of its own, "
                   "and read with read() before and after each call, so it brackets other "
                   "calls of the same cell than the per-thread counters.\n\n");
    if (refused) {
        fprintf(f, "Unavailable on this host (%zu):\n\n| event | why |\n|---|---|\n", refused);
        for (size_t i = 0; i < m->ncounters; i++)
            if (!m->counters[i].opened)
                fprintf(f, "| %s | %s |\n", MP_QMD(m->counters[i].name),
                        m->counters[i].reason[0] ? mp_md_cell(a, sizeof a,
                        m->counters[i].reason) : "no reason recorded");
        fputc('\n', f);
    }
}

const mp_rsection mp_rsec_counters = {"counters", 0, 0, NULL, counters, NULL, 0};
