/* SPDX-License-Identifier: MIT */
/* poker.c - the wakeup poker process; see poker.h.
 *
 * Commands on a SOCK_SEQPACKET pair:
 *   'B' + mp_begin_msg + SCM_RIGHTS(poke fd)   run a block, answer 'b' when
 *                                              `busy` drops and the fd is closed
 *   EOF                                        exit
 * Inside a block, per sample (see sample.c for the waiter's side):
 *   spin until armed > done; poll the waiter's /proc stat until its state is
 *   'S' (or give up after a limit that grows with N); t_asleep = now; wait
 *   the block's delay (sleeping for the bulk of a long one, spinning the
 *   rest, so that the write is never early and seldom late); t0 = now; write;
 *   done = armed; then watch for the waiter's return and interrupt it
 *   (SIGUSR1 to its thread) if it does not return within the watchdog limit.
 * The other direction, a poker that dies or never pokes, is caught by the
 * waiter's tick (poker.h) and mp_poker_check, within the same limit.
 */
#include "run/poker.h"

#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/stats.h"
#include "run/fdpass.h"
#include "run/spin.h"
#include "run/procfs.h"

#define SLEEP_WAIT_BASE_NS 50000000ull    /* give up waiting for 'S' after 50 ms ... */
#define SLEEP_WAIT_PER_FD_NS 2000ull      /* ... plus 2 us per watched fd (arming is O(N)) */
#define WATCHDOG_BASE_NS 5000000000ull    /* no return 5 s after a poke, or no poke 5 s */
#define WATCHDOG_PER_FD_NS 10000ull       /* after arming, plus 10 us per fd: the cell fails */
#define REPLY_WAIT_MS 10000               /* bound on every wait for the poker's answer */
#define STOP_REPLY_WAIT_MS 1000           /* the same while the run is being interrupted */
#define REPLY_SLICE_MS 100                /* liveness checked this often while waiting */
#define DELAY_SPIN_NS 200000ull           /* a delay's last 200 us are spun, not slept */

#ifndef sigev_notify_thread_id   /* glibc before 2.35 names the field only this way */
#define sigev_notify_thread_id _sigev_un._tid
#endif

typedef struct mp_begin_msg {
    int tid;            /* the waiter thread, in the parent */
    int eventfd;        /* write 8 bytes (eventfd) instead of one */
    int nfds;           /* watched fds: scales the limits */
    uint64_t delay_ns;  /* from seeing the waiter asleep to the write */
    int count_pass;     /* the plan's pass to count around each write, -1: none */
} mp_begin_msg;

static void on_watchdog(int sig)
{
    (void)sig;   /* only interrupts the waiter's system call */
}

/* How long one side waits for the other within a sample (both directions). */
static uint64_t stall_limit_ns(int nfds)
{
    return WATCHDOG_BASE_NS + WATCHDOG_PER_FD_NS * (uint64_t)(nfds > 0 ? nfds : 0);
}

/* Until mp_now_ns() >= deadline, or quit: a long wait sleeps on an
 * absolute CLOCK_MONOTONIC deadline (the clock mp_now_ns reads) up to its
 * last DELAY_SPIN_NS, which is spun. */
static void wait_until(const mp_poke_page *pg, uint64_t deadline)
{
    uint64_t now = mp_now_ns();
    if (deadline > now + DELAY_SPIN_NS) {
        uint64_t wake = deadline - DELAY_SPIN_NS;
        struct timespec ts = {.tv_sec = (time_t)(wake / 1000000000ull),
                              .tv_nsec = (long)(wake % 1000000000ull)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
               !atomic_load(&pg->quit))
            ;
    }
    while (mp_now_ns() < deadline && !atomic_load(&pg->quit))
        ;
}

static int poke(int fd, int is_eventfd)
{
    uint64_t one = 1;
    char b = 'x';
    ssize_t r = is_eventfd ? write(fd, &one, sizeof one) : write(fd, &b, 1);
    return r > 0 ? 0 : -1;
}

