// SPDX-License-Identifier: MIT
/* trace.c - the user half of `muxprof trace` (trace/trace.h): the checks,
 * the target (started held at a pipe until the program is attached, or
 * attached to by pid), the BPF program's load through its libbpf skeleton,
 * the counters pmu/ opens put in its perf event array, the epoll counts
 * seeded from /proc/PID/fdinfo, the ring buffer read until the window
 * ends, then the run directory (cells.c).
 *
 * Every wait is bounded: the ring buffer and the target's pidfd are
 * polled 100 ms at a time until --duration; a started command still
 * running then gets SIGTERM, MP_TRACE_KILL_GRACE_S to end, then SIGKILL;
 * a started command dies with muxprof (PR_SET_PDEATHSIG, kept across its
 * exec), waiting at the pipe or running. */
#include "trace/trace.h"

#include "trace/internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "run/context.h"
#include "trace/trace.skel.h"

#define POLL_MS 100
/* How often the target's descriptors are counted by kind: every CENSUS_S,
 * or less often where one count takes more than 1/CENSUS_SHARE of that. */
#define CENSUS_S 0.1
#define CENSUS_SHARE 20
#define MAX_DIR_SUFFIX 999

int mp_trace_available(char *why, size_t n)
{
    (void)why;
    (void)n;
    return 1;
}

/* libbpf's first warning (the most specific: "prog '...': BPF program load
 * failed: ..."), for the one line a failed load prints. */
static char bpf_msg[256];

static int on_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
    if (level == LIBBPF_DEBUG)
        return 0;
    char line[256];
    vsnprintf(line, sizeof line, fmt, ap);
    line[strcspn(line, "\n")] = 0;
    if (*line && !bpf_msg[0])
        snprintf(bpf_msg, sizeof bpf_msg, "%s", line);
    return 0;
}

static void utc_now(char *buf, size_t len, int iso)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%SZ" : "%Y%m%dT%H%M%SZ", &tm);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The run directory: o->out_dir (new, empty, or one muxprof wrote with
 * --force), or reports/runs/trace-<host>-<stamp>[-N]. */
static int take_dir(const mp_trace_opts *o, mp_dir *d, mp_err *err)
{
    if (!o->out_dir) {
        char host[64], stamp[32], base[PATH_MAX - 16], path[PATH_MAX];
        mp_context_hostname(host, sizeof host);
        utc_now(stamp, sizeof stamp, 0);
        snprintf(base, sizeof base, "reports/runs/trace-%s-%s", host, stamp);
        for (int n = 1; n <= MAX_DIR_SUFFIX; n++) {
            if (n == 1)
                snprintf(path, sizeof path, "%s", base);
            else
                snprintf(path, sizeof path, "%s-%d", base, n);
            mp_err why;
            int rc = mp_dir_create(d, path, &why);
            if (rc != -EEXIST)
                return rc ? mp_errf(err, rc, "%s; give --out DIR", why.msg) : 0;
        }
        return mp_errf(err, -EEXIST, "%s and its numbered variants exist; give --out DIR",
                       base);
    }
    struct stat st;
    if (lstat(o->out_dir, &st) < 0 && errno == ENOENT)
        return mp_dir_create(d, o->out_dir, err);
    int rc = mp_dir_open(d, o->out_dir, 1, err);
    if (rc)
        return rc;
    if (mp_dir_is_empty(d))
        return mp_dir_claim(d, err);
    if (mp_dir_has_manifest(d) && o->force) {
        mp_dir fig;
        mp_err why;
        if (fstatat(d->fd, "figures", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            mp_dir_sub(&fig, d, "figures", &why) == 0) {
            mp_dir_prune(&fig);
            mp_dir_close(&fig);
        }
        mp_dir_prune(d);
        return 0;
    }
    rc = mp_errf(err, -EEXIST, "%s is not empty%s", o->out_dir, mp_dir_has_manifest(d)
                 ? " (a run directory muxprof wrote: --force writes over it)"
                 : " and muxprof did not write it: give a new or empty directory");
    mp_dir_close(d);
    return rc;
}

static int pidfd_of(long pid)
{
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}

/* The target of --pid: a thread group that exists, its pidfd. */
static int attach_target(long pid, int *pidfd, mp_err *err)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    long tgid = -1;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Tgid: %ld", &tgid) == 1)
                break;
        fclose(f);
    }
    if (tgid < 0 || (*pidfd = pidfd_of(pid)) < 0)
        return mp_errf(err, -ESRCH, "no process %ld (it does not exist or has ended)", pid);
    if (tgid != pid) {
        close(*pidfd);
        return mp_errf(err, -ESRCH, "%ld is a thread of process %ld: give --pid %ld (trace "
                       "follows every thread of a process)", pid, tgid, tgid);
    }
    return 0;
}

