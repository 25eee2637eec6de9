/* md.c - Markdown helpers of the report sections: embedding a prepared
 * figure, and a JSON object as table rows.  See md.h. */
#include "report/md.h"

#include <math.h>
#include <string.h>

#include "common/quote.h"
#include "report/format.h"

/* Scalars of a JSON object (and of objects one level down) as table rows. */
void mp_rmd_scalar_rows(FILE *f, const cJSON *o, const char *prefix)
{
    const cJSON *e;
    char v[2048], cell[2400], key[200];
    cJSON_ArrayForEach(e, o) {
        if (!e->string)
            continue;
        snprintf(key, sizeof key, "%s%s", prefix, e->string);
        if (cJSON_IsObject(e) && !*prefix) {
            char p[160];
            snprintf(p, sizeof p, "%.100s.", e->string);
            mp_rmd_scalar_rows(f, e, p);
            continue;
        }
        if (cJSON_IsString(e))
            snprintf(v, sizeof v, "%s", e->valuestring);
        else if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
            snprintf(v, sizeof v, "%.15g", e->valuedouble);
        else if (cJSON_IsBool(e))
            snprintf(v, sizeof v, "%s", cJSON_IsTrue(e) ? "yes" : "no");
        else if (cJSON_IsArray(e)) {
            /* every item whole ("; " before a sentence), and a count of
             * those that do not fit rather than one cut short */
            size_t o2 = 0, left = 0;
            const cJSON *x;
            v[0] = 0;
            cJSON_ArrayForEach(x, e) {
                char item[64];
                const char *t = cJSON_IsString(x) ? x->valuestring : NULL;
                if (!t && cJSON_IsNumber(x))
                    t = (snprintf(item, sizeof item, "%g", x->valuedouble), item);
                if (!t)
                    continue;
                if (left || o2 + strlen(t) + 40 >= sizeof v) {
                    left++;
                    continue;
                }
                o2 += (size_t)snprintf(v + o2, sizeof v - o2, "%s%s",
                                       !o2 ? "" : strchr(t, ' ') ? "; " : ", ", t);
            }
            if (left)
                snprintf(v + o2, sizeof v - o2, " (and %zu more)", left);
            if (!o2 && !left)
                continue;
        } else
            continue;
        char kc[220];
        fprintf(f, "| %s | %s |\n", mp_md_cell(kc, sizeof kc, key),
                mp_md_cell(cell, sizeof cell, v));
    }
}

void mp_rmd_figure(FILE *f, const mp_rfigs *figs, const char *name)
{
    const mp_rfig *x = mp_rfig_find(figs, name);
    char e[400];
    if (!x)
        return;
    const char *cap = MP_QMD(x->caption);
    if (x->drawn)
        fprintf(f, "![%s](figures/%s.png)\n\n*%s* ([SVG](figures/%s.svg), "
                   "[PDF](figures/%s.pdf), [script](figures/%s.gp))\n\n",
                cap, x->name, cap, x->name, x->name, x->name);
    else if (!figs->asked || !figs->gnuplot)
        fprintf(f, "Figure not drawn (%s): `figures/%s.gp`, %s.\n\n",
                figs->asked ? "gnuplot is not installed"
                            : "--no-plots; a drawing an earlier report made is kept",
                x->name, cap);
    else
        fprintf(f, "- `figures/%s.gp` (%s) was not drawn: %s\n\n", x->name, cap,
                mp_md_cell(e, sizeof e, x->error));
}
