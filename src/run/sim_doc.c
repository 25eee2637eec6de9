/* SPDX-License-Identifier: MIT */
/* sim_doc.c - the results.json of a scripts/muxsim.sh directory, from what
 * sim_import.c read (run/internal.h): the context and topology say
 * "simulated" and give the geometry; the topology, counters and config are
 * written through results/'s tables of them, each cell's metrics through
 * its cell table (results/sim.h). */
#include "run/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "results/cell.h"
#include "results/counters.h"
#include "results/schema.h"
#include "results/sim.h"
#include "results/topology.h"
#include "run/sim_import.h"

/* The metrics of a simulated cell: the name results.json gives each, and
 * the plugin's event it is read from (its "all" row: user + kernel). */
const mp__sim_metric mp__sim_metrics[MP__SIM_NMETRICS] = {
    {MP_RSIM_PREFIX "instructions", "instructions"},
    {MP_RSIM_PREFIX "L1d-accesses", "L1-dcache-accesses"},
    {MP_RSIM_PREFIX "L1d-misses", "L1-dcache-misses"},
    {MP_RSIM_PREFIX "L1-dcache-loads", "L1-dcache-loads"},
    {MP_RSIM_PREFIX "L1-dcache-load-misses", "L1-dcache-load-misses"},
    {MP_RSIM_PREFIX "L1i-accesses", "L1-icache-loads"},
    {MP_RSIM_PREFIX "L1i-misses", "L1-icache-load-misses"},
    {MP_RSIM_PREFIX "L2-accesses", "L2-accesses"},
    {MP_RSIM_PREFIX "L2-misses", "L2-misses"},
    {MP_RSIM_PREFIX "L3-accesses", "L3-accesses"},
    {MP_RSIM_PREFIX "L3-misses", "L3-misses"},
    {MP_RSIM_PREFIX "LLC-loads", "LLC-loads"},
    {MP_RSIM_PREFIX "LLC-load-misses", "LLC-load-misses"},
    {MP_RSIM_PREFIX "dTLB-misses", "dTLB-misses"},
    {MP_RSIM_PREFIX "dTLB-walks", "dTLB-walks"},
    {MP_RSIM_PREFIX "iTLB-misses", "iTLB-misses"},
    {MP_RSIM_PREFIX "prefetches", "prefetches"},
};

/* Split "a,b,c" (its first 4095 bytes) into buf and list's elements: each
 * a string at text, or a count at count; how many. */
static size_t split_list(const char *v, char *buf, size_t size, const char **text,
                         long long *count)
{
    size_t n = 0;
    snprintf(buf, size, "%s", v);
    for (char *save, *t = strtok_r(buf, ",", &save); t && n < MP_RSIM_MAX_LIST;
         t = strtok_r(NULL, ",", &save), n++) {
        if (text)
            text[n] = t;
        else
            count[n] = strtoll(t, NULL, 10);
    }
    return n;
}