typedef struct child {
    pid_t pid;
    int go, failed;          /* the pipe that releases it; the pipe exec closes */
} child;

/* The command, forked and held before its exec until release(). */
static int start_child(char *const *argv, child *c, int *pidfd, mp_err *err)
{
    int go[2], failed[2];
    if (pipe2(go, O_CLOEXEC) < 0)
        return mp_errf(err, -errno, "pipe: %s", strerror(errno));
    if (pipe2(failed, O_CLOEXEC) < 0) {
        int e = errno;
        close(go[0]);
        close(go[1]);
        return mp_errf(err, -e, "pipe: %s", strerror(e));
    }
    pid_t parent = getpid();
    pid_t p = fork();
    if (p < 0) {
        int e = errno;
        close(go[0]); close(go[1]); close(failed[0]); close(failed[1]);
        return mp_errf(err, -e, "fork: %s", strerror(e));
    }
    if (p == 0) {
        char b;
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        close(go[1]);
        close(failed[0]);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        if (read(go[0], &b, 1) != 1)
            _exit(127);   /* muxprof gave up before the attach */
        execvp(argv[0], argv);
        int e = errno;
        if (write(failed[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(go[0]);
    close(failed[1]);
    c->pid = p;
    c->go = go[1];
    c->failed = failed[0];
    *pidfd = pidfd_of(p);
    if (*pidfd < 0) {
        int e = errno;
        kill(p, SIGKILL);
        waitpid(p, NULL, 0);
        close(c->go);
        close(c->failed);
        return mp_errf(err, -e, "pidfd_open: %s", strerror(e));
    }
    return 0;
}

/* Let the command exec: 0 once it runs, -ENOENT (with why) when exec failed. */
static int release(child *c, const char *name, mp_err *err)
{
    int e = 0;
    ssize_t n = write(c->go, "x", 1);
    close(c->go);
    c->go = -1;
    if (n == 1) {
        n = read(c->failed, &e, sizeof e);   /* returns at the exec: the pipe closes */
    } else {
        e = errno;
    }
    close(c->failed);
    c->failed = -1;
    if (n == (ssize_t)sizeof e && e) {
        waitpid(c->pid, NULL, 0);
        c->pid = 0;
        return mp_errf(err, -ENOENT, "cannot run %s: %s", name, strerror(e));
    }
    return 0;
}

static void status_text(int st, char *buf, size_t n)
{
    if (WIFEXITED(st))
        snprintf(buf, n, "exit %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, n, "signal %d", WTERMSIG(st));
    else
        buf[0] = 0;
}

/* A started command that outlived the window: SIGTERM, the grace, SIGKILL. */
static void end_child(child *c, int pidfd, char *status, size_t n)
{
    int st;
    if (c->pid <= 0)
        return;
    if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
        status_text(st, status, n);
        c->pid = 0;
        return;
    }
    kill(c->pid, SIGTERM);
    struct pollfd p = {.fd = pidfd, .events = POLLIN};
    double end = mono_s() + MP_TRACE_KILL_GRACE_S;
    while (mono_s() < end && poll(&p, 1, POLL_MS) == 0)
        ;
    if (waitpid(c->pid, &st, WNOHANG) != c->pid) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &st, 0);
    }
    status_text(st, status, n);
    c->pid = 0;
}

/* Each epoll descriptor the target holds now, with its registered count
 * from /proc/PID/fdinfo/FD (its "tfd:" lines), into the seeds map. */
static long long seed_epolls(long pid, int seeds_fd)
{
    char path[64], link[64], file[384], line[256];
    snprintf(path, sizeof path, "/proc/%ld/fd", pid);
    DIR *d = opendir(path);
    long long seeded = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        ssize_t n = readlink(file, link, sizeof link - 1);
        if (n < 0)
            continue;
        link[n] = 0;
        if (strcmp(link, "anon_inode:[eventpoll]"))
            continue;
        snprintf(file, sizeof file, "/proc/%ld/fdinfo/%s", pid, e->d_name);
        FILE *f = fopen(file, "r");
        if (!f)
            continue;
        long long count = 0;
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "tfd:", 4))
                count++;
        fclose(f);
        struct { __u32 tgid; __s32 fd; } key = {(__u32)pid, atoi(e->d_name)};
        if (bpf_map_update_elem(seeds_fd, &key, &count, BPF_ANY) == 0)
            seeded++;
    }
    closedir(d);
    return seeded;
}

