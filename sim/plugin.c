/* SPDX-License-Identifier: MIT */
/* plugin.c - libmuxsim.so, a QEMU TCG plugin (plugin API version 1, as in
 * Debian's qemu 7.2) that feeds every instruction fetch, load and store of
 * the emulated CPUs to the cache and TLB model (model.h) and counts per
 * call between the markers of `muxprof loop` (marker.h).
 *
 *   -plugin libmuxsim.so,geometry=FILE,out=FILE[,samples=FILE][,totals=FILE][,warmup=N]
 *           [,prefetch=none|l1d|l2|l1d+l2][,cores=N][,scope=all|calls][,times=FILE]
 *           [,functions=FILE]
 *
 * out: per cell (each MP_SIM_MARK_CELL starts one on the core that ran it),
 * event and privilege (user, kernel, all), p10/p50/p90/mean/min/max over
 * the calls after the first `warmup` (10); samples: every call's counts;
 * totals: each core's counts over the whole run (for a check against QEMU's
 * contrib cache plugin in the same run).
 * scope: all (default) models every access of the run; calls models only
 * while a counting window is open on some core (every core's accesses
 * then), so that boot, set-up and tear-down cost a callback each and no
 * model work; the caches then carry over from one call to the next and
 * the warm-up calls fill them.  times: the host's wall clock (seconds from
 * the plugin's start) at each cell's marker, its first begin and its last
 * end, and at exit, with the number of callbacks: where a run's time goes.
 * functions: per cell and data-accessing instruction (its virtual address),
 * the L1d, L2 and LLC-load misses of its accesses in the kept calls (those
 * after the warm-up), for naming the kernel functions that hold them.
 * Caches see physical addresses of data (the softmmu's; the virtual address
 * under qemu-user, which has none) and the host address of instruction
 * bytes, as QEMU's contrib cache plugin does; the TLBs virtual pages.  An
 * instruction is the kernel's when its address has the top bit set. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <qemu-plugin.h>

#include "marker.h"
#include "model.h"
#include "window.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

typedef struct insn {
    uint64_t vaddr, iaddr;
    int kernel;
} insn;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mp_sim *sim;
static mp_sim_geometry geo;
static unsigned ncores;
static size_t warmup = 10;
static char *out_path, *samples_path, *totals_path;
static mp_sim_cell *cells;
static size_t ncells, cells_cap;
static long cur[MP_SIM_CORES_MAX];
static unsigned long long unmatched;   /* end markers without a begin */
static pid_t owner;   /* under qemu-user a forked child runs the plugin too: it writes nothing */
static int scope_calls;         /* scope=calls */
static volatile int nopen;      /* windows open now, over every core */
static char *times_path;
static double t_start;
typedef struct cell_time {
    double marked, first_begin, last_end;
} cell_time;
static cell_time *ctimes;       /* cells_cap entries, beside cells */
static unsigned long long n_fetch, n_mem, n_modelled;

/* functions=: misses by (cell, instruction address), an open-addressing
 * table that doubles at half full. */
typedef struct miss_row {
    uint64_t vaddr;          /* 0: empty */
    uint32_t cell;
    uint64_t l1d, l2, llc;
} miss_row;
static char *functions_path;
static miss_row *mrows;
static size_t mrows_cap, mrows_n;

static size_t mrow_slot(const miss_row *t, size_t cap, uint64_t vaddr, uint32_t cell)
{
    size_t h = (size_t)((vaddr * 0x9e3779b97f4a7c15ull) ^ cell) & (cap - 1);
    while (t[h].vaddr && (t[h].vaddr != vaddr || t[h].cell != cell))
        h = (h + 1) & (cap - 1);
    return h;
}

static miss_row *mrow(uint64_t vaddr, uint32_t cell)
{
    if (2 * (mrows_n + 1) > mrows_cap) {
        size_t cap = mrows_cap ? 2 * mrows_cap : 4096;
        miss_row *t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        for (size_t i = 0; i < mrows_cap; i++)
            if (mrows[i].vaddr)
                t[mrow_slot(t, cap, mrows[i].vaddr, mrows[i].cell)] = mrows[i];
        free(mrows);
        mrows = t, mrows_cap = cap;
    }
    miss_row *r = &mrows[mrow_slot(mrows, mrows_cap, vaddr, cell)];
    if (!r->vaddr) {
        r->vaddr = vaddr, r->cell = cell;
        mrows_n++;
    }
    return r;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - t_start;
}

