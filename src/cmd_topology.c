/* cmd_topology.c - PLACEHOLDER: `muxprof topology` is not implemented yet. */
#include "cmds.h"

#include <stdio.h>

int mp_cmd_topology(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "muxprof topology: not implemented yet\n");
    return 1;
}