static void add_text(cJSON *o, const char *k, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static const char *policy_name(const mp_sim_geometry *g)
{
    return g->l3_policy == MP_SIM_VICTIM ? "victim" : "inclusive";
}

static mp_rsim_level level_of(const mp_sim_cache_geo *c, const char *policy)
{
    return (mp_rsim_level){.size_bytes = (long long)c->size, .ways = c->ways, .policy = policy};
}

/* The geometry of the model, as context.geometry. */
static cJSON *geometry_json(const mp__sim_in *im)
{
    const mp_sim_geometry *g = &im->g;
    const mp_sim_tlb_geo *tlb[] = {&g->dtlb, &g->itlb, &g->l2tlb};
    char tlbs[3][48];
    for (int i = 0; i < 3; i++)
        snprintf(tlbs[i], sizeof tlbs[i], "%u,%u", tlb[i]->entries, tlb[i]->ways);
    mp_rsim_geometry m = {.name = g->name, .description = g->description, .line_bytes = g->line,
                          .l1d = level_of(&g->l1d, NULL), .l1i = level_of(&g->l1i, NULL),
                          .l2 = level_of(&g->l2, NULL), .l3 = level_of(&g->l3, policy_name(g)),
                          .dtlb = tlbs[0], .itlb = tlbs[1], .l2tlb = tlbs[2],
                          .page_bytes = (long long)g->page,
                          .prefetch = mp__sim_env(im, "prefetch")};
    return mp_rsim_geometry_json(&m);
}

static cJSON *context_json(const mp__sim_in *im, const char *label)
{
    cJSON *ctx = cJSON_CreateObject();
    struct utsname u;
    char method[512], kernel[128];
    const char *k = mp__sim_env(im, "kernel"), *slash = k ? strrchr(k, '/') : NULL;
    snprintf(kernel, sizeof kernel, "%s", slash ? slash + 1 : k ? k : "");
    if (!strncmp(kernel, "vmlinuz-", 8))
        memmove(kernel, kernel + 8, strlen(kernel + 8) + 1);
    add_text(ctx, "host", uname(&u) == 0 ? u.nodename : NULL);
    cJSON_AddStringToObject(ctx, "arch", mp__sim_guest_arch(im));
    cJSON_AddBoolToObject(ctx, "emulated", 1);
    cJSON_AddBoolToObject(ctx, "simulated", 1);
    cJSON_AddStringToObject(ctx, "label", label);
    cJSON_AddItemToObject(ctx, "geometry", geometry_json(im));
    int x86 = !strcmp(mp__sim_guest_arch(im), "x86_64");
    snprintf(method, sizeof method, "QEMU TCG %s guest (%s), muxprof's model (sim/, "
             "libmuxsim.so); every cell in one boot, loop pinned to CPU 1 with isolcpus=1; one "
             "counting window per call between the loop's markers (%s), the first %s calls "
             "left out", x86 ? "x86_64" : "arm64", x86 ? "one TCG thread" : "-icount shift=0",
             x86 ? "nopl" : "HINTs", mp__sim_env(im, "warmup"));
    cJSON_AddStringToObject(ctx, "method", method);
    add_text(ctx, "qemu", mp__sim_env(im, "qemu"));
    cJSON_AddStringToObject(ctx, "guest_kernel", kernel);
    cJSON_AddStringToObject(ctx, "kernel", kernel);
    cJSON *load = cJSON_AddObjectToObject(ctx, "host_load");
    add_text(load, "start", mp__sim_env(im, "load"));
    add_text(load, "end", mp__sim_env(im, "load_end"));
    double secs;
    const char *bs = mp__sim_env(im, "boot_seconds");
    if (bs && mp__sim_number(bs, &secs) == 0)
        cJSON_AddNumberToObject(ctx, "boot_seconds_total", secs);
    else
        cJSON_AddNullToObject(ctx, "boot_seconds_total");
    return ctx;
}

/* The simulated topology: the line and the four cache levels of g. */
static cJSON *topology_json(const mp_sim_geometry *g)
{
    static const char *const type[] = {"data", "instruction", "unified", "unified"};
    const mp_sim_cache_geo *lv[] = {&g->l1d, &g->l1i, &g->l2, &g->l3};
    mp_rtopo_cache caches[4];
    for (int i = 0; i < 4; i++)
        caches[i] = (mp_rtopo_cache){.simulated = 1, .level = i < 2 ? 1 : i, .type = type[i],
                                     .size_bytes = (long long)lv[i]->size,
                                     .ways = lv[i]->ways,
                                     .policy = i == 3 ? policy_name(g) : NULL,
                                     .line_bytes = g->line};
    mp_rtopology t = {.simulated = 1, .line_bytes = g->line, .caches = caches, .ncaches = 4};
    return mp_rtopology_json(&t);
}

/* The simulated counters: the metrics of mp__sim_metrics[], each opened
 * in no pass. */
static cJSON *counters_json(const char *label)
{
    mp_rcounter_event ev[MP__SIM_NMETRICS];
    for (size_t i = 0; i < MP__SIM_NMETRICS; i++)
        ev[i] = (mp_rcounter_event){.simulated = 1, .name = mp__sim_metrics[i].metric,
                                    .opened = 1, .pass = -1, .group = -1,
                                    .source = "simulated"};
    mp_rcounters c = {.simulated = 1, .preset = label, .scope = "user+kernel (simulated core 1)",
                      .note = "counts of muxprof's cache and TLB model, not hardware counters",
                      .events = ev, .nevents = MP__SIM_NMETRICS};
    return mp_rcounters_json(&c);
}

/* The simulated config: what plan.env asked the loop for. */
static cJSON *config_json(const mp__sim_in *im, const char *label)
{
    char backends[4096], fds[4096];
    const char *kind = mp__sim_env(im, "fd_kind");
    mp_rsim_config c = {.active = {1}, .nactive = 1, .modes = {"ready"}, .nmodes = 1,
                        .fd_kinds = {kind}, .nfd_kinds = 1, .fd_kind = kind,
                        .calls = strtoll(mp__sim_env(im, "calls"), NULL, 10),
                        .ready_pos = "last", .events = label};
    c.nbackends = split_list(mp__sim_env(im, "backends"), backends, sizeof backends,
                             c.backends, NULL);
    c.nfds = split_list(mp__sim_env(im, "fds"), fds, sizeof fds, NULL, c.fds);
    return mp_rsim_config_json(&c);
}

/* Cell c's kernel functions from functions.json (the last entry of its
 * backend and N) as its "sim_functions"; 0, or -1 when out of memory. */
static int add_functions(const mp__sim_in *im, const mp_rcell *c, cJSON *cell)
{
    const cJSON *e, *hit = NULL;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(im->fn, "cells")) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "backend");
        if (!strcmp(b->valuestring, c->backend) &&
            (long)cJSON_GetObjectItemCaseSensitive(e, "nfds")->valuedouble == c->nfds)
            hit = e;
    }
    if (!hit)
        return 0;
    cJSON *sf = cJSON_AddObjectToObject(cell, "sim_functions");
    cJSON *f = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(hit, "functions"), 1);
    cJSON *sh = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(hit, "attributed_L1d_share"), 1);
    if (!sf || !f || !sh) {
        cJSON_Delete(f);
        cJSON_Delete(sh);
        return -1;
    }
    cJSON_AddItemToObject(sf, "functions", f);
    cJSON_AddItemToObject(sf, "attributed_L1d_share", sh);
    return 0;
}

