/* fdset.h - N watched descriptors of one kind, exactly one of which can be
 * made readable.  The far ends live in the peer helper (peer.h); the set
 * keeps only the watched ends plus one "poke" end for the ready fd.
 * Error convention: mp_err.h.
 */
#ifndef MP_FDSET_H
#define MP_FDSET_H

#include "mp_err.h"
#include "peer.h"

typedef enum {
    MP_FD_PIPE,
    MP_FD_SOCKETPAIR,   /* AF_UNIX, SOCK_STREAM */
    MP_FD_TCP,          /* connected loopback pairs on 127.0.0.1 */
    MP_FD_EVENTFD,      /* no far end: the poke writes the eventfd itself */
} mp_fd_kind;

typedef struct mp_fdset {
    mp_fd_kind kind;
    int n;
    int *fds;        /* watched ends in creation order; numbers ascend */
    int ready_idx;   /* index in fds of the fd the poker makes readable */
    int poke_fd;     /* end written to make fds[ready_idx] readable */
    int fd_lo, fd_hi;
} mp_fdset;

const char *mp_fd_kind_name(mp_fd_kind k);
/* 0, or MP_EUSAGE for an unknown name. */
int mp_fd_kind_parse(const char *s, mp_fd_kind *out);

/* Create n watched fds; the ready one is fds[ready_idx].  On failure
 * nothing stays open. */
int mp_fdset_create(mp_fdset *s, mp_fd_kind kind, int n, int ready_idx, mp_peer *peer,
                    mp_err *err);

/* Make the ready fd readable (one byte, or an eventfd count of 1). */
int mp_fdset_poke(const mp_fdset *s);
/* Consume what poke() wrote; returns 0 or -errno (-EAGAIN if nothing). */
int mp_fdset_drain(const mp_fdset *s);

/* Close the watched ends and have the peer close the far ends. */
void mp_fdset_destroy(mp_fdset *s, mp_peer *peer);

/* Descriptors this process needs to create a set of n (for limit checks):
 * n watched ends, one poke end, and creation batches in flight. */
int mp_fdset_fds_needed(mp_fd_kind kind, int n);

#endif
