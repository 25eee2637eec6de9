/* SPDX-License-Identifier: MIT */
/* herd.c - the thundering herd: M threads wait on one readable-on-poke
 * fd (a pipe), in four epoll arrangements:
 *
 *   own-sets            each waiter has its own epoll set holding the fd (LT)
 *   own-sets-exclusive  the same with EPOLLEXCLUSIVE (Linux 4.5+)
 *   shared-set          one epoll set, all M threads in epoll_wait on it (LT)
 *   shared-set-oneshot  the same with EPOLLONESHOT; the winner re-arms (MOD)
 *
 * One round: wait until every waiter sleeps (/proc task state 'S'), read
 * the clock, write one byte, then wait until the woken have gone back to
 * sleep.  Per round:
 *  - woken: waiters that ran at all, from each waiter's voluntary context
 *    switches in /proc/self/task/<tid>/status, read before and after.  This
 *    sees the herd that stays inside the kernel: an LT waiter woken after
 *    another drained the fd rescans, finds nothing and sleeps again without
 *    returning to user space;
 *  - returned: waiters whose epoll_wait returned;
 *  - wasted: woken waiters that got no data (woken - those whose read got
 *    the byte);
 * A round is lost when nobody read the byte within the limit, and
 * miscounted when fewer waiters were seen to run than read data (the
 * count missed a waiter; it would give a negative "wasted"); neither is
 * in the summaries.  A missed waiter that read nothing cannot be told
 * apart, so "woken" and "wasted" are lower bounds.
 *  - the latency from the write to the first return.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "experiments/experiment.h"
#include "experiments/table.h"
#include "run/results.h"
#include "run/sample.h"
#include "common/stats.h"
#include "run/procfs.h"

#define HERD_MAX_WAITERS 64
#define SETTLE_NS 300000ull        /* quiet time after the last return */
#define ROUND_LIMIT_NS 50000000ull /* give up on a round after 50 ms */

enum { OWN, OWN_EXCL, SHARED, SHARED_ONESHOT, NARRANGE };
static const char *const arrange_names[] = {"own-sets", "own-sets-exclusive", "shared-set",
                                            "shared-set-oneshot"};

/* The table of results.json and the terminal summary (experiments/table.h). */
const mp_exp_table mp_exp_herd_table = {
    .title = "thundering herd",
    .summary = "per written byte, M waiters on one pipe (mean over rounds)",
    .method = "M threads wait in `epoll_wait` on one pipe; each round writes one byte once "
              "all of them sleep. Per event: *woken* = waiters that ran at all (their "
              "voluntary context switches in /proc went up, which also sees a waiter that "
              "woke, found nothing and slept again inside the kernel), *returned* = "
              "`epoll_wait` returned, *wasted* = woken without getting the byte; and the "
              "time from the write to the first return. Arrangements: own-sets (an epoll "
              "set per waiter), own-sets-exclusive (the same with EPOLLEXCLUSIVE), "
              "shared-set (one set, all waiting on it), shared-set-oneshot (EPOLLONESHOT, "
              "re-armed by the winner). The waiters are not pinned: they may run on every CPU "
              "of the process and the scheduler places them.",
    .columns = {
        {"arrangement", "arrangement", "", "key", "arrangement", -20, -1},
        {"status", "status", "", "status", NULL, 0, 0},
        {"reason", "reason", "", "reason", NULL, 0, 0},
        {"waiters", "waiters", "threads", "value", "M", 3, 0},
        {"rounds", "rounds", "", "value", "rounds", 7, 0},
        {"rounds_lost", "rounds lost", "", "value", NULL, 0, 0},
        {"rounds_miscounted", "rounds miscounted", "", "value", NULL, 0, 0},
        {"woken_per_event.mean", "woken per event, mean", "waiters", "value", "woken", 8, 2},
        {"woken_per_event.p50", "woken per event, p50", "waiters", "value", NULL, 0, 0},
        {"returned_per_event.mean", "returned per event, mean", "waiters", "value",
         "returned", 9, 2},
        {"returned_per_event.p50", "returned per event, p50", "waiters", "value", NULL, 0, 0},
        {"wasted_per_event.mean", "wasted per event, mean", "waiters", "value", "wasted", 8, 2},
        {"wasted_per_event.p50", "wasted per event, p50", "waiters", "value", NULL, 0, 0},
        {"context_switches_per_event.mean", "context switches per event, mean", "", "value",
         NULL, 0, 0},
        {"first_wakeup_ns.p50", "first wakeup p50", "ns", "value", "first p50 ns", 14, 0},
        {"first_wakeup_ns.p90", "first wakeup p90", "ns", "value", NULL, 0, 0},
        {NULL},
    },
    .figures = {
        {"per_event", "arrangement",
         {"woken_per_event.mean", "returned_per_event.mean", "wasted_per_event.mean"}, NULL,
         NULL, 0, 0, "thundering herd: waiters per written byte (means over the rounds)"},
        {NULL},
    },
    .compare = {
        {"woken_per_event.mean", "arrangement", NULL, NULL},
        {"wasted_per_event.mean", "arrangement", NULL, NULL},
        {NULL},
    },
    .tty_failed = MP_EXP_TTY_REASON,
};