static cJSON *results_json(const mp__sim_in *im, mp_sim_import *sum)
{
    cJSON *res = cJSON_CreateArray();
    mp_metric mt[MP__SIM_NMETRICS];
    char scope[64];
    size_t k = 0, o = 0;
    for (size_t i = 0; res && i < im->nloops; i++) {
        const mp__sim_loop *r = &im->loops[i];
        mp_rcell c;
        memset(&c, 0, sizeof c);
        snprintf(c.backend, sizeof c.backend, "%s", r->backend);
        snprintf(c.fd_kind, sizeof c.fd_kind, "%s", mp__sim_env(im, "fd_kind"));
        snprintf(c.mode, sizeof c.mode, "ready");
        c.nfds = r->nfds;
        c.active = 1;
        c.fd_lo = c.fd_hi = c.ready_fd = -1;
        if (r->status) {
            c.status = MP_CELL_ERROR;
            mp__sim_loop_reason(im, r, c.reason, sizeof c.reason);
            if (sum->nfailed++ < 8 && o < sizeof sum->failed)
                o += (size_t)snprintf(sum->failed + o, sizeof sum->failed - o, "%s%s %ld",
                                      o ? ", " : "", r->backend, r->nfds);
        } else {
            const mp__sim_cell *t = &im->cells[k++];
            for (size_t m = 0; m < MP__SIM_NMETRICS; m++) {
                memset(&mt[m], 0, sizeof mt[m]);
                snprintf(mt[m].name, sizeof mt[m].name, "%s", mp__sim_metrics[m].metric);
                mt[m].s = t->s[m];
            }
            c.status = MP_CELL_OK;
            c.metrics = mt;
            c.nmetrics = MP__SIM_NMETRICS;
            snprintf(scope, sizeof scope, "user+kernel, simulated core %ld", t->core);
        }
        cJSON *cell = mp_rsim_cell_json(&c, scope);
        if (cell && c.status == MP_CELL_OK && im->fn && add_functions(im, &c, cell)) {
            cJSON_Delete(cell);
            cell = NULL;
        }
        if (!cell) {
            cJSON_Delete(res);
            return NULL;
        }
        cJSON_AddItemToArray(res, cell);
        sum->ncells++;
    }
    return res;
}

cJSON *mp__sim_document(const mp__sim_in *im, mp_sim_import *sum)
{
    char label[128];
    snprintf(label, sizeof label, "simulated (%s)", im->g.name);
    cJSON *doc = cJSON_CreateObject(), *res = results_json(im, sum);
    if (!doc || !res) {
        cJSON_Delete(doc);
        cJSON_Delete(res);
        return NULL;
    }
    cJSON_AddStringToObject(doc, "schema", MP_RESULTS_SCHEMA);
    cJSON_AddItemToObject(doc, "tool", mp_res_tool_json());
    cJSON_AddStringToObject(doc, "status", sum->nfailed ? "errors" : "complete");
    add_text(doc, "started_utc", mp__sim_env(im, "started"));
    add_text(doc, "finished_utc", mp__sim_env(im, "finished"));
    cJSON_AddItemToObject(doc, "context", context_json(im, label));
    cJSON_AddItemToObject(doc, "topology", topology_json(&im->g));
    cJSON_AddItemToObject(doc, "counters", counters_json(label));
    cJSON_AddItemToObject(doc, "config", config_json(im, label));
    cJSON_AddItemToObject(doc, "results", res);
    return doc;
}

