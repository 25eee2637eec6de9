/* SPDX-License-Identifier: MIT */
/* peer.c - the descriptor-holding helper process; see peer.h.
 *
 * Protocol on a SOCK_SEQPACKET pair (one message = one command):
 *   helper -> 'h'                               hello: it runs, its death signal is set
 *   'G' + SCM_RIGHTS (up to MP_FDPASS_MAX fds)  keep these
 *   'R'                                         close all, answer 'r'
 *   EOF                                         close all and exit
 * Every wait of the parent on the helper is bounded (peer_timeout_ms).
 */
#include "run/peer.h"
#include "common/clock.h"
#include "run/fdpass.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int peer_timeout_ms = MP_PEER_TIMEOUT_MS;

void mp_peer_set_timeout_ms(int ms)
{
    peer_timeout_ms = ms > 0 ? ms : MP_PEER_TIMEOUT_MS;
}

/* Wait until fd is ready for ev, at most until deadline (mp_now_ns).
 * Signals do not end the wait, the deadline does.  0, or -ETIMEDOUT, or
 * -errno. */
static int wait_fd(int fd, short ev, uint64_t deadline)
{
    for (;;) {
        uint64_t now = mp_now_ns();
        if (now >= deadline)
            return -ETIMEDOUT;
        struct pollfd pfd = {.fd = fd, .events = ev};
        int ms = (int)((deadline - now + 999999) / 1000000);
        int r = poll(&pfd, 1, ms);
        if (r > 0)
            return 0;
        if (r < 0 && errno != EINTR)
            return -errno;
    }
}

static uint64_t deadline_from_now(void)
{
    return mp_now_ns() + (uint64_t)peer_timeout_ms * 1000000u;
}

/* Kill and reap a helper that does not answer. */
static void kill_helper(pid_t pid)
{
    int st;
    kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
}

/* A running helper that stopped answering: killed, and remembered as dead
 * (mp_peer_alive says why), so later calls fail at once, not after a wait. */
static void give_up(mp_peer *p)
{
    kill_helper(p->pid);
    snprintf(p->death, sizeof p->death, "no answer within %d ms: killed", peer_timeout_ms);
    p->pid = 0;
}

static void helper_close_all(int **held, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        close((*held)[i]);
    *n = 0;
}

static void helper_main(int sock, pid_t parent)
{
    int *held = NULL;
    size_t n = 0, cap = 0;

    /* The death signal first: from here on a helper never outlives its parent. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);    /* the terminal's signals are for the run: it stops this */
    signal(SIGQUIT, SIG_IGN);
    char hello = 'h';
    if (send(sock, &hello, 1, MSG_NOSIGNAL) != 1)
        _exit(0);

    for (;;) {
        char cmd = 0;
        int got[MP_FDPASS_MAX];
        size_t k;
        if (mp_fdpass_recv(sock, &cmd, 1, got, MP_FDPASS_MAX, &k) <= 0)
            break;
        if (cmd == 'G') {
            if (n + k > cap) {
                size_t ncap = cap ? cap * 2 : 1024;
                while (ncap < n + k)
                    ncap *= 2;
                int *nh = realloc(held, ncap * sizeof *nh);
                if (!nh)
                    _exit(3);
                held = nh;
                cap = ncap;
            }
            memcpy(held + n, got, k * sizeof(int));
            n += k;
        } else {
            for (size_t i = 0; i < k; i++)   /* descriptors only come with 'G' */
                close(got[i]);
        }
        if (cmd == 'R') {
            helper_close_all(&held, &n);
            char ack = 'r';
            if (send(sock, &ack, 1, MSG_NOSIGNAL) != 1)
                break;
        }
    }
    helper_close_all(&held, &n);
    free(held);
    _exit(0);
}

int mp_peer_start(mp_peer *p, mp_err *err)
{
    int sv[2];
    p->pid = 0;
    p->sock = -1;
    p->death[0] = 0;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return mp_errf(err, -errno, "peer: socketpair: %s", strerror(errno));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        return mp_errf(err, -e, "cannot start the descriptor helper: fork: %s%s", strerror(e),
                       e == EAGAIN ? " (RLIMIT_NPROC? ulimit -u)" : "");
    }
    if (pid == 0) {
        close(sv[0]);
        helper_main(sv[1], parent);
    }
    close(sv[1]);
    /* The hello proves the child got past fork and set its death signal. */
    char hello = 0;
    int w = wait_fd(sv[0], POLLIN, deadline_from_now());
    ssize_t r = w == 0 ? recv(sv[0], &hello, 1, MSG_DONTWAIT) : -1;
    if (r != 1 || hello != 'h') {
        int e = w ? w : r < 0 ? -errno : -EIO;
        close(sv[0]);
        kill_helper(pid);
        if (e == -ETIMEDOUT)
            return mp_errf(err, e, "peer: the descriptor helper (pid %d) did not answer "
                           "within %d ms of its fork; it was killed", (int)pid, peer_timeout_ms);
        return mp_errf(err, e, "peer: the descriptor helper (pid %d) died before answering: "
                       "%s", (int)pid, r == 0 ? "it closed its socket" : strerror(-e));
    }
    p->pid = pid;
    p->sock = sv[0];
    return 0;
}

