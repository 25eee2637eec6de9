/* SPDX-License-Identifier: MIT */
/* context.c - see context.h. */
#include "run/context.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/version.h"

#ifndef MUXPROF_BUILD_TYPE
#define MUXPROF_BUILD_TYPE "unknown"
#endif

int mp_read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    if (!fgets(buf, (int)len, f)) {
        fclose(f);
        return -EIO;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

void mp_context_hostname(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0 || !buf[0])
        snprintf(buf, len, "host");
    buf[len - 1] = 0;
    for (char *p = buf; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != '_')
            *p = '_';
}

/* "model name" (x86) or a description from implementer/part (Arm). */
static void cpu_model(char *buf, size_t len, int *hypervisor)
{
    char line[512], impl[32] = "", part[32] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, len, "unavailable (no /proc/cpuinfo)");
    *hypervisor = 0;
    if (!f)
        return;
    int have = 0;
    while (fgets(line, sizeof line, f)) {
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ')
            v++;
        v[strcspn(v, "\n")] = 0;
        if (!have && !strncmp(line, "model name", 10)) {
            snprintf(buf, len, "%s", v);
            have = 1;
        } else if (!strncmp(line, "CPU implementer", 15)) {
            snprintf(impl, sizeof impl, "%s", v);
        } else if (!strncmp(line, "CPU part", 8)) {
            snprintf(part, sizeof part, "%s", v);
        } else if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor")) {
            *hypervisor = 1;
        }
    }
    fclose(f);
    if (!have && impl[0])
        snprintf(buf, len, "Arm implementer %s part %s", impl, part);
}

static void read_text(char *dst, size_t len, const char *path, const char *missing)
{
    if (mp_read_line(path, dst, len) != 0)
        snprintf(dst, len, "%s", missing);
}

/* The number on the file's first line, or NaN when it cannot be read. */
static double read_number(const char *path)
{
    char buf[64];
    return mp_read_line(path, buf, sizeof buf) == 0 ? (double)atoll(buf) : NAN;
}

/* 1 when the file's first len bytes contain s (device-tree strings are
 * NUL-separated, so this scans past the NULs). */
static int file_has(const char *path, const char *s)
{
    char b[4096];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(b, 1, sizeof b, f), k = strlen(s);
    fclose(f);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(b + i, s, k))
            return 1;
    return 0;
}

static void seen(mp_rcontext *c, const char *what)
{
    if (c->nemulation_seen < MP_RCTX_MAX_SEEN)
        c->emulation_seen[c->nemulation_seen++] = what;
}

/* Full-system or user-mode emulation: counts from an emulated PMU are the
 * emulator's (cycles are virtual time) and timings mean nothing.  Sets
 * "emulated" and "emulation_seen" (what gave it away, or what was only
 * noted). */
static void read_emulation(mp_rcontext *c)
{
    int emulated = 0, x86_cpuinfo = 0, implementer0 = 0;
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char l[256];
        while (fgets(l, sizeof l, ci)) {
            if (!strncmp(l, "vendor_id", 9))
                x86_cpuinfo = 1;
            if (!strncmp(l, "CPU implementer", 15) && strstr(l, ": 0x00"))
                implementer0 = 1;
        }
        fclose(ci);
    }
#if defined(__aarch64__)
    if (x86_cpuinfo) {
        emulated = 1;
        seen(c, "an aarch64 program reading an x86 /proc/cpuinfo (qemu-user)");
    }
#else
    (void)x86_cpuinfo;
#endif
    if (implementer0) {
        emulated = 1;
        seen(c, "CPU implementer 0x00 in /proc/cpuinfo (no Arm licensee: qemu's -cpu max)");
    }
    if (file_has("/sys/firmware/devicetree/base/compatible", "linux,dummy-virt") ||
        file_has("/proc/device-tree/compatible", "linux,dummy-virt")) {
        emulated = 1;
        seen(c, "device tree compatible \"linux,dummy-virt\" (qemu's virt machine; a KVM "
                "guest of that machine shows it too)");
    }
    if (file_has("/sys/class/dmi/id/sys_vendor", "QEMU"))
        seen(c, "DMI sys_vendor QEMU (noted only: KVM guests show it as well)");
    c->emulated = emulated;
}

void mp_context_read(mp_rcontext *c, const char *command)
{
    struct utsname u;
    memset(c, 0, sizeof *c);
    c->boot_seconds_total = NAN;   /* a simulated run's alone */
    mp_context_hostname(c->host, sizeof c->host);
    if (uname(&u) == 0) {
        c->has_uname = 1;
        snprintf(c->arch, sizeof c->arch, "%s", u.machine);
        snprintf(c->kernel, sizeof c->kernel, "%s", u.release);
        snprintf(c->kernel_version, sizeof c->kernel_version, "%s", u.version);
    }
    cpu_model(c->cpu_model, sizeof c->cpu_model, &c->hypervisor);
    c->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    read_emulation(c);
    read_text(c->governor, sizeof c->governor,
              "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
              "unavailable (no cpufreq in /sys: usual in a VM)");
    read_text(c->clocksource, sizeof c->clocksource,
              "/sys/devices/system/clocksource/clocksource0/current_clocksource", "unavailable");
    c->perf_event_paranoid = read_number("/proc/sys/kernel/perf_event_paranoid");
    c->kptr_restrict = read_number("/proc/sys/kernel/kptr_restrict");
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        c->has_rlimit = 1;
        c->rlimit_nofile.soft = (long long)rl.rlim_cur;
        c->rlimit_nofile.hard = (long long)rl.rlim_max;
    }
    c->nr_open = read_number("/proc/sys/fs/nr_open");
    c->git_describe = mp_version_git();
    c->compiler = "gcc-compatible " __VERSION__;
    c->build_type = MUXPROF_BUILD_TYPE;
    c->command = command;
}

cJSON *mp_context_json(const char *command)
{
    mp_rcontext c;
    mp_context_read(&c, command);
    return mp_rcontext_json(&c);
}

const char *mp_clock_label_for(const char *cs, char *buf, size_t len)
{
    static const char *const vdso[] = {"tsc", "kvm-clock", "hyperv_clocksource_tsc_page",
                                       "arch_sys_counter", NULL};
    int fast = 0;
    for (int i = 0; cs && vdso[i]; i++)
        fast |= !strcmp(cs, vdso[i]);
    if (!cs || !*cs)
        snprintf(buf, len, "CLOCK_MONOTONIC via clock_gettime() (clocksource unknown: vDSO "
                 "or system call not known)");
    else if (fast)
        snprintf(buf, len, "CLOCK_MONOTONIC via clock_gettime() in the vDSO (clocksource %s)",
                 cs);
    else
        snprintf(buf, len, "CLOCK_MONOTONIC via clock_gettime() as a system call (clocksource "
                 "%s has no vDSO mode)", cs);
    return buf;
}

const char *mp_clock_label(char *buf, size_t len)
{
    char cs[64];
    if (mp_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", cs,
                     sizeof cs) != 0)
        cs[0] = 0;
    return mp_clock_label_for(cs, buf, len);
}
