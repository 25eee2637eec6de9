/* progress.c - see progress.h. */
#include "run/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"

void mp_progress_init(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell)
{
    memset(p, 0, sizeof *p);
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->start_ns = mp_now_ns();
    p->r = r;
    p->per_cell = units_per_cell ? units_per_cell : 1;
    p->units_total = r->ncells * p->per_cell;
    p->used = calloc(r->ncells ? r->ncells : 1, 1);
    p->final = calloc(r->ncells ? r->ncells : 1, 1);
}

void mp_progress_free(mp_progress *p)
{
    free(p->used);
    free(p->final);
    p->used = p->final = NULL;
}

static double elapsed_s(const mp_progress *p)
{
    return (double)(mp_now_ns() - p->start_ns) / 1e9;
}

/* "12 s", "3 min 05 s" */
static const char *dur(char *buf, size_t len, double s)
{
    if (s < 60)
        snprintf(buf, len, "%.0f s", s);
    else
        snprintf(buf, len, "%d min %02d s", (int)(s / 60), (int)s % 60);
    return buf;
}

void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx)
{
    mp_progress *p = ctx;
    if (cell < p->r->ncells && p->used && p->used[cell] < 255)
        p->used[cell]++;
    if (p->units_done < p->units_total)
        p->units_done++;
    if (p->quiet || !p->tty)
        return;
    double s = elapsed_s(p);
    char a[32], b[32] = "";
    /* the estimate needs some work behind it */
    size_t done = p->units_done ? p->units_done - 1 : 0;
    if (done >= 2)
        snprintf(b, sizeof b, ", ETA %s",
                 dur(a, sizeof a, s / (double)done * (double)(p->units_total - done)));
    fprintf(stderr, "\r\033[K[cell %zu/%zu] %s | %s%s", cell + 1, ncells, label,
            dur(a, sizeof a, s), b);
    fflush(stderr);
}

static void cell_line(const mp_progress *p, size_t i)
{
    const mp_cell *c = &p->r->cells[i];
    char what[96];
    snprintf(what, sizeof what, "%s %s N=%d%s%.0d %s", c->backend->name,
             mp_fd_kind_name(c->kind), c->nfds, c->active > 1 ? " K=" : "",
             c->active > 1 ? c->active : 0, mp_mode_name(c->mode));
    const mp_metric *m = c->status == MP_CELL_OK ? mp_cell_metric(c, "wall_ns") : NULL;
    char t[64];
    if (m)
        fprintf(stderr, "[%zu/%zu %5.1fs] %s: ok, median %s\n", i + 1, p->r->ncells,
                elapsed_s(p), what, mp_fmt_spread(t, sizeof t, &m->s));
    else
        fprintf(stderr, "[%zu/%zu %5.1fs] %s: %s%s%.160s\n", i + 1, p->r->ncells,
                elapsed_s(p), what, mp_cell_status_name(c->status), c->reason[0] ? ": " : "",
                c->reason);
}

void mp_progress_cell_done(size_t cell, void *ctx)
{
    mp_progress *p = ctx;
    if (cell >= p->r->ncells || !p->final || p->final[cell])
        return;
    p->final[cell] = 1;
    if (p->used[cell] < p->per_cell) {   /* skipped work: the estimate shrinks */
        size_t unused = p->per_cell - p->used[cell];
        p->units_total -= unused < p->units_total ? unused : p->units_total;
    }
    if (p->quiet || p->tty)
        return;
    while (p->next_line < p->r->ncells && p->final[p->next_line])
        cell_line(p, p->next_line++);
}

void mp_progress_done(mp_progress *p, const char *what)
{
    if (p->quiet)
        return;
    fprintf(stderr, "%s%s in %.1f s\n", p->tty ? "\r\033[K" : "", what, elapsed_s(p));
}
