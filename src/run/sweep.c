/* SPDX-License-Identifier: MIT */
/* sweep.c - the measurement loop of `muxprof run`.
 *
 * The repeats are passes over the sweep (--repeat-order passes): in each
 * pass, for each fd kind and each N, a descriptor set is built afresh and,
 * per mode, one timing repeat runs with the backends interleaved (so slow
 * drift of the host hits every backend alike), their order rotated by one
 * from repeat to repeat (so no order effect always lands on the same
 * backend).  A cell's repeats are thus spread over the whole run and over
 * as many sets (memory layouts) as repeats: what varies from run to run
 * varies between its repeats too, and the interval from its repeat medians
 * says so.  After the last pass come one counter pass per counter group and
 * backend.  --repeat-order back-to-back runs a cell's repeats one after
 * another on one set instead.  A backend is registered on the set only around its own blocks
 * (open + add before, close after): another backend's epoll callbacks or
 * io_uring poll requests on the same fds would otherwise run on every poke
 * and inside the timed window.  Cells that cannot run get status
 * "unsupported" or "error" and a reason; the sweep goes on.
 */
#include "run/sweep.h"

#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "run/fdtable.h"
#include "run/internal.h"
#include "run/procfs.h"
#include "common/stats.h"

#define CLOCK_BRACKETS 500    /* empty clock brackets before each ready timing block */
#define BARE_LOOP 100         /* calls in one bare-loop interval, per repeat */
#define PMU_FD_SLACK 40       /* counter fds, epoll fds, stdio, files being written */

