/* SPDX-License-Identifier: MIT */
/* test_pmu_encode.c - table-driven encoding tests in the style of libpfm4's
 * validate_*.c: for each preset and PMU model (forced with LIBPFM_FORCE_PMU,
 * so they run on any host of the architecture), the preset data file chosen
 * and the perf_event_attr type/config of every event; a failure names the
 * table row's line.  argv[1]: the model, or "files" to check the syntax of every
 * embedded preset data file, or "generic" for perf-style names.
 * Expected configs were cross-checked against the Intel SDM / AMD PPR event
 * codes (e.g. skl L2_RQSTS.MISS 24H/3FH = 0x3f24) and, for Arm, the Arm ARM
 * common event numbers (e.g. L2D_CACHE_REFILL 0x17, raw type 4).  Arm models
 * are forced only in an arm64 build (x86 ones only in an x86 build);
 * arm_cortex_a7x has no libpfm4 model and checks its data file's lines.
 * The AMD models run against the fake sysfs tree tests/fixtures/sysfs_amd
 * (MUXPROF_SYSFS_PMUS), whose amd_l3 PMU has type 11: the L3 rows are the
 * event/umask of perf's amdzen2/3/4 L3 events (AMD PPR L3PMCx04, x06). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_pmu_util.h"

typedef struct row {
    int line;
    const char *model, *file, *preset, *metric;
    int type;               /* -1: listed in the preset as unavailable */
    unsigned long long config;
} row;