typedef struct herd herd;

typedef struct {
    herd *h;
    pthread_t thread;
    int epfd;
    _Atomic int tid;
    _Atomic int stat_fd;
    _Atomic int status_fd;
    _Atomic uint64_t returns, empties, last_ret_ns;
} waiter;

struct herd {
    int arrange, m;
    int rfd, wfd, quitfd;
    int shared_epfd;
    _Atomic uint64_t first_ret_ns;   /* 0 until someone returns in this round */
    waiter w[HERD_MAX_WAITERS];
};

static void *waiter_main(void *arg)
{
    waiter *w = arg;
    herd *h = w->h;
    atomic_store(&w->tid, (int)syscall(SYS_gettid));
    atomic_store(&w->stat_fd, mp_task_open(atomic_load(&w->tid), "stat"));
    atomic_store(&w->status_fd, mp_task_open(atomic_load(&w->tid), "status"));
    for (;;) {
        struct epoll_event ev;
        int n = epoll_wait(w->epfd, &ev, 1, -1);
        uint64_t t = mp_now_ns();
        if (n < 0)
            continue;   /* EINTR */
        if (n == 0)
            continue;
        if (ev.data.fd == h->quitfd)
            break;
        uint64_t zero = 0;
        atomic_compare_exchange_strong(&h->first_ret_ns, &zero, t);
        char buf[64];
        ssize_t r = read(h->rfd, buf, sizeof buf);
        if (h->arrange == SHARED_ONESHOT && r > 0) {
            struct epoll_event re = {.events = EPOLLIN | EPOLLONESHOT, .data.fd = h->rfd};
            epoll_ctl(w->epfd, EPOLL_CTL_MOD, h->rfd, &re);
        }
        atomic_store(&w->last_ret_ns, t);
        if (r <= 0)
            atomic_fetch_add(&w->empties, 1);
        atomic_fetch_add(&w->returns, 1);
    }
    return NULL;
}

static int all_asleep(herd *h)
{
    for (int i = 0; i < h->m; i++)
        if (mp_task_state(atomic_load(&h->w[i].stat_fd)) != 'S')
            return 0;
    return 1;
}

static void herd_close(herd *h, int started)
{
    uint64_t one = 1;
    if (write(h->quitfd, &one, sizeof one) != sizeof one)
        perror("herd: quit");
    for (int i = 0; i < started; i++) {
        pthread_join(h->w[i].thread, NULL);
        if (h->w[i].stat_fd >= 0)
            close(h->w[i].stat_fd);
        if (h->w[i].status_fd >= 0)
            close(h->w[i].status_fd);
        if (h->w[i].epfd >= 0 && h->w[i].epfd != h->shared_epfd)
            close(h->w[i].epfd);
    }
    if (h->shared_epfd >= 0)
        close(h->shared_epfd);
    close(h->rfd);
    close(h->wfd);
    close(h->quitfd);
}

static int add(int epfd, int fd, unsigned events, mp_err *err)
{
    struct epoll_event ev = {.events = events, .data.fd = fd};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
        return mp_errf(err, -errno, "herd: epoll_ctl ADD: %s", strerror(errno));
    return 0;
}

static int herd_open(herd *h, int arrange, int m, mp_err *err)
{
    int p[2];
    memset(h, 0, sizeof *h);
    h->arrange = arrange;
    h->m = m;
    h->shared_epfd = -1;
    if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
        return mp_errf(err, -errno, "herd: pipe: %s", strerror(errno));
    h->rfd = p[0];
    h->wfd = p[1];
    h->quitfd = eventfd(0, EFD_CLOEXEC);
    int rc = 0;
    unsigned flags = arrange == OWN_EXCL ? EPOLLEXCLUSIVE
                     : arrange == SHARED_ONESHOT ? EPOLLONESHOT : 0;
    if (arrange == SHARED || arrange == SHARED_ONESHOT) {
        h->shared_epfd = epoll_create1(EPOLL_CLOEXEC);
        rc = add(h->shared_epfd, h->rfd, EPOLLIN | flags, err);
        if (rc == 0)
            rc = add(h->shared_epfd, h->quitfd, EPOLLIN, err);
    }
    for (int i = 0; i < m; i++) {
        waiter *w = &h->w[i];
        w->h = h;
        atomic_init(&w->stat_fd, -1);
        atomic_init(&w->status_fd, -1);
        if (h->shared_epfd >= 0) {
            w->epfd = h->shared_epfd;
        } else {
            w->epfd = epoll_create1(EPOLL_CLOEXEC);
            if (rc == 0)
                rc = add(w->epfd, h->rfd, EPOLLIN | flags, err);
            if (rc == 0)
                rc = add(w->epfd, h->quitfd, EPOLLIN, err);
        }
    }
    if (rc < 0) {
        herd_close(h, 0);
        for (int i = 0; i < m; i++)
            if (h->w[i].epfd >= 0 && h->w[i].epfd != h->shared_epfd)
                close(h->w[i].epfd);
        return rc;
    }
    return 0;
}

