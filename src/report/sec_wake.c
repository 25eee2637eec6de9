/* SPDX-License-Identifier: MIT */
/* sec_wake.c - the "sleep depth" section: wakeup cells by how long the
 * waiter had slept before the poke (--wake-delay, the cells'
 * wake_delay_ns).  The other sections read the wakeup cells of the run's
 * shortest delay (report/load.c); this one sets every delay side by side:
 * per fd kind a table (rows N, a column per backend and delay: median
 * [interval from the repeat medians]) and, per backend, a figure of time
 * against N with one line per delay.  See report/md.h and report/fig.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/fig.h"
#include "report/format.h"
#include "report/internal.h"
#include "report/md.h"
#include "report/numeric.h"
#include "report/paper.h"
#include "report/series.h"

#define MAXD 16
#define MAXN 64

typedef struct depth {
    const char *kind;
    long long delays[MAXD];
    size_t nd;
    long long ns[MAXN];
    size_t nn;
} depth;

/* Whether the run has anything to say about sleep depth: wakeup cells and
 * either several delays or one other than 0. */
static int has_depth(const mp_rmodel *m)
{
    return m->wake_delay_ns >= 0 && (m->ndcells || m->wake_delay_ns > 0);
}

static void lists(const mp_rmodel *m, const char *kind, depth *q)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->delays[q->nd++] = m->wake_delay_ns;
    for (size_t i = 0; i < m->ncells; i++)
        if (!strcmp(m->cells[i].mode, "wakeup") && !strcmp(m->cells[i].fd_kind, kind))
            mp_add_sorted(q->ns, &q->nn, MAXN, m->cells[i].nfds);
    for (size_t i = 0; i < m->ndcells; i++)
        if (!strcmp(m->dcells[i].fd_kind, kind)) {
            mp_add_sorted(q->delays, &q->nd, MAXD, m->dcells[i].wake_delay_ns);
            mp_add_sorted(q->ns, &q->nn, MAXN, m->dcells[i].nfds);
        }
}

/* The wakeup cell (an ok one first) for a backend, N and delay, or NULL. */
static const mp_rcell *dcell(const mp_rmodel *m, const char *kind, const char *backend,
                             long long nfds, long long delay)
{
    if (delay == m->wake_delay_ns) {
        const mp_rcell *c = mp_rm_find(m, "wakeup", kind, backend, nfds);
        return c ? c : mp_rm_find_any(m, "wakeup", kind, backend, nfds, 0);
    }
    const mp_rcell *any = NULL;
    for (size_t i = 0; i < m->ndcells; i++) {
        const mp_rcell *c = &m->dcells[i];
        if (c->nfds != nfds || c->wake_delay_ns != delay || strcmp(c->fd_kind, kind) ||
            strcmp(c->backend, backend))
            continue;
        if (c->status == MP_CELL_OK)
            return c;
        if (!any)
            any = c;
    }
    return any;
}

/* Whether a backend has any cell at a delay: a column of the table. */
static int has_col(const mp_rmodel *m, const depth *q, const char *backend, long long delay)
{
    for (size_t i = 0; i < q->nn; i++)
        if (dcell(m, q->kind, backend, q->ns[i], delay))
            return 1;
    return 0;
}