#define COUNT_BRACKETS 200   /* empty read brackets calibrating the poker's counters */

/* Open pass `pass` of the plan on the poker itself and calibrate its empty
 * read bracket; the outcome goes to the page (count_n, count_rc). */
static mp_pmu_pass *count_open(mp_poke_page *pg, const mp_pmu_plan *plan, int pass)
{
    mp_pmu_pass *pp = NULL;
    mp_err e;
    mp_err_clear(&e);
    pg->count_n = 0;
    pg->count_rc = 0;
    pg->count_msg[0] = 0;
    if (pass < 0 || !plan)
        return NULL;
    pg->count_rc = mp_pmu_pass_open(&pp, plan, (unsigned)pass, &e);
    if (pg->count_rc < 0) {
        snprintf(pg->count_msg, sizeof pg->count_msg, "%s", e.msg);
        return NULL;
    }
    unsigned nc = mp_pmu_pass_count(pp);
    static int64_t d[COUNT_BRACKETS][MP_PMU_MAX_COUNTERS];
    double x[COUNT_BRACKETS];
    size_t kept = 0;
    for (int i = 0; i < COUNT_BRACKETS; i++) {
        mp_pmu_snap a, b;
        int ra = mp_pmu_pass_read(pp, &a), rb = mp_pmu_pass_read(pp, &b);
        if (ra == 0 && rb == 0 && mp_pmu_pass_delta(pp, &a, &b, d[kept]) == 0)
            kept++;
    }
    for (unsigned k = 0; k < nc; k++) {
        for (size_t i = 0; i < kept; i++)
            x[i] = (double)d[i][k];
        pg->count_bracket[k] = kept ? mp_median(x, kept) : NAN;
    }
    pg->count_n = (int)nc;
    return pp;
}

/* One block in the child: poke whenever armed moves past done. */
static void child_block(mp_poke_page *pg, pid_t parent, const mp_begin_msg *m, int fd,
                        const mp_pmu_plan *plan)
{
    mp_pmu_pass *pp = count_open(pg, plan, m->count_pass);
    int sfd = mp_task_open_in((int)parent, m->tid, "stat");
    uint64_t sleep_wait = SLEEP_WAIT_BASE_NS + SLEEP_WAIT_PER_FD_NS * (uint64_t)m->nfds;
    uint64_t watchdog = stall_limit_ns(m->nfds);
    uint64_t seen = atomic_load(&pg->done);
    unsigned spins = 0;
    while (!atomic_load(&pg->quit)) {
        uint64_t want = atomic_load_explicit(&pg->armed, memory_order_acquire);
        if (want == seen) {
            if (!atomic_load_explicit(&pg->busy, memory_order_acquire))
                break;
            mp_spin_step(&spins);
            continue;
        }
        spins = 0;
        uint64_t start = mp_now_ns();
        while (sfd >= 0 && mp_task_state(sfd) != 'S' && !atomic_load(&pg->quit) &&
               mp_now_ns() - start < sleep_wait)
            ;
        uint64_t asleep = mp_now_ns();
        atomic_store_explicit(&pg->t_asleep, asleep, memory_order_release);
        if (m->delay_ns)
            wait_until(pg, asleep + m->delay_ns);
        mp_pmu_snap ca, cb;
        int ra = pp ? mp_pmu_pass_read(pp, &ca) : 0;
        uint64_t t0 = mp_now_ns();
        atomic_store_explicit(&pg->t0, t0, memory_order_release);
        if (poke(fd, m->eventfd) < 0)
            atomic_store(&pg->write_errno, errno);
        if (pp) {   /* the write: pipe_write, the poll or epoll callbacks, the wakeup */
            int rb = mp_pmu_pass_read(pp, &cb);
            pg->count_ok = ra == 0 && rb == 0 &&
                           mp_pmu_pass_delta(pp, &ca, &cb, pg->count_delta) == 0;
        }
        atomic_store_explicit(&pg->done, want, memory_order_release);
        seen = want;
        unsigned wspins = 0;
        /* "<", not "!=": a waiter whose next call returns at once may have
         * moved past `want` already. */
        while (atomic_load_explicit(&pg->returned, memory_order_acquire) < want &&
               !atomic_load(&pg->quit)) {
            if (mp_now_ns() - t0 > watchdog) {
                atomic_store(&pg->stuck, 1);
                syscall(SYS_tgkill, (int)parent, m->tid, SIGUSR1);
                t0 = mp_now_ns();
            }
            mp_spin_step(&wspins);
        }
    }
    if (sfd >= 0)
        close(sfd);
    mp_pmu_pass_close(pp);
}