static const row rows[] = {
    {__LINE__, "skl", "intel_skl", "cache", "cycles", 0, 0x0},
    {__LINE__, "skl", "intel_skl", "cache", "instructions", 0, 0x1},
    {__LINE__, "skl", "intel_skl", "cache", "L1-dcache-load-misses", 3, 0x10000},
    {__LINE__, "skl", "intel_skl", "cache", "L2-misses", 4, 0x3f24},
    {__LINE__, "skl", "intel_skl", "cache", "L2-requests", 4, 0xff24},
    {__LINE__, "skl", "intel_skl", "cache", "LLC-loads", 4, 0x4f2e},
    {__LINE__, "skl", "intel_skl", "cache", "LLC-load-misses", 4, 0x412e},
    {__LINE__, "skl", "intel_skl", "cache", "dTLB-load-misses", 4, 0xe08},
    {__LINE__, "skl", "intel_skl", "tlb", "cycles", 0, 0x0},
    {__LINE__, "skl", "intel_skl", "tlb", "instructions", 0, 0x1},
    {__LINE__, "skl", "intel_skl", "tlb", "dTLB-load-misses", 4, 0xe08},
    {__LINE__, "skl", "intel_skl", "tlb", "dTLB-stlb-hits", 4, 0x2008},
    {__LINE__, "skl", "intel_skl", "tlb", "dTLB-walk-cycles", 4, 0x1001008},
    {__LINE__, "skl", "intel_skl", "tlb", "iTLB-load-misses", 4, 0xe85},
    {__LINE__, "skl", "intel_skl", "minimal", "cycles", 0, 0x0},
    {__LINE__, "skl", "intel_skl", "minimal", "instructions", 0, 0x1},
    {__LINE__, "icl", "intel_icl", "cache", "cycles", 0, 0x0},
    {__LINE__, "icl", "intel_icl", "cache", "instructions", 0, 0x1},
    {__LINE__, "icl", "intel_icl", "cache", "L1-dcache-load-misses", 3, 0x10000},
    {__LINE__, "icl", "intel_icl", "cache", "L2-misses", 4, 0x2724},
    {__LINE__, "icl", "intel_icl", "cache", "L2-requests", 4, 0xe724},
    {__LINE__, "icl", "intel_icl", "cache", "LLC-loads", 4, 0x4f2e},
    {__LINE__, "icl", "intel_icl", "cache", "LLC-load-misses", 4, 0x412e},
    {__LINE__, "icl", "intel_icl", "cache", "dTLB-load-misses", 4, 0xe08},
    {__LINE__, "icl", "intel_icl", "tlb", "cycles", 0, 0x0},
    {__LINE__, "icl", "intel_icl", "tlb", "instructions", 0, 0x1},
    {__LINE__, "icl", "intel_icl", "tlb", "dTLB-load-misses", 4, 0xe08},
    {__LINE__, "icl", "intel_icl", "tlb", "dTLB-stlb-hits", 4, 0x2008},
    {__LINE__, "icl", "intel_icl", "tlb", "dTLB-walk-cycles", 4, 0x1001008},
    {__LINE__, "icl", "intel_icl", "tlb", "iTLB-load-misses", 4, 0xe85},
    {__LINE__, "icl", "intel_icl", "minimal", "cycles", 0, 0x0},
    {__LINE__, "icl", "intel_icl", "minimal", "instructions", 0, 0x1},
    {__LINE__, "spr", "intel_spr", "cache", "cycles", 0, 0x0},
    {__LINE__, "spr", "intel_spr", "cache", "instructions", 0, 0x1},
    {__LINE__, "spr", "intel_spr", "cache", "L1-dcache-load-misses", 3, 0x10000},
    {__LINE__, "spr", "intel_spr", "cache", "L2-misses", 4, 0x2724},
    {__LINE__, "spr", "intel_spr", "cache", "L2-requests", 4, 0xe724},
    {__LINE__, "spr", "intel_spr", "cache", "LLC-loads", 4, 0x4f2e},
    {__LINE__, "spr", "intel_spr", "cache", "LLC-load-misses", 4, 0x412e},
    {__LINE__, "spr", "intel_spr", "cache", "dTLB-load-misses", 4, 0xe12},
    {__LINE__, "spr", "intel_spr", "tlb", "cycles", 0, 0x0},
    {__LINE__, "spr", "intel_spr", "tlb", "instructions", 0, 0x1},
    {__LINE__, "spr", "intel_spr", "tlb", "dTLB-load-misses", 4, 0xe12},
    {__LINE__, "spr", "intel_spr", "tlb", "dTLB-stlb-hits", 4, 0x2012},
    {__LINE__, "spr", "intel_spr", "tlb", "dTLB-walk-cycles", 4, 0x1001012},
    {__LINE__, "spr", "intel_spr", "tlb", "iTLB-load-misses", 4, 0xe11},
    {__LINE__, "spr", "intel_spr", "minimal", "cycles", 0, 0x0},
    {__LINE__, "spr", "intel_spr", "minimal", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "L1-dcache-load-misses", 3, 0x10000},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "L2-misses", 4, 0x864},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "L2-requests", 4, 0xfe60},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "LLC-loads", -1, 0},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "LLC-load-misses", -1, 0},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "L3-accesses", 11, 0xff04},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "L3-misses", 11, 0x106},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "cache", "dTLB-load-misses", 4, 0xf045},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "tlb", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "tlb", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "tlb", "dTLB-load-misses", 4, 0xf045},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "tlb", "dTLB-l2-hits", 4, 0xf45},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "tlb", "iTLB-load-misses", 3, 0x10004},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "minimal", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam17h_zen2", "amd_zen2", "minimal", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "L1-dcache-load-misses", 3, 0x10000},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "L2-misses", 4, 0x864},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "L2-requests", 4, 0xfe60},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "LLC-loads", -1, 0},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "LLC-load-misses", -1, 0},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "L3-accesses", 11, 0xff04},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "L3-misses", 11, 0x104},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "cache", "dTLB-load-misses", 4, 0xf045},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "tlb", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "tlb", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "tlb", "dTLB-load-misses", 4, 0xf045},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "tlb", "dTLB-l2-hits", 4, 0xf45},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "tlb", "iTLB-load-misses", 3, 0x10004},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "minimal", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam19h_zen3", "amd_zen3", "minimal", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "L1-dcache-load-misses", 3, 0x10000},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "L2-misses", 4, 0x864},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "L2-requests", 4, 0xfe60},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "LLC-loads", -1, 0},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "LLC-load-misses", -1, 0},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "L3-accesses", 11, 0xff04},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "L3-misses", 11, 0x104},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "cache", "dTLB-load-misses", 4, 0xf045},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "tlb", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "tlb", "instructions", 0, 0x1},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "tlb", "dTLB-load-misses", 4, 0xf045},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "tlb", "dTLB-l2-hits", 4, 0xf45},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "tlb", "iTLB-load-misses", 3, 0x10004},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "minimal", "cycles", 0, 0x0},
    {__LINE__, "amd64_fam19h_zen4", "amd_zen4", "minimal", "instructions", 0, 0x1},
    /* Arm (arm64 builds of libpfm4): architectural common event numbers of the
     * Arm ARM (DDI 0487) "PMU events", checked against libpfm4 4.13
     * lib/events/arm_neoverse_{n1,n2,v1,v2}_events.h as the arm64 build encodes them. */
    {__LINE__, "arm_n1", "arm_n1", "cache", "cycles", 0, 0x0},
    {__LINE__, "arm_n1", "arm_n1", "cache", "instructions", 0, 0x1},
    {__LINE__, "arm_n1", "arm_n1", "cache", "L1-dcache-load-misses", 4, 0x03},
    {__LINE__, "arm_n1", "arm_n1", "cache", "L2-misses", 4, 0x17},
    {__LINE__, "arm_n1", "arm_n1", "cache", "L2-requests", 4, 0x16},
    {__LINE__, "arm_n1", "arm_n1", "cache", "LLC-loads", 4, 0x36},
    {__LINE__, "arm_n1", "arm_n1", "cache", "LLC-load-misses", 4, 0x37},
    {__LINE__, "arm_n1", "arm_n1", "cache", "L3-misses", 4, 0x2a},
    {__LINE__, "arm_n1", "arm_n1", "cache", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_n1", "arm_n1", "tlb", "cycles", 0, 0x0},
    {__LINE__, "arm_n1", "arm_n1", "tlb", "instructions", 0, 0x1},
    {__LINE__, "arm_n1", "arm_n1", "tlb", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_n1", "arm_n1", "tlb", "L1-dTLB-refills", 4, 0x05},
    {__LINE__, "arm_n1", "arm_n1", "tlb", "L2-TLB-refills", 4, 0x2d},
    {__LINE__, "arm_n1", "arm_n1", "minimal", "cycles", 0, 0x0},
    {__LINE__, "arm_n1", "arm_n1", "minimal", "instructions", 0, 0x1},
    {__LINE__, "arm_n2", "arm_n2", "cache", "cycles", 0, 0x0},
    {__LINE__, "arm_n2", "arm_n2", "cache", "instructions", 0, 0x1},
    {__LINE__, "arm_n2", "arm_n2", "cache", "L1-dcache-load-misses", 4, 0x03},
    {__LINE__, "arm_n2", "arm_n2", "cache", "L2-misses", 4, 0x17},
    {__LINE__, "arm_n2", "arm_n2", "cache", "L2-requests", 4, 0x16},
    {__LINE__, "arm_n2", "arm_n2", "cache", "LLC-loads", 4, 0x36},
    {__LINE__, "arm_n2", "arm_n2", "cache", "LLC-load-misses", 4, 0x37},
    {__LINE__, "arm_n2", "arm_n2", "cache", "L3-misses", -1, 0},
    {__LINE__, "arm_n2", "arm_n2", "cache", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_n2", "arm_n2", "tlb", "cycles", 0, 0x0},
    {__LINE__, "arm_n2", "arm_n2", "tlb", "instructions", 0, 0x1},
    {__LINE__, "arm_n2", "arm_n2", "tlb", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_n2", "arm_n2", "tlb", "L1-dTLB-refills", 4, 0x05},
    {__LINE__, "arm_n2", "arm_n2", "tlb", "L2-TLB-refills", 4, 0x2d},
    {__LINE__, "arm_n2", "arm_n2", "minimal", "cycles", 0, 0x0},
    {__LINE__, "arm_n2", "arm_n2", "minimal", "instructions", 0, 0x1},
    {__LINE__, "arm_v1", "arm_v1", "cache", "cycles", 0, 0x0},
    {__LINE__, "arm_v1", "arm_v1", "cache", "instructions", 0, 0x1},
    {__LINE__, "arm_v1", "arm_v1", "cache", "L1-dcache-load-misses", 4, 0x03},
    {__LINE__, "arm_v1", "arm_v1", "cache", "L2-misses", 4, 0x17},
    {__LINE__, "arm_v1", "arm_v1", "cache", "L2-requests", 4, 0x16},
    {__LINE__, "arm_v1", "arm_v1", "cache", "LLC-loads", 4, 0x36},
    {__LINE__, "arm_v1", "arm_v1", "cache", "LLC-load-misses", 4, 0x37},
    {__LINE__, "arm_v1", "arm_v1", "cache", "L3-misses", -1, 0},
    {__LINE__, "arm_v1", "arm_v1", "cache", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_v1", "arm_v1", "tlb", "cycles", 0, 0x0},
    {__LINE__, "arm_v1", "arm_v1", "tlb", "instructions", 0, 0x1},
    {__LINE__, "arm_v1", "arm_v1", "tlb", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_v1", "arm_v1", "tlb", "L1-dTLB-refills", 4, 0x05},
    {__LINE__, "arm_v1", "arm_v1", "tlb", "L2-TLB-refills", 4, 0x2d},
    {__LINE__, "arm_v1", "arm_v1", "minimal", "cycles", 0, 0x0},
    {__LINE__, "arm_v1", "arm_v1", "minimal", "instructions", 0, 0x1},
    {__LINE__, "arm_v2", "arm_v2", "cache", "cycles", 0, 0x0},
    {__LINE__, "arm_v2", "arm_v2", "cache", "instructions", 0, 0x1},
    {__LINE__, "arm_v2", "arm_v2", "cache", "L1-dcache-load-misses", 4, 0x03},
    {__LINE__, "arm_v2", "arm_v2", "cache", "L2-misses", 4, 0x17},
    {__LINE__, "arm_v2", "arm_v2", "cache", "L2-requests", 4, 0x16},
    {__LINE__, "arm_v2", "arm_v2", "cache", "LLC-loads", 4, 0x36},
    {__LINE__, "arm_v2", "arm_v2", "cache", "LLC-load-misses", 4, 0x37},
    {__LINE__, "arm_v2", "arm_v2", "cache", "L3-misses", 4, 0x2a},
    {__LINE__, "arm_v2", "arm_v2", "cache", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_v2", "arm_v2", "tlb", "cycles", 0, 0x0},
    {__LINE__, "arm_v2", "arm_v2", "tlb", "instructions", 0, 0x1},
    {__LINE__, "arm_v2", "arm_v2", "tlb", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_v2", "arm_v2", "tlb", "L1-dTLB-refills", 4, 0x05},
    {__LINE__, "arm_v2", "arm_v2", "tlb", "L2-TLB-refills", 4, 0x2d},
    {__LINE__, "arm_v2", "arm_v2", "minimal", "cycles", 0, 0x0},
    {__LINE__, "arm_v2", "arm_v2", "minimal", "instructions", 0, 0x1},
    /* Not a libpfm4 model (4.13 has no Cortex-A7x tables; the file is chosen by
     * MIDR part): raw rNN events, checked against the file's own lines. */
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "cycles", 0, 0x0},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "instructions", 0, 0x1},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "L1-dcache-load-misses", 4, 0x03},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "L2-misses", 4, 0x17},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "L2-requests", 4, 0x16},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "LLC-loads", 4, 0x36},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "LLC-load-misses", 4, 0x37},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "cache", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "tlb", "cycles", 0, 0x0},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "tlb", "instructions", 0, 0x1},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "tlb", "dTLB-load-misses", 4, 0x34},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "tlb", "L1-dTLB-refills", 4, 0x05},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "tlb", "L2-TLB-refills", 4, 0x2d},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "minimal", "cycles", 0, 0x0},
    {__LINE__, "arm_cortex_a7x", "arm_cortex_a7x", "minimal", "instructions", 0, 0x1},
};