static void table(FILE *f, const mp_rmodel *m, const depth *q)
{
    char a[32], c1[32], c2[32], d[32];
    fprintf(f, "| N |");
    for (size_t b = 0; b < m->nbackends; b++)
        for (size_t k = 0; k < q->nd; k++)
            if (has_col(m, q, m->backends[b], q->delays[k]))
                fprintf(f, " %s, asleep %s |", m->backends[b],
                        mp_duration_fmt(d, sizeof d, q->delays[k]));
    fprintf(f, "\n|---:|");
    for (size_t b = 0; b < m->nbackends; b++)
        for (size_t k = 0; k < q->nd; k++)
            if (has_col(m, q, m->backends[b], q->delays[k]))
                fprintf(f, "---:|");
    fputc('\n', f);
    for (size_t i = 0; i < q->nn; i++) {
        fprintf(f, "| %s |", MP_NUM(q->ns[i]));
        for (size_t b = 0; b < m->nbackends; b++)
            for (size_t k = 0; k < q->nd; k++) {
                if (!has_col(m, q, m->backends[b], q->delays[k]))
                    continue;
                const mp_rcell *c = dcell(m, q->kind, m->backends[b], q->ns[i], q->delays[k]);
                if (!c)
                    fprintf(f, " – |");
                else if (c->status != MP_CELL_OK)
                    fprintf(f, " %s |",
                            c->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error");
                else if (c->ci_kind != MP_CI_NONE)
                    fprintf(f, " %s [%s–%s] |", mp_fmt_num(a, sizeof a, c->wall.p50),
                            mp_fmt_num(c1, sizeof c1, c->ci_lo),
                            mp_fmt_num(c2, sizeof c2, c->ci_hi));
                else
                    fprintf(f, " %s |", mp_fmt_num(a, sizeof a, c->wall.p50));
            }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void wake_md(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    if (!has_depth(m))
        return;
    char d[32];
    for (size_t ki = 0; ki < m->nkinds; ki++) {
        depth q;
        lists(m, m->kinds[ki], &q);
        if (!q.nn)
            continue;
        fprintf(f, "## Wakeup by sleep depth: %s fds\n\n", q.kind);
        fprintf(f, "The poker writes once it has seen the waiter asleep (state S in /proc) "
                   "for the cell's wake delay (`--wake-delay`, `wake_delay_ns`). At 0 the "
                   "waiter has only just gone to sleep: the cheapest wakeup. After a longer "
                   "sleep its CPU may have entered a deeper idle state (on a VM: the vCPU "
                   "halted in the hypervisor), and other work has cooled its caches and TLB, "
                   "so the same wakeup costs more (docs/methodology.md). The other sections "
                   "use the cells of a delay of %s. Median ns per call [95%% interval from "
                   "the repeat medians]; the times run from the poker's write to the "
                   "waiter's return.\n\n", mp_duration_fmt(d, sizeof d, m->wake_delay_ns));
        table(f, m, &q);
        for (size_t b = 0; b < m->nbackends; b++) {
            char name[160];
            snprintf(name, sizeof name, "wake_%s_%s", q.kind, m->backends[b]);
            mp_rmd_figure(f, figs, name);
        }
    }
}

/* ---- figures ------------------------------------------------------------ */

static int write_dat(const mp_rmodel *m, mp_dir *dir, const depth *q, const char *b,
                     long long delay, size_t *npts, mp_err *err)
{
    char name[200], d[32];
    snprintf(name, sizeof name, "data_wake_%s_%s_D%lld.dat", q->kind, b, delay);
    mp_afile a;
    int rc = mp_afile_open(&a, dir, name, err);
    if (rc)
        return rc;
    fprintf(a.f, "# muxprof %s: wakeup mode, %s fds, backend %s, waiter asleep %s before "
                 "the poke;\n# N watched against ns per call.\nnfds p10 p50 p90\n",
            MP_QCOMMENT(m->shown), q->kind, b, mp_duration_fmt(d, sizeof d, delay));
    *npts = 0;
    for (size_t i = 0; i < q->nn; i++) {
        *npts += (size_t)mp__rfig_wall_row(a.f, q->ns[i],
                                           dcell(m, q->kind, b, q->ns[i], delay));
    }
    return mp_afile_commit(&a, err);
}

static int figures(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    if (!has_depth(m))
        return 0;
    for (size_t ki = 0; ki < m->nkinds; ki++) {
        depth q;
        lists(m, m->kinds[ki], &q);
        for (size_t b = 0; b < m->nbackends && q.nn; b++) {
            char dl[MAXD * 24] = "", ll[MAXD * 24] = "", d[32];
            size_t most = 0;
            char labels[MAXD][48];
            int drawn[MAXD] = {0};
            for (size_t k = 0; k < q.nd; k++) {
                size_t pts;
                int rc = write_dat(m, dir, &q, m->backends[b], q.delays[k], &pts, err);
                if (rc)
                    return rc;
                if (!pts)
                    continue;
                mp_duration_fmt(d, sizeof d, q.delays[k]);
                char *sp = strchr(d, ' ');
                if (sp)   /* one word per label: "30us" */
                    memmove(sp, sp + 1, strlen(sp));
                drawn[k] = 1;
                snprintf(labels[k], sizeof labels[k], "asleep %s", d);   /* wake.gp's title */
                size_t l = strlen(dl), l2 = strlen(ll);
                snprintf(dl + l, sizeof dl - l, "%s%lld", l ? " " : "", q.delays[k]);
                snprintf(ll + l2, sizeof ll - l2, "%s%s", l2 ? " " : "", d);
                most = pts > most ? pts : most;
            }
            if (most < 2)
                continue;   /* nothing to draw against N */
            char name[160], vars[MP_RFIG_VARS], ttl[256], cpu[120];
            snprintf(name, sizeof name, "wake_%s_%s", q.kind, m->backends[b]);
            mp_rfig *g = mp__rfig_add(o, MP_FIG_WAKE, name, err);
            if (!g)
                return -ENOMEM;
            snprintf(g->mode, sizeof g->mode, "wakeup");
            snprintf(g->fd_kind, sizeof g->fd_kind, "%s", q.kind);
            mp_rc_host_cpu(m, cpu, sizeof cpu);
            snprintf(g->caption, sizeof g->caption, "%s wakeup time per call against N by "
                     "how long the waiter had slept before the poke, %s, %s fds: median with "
                     "p10..p90 band (log-log)", m->backends[b], cpu, q.kind);
            snprintf(ttl, sizeof ttl, "%s, wakeup, %s fds: time per call by sleep depth",
                     m->backends[b], q.kind);
            snprintf(vars, sizeof vars, "kind = %s\nbackend = %s\ndelays = %s\nlabels = %s\n"
                     "ttl = %s\n", MP_QGP(q.kind), MP_QGP(m->backends[b]), MP_QGP(dl),
                     MP_QGP(ll), MP_QGP(ttl));
            mp_rpaper pp;
            int rc = 0;
            if (o->paper) {   /* what wake.gp draws: a band and a line per delay */
                mp_rpaper_init(&pp, MP_RPAPER_LOG10, MP_RPAPER_LOG10);
                for (size_t k = 0; k < q.nd && rc >= 0; k++) {
                    char file[200];
                    if (!drawn[k])
                        continue;
                    snprintf(file, sizeof file, "data_wake_%s_%s_D%lld.dat", q.kind,
                             m->backends[b], q.delays[k]);
                    rc = mp_rpaper_dat(&pp, dir, file, MP_RPAPER_BAND, "nfds", "p10", "p90",
                                       err);
                    if (rc >= 0)
                        rc = mp_rpaper_dat(&pp, dir, file, MP_RPAPER_LINE, "nfds", "p50", NULL,
                                           err);
                    mp_rpaper_key(&pp, labels[k]);
                }
            }
            if (rc >= 0)
                rc = mp__rfig_wrapper_paper(dir, g, "wake.gp", vars, o->paper ? &pp : NULL,
                                            err);
            if (o->paper)
                mp_rpaper_free(&pp);
            if (rc)
                return rc;
        }
    }
    return 0;
}

const mp_rsection mp_rsec_wake = {"wake", 1, 1, figures, wake_md, NULL, 0};