static void child_main(mp_poke_page *pg, int sock, pid_t parent, int pu,
                       int (*bind)(int pu, void *ctx, mp_err *err), void *bind_ctx,
                       const mp_pmu_plan *plan)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);    /* the terminal's signals are for the run: it stops this */
    signal(SIGQUIT, SIG_IGN);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    prctl(PR_SET_NAME, "muxprof-poker");   /* ps and tests tell it from the helper */
    prctl(PR_SET_TIMERSLACK, 1UL);   /* a delay's sleep ends when asked, not 50 us later */
    if (pu >= 0 && bind) {
        mp_err e;
        mp_err_clear(&e);
        pg->bind_rc = bind(pu, bind_ctx, &e);
        snprintf(pg->bind_msg, sizeof pg->bind_msg, "%s", e.msg);
    }
    atomic_store_explicit(&pg->bind_done, 1, memory_order_release);
    for (;;) {
        char cmd[1 + sizeof(mp_begin_msg)];
        int fd = -1;
        size_t nfd;
        ssize_t r = mp_fdpass_recv(sock, cmd, sizeof cmd, &fd, 1, &nfd);
        if (r <= 0)
            break;
        if (cmd[0] == 'B' && r == (ssize_t)sizeof cmd && fd >= 0) {
            mp_begin_msg m;
            memcpy(&m, cmd + 1, sizeof m);
            child_block(pg, parent, &m, fd, plan);
        }
        if (fd >= 0)
            close(fd);
        char ack = 'b';
        if (send(sock, &ack, 1, MSG_NOSIGNAL) != 1)
            break;
    }
    _exit(0);
}

/* Whether the poker still runs; when it has exited or was killed it is
 * reaped and p->death says how. */
static int poker_alive(mp_poker *p)
{
    int st;
    if (p->pid <= 0)
        return 0;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == 0)
        return 1;
    if (r == p->pid && WIFSIGNALED(st))
        snprintf(p->death, sizeof p->death, "(pid %d) was killed by signal %d (%s)",
                 (int)p->pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else if (r == p->pid)
        snprintf(p->death, sizeof p->death, "(pid %d) exited with status %d", (int)p->pid,
                 WEXITSTATUS(st));
    else
        snprintf(p->death, sizeof p->death, "(pid %d) is gone: %s", (int)p->pid,
                 strerror(errno));
    p->pid = 0;
    return 0;
}

/* A poker that stopped keeping its side: killed, reaped, remembered as gone. */
static void give_up(mp_poker *p, const char *why)
{
    int st;
    if (!poker_alive(p))
        return;
    kill(p->pid, SIGKILL);
    while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
        ;
    snprintf(p->death, sizeof p->death, "(pid %d) %s, and was killed", (int)p->pid, why);
    p->pid = 0;
}

/* The scheduler state of the poker from /proc ('R', 'S', 'T', ...), or '?'. */
static char poker_state(const mp_poker *p)
{
    int fd = mp_task_open_in((int)p->pid, (int)p->pid, "stat");
    char c = fd >= 0 ? mp_task_state(fd) : 0;
    if (fd >= 0)
        close(fd);
    return c ? c : '?';
}

