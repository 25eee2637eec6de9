/* context.c - see context.h. */
#include "context.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

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

static void add_file(cJSON *o, const char *key, const char *path, const char *missing)
{
    char buf[256];
    if (mp_read_line(path, buf, sizeof buf) == 0)
        cJSON_AddStringToObject(o, key, buf);
    else
        cJSON_AddStringToObject(o, key, missing);
}

static void add_long_file(cJSON *o, const char *key, const char *path)
{
    char buf[64];
    if (mp_read_line(path, buf, sizeof buf) == 0)
        cJSON_AddNumberToObject(o, key, (double)atoll(buf));
    else
        cJSON_AddStringToObject(o, key, "unavailable");
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

/* Full-system or user-mode emulation: counts from an emulated PMU are the
 * emulator's (cycles are virtual time) and timings mean nothing.  Adds
 * "emulated" and "emulation_seen" (what gave it away, or what was only
 * noted) to o. */
static void add_emulation(cJSON *o)
{
    cJSON *seen = cJSON_CreateArray();
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
        cJSON_AddItemToArray(seen, cJSON_CreateString(
            "an aarch64 program reading an x86 /proc/cpuinfo (qemu-user)"));
    }
#else
    (void)x86_cpuinfo;
#endif
    if (implementer0) {
        emulated = 1;
        cJSON_AddItemToArray(seen, cJSON_CreateString(
            "CPU implementer 0x00 in /proc/cpuinfo (no Arm licensee: qemu's -cpu max)"));
    }
    if (file_has("/sys/firmware/devicetree/base/compatible", "linux,dummy-virt") ||
        file_has("/proc/device-tree/compatible", "linux,dummy-virt")) {
        emulated = 1;
        cJSON_AddItemToArray(seen, cJSON_CreateString(
            "device tree compatible \"linux,dummy-virt\" (qemu's virt machine; a KVM "
            "guest of that machine shows it too)"));
    }
    if (file_has("/sys/class/dmi/id/sys_vendor", "QEMU"))
        cJSON_AddItemToArray(seen, cJSON_CreateString(
            "DMI sys_vendor QEMU (noted only: KVM guests show it as well)"));
    cJSON_AddBoolToObject(o, "emulated", emulated);
    cJSON_AddItemToObject(o, "emulation_seen", seen);
}

cJSON *mp_context_json(const char *command)
{
    cJSON *o = cJSON_CreateObject();
    char buf[512];
    struct utsname u;
    int hyp;

    mp_context_hostname(buf, sizeof buf);
    cJSON_AddStringToObject(o, "host", buf);
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(o, "arch", u.machine);
        cJSON_AddStringToObject(o, "kernel", u.release);
        cJSON_AddStringToObject(o, "kernel_version", u.version);
    }
    cpu_model(buf, sizeof buf, &hyp);
    cJSON_AddStringToObject(o, "cpu_model", buf);
    cJSON_AddNumberToObject(o, "nr_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddBoolToObject(o, "hypervisor", hyp);
    add_emulation(o);
    add_file(o, "governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
             "unavailable (no cpufreq in /sys: usual in a VM)");
    add_file(o, "clocksource", "/sys/devices/system/clocksource/clocksource0/current_clocksource",
             "unavailable");
    add_long_file(o, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
    add_long_file(o, "kptr_restrict", "/proc/sys/kernel/kptr_restrict");
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        cJSON *r = cJSON_AddObjectToObject(o, "rlimit_nofile");
        cJSON_AddNumberToObject(r, "soft", (double)rl.rlim_cur);
        cJSON_AddNumberToObject(r, "hard", (double)rl.rlim_max);
    }
    add_long_file(o, "nr_open", "/proc/sys/fs/nr_open");
    cJSON_AddStringToObject(o, "git_describe", MUXPROF_GIT_DESCRIBE);
    cJSON_AddStringToObject(o, "compiler", "gcc-compatible " __VERSION__);
    cJSON_AddStringToObject(o, "build_type", MUXPROF_BUILD_TYPE);
    cJSON_AddStringToObject(o, "command", command);
    return o;
}
