/* SPDX-License-Identifier: MIT */
/* procfs.c - see procfs.h.  Reads use pread at offset 0, so one open file
 * serves every read. */
#include "run/procfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mp_task_open(int tid, const char *file)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/%s", tid, file);
    return open(path, O_RDONLY | O_CLOEXEC);
}

char mp_task_state(int stat_fd)
{
    char buf[512];
    ssize_t r = stat_fd >= 0 ? pread(stat_fd, buf, sizeof buf - 1, 0) : -1;
    if (r <= 0)
        return 0;
    buf[r] = 0;
    /* The command name in parentheses may hold spaces: the state follows the last ')'. */
    char *p = strrchr(buf, ')');
    return (p && p[1] == ' ') ? p[2] : 0;
}

long mp_task_vol_switches(int status_fd)
{
    char buf[2048];
    ssize_t r = status_fd >= 0 ? pread(status_fd, buf, sizeof buf - 1, 0) : -1;
    if (r <= 0)
        return -1;
    buf[r] = 0;
    const char *key = "\nvoluntary_ctxt_switches:";
    char *p = strstr(buf, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

int mp_task_open_in(int pid, int tid, const char *file)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/%s", pid, tid, file);
    return open(path, O_RDONLY | O_CLOEXEC);
}

int mp_process_threads(void)
{
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0)
        return -1;
    buf[r] = 0;
    const char *key = "\nThreads:";
    char *p = strstr(buf, key);
    return p ? (int)strtol(p + strlen(key), NULL, 10) : -1;
}

int mp_process_watch_sets(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[300], link[64];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(path, link, sizeof link - 1);
        if (k <= 0)
            continue;
        link[k] = 0;
        n += !strcmp(link, "anon_inode:[eventpoll]") || !strcmp(link, "anon_inode:[io_uring]");
    }
    closedir(d);
    return n;
}
