/* SPDX-License-Identifier: MIT */
/* noise.c - see noise.h. */
#include "run/noise.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/context.h"

void mp_noise_snap_take(mp_noise_snap *s)
{
    memset(s, 0, sizeof *s);
    s->load1 = s->load5 = s->load15 = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &s->load1, &s->load5, &s->load15) != 3)
            s->load1 = s->load5 = s->load15 = NAN;
        fclose(f);
    }
    f = fopen("/proc/stat", "r");
    if (f) {
        unsigned long long v[10] = {0};
        int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
        fclose(f);
        if (n >= 8) {
            /* user nice system idle iowait irq softirq steal [guest guest_nice]:
             * guest time is already inside user/nice. */
            for (int i = 0; i < 8; i++)
                s->total += v[i];
            s->idle = v[3] + v[4];
            s->steal = v[7];
            s->have_stat = 1;
        }
    }
}

static cJSON *load_json(const mp_noise_snap *s)
{
    if (isnan(s->load1))
        return cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(s->load1));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(s->load5));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(s->load15));
    return a;
}

/* cpuN: scaling_cur_freq (kHz) where cpufreq exists, else /proc/cpuinfo's
 * "cpu MHz" (the kernel's estimate; on a VM often the host's nominal). */
static void add_freq(cJSON *o)
{
    cJSON *a = cJSON_CreateArray();
    const char *source = NULL;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < ncpu && c < 1024; c++) {
        char path[96], buf[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_cur_freq", c);
        if (mp_read_line(path, buf, sizeof buf) != 0)
            break;
        cJSON_AddItemToArray(a, cJSON_CreateNumber(atof(buf) / 1000.0));
        source = "cpufreq scaling_cur_freq";
    }
    if (!source) {
        FILE *f = fopen("/proc/cpuinfo", "r");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "cpu MHz", 7)) {
                const char *p = strchr(line, ':');
                if (p)
                    cJSON_AddItemToArray(a, cJSON_CreateNumber(atof(p + 1)));
                source = "/proc/cpuinfo cpu MHz (the kernel's estimate)";
            }
        if (f)
            fclose(f);
    }
    if (!source) {
        cJSON_Delete(a);
        cJSON_AddNullToObject(o, "cpu_mhz");
        cJSON_AddStringToObject(o, "cpu_mhz_source", "unavailable (no cpufreq, no cpu MHz "
                                "in /proc/cpuinfo)");
        return;
    }
    cJSON_AddItemToObject(o, "cpu_mhz", a);
    cJSON_AddStringToObject(o, "cpu_mhz_source", source);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_mitigations(cJSON *o)
{
    const char *dir = "/sys/devices/system/cpu/vulnerabilities";
    DIR *d = opendir(dir);
    if (!d) {
        cJSON_AddNullToObject(o, "mitigations");
        cJSON_AddStringToObject(o, "mitigations_reason", "unavailable (no " 
                                "/sys/devices/system/cpu/vulnerabilities)");
        return;
    }
    char *names[64];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    cJSON *m = cJSON_AddObjectToObject(o, "mitigations");
    for (size_t i = 0; i < n; i++) {
        char path[512], buf[256];
        if (!names[i])
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (mp_read_line(path, buf, sizeof buf) == 0)
            cJSON_AddStringToObject(m, names[i], buf);
        free(names[i]);
    }
}

void mp_noise_json(cJSON *context, const mp_noise_snap *a, const mp_noise_snap *b)
{
    cJSON *o = cJSON_AddObjectToObject(context, "noise");
    cJSON *w = cJSON_CreateArray();
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    cJSON_AddItemToObject(o, "loadavg_start", load_json(a));
    cJSON_AddItemToObject(o, "loadavg_end", load_json(b));
    if (a->have_stat && b->have_stat && b->total > a->total) {
        double span = (double)(b->total - a->total);
        double steal = (double)(b->steal - a->steal) / span;
        double busy = 1.0 - (double)(b->idle - a->idle) / span - steal;
        cJSON_AddNumberToObject(o, "steal_share", steal);
        cJSON_AddNumberToObject(o, "busy_share", busy);
        cJSON_AddStringToObject(o, "steal_source", "/proc/stat, all CPUs, over the run");
        if (steal > MP_NOISE_STEAL_WARN) {
            char s[160];
            snprintf(s, sizeof s, "the hypervisor stole %.1f%% of CPU time during the run "
                     "(above %.0f%%): timings include its delays", steal * 100,
                     MP_NOISE_STEAL_WARN * 100);
            cJSON_AddItemToArray(w, cJSON_CreateString(s));
        }
    } else {
        cJSON_AddNullToObject(o, "steal_share");
        cJSON_AddNullToObject(o, "busy_share");
        cJSON_AddStringToObject(o, "steal_source", "unavailable (/proc/stat unreadable)");
    }
    double worst = fmax(isnan(a->load1) ? 0 : a->load1, isnan(b->load1) ? 0 : b->load1);
    if (ncpu > 0 && worst / (double)ncpu > MP_NOISE_LOAD_WARN) {
        char s[200];
        snprintf(s, sizeof s, "the 1-minute load average reached %.2f on %ld CPUs (above %.1f "
                 "per CPU): other work competed for the CPUs; compare within one run only",
                 worst, ncpu, MP_NOISE_LOAD_WARN);
        cJSON_AddItemToArray(w, cJSON_CreateString(s));
    }
    add_freq(o);
    add_mitigations(o);
    cJSON_AddItemToObject(o, "warnings", w);
}
