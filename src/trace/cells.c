// SPDX-License-Identifier: MIT
/* cells.c - a trace's calls grouped into cells and written as a run
 * directory (trace/internal.h).  A cell is one (syscall, N bucket, timeout
 * class, ready bucket): N and the ready count in buckets 0, 1, 2, 3-4,
 * 5-8, ... (powers of two), failed calls their own bucket.  Its nfds is the
 * median N of its calls, its mode the timeout class and the ready bucket
 * ("infinite-r1": no timeout, one descriptor ready; "t0-r0": timeout 0,
 * none ready; "t0-r4": 3 or 4 ready; "-rmany": more than 4096; "finite-err":
 * a finite timeout, the call failed), its
 * metrics wall_ns (entry to exit) and each counter read over its calls.
 * results.json goes through results/'s tables (the top level, the trace
 * object, each cell, the counters); results.csv and samples.csv through
 * run/'s writers of a run's; calls.csv holds every call kept. */
#include "trace/internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "results/counters.h"
#include "results/schema.h"
#include "results/top.h"
#include "results/trace.h"
#include "run/context.h"
#include "run/results.h"

const char *const mp__trace_syscall[MP_TR_NCALLS] = {
    "select", "pselect6", "poll", "ppoll", "epoll_wait", "epoll_pwait", "epoll_pwait2",
};
const char *const mp__trace_backend[MP_TR_NCALLS] = {
    "select", "pselect6", "poll", "ppoll", "epoll", "epoll_pwait", "epoll_pwait2",
};
static const char *const tclass_name[MP_TR_NTCLASS] = {"0", "finite", "infinite"};
static const char *const tclass_mode[MP_TR_NTCLASS] = {"t0", "finite", "infinite"};

#define SCOPE "CPU-wide on the call's CPU, entry to exit (other tasks while it slept included)"

/* The bucket of a count >= 0: 0 for 0, k for (2^(k-2), 2^(k-1)]. */
static int bucket(long long v)
{
    int b = 1;
    long long hi = 1;
    if (v <= 0)
        return 0;
    while (hi < v) {
        hi <<= 1;
        b++;
    }
    return b;
}

static void bucket_range(int b, long long *lo, long long *hi)
{
    *lo = b == 0 ? 0 : b == 1 ? 1 : (1LL << (b - 2)) + 1;
    *hi = b == 0 ? 0 : 1LL << (b - 1);
}

/* A kept call's cell key; calls outside every cell (N unknown or 0) get -1. */
static long long key_of(const struct mp_trace_rec *r)
{
    if (r->n <= 0)
        return -1;
    long long rb = r->ret < 0 ? 63 : bucket(r->ret);
    return ((long long)r->call << 24) | ((long long)r->tclass << 16) | (rb << 8) | bucket(r->n);
}

