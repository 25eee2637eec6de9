/* sec_counters.c - "Counters": the preset, the events opened and those this
 * host refused, with the reason. */
#include "report/internal.h"

#include <math.h>
#include <string.h>

#include "report/calc.h"
#include "report/md.h"
#include "report/util.h"

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
        fprintf(f, "Preset `%s`, scope %s.\n\n", m->counters_preset[0] ? m->counters_preset :
                "?", m->counters_scope[0] ? m->counters_scope : "not recorded");
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
            fprintf(f, "%s `%s`", k++ ? "," : "", m->counters[i].name);
    fprintf(f, "%s\n\n", opened ? "." : " none.");
    if (refused) {
        fprintf(f, "Unavailable on this host (%zu):\n\n| event | why |\n|---|---|\n", refused);
        for (size_t i = 0; i < m->ncounters; i++)
            if (!m->counters[i].opened)
                fprintf(f, "| %s | %s |\n", m->counters[i].name,
                        m->counters[i].reason[0] ? mp_md_cell(a, sizeof a,
                        m->counters[i].reason) : "no reason recorded");
        fputc('\n', f);
    }
}

const mp_rsection mp_rsec_counters = {"counters", 0, NULL, NULL, counters};
