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
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "backends/backend.h"
#include "cmd/internal.h"
#include "run/config.h"
#include "run/fdset.h"
#include "run/peer.h"
#include "run/sample.h"

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

enum { L_BACKEND = 256, L_FDS, L_CALLS, L_KIND, L_POS, L_CPU, L_QUIET, L_HELP };

/* The options, from which getopt's table and the help text are made. */
static const struct {
    struct option opt;
    const char *arg, *help;
    const char *(*choices)(void);   /* appended to help, from the registry */
} loop_opts[] = {
    {{"backend", required_argument, 0, L_BACKEND}, "B", "the API to call (required):",
     mp_backend_names},
    {{"fds", required_argument, 0, L_FDS}, "N",
     "watched descriptors, 1.." STR(MP_FDS_MAX) " (required)", NULL},
    {{"calls", required_argument, 0, L_CALLS}, "K", "calls to make [1000]", NULL},
    {{"fd-kind", required_argument, 0, L_KIND}, "KIND", "the descriptors [pipe]:",
     mp_fd_kind_names},
    {{"ready-pos", required_argument, 0, L_POS}, "P", "where the ready fd sits [last]:",
     mp_ready_pos_names},
    {{"cpu", required_argument, 0, L_CPU}, "C",
     "pin the calling thread to CPU C (the helper stays unpinned)", NULL},
    {{"quiet", no_argument, 0, L_QUIET}, NULL, "no summary line on stderr", NULL},
    {{"help", no_argument, 0, L_HELP}, NULL, "this text", NULL},
};
#define NOPTS (sizeof loop_opts / sizeof loop_opts[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: muxprof loop --backend B --fds N [options]\n\n"
               "Set up N idle descriptors with one readable, exactly as `muxprof run` does, make\n"
               "K ready-mode calls (timeout 0) of one API, check the answer once, and exit.\n"
               "No timing and no counters: wrap it in perf stat, valgrind, bpftrace or a\n"
               "simulated cache (scripts/cachesim.sh); run it with K and 2K calls and take the\n"
               "difference to cancel setup and exit (docs/cachesim.md).\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        char left[32];
        snprintf(left, sizeof left, "--%s%s%s", loop_opts[i].opt.name, loop_opts[i].arg ? " " : "",
                 loop_opts[i].arg ? loop_opts[i].arg : "");
        fprintf(f, "  %-17s %s", left, loop_opts[i].help);
        if (loop_opts[i].choices)
            fprintf(f, "\n  %-17s %s", "", loop_opts[i].choices());
        fputc('\n', f);
    }
    fprintf(f, "\nExit status: 0 the answer was right, 1 runtime failure or a wrong answer,\n"
               "2 usage error.\n");
}

/* Returns 0, 1 for --help, or MP_EUSAGE. */
static int parse(int argc, char **argv, loop_config *c, mp_err *err)
{
    struct option longopts[NOPTS + 1];
    for (size_t i = 0; i < NOPTS; i++)
        longopts[i] = loop_opts[i].opt;
    memset(&longopts[NOPTS], 0, sizeof longopts[NOPTS]);
    *c = (loop_config){.calls = 1000, .kind = MP_FD_PIPE, .pos = MP_POS_LAST, .cpu = -1};
    optind = 1;
    opterr = 0;
    int o, rc = 0;
    long v;
    int seen[L_HELP - L_BACKEND + 1] = {0};
    mp_echo e;
    while (rc == 0 && (o = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        if (o >= L_BACKEND && o <= L_HELP && seen[o - L_BACKEND]++) {
            rc = mp_errf(err, MP_EUSAGE, "--%s given twice", loop_opts[o - L_BACKEND].opt.name);
            break;
        }
        switch (o) {
        case L_BACKEND:
            c->backend = mp_backend_find(optarg);
            if (!c->backend)
                rc = mp_errf(err, MP_EUSAGE, "--backend: unknown backend '%s'; expected %s",
                             mp_echo_arg(&e, optarg), mp_backend_names());
            break;
        case L_FDS:
            if ((rc = mp__cli_parse_count("--fds", optarg, 1, MP_FDS_MAX, &v, err)) == 0)
                c->nfds = (int)v;
            break;
        case L_CALLS:
            rc = mp__cli_parse_count("--calls", optarg, 1, LOOP_CALLS_MAX, &c->calls, err);
            break;
        case L_KIND:
            if (mp_fd_kind_parse(optarg, &c->kind) < 0)
                rc = mp_errf(err, MP_EUSAGE, "--fd-kind: unknown kind '%s'; expected %s",
                             mp_echo_arg(&e, optarg), mp_fd_kind_names());
            break;
        case L_POS:
            if (mp_ready_pos_parse(optarg, &c->pos) < 0)
                rc = mp_errf(err, MP_EUSAGE, "--ready-pos: unknown position '%s'; expected %s",
                             mp_echo_arg(&e, optarg), mp_ready_pos_names());
            break;
        case L_CPU:
            if ((rc = mp__cli_parse_count("--cpu", optarg, 0, LOOP_CPU_MAX, &v, err)) == 0)
                c->cpu = (int)v;
            break;
        case L_QUIET:
            c->quiet = 1;
            break;
        case L_HELP:
            return 1;
        case ':':
            rc = mp_errf(err, MP_EUSAGE, "%s needs a value (muxprof loop --help)",
                         mp_echo_arg(&e, argv[optind - 1]));
            break;
        default:
            rc = mp_errf(err, MP_EUSAGE, "unknown option '%s' (muxprof loop --help)",
                         mp_echo_arg(&e, argv[optind - 1]));
        }
    }
    if (rc == 0 && optind < argc)
        rc = mp_errf(err, MP_EUSAGE, "unexpected argument '%s' (muxprof loop --help)",
                     mp_echo_arg(&e, argv[optind]));
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
 * arm64, HINT immediates that the architecture executes as NOPs, one before
 * the calls and one on each side of every call.  Nothing on other CPUs. */
#if defined(__aarch64__)
#define LOOP_MARK(imm) __asm__ volatile("hint #" #imm ::: "memory")
#else
#define LOOP_MARK(imm) ((void)0)
#endif

/* K calls; every return value is compared (no system call), the answer
 * (which fds) is collected and checked once, after the last call. */
static int calls(const loop_config *c, void *st, const mp_fdset *set, mp_err *err)
{
    const mp_backend_ops *b = c->backend;
    int got[2], r = 0;
    LOOP_MARK(112);
    for (long i = 0; i < c->calls; i++) {
        LOOP_MARK(113);
        r = b->wait(st, 0);
        LOOP_MARK(114);
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
        usage(stdout);
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
