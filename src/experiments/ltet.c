/* SPDX-License-Identifier: MIT */
/* ltet.c - level- vs edge-triggered epoll when the reader consumes only
 * part of the data each time.
 *
 * One event: 4096 bytes written into a pipe in one write().  The reader
 * (the same thread, so no wakeup is timed) then consumes them in reads of
 * `chunk` bytes:
 *   LT: epoll_wait, one read, back to epoll_wait (it reports the fd again
 *       while data is left), until all 4096 bytes are read, then the
 *       epoll_wait that finds nothing left;
 *   ET: epoll_wait once, then read until EAGAIN, as edge-triggered
 *       readers must (the last read is the one that returns EAGAIN).
 * Both modes thus count their final call, the one that finds the fd
 * drained (LT's is timeout 0 here: a server's would block on the next
 * event), the same way.
 * Per event: system calls (epoll_wait + read, counted by the loop) and ns
 * from after the write to the last byte read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "common/clock.h"
#include "experiments/experiment.h"
#include "experiments/table.h"
#include "run/sample.h"
#include "common/stats.h"

#define EVENT_BYTES 4096

/* The table of results.json and the terminal summary (experiments/table.h). */
const mp_exp_table mp_exp_ltet_table = {
    .title = "level- vs edge-triggered epoll, partial reads",
    .summary = "one 4096-byte write consumed in chunks (epoll LT vs ET)",
    .method = "One event is one write of 4,096 bytes into a pipe; the same thread then reads "
              "it in chunks. Level-triggered (LT): `epoll_wait`, one read, back to "
              "`epoll_wait` while data is left. Edge-triggered (ET): one `epoll_wait`, then "
              "reads until EAGAIN. System calls are counted by the loop; the time runs from "
              "after the write to the last read. LT pays an `epoll_wait` per read; ET pays one read "
              "more, the one that finds the pipe empty.",
    .columns = {
        {"trigger", "trigger", "", "key", "mode", -6, -1},
        {"chunk", "chunk", "bytes", "key", "chunk", 6, 0},
        {"status", "status", "", "status", NULL, 0, 0},
        {"reason", "reason", "", "reason", NULL, 0, 0},
        {"syscalls_per_event", "syscalls per event", "", "value", "syscalls", 10, 0},
        {"ns_per_event_p50", "ns per event p50", "ns", "value", "ns/event", 12, 0},
        {"ns_per_event_p90", "ns per event p90", "ns", "value", NULL, 0, 0},
        {"ns_per_syscall_p50", "ns per syscall", "ns", "value", "ns/syscall", 12, 0},
        {"n", "samples", "", "value", NULL, 0, 0},
        {NULL},
    },
    .figures = {
        {"time", "chunk", {"ns_per_event_p50"}, "trigger", NULL, 1, 1,
         "LT vs ET, one 4096-byte write per event: time"},
        {"syscalls", "chunk", {"syscalls_per_event"}, "trigger", NULL, 1, 1,
         "LT vs ET, one 4096-byte write per event: system calls"},
        {NULL},
    },
    .fits = {
        {"ns_per_event_p50", "syscalls_per_event", "trigger", NULL, "ns per system call"},
        {NULL},
    },
    .compare = {
        {"ns_per_event_p50", "trigger", "chunk", NULL},
        {"syscalls_per_event", "trigger", "chunk", NULL},
        {NULL},
    },
    .tty_failed = MP_EXP_TTY_REASON,
};

static const int chunks[] = {64, 256, 1024, 4096};

/* A pipe watched by one epoll set, level- or edge-triggered. */
typedef struct {
    int epfd, rfd, wfd;
} ltet_pipe;

static void ltet_close(ltet_pipe *lp)
{
    if (lp->epfd >= 0)
        close(lp->epfd);
    if (lp->rfd >= 0)
        close(lp->rfd);
    if (lp->wfd >= 0)
        close(lp->wfd);
    lp->epfd = lp->rfd = lp->wfd = -1;
}

static int ltet_open(ltet_pipe *lp, int et)
{
    int p[2];
    lp->epfd = lp->rfd = lp->wfd = -1;
    if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
        return -errno;
    lp->rfd = p[0];
    lp->wfd = p[1];
    lp->epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN | (et ? EPOLLET : 0), .data.fd = p[0]};
    if (lp->epfd < 0 || epoll_ctl(lp->epfd, EPOLL_CTL_ADD, p[0], &ev) < 0) {
        int e = errno;
        ltet_close(lp);
        return -e;
    }
    return 0;
}

