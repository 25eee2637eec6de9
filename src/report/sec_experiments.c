/* sec_experiments.c - one report.md section per experiment in results.json
 * (register, herd, ltet: docs/experiments.md), each a table, a reading of
 * its numbers computed from them, and a figure; and those figures' data
 * files and gnuplot wrappers.  Input is m->exp, already checked by
 * report/load_exp.c.  See report/md.h and report/fig.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/series.h"
#include "report/fig.h"
#include "report/internal.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/md.h"
#include "report/format.h"


/* ---- register ------------------------------------------------------------ */

static size_t reg_kinds(const mp_rmodel *m, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < m->exp.nreg; i++) {
        size_t j = 0;
        while (j < n && strcmp(out[j], m->exp.reg[i].fd_kind))
            j++;
        if (j == n && n < max)
            out[n++] = m->exp.reg[i].fd_kind;
    }
    return n;
}

/* Backends (first-seen order) and N (sorted) of one fd kind. */
static void reg_lists(const mp_rmodel *m, const char *kind, const char **bk, size_t *nb,
                      long long *ns, size_t *nn)
{
    *nb = *nn = 0;
    for (size_t i = 0; i < m->exp.nreg; i++) {
        const mp_rreg *r = &m->exp.reg[i];
        if (strcmp(r->fd_kind, kind))
            continue;
        size_t j = 0;
        while (j < *nb && strcmp(bk[j], r->backend))
            j++;
        if (j == *nb && *nb < MP_REXP_MAXL)
            bk[(*nb)++] = r->backend;
        for (j = 0; j < *nn && ns[j] != r->nfds; j++)
            ;
        if (j < *nn || *nn >= MP_REXP_MAXL)
            continue;
        j = (*nn)++;
        while (j > 0 && ns[j - 1] > r->nfds) {
            ns[j] = ns[j - 1];
            j--;
        }
        ns[j] = r->nfds;
    }
}

static const mp_rreg *reg_find(const mp_rmodel *m, const char *kind, const char *b,
                               long long n)
{
    const mp_rreg *any = NULL;
    for (size_t i = 0; i < m->exp.nreg; i++) {
        const mp_rreg *r = &m->exp.reg[i];
        if (r->nfds != n || strcmp(r->fd_kind, kind) || strcmp(r->backend, b))
            continue;
        if (r->status == MP_CELL_OK)
            return r;
        if (!any)
            any = r;
    }
    return any;
}

static int reg_ok(const mp_rreg *r)
{
    return r && r->status == MP_CELL_OK && isfinite(r->ns_per_fd);
}

static void reg_reading(FILE *f, const mp_rmodel *m, const char *kind, const char **bk,
                        size_t nb, const long long *ns, size_t nn)
{
    char a[32], b[32];
    /* the largest N where at least two backends ran: their ns per fd */
    for (size_t i = nn; i-- > 0;) {
        size_t ok = 0, lo = 0, hi = 0;
        for (size_t k = 0; k < nb; k++) {
            const mp_rreg *r = reg_find(m, kind, bk[k], ns[i]);
            if (!reg_ok(r))
                continue;
            const mp_rreg *l = reg_find(m, kind, bk[lo], ns[i]);
            const mp_rreg *h = reg_find(m, kind, bk[hi], ns[i]);
            if (!ok || !reg_ok(l) || r->ns_per_fd < l->ns_per_fd)
                lo = k;
            if (!ok || !reg_ok(h) || r->ns_per_fd > h->ns_per_fd)
                hi = k;
            ok++;
        }
        if (ok < 2)
            continue;
        fprintf(f, "At N=%s, registering costs", MP_NUM(ns[i]));
        for (size_t k = 0, j = 0; k < nb; k++) {
            const mp_rreg *r = reg_find(m, kind, bk[k], ns[i]);
            if (reg_ok(r))
                fprintf(f, "%s %s %s ns per fd", j++ ? "," : "", bk[k],
                        mp_fmt_num(a, sizeof a, r->ns_per_fd));
        }
        const mp_rreg *l = reg_find(m, kind, bk[lo], ns[i]), *h = reg_find(m, kind, bk[hi],
                                                                        ns[i]);
        if (l->ns_per_fd > 0)
            fprintf(f, "; %s's is %s× %s's", bk[hi],
                    mp_fmt_num(b, sizeof b, h->ns_per_fd / l->ns_per_fd), bk[lo]);
        fprintf(f, ".");
        break;
    }
    /* growth of ns per fd over the sweep, per backend */
    int any = 0;
    for (size_t k = 0; k < nb; k++) {
        const mp_rreg *r0 = NULL, *r1 = NULL;
        for (size_t i = 0; i < nn; i++) {
            const mp_rreg *r = reg_find(m, kind, bk[k], ns[i]);
            if (!reg_ok(r) || !(r->ns_per_fd > 0))
                continue;
            if (!r0)
                r0 = r;
            r1 = r;
        }
        if (!r0 || r1 == r0)
            continue;
        fprintf(f, "%s %s %s× from N=%s to N=%s", any++ ? "," : " Per fd, the cost "
                "changes:", bk[k], mp_fmt_num(a, sizeof a, r1->ns_per_fd / r0->ns_per_fd),
                MP_NUM(r0->nfds), MP_NUM(r1->nfds));
    }
    if (any)
        fprintf(f, " (flat: a constant cost per add; growing: each add costs more as the "
                   "set grows).");
    fprintf(f, "\n\n");
}

