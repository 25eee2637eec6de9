/* SPDX-License-Identifier: MIT */
/* progress.c - see progress.h. */
#include "run/progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "common/clock.h"

#define NONE ((size_t)-1)

void mp_progress_init(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell)
{
    memset(p, 0, sizeof *p);
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->start_ns = mp_now_ns();
    p->r = r;
    p->per_cell = units_per_cell ? units_per_cell : 1;
    size_t n = r->ncells ? r->ncells : 1;
    p->used = calloc(n, 1);
    p->final = calloc(n, 1);
    p->maxfits = n < 64 ? n : 64;
    p->fits = calloc(p->maxfits, sizeof *p->fits);
    p->cur = NONE;
    p->cur_begin_ns = p->start_ns;
    p->last_line_ns = p->start_ns;
}

void mp_progress_free(mp_progress *p)
{
    free(p->used);
    free(p->final);
    free(p->fits);
    p->used = p->final = NULL;
    p->fits = NULL;
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

/* ---- the estimate ---- */

static mp_progress_fit *fit_of(const mp_progress *p, const mp_cell *c)
{
    for (size_t i = 0; i < p->nfits; i++)
        if (p->fits[i].mode == (int)c->mode && p->fits[i].backend == (const void *)c->backend)
            return &p->fits[i];
    return NULL;
}

/* One unit of cell i took y seconds. */
static void learn(mp_progress *p, size_t i, double y)
{
    const mp_cell *c = &p->r->cells[i];
    mp_progress_fit *f = fit_of(p, c);
    if (!f) {
        if (!p->fits || p->nfits >= p->maxfits)
            return;
        f = &p->fits[p->nfits++];
        f->mode = (int)c->mode;
        f->backend = c->backend;
    }
    size_t k = 0;
    while (k < f->npts && f->x[k] != c->nfds)
        k++;
    if (k == f->npts) {
        if (k == MP_PROGRESS_PTS)
            return;
        f->x[f->npts++] = c->nfds;
    }
    if (f->ny[k] < MP_PROGRESS_PER_N)
        f->y[k][f->ny[k]++] = y;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n-1] (reordered). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds one unit at N costs by fit f: the median unit at each N seen,
 * and through them a line whose slope is the median of the slopes between
 * every two of them (Theil and Sen's estimator, not least squares: a unit
 * slowed by other work moves it little), never below 0 nor below the
 * cheapest median; with one N, its median. */
static double price(const mp_progress_fit *f, double n)
{
    double m[MP_PROGRESS_PTS], tmp[MP_PROGRESS_PER_N];
    double lo = INFINITY;
    for (size_t i = 0; i < f->npts; i++) {
        memcpy(tmp, f->y[i], f->ny[i] * sizeof *tmp);
        m[i] = median(tmp, f->ny[i]);
        lo = m[i] < lo ? m[i] : lo;
    }
    if (f->npts < 2)
        return m[0];
    static double pair[MP_PROGRESS_PTS * (MP_PROGRESS_PTS - 1) / 2];
    size_t np = 0;
    for (size_t i = 0; i < f->npts; i++)
        for (size_t j = i + 1; j < f->npts; j++)
            pair[np++] = (m[j] - m[i]) / (f->x[j] - f->x[i]);
    double b = median(pair, np);
    if (b < 0)
        b = 0;
    double at0[MP_PROGRESS_PTS];   /* each median's intercept under that slope */
    for (size_t i = 0; i < f->npts; i++)
        at0[i] = m[i] - b * f->x[i];
    double y = median(at0, f->npts) + b * n;
    return y > lo ? y : lo;
}

/* 1 when the fit has seen N over a tenfold range. */
static int spans_decade(const mp_progress_fit *f)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < f->npts; i++) {
        lo = f->x[i] < lo ? f->x[i] : lo;
        hi = f->x[i] > hi ? f->x[i] : hi;
    }
    return f->npts >= 2 && hi >= 10 * lo;
}

/* Seconds one unit of cell c costs: its own (mode, backend), else the mean
 * over those of its mode, else over all; negative when nothing is known. */
static double unit_price(const mp_progress *p, const mp_cell *c)
{
    const mp_progress_fit *f = fit_of(p, c);
    if (f)
        return price(f, c->nfds);
    for (int same_mode = 1; same_mode >= 0; same_mode--) {
        double sum = 0;
        int k = 0;
        for (size_t i = 0; i < p->nfits; i++)
            if (!same_mode || p->fits[i].mode == (int)c->mode) {
                sum += price(&p->fits[i], c->nfds);
                k++;
            }
        if (k)
            return sum / k;
    }
    return -1;
}