static const char *model;

/* Compare one table row with the event the plan (or the data file) gave. */
static int check_row(const row *r, const char *file, const mp__event *ev)
{
    if (strcmp(file, r->file)) {
        print_error("%s:%d: %s: preset file %s, want %s\n", __FILE__, r->line, model, file,
                    r->file);
        return 1;
    }
    if (!ev) {
        print_error("%s:%d: %s %s: no metric %s in the plan\n", __FILE__, r->line, model,
                    r->preset, r->metric);
        return 1;
    }
    if (r->type < 0) {
        if (strcmp(ev->spec, "-") || ev->available || !ev->reason[0]) {
            print_error("%s:%d: %s %s %s: want listed unavailable with a reason\n", __FILE__,
                        r->line, model, r->preset, r->metric);
            return 1;
        }
        return 0;
    }
    if ((int)ev->attr.type != r->type || ev->attr.config != r->config) {
        print_error("%s:%d: %s %s %s (%s): type %u config 0x%llx, want type %d "
                    "config 0x%llx\n", __FILE__, r->line, model, r->preset, r->metric,
                    ev->spec, ev->attr.type, (unsigned long long)ev->attr.config, r->type,
                    r->config);
        return 1;
    }
    return 0;
}

static void encodings(void **state)
{
    static const char *presets[] = {"cache", "tlb", "minimal"};
    int failures = 0, checked = 0;
    (void)state;
    for (size_t p = 0; p < 3; p++) {
        mp_pmu_plan *pl;
        mp_err err;
        unsigned covered = 0;
        if (mp_pmu_plan_new(&pl, presets[p], &err))
            fail_msg("%s/%s: plan failed: %s", model, presets[p], err.msg);
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            const row *r = &rows[i];
            if (strcmp(r->model, model) || strcmp(r->preset, presets[p])) continue;
            checked++;
            covered++;
            failures += check_row(r, pl->model, tp_find(pl, r->metric));
        }
        /* Every non-software event of the preset must have a row. */
        for (unsigned i = 0; i < pl->nev; i++)
            if (pl->ev[i].attr.type != 1 || !strcmp(pl->ev[i].spec, "-")) covered--;
        if (covered != 0) {
            print_error("%s: %s %s: the table and the preset differ in length\n", __FILE__,
                        model, presets[p]);
            failures++;
        }
        mp_pmu_plan_free(pl);
    }
    if (checked == 0) fail_msg("no table rows for model %s", model);
    assert_int_equal(failures, 0);
}

