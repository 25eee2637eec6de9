/* SPDX-License-Identifier: MIT */
/* kofn.c - the K-of-N part of the comparison report: the cells with
 * active = K > 1 the hosts share, side by side. */
#include "compare/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/quote.h"
#include "report/format.h"

static const mp_rcell *kcell(const mp_cmp_host *h, const char *mode, const char *kind,
                             const char *backend, long long nfds, long long k)
{
    const char *kk = mp_cmp_kind(h, kind);
    for (size_t i = 0; kk && i < h->m.nkcells; i++) {
        const mp_rcell *x = &h->m.kcells[i];
        if (x->nfds == nfds && x->active == k && !strcmp(x->mode, mode) &&
            !strcmp(x->fd_kind, kk) && !strcmp(x->backend, backend))
            return x;
    }
    return NULL;
}

static void cell_p50(char *b, size_t len, const mp_rcell *x)
{
    char n[32];
    if (!x)
        snprintf(b, len, "not measured");
    else if (x->status == MP_CELL_OK)
        snprintf(b, len, "%s", mp_fmt_num(n, sizeof n, x->wall.p50));
    else
        snprintf(b, len, "%s", x->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error");
}

void mp__cmp_kofn(FILE *f, const mp_cmp *c)
{
    size_t with = 0;
    for (size_t i = 0; i < c->n; i++)
        with += c->h[i].m.nkcells > 0;
    if (!with)
        return;
    fprintf(f, "## K of N ready side by side\n\n");
    if (with < 2) {
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, "- %s: %s\n", MP_QMD(c->h[i].label), c->h[i].m.nkcells
                    ? "has K-of-N cells (`--active`); no other input has any"
                    : "**no K-of-N cells** (run without --active)");
        fputc('\n', f);
        return;
    }
    fprintf(f, "Median ns per call with K of the N watched descriptors ready at once, for the "
               "(mode, fd kind, backend, N, K) that at least two hosts measured.\n\n");
    /* distinct (mode, kind, backend) of every host's K cells, first seen */
    char seen[64][3][32];
    size_t ns = 0, tables = 0;
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < c->h[i].m.nkcells && ns < 64; j++) {
            const mp_rcell *x = &c->h[i].m.kcells[j];
            size_t q = 0;
            while (q < ns && (strcmp(seen[q][0], x->mode) || strcmp(seen[q][1], x->fd_kind) ||
                              strcmp(seen[q][2], x->backend)))
                q++;
            if (q == ns) {
                snprintf(seen[ns][0], 32, "%s", x->mode);
                snprintf(seen[ns][1], 32, "%s", x->fd_kind);
                snprintf(seen[ns][2], 32, "%s", x->backend);
                ns++;
            }
        }
    for (size_t s = 0; s < ns; s++) {
        /* sorted distinct (N, K) of this series over all hosts */
        long long key[256][2];
        size_t nk = 0;
        for (size_t i = 0; i < c->n; i++) {
            const char *kk = mp_cmp_kind(&c->h[i], seen[s][1]);
            for (size_t j = 0; kk && j < c->h[i].m.nkcells; j++) {
                const mp_rcell *x = &c->h[i].m.kcells[j];
                if (strcmp(x->mode, seen[s][0]) || strcmp(x->fd_kind, kk) ||
                    strcmp(x->backend, seen[s][2]))
                    continue;
                size_t q = 0;
                while (q < nk && (key[q][0] != x->nfds || key[q][1] != x->active))
                    q++;
                if (q < nk || nk >= 256)
                    continue;
                q = nk++;
                while (q > 0 && (key[q - 1][0] > x->nfds ||
                                 (key[q - 1][0] == x->nfds && key[q - 1][1] > x->active))) {
                    key[q][0] = key[q - 1][0];
                    key[q][1] = key[q - 1][1];
                    q--;
                }
                key[q][0] = x->nfds;
                key[q][1] = x->active;
            }
        }
        int col[MP_CMP_MAX_HOSTS] = {0}, header = 0;
        for (size_t h = 0; h < c->n && h < MP_CMP_MAX_HOSTS; h++)
            col[h] = mp_cmp_kind(&c->h[h], seen[s][1]) != NULL;
        char alone[MP_CMP_MAX_HOSTS][256];
        memset(alone, 0, sizeof alone);
        for (size_t q = 0; q < nk; q++) {
            size_t have = 0, ok = 0, who = 0;
            for (size_t h = 0; h < c->n; h++) {
                const mp_rcell *x = kcell(&c->h[h], seen[s][0], seen[s][1], seen[s][2],
                                          key[q][0], key[q][1]);
                if (x) {
                    have++;
                    who = h;
                }
                ok += x && x->status == MP_CELL_OK;
            }
            if (have == 1 && ok && who < MP_CMP_MAX_HOSTS) {
                size_t l = strlen(alone[who]);
                if (l + 40 < sizeof alone[0])
                    snprintf(alone[who] + l, sizeof alone[0] - l, "%s(N=%lld, K=%lld)",
                             l ? ", " : "", key[q][0], key[q][1]);
                else if (!strstr(alone[who], "..."))
                    snprintf(alone[who] + l, sizeof alone[0] - l, ", ...");
            }
            if (have < 2 || !ok)   /* rows where nothing ran say nothing */
                continue;
            if (!header++) {
                fprintf(f, "### %s, %s mode, %s fds: time per call (ns, median) by N and K\n\n",
                        seen[s][2], seen[s][0], seen[s][1]);
                mp__cmp_head(f, c, "N, K", col);
            }
            fprintf(f, "| N=%lld, K=%lld |", key[q][0], key[q][1]);
            for (size_t h = 0; h < c->n; h++) {
                if (!col[h])
                    continue;
                char t[64];
                cell_p50(t, sizeof t, kcell(&c->h[h], seen[s][0], seen[s][1], seen[s][2],
                                            key[q][0], key[q][1]));
                fprintf(f, " %s |", t);
            }
            fputc('\n', f);
        }
        if (header) {
            fputc('\n', f);
            tables++;
        }
        for (size_t h = 0; h < c->n && h < MP_CMP_MAX_HOSTS; h++)
            if (alone[h][0]) {
                fprintf(f, "- %s, %s mode, %s fds: measured on %s only: %s.\n", seen[s][2],
                        seen[s][0], seen[s][1], MP_QMD(c->h[h].label), alone[h]);
                for (size_t o = 0; o < c->n; o++)
                    if (o != h && col[o])
                        fprintf(f, "  %s: **not measured** there.\n", MP_QMD(c->h[o].label));
                fputc('\n', f);
            }
    }
    if (!tables)
        fprintf(f, "The hosts share no K-of-N cell.\n\n");
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!c->h[i].m.nkcells) {
            fprintf(f, "- %s: **no K-of-N cells** (run without --active).\n",
                    MP_QMD(c->h[i].label));
            any = 1;
        }
    if (any)
        fputc('\n', f);
}