static void on_fetch(unsigned vcpu, void *u)
{
    insn *i = u;
    n_fetch++;
    if (scope_calls && !nopen)
        return;
    pthread_mutex_lock(&lock);
    n_modelled++;
    mp_sim_fetch(sim, vcpu, i->kernel, i->vaddr, i->iaddr);
    pthread_mutex_unlock(&lock);
}

static void on_mem(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *u)
{
    insn *i = u;
    n_mem++;
    if (scope_calls && !nopen)
        return;
    struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
    if (hw && qemu_plugin_hwaddr_is_io(hw))
        return;
    uint64_t pa = hw ? qemu_plugin_hwaddr_phys_addr(hw) : vaddr;
    pthread_mutex_lock(&lock);
    n_modelled++;
    unsigned core = vcpu % ncores;
    const uint64_t *cnt = mp_sim_counts(sim, core, i->kernel);
    uint64_t d0 = cnt[MP_SIM_L1D_MISS], l20 = cnt[MP_SIM_L2_MISS], ll0 = cnt[MP_SIM_LLC_LOAD_MISS];
    mp_sim_data(sim, vcpu, i->kernel, vaddr, pa, qemu_plugin_mem_is_store(info));
    long c = cur[core];
    if (functions_path && cnt[MP_SIM_L1D_MISS] != d0 && c >= 0 && cells[c].open &&
        cells[c].calls >= warmup) {
        miss_row *r = mrow(i->vaddr, (uint32_t)c);
        if (r) {
            r->l1d += cnt[MP_SIM_L1D_MISS] - d0;
            r->l2 += cnt[MP_SIM_L2_MISS] - l20;
            r->llc += cnt[MP_SIM_LLC_LOAD_MISS] - ll0;
        }
    }
    pthread_mutex_unlock(&lock);
}

static void on_marker(unsigned vcpu, void *u)
{
    unsigned imm = (unsigned)(uintptr_t)u, core = vcpu % ncores;
    pthread_mutex_lock(&lock);
    if (imm == MP_SIM_MARK_CELL) {
        if (ncells == cells_cap) {
            size_t cap = cells_cap ? 2 * cells_cap : 16;
            mp_sim_cell *c = realloc(cells, cap * sizeof *c);
            if (c)
                cells = c;
            cell_time *t = c ? realloc(ctimes, cap * sizeof *t) : NULL;
            if (t)
                ctimes = t, cells_cap = cap;
        }
        if (ncells < cells_cap) {
            if (cur[core] >= 0 && cells[cur[core]].open)
                nopen--;   /* a window the new cell abandons */
            mp_sim_cell_init(&cells[ncells], core);
            ctimes[ncells] = (cell_time){now_s(), -1, -1};
            cur[core] = (long)ncells++;
        }
    } else if (cur[core] >= 0) {
        mp_sim_cell *c = &cells[cur[core]];
        cell_time *t = &ctimes[cur[core]];
        if (imm == MP_SIM_MARK_BEGIN) {
            if (t->first_begin < 0)
                t->first_begin = now_s();
            nopen += !c->open;
            mp_sim_cell_begin(c, sim);
        } else {
            nopen -= c->open;
            if (mp_sim_cell_end(c, sim) < 0)
                unmatched++;
            else
                t->last_end = now_s();
        }
    }
    pthread_mutex_unlock(&lock);
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t k = 0; k < n; k++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, k);
        uint32_t word = 0;
        size_t isz = qemu_plugin_insn_size(qi);
        const unsigned char *bytes = qemu_plugin_insn_data(qi);
        unsigned mark = 0;
        /* arm64: a 4-byte HINT; x86_64: the 7-byte nopl (marker.h).  An arm64
         * instruction is never 7 bytes, so one test serves both guests. */
        if (isz == 4) {
            memcpy(&word, bytes, 4);
            for (unsigned m = MP_SIM_MARK_CELL; m <= MP_SIM_MARK_END; m++)
                if (word == MP_SIM_HINT(m))
                    mark = m;
        } else if (isz == MP_SIM_X86_LEN && bytes[0] == 0x0f && bytes[1] == 0x1f &&
                   bytes[2] == 0x80) {
            word = (uint32_t)bytes[3] | (uint32_t)bytes[4] << 8 | (uint32_t)bytes[5] << 16 |
                   (uint32_t)bytes[6] << 24;
            for (unsigned m = MP_SIM_MARK_CELL; m <= MP_SIM_MARK_END; m++)
                if (word == MP_SIM_X86_DISP(m))
                    mark = m;
        }
        if (mark)
            qemu_plugin_register_vcpu_insn_exec_cb(qi, on_marker, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)mark);
        insn *i = malloc(sizeof *i);
        if (!i)
            continue;
        void *h = qemu_plugin_insn_haddr(qi);
        i->vaddr = qemu_plugin_insn_vaddr(qi);
        i->iaddr = h ? (uint64_t)(uintptr_t)h : i->vaddr;
        i->kernel = (int)(i->vaddr >> 63);
        qemu_plugin_register_vcpu_insn_exec_cb(qi, on_fetch, QEMU_PLUGIN_CB_NO_REGS, i);
        qemu_plugin_register_vcpu_mem_cb(qi, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                         i);
    }
}

