/* SPDX-License-Identifier: MIT */
/* fdpass.h - one message with descriptors (SCM_RIGHTS) over a
 * SOCK_SEQPACKET socket: how the parent hands descriptors to its helper
 * processes (peer.c, poker.c). */
#ifndef MP_FDPASS_H
#define MP_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

#define MP_FDPASS_MAX 250   /* descriptors per message: below the kernel's SCM_MAX_FD (253) */

/* Send len bytes of buf and nfds (at most MP_FDPASS_MAX) descriptors as one
 * message; flags go to sendmsg with MSG_NOSIGNAL added, EINTR is retried.
 * Returns what sendmsg returned (-1 with errno set on failure). */
ssize_t mp_fdpass_send(int sock, const void *buf, size_t len, const int *fds, size_t nfds,
                       int flags);

/* Receive one message: up to len bytes into buf and up to max descriptors
 * (close-on-exec) into fds, *nfds their count; EINTR is retried.  Returns
 * what recvmsg returned (0 at end of file, -1 with errno set). */
ssize_t mp_fdpass_recv(int sock, void *buf, size_t len, int *fds, size_t max, size_t *nfds);

#endif
