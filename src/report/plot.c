/* plot.c - embedded gnuplot scripts and the gnuplot runner.  See report/plot.h. */
#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file.h"
#include "report/util.h"

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

int mp_plot_run(const mp_dir *dir, const char *script, mp_err *err)
{
    char gp[4096];
    if (!mp_plot_gnuplot_found(gp, sizeof gp))
        return mp_errf(err, -ENOENT, "gnuplot not found in PATH; " MP_PLOT_INSTALL_HINT);
    int pfd[2];
    if (pipe(pfd) != 0)
        return mp_errf(err, -errno, "cannot run gnuplot: pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(pfd[0]);
        close(pfd[1]);
        return mp_errf(err, -e, "cannot run gnuplot: fork: %s", strerror(e));
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 1);
        }
        dup2(pfd[1], 2);
        close(pfd[0]);
        if (fchdir(dir->fd) != 0)
            _exit(126);
        execl(gp, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    char log[8192];
    size_t n = 0;
    for (;;) {
        char tmp[1024];
        ssize_t r = read(pfd[0], tmp, sizeof tmp);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = (size_t)r < sizeof log - 1 - n ? (size_t)r : sizeof log - 1 - n;
        memcpy(log + n, tmp, take);
        n += take;
    }
    log[n] = 0;
    close(pfd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return mp_errf(err, -errno, "gnuplot %s: waitpid: %s", script, strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char line[300];
    first_error(log, line, sizeof line);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
        return mp_errf(err, -EIO, "gnuplot: cannot enter %s", dir->path);
    return mp_errf(err, -EIO, "gnuplot %s/%s failed (%s %d): %s", dir->path, script,
                   WIFEXITED(status) ? "exit status" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                   line[0] ? line : "no message");
}
