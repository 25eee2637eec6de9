/* sec_ltet.c - the ltet experiment's part of the experiments section
 * (sec_experiments.c): level- against edge-triggered epoll with partial
 * reads, its table, reading and figure (report/internal.h). */
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

static const mp_rltet *lt_find(const mp_rmodel *m, int edge, long long chunk)
{
    for (size_t i = 0; i < m->exp.nltet; i++)
        if (m->exp.ltet[i].edge == edge && m->exp.ltet[i].chunk == chunk)
            return &m->exp.ltet[i];
    return NULL;
}

static int lt_ok(const mp_rltet *t)
{
    return t && t->status == MP_CELL_OK;
}

static size_t lt_chunks(const mp_rmodel *m, long long *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->exp.nltet; i++) {
        long long x = m->exp.ltet[i].chunk;
        size_t j = 0;
        while (j < n && out[j] != x)
            j++;
        if (j < n || n >= MP_REXP_MAXL)
            continue;
        j = n++;
        while (j > 0 && out[j - 1] > x) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return n;
}

static void lt_cells(FILE *f, const mp_rltet *t)
{
    char a[32], b[32], c[32], d[32];
    if (!t) {
        fprintf(f, " – | – | – |");
        return;
    }
    if (t->status != MP_CELL_OK) {
        char why[200];
        fprintf(f, " %s: %s | | |", t->status == MP_CELL_UNSUPPORTED ? "unsupported" : "error",
                t->reason[0] ? mp_md_cell(why, sizeof why, t->reason) : "no reason given");
        return;
    }
    fprintf(f, " %s | %s (%s) | %s |", mp_fmt_num(a, sizeof a, t->syscalls),
            mp_fmt_num(b, sizeof b, t->ns_p50), mp_fmt_num(c, sizeof c, t->ns_p90),
            mp_fmt_num(d, sizeof d, t->ns_per_syscall));
}

void mp__rexp_ltet_md(FILE *f, const mp_rmodel *m, const mp_rfigs *figs)
{
    char a[32], b[32], c[32], d[32];
    long long ch[MP_REXP_MAXL];
    size_t nc = lt_chunks(m, ch);
    fprintf(f, "## Experiment: level- vs edge-triggered epoll, partial reads (ltet)\n\n");
    if (isfinite(m->exp.event_bytes))
        fprintf(f, "One event is one write of %s bytes into a pipe; ", mp_fmt_num(a, sizeof a,
                m->exp.event_bytes));
    else
        fprintf(f, "One event is one write into a pipe (its size is not recorded); ");
    fprintf(f, "the same thread then reads it in chunks. Level-triggered (LT): "
               "`epoll_wait`, one read, back to `epoll_wait` while data is left. "
               "Edge-triggered (ET): one `epoll_wait`, then reads until EAGAIN. System calls "
               "are counted by the loop; the time runs from after the write to the last "
               "read.\n\n");
    if (!m->exp.nltet) {
        fprintf(f, "No usable cells in `experiments.ltet`.\n\n");
        return;
    }
    fprintf(f, "| chunk (bytes) | LT syscalls per event | LT ns per event p50 (p90) | LT ns per "
               "syscall | ET syscalls per event | ET ns per event p50 (p90) | ET ns per "
               "syscall |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < nc; i++) {
        fprintf(f, "| %s |", MP_NUM(ch[i]));
        lt_cells(f, lt_find(m, 0, ch[i]));
        lt_cells(f, lt_find(m, 1, ch[i]));
        fputc('\n', f);
    }
    fputc('\n', f);
    /* reading: the smallest and the largest chunk where both ran */
    size_t first = nc, last = nc;
    for (size_t i = 0; i < nc; i++)
        if (lt_ok(lt_find(m, 0, ch[i])) && lt_ok(lt_find(m, 1, ch[i]))) {
            if (first == nc)
                first = i;
            last = i;
        }
    int said = 0;
    char r[32];
    for (size_t i = first; i < nc; i = i == last ? nc : last) {
        const mp_rltet *l = lt_find(m, 0, ch[i]), *e = lt_find(m, 1, ch[i]);
        fprintf(f, "%s%s-byte reads, LT makes %s system calls per event against ET's %s "
                "and takes %s ns against %s ns (LT/ET %s×)", said++ ? "; with " : "With ",
                MP_NUM(ch[i]), mp_fmt_num(a, sizeof a, l->syscalls),
                mp_fmt_num(b, sizeof b, e->syscalls), mp_fmt_num(c, sizeof c, l->ns_p50),
                mp_fmt_num(d, sizeof d, e->ns_p50),
                mp_fmt_num(r, sizeof r, e->ns_p50 > 0 ? l->ns_p50 / e->ns_p50 : NAN));
    }
    if (said)
        fprintf(f, ". LT pays an `epoll_wait` per read; ET pays one read more, the one that "
                   "finds the pipe empty.\n\n");
    mp_rmd_figure(f, figs, "ltet_chunks");
}

int mp__rexp_ltet_fig(const mp_rmodel *m, mp_dir *dir, mp_rfigs *o, mp_err *err)
{
    long long ch[MP_REXP_MAXL];
    size_t nc = lt_chunks(m, ch), pts = 0;
    static const char *trig[] = {"level", "edge"};
    for (int e = 0; e < 2; e++) {
        char name[64];
        mp_afile a;
        snprintf(name, sizeof name, "data_ltet_%s.dat", trig[e]);
        int rc = mp_afile_open(&a, dir, name, err);
        if (rc)
            return rc;
        fprintf(a.f, "# muxprof %s: %s-triggered epoll, one write consumed in reads of\n"
                     "# `chunk` bytes: system calls and ns per delivered write.\n"
                     "chunk syscalls ns_p50 ns_p90 ns_per_syscall\n", MP_QCOMMENT(m->shown),
                trig[e]);
        for (size_t i = 0; i < nc; i++) {
            const mp_rltet *t = lt_find(m, e, ch[i]);
            if (!lt_ok(t) || !(t->syscalls > 0) || !(t->ns_p50 > 0))
                continue;
            fprintf(a.f, "%lld", ch[i]);
            mp__rfig_num(a.f, t->syscalls);
            mp__rfig_num(a.f, t->ns_p50);
            mp__rfig_num(a.f, t->ns_p90);
            mp__rfig_num(a.f, t->ns_per_syscall);
            fputc('\n', a.f);
            pts++;
        }
        if ((rc = mp_afile_commit(&a, err)))
            return rc;
    }
    if (!pts)
        return 0;
    mp_rfig *g = mp__rfig_add(o, MP_FIG_LTET, "ltet_chunks", err);
    if (!g)
        return -ENOMEM;
    char cpu[120];
    mp_rc_host_cpu(m, cpu, sizeof cpu);
    snprintf(g->caption, sizeof g->caption, "Level- vs edge-triggered epoll, %s, pipe: system "
             "calls (left) and time (right) per delivered write against the read size "
             "(log-log)", cpu);
    char vars[MP_RFIG_VARS], ttl[256];
    if (isfinite(m->exp.event_bytes))
        snprintf(ttl, sizeof ttl, "LT vs ET, one %.0f-byte write per event",
                 m->exp.event_bytes);
    else
        snprintf(ttl, sizeof ttl, "LT vs ET, one write per event");
    snprintf(vars, sizeof vars, "ttl = %s\n", MP_QGP(ttl));
    return mp__rfig_wrapper(dir, g, "ltet.gp", vars, err);
}
