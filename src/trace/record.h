// SPDX-License-Identifier: MIT
/* record.h - what trace.bpf.c hands user space: one record per wait call of
 * the target, through the ring buffer.  Shared by the BPF program (built
 * with clang -target bpf) and trace/ (built with the project's compiler), so
 * it holds only fixed-width types and no header of either side. */
#ifndef MP_TRACE_RECORD_H
#define MP_TRACE_RECORD_H

#include <linux/types.h>

/* The wait calls traced, as the records number them (not syscall numbers). */
enum {
    MP_TR_SELECT, MP_TR_PSELECT6, MP_TR_POLL, MP_TR_PPOLL, MP_TR_EPOLL_WAIT,
    MP_TR_EPOLL_PWAIT, MP_TR_EPOLL_PWAIT2, MP_TR_NCALLS,
    /* followed only for the epoll N: not recorded */
    MP_TR_EPOLL_CTL = 100, MP_TR_EPOLL_CREATE,
};

/* A call's timeout: 0 (return at once), finite, infinite (NULL or < 0). */
enum { MP_TR_T_ZERO, MP_TR_T_FINITE, MP_TR_T_INFINITE, MP_TR_NTCLASS };

/* The counters read at entry and exit, at most this many. */
#define MP_TR_MAX_EVENTS 8
/* select: the sets read from the target's memory, at most this many bits
 * each where the kernel has bpf_loop (a program may allocate sets larger
 * than FD_SETSIZE, as libevent does), read this many words at a time;
 * FD_SETSIZE's without it.  Above it a call's N is not known. */
#define MP_TR_SELECT_BITS 65536
#define MP_TR_SELECT_CHUNK 8
#define MP_TR_SELECT_BITS_NOLOOP 1024

/* The index of the stats map's counts (a per-CPU array). */
enum { MP_TR_ST_LOST, MP_TR_ST_NOSLOT, MP_TR_ST_FOLLOWED, MP_TR_ST_NOFOLLOW, MP_TR_NSTATS };
/* Processes followed at once besides the target, at most (follow). */
#define MP_TR_MAX_FOLLOWED 4096

struct mp_trace_rec {
    __u64 enter_ns, exit_ns;   /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
    __s64 ret;                 /* the call's return: ready count, or -errno */
    __s64 n;                   /* descriptors watched; -1: not known (epoll instance
                                * neither seeded nor created since attach; select's
                                * nfds above what is read) */
    __s64 arg;                 /* select/pselect6: nfds (the highest + 1); poll/ppoll:
                                * nfds; epoll: maxevents */
    __u32 tid;
    __u16 call;                /* MP_TR_* */
    __u8 tclass;               /* MP_TR_T_* */
    __u8 pad;
    __u32 cpu_enter, cpu_exit;
    __u32 counted;             /* bit e: delta[e] holds counter e over the call (same CPU
                                * at entry and exit, both reads whole, never multiplexed) */
    __u32 top;                 /* select/pselect6: the highest descriptor set + 1 (the
                                * kernel scans to it, not to nfds); else 0 */
    __u64 delta[MP_TR_MAX_EVENTS];
};

#endif
