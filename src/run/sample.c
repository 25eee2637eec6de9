/* sample.c - timed and counted blocks of calls; see sample.h for what one
 * sample is in each mode.
 *
 * Wakeup handshake, per sample (seq increments each time):
 *   waiter: rusage(nvcsw0); armed = seq; wait(-1)
 *   poker:  spin until armed == seq; poll /proc/self/task/<waiter>/stat
 *           until the waiter's state is 'S' (sleeping); t0 = now;
 *           poked_t0 = t0; write one byte
 *   waiter: t1 = now; rusage(nvcsw1); sample = t1 - t0 if nvcsw1 > nvcsw0
 * The state check makes the poke wait for the sleep; the context-switch
 * check after the fact catches a waiter that was woken before it actually
 * switched out, and such a sample is discarded.  Spin-waits yield after a
 * while (the two threads may share a CPU), the poker sleeps on a condition
 * variable between wakeup blocks, and a waiter that has not returned 5 s
 * after a poke is interrupted (SIGUSR1) so that its cell fails, not hangs.
 */
#include "run/sample.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/stats.h"
#include "run/task.h"

volatile int mp_sample_stop;

#define POKER_SLEEP_WAIT_NS 50000000ull   /* give up waiting for 'S' after 50 ms */
#define WATCHDOG_NS 5000000000ull         /* no return 5 s after a poke: the cell fails */
#define SPINS_BEFORE_YIELD 2000           /* then yield: both threads may share a CPU */