typedef struct {
    long long key;
    size_t i;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int by_u32(const void *a, const void *b)
{
    __u32 x = *(const __u32 *)a, y = *(const __u32 *)b;
    return (x > y) - (x < y);
}

static size_t distinct_u32(__u32 *v, size_t n)
{
    size_t k = 0;
    qsort(v, n, sizeof *v, by_u32);
    for (size_t i = 0; i < n; i++)
        if (!i || v[i] != v[i - 1])
            k++;
    return k;
}

static const char *errno_name(long long e)
{
    switch (e) {
    case EINTR: return "EINTR";
    case EBADF: return "EBADF";
    case EFAULT: return "EFAULT";
    case EINVAL: return "EINVAL";
    case ENOMEM: return "ENOMEM";
    default: return "other";
    }
}

/* The cell of --against's run beside traced cell c with timeout class tc:
 * the same backend, ready mode for timeout 0 and wakeup otherwise, the
 * nearest N within a quarter of c's (the first of equals), of fd kind kind
 * where the run has one (else of any kind); NULL: none. */
typedef struct harness_set {
    const mp_trace_harness *v;
    size_t n;
    const char *against;      /* the results.json they came from */
} harness_set;

static const mp_trace_harness *beside(const harness_set *o, const mp_rcell *c, int tc,
                                      const char *kind)
{
    const mp_trace_harness *best = NULL;
    const char *mode = tc == MP_TR_T_ZERO ? "ready" : "wakeup";
    for (int pass = kind ? 0 : 1; pass < 2 && !best; pass++)
        for (size_t i = 0; i < o->n; i++) {
            const mp_trace_harness *h = &o->v[i];
            long long d = h->nfds > c->nfds ? h->nfds - c->nfds : c->nfds - h->nfds;
            if (strcmp(h->backend, c->backend) || strcmp(h->mode, mode) || 4 * d > c->nfds ||
                (pass == 0 && strcmp(h->fd_kind, kind)))
                continue;
            long long bd = best ? (best->nfds > c->nfds ? best->nfds - c->nfds
                                                        : c->nfds - best->nfds) : 0;
            if (!best || d < bd)
                best = h;
        }
    return best;
}

/* The most numerous of run's fd kinds among d's census; NULL: none. */
static const char *major_kind(const mp__trace_data *d)
{
    int best = -1;
    for (int k = 0; d->fdk_seen && k < MP__FDK_OTHER; k++)
        if (d->fdk[k] > 0 && (best < 0 || d->fdk[k] > d->fdk[best]))
            best = k;
    return best < 0 ? NULL : mp__fdk_name[best];
}

/* The cell of calls recs[ix[0..n)]: its results[] object; NULL when out of memory. */
static cJSON *cell_json(const mp__trace_data *d, const keyed *ix, size_t n, double *wall,
                        mp_samples *smp, const harness_set *hs)
{
    const struct mp_trace_rec *r0 = &d->recs[ix[0].i];
    mp_rcell c;
    mp_rtrace_cell t;
    mp_metric mt[1 + MP_TR_MAX_EVENTS];
    long long *nv = malloc(n * sizeof *nv);
    __u32 *tids = malloc(n * sizeof *tids);
    double *x = malloc(n * sizeof *x);
    if (!nv || !tids || !x) {
        free(nv);
        free(tids);
        free(x);
        return NULL;
    }
    memset(&c, 0, sizeof c);
    memset(&t, 0, sizeof t);
    snprintf(c.backend, sizeof c.backend, "%s", mp__trace_backend[r0->call]);
    snprintf(c.syscall, sizeof c.syscall, "%s", mp__trace_syscall[r0->call]);
    snprintf(c.fd_kind, sizeof c.fd_kind, "traced");
    int rb = r0->ret < 0 ? -1 : bucket(r0->ret);
    long long rlo = -1, rhi = -1;
    if (rb >= 0)
        bucket_range(rb, &rlo, &rhi);
    char mode[64];   /* at most "infinite-r4096": the mode's room */
    if (rb < 0)
        snprintf(mode, sizeof mode, "%s-err", tclass_mode[r0->tclass]);
    else if (rhi <= 4096)
        snprintf(mode, sizeof mode, "%s-r%lld", tclass_mode[r0->tclass], rhi);
    else   /* trace.ready_lo/hi give the range */
        snprintf(mode, sizeof mode, "%s-rmany", tclass_mode[r0->tclass]);
    snprintf(c.mode, sizeof c.mode, "%.15s", mode);
    c.status = MP_CELL_OK;
    c.fd_lo = c.fd_hi = c.ready_fd = -1;
    t.timeout = tclass_name[r0->tclass];
    bucket_range(bucket(r0->n), &t.n_lo, &t.n_hi);
    t.n_min = t.arg_min = LLONG_MAX;
    t.n_max = t.arg_max = LLONG_MIN;
    t.ready_lo = rb < 0 ? -1 : LLONG_MAX;
    t.ready_hi = -1;
    char errs[128] = "";
    size_t eo = 0;
    for (size_t k = 0; k < n; k++) {
        const struct mp_trace_rec *r = &d->recs[ix[k].i];
        nv[k] = r->n;
        tids[k] = r->tid;
        wall[k] = (double)(r->exit_ns - r->enter_ns);
        smp->wall_raw_ns[k] = wall[k];
        smp->repeat[k] = 0;
        if (r->n < t.n_min) t.n_min = r->n;
        if (r->n > t.n_max) t.n_max = r->n;
        if (r->arg < t.arg_min) t.arg_min = r->arg;
        if (r->arg > t.arg_max) t.arg_max = r->arg;
        if (rb >= 0 && r->ret < t.ready_lo) t.ready_lo = r->ret;
        if (rb >= 0 && r->ret > t.ready_hi) t.ready_hi = r->ret;
        if (rb < 0 && !strstr(errs, errno_name(-r->ret)) && eo < sizeof errs)
            eo += (size_t)snprintf(errs + eo, sizeof errs - eo, "%s%s", eo ? ", " : "",
                                   errno_name(-r->ret));
        if ((r->counted & ((1u << d->ev->nevents) - 1)) != ((1u << d->ev->nevents) - 1))
            t.counters_unread++;
    }
    smp->n = n;
    t.errors = rb < 0 ? errs : NULL;
    t.calls = (long long)n;
    t.threads = (long long)distinct_u32(tids, n);
    qsort(nv, n, sizeof *nv, by_value);
    c.nfds = nv[(n - 1) / 2];
    c.samples_kept = (long long)n;
    size_t nm = 0;
    memset(mt, 0, sizeof mt);
    snprintf(mt[0].name, sizeof mt[0].name, "wall_ns");
    mp_summarize(wall, n, &mt[nm++].s);
    for (size_t e = 0; e < d->ev->nevents; e++) {
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
            const struct mp_trace_rec *r = &d->recs[ix[k].i];
            if (r->counted & (1u << e))
                x[m++] = (double)r->delta[e];
        }
        if (!m)
            continue;   /* never read in this cell: counters_unread says so */
        snprintf(mt[nm].name, sizeof mt[nm].name, "%s", d->ev->name[e]);
        mp_summarize(x, m, &mt[nm++].s);
    }
    c.metrics = mt;
    c.nmetrics = nm;
    const mp_trace_harness *h = beside(hs, &c, r0->tclass, major_kind(d));
    t.harness_mode = h ? h->mode : NULL;
    t.harness_fd_kind = h ? h->fd_kind : NULL;
    t.harness_nfds = h ? h->nfds : -1;
    t.harness_p50_ns = h ? h->p50_ns : NAN;
    cJSON *o = mp_rtrace_cell_json(&c, &t, SCOPE);
    free(nv);
    free(tids);
    free(x);
    return o;
}