static int on_record(void *ctx, void *data, size_t size)
{
    mp__trace_data *d = ctx;
    if (size < sizeof(struct mp_trace_rec))
        return 0;
    d->seen++;
    if (d->nrecs == d->cap) {
        size_t ncap = d->cap ? d->cap * 2 : 65536;
        if (ncap > MP_TRACE_KEEP_MAX)
            ncap = MP_TRACE_KEEP_MAX;
        struct mp_trace_rec *nr = ncap > d->cap ? realloc(d->recs, ncap * sizeof *nr) : NULL;
        if (!nr) {
            d->not_kept++;
            return 0;
        }
        d->recs = nr;
        d->cap = ncap;
    }
    memcpy(&d->recs[d->nrecs++], data, sizeof(struct mp_trace_rec));
    return 0;
}

/* The sum over CPUs of the stats map's count k. */
/* Count pid's descriptors by kind; d keeps the census with the most. */
/* The target's descriptors by kind, and with --follow those of every
 * process followed now (ffd: the BPF map of them, or -1), summed. */
static void census(long pid, int ffd, mp__trace_data *d)
{
    long long k[MP__FDK_N], tot = 0, best = 0;
    if (mp__fd_census(pid, k))
        return;
    __u32 key = 0, next;
    for (int first = 1; ffd >= 0 && bpf_map_get_next_key(ffd, first ? NULL : &key, &next) == 0;
         first = 0, key = next) {
        long long c[MP__FDK_N];
        if (mp__fd_census((long)next, c) == 0)
            for (int i = 0; i < MP__FDK_N; i++)
                k[i] += c[i];
    }
    for (int i = 0; i < MP__FDK_N; i++) {
        tot += k[i];
        best += d->fdk[i];
    }
    if (!d->fdk_seen || tot > best)
        memcpy(d->fdk, k, sizeof k);
    d->fdk_seen = 1;
}

/* Whether the map of processes followed holds one (ffd -1: none followed). */
static int followed_any(int ffd)
{
    __u32 k;
    return ffd >= 0 && bpf_map_get_next_key(ffd, NULL, &k) == 0;
}

static long long stat_sum(int fd, __u32 k, int ncpus)
{
    __u64 *v = calloc((size_t)ncpus, sizeof *v);
    long long sum = 0;
    if (v && bpf_map_lookup_elem(fd, &k, v) == 0)
        for (int i = 0; i < ncpus; i++)
            sum += (long long)v[i];
    free(v);
    return sum;
}

/* The command line as one string: its words, those with a space quoted. */
static void join_argv(char *const *argv, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; argv[i] && o < n; i++) {
        int q = strpbrk(argv[i], " \t'\"") != NULL;
        o += (size_t)snprintf(buf + o, n - o, "%s%s%s%s", i ? " " : "", q ? "'" : "", argv[i],
                              q ? "'" : "");
    }
}