static void section_register(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    const char *kinds[MP_REXP_MAXL], *bk[MP_REXP_MAXL];
    long long ns[MP_REXP_MAXL];
    size_t nb, nn, nk = reg_kinds(m, kinds, MP_REXP_MAXL);
    char a[32], b[32], c[32];
    fprintf(f, "## Experiment: registration cost (register)\n\n"
               "One sample is a whole registration through the backend interface: open() and "
               "N add() calls (epoll_create1 + N `epoll_ctl(ADD)`; io_uring set-up + N "
               "multishot poll submissions; for poll and select, filling the pollfd array or "
               "fd_set). Closing is not timed. Medians over the samples; ns per fd is the "
               "median divided by N.\n\n");
    if (!m->exp.nreg) {
        fprintf(f, "No usable cells in `experiments.register`.\n\n");
        return;
    }
    for (size_t ki = 0; ki < nk; ki++) {
        reg_lists(m, kinds[ki], bk, &nb, ns, &nn);
        fprintf(f, "%s fds: ns per fd (whole registration p50, ns):\n\n| backend |", kinds[ki]);
        for (size_t i = 0; i < nn; i++)
            fprintf(f, " N=%s |", MP_NUM(ns[i]));
        fprintf(f, "\n|---|");
        for (size_t i = 0; i < nn; i++)
            fprintf(f, "---:|");
        fputc('\n', f);
        for (size_t k = 0; k < nb; k++) {
            fprintf(f, "| %s |", bk[k]);
            for (size_t i = 0; i < nn; i++) {
                const mp_rreg *r = reg_find(m, kinds[ki], bk[k], ns[i]);
                if (reg_ok(r))
                    fprintf(f, " %s (%s) |", mp_fmt_num(a, sizeof a, r->ns_per_fd),
                            mp_fmt_num(b, sizeof b, r->total.p50));
                else
                    fprintf(f, " %s |", !r ? "–" : r->status == MP_CELL_UNSUPPORTED ?
                            "unsupported" : "error");
            }
            fputc('\n', f);
        }
        fputc('\n', f);
        const char *seen[8];
        size_t nseen = 0;
        for (size_t i = 0; i < m->exp.nreg && nseen < 8; i++) {
            const mp_rreg *r = &m->exp.reg[i];
            if (r->status == MP_CELL_OK || strcmp(r->fd_kind, kinds[ki]))
                continue;
            size_t j = 0;
            while (j < nseen && strcmp(seen[j], r->reason))
                j++;
            if (j < nseen)
                continue;
            seen[nseen++] = r->reason;
            char why[300];
            fprintf(f, "- %s, N=%s: %s: %s\n", r->backend, MP_NUM(r->nfds),
                    r->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error",
                    r->reason[0] ? mp_md_cell(why, sizeof why, r->reason) : "(no reason given)");
        }
        if (nseen)
            fputc('\n', f);
        reg_reading(f, m, kinds[ki], bk, nb, ns, nn);
        /* counters per fd at the largest N that has them */
        for (size_t i = nn; i-- > 0;) {
            int any = 0;
            for (size_t k = 0; k < nb; k++) {
                const mp_rreg *r = reg_find(m, kinds[ki], bk[k], ns[i]);
                if (!reg_ok(r) || !r->ncpf)
                    continue;
                if (!any++)
                    fprintf(f, "Counters per registered fd at N=%s (median count of a "
                               "whole registration / N):\n\n| backend | counter | per fd |\n"
                               "|---|---|---:|\n", MP_NUM(ns[i]));
                for (size_t x = 0; x < r->ncpf; x++)
                    fprintf(f, "| %s | %s | %s |\n", bk[k], r->cpf[x].name,
                            mp_fmt_num(c, sizeof c, r->cpf[x].s.p50));
            }
            if (any) {
                fputc('\n', f);
                break;
            }
        }
        char name[160];
        snprintf(name, sizeof name, "register_%s", kinds[ki]);
        mp_rmd_figure(f, figs, name);
    }
}

