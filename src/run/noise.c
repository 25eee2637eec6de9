/* SPDX-License-Identifier: MIT */
/* noise.c - see noise.h. */
#include "run/noise.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/context.h"

const char *mp_noise_proc_stat(void)
{
    const char *p = getenv("MUXPROF_PROC_STAT");
    return p && *p ? p : "/proc/stat";
}

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
    f = fopen(mp_noise_proc_stat(), "r");
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

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double own_cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return NAN;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Seconds since muxprof's binary was written, NaN when unknown. */
static double binary_age_s(void)
{
    struct stat st;
    if (stat("/proc/self/exe", &st) != 0)
        return NAN;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    double age = (double)(now.tv_sec - st.st_mtim.tv_sec) +
                 (now.tv_nsec - st.st_mtim.tv_nsec) / 1e9;
    return age >= 0 ? age : NAN;
}

/* CPUs busy besides muxprof over one window of window_s (less when *stop
 * is set meanwhile); NaN when /proc/stat is unreadable. */
static double busy_window(double window_s, volatile int *stop)
{
    mp_noise_snap a, b;
    mp_noise_snap_take(&a);
    double own0 = own_cpu_s(), t0 = mono_s();
    struct timespec d = {(time_t)window_s, (long)((window_s - (double)(time_t)window_s) * 1e9)};
    while (!*stop && nanosleep(&d, &d) != 0)
        ;
    mp_noise_snap_take(&b);
    double own1 = own_cpu_s(), wall = mono_s() - t0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (!a.have_stat || !b.have_stat || b.total <= a.total || ncpu <= 0 || wall <= 0)
        return NAN;
    double span = (double)(b.total - a.total);
    double busy = (span - (double)(b.idle - a.idle) - (double)(b.steal - a.steal)) / span *
                  (double)ncpu;
    if (!isnan(own0) && !isnan(own1))
        busy -= (own1 - own0) / wall;
    return busy < 0 ? 0 : busy;
}

#define SETTLE_FIRST_S 0.25   /* the first window: the cost of a run on a quiet host */
#define SETTLE_WINDOW_S 0.5

double mp_noise_settle_threshold(long ncpu)
{
    return fmax(MP_NOISE_SETTLE_BUSY, MP_NOISE_SETTLE_SHARE * (double)(ncpu > 0 ? ncpu : 1));
}

/* A build's processes, by the names /proc/PID/comm gives them. */
static const char *const build_tools[] = {"cc1", "cc1plus", "as", "ld", "collect2", "cmake",
                                          "make", "gmake", "ninja", "rustc", "cargo", "go",
                                          "javac", NULL};

/* The first running process named in build_tools, into name; 0 when none. */
static int build_running(char *name, size_t len)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], comm[32] = "";
        snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(comm, sizeof comm, f))
            comm[strcspn(comm, "\n")] = 0;
        fclose(f);
        for (size_t i = 0; build_tools[i] && !found; i++)
            if (!strcmp(comm, build_tools[i])) {
                snprintf(name, len, "%s", comm);
                found = 1;
            }
    }
    closedir(d);
    return found;
}

