// SPDX-License-Identifier: MIT
/* trace_target.c - a program that makes known wait calls, for
 * test_trace.sh to trace and check call by call (calls.csv):
 *
 *   poll    nfds 10, timeout 0, none ready             x5
 *   poll    nfds 100, timeout 0, none ready            x5
 *   poll    nfds 11, timeout 0, one ready              x1
 *   poll    nfds 13, timeout 1 ms (finite), none ready x1
 *   poll    nfds 7, timeout 0, from a thread started later  x3
 *   select  7 fds in readfds, 2 in writefds (1 of them also read): N 8, x3
 *           with nfds the highest + 1, x1 more with nfds FD_SETSIZE, x1 more
 *           with nfds 16,384 over the same 1,024-bit sets (as a program
 *           passing getdtablesize() does: the kernel reads only as far as
 *           the descriptor table, far below 16,384 here)
 *   select  sets of 3,001 bits (past FD_SETSIZE, as libevent allocates them):
 *           3 fds in readfds (two of them at 1500 and 3000), 1 in writefds:
 *           N 4, highest + 1 3001, x2; then nfds 70,000 over sets that size
 *           (the kernel reads only as far as the table, 4,096 bits on Linux
 *           6.1, so N 4 again where trace reads that far, else not known) x1
 *   epoll   an instance of 12 made before the go file: N 12           x2
 *           a new instance: 20 added, wait x1; 5 modified, wait x1 (N 20);
 *           5 deleted, wait x1 (N 15); 3 added through a dup of it, wait
 *           on the first descriptor x1 and on the dup x1 (N 18)
 *
 * Usage: trace_target [GO_FILE]: with GO_FILE, the instance of 12 is made,
 * then the program waits (10 ms sleeps, at most 30 s) until GO_FILE exists
 * before its calls, so that a tracer can attach to it first.
 *
 * trace_target --fork: none of the calls above; the instance of 12 is made,
 * then the program forks a child and exits at once (as a daemon's parent
 * does); the child, 200 ms later, makes
 *   epoll   on the inherited instance of 12: N 12                     x2
 *   poll    nfds 17, timeout 0                                        x4
 * and forks a grandchild, which makes
 *   epoll   a new instance of 9: N 9                                  x1
 *   poll    nfds 19, timeout 0                                        x2
 * the child waiting for it; every process has exited within a second. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NPIPES 60

static int rd[NPIPES], wr[NPIPES];

static void die(const char *what)
{
    fprintf(stderr, "trace_target: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* poll over the first n read ends (n <= 100: read ends repeated), k times. */
static void poll_n(int n, int timeout_ms, int k)
{
    struct pollfd p[100];
    for (int i = 0; i < n; i++)
        p[i] = (struct pollfd){.fd = rd[i % NPIPES], .events = POLLIN};
    for (int i = 0; i < k; i++)
        if (poll(p, (nfds_t)n, timeout_ms) < 0)
            die("poll");
}

static void *thread_calls(void *arg)
{
    (void)arg;
    poll_n(7, 0, 3);
    return NULL;
}

static void epoll_add(int ep, int fd, int op)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (epoll_ctl(ep, op, fd, &ev) < 0)
        die("epoll_ctl");
}

static void epoll_once(int ep)
{
    struct epoll_event ev[64];
    if (epoll_wait(ep, ev, 64, 0) < 0)
        die("epoll_wait");
}

/* select with sets of nfds bits, the descriptors of r in readfds and of w in
 * writefds; the kernel reads the sets only up to its own table's size. */
static void select_big(int nfds, const int *r, int nr, const int *w, int nw)
{
    size_t words = ((size_t)nfds + 63) / 64;
    unsigned long *rs = calloc(words, sizeof *rs), *ws = calloc(words, sizeof *ws);
    if (!rs || !ws)
        die("calloc");
    for (int i = 0; i < nr; i++)
        rs[r[i] / 64] |= 1UL << (r[i] % 64);
    for (int i = 0; i < nw; i++)
        ws[w[i] / 64] |= 1UL << (w[i] % 64);
    struct timeval tv = {0, 0};
    if (select(nfds, (fd_set *)rs, (fd_set *)ws, NULL, &tv) < 0)
        die("select (large sets)");
    free(rs);
    free(ws);
}