/* A data file chosen by the host's MIDR part ("match arm-part"), which no
 * LIBPFM_FORCE_PMU can select: encode its lines directly (raw rNN and perf
 * names, the same on every host) and check them against the rows. */
static void file_encodings(void **state)
{
    static const char *presets[] = {"cache", "tlb", "minimal"};
    const char *text = NULL;
    char fname[64];
    int failures = 0, checked = 0;
    (void)state;
    snprintf(fname, sizeof fname, "%s.txt", model);
    for (unsigned i = 0; i < mp_pmu_preset_file_count(); i++)
        if (!strcmp(mp_pmu_preset_file_name(i), fname)) text = mp_pmu_preset_file_text(i);
    if (!text) fail_msg("no embedded preset file %s", fname);
    for (size_t p = 0; p < 3; p++) {
        char want[32];
        const char *t = text;
        int in = 0;
        unsigned lines = 0, covered = 0, nrows = 0;
        snprintf(want, sizeof want, "[%s]", presets[p]);
        while (*t) {
            char line[512], *s, *rest;
            size_t l = strcspn(t, "\n");
            mp__event ev;
            mp_err err;
            snprintf(line, sizeof line, "%.*s", (int)l, t);
            t += l + (t[l] == '\n');
            s = line;
            while (*s == ' ') s++;
            if (*s == '[') { in = !strcmp(s, want); continue; }
            if (!in || !*s || *s == '#') continue;
            rest = s + strcspn(s, " \t");
            if (*rest) *rest++ = '\0';
            while (*rest == ' ' || *rest == '\t') rest++;
            lines++;
            memset(&ev, 0, sizeof ev);
            if (*rest == '-') {
                snprintf(ev.spec, sizeof ev.spec, "-");
                snprintf(ev.reason, sizeof ev.reason, "%s", rest + 1);
            } else if (mp__encode(&ev, rest, &err)) {
                print_error("pmu/presets/%s: %s %s: %s\n", fname, presets[p], s, err.msg);
                failures++;
                continue;
            }
            for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
                const row *r = &rows[i];
                if (strcmp(r->model, model) || strcmp(r->preset, presets[p]) ||
                    strcmp(r->metric, s))
                    continue;
                checked++;
                covered++;
                failures += check_row(r, model, &ev);
            }
        }
        /* Each line has its row, and each row its line. */
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (!strcmp(rows[i].model, model) && !strcmp(rows[i].preset, presets[p])) nrows++;
        if (lines == 0 || covered != lines || nrows != lines) {
            print_error("%s: %s %s: the table (%u rows) and the preset (%u lines) differ\n",
                        __FILE__, model, presets[p], nrows, lines);
            failures++;
        }
    }
    if (checked == 0) fail_msg("no table rows for model %s", model);
    assert_int_equal(failures, 0);
}

