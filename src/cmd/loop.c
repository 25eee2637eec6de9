/* SPDX-License-Identifier: MIT */
/* loop.c - `muxprof loop`: a bare workload for external tools.
 *
 * Sets up N watched descriptors exactly as `run` does (the same fdset and
 * helper process, the same backend registration, the ready fd where
 * --ready-pos says), makes K ready-mode calls (timeout 0, one fd readable)
 * and checks the answer once at the end.  No clock, no counters: whatever
 * wraps the process (perf stat, valgrind, bpftrace, a simulated cache in
 * an emulator) does the measuring.  Setup and teardown are the same for
 * every K, so the difference of two runs with K and 2K calls is K calls.
 */
#include "cmd/cmd.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "backends/backend.h"
#include "cmd/internal.h"
#include "cmd/opt.h"
#include "run/config.h"
#include "run/fdset.h"
#include "run/peer.h"
#include "run/sample.h"
#include "sim/marker.h"

#define LOOP_CALLS_MAX 1000000000L
#define LOOP_CPU_MAX (CPU_SETSIZE - 1)
#define STR_(x) #x
#define STR(x) STR_(x)

typedef struct {
    const mp_backend_ops *backend;
    int nfds;
    long calls;
    mp_fd_kind kind;
    mp_ready_pos pos;
    int cpu;        /* -1: wherever the scheduler puts it */
    int quiet;
} loop_config;

static int set_backend(void *cfg, const char *opt, char *v, mp_err *err)
{
    loop_config *c = cfg;
    mp_echo e;
    c->backend = mp_backend_find(v);
    if (!c->backend)
        return mp_errf(err, MP_EUSAGE, "%s: unknown backend '%s'; expected %s", opt,
                       mp_echo_arg(&e, v), mp_backend_names());
    return 0;
}

static int set_fds(void *cfg, const char *opt, char *v, mp_err *err)
{
    loop_config *c = cfg;
    long n;
    int rc = mp__cli_parse_count(opt, v, 1, MP_FDS_MAX, &n, err);
    if (rc == 0)
        c->nfds = (int)n;
    return rc;
}

static int set_calls(void *cfg, const char *opt, char *v, mp_err *err)
{
    loop_config *c = cfg;
    return mp__cli_parse_count(opt, v, 1, LOOP_CALLS_MAX, &c->calls, err);
}

static int set_kind(void *cfg, const char *opt, char *v, mp_err *err)
{
    loop_config *c = cfg;
    mp_echo e;
    if (mp_fd_kind_parse(v, &c->kind) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: unknown kind '%s'; expected %s", opt,
                       mp_echo_arg(&e, v), mp_fd_kind_names());
    return 0;
}

static int set_pos(void *cfg, const char *opt, char *v, mp_err *err)
{
    loop_config *c = cfg;
    mp_echo e;
    if (mp_ready_pos_parse(v, &c->pos) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: unknown position '%s'; expected %s", opt,
                       mp_echo_arg(&e, v), mp_ready_pos_names());
    return 0;
}

static int set_cpu(void *cfg, const char *opt, char *v, mp_err *err)
{
    loop_config *c = cfg;
    long n;
    int rc = mp__cli_parse_count(opt, v, 0, LOOP_CPU_MAX, &n, err);
    if (rc == 0)
        c->cpu = (int)n;
    return rc;
}

/* The setters read their value and keep none of it: argv's own strings. */
static const mp_opt opts[] = {
    MP_OPT_FN("backend", "B", set_backend, "the API to call (required):\n%s",
              .values = mp_backend_names, .flags = MP_OPT_RAW),
    MP_OPT_FN("fds", "N", set_fds, "watched descriptors, 1.." STR(MP_FDS_MAX) " (required)",
              .flags = MP_OPT_RAW),
    MP_OPT_FN("calls", "K", set_calls, "calls to make", .def = "1000", .flags = MP_OPT_RAW),
    MP_OPT_FN("fd-kind", "KIND", set_kind, "the descriptors [pipe]:\n%s",
              .values = mp_fd_kind_names, .flags = MP_OPT_RAW),
    MP_OPT_FN("ready-pos", "P", set_pos, "where the ready fd sits [last]:\n%s",
              .values = mp_ready_pos_names, .flags = MP_OPT_RAW),
    MP_OPT_FN("cpu", "C", set_cpu, "pin the calling thread to CPU C (the helper stays unpinned)",
              .flags = MP_OPT_RAW),
    MP_OPT_BOOL("quiet", loop_config, quiet, "no summary line on stderr"),
};