static const char *const privs[3] = {"user", "kernel", "all"};

static void write_summary(FILE *f)
{
    fprintf(f, "# muxsim: geometry %s (%s); line %u; L1d %" PRIu64 "x%u, L2 %" PRIu64
            "x%u, L3 %" PRIu64 "x%u %s; dTLB %ux%u, iTLB %ux%u, L2 TLB %ux%u, page %" PRIu64
            "; prefetch %s; cores %u; warmup %zu; unmatched %llu\n",
            geo.name, geo.description, geo.line, geo.l1d.size, geo.l1d.ways, geo.l2.size,
            geo.l2.ways, geo.l3.size, geo.l3.ways,
            geo.l3_policy == MP_SIM_VICTIM ? "victim" : "inclusive", geo.dtlb.entries,
            geo.dtlb.ways, geo.itlb.entries, geo.itlb.ways, geo.l2tlb.entries, geo.l2tlb.ways,
            geo.page, geo.prefetch == 0 ? "none" : geo.prefetch == MP_SIM_PF_L1D ? "l1d" :
            geo.prefetch == MP_SIM_PF_L2 ? "l2" : "l1d+l2", ncores, warmup, unmatched);
    fprintf(f, "cell\tcore\tcalls\tkept\tevent\tpriv\tp10\tp50\tp90\tmean\tmin\tmax\n");
    for (size_t c = 0; c < ncells; c++)
        for (int e = 0; e < MP_SIM_NEVENTS; e++)
            for (int p = 0; p < 3; p++) {
                mp_summary s;
                if (mp_sim_cell_summary(&cells[c], warmup, e, p, &s) < 0)
                    continue;
                fprintf(f, "%zu\t%u\t%zu\t%zu\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.2f\t%.0f\t%.0f\n", c,
                        cells[c].core, cells[c].calls, s.n, mp_sim_event_names[e], privs[p],
                        s.p10, s.p50, s.p90, s.mean, s.min, s.max);
            }
}

static void write_samples(FILE *f)
{
    fprintf(f, "cell\tcall");
    for (int p = 0; p < 2; p++)
        for (int e = 0; e < MP_SIM_NEVENTS; e++)
            fprintf(f, "\t%s:%s", mp_sim_event_names[e], privs[p]);
    fputc('\n', f);
    for (size_t c = 0; c < ncells; c++)
        for (size_t k = 0; k < cells[c].calls; k++) {
            fprintf(f, "%zu\t%zu", c, k);
            for (int p = 0; p < 2; p++)
                for (int e = 0; e < MP_SIM_NEVENTS; e++)
                    fprintf(f, "\t%" PRIu64, mp_sim_cell_value(&cells[c], k, e, p));
            fputc('\n', f);
        }
}

static void write_totals(FILE *f)
{
    fprintf(f, "core\tevent\tuser\tkernel\n");
    for (unsigned c = 0; c < ncores; c++)
        for (int e = 0; e < MP_SIM_NEVENTS; e++)
            fprintf(f, "%u\t%s\t%" PRIu64 "\t%" PRIu64 "\n", c, mp_sim_event_names[e],
                    mp_sim_counts(sim, c, 0)[e], mp_sim_counts(sim, c, 1)[e]);
}

