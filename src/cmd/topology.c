/* SPDX-License-Identifier: MIT */
/* topology.c - `muxprof topology`: print this host's packages, NUMA
 * nodes, cores, PUs, data caches and the waiter/poker placements it offers
 * (or those of a synthetic / XML topology, for demonstration). */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"
#include "run/topo_rec.h"
#include "topology/topology.h"
#include "sim/model.h"

#include <stdio.h>
#include <string.h>

/* What the options set. */
typedef struct topology_args {
    const char *synthetic, *xml;
    int json, geometry;
} topology_args;

static const mp_opt opts[] = {
    MP_OPT_STR("synthetic", "DESC", topology_args, synthetic,
               "an hwloc synthetic topology instead of this host, e.g.\n"
               "\"package:2 l3:1(size=32MiB) l2:8(size=1MiB) core:1 pu:2\"",
               .needs = "a value"),
    MP_OPT_STR("xml", "FILE", topology_args, xml,
               "an hwloc XML export (lstopo --of xml FILE) instead", .complete = MP_OPT_FILES,
               .needs = "a value"),
    MP_OPT_BOOL("json", topology_args, json, "the summary that results.json carries, as one JSON\n"
                "document on stdout (docs/json-output.md)"),
    MP_OPT_BOOL("geometry", topology_args, geometry,
                "print the caches above the first usable PU as a geometry file of\n"
                "muxprof's cache model (scripts/muxsim.sh --geometry FILE)"),
};

const mp_cli mp_cli_topology = {
    .name = "topology", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 20,
    .intro = "usage: muxprof topology [--synthetic DESC | --xml FILE] [--json | --geometry]\n"
             "\n"
             "Show packages, NUMA nodes, cores, PUs, every data cache level (size, line\n"
             "size, which PUs share it), the PUs this process may use, and the\n"
             "placements `muxprof run --placement` accepts here with their PU pairs.\n"
             "\n",
    .outro = "\n" MP_EXIT_HELP,
    .help_head = "--help", .unknown = "unknown option", .see = " (see muxprof topology --help)", .stray = "",
};

/* "32K", "1M" or bytes. */
static const char *size_text(char *b, size_t len, unsigned long long v)
{
    if (v && v % (1ull << 20) == 0)
        snprintf(b, len, "%lluM", v >> 20);
    else if (v && v % 1024 == 0)
        snprintf(b, len, "%lluK", v >> 10);
    else
        snprintf(b, len, "%llu", v);
    return b;
}

/* The model's geometry file (sim/model.h, mp_sim_geometry_parse) from the
 * caches hwloc reports above the first usable PU.  hwloc knows no TLBs:
 * their lines are the file's stated placeholders.  -EINVAL (with what is
 * missing) when a level the model needs is absent or has unknown ways. */
