/* SPDX-License-Identifier: MIT */
/* registry.c - the table of compiled-in backends: every list of backend
 * names (usage, --help, errors) is printed from it.  Adding a backend is
 * its file plus one row here. */
#include "backends/backend.h"

#include <string.h>
#include <sys/syscall.h>

#include "common/names.h"

extern const mp_backend_ops mp_backend_select;
extern const mp_backend_ops mp_backend_poll;
extern const mp_backend_ops mp_backend_epoll;
extern const mp_backend_ops mp_backend_epoll_et;
extern const mp_backend_ops mp_backend_ppoll;
extern const mp_backend_ops mp_backend_epoll_pwait2;
extern const mp_backend_ops mp_backend_io_uring;

const mp_backend_ops *const mp_backends[] = {
    &mp_backend_select,
    &mp_backend_poll,
    &mp_backend_epoll,
    &mp_backend_epoll_et,
    &mp_backend_ppoll,
    &mp_backend_epoll_pwait2,
    &mp_backend_io_uring,
    NULL,
};

const mp_backend_ops *mp_backend_find(const char *name)
{
    for (size_t i = 0; mp_backends[i]; i++)
        if (!strcmp(mp_backends[i]->name, name))
            return mp_backends[i];
    return NULL;
}

const char *mp_backend_names(void)
{
    static char buf[256];
    const char *names[16];
    size_t n = 0;
    for (; mp_backends[n] && n < sizeof names / sizeof names[0]; n++)
        names[n] = mp_backends[n]->name;
    return mp_names_join(buf, sizeof buf, names, n);
}

/* The system call glibc makes for each backend's call on this architecture.
 * Where the generic system call table lacks the old calls (arm64, riscv64)
 * glibc's poll() is ppoll, select() is pselect6 and epoll_wait() is
 * epoll_pwait, exactly as it chooses (by whether __NR_x exists). */
#ifdef SYS_poll
#define MP_SYS_POLL "poll"
#else
#define MP_SYS_POLL "ppoll"
#endif
#ifdef SYS_select
#define MP_SYS_SELECT "select"
#else
#define MP_SYS_SELECT "pselect6"
#endif
#ifdef SYS_epoll_wait
#define MP_SYS_EPOLL_WAIT "epoll_wait"
#else
#define MP_SYS_EPOLL_WAIT "epoll_pwait"
#endif

static const struct {
    const char *backend, *syscall;
} syscalls[] = {
    {"select", MP_SYS_SELECT},        {"poll", MP_SYS_POLL},
    {"epoll", MP_SYS_EPOLL_WAIT},     {"epoll-et", MP_SYS_EPOLL_WAIT},
    {"ppoll", "ppoll"},               {"epoll-pwait2", "epoll_pwait2"},
    {"io_uring", "io_uring_enter"},
};

const char *mp_backend_syscall(const mp_backend_ops *b)
{
    for (size_t i = 0; b && i < sizeof syscalls / sizeof syscalls[0]; i++)
        if (!strcmp(syscalls[i].backend, b->name))
            return syscalls[i].syscall;
    return "unknown";
}