struct mp_poker {
    pthread_t thread;
    int pu;
    int (*bind)(int pu, void *ctx, mp_err *err);
    void *bind_ctx;
    _Atomic int bind_done;       /* set once the poker has tried to bind */
    int bind_rc;                 /* written before bind_done, read after it */
    char bind_msg[MP_ERR_MAX];
    _Atomic uint64_t armed;      /* sample number the waiter is about to wait for */
    _Atomic uint64_t done;       /* sample number poked */
    _Atomic uint64_t returned;   /* sample number the waiter returned from */
    _Atomic uint64_t t0;         /* poker's clock just before the write */
    _Atomic int quit;
    _Atomic int busy;            /* a wakeup block is running */
    _Atomic int stuck;           /* the watchdog interrupted the waiter */
    pthread_mutex_t lock;        /* with idle: the poker sleeps between blocks */
    pthread_cond_t idle;
    pthread_t waiter;
    _Atomic int stat_fd;         /* /proc/self/task/<waiter tid>/stat, -1 if none */
    const mp_fdset *_Atomic set;
    _Atomic int write_errno;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* One step of a spin-wait: pause, and yield the CPU once spinning has
 * lasted long enough that the other side may be waiting for this CPU. */
static inline void spin_step(unsigned *spins)
{
    if (++*spins < SPINS_BEFORE_YIELD)
        cpu_relax();
    else
        sched_yield();
}

static void on_watchdog(int sig)
{
    (void)sig;   /* only interrupts the waiter's system call */
}

static void *poker_main(void *arg)
{
    mp_poker *p = arg;
    uint64_t seen = 0;
    if (p->pu >= 0 && p->bind) {
        mp_err e;
        mp_err_clear(&e);
        p->bind_rc = p->bind(p->pu, p->bind_ctx, &e);
        snprintf(p->bind_msg, sizeof p->bind_msg, "%s", e.msg);
    }
    atomic_store_explicit(&p->bind_done, 1, memory_order_release);
    unsigned spins = 0;
    while (!atomic_load(&p->quit)) {
        uint64_t want = atomic_load_explicit(&p->armed, memory_order_acquire);
        if (want == seen) {
            if (atomic_load_explicit(&p->busy, memory_order_acquire)) {
                spin_step(&spins);
                continue;
            }
            /* No wakeup block running: sleep until one starts, leaving the
             * CPU to ready-mode work without periodic timer wakeups. */
            pthread_mutex_lock(&p->lock);
            while (!atomic_load(&p->busy) && !atomic_load(&p->quit))
                pthread_cond_wait(&p->idle, &p->lock);
            pthread_mutex_unlock(&p->lock);
            continue;
        }
        spins = 0;
        /* Wait until the waiter sleeps (or give up; the waiter discards). */
        int sfd = atomic_load(&p->stat_fd);
        uint64_t start = mp_now_ns();
        while (sfd >= 0 && mp_task_state(sfd) != 'S' && !atomic_load(&p->quit) &&
               mp_now_ns() - start < POKER_SLEEP_WAIT_NS)
            ;
        uint64_t t0 = mp_now_ns();
        atomic_store_explicit(&p->t0, t0, memory_order_release);
        if (mp_fdset_poke(atomic_load(&p->set)) < 0)
            atomic_store(&p->write_errno, errno);
        atomic_store_explicit(&p->done, want, memory_order_release);
        seen = want;
        /* Watchdog: a waiter that never returns (its fd no longer watched,
         * say) is interrupted so that the cell fails instead of hanging. */
        unsigned wspins = 0;
        /* "<", not "!=": a waiter whose next call returns at once (its fds
         * readable for another reason) may have moved past `want` already. */
        while (atomic_load_explicit(&p->returned, memory_order_acquire) < want &&
               !atomic_load(&p->quit)) {
            if (mp_now_ns() - t0 > WATCHDOG_NS) {
                atomic_store(&p->stuck, 1);
                pthread_kill(p->waiter, SIGUSR1);
                t0 = mp_now_ns();
            }
            spin_step(&wspins);
        }
    }
    return NULL;
}

int mp_poker_start(mp_poker **out, int pu, int (*bind)(int pu, void *ctx, mp_err *err),
                   void *bind_ctx, mp_err *err)
{
    mp_poker *p = calloc(1, sizeof *p);
    if (!p)
        return mp_errf(err, -ENOMEM, "out of memory for the poker thread");
    p->pu = pu;
    p->bind = bind;
    p->bind_ctx = bind_ctx;
    atomic_init(&p->stat_fd, -1);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->idle, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_watchdog;   /* no SA_RESTART: the wait returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    int rc = pthread_create(&p->thread, NULL, poker_main, p);
    if (rc) {
        free(p);
        return mp_errf(err, -rc, "cannot start the poker thread: %s", strerror(rc));
    }
    /* Binding is known before any sample: wait for the attempt. */
    while (!atomic_load_explicit(&p->bind_done, memory_order_acquire))
        sched_yield();
    *out = p;
    return 0;
}

int mp_poker_bind_result(const mp_poker *p, mp_err *err)
{
    if (p->bind_rc < 0)
        mp_errf(err, p->bind_rc, "poker thread: binding to PU %d failed: %s", p->pu,
                p->bind_msg);
    return p->bind_rc;
}

void mp_poker_stop(mp_poker *p)
{
    if (!p)
        return;
    atomic_store(&p->quit, 1);
    pthread_mutex_lock(&p->lock);
    pthread_cond_signal(&p->idle);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->idle);
    int fd = atomic_load(&p->stat_fd);
    if (fd >= 0)
        close(fd);
    free(p);
}

/* Check one call's answer: exactly the active ready fds.  got has room
 * for set->active + 1 fds. */
static int check_answer(const mp_backend_ops *b, void *st, const mp_fdset *set, int n,
                        int *got, mp_err *err)
{
    int want = set->active;
    if (n < 0)
        return mp_errf(err, n, "%s failed: %s", b->name, strerror(-n));
    if (n != want)
        return mp_errf(err, -EPROTO, "%s reported %d ready fds; exactly %d (fd %d%s) %s ready",
                       b->name, n, want, mp_fdset_ready_fd(set), want > 1 ? " and on" : "",
                       want > 1 ? "were" : "was");
    int k = b->collect(st, got, want + 1);
    if (k != want)
        return mp_errf(err, -EPROTO, "%s: %d ready fds collected, %d expected", b->name, k, want);
    for (int i = 0; i < k; i++)
        if (!mp_fdset_is_active(set, got[i]))
            return mp_errf(err, -EPROTO, "%s reported fd %d ready; it was not (ready: fd %d%s)",
                           b->name, got[i], mp_fdset_ready_fd(set),
                           want > 1 ? " and on" : "");
    return 0;
}

