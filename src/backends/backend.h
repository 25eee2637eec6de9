/* SPDX-License-Identifier: MIT */
/* backend.h - backends/ uses only common/, and nothing outside it knows a
 * readiness API.  One readiness API (select, poll, epoll, ...) behind a small
 * interface, so one run can compare them.  Every backend is compiled in and
 * chosen at run time by name.  Error convention: mp_err.h.
 *
 * A measured call is exactly one wait(): whatever the API needs per call
 * (select copies its master fd_set, as every select() caller must) is in
 * it, finding out *which* fds were reported is not: that is collect(),
 * which the sampler runs outside the timed region to check the answer.
 */
#ifndef MP_BACKEND_H
#define MP_BACKEND_H

#include "common/mp_err.h"

typedef struct mp_backend_ops {
    const char *name;
    const char *summary;
    /* NULL or a reason this backend cannot run a mode ("ready"/"wakeup");
     * an ET set reports a level that stays high only once, for instance. */
    const char *(*unsupported_mode)(const char *mode);
    /* NULL if fds lo..hi can be watched, else a reason (select and FD_SETSIZE). */
    const char *(*unsupported_fds)(int fd_lo, int fd_hi, char *buf, size_t len);
    /* Create an empty set for up to max_fds descriptors. */
    int (*open)(void **state, int max_fds, mp_err *err);
    /* Watch fd for readability. */
    int (*add)(void *state, int fd, mp_err *err);
    /* One call: returns the number of ready fds (>= 0) or -errno. */
    int (*wait)(void *state, int timeout_ms);
    /* After wait() returned n > 0: write up to max ready fds into fds,
     * return how many. */
    int (*collect)(void *state, int *fds, int max);
    void (*close)(void *state);
} mp_backend_ops;

/* All backends, in the default order; NULL-terminated. */
extern const mp_backend_ops *const mp_backends[];

/* By name ("select", "poll", "epoll", ...), or NULL. */
const mp_backend_ops *mp_backend_find(const char *name);

/* The system call the backend's call makes on this architecture ("poll",
 * or "ppoll" on arm64 where there is no poll system call; ...). */
const char *mp_backend_syscall(const mp_backend_ops *b);

/* "select, poll, ..." for messages. */
const char *mp_backend_names(void);

#endif
