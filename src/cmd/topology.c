/* topology.c - `muxprof topology`: print this host's packages, NUMA
 * nodes, cores, PUs, data caches and the waiter/poker placements it offers
 * (or those of a synthetic / XML topology, for demonstration). */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"
#include "topology/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the options set. */
typedef struct topology_args {
    const char *synthetic, *xml;
    int json;
} topology_args;

static const mp_opt opts[] = {
    MP_OPT_STR("synthetic", "DESC", topology_args, synthetic,
               "an hwloc synthetic topology instead of this host, e.g.\n"
               "\"package:2 l3:1(size=32MiB) l2:8(size=1MiB) core:1 pu:2\"",
               .needs = "a value"),
    MP_OPT_STR("xml", "FILE", topology_args, xml,
               "an hwloc XML export (lstopo --of xml FILE) instead", .complete = MP_OPT_FILES,
               .needs = "a value"),
    MP_OPT_BOOL("json", topology_args, json, "print the summary that results.json carries"),
};

const mp_cli mp_cli_topology = {
    .name = "topology", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 20,
    .intro = "usage: muxprof topology [--synthetic DESC | --xml FILE] [--json]\n"
             "\n"
             "Show packages, NUMA nodes, cores, PUs, every data cache level (size, line\n"
             "size, which PUs share it), the PUs this process may use, and the\n"
             "placements `muxprof run --placement` accepts here with their PU pairs.\n"
             "\n",
    .outro = "\n" MP_EXIT_HELP,
    .help_head = "--help", .unknown = "unknown option", .see = "", .stray = "",
};

int mp_cmd_topology(int argc, char **argv)
{
    topology_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    if (mp_opt_parse(&mp_cli_topology, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof topology: %s\n", err.msg);
        if (p.malformed)
            mp_opt_usage(&mp_cli_topology, stderr);
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

    mp_err_clear(&err);
    mp_topo *t = NULL;
    int rc = xml ? mp_topo_load_xml(&t, xml, &err) : mp_topo_load(&t, synthetic, &err);
    if (rc < 0) {
        fprintf(stderr, "muxprof: %s\n", err.msg);
        return mp_exit_status(rc);
    }
    if (json) {
        cJSON *o = mp_topo_json(t);
        char *s = o ? cJSON_Print(o) : NULL;
        cJSON_Delete(o);
        if (!s) {
            fprintf(stderr, "muxprof topology: out of memory building the JSON summary\n");
            mp_topo_free(t);
            return 1;
        }
        printf("%s\n", s);
        free(s);
    } else {
        mp_topo_print(t, stdout);
    }
    mp_topo_free(t);
    return 0;
}
