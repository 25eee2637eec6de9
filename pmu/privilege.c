/* SPDX-License-Identifier: MIT */
/* privilege.c - what this process may count, and which of the setups of
 * the kernel's perf-security guide (Documentation/admin-guide/perf-security.rst)
 * grants it:
 *
 *   grouped     the binary is root:GROUP, not executable by others (0750),
 *               with cap_perfmon in its file capabilities: only members of
 *               GROUP count kernel work (scripts/grant-perfmon.sh GROUP);
 *   sysctl      kernel.perf_event_paranoid <= 1: every local user may,
 *               acceptable on a single-user host, for the session;
 *   root        the process holds CAP_PERFMON or CAP_SYS_ADMIN already.
 *
 * A capability on a binary that every local user may execute ("ungrouped")
 * hands each of them kernel samples and raw events, which is what paranoid 2
 * protects; it is reported as something to fix, never advised.
 *
 * Kernel rules (kernel/events/core.c, include/linux/perf_event.h):
 * exclude_kernel=0 needs paranoid <= 1 or perfmon_capable(); a CPU-wide
 * open (pid -1, cpu >= 0, which every uncore PMU such as amd_l3 needs)
 * needs paranoid <= 0 or perfmon_capable(); perfmon_capable() is
 * CAP_PERFMON (5.8+) or CAP_SYS_ADMIN, whatever the uid. */
#include "internal.h"

#include <dirent.h>
#include <endian.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#define CAP_BIT(c) (1ull << (c))

int mp_pmu_kernel_allowed(const mp_pmu_host *h)
{
    return h->cap_perfmon || (h->paranoid != -99 && h->paranoid <= 1);
}

int mp_pmu_cpu_wide_allowed(const mp_pmu_host *h, char *why, size_t n)
{
    if (h->cap_perfmon || (h->paranoid != -99 && h->paranoid <= 0)) {
        if (why && n) why[0] = '\0';
        return 1;
    }
    if (why && n)
        snprintf(why, n, "needs CPU-wide counting, which counts every task on the CPU, CCX "
                 "or socket: allowed with kernel.perf_event_paranoid <= 0 or CAP_PERFMON "
                 "(this process: paranoid=%d, no CAP_PERFMON); %s", h->paranoid,
                 MP_PMU_GRANT_HINT);
    return 0;
}

int mp_pmu_pmu_is_cpu_wide(const char *sysfs_root, const char *pmu)
{
    char path[512];
    if (!pmu || !*pmu || strchr(pmu, '/') || !strcmp(pmu, ".") || !strcmp(pmu, ".."))
        return 0;
    snprintf(path, sizeof path, "%s/%s/cpumask",
             sysfs_root ? sysfs_root : mp__sysfs_pmus(), pmu);
    return access(path, F_OK) == 0;
}

/* The smallest name in directory path that keep() accepts, into out. */
static int first_name(const char *path, int (*keep)(const char *dir, const char *name),
                      char *out, size_t n)
{
    DIR *d = opendir(path);
    struct dirent *e;
    out[0] = '\0';
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' && (!out[0] || strcmp(e->d_name, out) < 0) &&
            strlen(e->d_name) < n && keep(path, e->d_name))
            snprintf(out, n, "%s", e->d_name);
    if (d)
        closedir(d);
    return out[0] ? 0 : -ENOENT;
}

static int is_cpu_wide(const char *dir, const char *name)
{
    return mp_pmu_pmu_is_cpu_wide(dir, name);
}

/* An event file of events/, not one of its .scale, .unit, ... companions. */
static int is_event(const char *dir, const char *name)
{
    (void)dir;
    return !strchr(name, '.');
}

int mp_pmu_cpu_wide_sample(char *spec, size_t n)
{
    char pmu[128], ev[128], path[512];
    if (first_name(mp__sysfs_pmus(), is_cpu_wide, pmu, sizeof pmu))
        return -ENOENT;
    snprintf(path, sizeof path, "%s/%s/events", mp__sysfs_pmus(), pmu);
    if (first_name(path, is_event, ev, sizeof ev)) {
        snprintf(spec, n, "%s", pmu);
        return -ENODATA;
    }
    snprintf(spec, n, "%s/%s/", pmu, ev);
    return 0;
}

