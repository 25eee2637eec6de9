/* SPDX-License-Identifier: MIT */
/* fdset.h - N watched descriptors of one kind, of which `active` (1 by
 * default, up to nready) are made readable together.  The far ends live in
 * the peer helper (peer.h); the set keeps only the watched ends plus one
 * "poke" end per fd that can be made ready.
 * Error convention: mp_err.h.
 */
#ifndef MP_FDSET_H
#define MP_FDSET_H

#include "common/mp_err.h"
#include "run/peer.h"

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
    int first_ready; /* fds[first_ready .. first_ready + nready - 1] can be made ready */
    int nready;
    int *poke_fds;   /* [nready]: end written to make each readable */
    int active;      /* how many of them poke()/drain() act on, 1..nready */
    int active_off;  /* ... starting at ready fd number active_off (0-based) */
    int fd_lo, fd_hi;
} mp_fdset;

/* The names of the kinds, by mp_fd_kind, NULL-ended. */
extern const char *const mp_fd_kind_name_of[];
const char *mp_fd_kind_name(mp_fd_kind k);
/* "pipe, socketpair, ..." for messages. */
const char *mp_fd_kind_names(void);
/* 0, or MP_EUSAGE for an unknown name. */
int mp_fd_kind_parse(const char *s, mp_fd_kind *out);

/* Create n watched fds, of which fds[first_ready .. first_ready+nready-1]
 * can be made ready; active starts at 1.  On failure nothing stays open. */
int mp_fdset_create(mp_fdset *s, mp_fd_kind kind, int n, int first_ready, int nready,
                    mp_peer *peer, mp_err *err);

/* Make the `active` ready fds readable (one byte, or an eventfd count of 1). */
int mp_fdset_poke(const mp_fdset *s);
/* Consume what poke() wrote; 0 if every active fd had something, -EAGAIN
 * if none had, another -errno on failure. */
int mp_fdset_drain(const mp_fdset *s);
/* Act on k of the nready fds, starting at offset off in the ready range. */
void mp_fdset_activate(mp_fdset *s, int k, int off);
/* The first active ready fd. */
int mp_fdset_ready_fd(const mp_fdset *s);
/* Whether fd is one of the active ready fds. */
int mp_fdset_is_active(const mp_fdset *s, int fd);

/* Close the watched ends and have the peer close the far ends. */
void mp_fdset_destroy(mp_fdset *s, mp_peer *peer);

/* Descriptors this process needs to create a set of n with nready
 * poke ends (for limit checks), creation batches in flight included. */
int mp_fdset_fds_needed(mp_fd_kind kind, int n, int nready);

#endif