int mp_sample_check_answer(const mp_backend_ops *b, void *st, const mp_fdset *set, int n,
                           int *got, mp_err *err)
{
    return check_answer(b, st, set, n, got, err);
}

static int counter_sample(mp_pmu_pass *pass, const mp_pmu_snap *a, const mp_pmu_snap *b,
                          mp_block *out)
{
    unsigned nc = mp_pmu_pass_count(pass);
    if (mp_pmu_pass_delta(pass, a, b, out->counters + out->kept * nc) != 0) {
        out->dropped++;
        return 0;
    }
    out->kept++;
    return 1;
}

int mp_sample_ready(const mp_backend_ops *b, void *st, const mp_fdset *set, int warmup,
                    size_t n, mp_pmu_pass *pass, mp_block *out, mp_err *err)
{
    mp_pmu_snap sa, sb;
    int rc = 0;
    int *got = malloc(sizeof *got * (size_t)(set->active + 1));
    if (!got)
        return mp_errf(err, -ENOMEM, "out of memory");
    out->kept = out->discarded = out->dropped = 0;
    for (int i = 0; i < warmup && rc == 0; i++) {
        int r = b->wait(st, 0);
        if (r != set->active)
            rc = check_answer(b, st, set, r, got, err);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        int r;
        if (mp_sample_stop) {
            rc = -EINTR;
            break;
        }
        if (pass) {
            mp_pmu_pass_read(pass, &sa);
            r = b->wait(st, 0);
            mp_pmu_pass_read(pass, &sb);
        } else {
            uint64_t t0 = mp_now_ns();
            r = b->wait(st, 0);
            uint64_t t1 = mp_now_ns();
            out->wall_ns[out->kept] = (double)(t1 - t0);
        }
        rc = check_answer(b, st, set, r, got, err);
        if (rc < 0)
            break;
        if (pass)
            counter_sample(pass, &sa, &sb, out);
        else
            out->kept++;
    }
    free(got);
    return rc;
}

static long thread_nvcsw(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return ru.ru_nvcsw;
}

static int open_own_stat(void)
{
    return mp_task_open((int)syscall(SYS_gettid), "stat");
}

static int wakeup_block(const mp_backend_ops *b, void *st, const mp_fdset *set,
                        mp_poker *poker, int warmup, size_t n, mp_pmu_pass *pass, mp_block *out,
                        int *got, mp_err *err);

int mp_sample_wakeup(const mp_backend_ops *b, void *st, const mp_fdset *set, mp_poker *poker,
                     int warmup, size_t n, mp_pmu_pass *pass, mp_block *out, mp_err *err)
{
    int got[2];
    if (set->active != 1)
        return mp_errf(err, -EINVAL, "wakeup mode pokes one fd; %d active asked for",
                       set->active);
    out->kept = out->discarded = out->dropped = 0;
    /* Bytes and notifications left from earlier blocks (a block that failed
     * before draining, an io_uring completion, an ET edge for a poke drained
     * since) must not answer a sample. */
    mp_fdset_drain(set);
    for (int i = 0; i < 1000 && b->wait(st, 0) > 0; i++)
        b->collect(st, got, 2);
    atomic_store(&poker->set, set);
    if (atomic_load(&poker->stat_fd) < 0)
        atomic_store(&poker->stat_fd, open_own_stat());
    poker->waiter = pthread_self();
    atomic_store(&poker->stuck, 0);
    pthread_mutex_lock(&poker->lock);
    atomic_store(&poker->busy, 1);
    pthread_cond_signal(&poker->idle);
    pthread_mutex_unlock(&poker->lock);
    int rc = wakeup_block(b, st, set, poker, warmup, n, pass, out, got, err);
    atomic_store(&poker->busy, 0);
    return rc;
}

