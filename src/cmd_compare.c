/* cmd_compare.c - PLACEHOLDER: `muxprof compare` is not implemented yet. */
#include "cmds.h"

#include <stdio.h>

int mp_cmd_compare(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "muxprof compare: not implemented yet\n");
    return 1;
}