/* The waiter's tick: SIGUSR1 to thread tid every MP_POKER_TICK_MS. */
static int tick_start(mp_poker *p, int tid, mp_err *err)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGUSR1;
    sev.sigev_notify_thread_id = tid;
    if (timer_create(CLOCK_MONOTONIC, &sev, &p->tick) < 0)
        return mp_errf(err, -errno, "poker: timer_create for the waiter's liveness tick: %s",
                       strerror(errno));
    struct itimerspec its = {
        .it_interval = {MP_POKER_TICK_MS / 1000, (MP_POKER_TICK_MS % 1000) * 1000000L},
        .it_value = {MP_POKER_TICK_MS / 1000, (MP_POKER_TICK_MS % 1000) * 1000000L}};
    if (timer_settime(p->tick, 0, &its, NULL) < 0) {
        int e = errno;
        timer_delete(p->tick);
        return mp_errf(err, -e, "poker: arming the waiter's liveness tick: %s", strerror(e));
    }
    p->ticking = 1;
    return 0;
}

static void tick_stop(mp_poker *p)
{
    if (p->ticking)
        timer_delete(p->tick);
    p->ticking = 0;
}

int mp_poker_start(mp_poker **out, int pu, int (*bind)(int pu, void *ctx, mp_err *err),
                   void *bind_ctx, const mp_pmu_plan *plan, mp_err *err)
{
    mp_poker *p = calloc(1, sizeof *p);
    int sv[2] = {-1, -1};
    if (!p)
        return mp_errf(err, -ENOMEM, "out of memory for the poker");
    p->pu = pu;
    p->sock = -1;
    p->count_pass = -1;
    p->plan = plan;
    p->pg = mmap(NULL, sizeof *p->pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p->pg == MAP_FAILED) {
        int e = errno;
        free(p);
        return mp_errf(err, -e, "poker: mmap of the shared page: %s", strerror(e));
    }
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        int e = errno;
        munmap(p->pg, sizeof *p->pg);
        free(p);
        return mp_errf(err, -e, "poker: socketpair: %s", strerror(e));
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_watchdog;   /* no SA_RESTART: the wait returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        munmap(p->pg, sizeof *p->pg);
        free(p);
        return mp_errf(err, -e, "cannot start the poker process: fork: %s%s", strerror(e),
                       e == EAGAIN ? " (RLIMIT_NPROC? ulimit -u)" : "");
    }
    if (pid == 0) {
        close(sv[0]);
        child_main(p->pg, sv[1], parent, pu, bind, bind_ctx, plan);
    }
    close(sv[1]);
    p->pid = pid;
    p->sock = sv[0];
    /* Binding is known before any sample: wait (bounded) for the attempt. */
    uint64_t t0 = mp_now_ns();
    while (!atomic_load_explicit(&p->pg->bind_done, memory_order_acquire)) {
        if (!poker_alive(p)) {
            int rc = mp_errf(err, -EPIPE, "poker: the process %s before it started", p->death);
            mp_poker_stop(p);
            return rc;
        }
        if (mp_now_ns() - t0 > (uint64_t)REPLY_WAIT_MS * 1000000ull) {
            mp_poker_stop(p);
            return mp_errf(err, -ETIMEDOUT, "poker: the process did not start within %d s",
                           REPLY_WAIT_MS / 1000);
        }
        usleep(100);
    }
    *out = p;
    return 0;
}

int mp_poker_bind_result(const mp_poker *p, mp_err *err)
{
    if (p->pg->bind_rc < 0)
        mp_errf(err, p->pg->bind_rc, "poker: binding to PU %d failed: %s", p->pu,
                p->pg->bind_msg);
    return p->pg->bind_rc;
}

void mp_poker_stop(mp_poker *p)
{
    if (!p)
        return;
    tick_stop(p);
    atomic_store(&p->pg->quit, 1);
    if (p->sock >= 0)
        close(p->sock);
    /* It exits on EOF; one that does not within the bound (stopped, say) is killed. */
    uint64_t t0 = mp_now_ns();
    while (poker_alive(p) && mp_now_ns() - t0 < (uint64_t)STOP_REPLY_WAIT_MS * 1000000ull)
        usleep(1000);
    give_up(p, "did not exit");
    munmap(p->pg, sizeof *p->pg);
    free(p);
}