static void mark(mp_cell *c, mp_cell_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void mark(mp_cell *c, mp_cell_status s, const char *fmt, ...)
{
    va_list ap;
    if (c->status == MP_CELL_ERROR || c->status == MP_CELL_UNSUPPORTED)
        return;   /* keep the first reason */
    c->status = s;
    va_start(ap, fmt);
    vsnprintf(c->reason, sizeof c->reason, fmt, ap);
    va_end(ap);
}

/* When a cell fails, say so if the reason is that the helper holding the
 * far ends died: all N fds then read as EOF, and the symptom (N ready fds,
 * EPIPE) would otherwise hide the cause. */
static void note_dead_peer(mp_cell *c, mp_peer *peer)
{
    static const char note[] = " (the descriptor helper process died: ";
    char how[64];
    if (!peer || strstr(c->reason, note) || mp_peer_alive(peer, how, sizeof how))
        return;   /* alive, or said already (a cell keeps its first reason) */
    size_t len = strlen(c->reason);
    snprintf(c->reason + len, sizeof c->reason - len,
             "%s%s; its far ends closed, so every watched fd reads as end-of-file)", note, how);
}

/* The process's thread count as a timed block starts (the most seen). */
static void note_threads(mp_cell *c)
{
    int t = mp_process_threads();
    if (t > c->process_threads)
        c->process_threads = t;
}

static int active(const mp_cell *c)
{
    return c->status == MP_CELL_PENDING || c->status == MP_CELL_OK;
}

/* Tell the progress callback that a unit of cell c begins: "what i/n". */
void mp__sweep_progress(const mp_sweep_env *env, size_t cell, size_t ncells, const mp_cell *c,
                        const char *what, int i, int n)
{
    if (!env->progress)
        return;
    char label[192], name[128];
    snprintf(label, sizeof label, "%s, %s %d/%d", mp_cell_name(c, name, sizeof name), what, i,
             n);
    env->progress(cell, ncells, label, env->progress_ctx);
}

/* Register the whole set with a backend: a fresh state, every fd added. */
static int backend_register(const mp_backend_ops *ops, const mp_fdset *set, void **st,
                            mp_err *err)
{
    *st = NULL;
    int rc = ops->open(st, set->n, err);
    for (int i = 0; rc == 0 && i < set->n; i++)
        rc = ops->add(*st, set->fds[i], err);
    if (rc < 0 && *st) {
        ops->close(*st);
        *st = NULL;
    }
    return rc;
}

static void backend_unregister(const mp_backend_ops *ops, void **st)
{
    if (*st)
        ops->close(*st);
    *st = NULL;
}

/* Summaries of the timing samples of a cell. */
static int summarize_cell(mp_cell *c, const mp_results *r, mp_err *err)
{
    if (c->nsamples == 0) {
        mark(c, MP_CELL_ERROR, "no sample kept (%zu discarded: the waiter was never seen "
             "asleep when poked)", c->discarded);
        return 0;
    }
    double *x = malloc(sizeof *x * c->nsamples);
    mp_metric *raw = mp_cell_add_metric(c, "wall_raw_ns");
    mp_metric *wall = raw ? mp_cell_add_metric(c, "wall_ns") : NULL;
    if (!x || !wall) {
        free(x);
        return mp_errf(err, -ENOMEM, "out of memory");
    }
    raw = &c->metrics[c->nmetrics - 2];
    /* Ready mode: the cell's own empty bracket, measured just before each
     * of its timing blocks (the median of those medians). */
    double sub = 0.0;
    if (c->mode == MP_MODE_READY && c->bracket_ns) {
        double tmp[MP_REPEATS_MAX];
        size_t nb = 0;
        for (int i = 0; i < r->cfg->repeats; i++)
            if (!isnan(c->bracket_ns[i]))
                tmp[nb++] = c->bracket_ns[i];
        c->empty_bracket_ns = nb ? mp_median(tmp, nb) : NAN;
        sub = nb ? c->empty_bracket_ns : 0.0;
    }
    memcpy(x, c->samples, sizeof *x * c->nsamples);
    mp_summarize(x, c->nsamples, &raw->s);
    for (size_t i = 0; i < c->nsamples; i++)
        x[i] = c->samples[i] - sub;
    mp_summarize(x, c->nsamples, &wall->s);
    free(x);
    /* The repeat medians on wall_ns's scale, and the interval of the median
     * from them: the repeat, not the call, is the unit that varies. */
    double rm[MP_REPEATS_MAX];
    size_t nrm = 0;
    for (int i = 0; i < r->cfg->repeats; i++)
        if (!isnan(c->repeat_medians[i]))
            rm[nrm++] = c->repeat_medians[i] -= sub;
    c->p50_ci_lo = c->p50_ci_hi = c->p50_ci_level = NAN;
    if (nrm >= 2 && mp_median_ci_order(rm, nrm, MP_CI_LEVEL, &c->p50_ci_lo, &c->p50_ci_hi,
                                       &c->p50_ci_level) == -ENOMEM)
        return mp_errf(err, -ENOMEM, "out of memory");
    if (c->waiter) {
        mp_metric *w = mp_cell_add_metric(c, "waiter_ns");
        if (!w)
            return mp_errf(err, -ENOMEM, "out of memory");
        mp_summarize(c->waiter, c->nsamples, &w->s);
    }
    c->kept = c->nsamples;
    c->status = MP_CELL_OK;
    return 0;
}

/* Block until the set's ready fd is readable (TCP delivery is not instant). */
static int wait_readable(const mp_fdset *set)
{
    for (int i = 0; i < set->active; i++) {
        struct pollfd p = {.fd = set->fds[set->first_ready + set->active_off + i],
                           .events = POLLIN};
        if (poll(&p, 1, 2000) != 1)
            return -ETIMEDOUT;
    }
    return 0;
}

/* Allocate the sample arrays of the group's cells for every repeat, and mark
 * those a mode rules out.  Done once, before a cell's first repeat. */
static int alloc_cells(const mp_run_config *cfg, mp_cell *cells, const mp_sweep_env *env,
                       mp_err *err)
{
    int nb = cfg->nbackends;
    mp_mode mode = cells[0].mode;
    size_t per = (size_t)cfg->samples;
    for (int b = 0; b < nb; b++) {
        mp_cell *c = &cells[b];
        const char *why = c->backend->unsupported_mode
                              ? c->backend->unsupported_mode(mp_mode_name(mode)) : NULL;
        if (why)
            mark(c, MP_CELL_UNSUPPORTED, "%s", why);
        if (mode == MP_MODE_WAKEUP && !env->poker)
            mark(c, MP_CELL_ERROR, "internal: no poker process");
        if (mode == MP_MODE_WAKEUP && c->active > 1)
            mark(c, MP_CELL_UNSUPPORTED, "wakeup mode pokes one fd; %d ready fds at once "
                 "(--active) is measured in ready mode", c->active);
        if (!active(c))
            continue;
        c->samples = malloc(sizeof *c->samples * per * (size_t)cfg->repeats);
        c->sample_repeat = malloc(sizeof *c->sample_repeat * per * (size_t)cfg->repeats);
        c->repeat_medians = calloc((size_t)cfg->repeats, sizeof *c->repeat_medians);
        c->bare_loop = calloc((size_t)cfg->repeats, sizeof *c->bare_loop);
        c->bare_loop_mean = calloc((size_t)cfg->repeats, sizeof *c->bare_loop_mean);
        if (mode == MP_MODE_WAKEUP)
            c->waiter = malloc(sizeof *c->waiter * per * (size_t)cfg->repeats);
        else
            c->bracket_ns = malloc(sizeof *c->bracket_ns * (size_t)cfg->repeats);
        if (!c->samples || !c->sample_repeat || !c->repeat_medians || !c->bare_loop ||
            !c->bare_loop_mean ||
            (mode == MP_MODE_WAKEUP && !c->waiter) || (mode == MP_MODE_READY && !c->bracket_ns))
            return mp_errf(err, -ENOMEM, "out of memory for %zu samples", per * cfg->repeats);
        for (int i = 0; i < cfg->repeats; i++) {   /* NaN: a repeat that did not run */
            c->repeat_medians[i] = c->bare_loop[i] = c->bare_loop_mean[i] = NAN;
            if (c->bracket_ns)
                c->bracket_ns[i] = NAN;
        }
    }
    return 0;
}

/* One timing repeat of every backend of the group, in an order rotated by
 * one from repeat to repeat. */
static int time_repeat(mp_results *r, mp_cell *cells, const mp_fdset *set,
                       const mp_sweep_env *env, size_t first, int rep, double *blockbuf)
{
    const mp_run_config *cfg = r->cfg;
    int nb = cfg->nbackends;
    mp_mode mode = cells[0].mode;
    size_t per = (size_t)cfg->samples;
    for (int o = 0; o < nb; o++) {
        int b = (o + rep) % nb;
        mp_cell *c = &cells[b];
        if (!active(c))
            continue;
        mp__sweep_progress(env, first + (size_t)b, r->ncells, c, "repeat", rep + 1, cfg->repeats);
        mp_block blk = {.wall_ns = blockbuf,
                        .waiter_ns = mode == MP_MODE_WAKEUP ? blockbuf + per : NULL};
        mp_err cerr;
        void *st;
        if (backend_register(c->backend, set, &st, &cerr) < 0) {
            mark(c, MP_CELL_ERROR, "registering the set: %s", cerr.msg);
            continue;
        }
        note_threads(c);
        if (rep == 0)
            c->watch_sets = mp_process_watch_sets();
        if (mode == MP_MODE_READY) {
            double eb[CLOCK_BRACKETS];
            mp_sample_empty_brackets(eb, CLOCK_BRACKETS);
            c->bracket_ns[rep] = mp_median(eb, CLOCK_BRACKETS);
        }
        int brc = mode == MP_MODE_READY
                      ? mp_sample_ready(c->backend, st, set, cfg->warmup, per, NULL,
                                        &blk, &cerr)
                      : mp_sample_wakeup(c->backend, st, set, env->poker, MP_CELL_DELAY(c),
                                         cfg->warmup, per, NULL, &blk, &cerr);
        if (brc == 0 && mode == MP_MODE_READY &&
            mp_sample_bare_loop(c->backend, st, BARE_LOOP, &c->bare_loop[rep],
                                &c->bare_loop_mean[rep], &cerr) < 0)
            brc = -EPROTO;
        backend_unregister(c->backend, &st);
        if (brc == -EINTR) {
            r->interrupted_cell = (int)(first + (size_t)b);
            return -EINTR;
        }
        if (brc < 0) {
            mark(c, MP_CELL_ERROR, "%s", cerr.msg);
            note_dead_peer(c, env->peer);
            continue;
        }
        c->discarded += blk.discarded;
        c->stopped += blk.stopped;
        c->preempted += blk.preempted;
        memcpy(c->samples + c->nsamples, blk.wall_ns, sizeof *blk.wall_ns * blk.kept);
        if (c->waiter)
            memcpy(c->waiter + c->nsamples, blk.waiter_ns, sizeof *blk.waiter_ns * blk.kept);
        for (size_t i = 0; i < blk.kept; i++)
            c->sample_repeat[c->nsamples + i] = rep;
        c->nsamples += blk.kept;
        /* A repeat with no sample kept has no median (NaN: null in the JSON). */
        c->repeat_medians[rep] = blk.kept ? mp_median(blk.wall_ns, blk.kept) : NAN;
    }
    return 0;
}

/* After a cell's last repeat: its timing summaries, then its counter passes
 * and profile pass.  Every cell's timing is summarised before any counter
 * pass, so an interruption there leaves complete timings behind. */
static int finish_cells(mp_results *r, mp_cell *cells, const mp_fdset *set,
                        const mp_sweep_env *env, size_t first, mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    int nb = cfg->nbackends, rc;
    for (int b = 0; b < nb; b++) {
        mp_cell *c = &cells[b];
        if (active(c) && (rc = summarize_cell(c, r, err)) < 0)
            return rc;
    }
    for (int b = 0; b < nb; b++) {
        mp_cell *c = &cells[b];
        if (!active(c))
            continue;
        mp_err cerr;
        void *st;
        if (backend_register(c->backend, set, &st, &cerr) < 0) {
            snprintf(c->reason, sizeof c->reason, "counters not measured: registering the "
                     "set: %.400s", cerr.msg);
            continue;
        }
        note_threads(c);
        int prc = mp__counter_passes(c, st, set, env, cfg->samples, cfg->warmup,
                                     first + (size_t)b, r->ncells, &cerr);
        if (prc < 0 && prc != -EINTR)
            snprintf(c->reason, sizeof c->reason, "counters not measured: %.400s", cerr.msg);
        if (prc != -EINTR && cfg->profile) {
            mp__sweep_progress(env, first + (size_t)b, r->ncells, c, "profile pass", 1, 1);
            prc = mp__profile_pass(c, st, set, env, cfg->warmup, &cerr);
            if (prc < 0 && prc != -EINTR)
                snprintf(c->reason, sizeof c->reason, "profile not measured: %.400s",
                         cerr.msg);
        }
        backend_unregister(c->backend, &st);
        if (prc == -EINTR) {
            r->interrupted_cell = (int)(first + (size_t)b);
            return -EINTR;
        }
    }
    return 0;
}

/* Repeats rep_lo .. rep_hi - 1 of one (mode, fd table) of a group on its
 * set; the cells are finished after the run's last repeat. */
static int run_mode(mp_results *r, mp_cell *cells, const mp_fdset *set,
                    const mp_sweep_env *env, size_t first, int rep_lo, int rep_hi,
                    mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    int nb = cfg->nbackends, rc = 0;
    mp_mode mode = cells[0].mode;
    double *blockbuf = malloc(sizeof *blockbuf * (size_t)cfg->samples * 2);
    if (!blockbuf)
        return mp_errf(err, -ENOMEM, "out of memory");
    if (rep_lo == 0 && (rc = alloc_cells(cfg, cells, env, err)) < 0)
        goto out;
    if (mode == MP_MODE_READY) {
        if (mp_fdset_poke(set) < 0 || wait_readable(set) < 0) {
            if (mp_sample_stop) {   /* interrupted, not broken: leave the cells pending */
                r->interrupted_cell = (int)first;
                rc = -EINTR;
                goto out;
            }
            for (int b = 0; b < nb; b++)
                mark(&cells[b], MP_CELL_ERROR, "could not make fd %d readable",
                     mp_fdset_ready_fd(set));
            goto out;
        }
    }
    for (int rep = rep_lo; rep < rep_hi && rc == 0; rep++)
        rc = time_repeat(r, cells, set, env, first, rep, blockbuf);
    if (rc == 0 && rep_hi == cfg->repeats)
        rc = finish_cells(r, cells, set, env, first, err);
out:
    if (mode == MP_MODE_READY)
        while (mp_fdset_drain(set) == 0)
            ;
    free(blockbuf);
    return rc;
}

static size_t cell_index(const mp_run_config *cfg, int k, int n, int a, int m, int t, int b)
{
    size_t i = (size_t)k * (size_t)cfg->ncounts + (size_t)n;
    i = i * (size_t)cfg->nactives + (size_t)a;
    i = i * (size_t)mp_run_nslots(cfg) + (size_t)m;
    i = i * (size_t)cfg->nfd_tables + (size_t)t;
    return i * (size_t)cfg->nbackends + (size_t)b;
}

static int run_group(mp_results *r, const mp_sweep_env *env, int k, int ni, int rep_lo,
                     int rep_hi, mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    mp_fd_kind kind = cfg->kinds[k];
    int N = cfg->fds[ni], nb = cfg->nbackends, rc = 0;
    mp_cell *group = &r->cells[cell_index(cfg, k, ni, 0, 0, 0, 0)];
    size_t ng = (size_t)cfg->nactives * (size_t)mp_run_nslots(cfg) *
                (size_t)cfg->nfd_tables * (size_t)nb;
    int kmax = 1;   /* largest K that fits in N */
    for (int a = 0; a < cfg->nactives; a++)
        if (cfg->actives[a] <= N && cfg->actives[a] > kmax)
            kmax = cfg->actives[a];

    for (size_t i = 0; i < ng; i++) {
        group[i].rl_soft = env->rl_soft;
        group[i].rl_hard = env->rl_hard;
    }
    long need = mp_fdset_fds_needed(kind, N, kmax) + env->base_fds + nb + PMU_FD_SLACK;
    if (need > env->rl_hard) {
        for (size_t i = 0; i < ng; i++)
            mark(&group[i], MP_CELL_UNSUPPORTED,
                 "%d watched %s fds need about %ld descriptors in this process, but the hard "
                 "RLIMIT_NOFILE is %ld; raise it (as root: ulimit -Hn %ld, or LimitNOFILE= "
                 "for a service; fs.nr_open caps it)", N, mp_fd_kind_name(kind), need,
                 env->rl_hard, need);
        return 0;
    }

    mp_fdset set;
    mp_err ferr;
    int frc = mp_fdset_create(&set, kind, N, mp_ready_first(cfg->ready_pos, N, kmax), kmax,
                              env->peer, &ferr);
    if (frc < 0 && mp_sample_stop) {   /* interrupted while building: leave pending */
        r->interrupted_cell = (int)cell_index(cfg, k, ni, 0, 0, 0, 0);
        return -EINTR;
    }
    if (frc < 0) {
        for (size_t i = 0; i < ng; i++) {
            mark(&group[i], MP_CELL_ERROR, "%s", ferr.msg);
            note_dead_peer(&group[i], env->peer);
        }
        return 0;
    }
    for (size_t i = 0; i < ng; i++) {
        group[i].fd_lo = set.fd_lo;
        group[i].fd_hi = set.fd_hi;
        if (group[i].active > N)
            mark(&group[i], MP_CELL_UNSUPPORTED, "%d ready fds asked for (--active) but only "
                 "%d are watched", group[i].active, N);
    }

    /* Whether each backend can watch this set: registered once and let go
     * again (the blocks register it afresh). */
    for (int b = 0; b < nb; b++) {
        const mp_backend_ops *ops = cfg->backends[b];
        char why[256];
        const char *u = ops->unsupported_fds ? ops->unsupported_fds(set.fd_lo, set.fd_hi, why,
                                                                    sizeof why) : NULL;
        mp_err berr;
        int brc = 0;
        if (!u) {
            void *st;
            brc = backend_register(ops, &set, &st, &berr);
            backend_unregister(ops, &st);
        }
        for (size_t i = 0; i < ng / (size_t)nb; i++) {
            mp_cell *c = &group[i * (size_t)nb + (size_t)b];
            if (u)
                mark(c, MP_CELL_UNSUPPORTED, "%s", u);
            else if (brc == -ENOSYS || brc == -EOPNOTSUPP || brc == -EPERM)
                mark(c, MP_CELL_UNSUPPORTED, "%s", berr.msg);   /* the host lacks the API */
            else if (brc < 0)
                mark(c, MP_CELL_ERROR, "%s", berr.msg);
        }
    }

    for (int a = 0; a < cfg->nactives && rc == 0; a++) {
        int K = cfg->actives[a];
        if (K > N)
            continue;
        /* The K active fds sit where --ready-pos says within the ready range. */
        mp_fdset_activate(&set, K, mp_ready_first(cfg->ready_pos, kmax, K));
        for (int m = 0; m < mp_run_nslots(cfg) && rc == 0; m++)
            for (int t = 0; t < cfg->nfd_tables && rc == 0; t++) {
                size_t first = cell_index(cfg, k, ni, a, m, t, 0);
                for (int b = 0; b < nb; b++)
                    r->cells[first + (size_t)b].ready_fd = mp_fdset_ready_fd(&set);
                /* shared: one parked thread shares the table through the blocks */
                mp_parked *parked = NULL;
                if (cfg->fd_tables[t] == MP_FDT_SHARED && mp_parked_start(&parked, err) < 0) {
                    rc = err->code;
                    break;
                }
                rc = run_mode(r, &r->cells[first], &set, env, first, rep_lo, rep_hi, err);
                mp_parked_stop(parked);
            }
    }

    mp_fdset_destroy(&set, env->peer);
    return rc;
}

/* A cell that failed after some of its repeats were timed (the helper
 * died, a backend call failed) keeps those: summarised from them, its
 * reason saying why the others are missing. */
static int keep_failed(mp_cell *c, const mp_results *r, mp_err *err)
{
    if (c->status != MP_CELL_ERROR || c->nsamples == 0 || c->nmetrics)
        return 0;
    char why[MP_CELL_REASON];
    memcpy(why, c->reason, sizeof why);
    int timed = 0;
    for (int i = 0; i < r->cfg->repeats; i++)
        timed += !isnan(c->repeat_medians[i]);
    c->status = MP_CELL_PENDING;
    int rc = summarize_cell(c, r, err);
    c->failed = 1;
    if (rc == 0)
        snprintf(c->reason, sizeof c->reason, "timed in %d of %d repeats, counters not "
                 "measured; then: %.400s", timed, r->cfg->repeats, why);
    return rc;
}

/* Pass records of a group's cells after pass `pass` (not the last): each
 * cell still pending with samples as results[] would hold it had the run
 * stopped there, summarised from a copy (the cell itself is untouched). */
static void pass_records(mp_results *r, const mp_sweep_env *env, size_t g0, size_t ng,
                         int pass)
{
    for (size_t i = g0; env->journal && i < g0 + ng; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->status != MP_CELL_PENDING || c->nsamples == 0)
            continue;
        mp_cell t = *c;
        double rm[MP_REPEATS_MAX];
        memcpy(rm, c->repeat_medians, sizeof *rm * (size_t)r->cfg->repeats);
        t.repeat_medians = rm;
        t.metrics = NULL;
        t.nmetrics = 0;
        t.profile = NULL;
        mp_err e;
        cJSON *cj = NULL;
        if (summarize_cell(&t, r, &e) == 0) {
            snprintf(t.reason, sizeof t.reason, "%d of %d passes reached the journal: timed "
                     "in those, counters not measured", pass + 1, r->cfg->repeats);
            cj = mp_cell_json(&t, r->cfg->repeats);
        }
        free(t.metrics);
        if (cj)
            mp_journal_pass(env->journal, i, r->ncells, pass, cj, c);
    }
}