/* 1 when the backend refuses the cell outright (select beyond FD_SETSIZE,
 * an ET set in ready mode): it will cost no units.  The lowest fd numbers a
 * set of N can have stand in for the ones it will get. */
static int refused(const mp_cell *c)
{
    char why[256];
    const mp_backend_ops *b = c->backend;
    return (b->unsupported_mode && b->unsupported_mode(mp_mode_name(c->mode))) ||
           (b->unsupported_fds && b->unsupported_fds(3, 3 + c->nfds, why, sizeof why));
}

double mp_progress_eta_s(const mp_progress *p, uint64_t now_ns)
{
    int grows = 0;   /* no estimate before some cost has been seen over a decade of N */
    for (size_t i = 0; i < p->nfits; i++)
        grows |= spans_decade(&p->fits[i]);
    if (!p->used || !grows)
        return -1;
    double left = 0;
    for (size_t i = 0; i < p->r->ncells; i++) {
        if (p->final[i] || (!p->used[i] && refused(&p->r->cells[i])))
            continue;
        double u = unit_price(p, &p->r->cells[i]);
        if (u < 0)
            return -1;
        if (p->used[i] < p->per_cell)
            left += u * (double)(p->per_cell - p->used[i]);
        if (i == p->cur) {   /* the unit under way: what is left of it */
            double in = (double)(now_ns - p->cur_begin_ns) / 1e9;
            left += u > in ? u - in : 0;
        }
    }
    return left;
}

/* The unit under way ends now. */
static void close_unit(mp_progress *p, uint64_t now_ns)
{
    if (p->cur == NONE)
        return;
    learn(p, p->cur, (double)(now_ns - p->cur_begin_ns) / 1e9);
    p->cur = NONE;
    p->cur_begin_ns = now_ns;
}

void mp_progress_unit_at(mp_progress *p, size_t cell, uint64_t now_ns)
{
    if (!p->used || cell >= p->r->ncells)
        return;
    /* A unit that follows a pause (the next cells' descriptors being set
     * up) begins where the last one ended, so the set-up is priced with the
     * cells it was for. */
    close_unit(p, now_ns);
    p->cur = cell;
    if (p->used[cell] < 255)
        p->used[cell]++;
    p->units_done++;
}

void mp_progress_cell_done_at(mp_progress *p, size_t cell, uint64_t now_ns)
{
    if (!p->final || cell >= p->r->ncells || p->final[cell])
        return;
    if (p->cur == cell)
        close_unit(p, now_ns);
    p->final[cell] = 1;
    p->cells_done++;
}

size_t mp_progress_pass(const mp_progress *p, size_t cell, size_t *k, size_t *n)
{
    *k = *n = 0;
    if (!p->used || cell >= p->r->ncells)
        return 0;
    size_t pass = p->used[cell];
    for (size_t i = 0; i < p->r->ncells; i++) {
        if (!p->used[i] && (p->final[i] || refused(&p->r->cells[i])))
            continue;
        (*n)++;
        *k += p->used[i] >= pass;
    }
    return pass;
}

int mp_progress_line_due(mp_progress *p, uint64_t now_ns)
{
    if (now_ns - p->last_line_ns < (uint64_t)MP_PROGRESS_PLAIN_S * 1000000000u)
        return 0;
    p->last_line_ns = now_ns;
    return 1;
}

void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx)
{
    mp_progress *p = ctx;
    uint64_t now = mp_now_ns();
    mp_progress_unit_at(p, cell, now);
    if (p->quiet || (!p->tty && !mp_progress_line_due(p, now)))
        return;
    char a[32], b[48] = "";
    double eta = mp_progress_eta_s(p, now);
    if (eta >= 0)
        snprintf(b, sizeof b, ", ETA %s", dur(a, sizeof a, eta));
    size_t k, n, pass = mp_progress_pass(p, cell, &k, &n);
    fprintf(stderr, "%s[pass %zu/%zu, cell %zu/%zu; %zu/%zu cells done] %s | %s%s%s",
            p->tty ? "\r\033[K" : "", pass, p->per_cell, k, n, p->cells_done, ncells, label,
            dur(a, sizeof a, (double)(now - p->start_ns) / 1e9), b, p->tty ? "" : "\n");
    fflush(stderr);
}

static void cell_line(mp_progress *p, size_t i)
{
    p->last_line_ns = mp_now_ns();
    const mp_cell *c = &p->r->cells[i];
    char what[128];
    mp_cell_name(c, what, sizeof what);
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
    if (!p->final || cell >= p->r->ncells || p->final[cell])
        return;
    mp_progress_cell_done_at(p, cell, mp_now_ns());
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
