/* cmd_events.c - PLACEHOLDER: `muxprof events` is not implemented yet. */
#include "cmds.h"

#include <stdio.h>

int mp_cmd_events(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "muxprof events: not implemented yet\n");
    return 1;
}
