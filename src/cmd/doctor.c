/* SPDX-License-Identifier: MIT */
/* doctor.c - `muxprof doctor`: what this host offers for measuring
 * select/poll/epoll with counters (PMUs, CPU model, perf_event_paranoid,
 * capabilities, rdpmc / perf_user_access, NMI watchdog, hypervisor,
 * descriptor limits, frequency governor, SMT), each line OK or what to
 * change.  Reports only; exits 0 even when things are missing. */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pmu/pmu.h"
#include "run/results.h"
#include "pmu/trace_events.h"
#include "trace/trace.h"

static int n_fix;
static cJSON *json_checks;   /* --json: the checks go here instead of stdout */

static void line(const char *status, const char *what, const char *value, const char *advice)
{
    if (!strcmp(status, "FIX")) n_fix++;
    if (json_checks) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "status", status);
        cJSON_AddStringToObject(c, "check", what);
        cJSON_AddStringToObject(c, "value", value);
        if (advice && *advice)
            cJSON_AddStringToObject(c, "advice", advice);
        else
            cJSON_AddNullToObject(c, "advice");
        cJSON_AddItemToArray(json_checks, c);
        return;
    }
    printf("  [%-4s] %-20s %s", status, what, value);
    if (advice && *advice) printf("\n         %-20s -> %s", "", advice);
    printf("\n");
}

/* muxprof trace: built, and allowed to this process. */
static void check_trace(void)
{
    char why[512];
    if (!mp_trace_available(why, sizeof why)) {
        line("INFO", "trace", "not built", why);
        return;
    }
    if (!mp_pmu_trace_allowed(why, sizeof why)) {
        line("INFO", "trace", "built; not allowed to this process", why);
        return;
    }
    line("OK", "trace", "built; CAP_BPF and CAP_PERFMON held (muxprof trace)", NULL);
}

