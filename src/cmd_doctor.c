/* cmd_doctor.c - PLACEHOLDER: `muxprof doctor` is not implemented yet. */
#include "cmds.h"

#include <stdio.h>

int mp_cmd_doctor(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "muxprof doctor: not implemented yet\n");
    return 1;
}
