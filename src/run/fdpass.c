/* SPDX-License-Identifier: MIT */
/* fdpass.c - descriptors over a SOCK_SEQPACKET socket; see fdpass.h. */
#include "run/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef union {
    char buf[CMSG_SPACE(sizeof(int) * MP_FDPASS_MAX)];
    struct cmsghdr align;
} fdpass_ctl;

ssize_t mp_fdpass_send(int sock, const void *buf, size_t len, const int *fds, size_t nfds,
                       int flags)
{
    fdpass_ctl ctl;
    memset(&ctl, 0, sizeof ctl);
    struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (nfds > MP_FDPASS_MAX) {
        errno = EINVAL;
        return -1;
    }
    if (nfds) {
        msg.msg_control = ctl.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
    }
    ssize_t r;
    do
        r = sendmsg(sock, &msg, flags | MSG_NOSIGNAL);
    while (r < 0 && errno == EINTR);
    return r;
}

ssize_t mp_fdpass_recv(int sock, void *buf, size_t len, int *fds, size_t max, size_t *nfds)
{
    fdpass_ctl ctl;
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                         .msg_control = ctl.buf, .msg_controllen = sizeof ctl.buf};
    ssize_t r;
    *nfds = 0;
    do
        r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (r < 0 && errno == EINTR);
    if (r <= 0)
        return r;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (*nfds < max)
                fds[(*nfds)++] = fd;
            else
                close(fd);   /* more than the caller has room for: not kept open */
        }
    }
    return r;
}