int mp_poker_begin(mp_poker *p, const mp_fdset *set, int tid, uint64_t delay_ns, mp_err *err)
{
    mp_begin_msg m;
    memset(&m, 0, sizeof m);   /* its padding goes through the socket too */
    m.tid = tid;
    m.eventfd = set->kind == MP_FD_EVENTFD;
    m.nfds = set->n;
    m.delay_ns = delay_ns;
    m.count_pass = p->plan ? p->count_pass : -1;
    char cmd[1 + sizeof m];
    int fd = set->poke_fds[set->active_off];
    if (!poker_alive(p))
        return mp_errf(err, -EPIPE, "the poker process %s; no wakeup cell can be measured "
                       "after that", p->death);
    cmd[0] = 'B';
    memcpy(cmd + 1, &m, sizeof m);
    p->nfds = set->n;
    p->check_seq = 0;
    atomic_store(&p->pg->stuck, 0);
    atomic_store(&p->pg->write_errno, 0);
    atomic_store(&p->pg->busy, 1);
    /* The poker reads one command at a time: there is always room for this one. */
    ssize_t r = mp_fdpass_send(p->sock, cmd, sizeof cmd, &fd, 1, MSG_DONTWAIT);
    if (r != (ssize_t)sizeof cmd) {
        int e = r < 0 ? errno : EIO;
        atomic_store(&p->pg->busy, 0);
        give_up(p, "took no command");
        return mp_errf(err, -e, "poker: starting a block failed: %s; the poker process %s",
                       r < 0 ? strerror(e) : "short send", p->death);
    }
    int rc = tick_start(p, tid, err);
    if (rc < 0) {
        mp_err eerr;
        mp_poker_end(p, 0, &eerr);
    }
    return rc;
}

int mp_poker_check(mp_poker *p, uint64_t seq, mp_err *err)
{
    if (!poker_alive(p))
        return mp_errf(err, -EPIPE, "the poker process %s while the waiter waited for its "
                       "write", p->death);
    if (atomic_load_explicit(&p->pg->done, memory_order_acquire) >= seq)
        return 0;
    uint64_t now = mp_now_ns(), limit = stall_limit_ns(p->nfds);
    if (p->check_seq != seq) {
        p->check_seq = seq;
        p->check_since = now;
        return 0;
    }
    if (now - p->check_since <= limit)
        return 0;
    char why[96];
    snprintf(why, sizeof why, "did not poke within %.2f s of the waiter's arming (state %c)",
             (double)limit / 1e9, poker_state(p));
    give_up(p, why);
    return mp_errf(err, -ETIMEDOUT, "the poker process %s", p->death);
}

int mp_poker_end(mp_poker *p, int interrupted, mp_err *err)
{
    tick_stop(p);
    atomic_store(&p->pg->busy, 0);
    if (!poker_alive(p))
        return mp_errf(err, -EPIPE, "the poker process %s", p->death);
    int wait_ms = interrupted ? STOP_REPLY_WAIT_MS : REPLY_WAIT_MS;
    uint64_t t0 = mp_now_ns();
    for (;;) {
        struct pollfd pf = {.fd = p->sock, .events = POLLIN};
        int r = poll(&pf, 1, REPLY_SLICE_MS);
        char ack = 0;
        if (r == 1 && recv(p->sock, &ack, 1, MSG_DONTWAIT) == 1 && ack == 'b')
            return 0;
        if (r == 1 || !poker_alive(p))
            break;   /* a wrong answer, or the socket closed: it died */
        if (mp_now_ns() - t0 > (uint64_t)wait_ms * 1000000ull) {
            char why[64];
            snprintf(why, sizeof why, "did not finish its block within %d ms", wait_ms);
            give_up(p, why);
            return mp_errf(err, -ETIMEDOUT, "the poker process %s", p->death);
        }
    }
    give_up(p, "gave a wrong answer at the end of its block");
    return mp_errf(err, -EPIPE, "the poker process %s", p->death);
}