static int geometry_text(const mp_topo *t, char *buf, size_t len, mp_err *err)
{
    mp_cache_geo c[8];
    int n = mp_topo_pu_caches(t, c, 8);
    const mp_cache_geo *l1d = NULL, *l1i = NULL, *l2 = NULL, *l3 = NULL;
    for (int i = 0; i < n && i < 8; i++) {
        if (c[i].level == 1 && c[i].kind != 'i' && !l1d)
            l1d = &c[i];
        else if (c[i].level == 1 && c[i].kind == 'i' && !l1i)
            l1i = &c[i];
        else if (c[i].level == 2 && c[i].kind != 'i' && !l2)
            l2 = &c[i];
        else if (c[i].level == 3 && c[i].kind != 'i' && !l3)
            l3 = &c[i];
    }
    const mp_cache_geo *need[4] = {l1d, l1i, l2, l3};
    static const char *const names[4] = {"l1d", "l1i", "l2", "l3"};
    char sz[4][32];
    int ways[4];
    unsigned line = l1d ? l1d->line_bytes : 0;
    for (int k = 0; k < 4; k++) {
        if (!need[k] || !need[k]->size_bytes)
            return mp_errf(err, -EINVAL, "hwloc reports no %s cache (with a size) above the "
                           "first usable PU; write the geometry by hand (sim/geometries/*.conf)",
                           names[k]);
        if (!need[k]->ways)
            return mp_errf(err, -EINVAL, "hwloc does not know the ways of the %s cache "
                           "(associativity 0); write the geometry by hand "
                           "(sim/geometries/*.conf)", names[k]);
        unsigned l = need[k]->line_bytes ? need[k]->line_bytes : line;
        if (!l)
            return mp_errf(err, -EINVAL, "hwloc does not know the line size of the %s cache; "
                           "write the geometry by hand (sim/geometries/*.conf)", names[k]);
        if (line && l != line)
            return mp_errf(err, -EINVAL, "the %s cache has %u-byte lines, the L1d %u: the "
                           "model has one line size", names[k], l, line);
        line = l;
        ways[k] = need[k]->ways > 0 ? need[k]->ways : (int)(need[k]->size_bytes / l);
        size_text(sz[k], sizeof sz[k], need[k]->size_bytes);
    }
    int w = snprintf(buf, len,
        "# This host's caches as hwloc reports them above the first usable PU\n"
        "# (muxprof topology --geometry). hwloc knows no TLBs: dtlb, itlb, l2tlb and\n"
        "# page below are placeholders, not this host's; take them from the CPU\n"
        "# vendor's optimization guide.\n"
        "# l3_policy: hwloc's Inclusive=%d for the L3%s.\n"
        "source=hwloc (caches)\n"
        "description=this host (caches from hwloc; TLBs placeholders)\n"
        "line=%u\nl1d=%s,%d\nl1i=%s,%d\nl2=%s,%d\nl3=%s,%d\nl3_policy=%s\n"
        "dtlb=64,64\nitlb=64,64\nl2tlb=2048,8\npage=4K\n",
        l3->inclusive, l3->inclusive == 1 ? "" :
        " (not inclusive; the model's\n# one non-inclusive L3 is a victim cache)",
        line, sz[0], ways[0], sz[1], ways[1], sz[2], ways[2], sz[3], ways[3],
        l3->inclusive == 1 ? "inclusive" : "victim");
    if (w < 0 || (size_t)w >= len)
        return mp_errf(err, -ENOMEM, "geometry text too long");
    mp_sim_geometry g;
    int rc = mp_sim_geometry_parse(buf, "host", &g, err);
    return rc < 0 ? rc : 0;
}

int mp_cmd_topology(int argc, char **argv)
{
    topology_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    if (mp_opt_parse(&mp_cli_topology, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof topology: %s\n", err.msg);
        return 2;
    }
    if (p.help) {
        mp_opt_usage(&mp_cli_topology, stdout);
        return 0;
    }
    const char *synthetic = a.synthetic, *xml = a.xml;
    int json = a.json;
    if (synthetic && xml) {
        fprintf(stderr, "muxprof topology: give --synthetic or --xml, not both\n");
        return 2;
    }
    if (json && a.geometry) {
        fprintf(stderr, "muxprof topology: give --json or --geometry, not both\n");
        return 2;
    }

    mp_err_clear(&err);
    mp_topo *t = NULL;
    int rc = xml ? mp_topo_load_xml(&t, xml, &err) : mp_topo_load(&t, synthetic, &err);
    if (rc < 0) {
        fprintf(stderr, "muxprof: %s\n", err.msg);
        return mp_exit_status(rc);
    }
    if (a.geometry) {
        char text[2048];
        rc = geometry_text(t, text, sizeof text, &err);
        mp_topo_free(t);
        if (rc < 0) {
            fprintf(stderr, "muxprof topology --geometry: %s\n", err.msg);
            return 1;
        }
        fputs(text, stdout);
        return 0;
    }
    if (json) {
        mp_topo_rec rec;
        cJSON *doc = mp_json_doc_with("topology", mp_topo_rec_fill(&rec, t) == 0
                                                      ? mp_rtopology_json(&rec.m) : NULL);
        mp_topo_rec_free(&rec);
        if (!doc) {
            fprintf(stderr, "muxprof topology: out of memory building the JSON summary\n");
            mp_topo_free(t);
            return 1;
        }
        rc = mp_json_doc_print(doc, stdout);
        cJSON_Delete(doc);
        mp_topo_free(t);
        return rc;
    } else {
        mp_topo_print(t, stdout);
    }
    mp_topo_free(t);
    return 0;
}