/* Deliver one event; returns 0 and fills syscalls and ns, or -errno. */
static int ltet_event(const ltet_pipe *lp, int et, int chunk, int *syscalls, double *ns)
{
    char data[EVENT_BYTES], buf[EVENT_BYTES];
    int epfd = lp->epfd, p[2] = {lp->rfd, lp->wfd};
    memset(data, 'x', sizeof data);
    if (write(p[1], data, sizeof data) != (ssize_t)sizeof data)
        return -EIO;
    int calls = 0, got = 0;
    uint64_t t0 = mp_now_ns();
    struct epoll_event ev;
    if (et) {
        if (epoll_wait(epfd, &ev, 1, 0) != 1)
            return -EPROTO;
        calls++;
        for (;;) {
            ssize_t r = read(p[0], buf, (size_t)chunk);
            calls++;
            if (r < 0 && errno == EAGAIN)
                break;   /* drained: the edge-triggered reader's last call */
            if (r <= 0)
                return r < 0 ? -errno : -EPIPE;
            got += (int)r;
        }
    } else {
        while (got < EVENT_BYTES) {
            if (epoll_wait(epfd, &ev, 1, 0) != 1)
                return -EPROTO;
            ssize_t r = read(p[0], buf, (size_t)chunk);
            calls += 2;
            if (r <= 0)
                return -EPROTO;
            got += (int)r;
        }
        if (epoll_wait(epfd, &ev, 1, 0) != 0)   /* drained: the LT reader's last call */
            return -EPROTO;
        calls++;
    }
    uint64_t t1 = mp_now_ns();
    if (got != EVENT_BYTES)
        return -EPROTO;
    *syscalls = calls;
    *ns = (double)(t1 - t0);
    return 0;
}

int mp_exp_ltet(const mp_exp_env *env, cJSON **out, mp_err *err)
{
    int reps = env->cfg->samples;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "what", "one 4096-byte write into a pipe, consumed in reads of "
                            "`chunk` bytes; LT: epoll_wait + one read per turn; ET: one "
                            "epoll_wait then reads until EAGAIN");
    cJSON_AddNumberToObject(o, "event_bytes", EVENT_BYTES);
    cJSON *cells = cJSON_AddArrayToObject(o, "cells");
    double *x = malloc(sizeof *x * (size_t)reps);
    if (!x) {
        cJSON_Delete(o);
        return mp_errf(err, -ENOMEM, "out of memory");
    }
    for (int et = 0; et < 2; et++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            int calls = 0;
            ltet_pipe lp;
            int rc = ltet_open(&lp, et);
            for (int i = 0; i < 20 && rc == 0; i++)   /* warm-up */
                rc = ltet_event(&lp, et, chunks[c], &calls, &x[0]);
            for (int i = 0; i < reps && rc == 0 && !mp_sample_stop; i++)
                rc = ltet_event(&lp, et, chunks[c], &calls, &x[i]);
            ltet_close(&lp);
            if (mp_sample_stop) {
                free(x);
                cJSON_Delete(o);
                return -EINTR;
            }
            cJSON *cell = cJSON_CreateObject();
            cJSON_AddStringToObject(cell, "trigger", et ? "edge" : "level");
            cJSON_AddNumberToObject(cell, "chunk", chunks[c]);
            if (rc < 0) {
                cJSON_AddStringToObject(cell, "status", "error");
                cJSON_AddStringToObject(cell, "reason", strerror(-rc));
            } else {
                mp_summary s;
                mp_summarize(x, (size_t)reps, &s);
                cJSON_AddStringToObject(cell, "status", "ok");
                cJSON_AddNumberToObject(cell, "syscalls_per_event", calls);
                cJSON_AddNumberToObject(cell, "ns_per_event_p50", s.p50);
                cJSON_AddNumberToObject(cell, "ns_per_event_p90", s.p90);
                cJSON_AddNumberToObject(cell, "ns_per_syscall_p50", s.p50 / calls);
                cJSON_AddNumberToObject(cell, "n", (double)s.n);
            }
            cJSON_AddItemToArray(cells, cell);
        }
    free(x);
    int rc = mp_exp_table_json(&mp_exp_ltet_table, cells, o, err);
    if (rc < 0) {
        cJSON_Delete(o);
        return rc;
    }
    *out = o;
    return 0;
}