/* The journal and the progress callback learn of a group's cells once they
 * are final (but for those an interruption left pending). */
static int group_done(mp_results *r, const mp_sweep_env *env, int k, int n, mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    size_t g0 = cell_index(cfg, k, n, 0, 0, 0, 0);
    size_t ng = (size_t)cfg->nactives * (size_t)mp_run_nslots(cfg) * (size_t)cfg->nfd_tables *
                (size_t)cfg->nbackends;
    for (size_t i = g0; i < g0 + ng; i++) {
        int krc = keep_failed(&r->cells[i], r, err);
        if (krc < 0)
            return krc;
    }
    int jrc = env->journal ? mp_journal_cells(env->journal, r, g0, ng) : 0;
    if (jrc < 0)
        return mp_errf(err, jrc, "out of memory keeping the finished cells");
    for (size_t i = g0; env->cell_done && i < g0 + ng; i++)
        if (r->cells[i].status != MP_CELL_PENDING)
            env->cell_done(i, env->progress_ctx);
    return 0;
}

/* One pass over every group: repeats rep_lo .. rep_hi - 1 of each.  In the
 * run's last pass each group is made final as it ends (*done counts those);
 * back to back, a group an interruption cut short is made final too, with
 * the cells it finished. */
static int sweep_pass(mp_results *r, const mp_sweep_env *env, int rep_lo, int rep_hi,
                      int *done, mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    int rc = 0, whole = rep_lo == 0 && rep_hi == cfg->repeats;
    *done = 0;
    for (int k = 0; k < cfg->nkinds && rc == 0; k++)
        for (int n = 0; n < cfg->ncounts && rc == 0; n++) {
            if (mp_sample_stop) {
                r->interrupted_cell = (int)cell_index(cfg, k, n, 0, 0, 0, 0);
                return -EINTR;
            }
            rc = run_group(r, env, k, n, rep_lo, rep_hi, err);
            if (rc == 0 && rep_hi < cfg->repeats)
                pass_records(r, env, cell_index(cfg, k, n, 0, 0, 0, 0),
                             (size_t)cfg->nactives * (size_t)mp_run_nslots(cfg) *
                                 (size_t)cfg->nfd_tables * (size_t)cfg->nbackends, rep_lo);
            if (rep_hi == cfg->repeats && (rc == 0 || whole)) {
                int grc = group_done(r, env, k, n, err);
                if (grc < 0)
                    return grc;
                (*done)++;
            }
        }
    return rc;
}

