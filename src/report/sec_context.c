/* SPDX-License-Identifier: MIT */
/* sec_context.c - "Host and context": where and when the run was made,
 * the topology and clock it recorded, and what of results.json was left
 * out. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/series.h"
#include "report/md.h"
#include "common/quote.h"
#include "report/format.h"

static void context(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    (void)figs;
    char b[256];
    fprintf(f, "## Host and context\n\n| field | value |\n|---|---|\n");
    const struct { const char *name, *value; } top[] = {
        {"status", m->run.status}, {"interrupted_cell", m->run.interrupted_cell},
        {"started_utc", m->run.started_utc}, {"finished_utc", m->run.finished_utc},
        {"tool.version", m->run.tool.version}};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        if (top[i].value) {
            char c[300];
            snprintf(b, sizeof b, "%s", top[i].value);
            fprintf(f, "| %s | %s |\n", top[i].name, mp_md_cell(c, sizeof c, b));
        }
    mp_rmd_table_rows(f, m->context_held, m->ncontext_held, &m->context);
    fprintf(f, "| cache line | %u bytes%s |\n", m->line_bytes,
            m->line_known ? " (topology.line_bytes)" : " (assumed: results.json has no "
            "topology.line_bytes)");
    for (size_t i = 0; i < m->ncaches; i++) {
        char s[32];
        fprintf(f, "| cache %s | %s bytes |\n", m->caches[i].name,
                mp_fmt_num(s, sizeof s, (double)m->caches[i].bytes));
    }
    /* its scalars, not its cache lists or objects */
    mp_rmd_scalar_rows_except(f, m->topology, "topology.", "line_bytes");
    if (mp_rm_text(m, "calibration.clock", b, sizeof b))
        fprintf(f, "| clock | %s |\n", MP_QMD(b));
    if (mp_rm_text(m, "calibration.empty_bracket_ns.p50", b, sizeof b))
        fprintf(f, "| empty clock bracket (median) | %s ns |\n", MP_QMD(b));
    fputc('\n', f);
    if (m->nwarn) {
        fprintf(f, "Parts of results.json that did not fit the schema and were left out:\n\n");
        for (size_t i = 0; i < m->nwarn; i++)
            fprintf(f, "- %s\n", m->warn[i]);   /* composed by the reader from checked names */
        fputc('\n', f);
    }
}

const mp_rsection mp_rsec_context = {"context", 0, 0, NULL, context, NULL, 0};