/* ---- herd ---------------------------------------------------------------- */

static const char *two(char *buf, size_t len, double v)
{
    if (isfinite(v))
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "n/a");
    return buf;
}

static void section_herd(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    char a[32], b[32], c[32];
    fprintf(f, "## Experiment: thundering herd (herd)\n\n"
               "M threads wait in `epoll_wait` on one pipe; each round writes one byte once "
               "all of them sleep. Per event: *woken* = waiters that ran at all (their "
               "voluntary context switches in /proc went up, which also sees a waiter that "
               "woke, found nothing and slept again inside the kernel), *returned* = "
               "`epoll_wait` returned, *wasted* = woken without getting the byte; and the "
               "time from the write to the first return. Arrangements: own-sets (an epoll "
               "set per waiter), own-sets-exclusive (the same with EPOLLEXCLUSIVE), "
               "shared-set (one set, all waiting on it), shared-set-oneshot (EPOLLONESHOT, "
               "re-armed by the winner).\n\n");
    if (!m->exp.nherd) {
        fprintf(f, "No usable arrangements in `experiments.herd`.\n\n");
        return;
    }
    fprintf(f, "| arrangement | waiters | rounds (lost, miscounted) | woken per event, mean (p50) | "
               "returned | wasted | context switches | first wakeup p50 / p90 (ns) |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < m->exp.nherd; i++) {
        const mp_rherd *h = &m->exp.herd[i];
        char why[300];
        if (h->status != MP_CELL_OK) {
            fprintf(f, "| %s | %s | %s: %s ||||||\n", h->name, mp_fmt_num(a, sizeof a,
                    h->waiters), h->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error",
                    h->reason[0] ? mp_md_cell(why, sizeof why, h->reason) : "no reason given");
            continue;
        }
        char mc[32];
        fprintf(f, "| %s | %s | %s (%s, %s) |", h->name, mp_fmt_num(a, sizeof a, h->waiters),
                mp_fmt_num(b, sizeof b, h->rounds), mp_fmt_num(c, sizeof c, h->rounds_lost),
                isfinite(h->rounds_miscounted) ? mp_fmt_num(mc, sizeof mc, h->rounds_miscounted)
                                               : "not recorded");
        if (!h->has_events) {
            fprintf(f, " no round completed |||||\n");
            continue;
        }
        char v[9][32];
        fprintf(f, " %s (%s) | %s (%s) | %s (%s) | %s | %s / %s |\n",
                two(v[0], 32, h->woken.mean), mp_fmt_num(v[1], 32, h->woken.p50),
                two(v[2], 32, h->returned.mean), mp_fmt_num(v[3], 32, h->returned.p50),
                two(v[4], 32, h->wasted.mean), mp_fmt_num(v[5], 32, h->wasted.p50),
                two(v[6], 32, h->csw.mean), mp_fmt_num(v[7], 32, h->first_ns.p50),
                mp_fmt_num(v[8], 32, h->first_ns.p90));
    }
    fputc('\n', f);
    /* reading: woken and wasted per event (means), fewest and most */
    const mp_rherd *lo = NULL, *hi = NULL;
    int any = 0;
    for (size_t i = 0; i < m->exp.nherd; i++) {
        const mp_rherd *h = &m->exp.herd[i];
        if (h->status != MP_CELL_OK || !h->has_events || !isfinite(h->woken.mean))
            continue;
        fprintf(f, "%s%s: %s waiters woken per event, %s of them for nothing", any++ ? "; "
                : "", h->name, two(a, sizeof a, h->woken.mean),
                two(b, sizeof b, h->wasted.mean));
        if (!lo || h->woken.mean < lo->woken.mean)
            lo = h;
        if (!hi || h->woken.mean > hi->woken.mean)
            hi = h;
    }
    if (any)
        fprintf(f, " (means over the rounds).");
    if (lo && hi && hi->woken.mean > lo->woken.mean)
        fprintf(f, " %s wakes %s× as many waiters per event as %s.", hi->name,
                mp_fmt_num(a, sizeof a, hi->woken.mean / lo->woken.mean), lo->name);
    if (any)
        fprintf(f, "\n\n");
    const char *bind = NULL;
    const cJSON *hb = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m->root,
                                         "experiments"), "herd"), "binding");
    if (cJSON_IsString(hb))
        bind = hb->valuestring;
    if (bind) {
        char why[300];
        fprintf(f, "Placement: %s.\n\n", mp_md_cell(why, sizeof why, bind));
    }
    mp_rmd_figure(f, figs, "herd_per_event");
}

