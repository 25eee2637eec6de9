/* topo_json.c - the topology summary: the "topology" object of results.json
 * and the text that `muxprof topology` prints. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_GROUPS_SHOWN 8

cJSON *mp_topo_json(const mp_topo *t)
{
    char buf[512];
    mp_topo_counts n;
    mp_cache_level caches[5];
    mp_pu_pair pairs[MP_TOPO_NPLACEMENTS];
    int known;

    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    mp_topo_get_counts(t, &n);
    cJSON_AddStringToObject(o, "source", mp_topo_source(t));
    const char *model = mp_topo_cpu_model(t);
    if (model)
        cJSON_AddStringToObject(o, "cpu_model", model);
    cJSON_AddNumberToObject(o, "packages", n.packages);
    cJSON_AddNumberToObject(o, "numa_nodes", n.numa_nodes);
    cJSON_AddNumberToObject(o, "cores", n.cores);
    cJSON_AddNumberToObject(o, "pus", n.pus);
    cJSON_AddNumberToObject(o, "usable_pus", n.usable_pus);
    mp_topo_usable_list(t, buf, sizeof buf);
    cJSON_AddStringToObject(o, "usable_cpus", buf);
    cJSON_AddBoolToObject(o, "restricted", n.usable_pus < n.pus);
    unsigned line = mp_topo_line_bytes(t, &known);
    cJSON_AddNumberToObject(o, "line_bytes", line);
    cJSON_AddBoolToObject(o, "line_bytes_known", known);

    cJSON *arr = cJSON_AddArrayToObject(o, "caches");
    int nc = mp_topo_caches(t, caches, 5);
    for (int i = 0; arr && i < nc && i < 5; i++) {
        mp_cache_level *c = &caches[i];
        cJSON *e = cJSON_CreateObject();
        if (!e)
            break;
        cJSON_AddNumberToObject(e, "level", c->level);
        cJSON_AddStringToObject(e, "type", c->unified ? "unified" : "data");
        cJSON_AddNumberToObject(e, "size_bytes", (double)c->size_bytes);
        if (c->size_min_bytes != c->size_max_bytes) {
            cJSON_AddNumberToObject(e, "size_min_bytes", (double)c->size_min_bytes);
            cJSON_AddNumberToObject(e, "size_max_bytes", (double)c->size_max_bytes);
        }
        cJSON_AddNumberToObject(e, "line_bytes", c->line_bytes);
        cJSON_AddNumberToObject(e, "instances", c->instances);
        cJSON_AddNumberToObject(e, "pus_per_instance", c->pus_per_instance);
        cJSON *sh = cJSON_AddArrayToObject(e, "shared_by");
        for (int k = 0; sh && mp_topo_cache_cpus(t, c->level, k, buf, sizeof buf) >= 0; k++)
            cJSON_AddItemToArray(sh, cJSON_CreateString(buf));
        cJSON_AddItemToArray(arr, e);
    }

    cJSON *pl = cJSON_AddObjectToObject(o, "placements_offered");
    int np = mp_topo_offered(t, pairs, MP_TOPO_NPLACEMENTS);
    for (int i = 0; pl && i < np; i++) {
        cJSON *e = cJSON_CreateObject();
        if (!e)
            break;
        cJSON_AddStringToObject(e, "kind", pairs[i].placement);
        cJSON_AddNumberToObject(e, "waiter_pu", pairs[i].waiter_pu);
        cJSON_AddNumberToObject(e, "poker_pu", pairs[i].poker_pu);
        cJSON_AddItemToObject(pl, pairs[i].requested, e);
    }
    return o;
}

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
