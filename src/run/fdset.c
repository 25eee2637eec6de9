/* SPDX-License-Identifier: MIT */
/* fdset.c - create, poke, drain and destroy a watched descriptor set.
 *
 * Pairs are made in batches: the far ends of a batch go to the peer helper
 * in one SCM_RIGHTS message and are closed here, so this process holds at
 * most n + MP_FDSET_BATCH + a few descriptors while building the set and
 * n + 1 afterwards.  Each far end is moved (F_DUPFD) above the range the
 * watched ends will take, so watched fd numbers come out dense and
 * ascending, as select()'s FD_SETSIZE cliff depends on numbers, not counts.
 *
 * tcp pairs connect to one listener on 127.0.0.1, from 127.0.0.1 first: each
 * connection takes one local port of net.ipv4.ip_local_port_range.  The
 * kernel hands out the ports of one parity first, and once those are taken
 * every connect scans them all before it finds one of the other; so after
 * 7/16 of the range's ports the connections come from the next loopback
 * address (127.0.0.2, 127.0.0.3, ..., bound with IP_BIND_ADDRESS_NO_PORT, so
 * connect picks the port), and from the next one too when a connect finds no
 * port left.  The watched ends are the accepted sockets either way.
 */
#include "run/fdset.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/names.h"

#define MP_FDSET_BATCH 128
/* Loopback source addresses tcp pairs may use: 127.0.0.1 ... 127.0.0.250. */
#define MP_TCP_SOURCES 250

const char *const mp_fd_kind_name_of[] = {"pipe", "socketpair", "tcp", "eventfd", NULL};

const char *mp_fd_kind_names(void)
{
    static char buf[64];
    return mp_names_join(buf, sizeof buf, mp_fd_kind_name_of, 4);
}

const char *mp_fd_kind_name(mp_fd_kind k)
{
    return (unsigned)k < 4 ? mp_fd_kind_name_of[k] : "?";
}

int mp_fd_kind_parse(const char *s, mp_fd_kind *out)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, mp_fd_kind_name_of[i])) {
            *out = (mp_fd_kind)i;
            return 0;
        }
    return MP_EUSAGE;
}

int mp_fdset_fds_needed(mp_fd_kind kind, int n, int nready)
{
    /* watched, then (above a gap of 64) a batch of far ends and the poke ends */
    return n + (kind == MP_FD_EVENTFD ? 0 : 64 + MP_FDSET_BATCH + nready) + 8;
}

/* Listening socket on 127.0.0.1, ephemeral port. */
static int tcp_listener(struct sockaddr_in *addr, int backlog, mp_err *err)
{
    int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (l < 0)
        return mp_errf(err, -errno, "tcp: socket: %s", strerror(errno));
    memset(addr, 0, sizeof *addr);
    addr->sin_family = AF_INET;
    addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof *addr;
    if (bind(l, (struct sockaddr *)addr, sizeof *addr) < 0 || listen(l, backlog) < 0 ||
        getsockname(l, (struct sockaddr *)addr, &len) < 0) {
        int e = errno;
        close(l);
        return mp_errf(err, -e, "tcp: listening on 127.0.0.1: %s", strerror(e));
    }
    return l;
}

/* What a failed connect to the listener on 127.0.0.1 usually means. */
static const char *tcp_connect_hint(int e)
{
    switch (e) {
    case ENETUNREACH:
        return " (the loopback interface is down: bring it up as root, ip link set lo up)";
    case EADDRNOTAVAIL:
        return " (no local port left: each connection from 127.0.0.1 ... 127.0.0.250 takes "
               "one port of net.ipv4.ip_local_port_range; widen it as root, sysctl -w "
               "net.ipv4.ip_local_port_range=\"1024 65535\", or watch fewer tcp fds)";
    default:
        return "";
    }
}

/* Where tcp pairs connect from: 127.0.0.(1 + k), and how many have. */
typedef struct tcp_source {
    int k, used, per;   /* per: connections from one address before the next */
} tcp_source;

/* Connections from one source address: 7/16 of the ports of
 * net.ipv4.ip_local_port_range (of 28,232 when it cannot be read). */
static int tcp_per_source(void)
{
    int lo = 0, hi = -1;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "re");
    if (f) {
        if (fscanf(f, "%d %d", &lo, &hi) != 2)
            hi = -1;
        fclose(f);
    }
    int ports = hi >= lo && lo > 0 ? hi - lo + 1 : 28232;
    return ports * 7 / 16 > 1 ? ports * 7 / 16 : 1;
}

/* A connected tcp socket to addr, from the source's address: 0, or a
 * negative errno. */