/* perf-style names: the same encoding on every host. */
static const struct grow {
    int line;
    const char *name;
    unsigned type;
    unsigned long long config;
    int excl_user, excl_kernel;
} grows[] = {
    {__LINE__, "cycles", 0, 0x0, 0, 0},
    {__LINE__, "cpu-cycles:u", 0, 0x0, 0, 1},
    {__LINE__, "instructions:k", 0, 0x1, 1, 0},
    {__LINE__, "instructions:uk", 0, 0x1, 0, 0},
    {__LINE__, "ref-cycles", 0, 0x9, 0, 0},
    {__LINE__, "L1-dcache-load-misses", 3, 0x10000, 0, 0},
    {__LINE__, "L1-dcache-loads", 3, 0x0, 0, 0},
    {__LINE__, "L1-icache-load-misses", 3, 0x10001, 0, 0},
    {__LINE__, "LLC-loads", 3, 0x2, 0, 0},
    {__LINE__, "LLC-load-misses", 3, 0x10002, 0, 0},
    {__LINE__, "LLC-store-misses", 3, 0x10102, 0, 0},
    {__LINE__, "dTLB-load-misses", 3, 0x10003, 0, 0},
    {__LINE__, "iTLB-load-misses", 3, 0x10004, 0, 0},
    {__LINE__, "branch-load-misses", 3, 0x10005, 0, 0},
    {__LINE__, "task-clock", 1, 0x1, 0, 0},
    {__LINE__, "context-switches", 1, 0x3, 0, 0},
    {__LINE__, "cpu-migrations", 1, 0x4, 0, 0},
    {__LINE__, "page-faults", 1, 0x2, 0, 0},
    {__LINE__, "major-faults", 1, 0x6, 0, 0},
    {__LINE__, "r412e", 4, 0x412e, 0, 0},
    {__LINE__, "r1a:u", 4, 0x1a, 0, 1},
};

