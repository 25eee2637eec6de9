/* change.c - each shared cell against the first input: the change of the
 * median in %, and whether it is significant by a two-sided Mann-Whitney U
 * test on the kept samples of both inputs (Google Benchmark's compare.py
 * does the same on repetitions).  The samples of a cell are shifted so
 * that their median is the cell's median: ready-mode medians have the
 * run's empty clock bracket subtracted, and the test must compare what the
 * table shows.  See compare.h. */
#include "compare/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/stats.h"
#include "common/quote.h"
#include "report/format.h"

/* The samples of host h's cell x, shifted to the cell's median; NULL with
 * why when there are none. */
static double *cell_samples(const mp_cmp_host *h, const mp_rcell *x, size_t *n, char *why,
                            size_t len)
{
    *n = 0;
    if (!h->samples) {
        snprintf(why, len, "%.80s: %.150s", h->label, h->samples_why);
        return NULL;
    }
    if (x->index >= h->nsample_cells || h->nsamples[x->index] < MP_CMP_MIN_SAMPLES) {
        snprintf(why, len, "%.80s: %zu samples of this cell in samples.csv (at least %d "
                 "needed)", h->label, x->index < h->nsample_cells ? h->nsamples[x->index] : 0,
                 MP_CMP_MIN_SAMPLES);
        return NULL;
    }
    size_t k = h->nsamples[x->index];
    double *s = malloc(sizeof *s * k * 2);
    if (!s) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    memcpy(s, h->samples[x->index], sizeof *s * k);
    memcpy(s + k, s, sizeof *s * k);
    double shift = mp_median(s + k, k) - x->wall.p50;
    for (size_t i = 0; i < k; i++)
        s[i] -= shift;
    *n = k;
    return s;
}

void mp_cmp_change_of(const mp_cmp *c, size_t hi, const mp_cmp_group *g, const char *backend,
                      long long nfds, mp_cmp_change *out)
{
    memset(out, 0, sizeof *out);
    out->base = out->value = out->pct = out->u = out->p = NAN;
    const mp_rcell *a = mp_cmp_cell(&c->h[0], g->mode, g->kind, backend, nfds);
    const mp_rcell *b = mp_cmp_cell(&c->h[hi], g->mode, g->kind, backend, nfds);
    if (a && a->status == MP_CELL_OK)
        out->base = a->wall.p50;
    if (b && b->status == MP_CELL_OK)
        out->value = b->wall.p50;
    if (!(out->base > 0) || !isfinite(out->value)) {
        snprintf(out->why, sizeof out->why, "not measured by both");
        return;
    }
    out->pct = (out->value / out->base - 1) * 100;
    size_t na, nb;
    double *xa = cell_samples(&c->h[0], a, &na, out->why, sizeof out->why);
    double *xb = xa ? cell_samples(&c->h[hi], b, &nb, out->why, sizeof out->why) : NULL;
    if (xa && xb && mp_mann_whitney(xb, nb, xa, na, &out->u, &out->p) == 0) {
        out->n_base = na;
        out->n_value = nb;
        out->significant = out->p < MP_CMP_ALPHA;
        out->why[0] = 0;
    }
    free(xa);
    free(xb);
}

static const char *p_text(char *buf, size_t len, double p)
{
    if (p < 0.001)
        snprintf(buf, len, "p < 0.001");
    else
        snprintf(buf, len, "p = %.3f", p);
    return buf;
}

void mp__cmp_change_table(FILE *f, const mp_cmp *c, const mp_cmp_group *g,
                          const char *backend, const long long *n, size_t nn)
{
    int col[MP_CMP_MAX_HOSTS] = {0}, any = 0;
    if (c->n < 2 || !mp_cmp_kind(&c->h[0], g->kind))
        return;
    for (size_t i = 1; i < c->n && i < MP_CMP_MAX_HOSTS; i++)
        any |= col[i] = mp_cmp_kind(&c->h[i], g->kind) != NULL;
    if (!any)
        return;
    char head[256], why[MP_CMP_MAX_HOSTS][sizeof ((mp_cmp_change *)0)->why];
    size_t nwhy = 0;
    fprintf(f, "#### %s: change against %s (median; Mann-Whitney U on the kept samples, "
               "significant when p < %.2g)\n\n", backend, MP_QMD(c->h[0].label), MP_CMP_ALPHA);
    snprintf(head, sizeof head, "N");
    mp__cmp_head(f, c, head, col);
    for (size_t k = 0; k < nn; k++) {
        fprintf(f, "| %lld |", n[k]);
        for (size_t i = 1; i < c->n; i++) {
            if (!col[i])
                continue;
            mp_cmp_change ch;
            char p[32];
            mp_cmp_change_of(c, i, g, backend, n[k], &ch);
            if (!isfinite(ch.pct))
                fputs(" - |", f);
            else if (isfinite(ch.p))
                fprintf(f, " %+.1f%%, %s%s |", ch.pct, p_text(p, sizeof p, ch.p),
                        ch.significant ? ", **significant**" : ", not significant");
            else {
                fprintf(f, " %+.1f%%, not testable |", ch.pct);
                size_t w = 0;
                while (w < nwhy && strcmp(why[w], ch.why))
                    w++;
                if (w == nwhy && nwhy < MP_CMP_MAX_HOSTS)
                    snprintf(why[nwhy++], sizeof why[0], "%s", ch.why);
            }
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t w = 0; w < nwhy; w++) {
        char r[400];
        fprintf(f, "- not testable: %s\n", mp__cmp_reason(r, sizeof r, why[w], 300));
    }
    if (nwhy)
        fputc('\n', f);
}

const char *mp__cmp_reason(char *buf, size_t len, const char *reason, size_t max)
{
    char cut[1024];
    size_t n = strlen(reason);
    if (max > sizeof cut - 4)
        max = sizeof cut - 4;
    if (n <= max) {
        snprintf(cut, sizeof cut, "%s", reason);
    } else {
        size_t k = max - 3;
        while (k > 0 && reason[k] != ' ')
            k--;
        while (k > 0 && strchr(" ,;:(", reason[k - 1]))
            k--;
        if (k == 0)   /* one long word: cut it, still marked */
            k = max - 3;
        snprintf(cut, sizeof cut, "%.*s...", (int)k, reason);
    }
    return mp_md_cell(buf, len, cut);
}