/* ---- the setup of the running binary ------------------------------------- */

/* security.capability (struct vfs_cap_data, little-endian on disk). */
static void file_caps(const char *exe, mp_pmu_setup *s)
{
    unsigned char b[sizeof(struct vfs_ns_cap_data)];
    ssize_t len = getxattr(exe, "security.capability", b, sizeof b);
    uint32_t magic, w[4];
    s->file_caps = 0;
    if (len < (ssize_t)sizeof(uint32_t)) return;
    memcpy(&magic, b, 4);
    magic = le32toh(magic);
    if ((magic & VFS_CAP_REVISION_MASK) == VFS_CAP_REVISION_1 || len < 20) {
        memcpy(w, b + 4, 4);
        s->file_permitted = le32toh(w[0]);
    } else {
        memcpy(w, b + 4, 16);
        s->file_permitted = le32toh(w[0]) | (uint64_t)le32toh(w[2]) << 32;
    }
    s->file_effective = (magic & VFS_CAP_FLAGS_EFFECTIVE) != 0;
    s->file_caps = 1;
}

void mp_pmu_setup_probe(mp_pmu_setup *s, const char *exe)
{
    struct stat st;
    struct statvfs vs;
    unsigned long long eff = mp__cap_eff();
    memset(s, 0, sizeof *s);
    s->paranoid = mp__read_int("/proc/sys/kernel/perf_event_paranoid", -99);
    s->cap_last_cap = mp__read_int("/proc/sys/kernel/cap_last_cap", -1);
    s->euid = (long)geteuid();
    s->eff_perfmon = (eff & CAP_BIT(CAP_PERFMON)) != 0;
    s->eff_sys_admin = (eff & CAP_BIT(CAP_SYS_ADMIN)) != 0;
    s->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
    if (!exe) {
        ssize_t n = readlink("/proc/self/exe", s->exe, sizeof s->exe - 1);
        s->exe[n > 0 ? n : 0] = '\0';
    } else {
        snprintf(s->exe, sizeof s->exe, "%s", exe);
    }
    s->exe_known = s->exe[0] && stat(s->exe, &st) == 0;
    if (!s->exe_known) return;
    s->mode = st.st_mode & 07777;
    s->uid = (long)st.st_uid;
    s->gid = (long)st.st_gid;
    {
        struct group *g = getgrgid(st.st_gid);
        if (g) snprintf(s->group, sizeof s->group, "%s", g->gr_name);
        else snprintf(s->group, sizeof s->group, "%ld", s->gid);
    }
    s->in_group = getegid() == st.st_gid;
    if (!s->in_group) {
        gid_t gs[256];
        int n = getgroups(256, gs);
        for (int i = 0; i < n; i++)
            if (gs[i] == st.st_gid) s->in_group = 1;
    }
    s->nosuid = statvfs(s->exe, &vs) == 0 && (vs.f_flag & ST_NOSUID);
    file_caps(s->exe, s);
}

/* ---- the verdict --------------------------------------------------------- */

static void say(mp_pmu_verdict *v, const char *status, const char *setup)
{
    v->status = status;
    v->setup = setup;
}

