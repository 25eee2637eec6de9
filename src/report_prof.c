/* report_prof.c - the kernel-profile section of report.md, from the
 * optional "profile" object of cells (kernel-function sampling): per mode,
 * the phase shares of every profiled cell and the top functions of each
 * backend at its largest profiled N.  See report_md.h. */
#include "report_md.h"

#include <math.h>
#include <string.h>

#include "report_util.h"

#define TOP 8
#define MAXPH 12

static double num(const cJSON *o, const char *k)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *k, const char *dflt)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(j) ? j->valuestring : dflt;
}

static void pct(char *b, size_t n, double share)
{
    if (isfinite(share))
        snprintf(b, n, "%.1f%%", share * 100);
    else
        snprintf(b, n, "n/a");
}

static void phases_table(FILE *f, const mp_rmodel *m, const char *mode)
{
    char names[MAXPH][64];
    size_t nph = 0;
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (!c->profile || strcmp(c->mode, mode))
            continue;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c->profile, "phases")) {
            const char *p = str(e, "phase", "?");
            size_t k = 0;
            while (k < nph && strcmp(names[k], p))
                k++;
            if (k == nph && nph < MAXPH)
                snprintf(names[nph++], sizeof names[0], "%s", p);
        }
    }
    char b[128], cell[160], sm[32];
    fprintf(f, "| backend | N | samples | event | symbols | user share |");
    for (size_t k = 0; k < nph; k++)
        fprintf(f, " %s |", mp_md_cell(cell, sizeof cell, names[k]));
    fprintf(f, "\n|---|---:|---:|---|---|---:|");
    for (size_t k = 0; k < nph; k++)
        fprintf(f, "---:|");
    fputc('\n', f);
    for (size_t i = 0; i < m->ncells; i++) {
        const mp_rcell *c = &m->cells[i];
        if (!c->profile || strcmp(c->mode, mode))
            continue;
        double s = num(c->profile, "samples");
        pct(b, sizeof b, num(c->profile, "user_share"));
        fprintf(f, "| %s | %lld | %s | %s | ", c->backend, c->nfds,
                isfinite(s) ? (snprintf(sm, sizeof sm, "%.0f", s), sm) : "n/a",
                mp_md_cell(cell, sizeof cell, str(c->profile, "event", "?")));
        fprintf(f, "%s | %s |", mp_md_cell(cell, sizeof cell, str(c->profile, "symbols", "?")),
                b);
        for (size_t k = 0; k < nph; k++) {
            double share = NAN;
            const cJSON *e;
            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c->profile, "phases"))
                if (!strcmp(str(e, "phase", "?"), names[k]))
                    share = num(e, "share");
            pct(b, sizeof b, share);
            fprintf(f, " %s |", b);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void top_functions(FILE *f, const mp_rcell *c)
{
    const cJSON *fn = cJSON_GetObjectItemCaseSensitive(c->profile, "functions");
    const cJSON *pick[TOP];
    size_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, fn) {   /* keep the TOP largest shares, in order */
        double s = num(e, "share");
        if (n == TOP && !(s > num(pick[TOP - 1], "share")))
            continue;
        size_t j = n < TOP ? n++ : TOP - 1;
        while (j > 0 && num(pick[j - 1], "share") < s) {
            pick[j] = pick[j - 1];
            j--;
        }
        pick[j] = e;
    }
    char a[32], b[32], cell[200];
    if (!n) {
        fprintf(f, "No function attribution for %s at N=%lld: %s.\n\n", c->backend, c->nfds,
                mp_md_cell(cell, sizeof cell, str(c->profile, "symbols", "no symbols")));
        return;
    }
    fprintf(f, "Top kernel functions, %s at N=%lld:\n\n| function | share | ns per call |\n"
               "|---|---:|---:|\n", c->backend, c->nfds);
    for (size_t i = 0; i < n; i++) {
        pct(a, sizeof a, num(pick[i], "share"));
        fprintf(f, "| `%s` | %s | %s |\n", mp_md_cell(cell, sizeof cell,
                str(pick[i], "name", "?")), a, mp_fmt_num(b, sizeof b,
                num(pick[i], "ns_per_call")));
    }
    fputc('\n', f);
}

void mp_rmd_profile(FILE *f, const mp_rmodel *m)
{
    int any = 0;
    for (size_t i = 0; i < m->ncells; i++)
        any |= m->cells[i].profile != NULL;
    if (!any)
        return;
    fprintf(f, "## Where the time goes in the kernel (sampled profile)\n\n"
               "Kernel-function sampling of the measured calls: shares of samples by phase "
               "and by function, and the nanoseconds per call they stand for.\n\n");
    for (size_t i = 0; i < m->nmodes; i++) {
        int here = 0;
        for (size_t c = 0; c < m->ncells; c++)
            here |= m->cells[c].profile && !strcmp(m->cells[c].mode, m->modes[i]);
        if (!here)
            continue;
        fprintf(f, "### %s mode\n\n", m->modes[i]);
        phases_table(f, m, m->modes[i]);
        for (size_t b = 0; b < m->nbackends; b++) {
            const mp_rcell *best = NULL;
            for (size_t c = 0; c < m->ncells; c++) {
                const mp_rcell *x = &m->cells[c];
                if (x->profile && !strcmp(x->mode, m->modes[i]) &&
                    !strcmp(x->backend, m->backends[b]) && (!best || x->nfds > best->nfds))
                    best = x;
            }
            if (best)
                top_functions(f, best);
        }
    }
}