/* Passes that ended early (a signal, or an error of the run): the groups
 * not yet final, from cell `first` on, are made final with what they have.
 * A pending cell with timed repeats is summarised from those (its interval
 * from the repeats it has; no counter pass ran), and every cell of them
 * that is not pending goes to the journal and the progress callback, in
 * index order, so the run keeps what it measured. */
static int keep_passes(mp_results *r, const mp_sweep_env *env, size_t first, int passes,
                       mp_err *err)
{
    for (size_t i = first; i < r->ncells; i++) {
        mp_cell *c = &r->cells[i];
        int krc = keep_failed(c, r, err);
        if (krc < 0)
            return krc;
        if (c->status != MP_CELL_PENDING || c->nsamples == 0)
            continue;
        int rc = summarize_cell(c, r, err);
        if (rc < 0)
            return rc;
        snprintf(c->reason, sizeof c->reason, "the run ended after %d of %d passes: timed in "
                 "those (and in part of the next), counters not measured", passes,
                 r->cfg->repeats);
    }
    int jrc = env->journal && first < r->ncells
                  ? mp_journal_cells(env->journal, r, first, r->ncells - first) : 0;
    if (jrc < 0)
        return mp_errf(err, jrc, "out of memory keeping the finished cells");
    for (size_t i = first; env->cell_done && i < r->ncells; i++)
        if (r->cells[i].status != MP_CELL_PENDING)
            env->cell_done(i, env->progress_ctx);
    return 0;
}

