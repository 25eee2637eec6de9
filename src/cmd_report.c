/* cmd_report.c - PLACEHOLDER: `muxprof report` is not implemented yet. */
#include "cmds.h"

#include <stdio.h>

int mp_cmd_report(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "muxprof report: not implemented yet\n");
    return 1;
}