const mp_cli mp_cli_loop = {
    .name = "loop", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 20,
    .intro = "usage: muxprof loop --backend B --fds N [options]\n\n"
             "Set up N idle descriptors with one readable, exactly as `muxprof run` does, make\n"
             "K ready-mode calls (timeout 0) of one API, check the answer once, and exit.\n"
             "No timing and no counters: wrap it in perf stat, valgrind, bpftrace or a\n"
             "simulated cache (scripts/muxsim.sh counts each call between the loop's markers);\n"
             "with a tool that counts the whole process, run it with K and 2K calls and take\n"
             "the difference to cancel setup and exit (docs/cachesim.md).\n\n",
    .outro = "\nExit status: 0 the answer was right, 1 runtime failure or a wrong answer,\n"
             "2 usage error.\n",
    .help_head = "--help", .unknown = "unknown option", .see = " (muxprof loop --help)",
    .stray = " (muxprof loop --help)",
};

/* Returns 0, 1 for --help, or MP_EUSAGE. */
static int parse(int argc, char **argv, loop_config *c, mp_err *err)
{
    *c = (loop_config){.kind = MP_FD_PIPE, .pos = MP_POS_LAST, .cpu = -1};
    mp_opt_parsed p;
    int rc = mp_opt_parse(&mp_cli_loop, argc, argv, c, &p, err);
    if (rc == 0 && p.help)
        return 1;
    if (rc == 0 && !c->backend)
        rc = mp_errf(err, MP_EUSAGE, "--backend is required; expected one of %s",
                     mp_backend_names());
    if (rc == 0 && !c->nfds)
        rc = mp_errf(err, MP_EUSAGE, "--fds is required (watched descriptors, 1..%d)",
                     MP_FDS_MAX);
    const char *why = rc == 0 && c->backend->unsupported_mode ?
                      c->backend->unsupported_mode("ready") : NULL;
    if (why)
        rc = mp_errf(err, MP_EUSAGE, "--backend %s cannot run ready-mode calls: %s",
                     c->backend->name, why);
    return rc;
}

/* Room for n watched fds: the soft limit up to the hard one, and the hard
 * one too where the process may (root in a guest, for instance). */
static int make_room(const loop_config *c, mp_err *err)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)mp_fdset_fds_needed(c->kind, c->nfds, 1) + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return mp_errf(err, -errno, "getrlimit: %s", strerror(errno));
    if (rl.rlim_cur >= need)
        return 0;
    struct rlimit want = {need, rl.rlim_max > need ? rl.rlim_max : need};
    if (setrlimit(RLIMIT_NOFILE, &want) == 0)
        return 0;
    return mp_errf(err, -EMFILE, "%d watched %s fds need about %lu descriptors, but "
                   "RLIMIT_NOFILE is %lu (hard %lu); raise it (ulimit -Hn %lu as root)",
                   c->nfds, mp_fd_kind_name(c->kind), (unsigned long)need,
                   (unsigned long)rl.rlim_cur, (unsigned long)rl.rlim_max, (unsigned long)need);
}

static int pin(int cpu, mp_err *err)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0)
        return mp_errf(err, -errno, "--cpu %d: cannot pin to it: %s (the CPUs allowed here: "
                       "taskset -p $$)", cpu, strerror(errno));
    return 0;
}

/* Counting windows for a simulator watching the guest (sim/marker.h): on
 * arm64, HINT immediates that the architecture executes as NOPs; on x86_64,
 * a seven-byte nopl whose displacement is 0x4d585000 | imm (little-endian
 * bytes imm, 0x50, 0x58, 0x4d); one before the calls and one on each side
 * of every call.  Nothing on other CPUs. */