void mp_noise_settle_wait(mp_noise_settle *s, double bound_s, int quiet, volatile int *stop)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *s = (mp_noise_settle){.bound_s = bound_s > 0 ? bound_s : 0, .waited_s = 0,
                           .busy_first = NAN, .busy_last = NAN, .built_s_ago = binary_age_s(),
                           .threshold = mp_noise_settle_threshold(ncpu)};
    if (bound_s <= 0)
        return;
    s->checked = 1;
    double t0 = mono_s();
    s->busy_first = s->busy_last = busy_window(SETTLE_FIRST_S, stop);
    if (isnan(s->busy_first)) {
        s->unreadable = 1;
        s->waited_s = mono_s() - t0;
        if (!quiet)
            fprintf(stderr, "muxprof run: cannot read the CPUs' busy time (%s): measuring "
                    "without waiting for the host to settle\n", mp_noise_proc_stat());
        return;
    }
    if (s->busy_first < s->threshold) {
        s->settled = 1;
        s->waited_s = mono_s() - t0;
        return;
    }
    if (!quiet) {
        char why[200] = "", tool[32];
        int building = build_running(tool, sizeof tool);
        if (building && s->built_s_ago < MP_NOISE_BUILT_RECENT_S)
            snprintf(why, sizeof why, "; muxprof was built %.0f s ago and a build is still "
                     "running (%s): the load is the build's", s->built_s_ago, tool);
        else if (building)
            snprintf(why, sizeof why, "; a build is running (%s)", tool);
        else if (s->built_s_ago < MP_NOISE_BUILT_RECENT_S)
            snprintf(why, sizeof why, "; muxprof was built %.0f s ago", s->built_s_ago);
        fprintf(stderr, "muxprof run: %.1f of %ld CPUs busy besides muxprof%s: waiting up to "
                "%.0f s for them to settle (below %.2f) before measuring (--no-wait skips "
                "this)\n", s->busy_first, ncpu, why, bound_s, s->threshold);
    }
    int quiet_windows = 0;
    while (!*stop && quiet_windows < 2 && mono_s() - t0 < bound_s) {
        double w = fmin(SETTLE_WINDOW_S, bound_s - (mono_s() - t0));
        double b = busy_window(w > 0.05 ? w : 0.05, stop);
        if (isnan(b)) {
            s->unreadable = 1;
            break;
        }
        s->busy_last = b;
        quiet_windows = b < s->threshold ? quiet_windows + 1 : 0;
    }
    s->settled = quiet_windows >= 2;
    s->waited_s = mono_s() - t0;
    if (quiet || *stop)
        return;
    if (s->settled)
        fprintf(stderr, "muxprof run: the host settled after %.1f s (%.2f CPUs busy besides "
                "muxprof); measuring\n", s->waited_s, s->busy_last);
    else if (s->unreadable)
        fprintf(stderr, "muxprof run: the CPUs' busy time became unreadable (%s) after %.1f s; "
                "measuring anyway\n", mp_noise_proc_stat(), s->waited_s);
    else
        fprintf(stderr, "muxprof run: still %.1f of %ld CPUs busy after %.0f s; measuring "
                "anyway: the run's noise record and warnings say how much it mattered\n",
                s->busy_last, ncpu, s->waited_s);
}

static void settle_json(cJSON *o, const mp_noise_settle *s)
{
    cJSON *j = cJSON_AddObjectToObject(o, "settle");
    cJSON_AddBoolToObject(j, "checked", s->checked);
    cJSON_AddBoolToObject(j, "settled", s->settled);
    cJSON_AddNumberToObject(j, "bound_s", s->bound_s);
    cJSON_AddNumberToObject(j, "waited_s", s->waited_s);
    const char *keys[] = {"busy_first", "busy_last", "built_s_ago"};
    double v[] = {s->busy_first, s->busy_last, s->built_s_ago};
    for (size_t i = 0; i < 3; i++) {
        if (isnan(v[i]))
            cJSON_AddNullToObject(j, keys[i]);
        else
            cJSON_AddNumberToObject(j, keys[i], v[i]);
    }
    cJSON_AddNumberToObject(j, "threshold_cpus", s->threshold);
    cJSON_AddBoolToObject(j, "unreadable", s->unreadable);
}

void mp_noise_json(cJSON *context, const mp_noise_snap *a, const mp_noise_snap *b,
                   const mp_noise_settle *settle, double other_busy_max)
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
    double busy_warn = 2 * mp_noise_settle_threshold(ncpu);
    if (isfinite(other_busy_max)) {
        if (other_busy_max > busy_warn) {
            char s[240];
            snprintf(s, sizeof s, "other work kept %.1f of %ld CPUs busy in a pass (above %.2f; "
                     "/proc/stat less muxprof's own): it competed for the CPUs; compare within "
                     "one run only", other_busy_max, ncpu, busy_warn);
            cJSON_AddItemToArray(w, cJSON_CreateString(s));
        }
    } else if (ncpu > 0 && worst / (double)ncpu > MP_NOISE_LOAD_WARN) {
        char s[200];
        snprintf(s, sizeof s, "the 1-minute load average reached %.2f on %ld CPUs (above %.1f "
                 "per CPU): other work competed for the CPUs; compare within one run only",
                 worst, ncpu, MP_NOISE_LOAD_WARN);
        cJSON_AddItemToArray(w, cJSON_CreateString(s));
    }
    if (settle)
        settle_json(o, settle);
    add_freq(o);
    add_mitigations(o);
    cJSON_AddItemToObject(o, "warnings", w);
}