static void experiments(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    if (m->exp.has_register)
        section_register(f, m, figs);
    if (m->exp.has_herd)
        section_herd(f, m, figs);
    if (m->exp.has_ltet)
        mp__rexp_ltet_md(f, m, figs);
}

/* ---- figures ------------------------------------------------------------- */

static int open_dat(mp_afile *a, mp_dir *dir, const char *name, mp_err *err)
{
    return mp_afile_open(a, dir, name, err);
}

static int fig_register(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    const char *kinds[MP_REXP_MAXL], *bk[MP_REXP_MAXL];
    long long ns[MP_REXP_MAXL];
    size_t nb, nn, nk = reg_kinds(m, kinds, MP_REXP_MAXL);
    for (size_t ki = 0; ki < nk; ki++) {
        reg_lists(m, kinds[ki], bk, &nb, ns, &nn);
        char bl[MP_REXP_MAXL * 33] = "", sl[MP_REXP_MAXL * 4] = "", name[200];
        int positive = 1;
        size_t pts = 0;
        for (size_t k = 0; k < nb; k++) {
            mp_afile a;
            snprintf(name, sizeof name, "data_register_%s_%s.dat", kinds[ki], bk[k]);
            int rc = open_dat(&a, dir, name, err);
            if (rc)
                return rc;
            fprintf(a.f, "# muxprof %s: registration cost, %s fds, backend %s;\n"
                         "# ns_per_fd = total_p50 / N; totals in ns for open() + N add().\n"
                         "nfds ns_per_fd total_p10 total_p50 total_p90\n", MP_QCOMMENT(m->shown),
                    kinds[ki], bk[k]);
            size_t mine = 0;
            for (size_t i = 0; i < nn; i++) {
                const mp_rreg *r = reg_find(m, kinds[ki], bk[k], ns[i]);
                if (!reg_ok(r))
                    continue;
                fprintf(a.f, "%lld", ns[i]);
                mp__rfig_num(a.f, r->ns_per_fd);
                mp__rfig_num(a.f, r->total.p10);
                mp__rfig_num(a.f, r->total.p50);
                mp__rfig_num(a.f, r->total.p90);
                fputc('\n', a.f);
                positive &= r->ns_per_fd > 0;
                mine++;
            }
            if ((rc = mp_afile_commit(&a, err)))
                return rc;
            if (mine) {
                size_t l = strlen(bl), ls = strlen(sl);
                snprintf(bl + l, sizeof bl - l, "%s%s", l ? " " : "", bk[k]);
                snprintf(sl + ls, sizeof sl - ls, "%s%zu", ls ? " " : "", k % 8 + 1);
            }
            pts += mine;
        }
        if (!pts)
            continue;
        snprintf(name, sizeof name, "register_%s", kinds[ki]);
        mp_rfig *g = mp__rfig_add(o, MP_FIG_REGISTER, name, err);
        if (!g)
            return -ENOMEM;
        snprintf(g->fd_kind, sizeof g->fd_kind, "%s", kinds[ki]);
        char cpu[120];
        mp_rc_host_cpu(m, cpu, sizeof cpu);
        snprintf(g->caption, sizeof g->caption, "Registration cost per descriptor against N, "
                 "%s, %s fds: median of open() + N add() divided by N (log x%s)", cpu,
                 kinds[ki], positive ? ", log y" : "");
        char vars[MP_RFIG_VARS], ttl[256];
        snprintf(ttl, sizeof ttl, "registering N %s fds: ns per fd", kinds[ki]);
        snprintf(vars, sizeof vars, "kind = %s\nbackends = %s\nstyles = %s\nlogy = %d\n"
                 "ttl = %s\n", MP_QGP(kinds[ki]), MP_QGP(bl), MP_QGP(sl), positive,
                 MP_QGP(ttl));
        int rc = mp__rfig_wrapper(dir, g, "register.gp", vars, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int fig_herd(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    mp_afile a;
    size_t rows = 0;
    for (size_t i = 0; i < m->exp.nherd; i++)
        rows += m->exp.herd[i].status == MP_CELL_OK && m->exp.herd[i].has_events;
    if (!rows)
        return 0;
    int rc = open_dat(&a, dir, "data_herd.dat", err);
    if (rc)
        return rc;
    fprintf(a.f, "# muxprof %s: thundering herd, per written byte (means over the rounds,\n"
                 "# then medians); woken = waiters that ran, wasted = woken for nothing.\n"
                 "arrangement woken returned wasted woken_p50 returned_p50 wasted_p50\n",
            MP_QCOMMENT(m->shown));
    for (size_t i = 0; i < m->exp.nherd; i++) {
        const mp_rherd *h = &m->exp.herd[i];
        if (h->status != MP_CELL_OK || !h->has_events)
            continue;
        fprintf(a.f, "%s", MP_QDAT(h->name));   /* the mean, or the median where it is missing */
        mp__rfig_num(a.f, isfinite(h->woken.mean) ? h->woken.mean : h->woken.p50);
        mp__rfig_num(a.f, isfinite(h->returned.mean) ? h->returned.mean : h->returned.p50);
        mp__rfig_num(a.f, isfinite(h->wasted.mean) ? h->wasted.mean : h->wasted.p50);
        mp__rfig_num(a.f, h->woken.p50);
        mp__rfig_num(a.f, h->returned.p50);
        mp__rfig_num(a.f, h->wasted.p50);
        fputc('\n', a.f);
    }
    if ((rc = mp_afile_commit(&a, err)))
        return rc;
    mp_rfig *g = mp__rfig_add(o, MP_FIG_HERD, "herd_per_event", err);
    if (!g)
        return -ENOMEM;
    double w = m->exp.herd[0].waiters;
    char cpu[120];
    mp_rc_host_cpu(m, cpu, sizeof cpu);
    snprintf(g->caption, sizeof g->caption, "Thundering herd, %s, pipe: waiters woken, returned "
             "and woken for nothing per event, per arrangement (means over the rounds)", cpu);
    char vars[MP_RFIG_VARS], ttl[256];
    if (isfinite(w))
        snprintf(ttl, sizeof ttl, "thundering herd, %.0f waiters: per event", w);
    else
        snprintf(ttl, sizeof ttl, "thundering herd: per event");
    snprintf(vars, sizeof vars, "ttl = %s\n", MP_QGP(ttl));
    if (isfinite(w))
        snprintf(vars + strlen(vars), sizeof vars - strlen(vars), "waiters = %.0f\n", w);
    return mp__rfig_wrapper(dir, g, "herd.gp", vars, err);
}

static int figures(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    int rc = 0;
    if (m->exp.has_register && (rc = fig_register(m, dir, o, err)))
        return rc;
    if (m->exp.has_herd && (rc = fig_herd(m, dir, o, err)))
        return rc;
    if (m->exp.has_ltet && (rc = mp__rexp_ltet_fig(m, dir, o, err)))
        return rc;
    return 0;
}


const mp_rsection mp_rsec_experiments = {"experiments", 0, 1, figures, experiments, NULL};