static cJSON *counters_json(const mp__trace_data *d)
{
    mp_rcounter_event ev[2 * MP_TR_MAX_EVENTS];
    size_t n = 0;
    for (size_t i = 0; i < d->ev->nevents; i++)
        ev[n++] = (mp_rcounter_event){.name = d->ev->name[i], .event = d->ev->name[i],
                                      .origin = "generic", .cpu_wide = 1, .cpu_scope = SCOPE,
                                      .opened = 1, .pass = 0, .group = -1,
                                      .access = "bpf_perf_event_read_value",
                                      .source = "trace"};
    for (size_t i = 0; i < d->ev->nmissing; i++)
        ev[n++] = (mp_rcounter_event){.name = d->ev->missing[i], .event = d->ev->missing[i],
                                      .origin = "generic", .opened = 0, .pass = -1,
                                      .group = -1, .reason = d->ev->missing_why[i],
                                      .source = "trace"};
    mp_rcounters c = {.spec = "trace", .preset = "trace", .scope = "user+kernel",
                      .scope_note = "per-CPU counters read by the BPF program at the call's "
                                    "entry and exit; a call that changed CPU has none",
                      .passes = 1, .events = ev, .nevents = n};
    return mp_rcounters_json(&c);
}

static cJSON *trace_json(const mp__trace_data *d, long long threads, long long unknown,
                         long long zero, const char *against)
{
    char kinds[160] = "";
    size_t at = 0;
    for (int k = 0; d->fdk_seen && k < MP__FDK_N; k++)
        if (d->fdk[k] && at < sizeof kinds)
            at += (size_t)snprintf(kinds + at, sizeof kinds - at, "%s%s %lld", at ? ", " : "",
                                   mp__fdk_name[k], d->fdk[k]);
    mp_rtrace t = {
        .source = "trace", .target = d->command ? "command" : "pid", .command = d->command,
        .pid = d->pid, .duration_s = d->duration_s, .window_s = d->window_s,
        .ended = d->ended, .target_exited = d->target_exited,
        .exit_status = d->exit_status[0] ? d->exit_status : NULL,
        .calls_seen = d->seen, .calls_dropped = d->lost + d->noslot,
        .dropped_ringbuf = d->lost, .dropped_noslot = d->noslot, .calls_unknown_n = unknown,
        .follow = d->follow, .processes_followed = d->followed,
        .processes_not_followed = d->not_followed,
        .calls_zero_n = zero, .calls_not_kept = d->not_kept, .threads = threads,
        .epoll_seeded = d->epoll_seeded, .select_bits = d->select_bits,
        .fd_kinds = kinds[0] ? kinds : NULL, .fd_kind = major_kind(d),
        .epoll_rule = "registered descriptors per epoll instance (tgid, struct file): "
                      "epoll_create sets 0, epoll_ctl ADD/DEL that succeed add/remove one, "
                      "instances older than the attach start from /proc/PID/fdinfo; a dup'ed "
                      "descriptor shares its instance's count; a descriptor closed without "
                      "EPOLL_CTL_DEL still counts",
        .against = against,
        .timing = "bpf_ktime_get_ns (CLOCK_MONOTONIC) near the end of the sys_enter program "
                  "and at the start of the sys_exit one: the call in the kernel and a little "
                  "of the tracing, nothing subtracted"};
    return mp_rtrace_json(&t);
}

