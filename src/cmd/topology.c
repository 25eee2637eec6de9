/* topology.c - `muxprof topology`: print this host's packages, NUMA
 * nodes, cores, PUs, data caches and the waiter/poker placements it offers
 * (or those of a synthetic / XML topology, for demonstration). */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "topology/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: muxprof topology [--synthetic DESC | --xml FILE] [--json]\n"
        "\n"
        "Show packages, NUMA nodes, cores, PUs, every data cache level (size, line\n"
        "size, which PUs share it), the PUs this process may use, and the\n"
        "placements `muxprof run --placement` accepts here with their PU pairs.\n"
        "\n"
        "  --synthetic DESC  an hwloc synthetic topology instead of this host, e.g.\n"
        "                    \"package:2 l3:1(size=32MiB) l2:8(size=1MiB) core:1 pu:2\"\n"
        "  --xml FILE        an hwloc XML export (lstopo --of xml FILE) instead\n"
        "  --json            print the summary that results.json carries\n"
        "  --help            this text\n\n" MP_EXIT_HELP);
}

int mp_cmd_topology(int argc, char **argv)
{
    const char *synthetic = NULL, *xml = NULL;
    int json = 0;
    mp__cli_seen seen = {0};
    mp_err err;
    mp_echo e;
    for (int i = 1; i < argc; i++) {
        if (mp__cli_once(&seen, argv[i], &err)) {
            fprintf(stderr, "muxprof topology: %s\n", err.msg);
            return 2;
        }
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--synthetic") || !strcmp(argv[i], "--xml")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "muxprof topology: %s needs a value\n", argv[i]);
                usage(stderr);
                return 2;
            }
            if (argv[i][2] == 's')
                synthetic = argv[++i];
            else
                xml = argv[++i];
        } else {
            fprintf(stderr, "muxprof topology: unknown option '%s'\n", mp_echo_arg(&e, argv[i]));
            usage(stderr);
            return 2;
        }
    }
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