/* The last-level cache's size from the run's topology record, 0 if unknown. */
static size_t llc_bytes(const mp_results *r)
{
    double best = 0, level = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(r->topology, "caches")) {
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(c, "level");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "size_bytes");
        if (cJSON_IsNumber(l) && cJSON_IsNumber(b) && l->valuedouble >= level &&
            b->valuedouble > 0) {
            level = l->valuedouble;
            best = b->valuedouble;
        }
    }
    return (size_t)best;
}

/* The passes of the sweep, each with its canary (run/canary.h). */
static int canary_passes(mp_results *r, const mp_sweep_env *env, int *rep, int *done,
                         mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    mp_canary_state cs;
    int have = mp_canary_init(&cs, llc_bytes(r)) == 0, rc = 0;
    r->canary_llc_bytes = have ? cs.llc_bytes : 0;
    r->ncanary = 0;
    int back_to_back = cfg->repeat_order == MP_REPEATS_BACK_TO_BACK;
    for (; *rep < cfg->repeats && rc == 0; (*rep)++) {
        mp_canary *k = have && r->ncanary < MP_REPEATS_MAX ? &r->canary[r->ncanary] : NULL;
        if (k) {
            cs.helpers[0] = env->peer ? env->peer->pid : 0;   /* a restarted helper: its new pid */
            cs.helpers[1] = env->poker ? env->poker->pid : 0;
            mp_canary_begin(&cs, k);
        }
        rc = back_to_back ? sweep_pass(r, env, 0, cfg->repeats, done, err)
                          : sweep_pass(r, env, *rep, *rep + 1, done, err);
        if (k && rc == 0) {
            mp_canary_end(&cs, k);
            r->ncanary++;
        }
        if (env->journal)
            mp_journal_sync(env->journal);   /* the pass's records, once */
        if (back_to_back)
            break;
    }
    if (have)
        mp_canary_free(&cs);
    return rc;
}

int mp_sweep(mp_results *r, const mp_sweep_env *env, mp_err *err)
{
    const mp_run_config *cfg = r->cfg;
    int rc = 0, rep = 0, done = 0;
    if (cfg->repeat_order == MP_REPEATS_BACK_TO_BACK)
        return (rc = canary_passes(r, env, &rep, &done, err)) < 0 ? rc : 0;
    rc = canary_passes(r, env, &rep, &done, err);
    if (rc < 0) {
        /* the groups the last pass made final come first in index order */
        size_t per_group = (size_t)cfg->nactives * (size_t)mp_run_nslots(cfg) *
                           (size_t)cfg->nfd_tables * (size_t)cfg->nbackends;
        size_t first = rep == cfg->repeats ? (size_t)done * per_group : 0;
        mp_err kerr;
        int krc = keep_passes(r, env, first, rep - 1, &kerr);
        if (krc < 0 && rc == -EINTR)
            return mp_errf(err, krc, "%s", kerr.msg);
    }
    return rc < 0 ? rc : 0;
}