static void write_times(FILE *f)
{
    fprintf(f, "# muxsim: host seconds from the plugin's start; scope %s; callbacks: %llu "
            "instructions, %llu memory accesses, %llu modelled\n",
            scope_calls ? "calls" : "all", n_fetch, n_mem, n_modelled);
    fprintf(f, "cell\tcore\tcalls\tmarked\tfirst_begin\tlast_end\n");
    for (size_t c = 0; c < ncells; c++)
        fprintf(f, "%zu\t%u\t%zu\t%.3f\t%.3f\t%.3f\n", c, cells[c].core, cells[c].calls,
                ctimes[c].marked, ctimes[c].first_begin, ctimes[c].last_end);
    fprintf(f, "exit\t\t\t%.3f\t\t\n", now_s());
}

static void write_functions(FILE *f)
{
    fprintf(f, "cell\tvaddr\tL1d-misses\tL2-misses\tLLC-load-misses\n");
    for (size_t i = 0; i < mrows_cap; i++)
        if (mrows[i].vaddr)
            fprintf(f, "%u\t%016" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
                    mrows[i].cell, mrows[i].vaddr, mrows[i].l1d, mrows[i].l2, mrows[i].llc);
}

/* Written to PATH.tmp, renamed when whole: never half a file. */
static void write_file(const char *path, void (*fn)(FILE *))
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "muxsim: cannot write %s\n", tmp);
        return;
    }
    fn(f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "muxsim: cannot write %s\n", path);
        remove(tmp);
    }
}

static void on_exit_(qemu_plugin_id_t id, void *u)
{
    (void)id, (void)u;
    if (getpid() != owner)
        return;
    pthread_mutex_lock(&lock);
    write_file(out_path, write_summary);
    if (samples_path)
        write_file(samples_path, write_samples);
    if (totals_path)
        write_file(totals_path, write_totals);
    if (times_path)
        write_file(times_path, write_times);
    if (functions_path)
        write_file(functions_path, write_functions);
    pthread_mutex_unlock(&lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *gpath = NULL, *pf = NULL;
    t_start = 0;
    t_start = now_s();
    long cores = info->system_emulation ? info->system.max_vcpus : 1;
    mp_err err;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        if (!v) {
            fprintf(stderr, "muxsim: '%s' is not key=value\n", a);
            return -1;
        }
        v++;
        if (!strncmp(a, "geometry=", 9))
            gpath = v;
        else if (!strncmp(a, "out=", 4))
            out_path = strdup(v);
        else if (!strncmp(a, "samples=", 8))
            samples_path = strdup(v);
        else if (!strncmp(a, "totals=", 7))
            totals_path = strdup(v);
        else if (!strncmp(a, "warmup=", 7))
            warmup = strtoul(v, NULL, 10);
        else if (!strncmp(a, "prefetch=", 9))
            pf = v;
        else if (!strncmp(a, "cores=", 6))
            cores = strtol(v, NULL, 10);
        else if (!strncmp(a, "times=", 6))
            times_path = strdup(v);
        else if (!strncmp(a, "functions=", 10))
            functions_path = strdup(v);
        else if (!strncmp(a, "scope=", 6) && (!strcmp(v, "all") || !strcmp(v, "calls")))
            scope_calls = !strcmp(v, "calls");
        else {
            fprintf(stderr, "muxsim: unknown argument '%s' (geometry, out, samples, totals, "
                    "warmup, prefetch, cores, scope=all|calls, times, functions)\n", a);
            return -1;
        }
    }
    if (!gpath || !out_path) {
        fprintf(stderr, "muxsim: needs geometry=FILE and out=FILE\n");
        return -1;
    }
    if (mp_sim_geometry_load(gpath, &geo, &err) < 0 ||
        (pf && mp_sim_prefetch_parse(pf, &geo.prefetch, &err) < 0)) {
        fprintf(stderr, "muxsim: %s\n", err.msg);
        return -1;
    }
    ncores = cores > 0 && cores <= MP_SIM_CORES_MAX ? (unsigned)cores : 0;
    if (!ncores || mp_sim_new(&sim, &geo, ncores, &err) < 0) {
        fprintf(stderr, "muxsim: %s\n", ncores ? err.msg : "cores: not in 1..64");
        return -1;
    }
    for (int c = 0; c < MP_SIM_CORES_MAX; c++)
        cur[c] = -1;
    owner = getpid();
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    qemu_plugin_register_atexit_cb(id, on_exit_, NULL);
    return 0;
}