static void generic_names(void **state)
{
    int failures = 0;
    (void)state;
    for (size_t i = 0; i < sizeof grows / sizeof grows[0]; i++) {
        const struct grow *g = &grows[i];
        mp_pmu_plan *pl;
        mp_err err;
        const mp__event *ev;
        if (mp_pmu_plan_new(&pl, g->name, &err)) {
            print_error("%s:%d: %s: %s\n", __FILE__, g->line, g->name, err.msg);
            failures++;
            continue;
        }
        ev = tp_find(pl, g->name);
        if (!ev || ev->attr.type != g->type || ev->attr.config != g->config ||
            ev->attr.exclude_user != (unsigned)g->excl_user ||
            (g->excl_kernel && !ev->attr.exclude_kernel) ||
            (!g->excl_kernel && pl->kernel && ev->attr.exclude_kernel)) {
            print_error("%s:%d: %s: type %u config 0x%llx eu %u ek %u, want type %u "
                        "config 0x%llx eu %d ek %d\n", __FILE__, g->line, g->name,
                        ev ? ev->attr.type : 0, ev ? (unsigned long long)ev->attr.config : 0,
                        ev ? (unsigned)ev->attr.exclude_user : 0,
                        ev ? (unsigned)ev->attr.exclude_kernel : 0, g->type, g->config,
                        g->excl_user, g->excl_kernel);
            failures++;
        }
        mp_pmu_plan_free(pl);
    }
    assert_int_equal(failures, 0);
}