static cJSON *sum_json(double *x, size_t n)
{
    mp_summary s;
    mp_summarize(x, n, &s);
    return mp_summary_json(&s);
}

/* Run `rounds` rounds of one arrangement; fill a JSON object. */
static int herd_run(int arrange, int m, int rounds, const cpu_set_t *cpus, cJSON *o,
                    mp_err *err)
{
    herd *h = calloc(1, sizeof *h);
    if (!h)
        return mp_errf(err, -ENOMEM, "out of memory");
    int rc = herd_open(h, arrange, m, err);
    if (rc < 0) {
        free(h);
        return rc;
    }
    int started = 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (cpus)   /* the process's CPUs, not the pinned main thread's one */
        pthread_attr_setaffinity_np(&attr, sizeof *cpus, cpus);
    for (; started < m; started++) {
        int e = pthread_create(&h->w[started].thread, &attr, waiter_main, &h->w[started]);
        if (e) {
            rc = mp_errf(err, -e, "herd: starting waiter %d of %d: %s", started + 1, m,
                         strerror(e));
            break;
        }
    }
    pthread_attr_destroy(&attr);
    double *woke = malloc(sizeof *woke * (size_t)rounds);
    double *empty = malloc(sizeof *empty * (size_t)rounds);
    double *lat = malloc(sizeof *lat * (size_t)rounds);
    double *csw = malloc(sizeof *csw * (size_t)rounds);
    double *ret = malloc(sizeof *ret * (size_t)rounds);
    int done = 0, lost = 0, miscounted = 0;
    if (rc == 0 && !(woke && empty && lat && csw && ret))
        rc = mp_errf(err, -ENOMEM, "herd: out of memory for %d rounds", rounds);
    for (int r = 0; rc == 0 && done < rounds && r < rounds + 50; r++) {
        if (mp_sample_stop) {
            rc = -EINTR;
            break;
        }
        uint64_t t_start = mp_now_ns();
        while (!all_asleep(h) && mp_now_ns() - t_start < ROUND_LIMIT_NS) {
            struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL);
        }
        uint64_t ret0 = 0, emp0 = 0;
        long vcs0[HERD_MAX_WAITERS];
        for (int i = 0; i < m; i++) {
            ret0 += atomic_load(&h->w[i].returns);
            emp0 += atomic_load(&h->w[i].empties);
            vcs0[i] = mp_task_vol_switches(atomic_load(&h->w[i].status_fd));
        }
        atomic_store(&h->first_ret_ns, 0);
        uint64_t t0 = mp_now_ns();
        char b = 'x';
        if (write(h->wfd, &b, 1) != 1) {
            rc = mp_errf(err, -errno, "herd: write: %s", strerror(errno));
            break;
        }
        /* Settle: everyone asleep again and no return for SETTLE_NS. */
        uint64_t ret1 = ret0, last_change = mp_now_ns();
        for (;;) {
            uint64_t now = mp_now_ns(), cur = 0;
            for (int i = 0; i < m; i++)
                cur += atomic_load(&h->w[i].returns);
            if (cur != ret1) {
                ret1 = cur;
                last_change = now;
            }
            if (cur > ret0 && now - last_change > SETTLE_NS && all_asleep(h))
                break;
            if (now - t0 > ROUND_LIMIT_NS)
                break;
            /* Nap rather than spin: with M waiters on few CPUs a spinning
             * coordinator would delay the very wakeups it times. */
            struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL);
        }
        uint64_t emp1 = 0;
        long ran = 0, switches = 0;
        for (int i = 0; i < m; i++) {
            emp1 += atomic_load(&h->w[i].empties);
            long d = mp_task_vol_switches(atomic_load(&h->w[i].status_fd)) - vcs0[i];
            ran += d > 0;
            switches += d > 0 ? d : 0;
        }
        /* Leftover byte (nobody read it within the limit): drain, count the round lost. */
        char buf[64];
        uint64_t first = atomic_load(&h->first_ret_ns);
        /* A late return from a timed-out round can predate this write. */
        if (read(h->rfd, buf, sizeof buf) > 0 || !first || first < t0) {
            lost++;
            continue;
        }
        if (r < 5)
            continue;   /* warm-up rounds */
        if (vcs0[0] < 0) {
            rc = mp_errf(err, -ENOENT, "herd: cannot read the waiters' context switches "
                         "from /proc/self/task/*/status");
            break;
        }
        double returned = (double)(ret1 - ret0), got = returned - (double)(emp1 - emp0);
        if ((double)ran < got) {
            /* A waiter read the byte but its voluntary switches did not move
             * (it had not yet slept when the counts were read): the woken
             * count missed it, so the round says nothing; count it apart. */
            miscounted++;
            continue;
        }
        woke[done] = (double)ran;
        empty[done] = (double)ran - got;
        lat[done] = (double)(first - t0);
        csw[done] = (double)switches;
        ret[done] = returned;
        done++;
    }
    herd_close(h, started);
    if (rc == 0) {
        cJSON_AddStringToObject(o, "arrangement", arrange_names[arrange]);
        cJSON_AddNumberToObject(o, "waiters", m);
        cJSON_AddNumberToObject(o, "rounds", done);
        cJSON_AddNumberToObject(o, "rounds_lost", lost);
        cJSON_AddNumberToObject(o, "rounds_miscounted", miscounted);
        if (done) {
            cJSON_AddItemToObject(o, "woken_per_event", sum_json(woke, (size_t)done));
            cJSON_AddItemToObject(o, "returned_per_event", sum_json(ret, (size_t)done));
            cJSON_AddItemToObject(o, "wasted_per_event", sum_json(empty, (size_t)done));
            cJSON_AddItemToObject(o, "first_wakeup_ns", sum_json(lat, (size_t)done));
            cJSON_AddItemToObject(o, "context_switches_per_event", sum_json(csw, (size_t)done));
        }
    }
    free(woke);
    free(empty);
    free(lat);
    free(csw);
    free(ret);
    free(h);
    return rc;
}