/* One CSV line per kept call. */
static int write_calls(mp_dir *dir, const mp__trace_data *d, const long long *cell_of,
                       mp_err *err)
{
    mp_afile a;
    int rc = mp_afile_open(&a, dir, "calls.csv", err);
    if (rc)
        return rc;
    fprintf(a.f, "cell,syscall,tid,cpu_enter,cpu_exit,enter_ns,wall_ns,n,arg,top,ret,timeout");
    for (size_t e = 0; e < d->ev->nevents; e++)
        fprintf(a.f, ",%s", d->ev->name[e]);
    fputc('\n', a.f);
    __u64 t0 = d->nrecs ? d->recs[0].enter_ns : 0;
    for (size_t i = 0; i < d->nrecs; i++) {
        const struct mp_trace_rec *r = &d->recs[i];
        if (r->enter_ns < t0)
            t0 = r->enter_ns;
    }
    for (size_t i = 0; i < d->nrecs; i++) {
        const struct mp_trace_rec *r = &d->recs[i];
        if (cell_of[i] >= 0)
            fprintf(a.f, "%lld,", cell_of[i]);
        else
            fputc(',', a.f);
        int sel = r->call == MP_TR_SELECT || r->call == MP_TR_PSELECT6;
        fprintf(a.f, "%s,%u,%u,%u,%llu,%llu,%lld,%lld,", mp__trace_syscall[r->call],
                r->tid, r->cpu_enter, r->cpu_exit,
                (unsigned long long)(r->enter_ns - t0),
                (unsigned long long)(r->exit_ns - r->enter_ns), (long long)r->n,
                (long long)r->arg);
        if (sel)
            fprintf(a.f, "%u", r->top);
        fprintf(a.f, ",%lld,%s", (long long)r->ret, tclass_name[r->tclass]);
        for (size_t e = 0; e < d->ev->nevents; e++)
            if (r->counted & (1u << e))
                fprintf(a.f, ",%llu", (unsigned long long)r->delta[e]);
            else
                fputc(',', a.f);
        fputc('\n', a.f);
    }
    return mp_afile_commit(&a, err);
}

/* The cells' wants, one per group of equal keys in ix[0..nk), handed to
 * the caller's make_harness: *hs its cells.  Its failure is not the trace's:
 * the cells are written without a harness, and the message is on stderr. */
static int made_harness(const mp__trace_data *d, const keyed *ix, size_t nk, const char *path,
                        harness_set *hs, mp_err *err)
{
    mp_trace_want *w = malloc(nk * sizeof *w);
    long long *nv = malloc(nk * sizeof *nv);
    if (!w || !nv) {
        free(w);
        free(nv);
        return mp_errf(err, -ENOMEM, "out of memory listing the trace's cells");
    }
    size_t nw = 0;
    for (size_t a = 0; a < nk;) {
        size_t b = a, m = 0;
        while (b < nk && ix[b].key == ix[a].key)
            nv[m++] = d->recs[ix[b++].i].n;
        const struct mp_trace_rec *r0 = &d->recs[ix[a].i];
        qsort(nv, m, sizeof *nv, by_value);
        snprintf(w[nw].backend, sizeof w[nw].backend, "%s", mp__trace_backend[r0->call]);
        snprintf(w[nw].mode, sizeof w[nw].mode, "%s", r0->tclass == MP_TR_T_ZERO ? "ready"
                                                                                 : "wakeup");
        w[nw++].nfds = nv[(m - 1) / 2];
        a = b;
    }
    free(nv);
    mp_err e;
    mp_err_clear(&e);
    const mp_trace_harness *v = NULL;
    size_t n = 0;
    const char *against = NULL;
    int rc = d->o->make_harness(d->o->make_ctx, w, nw, major_kind(d), path, &v, &n, &against, &e);
    free(w);
    if (rc == 0) {
        hs->v = v;
        hs->n = n;
        hs->against = against;
    } else
        fprintf(stderr, "muxprof trace: no harness beside the traced cells: %s\n", e.msg);
    return 0;
}

