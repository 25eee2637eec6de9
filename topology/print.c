/* SPDX-License-Identifier: MIT */
/* print.c - the text that `muxprof topology` prints: counts, usable
 * PUs, data caches, placements offered and refused. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_GROUPS_SHOWN 8

/* One line per data cache level, with the PU groups sharing each. */
static void print_caches(const mp_topo *t, FILE *f)
{
    mp_cache_level caches[5];
    char sz[32], sz2[32], buf[256];
    int nc = mp_topo_caches(t, caches, 5);
    if (nc == 0) {
        fprintf(f, "  data caches: none reported by hwloc\n");
        return;
    }
    fprintf(f, "  data caches:\n");
    for (int i = 0; i < nc && i < 5; i++) {
        mp_cache_level *c = &caches[i];
        fprintf(f, "    L%d%s %s", c->level, c->level == 1 ? "d" : " ",
                c->size_min_bytes == c->size_max_bytes
                    ? mp__fmt_bytes(c->size_bytes, sz, sizeof sz)
                    : (snprintf(buf, sizeof buf, "%s..%s",
                                mp__fmt_bytes(c->size_min_bytes, sz, sizeof sz),
                                mp__fmt_bytes(c->size_max_bytes, sz2, sizeof sz2)), buf));
        if (c->line_bytes)
            fprintf(f, ", line %u B", c->line_bytes);
        else
            fprintf(f, ", line size unknown");
        fprintf(f, ", %d instance%s, shared by:", c->instances, c->instances == 1 ? "" : "s");
        for (int k = 0; mp_topo_cache_cpus(t, c->level, k, buf, sizeof buf) >= 0; k++) {
            if (k == MAX_GROUPS_SHOWN) {
                fprintf(f, " ... (%d more)", c->instances - MAX_GROUPS_SHOWN);
                break;
            }
            fprintf(f, " {%s}", buf);
        }
        fputc('\n', f);
    }
}

void mp_topo_print(const mp_topo *t, FILE *f)
{
    char buf[512];
    mp_topo_counts n;
    mp_pu_pair pairs[MP_TOPO_NPLACEMENTS];
    int known;

    mp_topo_get_counts(t, &n);
    const char *model = mp_topo_cpu_model(t);
    fprintf(f, "topology (%s)%s%s\n", t->source, model ? ": " : "", model ? model : "");
    fprintf(f, "  packages %d, NUMA nodes %d, cores %d, PUs %d\n",
            n.packages, n.numa_nodes, n.cores, n.pus);
    mp_topo_usable_list(t, buf, sizeof buf);
    if (n.usable_pus < n.pus)
        fprintf(f, "  usable PUs: %s (%d of %d: %s)\n", buf, n.usable_pus, n.pus,
                t->is_host ? "cgroup cpuset or affinity" : "allowed cpuset of the topology");
    else
        fprintf(f, "  usable PUs: %s (all)\n", buf);
    print_caches(t, f);
    unsigned line = mp_topo_line_bytes(t, &known);
    fprintf(f, "  cache line for analysis: %u B%s\n", line,
            known ? "" : " (unknown to hwloc; 64 assumed)");

    fprintf(f, "  placements offered (waiter PU, poker PU):\n");
    int np = mp_topo_offered(t, pairs, MP_TOPO_NPLACEMENTS);
    for (int i = 0; i < np; i++) {
        if (pairs[i].waiter_pu < 0)
            fprintf(f, "    %-10s unbound     %s%s\n", pairs[i].requested,
                    strcmp(pairs[i].requested, "none") ? "-> none: " : "", pairs[i].detail);
        else
            fprintf(f, "    %-10s %3d, %-4d  %s%s%s%s\n", pairs[i].requested,
                    pairs[i].waiter_pu, pairs[i].poker_pu,
                    strcmp(pairs[i].requested, pairs[i].placement) ? "-> " : "",
                    strcmp(pairs[i].requested, pairs[i].placement) ? pairs[i].placement : "",
                    strcmp(pairs[i].requested, pairs[i].placement) ? ": " : "",
                    pairs[i].detail);
    }
    int header = 0;
    for (int k = 0; k < MP_TOPO_NPLACEMENTS; k++) {
        const char *why = mp_topo_refusal(t, mp_topo_placement_names[k]);
        if (!why)
            continue;
        if (!header++)
            fprintf(f, "  not offered here:\n");
        fprintf(f, "    %-10s %s\n", mp_topo_placement_names[k], why);
    }
    if (!t->is_host)
        fprintf(f, "  (not this host: placements are shown, binding is not possible)\n");
}
