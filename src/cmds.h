/* cmds.h - one entry point per verb.  Each returns the process exit status
 * (0 success, 1 runtime failure, 2 usage error); only main.c exits. */
#ifndef MP_CMDS_H
#define MP_CMDS_H

int mp_cmd_run(int argc, char **argv);       /* src/cmd_run.c */
int mp_cmd_report(int argc, char **argv);    /* src/cmd_report.c */
int mp_cmd_compare(int argc, char **argv);   /* src/cmd_compare.c */
int mp_cmd_events(int argc, char **argv);    /* src/cmd_events.c */
int mp_cmd_doctor(int argc, char **argv);    /* src/cmd_doctor.c */
int mp_cmd_topology(int argc, char **argv);  /* src/cmd_topology.c */
int mp_cmd_loop(int argc, char **argv);      /* src/cmd_loop.c */

/* Exit status for an mp_err code: MP_EUSAGE -> 2, other failures -> 1. */
int mp_exit_status(int code);

#endif