int mp_exp_herd_one(const char *arrangement, int m, int rounds, const cpu_set_t *cpus,
                    cJSON **out, mp_err *err)
{
    for (int a = 0; a < NARRANGE; a++)
        if (!strcmp(arrange_names[a], arrangement)) {
            if (m < 1 || m > HERD_MAX_WAITERS)
                return mp_errf(err, MP_EUSAGE, "--waiters: %d is out of range; expected 1..%d",
                               m, HERD_MAX_WAITERS);
            cJSON *o = cJSON_CreateObject();
            int rc = herd_run(a, m, rounds, cpus, o, err);
            if (rc < 0) {
                cJSON_Delete(o);
                return rc;
            }
            *out = o;
            return 0;
        }
    return mp_errf(err, MP_EUSAGE, "unknown herd arrangement '%s'", arrangement);
}

int mp_exp_herd(const mp_exp_env *env, cJSON **out, mp_err *err)
{
    const mp_run_config *cfg = env->cfg;
    int rounds = cfg->samples < 500 ? cfg->samples : 500;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "what", "M threads waiting on one pipe; per written byte: "
                            "waiters returned from epoll_wait, those that found nothing, "
                            "latency from the write to the first return");
    cJSON_AddStringToObject(o, "binding", "waiters are not pinned: they may run on every CPU "
                            "of the process and the scheduler places them");
    cJSON *a = cJSON_AddArrayToObject(o, "arrangements");
    for (int i = 0; i < NARRANGE; i++) {
        cJSON *one;
        mp_err e;
        int rc = mp_exp_herd_one(arrange_names[i], cfg->waiters, rounds, env->cpus, &one, &e);
        if (rc == -EINTR) {
            cJSON_Delete(o);
            return rc;
        }
        if (rc == MP_EUSAGE) {
            cJSON_Delete(o);
            return mp_errf(err, rc, "%s", e.msg);
        }
        if (rc < 0) {
            one = cJSON_CreateObject();
            cJSON_AddStringToObject(one, "arrangement", arrange_names[i]);
            cJSON_AddStringToObject(one, "status", "error");
            cJSON_AddStringToObject(one, "reason", e.msg);
        }
        cJSON_AddItemToArray(a, one);
    }
    int rc = mp_exp_table_json(&mp_exp_herd_table, a, o, err);
    if (rc < 0) {
        cJSON_Delete(o);
        return rc;
    }
    *out = o;
    return 0;
}