static int tcp_connect(const tcp_source *src, const struct sockaddr_in *addr, int *out)
{
    int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c < 0)
        return -errno;
    if (src->k > 0) {
        int one = 1;
        struct sockaddr_in from;
        memset(&from, 0, sizeof from);
        from.sin_family = AF_INET;
        from.sin_addr.s_addr = htonl(INADDR_LOOPBACK + (uint32_t)src->k);
        setsockopt(c, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        if (bind(c, (const struct sockaddr *)&from, sizeof from) < 0) {
            int e = errno;
            close(c);
            return -e;
        }
    }
    if (connect(c, (const struct sockaddr *)addr, sizeof *addr) < 0) {
        int e = errno;
        close(c);
        return -e;
    }
    *out = c;
    return 0;
}

/* One connected pair: p[0] is watched, p[1] is the far end. */
static int make_pair(mp_fd_kind kind, int listener, const struct sockaddr_in *addr,
                     tcp_source *src, int p[2], mp_err *err)
{
    switch (kind) {
    case MP_FD_PIPE:
        if (pipe2(p, O_CLOEXEC) < 0)
            return mp_errf(err, -errno, "pipe2: %s", strerror(errno));
        return 0;
    case MP_FD_SOCKETPAIR:
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
            return mp_errf(err, -errno, "socketpair(AF_UNIX): %s", strerror(errno));
        return 0;
    case MP_FD_TCP: {
        int c = -1, rc;
        if (src->used >= src->per && src->k + 1 < MP_TCP_SOURCES) {
            src->k++;
            src->used = 0;
        }
        /* no port left from this address: the next one, while there is one */
        while ((rc = tcp_connect(src, addr, &c)) == -EADDRNOTAVAIL &&
               src->k + 1 < MP_TCP_SOURCES) {
            src->k++;
            src->used = 0;
        }
        if (rc < 0)
            return mp_errf(err, rc, "tcp: connect from 127.0.0.%d to 127.0.0.1:%d: %s%s",
                           1 + src->k, ntohs(addr->sin_port), strerror(-rc),
                           tcp_connect_hint(-rc));
        src->used++;
        int a = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (a < 0) {
            int e = errno;
            close(c);
            return mp_errf(err, -e, "tcp: accept: %s", strerror(e));
        }
        int one = 1;
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        p[0] = a;   /* the server side is watched, as in a server */
        p[1] = c;
        return 0;
    }
    case MP_FD_EVENTFD:
        break;
    }
    return mp_errf(err, -EINVAL, "internal: make_pair on kind %d", (int)kind);
}

static void close_all(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

int mp_fdset_create(mp_fdset *s, mp_fd_kind kind, int n, int first_ready, int nready,
                    mp_peer *peer, mp_err *err)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->first_ready = first_ready;
    s->active = 1;
    if (n < 1 || nready < 1 || first_ready < 0 || first_ready + nready > n)
        return mp_errf(err, -EINVAL, "fdset: bad size %d / ready fds %d..%d", n, first_ready,
                       first_ready + nready - 1);
    s->fds = malloc(sizeof *s->fds * (size_t)n);
    s->poke_fds = malloc(sizeof *s->poke_fds * (size_t)nready);
    if (!s->fds || !s->poke_fds) {
        free(s->fds);
        free(s->poke_fds);
        s->fds = NULL;
        s->poke_fds = NULL;
        return mp_errf(err, -ENOMEM, "fdset: out of memory for %d fds", n);
    }

    int rc = 0, listener = -1;
    int far[MP_FDSET_BATCH], nfar = 0;
    struct sockaddr_in addr;
    tcp_source src = {0, 0, 1};
    /* Far ends live at or above far_base until handed to the peer. */
    int far_base = n + 64;
    {
        int probe = fcntl(0, F_DUPFD_CLOEXEC, 0);   /* lowest free number now */
        if (probe >= 0) {
            far_base += probe;
            close(probe);
        }
    }
    if (kind == MP_FD_TCP) {
        src.per = tcp_per_source();
        listener = tcp_listener(&addr, MP_FDSET_BATCH * 2, err);
        if (listener < 0) {
            rc = listener;
            goto fail;
        }
    }
    for (s->n = 0; s->n < n; s->n++) {
        int p[2];
        if (kind == MP_FD_EVENTFD) {
            int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
            if (fd < 0) {
                rc = mp_errf(err, -errno, "eventfd #%d: %s", s->n, strerror(errno));
                goto fail;
            }
            s->fds[s->n] = fd;
            continue;
        }
        rc = make_pair(kind, listener, &addr, &src, p, err);
        if (rc < 0)
            goto fail;
        fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
        /* Move the far end above the watched range so watched numbers stay dense. */
        int moved = fcntl(p[1], F_DUPFD_CLOEXEC, far_base);
        if (moved < 0) {
            rc = mp_errf(err, -errno, "fcntl(F_DUPFD, %d): %s", far_base, strerror(errno));
            close(p[0]);
            close(p[1]);
            goto fail;
        }
        close(p[1]);
        p[1] = moved;
        s->fds[s->n] = p[0];
        if (s->n >= first_ready && s->n < first_ready + nready) {
            /* keep a ready fd's far end: the poker writes it */
            s->poke_fds[s->nready++] = p[1];
            continue;
        }
        far[nfar++] = p[1];
        if (nfar == MP_FDSET_BATCH) {
            rc = mp_peer_give(peer, far, nfar, err);
            close_all(far, nfar);
            nfar = 0;
            if (rc < 0)
                goto fail;
        }
    }
    if (nfar) {
        rc = mp_peer_give(peer, far, nfar, err);
        close_all(far, nfar);
        nfar = 0;
        if (rc < 0)
            goto fail;
    }
    if (listener >= 0)
        close(listener);
    if (kind == MP_FD_EVENTFD)
        for (s->nready = 0; s->nready < nready; s->nready++)
            s->poke_fds[s->nready] = s->fds[first_ready + s->nready];
    s->fd_lo = s->fd_hi = s->fds[0];
    for (int i = 1; i < n; i++) {
        if (s->fds[i] < s->fd_lo)
            s->fd_lo = s->fds[i];
        if (s->fds[i] > s->fd_hi)
            s->fd_hi = s->fds[i];
    }
    return 0;

fail:
    close_all(far, nfar);
    if (listener >= 0)
        close(listener);
    if (rc == -EMFILE || rc == -ENFILE) {
        char why[MP_ERR_MAX];
        snprintf(why, sizeof why, "%s", err->msg);
        mp_errf(err, rc, "%s (while creating %d %s fds; the process holds about N + %d "
                "descriptors, raise RLIMIT_NOFILE with ulimit -n)", why, n,
                mp_fd_kind_name(kind), mp_fdset_fds_needed(kind, 0, nready));
    }
    mp_fdset_destroy(s, peer);
    return rc;
}

