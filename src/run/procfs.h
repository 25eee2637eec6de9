/* SPDX-License-Identifier: MIT */
/* procfs.h - what /proc says about one thread of this process: its scheduler
 * state and its voluntary context switches.  The wakeup sampler and the herd
 * experiment use these to know a waiter is asleep and how often it ran. */
#ifndef MP_RUN_PROCFS_H
#define MP_RUN_PROCFS_H

#include <stddef.h>

/* Open /proc/self/task/<tid>/<file> ("stat" or "status"); -1 on failure. */
int mp_task_open(int tid, const char *file);

/* Open /proc/<pid>/task/<tid>/<file>: a thread of another process. */
int mp_task_open_in(int pid, int tid, const char *file);

/* Threads of this process now ("Threads:" of /proc/self/status), -1 if
 * unreadable. */
int mp_process_threads(void);

/* epoll and io_uring instances open in this process (anon_inode links in
 * /proc/self/fd), -1 if unreadable: the sets that may watch our fds. */
int mp_process_watch_sets(void);

/* State letter from an open stat file ('R', 'S', 'D', ...), 0 if unreadable. */
char mp_task_state(int stat_fd);

/* voluntary_ctxt_switches from an open status file, -1 if unreadable. */
long mp_task_vol_switches(int status_fd);

#endif