static int read_str(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (!fgets(buf, (int)n, f)) buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int cpuinfo(const char *key, char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char l[1024];
    size_t kl = strlen(key);
    if (!f) return -1;
    while (fgets(l, sizeof l, f)) {
        char *c = strchr(l, ':');
        if (!strncmp(l, key, kl) && c && (l[kl] == '\t' || l[kl] == ' ' || l[kl] == ':')) {
            c++;
            while (*c == ' ') c++;
            c[strcspn(c, "\n")] = '\0';
            snprintf(out, n, "%s", c);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    return -1;
}

static void check_pmus(const mp_pmu_host *h)
{
    char list[1024] = "", v[256], name[64];
    unsigned gen = 0, fix = 0;
    DIR *d = opendir("/sys/bus/event_source/devices");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[512], type[32] = "?";
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/type", e->d_name);
        read_str(path, type, sizeof type);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s(%s)",
                 list[0] ? " " : "", e->d_name, type);
    }
    if (d) closedir(d);
    if (h->core_pmu) {
        snprintf(v, sizeof v, "CPU PMU '%s' present; all: %s", h->core_pmu_name, list);
        line("OK", "PMUs", v, NULL);
    } else {
        snprintf(v, sizeof v, "no CPU PMU; present: %s", list[0] ? list : "none");
        line("FIX", "PMUs", v, h->hypervisor
             ? "a VM without a virtual PMU: hardware counters are unavailable, software "
               "counts still work; enable the vPMU (KVM/QEMU: -cpu host,pmu=on; VMware: "
               "'virtualize CPU performance counters'; cloud: a bare-metal or PMU-enabled "
               "instance type)"
             : "the kernel registered no CPU PMU: check CONFIG_PERF_EVENTS and the CPU's "
               "PMU driver (dmesg | grep -i perf)");
    }
    if (mp_pmu_libpfm_core(name, sizeof name, &gen, &fix) == 0) {
        snprintf(v, sizeof v, "%s (%u general, %u fixed counters)%s", name, gen, fix,
                 getenv("LIBPFM_FORCE_PMU") ? " [forced by LIBPFM_FORCE_PMU]" : "");
        line("OK", "libpfm4 core PMU", v, NULL);
    } else {
        line("INFO", "libpfm4 core PMU", "none detected", "presets fall back to perf's "
             "generic events (pmu/presets/generic.txt)");
    }
}

static void check_cpu(void)
{
    char model[256] = "", vendor[64] = "", fam[32] = "", mod[32] = "", part[32] = "";
    char v[512];
    cpuinfo("model name", model, sizeof model);
    cpuinfo("vendor_id", vendor, sizeof vendor);
    cpuinfo("cpu family", fam, sizeof fam);
    cpuinfo("model\t", mod, sizeof mod);
    if (cpuinfo("CPU part", part, sizeof part) == 0) {
        char impl[32] = "";
        cpuinfo("CPU implementer", impl, sizeof impl);
        snprintf(v, sizeof v, "Arm implementer %s part %s", impl, part);
    } else {
        snprintf(v, sizeof v, "%s (%s family %s model %s), %ld CPUs online",
                 model[0] ? model : "unknown", vendor, fam, mod[0] ? mod : "?",
                 sysconf(_SC_NPROCESSORS_ONLN));
    }
    line("OK", "CPU model", v, NULL);
}

/* Kernel counting and who grants it: the perf-security guide's group setup,
 * the sysctl on a single-user host, or root; never a capability on a binary
 * every user may run. */
static void check_perm(const mp_pmu_host *h)
{
    char v[640];
    mp_pmu_setup s;
    mp_pmu_verdict vd;
    mp_pmu_setup_probe(&s, NULL);
    mp_pmu_setup_judge(&s, &vd);
    snprintf(v, sizeof v, "%d (%s)", h->paranoid, h->paranoid <= -1 ? "no restriction"
             : h->paranoid == 0 ? "kernel and CPU-wide counting for every user"
             : h->paranoid == 1 ? "kernel counting for every user"
             : h->paranoid == 2 ? "user-only without a capability"
             : "no unprivileged perf_event_open (Debian/Ubuntu level)");
    line(mp_pmu_kernel_allowed(h) ? "OK" : "INFO", "perf_event_paranoid", v, NULL);
    snprintf(v, sizeof v, "uid %ld; CAP_PERFMON %s, CAP_SYS_ADMIN %s", s.euid,
             s.eff_perfmon ? "yes" : "no", s.eff_sys_admin ? "yes" : "no");
    line(s.eff_perfmon || s.eff_sys_admin ? "OK" : "INFO", "capabilities", v, NULL);
    snprintf(v, sizeof v, "%s: %s", vd.setup, vd.what);
    line(vd.status, "privilege setup", v, vd.advice);
}

/* CPU-wide counting, tried on an uncore event of this host when it has
 * one: the line names the event opened, or why none was. */
static void check_cpu_wide(const mp_pmu_host *h)
{
    char spec[160], why[512], v[1024];
    int rc = mp_pmu_cpu_wide_sample(spec, sizeof spec);
    int allowed = mp_pmu_cpu_wide_allowed(h, why, sizeof why);
    const char *may = allowed ? "allowed for this process" : "not allowed for this process";
    if (rc == -ENOENT) {
        snprintf(v, sizeof v, "no uncore PMU on this host (none in /sys/bus/event_source/"
                 "devices has a cpumask): not checked; by privilege %s", may);
        line("INFO", "CPU-wide counting", v, NULL);
        return;
    }
    if (rc == -ENODATA) {
        snprintf(v, sizeof v, "uncore PMU %s lists no event in sysfs: not checked; by "
                 "privilege %s", spec, may);
        line("INFO", "CPU-wide counting", v, NULL);
        return;
    }
    if (!allowed) {
        snprintf(v, sizeof v, "%s not tried: CPU-wide counting is %s", spec, may);
        line("INFO", "CPU-wide counting", v, why);
        return;
    }
    mp_pmu_plan *pl;
    mp_err err;
    if (mp_pmu_plan_new(&pl, spec, &err)) {
        snprintf(v, sizeof v, "%s could not be planned: %s", spec, err.msg);
        line("INFO", "CPU-wide counting", v, NULL);
        return;
    }
    mp_pmu_plan_info info;
    mp_pmu_plan_describe(pl, &info);
    for (unsigned i = 0; i < info.nevents; i++) {
        mp_pmu_event_info ev;
        mp_pmu_plan_event(pl, i, &ev);
        if (strcmp(ev.name, spec))
            continue;
        if (ev.opened && !ev.cpu_wide) {
            snprintf(v, sizeof v, "%s opened per thread, not CPU-wide: CPU-wide counting not "
                     "checked", spec);
            line("INFO", "CPU-wide counting", v, NULL);
        } else if (ev.opened) {
            snprintf(v, sizeof v, "%s opened CPU-wide (pid -1, on a CPU of its cpumask); "
                     "its counts are %s", spec, ev.cpu_scope);
            line("OK", "CPU-wide counting", v, NULL);
        } else {
            snprintf(v, sizeof v, "%s did not open CPU-wide", spec);
            line("INFO", "CPU-wide counting", v, ev.reason);
        }
    }
    mp_pmu_plan_free(pl);
}

static void check_user_read(const mp_pmu_host *h)
{
#if defined(__x86_64__) || defined(__i386__)
    char v[128];
    if (h->rdpmc_sysfs < 0)
        line("INFO", "rdpmc (sysfs)", "no /sys/bus/event_source/devices/cpu/rdpmc (no CPU "
             "PMU)", "counters would be read with read(); nothing to change until a PMU exists");
    else if (h->rdpmc_sysfs == 0)
        line("FIX", "rdpmc (sysfs)", "0: user-space rdpmc disabled, reads cost a syscall",
             "echo 1 > /sys/bus/event_source/devices/cpu/rdpmc");
    else {
        snprintf(v, sizeof v, "%d: rdpmc allowed for processes with open events",
                 h->rdpmc_sysfs);
        line("OK", "rdpmc (sysfs)", v, NULL);
    }
    line("INFO", "perf_user_access", "n/a on x86 (arm64 only)", NULL);
#else
    line("INFO", "rdpmc (sysfs)", "n/a (x86 only)", NULL);
    if (h->perf_user_access < 0)
        line("INFO", "perf_user_access", "no kernel.perf_user_access (kernel < 5.17?)",
             "counters are read with read()");
    else if (h->perf_user_access == 0)
        line("FIX", "perf_user_access", "0: user-space PMEVCNTR reads disabled",
             "sysctl -w kernel.perf_user_access=1 (reads via mrs instead of read())");
    else
        line("OK", "perf_user_access", "1: user-space counter reads (mrs) allowed", NULL);
#endif
}

static void check_misc(const mp_pmu_host *h)
{
    char v[256], gov[64] = "", smt[32] = "", ctl[32] = "";
    struct rlimit rl;
    long nr_open = -1;
    if (h->nmi_watchdog)
        line("FIX", "NMI watchdog", "on: holds one hardware counter",
             "sysctl -w kernel.nmi_watchdog=0 (frees a counter; fewer passes)");
    else
        line("OK", "NMI watchdog", "off", NULL);
    line(h->hypervisor ? "INFO" : "OK", "hypervisor flag", h->hypervisor ? "yes (a VM)" : "no",
         h->hypervisor ? "timings include virtualisation effects (exits, steal time); "
                         "compare with bare-metal runs" : NULL);
    if (read_str("/proc/sys/fs/nr_open", v, sizeof v) == 0) nr_open = atol(v);
    getrlimit(RLIMIT_NOFILE, &rl);
    snprintf(v, sizeof v, "soft %llu, hard %llu, fs.nr_open %ld",
             (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max, nr_open);
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 10240)
        line("FIX", "RLIMIT_NOFILE", v, "the default sweep watches up to 10000 fds in one "
             "process (peers live in a helper): raise the hard limit (ulimit -Hn 65536 as root, or "
             "/etc/security/limits.conf), within fs.nr_open");
    else if (rl.rlim_cur < 10240)
        line("OK", "RLIMIT_NOFILE", v, "soft limit below 10240: raise it with ulimit -n "
             "(the hard limit allows it)");
    else
        line("OK", "RLIMIT_NOFILE", v, NULL);
    if (read_str("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", gov, sizeof gov) != 0)
        line("INFO", "CPU governor", "no cpufreq (a VM or a fixed-frequency host)",
             "nothing to set; times may still vary with host frequency");
    else if (!strcmp(gov, "performance"))
        line("OK", "CPU governor", gov, NULL);
    else
        line("FIX", "CPU governor", gov, "cpupower frequency-set -g performance (steadier "
             "per-call times)");
    read_str("/sys/devices/system/cpu/smt/active", smt, sizeof smt);
    read_str("/sys/devices/system/cpu/smt/control", ctl, sizeof ctl);
    snprintf(v, sizeof v, "active %s, control %s", smt[0] ? smt : "?", ctl[0] ? ctl : "?");
    if (!strcmp(smt, "1"))
        line("INFO", "SMT", v, "a sibling thread shares caches and, on Intel before Ice "
             "Lake, halves the counters: pin the sibling idle or echo off > "
             "/sys/devices/system/cpu/smt/control");
    else
        line("OK", "SMT", v, NULL);
}

static void check_open(void)
{
    mp_pmu_plan *pl;
    mp_err err;
    char v[512];
    if (mp_pmu_plan_new(&pl, "software", &err)) {
        line("FIX", "perf_event_open", err.msg, NULL);
        return;
    }
    if (mp_pmu_plan_passes(pl) == 0) {
        line("FIX", "perf_event_open", "software events did not open", "see 'muxprof events "
             "--events software' for the reason");
    } else {
        snprintf(v, sizeof v, "software events open; scope %s", mp_pmu_plan_scope(pl));
        line(strcmp(mp_pmu_plan_scope(pl), "user+kernel") ? "FIX" : "OK", "perf_event_open",
             v, strcmp(mp_pmu_plan_scope(pl), "user+kernel") ? "kernel work is not counted: "
             "see privilege setup above" : NULL);
    }
    mp_pmu_plan_free(pl);
    if (mp_pmu_plan_new(&pl, "minimal", &err) == 0) {
        cJSON *j = mp_counters_json(pl), *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "events")) {
            const cJSON *n = cJSON_GetObjectItem(e, "name"), *st = cJSON_GetObjectItem(e, "status"),
                        *r = cJSON_GetObjectItem(e, "reason");
            if (strcmp(n->valuestring, "cycles")) continue;
            if (!strcmp(st->valuestring, "opened"))
                line("OK", "hardware counters", "cycles opens", NULL);
            else
                line("FIX", "hardware counters", "cycles does not open",
                     cJSON_IsString(r) ? r->valuestring : NULL);
        }
        cJSON_Delete(j);
        mp_pmu_plan_free(pl);
    }
}