int mp__trace_write(mp_dir *dir, const mp__trace_data *d, mp_trace_sum *sum, mp_err *err)
{
    size_t n = d->nrecs;
    keyed *ix = malloc((n ? n : 1) * sizeof *ix);
    long long *cell_of = malloc((n ? n : 1) * sizeof *cell_of);
    double *wall = malloc((n ? n : 1) * sizeof *wall);
    __u32 *tids = malloc((n ? n : 1) * sizeof *tids);
    mp_samples *smp = calloc(n ? n : 1, sizeof *smp);
    double *sw = malloc((n ? n : 1) * sizeof *sw);
    int *srep = malloc((n ? n : 1) * sizeof *srep);
    cJSON *doc = cJSON_CreateObject(), *res = cJSON_CreateArray();
    int rc = 0;
    if (!ix || !cell_of || !wall || !tids || !smp || !sw || !srep || !doc || !res) {
        rc = mp_errf(err, -ENOMEM, "out of memory writing the trace (%zu calls)", n);
        goto out;
    }
    long long unknown = 0, zero = 0;
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        tids[i] = d->recs[i].tid;
        cell_of[i] = -1;
        long long k = key_of(&d->recs[i]);
        if (k < 0) {
            if (d->recs[i].n < 0)
                unknown++;
            else
                zero++;
            continue;
        }
        ix[nk++] = (keyed){k, i};
    }
    long long threads = (long long)distinct_u32(tids, n);
    qsort(ix, nk, sizeof *ix, by_key);
    harness_set hs = {d->o ? d->o->harness : NULL, d->o ? d->o->nharness : 0,
                      d->o ? d->o->against : NULL};
    if (d->o && !d->o->against && d->o->make_harness && nk &&
        (rc = made_harness(d, ix, nk, dir->path, &hs, err)) < 0)
        goto out;
    size_t ncells = 0, used = 0;
    for (size_t a = 0; a < nk;) {
        size_t b = a;
        while (b < nk && ix[b].key == ix[a].key)
            b++;
        mp_samples *s = &smp[ncells];
        s->wall_raw_ns = sw + used;
        s->repeat = srep + used;
        cJSON *cell = cell_json(d, ix + a, b - a, wall, s, &hs);
        if (!cell) {
            rc = mp_errf(err, -ENOMEM, "out of memory writing the trace's cells");
            goto out;
        }
        cJSON_AddItemToArray(res, cell);
        for (size_t k = a; k < b; k++)
            cell_of[ix[k].i] = (long long)ncells;
        used += b - a;
        ncells++;
        a = b;
    }
    char method[512];
    snprintf(method, sizeof method, "muxprof trace: eBPF on raw_syscalls sys_enter/sys_exit "
             "(libbpf), every wait call of %s %ld; cells by (syscall, N bucket, timeout class, "
             "ready bucket); no repeats, no warm-up: the program's own calls",
             d->command ? "the command started, pid" : "process", d->pid);
    mp_rrun top = {.schema = MP_RESULTS_SCHEMA, .has_tool = 1, .tool = mp_rtool_this(),
                   .status = d->interrupted ? "interrupted" : "complete",
                   .started_utc = d->started_utc, .finished_utc = d->finished_utc};
    cJSON *head = mp_rrun_json(&top), *ctx = mp_context_json(d->command ? d->command : "");
    if (!head || !ctx) {
        cJSON_Delete(head);
        cJSON_Delete(ctx);
        rc = mp_errf(err, -ENOMEM, "out of memory writing results.json");
        goto out;
    }
    cJSON_Delete(doc);
    doc = head;
    cJSON_AddItemToObject(doc, "trace", trace_json(d, threads, unknown, zero, hs.against));
    cJSON_DeleteItemFromObjectCaseSensitive(ctx, "method");
    cJSON_AddStringToObject(ctx, "method", method);
    cJSON_AddItemToObject(doc, "context", ctx);
    cJSON_AddItemToObject(doc, "counters", counters_json(d));
    cJSON_AddItemToObject(doc, "results", res);
    res = NULL;
    if ((rc = mp_write_results_json(doc, dir, err)) || (rc = mp_write_csv(doc, dir, err)) ||
        (rc = mp_write_samples(doc, smp, dir, err)) || (rc = write_calls(dir, d, cell_of, err)))
        goto out;
    sum->ncells = ncells;
    sum->calls_seen = d->seen;
    sum->calls_dropped = d->lost + d->noslot;
    sum->target_exited = d->target_exited;
    snprintf(sum->ended, sizeof sum->ended, "%s", d->ended);
out:
    cJSON_Delete(doc);
    cJSON_Delete(res);
    free(ix);
    free(cell_of);
    free(wall);
    free(tids);
    free(smp);
    free(sw);
    free(srep);
    return rc;
}