/* select past FD_SETSIZE: descriptors 1500 and 3000 (dups of two read ends). */
static void select_past_setsize(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        die("getrlimit");
    if (rl.rlim_cur < 3001) {
        if (rl.rlim_max < 3001) {
            fprintf(stderr, "trace_target: RLIMIT_NOFILE's hard limit %llu is below 3001\n",
                    (unsigned long long)rl.rlim_max);
            exit(1);
        }
        rl.rlim_cur = 3001;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
            die("setrlimit");
    }
    if (dup2(rd[0], 1500) < 0 || dup2(rd[1], 3000) < 0)
        die("dup2");
    int r[] = {rd[2], 1500, 3000}, w[] = {wr[2]};
    select_big(3001, r, 3, w, 1);
    select_big(3001, r, 3, w, 1);
    select_big(70000, r, 3, w, 1);
    close(1500);
    close(3000);
}

/* trace_target --fork: the calls of the child and the grandchild. */
static int forked(int old)
{
    pid_t p = fork();
    if (p < 0)
        die("fork");
    if (p > 0)
        return 0;   /* the parent exits at once */
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    epoll_once(old);
    epoll_once(old);
    poll_n(17, 0, 4);
    pid_t g = fork();
    if (g < 0)
        die("fork");
    if (g == 0) {
        int ep = epoll_create1(0);
        if (ep < 0)
            die("epoll_create1");
        for (int i = 0; i < 9; i++)
            epoll_add(ep, rd[30 + i], EPOLL_CTL_ADD);
        epoll_once(ep);
        poll_n(19, 0, 2);
        _exit(0);
    }
    int st;
    if (waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        die("the grandchild");
    _exit(0);
}

int main(int argc, char **argv)
{
    for (int i = 0; i < NPIPES; i++) {
        int p[2];
        if (pipe(p) < 0)
            die("pipe");
        rd[i] = p[0];
        wr[i] = p[1];
    }
    int old = epoll_create1(0);
    if (old < 0)
        die("epoll_create1");
    for (int i = 0; i < 12; i++)
        epoll_add(old, rd[i], EPOLL_CTL_ADD);
    if (argc > 1 && !strcmp(argv[1], "--fork"))
        return forked(old);
    if (argc > 1) {
        struct timespec ts = {0, 10000000};
        int tries = 3000;
        while (access(argv[1], F_OK) != 0 && tries-- > 0)
            nanosleep(&ts, NULL);
        if (tries <= 0) {
            fprintf(stderr, "trace_target: %s never appeared\n", argv[1]);
            return 1;
        }
    }
    epoll_once(old);
    epoll_once(old);

    poll_n(10, 0, 5);
    poll_n(100, 0, 5);
    if (write(wr[3], "x", 1) != 1)
        die("write");
    poll_n(11, 0, 1);
    char b;
    if (read(rd[3], &b, 1) != 1)
        die("read");
    poll_n(13, 1, 1);

    pthread_t t;
    if (pthread_create(&t, NULL, thread_calls, NULL) || pthread_join(t, NULL)) {
        fprintf(stderr, "trace_target: pthread failed\n");
        return 1;
    }

    for (int k = 0; k < 5; k++) {
        fd_set r, w;
        FD_ZERO(&r);
        FD_ZERO(&w);
        for (int i = 0; i < 7; i++)
            FD_SET(rd[i], &r);
        FD_SET(rd[0], &w);
        FD_SET(wr[9], &w);
        int hi = rd[6] > wr[9] ? rd[6] : wr[9];
        struct timeval tv = {0, 0};
        if (select(k < 3 ? hi + 1 : k == 3 ? FD_SETSIZE : 16384, &r, &w, NULL, &tv) < 0)
            die("select");
    }
    select_past_setsize();

    int ep = epoll_create1(0);
    if (ep < 0)
        die("epoll_create1");
    for (int i = 0; i < 20; i++)
        epoll_add(ep, rd[20 + i], EPOLL_CTL_ADD);
    epoll_once(ep);
    for (int i = 0; i < 5; i++)
        epoll_add(ep, rd[20 + i], EPOLL_CTL_MOD);
    epoll_once(ep);
    for (int i = 0; i < 5; i++)
        epoll_add(ep, rd[20 + i], EPOLL_CTL_DEL);
    epoll_once(ep);
    int dup_ep = dup(ep);
    if (dup_ep < 0)
        die("dup");
    for (int i = 0; i < 3; i++)
        epoll_add(dup_ep, rd[45 + i], EPOLL_CTL_ADD);
    epoll_once(ep);
    epoll_once(dup_ep);
    return 0;
}