/* Every embedded data file: a source header, a match line, a budget, the
 * three sections, and well-formed "metric event" / "metric - reason" lines. */
static void files_syntax(void **state)
{
    int failures = 0;
    (void)state;
    assert_true(mp_pmu_preset_file_count() >= 13);
    for (unsigned i = 0; i < mp_pmu_preset_file_count(); i++) {
        const char *name = mp_pmu_preset_file_name(i), *t = mp_pmu_preset_file_text(i);
        int ln = 0, src = 0, match = 0, budget = 0, sections = 0;
        while (*t) {
            char line[512], *s;
            size_t l = strcspn(t, "\n");
            snprintf(line, sizeof line, "%.*s", (int)l, t);
            t += l + (t[l] == '\n');
            ln++;
            s = line;
            while (*s == ' ') s++;
            if (!strncmp(s, "# source:", 9)) src = 1;
            if (!*s || *s == '#') continue;
            if (!strncmp(s, "match ", 6)) { match = 1; continue; }
            if (!strncmp(s, "budget general=", 15)) { budget = 1; continue; }
            if (!strcmp(s, "[cache]") || !strcmp(s, "[tlb]") || !strcmp(s, "[minimal]")) {
                sections++;
                continue;
            }
            if (!sections || !strpbrk(s, " \t")) {
                print_error("pmu/presets/%s:%d: not 'metric event' or 'metric - reason': "
                            "%s\n", name, ln, s);
                failures++;
            }
        }
        if (!src || !match || !budget || sections != 3) {
            print_error("pmu/presets/%s: source %d match %d budget %d sections %d\n", name,
                        src, match, budget, sections);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest enc[] = {cmocka_unit_test(encodings)};
    const struct CMUnitTest fenc[] = {cmocka_unit_test(file_encodings)};
    const struct CMUnitTest gen[] = {cmocka_unit_test(generic_names)};
    const struct CMUnitTest files[] = {cmocka_unit_test(files_syntax)};
    model = argc > 1 ? argv[1] : "files";
    if (!strcmp(model, "files")) return cmocka_run_group_tests(files, NULL, NULL);
    if (!strcmp(model, "generic")) return cmocka_run_group_tests(gen, NULL, NULL);
    /* No libpfm4 model: the file is matched by MIDR part; runs on any host. */
    if (!strcmp(model, "arm_cortex_a7x")) return cmocka_run_group_tests(fenc, NULL, NULL);
    if (!strncmp(model, "arm_", 4)) {
#if !defined(__aarch64__)
        tp_skip("Arm PMU models can only be forced in an arm64 build of libpfm4");
#endif
    } else {
#if !defined(__x86_64__) && !defined(__i386__)
        tp_skip("x86 PMU models can only be forced in an x86 build of libpfm4");
#endif
    }
    /* Before libpfm4 initialises: the model is chosen from this. */
    setenv("LIBPFM_FORCE_PMU", model, 1);
    return cmocka_run_group_tests(enc, NULL, NULL);
}
