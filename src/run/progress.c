/* SPDX-License-Identifier: MIT */
/* progress.c - see progress.h. */
#include "run/progress.h"

#include <errno.h>
#include <linux/futex.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "common/clock.h"

#define NONE ((size_t)-1)

static void publish(mp_progress *p);

void mp_progress_init(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell)
{
    mp_progress_init_fd(p, quiet, r, units_per_cell, STDERR_FILENO);
}

void mp_progress_init_fd(mp_progress *p, int quiet, const mp_results *r, size_t units_per_cell,
                         int fd)
{
    memset(p, 0, sizeof *p);
    p->quiet = quiet;
    p->fd = fd;
    p->tty = isatty(fd);
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
    p->label_cell = NONE;
    void *m = mmap(NULL, sizeof *p->shm, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    p->shm_mapped = m != MAP_FAILED;
    p->shm = p->shm_mapped ? m : calloc(1, sizeof *p->shm);
    if (!p->shm) {
        p->quiet = 1;   /* out of memory: no progress */
        return;
    }
    p->shm->start_ns = p->start_ns;
    atomic_store(&p->shm->last_line_ns, p->start_ns);
    publish(p);
}

void mp_progress_free(mp_progress *p)
{
    mp_progress_ticker_stop(p);
    free(p->used);
    free(p->final);
    free(p->fits);
    if (p->shm_mapped)
        munmap(p->shm, sizeof *p->shm);
    else
        free(p->shm);
    p->used = p->final = NULL;
    p->fits = NULL;
    p->shm = NULL;
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

/* The seconds left besides what is left of the unit under way, whose
 * price goes to *cur (negative when none is under way); negative when
 * unknown. */
static double eta_base_s(const mp_progress *p, double *cur)
{
    *cur = -1;
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
        if (i == p->cur)
            *cur = u;
    }
    return left;
}

/* The seconds left at now_ns: base, and what is left of the unit under way
 * (priced cur, begun at begin_ns). */
static double eta_at(double base, double cur, uint64_t begin_ns, uint64_t now_ns)
{
    if (base < 0)
        return -1;
    double in = (double)(now_ns - begin_ns) / 1e9;
    return base + (cur > in ? cur - in : 0);
}

double mp_progress_eta_s(const mp_progress *p, uint64_t now_ns)
{
    double cur, base = eta_base_s(p, &cur);
    return eta_at(base, cur, p->cur_begin_ns, now_ns);
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
    if (!p->shm ||
        now_ns - atomic_load(&p->shm->last_line_ns) < (uint64_t)MP_PROGRESS_PLAIN_S * 1000000000u)
        return 0;
    atomic_store(&p->shm->last_line_ns, now_ns);
    return 1;
}

/* ---- the line and the page it is published in ---- */

/* All of buf to fd; -1 when fd took less. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The line at now_ns: head, the time so far, the time left (eta, negative:
 * unknown); in place on a terminal, else ended. */
static int draw(int fd, int tty, const char *head, uint64_t start_ns, double eta,
                uint64_t now_ns)
{
    char a[32], b[48] = "", line[MP_PROGRESS_HEAD + 96];
    if (eta >= 0)
        snprintf(b, sizeof b, ", ETA %s", dur(a, sizeof a, eta));
    int n = snprintf(line, sizeof line, "%s%s | %s%s%s", tty ? "\r\033[K" : "", head,
                     dur(a, sizeof a, (double)(now_ns - start_ns) / 1e9), b, tty ? "" : "\n");
    if (n < 0)
        return -1;
    return write_all(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static void futex_wake(_Atomic uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

/* What the line says now into the shared page (a sequence lock's write:
 * the ticker retries a read that overlapped it, this side never waits),
 * and the ticker woken to draw it on a terminal. */
static void publish(mp_progress *p)
{
    mp_progress_shm *m = p->shm;
    if (!m || p->quiet)
        return;
    char head[MP_PROGRESS_HEAD];
    if (p->label_cell == NONE) {
        snprintf(head, sizeof head, "[%zu/%zu cells done] starting", p->cells_done,
                 p->r->ncells);
    } else {
        size_t k, n, pass = mp_progress_pass(p, p->label_cell, &k, &n);
        snprintf(head, sizeof head, "[pass %zu/%zu, cell %zu/%zu; %zu/%zu cells done] %s", pass,
                 p->per_cell, k, n, p->cells_done, p->r->ncells, p->label);
    }
    double cur, base = eta_base_s(p, &cur);
    uint32_t seq = atomic_load_explicit(&m->seq, memory_order_relaxed);
    atomic_store_explicit(&m->seq, seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    m->cur_begin_ns = p->cur_begin_ns;
    m->eta_base_s = base;
    m->cur_price_s = cur;
    memcpy(m->head, head, sizeof head);
    atomic_store_explicit(&m->seq, seq + 2, memory_order_release);
    if (p->ticker_pid && p->tty)
        futex_wake(&m->seq);
}

/* The page's fields as one consistent copy; 0 when every try overlapped a
 * write. */
static int snapshot(mp_progress_shm *m, mp_progress_shm *out, uint32_t *seq)
{
    for (int tries = 0; tries < 100; tries++) {
        uint32_t s1 = atomic_load_explicit(&m->seq, memory_order_acquire);
        if (s1 & 1)
            continue;
        out->start_ns = m->start_ns;
        out->cur_begin_ns = m->cur_begin_ns;
        out->eta_base_s = m->eta_base_s;
        out->cur_price_s = m->cur_price_s;
        memcpy(out->head, m->head, sizeof out->head);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&m->seq, memory_order_relaxed) == s1) {
            out->head[sizeof out->head - 1] = 0;
            *seq = s1;
            return 1;
        }
    }
    return 0;
}

uint64_t mp_progress_tick(mp_progress_shm *m, int fd, int tty, uint64_t now_ns,
                          mp_progress_tickst *st)
{
    static mp_progress_shm sn;   /* the ticker's copy (one ticker per process) */
    uint32_t seq;
    const uint64_t gap_ns = (uint64_t)MP_PROGRESS_PLAIN_S * 1000000000u - MP_PROGRESS_EARLY_NS;
    if (!snapshot(m, &sn, &seq))
        return now_ns + 1000000;   /* the page is being written: again in 1 ms */
    if (tty) {
        if (seq == st->drawn_seq && now_ns < st->due_ns)
            return st->due_ns;
        double eta = eta_at(sn.eta_base_s, sn.cur_price_s, sn.cur_begin_ns, now_ns);
        if (draw(fd, 1, sn.head, sn.start_ns, eta, now_ns) < 0)
            return 0;
        atomic_fetch_add(&m->ticker_lines, 1);
        st->drawn_seq = seq;
        st->due_ns = sn.start_ns + ((now_ns - sn.start_ns) / MP_PROGRESS_TICK_NS + 1) *
                                       MP_PROGRESS_TICK_NS;
        return st->due_ns;
    }
    uint64_t due = atomic_load(&m->last_line_ns) + gap_ns;
    if (now_ns < due)
        return due;
    double eta = eta_at(sn.eta_base_s, sn.cur_price_s, sn.cur_begin_ns, now_ns);
    if (draw(fd, 0, sn.head, sn.start_ns, eta, now_ns) < 0)
        return 0;
    atomic_store(&m->last_line_ns, now_ns);
    atomic_fetch_add(&m->ticker_lines, 1);
    return now_ns + gap_ns;
}

/* ---- the ticker process ---- */

static _Noreturn void ticker_main(mp_progress_shm *m, int fd, int tty, pid_t parent,
                                  const cpu_set_t *cpus)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prctl(PR_SET_NAME, "muxprof-tick");   /* ps and tests tell it from the helper */
    if (getppid() != parent)
        _exit(0);
    /* No handler of the run's: the stop signals (a Ctrl-C reaches the
     * whole process group) are the run's to act on, and it ends this. */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    static const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        signal(ignored[i], SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (cpus)
        sched_setaffinity(0, sizeof *cpus, cpus);
    /* Nothing of the run's held open here (the helpers' sockets, the
     * journal) but the line's descriptor. */
    int rc = fd > 3 ? close_range(3, (unsigned)fd - 1, 0) : 0;
    if (rc == 0)
        rc = close_range((unsigned)fd + 1 > 3 ? (unsigned)fd + 1 : 3, ~0u, 0);
    if (rc) {
        /* before Linux 5.9: one at a time, to the descriptor limit */
        struct rlimit rl;
        long top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
                   rl.rlim_cur < 1048576 ? (long)rl.rlim_cur : 1048576;
        for (long i = 3; i < top; i++)
            if (i != fd)
                close((int)i);
    }
    mp_progress_tickst st = {0};
    for (;;) {
        if (atomic_load(&m->stop) || getppid() != parent)
            _exit(0);
        uint32_t seq = atomic_load(&m->seq);
        uint64_t due = mp_progress_tick(m, fd, tty, mp_now_ns(), &st);
        if (!due)
            _exit(0);
        uint64_t now = mp_now_ns();
        if (due > now) {   /* until due, a publish or a stop; at most a second */
            uint64_t d = due - now < 1000000000u ? due - now : 1000000000u;
            struct timespec ts = {.tv_sec = (time_t)(d / 1000000000u),
                                  .tv_nsec = (long)(d % 1000000000u)};
            syscall(SYS_futex, &m->seq, FUTEX_WAIT, seq, &ts, NULL, 0);
        }
        atomic_fetch_add(&m->ticker_wakes, 1);
    }
}

int mp_progress_ticker_start(mp_progress *p, const cpu_set_t *cpus, mp_err *err)
{
    if (p->quiet || p->ticker_pid || !p->shm_mapped)
        return 0;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        return mp_errf(err, -e, "cannot start the progress ticker: fork: %s", strerror(e));
    }
    if (pid == 0)
        ticker_main(p->shm, p->fd, p->tty, parent, cpus);
    p->ticker_pid = pid;
    return 0;
}

/* 1 once pid is reaped, within ms milliseconds. */
static int reap(pid_t pid, int ms)
{
    for (int waited = 0;; waited += 2) {
        pid_t w = waitpid(pid, NULL, WNOHANG);
        if (w == pid || (w < 0 && errno == ECHILD))
            return 1;
        if (waited >= ms)
            return 0;
        nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
    }
}

void mp_progress_ticker_stop(mp_progress *p)
{
    if (!p->ticker_pid)
        return;
    atomic_store(&p->shm->stop, 1);
    atomic_fetch_add(&p->shm->seq, 2);   /* stays even: wakes a wait on it */
    futex_wake(&p->shm->seq);
    if (!reap(p->ticker_pid, MP_PROGRESS_STOP_MS)) {   /* stuck in a write to a stopped tty */
        kill(p->ticker_pid, SIGKILL);
        reap(p->ticker_pid, MP_PROGRESS_STOP_MS);   /* else init reaps it when this process ends */
    }
    p->ticker_pid = 0;
}

void mp_progress_cb(size_t cell, size_t ncells, const char *label, void *ctx)
{
    mp_progress *p = ctx;
    (void)ncells;
    uint64_t now = mp_now_ns();
    mp_progress_unit_at(p, cell, now);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->label_cell = cell;
    if (p->quiet)
        return;
    publish(p);
    if (p->tty ? p->ticker_pid != 0 : !mp_progress_line_due(p, now))
        return;   /* on a terminal the ticker draws it */
    draw(p->fd, p->tty, p->shm->head, p->start_ns, mp_progress_eta_s(p, now), now);
}

static void cell_line(mp_progress *p, size_t i)
{
    atomic_store(&p->shm->last_line_ns, mp_now_ns());
    const mp_cell *c = &p->r->cells[i];
    char what[128], line[512], t[64];
    mp_cell_name(c, what, sizeof what);
    const mp_metric *m = c->status == MP_CELL_OK ? mp_cell_metric(c, "wall_ns") : NULL;
    int n;
    if (m)
        n = snprintf(line, sizeof line, "[%zu/%zu %5.1fs] %s: ok, median %s\n", i + 1,
                     p->r->ncells, elapsed_s(p), what, mp_fmt_spread(t, sizeof t, &m->s));
    else
        n = snprintf(line, sizeof line, "[%zu/%zu %5.1fs] %s: %s%s%.160s\n", i + 1,
                     p->r->ncells, elapsed_s(p), what, mp_cell_status_name(c->status),
                     c->reason[0] ? ": " : "", c->reason);
    if (n > 0)
        write_all(p->fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void mp_progress_cell_done(size_t cell, void *ctx)
{
    mp_progress *p = ctx;
    if (!p->final || cell >= p->r->ncells || p->final[cell])
        return;
    uint64_t now = mp_now_ns();
    mp_progress_cell_done_at(p, cell, now);
    if (p->quiet)
        return;
    publish(p);
    if (p->tty)
        return;
    while (p->next_line < p->r->ncells && p->final[p->next_line])
        cell_line(p, p->next_line++);
}

void mp_progress_done(mp_progress *p, const char *what)
{
    mp_progress_ticker_stop(p);
    if (p->quiet)
        return;
    char line[256];
    int n = snprintf(line, sizeof line, "%s%s in %.1f s\n", p->tty ? "\r\033[K" : "", what,
                     elapsed_s(p));
    if (n > 0)
        write_all(p->fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}
