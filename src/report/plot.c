/* SPDX-License-Identifier: MIT */
/* plot.c - embedded gnuplot scripts and the gnuplot runner.  See report/plot.h. */
#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "report/format.h"

const mp_plot_script *mp_plot_find(const char *name)
{
    for (const mp_plot_script *s = mp_plot_scripts; s->name; s++)
        if (!strcmp(s->name, name))
            return s;
    return NULL;
}

int mp_plot_install(mp_dir *dir, mp_err *err)
{
    for (const mp_plot_script *s = mp_plot_scripts; s->name; s++) {
        int rc = mp_write_file(dir, s->name, s->text, s->len, err);
        if (rc)
            return rc;
    }
    return 0;
}

int mp_plot_gnuplot_found(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t k = strcspn(path, ":");
        char cand[4096];
        if (k > 0 && k < sizeof cand - 16) {
            snprintf(cand, sizeof cand, "%.*s/gnuplot", (int)k, path);
            struct stat st;
            if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
                if (buf)
                    snprintf(buf, len, "%s", cand);
                return 1;
            }
        }
        path += k + (path[k] == ':');
    }
    return 0;
}

/* gnuplot prints the offending command, a caret line, then
 * `"file" line N: message`; quote that line, else the first one. */
static void first_error(const char *log, char *out, size_t len)
{
    const char *l = log;
    const char *q = strstr(log, "\" line ");
    if (q) {
        while (q > log && q[-1] != '\n')
            q--;
        l = q;
    }
    size_t k = strcspn(l, "\n");
    snprintf(out, len, "%.*s", (int)k, l);
}

/* The time limit of one gnuplot run: MP_PLOT_TIMEOUT_S, or whole seconds
 * from MUXPROF_GNUPLOT_TIMEOUT_S; -EINVAL for a value that is not. */
static int timeout_s(long *out, mp_err *err)
{
    const char *v = getenv("MUXPROF_GNUPLOT_TIMEOUT_S");
    *out = MP_PLOT_TIMEOUT_S;
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    long s = strtol(v, &end, 10);
    if (errno || *end || end == v || s < 1 || s > MP_PLOT_TIMEOUT_MAX_S)
        return mp_errf(err, -EINVAL, "MUXPROF_GNUPLOT_TIMEOUT_S=%.40s: expected whole seconds "
                       "from 1 to %d", v, MP_PLOT_TIMEOUT_MAX_S);
    *out = s;
    return 0;
}

/* The signals that stop muxprof (cmd/ handles or blocks them): while
 * gnuplot runs they are held, so that a stop kills gnuplot and its
 * commands before muxprof acts on it. */
static void stop_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGQUIT);
}

static int stopped;   /* the stop signal that ended a gnuplot, 0 while none did */

int mp_plot_interrupted(void)
{
    return stopped;
}

