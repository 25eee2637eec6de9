/* SPDX-License-Identifier: MIT */
/* sample.c - timed and counted blocks of calls; see sample.h for what one
 * sample is in each mode.
 *
 * Wakeup handshake, per sample (seq increments each time):
 *   waiter: rusage(nvcsw0); armed = seq; wait(-1)
 *   poker:  (another process, poker.c) spin until armed == seq; poll the
 *           waiter's /proc stat until its state is 'S' (sleeping); wait
 *           the block's delay; t0 = now; write one byte
 *   waiter: t1 = now; rusage(nvcsw1); sample = t1 - t0 if nvcsw1 > nvcsw0
 * The state check makes the poke wait for the sleep; the context-switch
 * check after the fact catches a waiter that was woken before it actually
 * switched out, and such a sample is discarded.  Spin-waits yield after a
 * while (both sides may share a CPU); a waiter that has not returned long
 * after a poke is interrupted (SIGUSR1) so that its cell fails, not hangs.
 * The waiter's liveness tick (poker.h) interrupts a wait whose poke does
 * not come: the waiter then asks mp_poker_check, and a dead or silent
 * poker fails the cell with the reason.  A sample whose wait the tick
 * interrupted is taken again, not kept: signal delivery was inside it.
 */
#include "run/sample.h"

#include <fcntl.h>
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
#include "run/spin.h"
#include "common/stats.h"
#include "run/procfs.h"

volatile int mp_sample_stop;

/* SIGCONTs received: a sample during which it changed spanned a stop. */
static volatile sig_atomic_t conts;

static void on_cont(int sig)
{
    (void)sig;
    conts++;
}

void mp_sample_watch_stops(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_cont;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCONT, &sa, NULL);
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

/* Keep the deltas of one bracket, or drop the sample: a read that failed
 * (ra, rb < 0) would leave a stale snapshot, and a group that did not run
 * throughout would need scaling. */
static int counter_sample(mp_pmu_pass *pass, int ra, int rb, const mp_pmu_snap *a,
                          const mp_pmu_snap *b, mp_block *out)
{
    unsigned nc = mp_pmu_pass_count(pass);
    if (ra < 0 || rb < 0 || mp_pmu_pass_delta(pass, a, b, out->counters + out->kept * nc) != 0) {
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
    int rc = 0, ra = 0, rb = 0;
    int *got = malloc(sizeof *got * (size_t)(set->active + 1));
    if (!got)
        return mp_errf(err, -ENOMEM, "out of memory");
    out->kept = out->discarded = out->dropped = out->stopped = out->preempted = 0;
    uint64_t w0 = mp_now_ns();
    for (int i = 0; rc == 0 && warmup > 0 && (i < warmup || mp_now_ns() - w0 < MP_WARMUP_NS);
         i++) {
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
            ra = mp_pmu_pass_read(pass, &sa);
            r = b->wait(st, 0);
            rb = mp_pmu_pass_read(pass, &sb);
        } else {
            sig_atomic_t c0 = conts;
            uint64_t t0 = mp_now_ns();
            r = b->wait(st, 0);
            uint64_t t1 = mp_now_ns();
            out->stopped += c0 != conts;
            out->wall_ns[out->kept] = (double)(t1 - t0);
            if (out->span) {
                out->span[2 * out->kept] = t0;
                out->span[2 * out->kept + 1] = t1;
            }
        }
        rc = check_answer(b, st, set, r, got, err);
        if (rc < 0)
            break;
        if (pass)
            counter_sample(pass, ra, rb, &sa, &sb, out);
        else
            out->kept++;
    }
    free(got);
    return rc;
}

/* The calling thread's context switches: voluntary (it slept) and not. */
static void thread_csw(long *voluntary, long *involuntary)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    *voluntary = ru.ru_nvcsw;
    *involuntary = ru.ru_nivcsw;
}