void mp_pmu_setup_judge(const mp_pmu_setup *s, mp_pmu_verdict *v)
{
    int perfmon_file = s->file_caps && (s->file_permitted & CAP_BIT(CAP_PERFMON));
    int admin_file = s->file_caps && (s->file_permitted & CAP_BIT(CAP_SYS_ADMIN));
    int others_exec = (s->mode & S_IXOTH) != 0;
    int held = s->eff_perfmon || s->eff_sys_admin;
    int no_perfmon_cap = s->cap_last_cap >= 0 && s->cap_last_cap < CAP_PERFMON;
    memset(v, 0, sizeof *v);

    if (s->exe_known && (perfmon_file || admin_file) && others_exec) {
        say(v, "FIX", "ungrouped capability");
        snprintf(v->what, sizeof v->what, "%s carries %s and any local user may run it "
                 "(mode %04o): each of them can count kernel work, sample kernel addresses "
                 "and open raw or CPU-wide events, which perf_event_paranoid=%d is meant to "
                 "prevent", s->exe, admin_file ? "cap_sys_admin" : "cap_perfmon", s->mode,
                 s->paranoid);
        snprintf(v->advice, sizeof v->advice, "limit it to a group: scripts/grant-perfmon.sh "
                 "perf_users --binary %s (root:perf_users 0750, cap_perfmon), or remove it: "
                 "setcap -r %s", s->exe, s->exe);
        return;
    }
    if (s->exe_known && admin_file) {
        say(v, "FIX", "grouped, too broad");
        snprintf(v->what, sizeof v->what, "%s (group %s, mode %04o) carries cap_sys_admin, "
                 "far more than counting needs", s->exe, s->group, s->mode);
        snprintf(v->advice, sizeof v->advice, "scripts/grant-perfmon.sh %s --binary %s "
                 "sets cap_perfmon only", s->group, s->exe);
        return;
    }
    if (s->exe_known && perfmon_file) {
        const char *why = NULL;
        if (held) why = NULL;
        else if (!s->file_effective) why = "its capability lacks the effective flag (+e): "
                                           "set it with scripts/grant-perfmon.sh";
        else if (s->nosuid) why = "its file system is mounted nosuid, which ignores file "
                                  "capabilities: install it on another mount";
        else if (s->no_new_privs) why = "this process runs with no_new_privs (a container "
                                        "or service sandbox), which ignores file capabilities";
        else if (no_perfmon_cap) why = "this kernel predates CAP_PERFMON (Linux 5.8): use "
                                       "the sysctl, or a newer kernel";
        else why = "the capability was not raised for this process";
        say(v, why ? "FIX" : "OK", "grouped");
        snprintf(v->what, sizeof v->what, "%s is %s:%s %04o with cap_perfmon%s: members of "
                 "%s count kernel work, others cannot run it; %s", s->exe,
                 s->uid == 0 ? "root" : "non-root owner", s->group, s->mode,
                 (s->file_permitted & CAP_BIT(CAP_SYSLOG)) ? "+cap_syslog" : "", s->group,
                 held ? "this process holds it" : "but this process does not hold it");
        if (why) snprintf(v->advice, sizeof v->advice, "%s", why);
        else if (s->uid != 0)
            snprintf(v->advice, sizeof v->advice, "make root the owner (chown root %s): "
                     "the owner may replace the binary", s->exe);
        return;
    }
    if (held) {
        say(v, "OK", s->euid == 0 ? "root" : "capability held");
        snprintf(v->what, sizeof v->what, "this process holds %s (uid %ld): kernel and "
                 "CPU-wide counting allowed", s->eff_perfmon ? "CAP_PERFMON" : "CAP_SYS_ADMIN",
                 s->euid);
        snprintf(v->advice, sizeof v->advice, "to let other users measure without root: "
                 "scripts/grant-perfmon.sh perf_users, then add them to perf_users");
        return;
    }
    if (s->paranoid != -99 && s->paranoid <= 1) {
        say(v, "OK", "sysctl");
        snprintf(v->what, sizeof v->what, "kernel.perf_event_paranoid=%d lets every local "
                 "user count kernel work%s", s->paranoid,
                 s->paranoid <= 0 ? " and CPU-wide events" : "");
        snprintf(v->advice, sizeof v->advice, "fine for a single-user host; on a shared one "
                 "set it back to 2 and use the group: scripts/grant-perfmon.sh perf_users");
        return;
    }
    say(v, "FIX", "none");
    snprintf(v->what, sizeof v->what, "perf_event_paranoid=%d, no capability: counts would "
             "be user-only, and select/poll/epoll work is kernel-side", s->paranoid);
    if (no_perfmon_cap)
        snprintf(v->advice, sizeof v->advice, "this kernel predates CAP_PERFMON (Linux 5.8): "
                 "sysctl -w kernel.perf_event_paranoid=1 for the session on a single-user "
                 "host");
    else
        snprintf(v->advice, sizeof v->advice, "shared host: scripts/grant-perfmon.sh "
                 "perf_users as root (root:perf_users 0750, cap_perfmon on the binary only), "
                 "then usermod -aG perf_users USER; single-user host: sysctl -w "
                 "kernel.perf_event_paranoid=1 for the session");
}