int mp_peer_give(mp_peer *p, const int *fds, int n, mp_err *err)
{
    if (p->pid <= 0)
        return mp_errf(err, -EPIPE, "peer: the descriptor helper is gone (%s)",
                       p->death[0] ? p->death : "not running");
    while (n > 0) {
        int k = n < MP_FDPASS_MAX ? n : MP_FDPASS_MAX;
        char cmd = 'G';
        uint64_t deadline = deadline_from_now();
        ssize_t r;
        int w = 0;
        for (;;) {
            r = mp_fdpass_send(p->sock, &cmd, 1, fds, (size_t)k, MSG_DONTWAIT);
            if (r >= 0 || errno != EAGAIN)
                break;
            if (errno == EAGAIN && (w = wait_fd(p->sock, POLLOUT, deadline)) < 0)
                break;
        }
        if (w == -ETIMEDOUT) {
            pid_t pid = p->pid;
            give_up(p);
            return mp_errf(err, w, "peer: the descriptor helper (pid %d) took no "
                           "descriptors for %d ms; it was killed", (int)pid, peer_timeout_ms);
        }
        if (r != 1)
            return mp_errf(err, r < 0 ? -errno : -EIO,
                           "peer: passing %d descriptors to the helper (pid %d) failed: %s", k,
                           (int)p->pid, r < 0 ? strerror(errno) : "short send");
        fds += k;
        n -= k;
    }
    return 0;
}

int mp_peer_release(mp_peer *p, mp_err *err)
{
    char cmd = 'R', ack = 0;
    if (p->pid <= 0)
        return mp_errf(err, -EPIPE, "peer: the descriptor helper is gone (%s)",
                       p->death[0] ? p->death : "not running");
    if (send(p->sock, &cmd, 1, MSG_NOSIGNAL) != 1)
        return mp_errf(err, -errno, "peer: asking the helper to close its descriptors: %s",
                       strerror(errno));
    int w = wait_fd(p->sock, POLLIN, deadline_from_now());
    if (w == -ETIMEDOUT) {
        pid_t pid = p->pid;
        give_up(p);
        return mp_errf(err, w, "peer: the descriptor helper (pid %d) did not answer within "
                       "%d ms; it was killed", (int)pid, peer_timeout_ms);
    }
    ssize_t r = w == 0 ? recv(p->sock, &ack, 1, MSG_DONTWAIT) : -1;
    if (r != 1 || ack != 'r')
        return mp_errf(err, -EIO, "peer: the descriptor helper (pid %d) did not answer; "
                       "did it die?", (int)p->pid);
    return 0;
}

int mp_peer_alive(mp_peer *p, char *how, size_t len)
{
    int st;
    if (p->pid <= 0) {
        snprintf(how, len, "%s", p->death[0] ? p->death : "not running");
        return 0;
    }
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == 0)
        return 1;
    if (r == p->pid) {
        if (WIFSIGNALED(st))
            snprintf(p->death, sizeof p->death, "killed by signal %d", WTERMSIG(st));
        else
            snprintf(p->death, sizeof p->death, "exit status %d", WEXITSTATUS(st));
        p->pid = 0;
    } else {
        snprintf(p->death, sizeof p->death, "gone (%s)", strerror(errno));
    }
    snprintf(how, len, "%s", p->death);
    return 0;
}

void mp_peer_stop(mp_peer *p)
{
    if (p->sock >= 0) {
        close(p->sock);
        p->sock = -1;
    }
    if (p->pid > 0) {
        /* It exits on EOF; one that does not within the bound is killed. */
        uint64_t deadline = deadline_from_now();
        int st;
        pid_t r;
        while ((r = waitpid(p->pid, &st, WNOHANG)) == 0 && mp_now_ns() < deadline)
            usleep(1000);
        if (r == 0)
            kill_helper(p->pid);
        p->pid = 0;
    }
}