static int wakeup_block(const mp_backend_ops *b, void *st, const mp_fdset *set,
                        mp_poker *poker, int warmup, size_t n, mp_pmu_pass *pass, mp_block *out,
                        int *got, mp_err *err);

int mp_sample_wakeup(const mp_backend_ops *b, void *st, const mp_fdset *set, mp_poker *poker,
                     uint64_t delay_ns, int warmup, size_t n, mp_pmu_pass *pass,
                     mp_block *out, mp_err *err)
{
    int got[2];
    if (set->active != 1)
        return mp_errf(err, -EINVAL, "wakeup mode pokes one fd; %d active asked for",
                       set->active);
    out->kept = out->discarded = out->dropped = out->stopped = out->preempted = 0;
    /* Bytes and notifications left from earlier blocks (a block that failed
     * before draining, an io_uring completion, an ET edge for a poke drained
     * since) must not answer a sample. */
    mp_fdset_drain(set);
    for (int i = 0; i < 1000 && b->wait(st, 0) > 0; i++)
        b->collect(st, got, 2);
    int rc = mp_poker_begin(poker, set, (int)syscall(SYS_gettid), delay_ns, err);
    if (rc < 0)
        return rc;
    rc = wakeup_block(b, st, set, poker, warmup, n, pass, out, got, err);
    mp_err eerr;
    if (mp_poker_end(poker, rc == -EINTR, &eerr) < 0 && rc == 0)
        rc = mp_errf(err, eerr.code, "%s", eerr.msg);
    return rc;
}

/* The waiter's call for sample seq (its result in *r), retried after the
 * liveness tick; *ticked says whether a tick interrupted it.  0, or the
 * poker's failure from mp_poker_check. */
static int wait_for_poke(const mp_backend_ops *b, void *st, mp_poker *poker, uint64_t seq,
                         int *r, int *ticked, mp_err *err)
{
    for (;;) {
        *r = b->wait(st, -1);
        if (*r != -EINTR || mp_sample_stop || atomic_load(&poker->pg->stuck))
            return 0;
        *ticked = 1;
        int rc = mp_poker_check(poker, seq, err);
        if (rc < 0)
            return rc;
    }
}

/* After the waiter's return: until the poker says it poked sample seq
 * (it stores `done` just after its write). */
static int await_done(mp_poker *poker, uint64_t seq, mp_err *err)
{
    unsigned spins = 0;
    uint64_t last = mp_now_ns();
    while (atomic_load_explicit(&poker->pg->done, memory_order_acquire) < seq) {
        if (mp_sample_stop)
            return -EINTR;
        uint64_t now = mp_now_ns();
        if (now - last > MP_POKER_TICK_MS * 1000000ull) {
            int rc = mp_poker_check(poker, seq, err);
            if (rc < 0)
                return rc;
            last = now;
        }
        mp_spin_step(&spins);
    }
    return 0;
}