int mp_trace_run(const mp_trace_opts *o, volatile sig_atomic_t *stop, mp_trace_sum *sum,
                 mp_err *err)
{
    char why[512], command[4096];
    memset(sum, 0, sizeof *sum);
    if (!mp_pmu_trace_allowed(why, sizeof why))
        return mp_errf(err, -EPERM, "%s", why);
    int pidfd = -1, rc;
    child c = {0, -1, -1};
    long pid = o->pid;
    if (o->argv) {
        join_argv(o->argv, command, sizeof command);
        if ((rc = start_child(o->argv, &c, &pidfd, err)))
            return rc;
        pid = c.pid;
    } else if ((rc = attach_target(pid, &pidfd, err))) {
        return rc;
    }
    mp_dir dir = {.fd = -1};
    mp_pmu_trace_events ev = {0};
    struct mp_trace_bpf *skel = NULL;
    struct ring_buffer *rb = NULL;
    mp__trace_data d = {0};
    d.command = o->argv ? command : NULL;
    d.pid = pid;
    d.duration_s = o->duration_s;
    d.ev = &ev;
    d.o = o;
    if ((rc = take_dir(o, &dir, err)))
        goto out;
    snprintf(sum->dir, sizeof sum->dir, "%s", dir.path);

    int ncpus = libbpf_num_possible_cpus();
    if (ncpus <= 0) {
        rc = mp_errf(err, -EIO, "cannot tell the number of CPUs (libbpf: %s)", strerror(-ncpus));
        goto out;
    }
    if ((rc = mp_pmu_trace_events_open(&ev, ncpus, err)))
        goto out;
    libbpf_set_print(on_libbpf);
    bpf_msg[0] = 0;
    skel = mp_trace_bpf__open();
    if (!skel) {
        rc = mp_errf(err, -EIO, "cannot open the BPF program: %s", bpf_msg);
        goto out;
    }
    skel->rodata->target_tgid = (__u32)pid;
    skel->rodata->follow = o->follow ? 1 : 0;
    d.follow = o->follow;
    /* the fork and exit programs run for every process on the host: loaded
     * only to follow */
    bpf_program__set_autoload(skel->progs.mp_fork, o->follow != 0);
    bpf_program__set_autoload(skel->progs.mp_exit, o->follow != 0);
    skel->rodata->ncpus = (__u32)ncpus;
    skel->rodata->nevents = (__u32)ev.nevents;
    /* bpf_loop lets the program read select's sets past FD_SETSIZE; without it
     * the entry program's other build is loaded.  MUXPROF_TRACE_NO_LOOP=1 takes
     * that one anyway (the tests check it on kernels that have bpf_loop). */
    const char *noloop = getenv("MUXPROF_TRACE_NO_LOOP");
    if (noloop && strcmp(noloop, "0") && strcmp(noloop, "1")) {
        rc = mp_errf(err, MP_EUSAGE, "MUXPROF_TRACE_NO_LOOP='%.40s' in the environment: "
                     "expected 0 or 1 (or unset it)", noloop);
        goto out;
    }
    bool have_loop = !(noloop && !strcmp(noloop, "1")) &&
        libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_loop, NULL) == 1;
    bpf_program__set_autoload(skel->progs.mp_sys_enter, have_loop);
    bpf_program__set_autoload(skel->progs.mp_sys_enter_noloop, !have_loop);
    skel->rodata->select_bits = have_loop ? MP_TR_SELECT_BITS : MP_TR_SELECT_BITS_NOLOOP;
    size_t slots = ev.nevents * (size_t)ncpus;
    bpf_map__set_max_entries(skel->maps.counters, slots ? (__u32)slots : 1);
    if ((rc = mp_trace_bpf__load(skel))) {
        rc = mp_errf(err, rc < 0 ? rc : -EIO, "the kernel refused the BPF program%s (%s)%s",
                     have_loop ? "" : " (its build without bpf_loop)",
                     bpf_msg[0] ? bpf_msg : strerror(-rc),
                     access("/sys/kernel/btf/vmlinux", R_OK)
                         ? "; it needs the kernel's BTF, /sys/kernel/btf/vmlinux, absent here"
                         : "");
        goto out;
    }
    int cfd = bpf_map__fd(skel->maps.counters);
    for (size_t i = 0; i < slots; i++) {
        __u32 k = (__u32)i;
        __u32 v = (__u32)ev.fd[i];
        if (ev.fd[i] >= 0 && bpf_map_update_elem(cfd, &k, &v, BPF_ANY)) {
            rc = mp_errf(err, -errno, "cannot hand counter %s of CPU %zu to the BPF program: %s",
                         ev.name[i / (size_t)ncpus], i % (size_t)ncpus, strerror(errno));
            goto out;
        }
    }
    if ((rc = mp_trace_bpf__attach(skel))) {
        rc = mp_errf(err, rc < 0 ? rc : -EIO, "cannot attach to the raw syscall tracepoints "
                     "(%s)", bpf_msg[0] ? bpf_msg : strerror(-rc));
        goto out;
    }
    rb = ring_buffer__new(bpf_map__fd(skel->maps.records), on_record, &d, NULL);
    if (!rb) {
        rc = mp_errf(err, -errno, "cannot read the BPF ring buffer: %s", strerror(errno));
        goto out;
    }
    d.epoll_seeded = seed_epolls(pid, bpf_map__fd(skel->maps.seeds));
    int ffd = o->follow ? bpf_map__fd(skel->maps.followed) : -1;
    d.select_bits = skel->rodata->select_bits;
    if (!o->argv)   /* before the attach is announced: the target may end soon after */
        census(pid, ffd, &d);
    utc_now(d.started_utc, sizeof d.started_utc, 1);
    double t0 = mono_s(), end = t0 + o->duration_s;
    if (o->argv && (rc = release(&c, o->argv[0], err)))
        goto out;
    if (!o->quiet)
        fprintf(stderr, "muxprof trace: tracing %s %ld for at most %g s (Ctrl-C ends it)\n",
                o->argv ? "command, pid" : "pid", pid, o->duration_s);
    struct pollfd pf[2] = {{.fd = ring_buffer__epoll_fd(rb), .events = POLLIN},
                           {.fd = pidfd, .events = POLLIN}};
    d.ended = "duration";
    double census_at = o->argv ? 0 : mono_s() + CENSUS_S;
    for (;;) {
        double now = mono_s();
        /* the target's descriptors, every 100 ms or so; a started command's
         * from its first traced call on (before, it may not have run exec) */
        if (now >= census_at && (!o->argv || d.seen > 0)) {
            census(pid, ffd, &d);
            double took = mono_s() - now;
            census_at = now + (took * CENSUS_SHARE > CENSUS_S ? took * CENSUS_SHARE : CENSUS_S);
        }
        if (now >= end)
            break;
        if (*stop) {
            d.ended = "interrupted";
            d.interrupted = 1;
            break;
        }
        int left_ms = (int)((end - now) * 1000) + 1;
        int n = poll(pf, 2, left_ms < POLL_MS ? left_ms : POLL_MS);
        if (n > 0 && (pf[0].revents & POLLIN))
            ring_buffer__consume(rb);
        /* with --follow the window ends when the target and every process
         * followed have exited (a daemon's parent exits before its workers) */
        if (n > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
            pf[1].fd = -1;
        if (pf[1].fd < 0 && !followed_any(ffd)) {
            ring_buffer__consume(rb);
            d.ended = "target exited";
            d.target_exited = 1;
            break;
        }
    }
    d.window_s = mono_s() - t0;
    utc_now(d.finished_utc, sizeof d.finished_utc, 1);
    /* what the kernel side recorded until now, then detach */
    ring_buffer__consume(rb);
    mp_trace_bpf__detach(skel);
    ring_buffer__consume(rb);
    int sfd = bpf_map__fd(skel->maps.stats);
    d.lost = stat_sum(sfd, MP_TR_ST_LOST, ncpus);
    d.noslot = stat_sum(sfd, MP_TR_ST_NOSLOT, ncpus);
    d.followed = stat_sum(sfd, MP_TR_ST_FOLLOWED, ncpus);
    d.not_followed = stat_sum(sfd, MP_TR_ST_NOFOLLOW, ncpus);
    if (o->argv) {
        end_child(&c, pidfd, d.exit_status, sizeof d.exit_status);
        if (d.exit_status[0])
            snprintf(sum->exit_status, sizeof sum->exit_status, "%s", d.exit_status);
    }
    rc = mp__trace_write(&dir, &d, sum, err);
out:
    if (rc && dir.fd >= 0)
        mp_dir_discard(&dir);
    else if (dir.fd >= 0)
        mp_dir_close(&dir);
    ring_buffer__free(rb);
    mp_trace_bpf__destroy(skel);
    mp_pmu_trace_events_close(&ev);
    if (c.go >= 0)
        close(c.go);   /* a command never released: its read sees the end, it exits */
    if (c.failed >= 0)
        close(c.failed);
    if (c.pid > 0) {
        kill(c.pid, SIGKILL);
        waitpid(c.pid, NULL, 0);
    }
    if (pidfd >= 0)
        close(pidfd);
    free(d.recs);
    return rc;
}