int mp_fdset_poke(const mp_fdset *s)
{
    uint64_t one = 1;
    char b = 'x';
    for (int i = 0; i < s->active; i++) {
        ssize_t want = s->kind == MP_FD_EVENTFD ? (ssize_t)sizeof one : 1;
        ssize_t r = s->kind == MP_FD_EVENTFD
                        ? write(s->poke_fds[s->active_off + i], &one, sizeof one)
                        : write(s->poke_fds[s->active_off + i], &b, 1);
        if (r != want)
            return r < 0 ? -errno : -EIO;
    }
    return 0;
}

static int drain_one(const mp_fdset *s, int fd)
{
    if (s->kind == MP_FD_EVENTFD) {
        uint64_t v;
        return read(fd, &v, sizeof v) == (ssize_t)sizeof v ? 0 : -errno;
    }
    char buf[64];
    ssize_t r = read(fd, buf, sizeof buf);
    return r > 0 ? 0 : r == 0 ? -EPIPE : -errno;
}

int mp_fdset_drain(const mp_fdset *s)
{
    int drained = 0, rc = 0;
    for (int i = 0; i < s->active; i++) {
        int r = drain_one(s, s->fds[s->first_ready + s->active_off + i]);
        if (r == 0)
            drained++;
        else if (r != -EAGAIN)
            rc = r;
    }
    if (rc < 0)
        return rc;
    return drained == s->active ? 0 : drained == 0 ? -EAGAIN : -EIO;
}

void mp_fdset_activate(mp_fdset *s, int k, int off)
{
    s->active = k < 1 ? 1 : k > s->nready ? s->nready : k;
    s->active_off = off < 0 ? 0 : off > s->nready - s->active ? s->nready - s->active : off;
}

int mp_fdset_ready_fd(const mp_fdset *s)
{
    return s->fds[s->first_ready + s->active_off];
}

int mp_fdset_is_active(const mp_fdset *s, int fd)
{
    /* fds ascend, so the active ones are a sorted run: binary search it. */
    int lo = s->first_ready + s->active_off, hi = lo + s->active - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (s->fds[mid] == fd)
            return 1;
        if (s->fds[mid] < fd)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

void mp_fdset_destroy(mp_fdset *s, mp_peer *peer)
{
    if (s->fds) {
        for (int i = 0; i < s->n; i++) {
            if (s->kind == MP_FD_TCP) {
                /* Reset rather than FIN: no TIME_WAIT pile-up over a sweep. */
                struct linger lg = {1, 0};
                setsockopt(s->fds[i], SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
            }
            close(s->fds[i]);
        }
    }
    if (s->poke_fds && s->kind != MP_FD_EVENTFD)
        for (int i = 0; i < s->nready; i++)
            close(s->poke_fds[i]);
    if (s->kind != MP_FD_EVENTFD && peer && peer->sock >= 0) {
        mp_err ignored;
        mp_peer_release(peer, &ignored);
    }
    free(s->fds);
    free(s->poke_fds);
    s->fds = NULL;
    s->poke_fds = NULL;
    s->n = s->nready = 0;
}