static int stop_pending(void)
{
    sigset_t pending, stops;
    stop_signals(&stops);
    if (sigpending(&pending) != 0)
        return 0;
    for (int s = 1; s < NSIG; s++)
        if (sigismember(&stops, s) == 1 && sigismember(&pending, s) == 1)
            return s;
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The child: `gnuplot -d SCRIPT` (no ~/.gnuplot, no system gnuplotrc) in
 * DIR, in a process group of its own (so the commands it starts are
 * stopped with it), killed if muxprof dies, with no signal blocked. */
static void exec_gnuplot(const char *gp, const mp_dir *dir, const char *script, int errfd,
                         pid_t parent)
{
    setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(125);   /* muxprof is already gone */
    int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (nul >= 0) {
        dup2(nul, 0);
        dup2(nul, 1);
    }
    dup2(errfd, 2);
    if (fchdir(dir->fd) != 0)   /* by its descriptor: a swapped path is not followed */
        _exit(126);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execl(gp, "gnuplot", "-d", script, (char *)NULL);
    _exit(127);
}

/* Keep what fits of gnuplot's stderr in log (n bytes so far); 0 at its
 * end (every writer closed it). */
static int drain(int fd, char *log, size_t cap, size_t *n)
{
    char tmp[1024];
    ssize_t r;
    while ((r = read(fd, tmp, sizeof tmp)) > 0) {
        size_t take = (size_t)r < cap - 1 - *n ? (size_t)r : cap - 1 - *n;
        memcpy(log + *n, tmp, take);
        *n += take;
    }
    log[*n] = 0;
    return r != 0;
}

/* Wait for gnuplot (pid, also its process group) to end, reading its
 * stderr, for at most limit seconds and only while no stop signal is
 * pending; otherwise kill the group.  Returns 0 with *status, or why it
 * was killed: -ETIMEDOUT, -EINTR (*sig the signal). */
static int wait_bounded(pid_t pid, int fd, double limit, char *log, size_t cap, int *status,
                        int *sig)
{
    size_t n = 0;
    double end = now_s() + limit;
    int rc = 0;
    log[0] = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    for (;;) {
        if (poll(&p, 1, MP_PLOT_POLL_MS) > 0 && !drain(fd, log, cap, &n))
            p.fd = -1;   /* at its end: poll only waits from here on */
        siginfo_t si;
        si.si_pid = 0;   /* WNOWAIT: the group is killed while its leader's id is held */
        int w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if ((w == 0 && si.si_pid) || (w < 0 && errno != EINTR))
            break;
        if ((*sig = stop_pending())) {
            rc = -EINTR;
            break;
        }
        if (now_s() > end) {
            rc = -ETIMEDOUT;
            break;
        }
    }
    kill(-pid, SIGKILL);   /* the commands it started, or gnuplot itself */
    int w;
    while ((w = (int)waitpid(pid, status, 0)) < 0 && errno == EINTR)
        ;
    if (w < 0)
        *status = 127 << 8;   /* not ours to wait for: not a success */
    drain(fd, log, cap, &n);
    return rc;
}

int mp_plot_run(const mp_dir *dir, const char *script, mp_err *err)
{
    char gp[4096];
    long limit;
    int rc = timeout_s(&limit, err);
    if (rc)
        return rc;
    if (!mp_plot_gnuplot_found(gp, sizeof gp))
        return mp_errf(err, -ENOENT, "gnuplot not found in PATH; " MP_PLOT_INSTALL_HINT);
    sigset_t stops, old;
    stop_signals(&stops);
    sigprocmask(SIG_BLOCK, &stops, &old);
    int pfd[2] = {-1, -1}, sig = 0;
    if ((sig = stop_pending())) {
        rc = mp_errf(err, -EINTR, "gnuplot %s not started: interrupted (signal %d)", script,
                     sig);
    } else if (pipe2(pfd, O_CLOEXEC) != 0) {
        rc = mp_errf(err, -errno, "cannot run gnuplot: pipe: %s", strerror(errno));
    }
    pid_t pid = -1, self = getpid();
    if (!rc && (pid = fork()) < 0)
        rc = mp_errf(err, -errno, "cannot run gnuplot: fork: %s", strerror(errno));
    if (pid == 0)
        exec_gnuplot(gp, dir, script, pfd[1], self);
    int status = 0;
    char log[8192];
    if (!rc) {
        setpgid(pid, pid);   /* as the child does: whichever runs first */
        close(pfd[1]);
        pfd[1] = -1;
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
        rc = wait_bounded(pid, pfd[0], (double)limit, log, sizeof log, &status, &sig);
        if (rc == -ETIMEDOUT)
            mp_errf(err, rc, "gnuplot %s%s ran longer than %ld s and was stopped (limit: "
                    "MUXPROF_GNUPLOT_TIMEOUT_S)", dir->rel, script, limit);
        else if (rc == -EINTR)
            mp_errf(err, rc, "gnuplot %s%s stopped: interrupted (signal %d)", dir->rel, script,
                    sig);
    }
    if (rc == -EINTR)   /* ignored or handled, it stops the figures still */
        stopped = sig;
    for (int i = 0; i < 2; i++)
        if (pfd[i] >= 0)
            close(pfd[i]);
    sigprocmask(SIG_SETMASK, &old, NULL);   /* a held stop signal acts here */
    if (rc)
        return rc;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char line[300];
    first_error(log, line, sizeof line);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
        return mp_errf(err, -EIO, "gnuplot: cannot enter %s", dir->rel[0] ? dir->rel : ".");
    return mp_errf(err, -EIO, "gnuplot %s%s failed (%s %d): %s", dir->rel, script,
                   WIFEXITED(status) ? "exit status" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                   line[0] ? line : "no message");
}
