/* SPDX-License-Identifier: MIT */
/* bench_pmu_read.c - what one empty counter read bracket costs, per read
 * path: read(a); read(b); delta, with nothing between, as the sampler does
 * around every measured call.  One "operation" is one bracket (two
 * mp_pmu_pass_read calls and one mp_pmu_pass_delta).  Measured with
 * CLOCK_MONOTONIC around blocks of brackets; prints the median and minimum
 * ns per bracket over the blocks.  Does not measure the measured call, nor
 * the sampler's own clock reads (a clock-only bracket is printed for scale).
 *
 * Cases: clock only; software group (task-clock, context-switches,
 * cpu-migrations, page-faults) via read(); msr/tsc/ via read() where the
 * msr PMU exists; "minimal" (cycles, instructions) via rdpmc/mrs and via
 * read() (MUXPROF_PMU_READ=read) where a CPU PMU exists.
 *
 * usage: bench_pmu_read [BLOCKS [BRACKETS_PER_BLOCK]]   (default 200 1000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmu/pmu.h"

static unsigned blocks = 200, per_block = 1000;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *name, const char *path, unsigned n, double *per, unsigned drops)
{
    qsort(per, blocks, sizeof *per, cmp_d);
    printf("%-40s %-12s %3u  %9.1f  %9.1f  %u\n", name, path, n, per[blocks / 2], per[0], drops);
}

static void clock_only(double *per)
{
    for (unsigned b = 0; b < blocks; b++) {
        double t0 = now_ns();
        for (unsigned i = 0; i < per_block; i++) {
            volatile double x = now_ns();
            (void)x;
        }
        per[b] = (now_ns() - t0) / per_block;
    }
    report("clock_gettime (one call)", "vdso", 0, per, 0);
}

static void bench_spec(const char *label, const char *spec, const char *force_read, double *per)
{
    mp_pmu_plan *plan;
    mp_err err;
    if (force_read) setenv("MUXPROF_PMU_READ", force_read, 1);
    else unsetenv("MUXPROF_PMU_READ");
    if (mp_pmu_plan_new(&plan, spec, &err)) {
        printf("%-40s skipped: %s\n", label, err.msg);
        return;
    }
    for (unsigned pass = 0; pass < mp_pmu_plan_passes(plan); pass++) {
        mp_pmu_pass *p;
        mp_pmu_snap a, b;
        int64_t d[MP_PMU_MAX_COUNTERS];
        unsigned drops = 0;
        char name[96];
        if (mp_pmu_pass_open(&p, plan, pass, &err)) {
            printf("%-40s skipped: %s\n", label, err.msg);
            continue;
        }
        for (unsigned b0 = 0; b0 < blocks; b0++) {
            double t0 = now_ns();
            for (unsigned i = 0; i < per_block; i++) {
                mp_pmu_pass_read(p, &a);
                mp_pmu_pass_read(p, &b);
                drops += (unsigned)mp_pmu_pass_delta(p, &a, &b, d);
            }
            per[b0] = (now_ns() - t0) / per_block;
        }
        snprintf(name, sizeof name, "%s pass %u", label, pass);
        report(name, mp_pmu_pass_read_path(p), mp_pmu_pass_count(p), per, drops);
        /* What each counter sees of an empty bracket: the sampler's
         * calibration should subtract this from per-call counts. */
        {
            unsigned nc = mp_pmu_pass_count(p), ns = blocks < 1000 ? 1000 : blocks;
            int64_t *all = malloc(sizeof *all * ns * nc);
            unsigned kept = 0;
            if (all) {
                for (unsigned i = 0; i < ns; i++) {
                    mp_pmu_pass_read(p, &a);
                    mp_pmu_pass_read(p, &b);
                    if (mp_pmu_pass_delta(p, &a, &b, all + (size_t)kept * nc) == 0) kept++;
                }
                printf("  %-38s", "empty-bracket delta p50:");
                for (unsigned c = 0; c < nc && kept; c++) {
                    double *v = malloc(sizeof *v * kept);
                    if (!v) break;
                    for (unsigned i = 0; i < kept; i++) v[i] = (double)all[(size_t)i * nc + c];
                    qsort(v, kept, sizeof *v, cmp_d);
                    printf(" %s=%.0f", mp_pmu_pass_name(p, c), v[kept / 2]);
                    free(v);
                }
                printf("\n");
                free(all);
            }
        }
        mp_pmu_pass_close(p);
    }
    if (mp_pmu_plan_passes(plan) == 0) printf("%-40s no pass opened on this host\n", label);
    mp_pmu_plan_free(plan);
    unsetenv("MUXPROF_PMU_READ");
}

int main(int argc, char **argv)
{
    double *per;
    if (argc > 1) blocks = (unsigned)strtoul(argv[1], NULL, 10);
    if (argc > 2) per_block = (unsigned)strtoul(argv[2], NULL, 10);
    if (blocks < 1 || per_block < 1) {
        fprintf(stderr, "usage: bench_pmu_read [BLOCKS [BRACKETS_PER_BLOCK]]\n");
        return 2;
    }
    per = calloc(blocks, sizeof *per);
    if (!per) return 1;
    printf("empty read bracket: 2 x mp_pmu_pass_read + mp_pmu_pass_delta; %u blocks of %u\n",
           blocks, per_block);
    printf("%-40s %-12s %3s  %9s  %9s  %s\n", "case", "read path", "n", "p50 ns", "min ns",
           "refused");
    clock_only(per);
    bench_spec("software group", "software", NULL, per);
    bench_spec("msr/tsc/ (sysfs PMU) + software", "msr/tsc/", NULL, per);
    bench_spec("minimal (user-space read)", "minimal", NULL, per);
    bench_spec("minimal (forced read())", "minimal", "read", per);
    free(per);
    return 0;
}