/* What the options set. */
typedef struct doctor_args {
    int json;
} doctor_args;

static const mp_opt opts[] = {
    MP_OPT_BOOL("json", doctor_args, json, "one JSON document on stdout (docs/json-output.md)"),
};

const mp_cli mp_cli_doctor = {
    .name = "doctor", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 11,
    .intro = "usage: muxprof doctor [--json]\n\nChecks what this host offers for "
             "measuring select/poll/epoll with counters\nand says what to change; exits "
             "0 even when something is missing.\n\n",
    .outro = "\n" MP_EXIT_HELP,
    .unknown = "unexpected argument", .see = " (try --help)", .stray = "",
};

int mp_cmd_doctor(int argc, char **argv)
{
    mp_pmu_host h;
    cJSON *doc = NULL;
    doctor_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    if (mp_opt_parse(&mp_cli_doctor, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof doctor: %s\n", err.msg);
        return 2;
    }
    if (p.help) {
        mp_opt_usage(&mp_cli_doctor, stdout);
        return 0;
    }
    if (a.json) {
        doc = mp_json_doc_new("doctor");
        json_checks = cJSON_AddArrayToObject(doc, "checks");
    }
    n_fix = 0;
    mp_pmu_host_probe(&h);
    if (!doc)
        printf("muxprof doctor: [OK] fine, [FIX] worth changing, [INFO] for the record\n");
    check_pmus(&h);
    check_cpu();
    check_perm(&h);
    check_cpu_wide(&h);
    check_open();
    check_user_read(&h);
    check_misc(&h);
    check_trace();
    if (doc) {
        cJSON_AddNumberToObject(doc, "to_fix", n_fix);
        int rc = mp_json_doc_print(doc, stdout);
        json_checks = NULL;
        cJSON_Delete(doc);
        return rc;
    }
    printf("%d item%s to fix.\n", n_fix, n_fix == 1 ? "" : "s");
    return 0;
}
