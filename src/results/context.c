/* SPDX-License-Identifier: MIT */
/* context.c - the "context" object through the table of its fields; see
 * results/context.h. */
#include "results/context.h"

#include <string.h>

#define ROW(k, type, absent, len, when, unit, doc) \
    {#k, type, absent, offsetof(mp_rcontext, k), len, 0, when, 0, NULL, NULL, unit, doc, 0}
#define TEXT(k, when, doc) ROW(k, MP_RT_TEXT, MP_RT_ALWAYS, sizeof ((mp_rcontext *)0)->k, \
                               when, "", doc)
#define UNAME MP_RT_WHEN(mp_rcontext, has_uname)

static const mp_rtfield rlimit_fields[] = {
    {"soft", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(mp_rlimit_pair, soft), 0, 0, 0, 0, NULL, NULL,
     "fds", "the soft limit", 0},
    {"hard", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(mp_rlimit_pair, hard), 0, 0, 0, 0, NULL, NULL,
     "fds", "the hard limit", 0},
};
static const mp_rtable rlimit_table = {"context.rlimit_nofile", rlimit_fields,
                                       sizeof rlimit_fields / sizeof rlimit_fields[0]};

static const mp_rtfield fields[] = {
    TEXT(host, 0, "host name (--anonymize: a label)"),
    TEXT(arch, UNAME, "uname machine: x86_64, aarch64"),
    TEXT(kernel, UNAME, "uname release"),
    TEXT(kernel_version, UNAME, "uname version"),
    TEXT(cpu_model, 0, "model name (x86) or Arm implementer and part, from /proc/cpuinfo"),
    ROW(nr_cpus, MP_RT_COUNT, MP_RT_ALWAYS, 0, 0, "cpus", "CPUs online"),
    ROW(hypervisor, MP_RT_BOOL, MP_RT_ALWAYS, 0, 0, "", "the CPU flags say hypervisor"),
    ROW(emulated, MP_RT_BOOL, MP_RT_ALWAYS, 0, 0, "",
        "full-system or user-mode emulation (qemu): its counts are the emulator's"),
    {"emulation_seen", MP_RT_TEXT_LIST, MP_RT_ALWAYS, offsetof(mp_rcontext, emulation_seen),
     MP_RCTX_MAX_SEEN, offsetof(mp_rcontext, nemulation_seen), 0, 0, NULL, NULL, "",
     "what gave emulation away, or what was only noted", 0},
    TEXT(governor, 0, "cpufreq governor of cpu0, or unavailable (why)"),
    TEXT(clocksource, 0, "the current clocksource"),
    ROW(perf_event_paranoid, MP_RT_NUMBER, MP_RT_UNAVAILABLE_NAN, 0, 0, "",
        "kernel.perf_event_paranoid"),
    ROW(kptr_restrict, MP_RT_NUMBER, MP_RT_UNAVAILABLE_NAN, 0, 0, "",
        "kernel.kptr_restrict"),
    {"rlimit_nofile", MP_RT_OBJECT, MP_RT_ALWAYS, offsetof(mp_rcontext, rlimit_nofile), 0, 0,
     MP_RT_WHEN(mp_rcontext, has_rlimit), 0, NULL, &rlimit_table, "fds",
     "RLIMIT_NOFILE of the run (raised): {soft, hard}", 0},
    ROW(nr_open, MP_RT_NUMBER, MP_RT_UNAVAILABLE_NAN, 0, 0, "fds",
        "fs.nr_open"),
    ROW(git_describe, MP_RT_STR, MP_RT_ALWAYS, 0, 0, "", "git describe of the build"),
    ROW(compiler, MP_RT_STR, MP_RT_ALWAYS, 0, 0, "", "the compiler's version"),
    ROW(build_type, MP_RT_STR, MP_RT_ALWAYS, 0, 0, "", "CMAKE_BUILD_TYPE"),
    ROW(command, MP_RT_STR, MP_RT_ALWAYS, 0, 0, "", "the command line"),
    ROW(noise, MP_RT_JSON, MP_RT_OMIT_EMPTY, 0, 0, "",
        "what else ran: load, steal, CPU MHz, mitigations, and the host's level measured in "
        "every pass (`canary`, below) (added at the run's end)"),
    ROW(anonymized, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, 0, "",
        "--anonymize outputs only: what was replaced"),
    ROW(simulated, MP_RT_BOOL, MP_RT_OMIT_ZERO, 0, 0, "",
        "sim-import: a model's counts, no times"),
    ROW(label, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, 0, "", "sim-import: simulated (GEOMETRY)"),
    ROW(geometry, MP_RT_JSON, MP_RT_OMIT_EMPTY, 0, 0, "", "sim-import: the modelled caches"),
    ROW(method, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, 0, "", "sim-import: how it was counted"),
    ROW(qemu, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, 0, "", "sim-import: the emulator's version"),
    ROW(guest_kernel, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, 0, "", "sim-import: the guest's kernel"),
    ROW(host_load, MP_RT_JSON, MP_RT_OMIT_EMPTY, 0, 0, "",
        "sim-import: the host's load average at the boot's start and end"),
    ROW(boot_seconds_total, MP_RT_NUMBER, MP_RT_OMIT_NAN, 0, 0, "s",
        "sim-import: how long the guest's boot took"),
};
#undef ROW
#undef TEXT
#undef UNAME

const mp_rtable mp_rcontext_table = {"context", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rcontext_json(const mp_rcontext *c)
{
    return mp_rtable_json(&mp_rcontext_table, c);
}

void mp_rcontext_read(const cJSON *o, mp_rcontext *c)
{
    memset(c, 0, sizeof *c);
    mp_rtable_read(&mp_rcontext_table, o, c);
    c->has_uname = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "arch"));
    c->has_rlimit = cJSON_GetObjectItemCaseSensitive(o, "rlimit_nofile") != NULL;
}
