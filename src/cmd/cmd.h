/* cmd.h - one entry point per verb (one file per verb in cmd/).  cmd/ may
 * use every folder below it; only main.c, above it, exits.  Each entry
 * point returns the process exit status (0 success, 1 runtime failure,
 * 2 usage error, 130 interrupted). */
#ifndef MP_CMD_H
#define MP_CMD_H

#include <stdio.h>

#include "run/config.h"

int mp_cmd_run(int argc, char **argv);       /* cmd/run.c */
int mp_cmd_report(int argc, char **argv);    /* cmd/report.c */
int mp_cmd_compare(int argc, char **argv);   /* cmd/compare.c */
int mp_cmd_events(int argc, char **argv);    /* cmd/events.c */
int mp_cmd_doctor(int argc, char **argv);    /* cmd/doctor.c */
int mp_cmd_topology(int argc, char **argv);  /* cmd/topology.c */

/* Exit status for an mp_err code: MP_EUSAGE -> 2, other failures -> 1. */
int mp_exit_status(int code);

/* The options of `muxprof run` (cmd/run_options.c).  Parse argv (argv[0] ==
 * "run"): 0, 1 when --help was asked for (nothing else parsed), or
 * MP_EUSAGE with a message. */
int mp_cli_parse_run(int argc, char **argv, mp_run_config *cfg, mp_err *err);
/* The --help text of `muxprof run`, printed from the option table. */
void mp_cli_run_usage(FILE *f);

#endif