static int wakeup_block(const mp_backend_ops *b, void *st, const mp_fdset *set,
                        mp_poker *poker, int warmup, size_t n, mp_pmu_pass *pass, mp_block *out,
                        int *got, mp_err *err)
{
    mp_pmu_snap sa, sb;
    size_t total = (size_t)warmup + n;
    for (size_t i = 0; i < total; i++) {
        if (mp_sample_stop)
            return -EINTR;
        long cs0 = thread_nvcsw();
        uint64_t seq = atomic_load(&poker->armed) + 1;
        if (pass)
            mp_pmu_pass_read(pass, &sa);
        atomic_store_explicit(&poker->armed, seq, memory_order_release);
        int r;
        do
            r = b->wait(st, -1);
        while (r == -EINTR && !mp_sample_stop && !atomic_load(&poker->stuck));
        uint64_t t1 = mp_now_ns();
        atomic_store_explicit(&poker->returned, seq, memory_order_release);
        if (pass)
            mp_pmu_pass_read(pass, &sb);
        long cs1 = thread_nvcsw();
        unsigned spins = 0;
        while (atomic_load_explicit(&poker->done, memory_order_acquire) != seq)
            spin_step(&spins);
        if (r == -EINTR && atomic_load(&poker->stuck))
            return mp_errf(err, -ETIMEDOUT, "%s did not return within 5 s of the write to "
                           "fd %d (is the fd still watched?)", b->name, mp_fdset_ready_fd(set));
        if (r == -EINTR)
            return -EINTR;
        int rc, we = atomic_exchange(&poker->write_errno, 0);
        if (we)
            return mp_errf(err, -we, "poker: writing the ready fd failed: %s", strerror(we));
        rc = check_answer(b, st, set, r, got, err);
        if (rc < 0)
            return rc;
        rc = mp_fdset_drain(set);
        if (rc < 0)
            return mp_errf(err, rc, "draining fd %d failed: %s", mp_fdset_ready_fd(set),
                           strerror(-rc));
        if (i < (size_t)warmup)
            continue;
        if (cs1 == cs0) {
            out->discarded++;
            continue;
        }
        if (pass) {
            counter_sample(pass, &sa, &sb, out);
        } else {
            uint64_t t0 = atomic_load_explicit(&poker->t0, memory_order_acquire);
            if (t1 <= t0) {   /* returned before the poke: not a wakeup */
                out->discarded++;
                continue;
            }
            out->wall_ns[out->kept++] = (double)(t1 - t0);
        }
    }
    return 0;
}

int mp_sample_bare_loop(const mp_backend_ops *b, void *st, size_t n, double *ns_per_call,
                        mp_err *err)
{
    /* BARE_LOOPS loops of n / BARE_LOOPS calls, each timed as one interval;
     * the median loop stands, so a timer interrupt in one loop does not. */
    enum { BARE_LOOPS = 10 };
    size_t per = n / BARE_LOOPS ? n / BARE_LOOPS : 1;
    double loop_ns[BARE_LOOPS];
    int bad = 0;
    for (int l = 0; l < BARE_LOOPS; l++) {
        uint64_t t0 = mp_now_ns();
        for (size_t i = 0; i < per; i++)
            bad |= b->wait(st, 0) < 1;
        uint64_t t1 = mp_now_ns();
        loop_ns[l] = (double)(t1 - t0) / (double)per;
    }
    if (bad)
        return mp_errf(err, -EPROTO, "%s: a bare-loop call reported no ready fd", b->name);
    *ns_per_call = mp_median(loop_ns, BARE_LOOPS);
    return 0;
}

void mp_sample_empty_brackets(double *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t t0 = mp_now_ns();
        uint64_t t1 = mp_now_ns();
        out[i] = (double)(t1 - t0);
    }
}