#define LOOP_STR(x) #x
#define LOOP_XSTR(x) LOOP_STR(x)   /* the marker's number, not its name */
#if defined(__aarch64__)
#define LOOP_MARK(imm) __asm__ volatile("hint #" LOOP_XSTR(imm) ::: "memory")
#elif defined(__x86_64__)
#define LOOP_MARK(imm) \
    __asm__ volatile(".byte 0x0f, 0x1f, 0x80, " LOOP_XSTR(imm) ", 0x50, 0x58, 0x4d" ::: "memory")
_Static_assert(MP_SIM_X86_MAGIC == 0x4d585000u, "LOOP_MARK's bytes 0x50, 0x58, 0x4d are "
               "MP_SIM_X86_MAGIC's high bytes");
#else
#define LOOP_MARK(imm) ((void)0)
#endif

/* K calls; every return value is compared (no system call), the answer
 * (which fds) is collected and checked once, after the last call. */
static int calls(const loop_config *c, void *st, const mp_fdset *set, mp_err *err)
{
    const mp_backend_ops *b = c->backend;
    int got[2], r = 0;
    LOOP_MARK(MP_SIM_MARK_CELL);
    for (long i = 0; i < c->calls; i++) {
        LOOP_MARK(MP_SIM_MARK_BEGIN);
        r = b->wait(st, 0);
        LOOP_MARK(MP_SIM_MARK_END);
        if (r != set->active)
            return mp_sample_check_answer(b, st, set, r, got, err);
    }
    return mp_sample_check_answer(b, st, set, r, got, err);
}

static int loop(const loop_config *c, mp_err *err)
{
    mp_peer peer = {.pid = 0, .sock = -1};
    mp_fdset set;
    void *st = NULL;
    int have_set = 0;
    int rc = make_room(c, err);
    if (rc == 0)
        rc = mp_peer_start(&peer, err);   /* before pinning: the helper keeps every CPU */
    if (rc == 0 && c->cpu >= 0)
        rc = pin(c->cpu, err);
    if (rc == 0) {
        rc = mp_fdset_create(&set, c->kind, c->nfds, mp_ready_first(c->pos, c->nfds, 1), 1,
                             &peer, err);
        have_set = rc == 0;
    }
    if (rc == 0) {
        char why[256];
        const char *u = c->backend->unsupported_fds ?
                        c->backend->unsupported_fds(set.fd_lo, set.fd_hi, why, sizeof why) : NULL;
        if (u)
            rc = mp_errf(err, MP_EUSAGE, "%s", u);
    }
    if (rc == 0)
        rc = c->backend->open(&st, c->nfds, err);
    for (int i = 0; rc == 0 && i < c->nfds; i++)
        rc = c->backend->add(st, set.fds[i], err);
    if (rc == 0)
        rc = mp_fdset_poke(&set) < 0 ? mp_errf(err, -EIO, "cannot make fd %d readable",
                                               mp_fdset_ready_fd(&set)) : 0;
    if (rc == 0)
        rc = calls(c, st, &set, err);
    if (rc == 0 && !c->quiet)
        fprintf(stderr, "muxprof loop: %ld %s calls over %d %s fds (fd %d ready): answer right\n",
                c->calls, c->backend->name, c->nfds, mp_fd_kind_name(c->kind),
                mp_fdset_ready_fd(&set));
    if (st)
        c->backend->close(st);
    if (have_set)
        mp_fdset_destroy(&set, &peer);
    mp_peer_stop(&peer);
    return rc;
}

int mp_cmd_loop(int argc, char **argv)
{
    loop_config c;
    mp_err err;
    mp_err_clear(&err);
    int rc = parse(argc, argv, &c, &err);
    if (rc == 1) {
        mp_opt_usage(&mp_cli_loop, stdout);
        return 0;
    }
    if (rc == 0)
        rc = loop(&c, &err);
    if (rc < 0) {
        fprintf(stderr, "muxprof loop: %s\n", err.msg);
        return mp_exit_status(rc);
    }
    return 0;
}