static int wakeup_block(const mp_backend_ops *b, void *st, const mp_fdset *set,
                        mp_poker *poker, int warmup, size_t n, mp_pmu_pass *pass, mp_block *out,
                        int *got, mp_err *err)
{
    mp_pmu_snap sa, sb;
    int ra = 0, rb = 0;
    /* Warm-up: at least `warmup` calls and MP_WARMUP_NS, then n measured. */
    uint64_t w0 = mp_now_ns();
    size_t warm = 0, measured = 0;
    for (;;) {
        int warming = warmup > 0 && (warm < (size_t)warmup || mp_now_ns() - w0 < MP_WARMUP_NS);
        if (!warming && measured >= n)
            break;
        if (mp_sample_stop)
            return -EINTR;
        long cs0, ics0, cs1, ics1;
        thread_csw(&cs0, &ics0);
        sig_atomic_t c0 = conts;
        uint64_t seq = atomic_load(&poker->pg->armed) + 1;
        uint64_t ta = 0;
        if (pass)
            ra = mp_pmu_pass_read(pass, &sa);
        else
            ta = mp_now_ns();
        atomic_store_explicit(&poker->pg->armed, seq, memory_order_release);
        int r, ticked = 0;
        int rc = wait_for_poke(b, st, poker, seq, &r, &ticked, err);
        uint64_t t1 = mp_now_ns();
        if (rc < 0)
            return rc;   /* the poker is gone */
        atomic_store_explicit(&poker->pg->returned, seq, memory_order_release);
        if (pass)
            rb = mp_pmu_pass_read(pass, &sb);
        thread_csw(&cs1, &ics1);
        int stopped = c0 != conts;
        if ((rc = await_done(poker, seq, err)) < 0)
            return rc;
        if (r == -EINTR && atomic_load(&poker->pg->stuck))
            return mp_errf(err, -ETIMEDOUT, "%s did not return long after the write to "
                           "fd %d (is the fd still watched?)", b->name, mp_fdset_ready_fd(set));
        if (r == -EINTR)
            return -EINTR;
        int we = atomic_exchange(&poker->pg->write_errno, 0);
        if (we)
            return mp_errf(err, -we, "poker: writing the ready fd failed: %s", strerror(we));
        rc = check_answer(b, st, set, r, got, err);
        if (rc < 0)
            return rc;
        rc = mp_fdset_drain(set);
        if (rc < 0)
            return mp_errf(err, rc, "draining fd %d failed: %s", mp_fdset_ready_fd(set),
                           strerror(-rc));
        if (warming) {
            warm++;
            continue;
        }
        if (ticked)
            continue;
        measured++;
        if (cs1 == cs0) {
            out->discarded++;
            continue;
        }
        if (pass) {
            size_t at = out->kept;
            int pn = poker->pg->count_n;
            if (counter_sample(pass, ra, rb, &sa, &sb, out) && out->poker_counters)
                for (int k = 0; k < pn; k++)
                    out->poker_counters[at * (size_t)pn + (size_t)k] =
                        poker->pg->count_ok ? poker->pg->count_delta[k] : INT64_MIN;
        } else {
            uint64_t t0 = atomic_load_explicit(&poker->pg->t0, memory_order_acquire);
            if (t1 <= t0) {   /* returned before the poke: not a wakeup */
                out->discarded++;
                continue;
            }
            if (out->waiter_ns)
                out->waiter_ns[out->kept] = (double)(t1 - ta);
            if (out->asleep_ns)
                out->asleep_ns[out->kept] =
                    (double)(t0 - atomic_load_explicit(&poker->pg->t_asleep,
                                                       memory_order_acquire));
            if (out->span) {
                out->span[2 * out->kept] = ta;
                out->span[2 * out->kept + 1] = t1;
            }
            out->stopped += stopped;
            out->preempted += ics1 != ics0;
            out->wall_ns[out->kept++] = (double)(t1 - t0);
        }
    }
    return 0;
}

int mp_sample_bare_loop(const mp_backend_ops *b, void *st, size_t n, double *ns_per_call,
                        double *mean_ns, mp_err *err)
{
    /* BARE_LOOPS loops of n / BARE_LOOPS calls, each timed as one interval;
     * the median loop stands, so a timer interrupt in one loop does not. */
    enum { BARE_LOOPS = 10 };
    size_t per = n / BARE_LOOPS ? n / BARE_LOOPS : 1;
    double loop_ns[BARE_LOOPS], total_ns = 0;
    int bad = 0;
    for (int l = 0; l < BARE_LOOPS; l++) {
        uint64_t t0 = mp_now_ns();
        for (size_t i = 0; i < per; i++)
            bad |= b->wait(st, 0) < 1;
        uint64_t t1 = mp_now_ns();
        loop_ns[l] = (double)(t1 - t0) / (double)per;
        total_ns += (double)(t1 - t0);
    }
    if (bad)
        return mp_errf(err, -EPROTO, "%s: a bare-loop call reported no ready fd", b->name);
    *ns_per_call = mp_median(loop_ns, BARE_LOOPS);
    *mean_ns = total_ns / (double)(per * BARE_LOOPS);
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
