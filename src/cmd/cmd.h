/* SPDX-License-Identifier: MIT */
/* cmd.h - one entry point per verb (one file per verb in cmd/).  cmd/ may
 * use every folder below it; only main.c, above it, exits.  Each entry
 * point returns the process exit status (0 success, 1 runtime failure,
 * 2 usage error, 130 interrupted). */
#ifndef MP_CMD_H
#define MP_CMD_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "run/config.h"

int mp_cmd_run(int argc, char **argv);       /* cmd/run.c */
int mp_cmd_report(int argc, char **argv);    /* cmd/report.c */
int mp_cmd_compare(int argc, char **argv);   /* cmd/compare.c */
int mp_cmd_events(int argc, char **argv);    /* cmd/events.c */
int mp_cmd_doctor(int argc, char **argv);    /* cmd/doctor.c */
int mp_cmd_topology(int argc, char **argv);  /* cmd/topology.c */
int mp_cmd_loop(int argc, char **argv);      /* cmd/loop.c */
int mp_cmd_sim_import(int argc, char **argv); /* cmd/sim_import.c */
int mp_cmd_trace(int argc, char **argv);     /* cmd/trace.c */

/* The exit statuses, as every --help states them. */
#define MP_EXIT_HELP                                                                  \
    "Exit status: 0 success, 1 runtime or environment failure (a file missing or\n"   \
    "unwritable, nothing could be measured), 2 usage error, 130 interrupted (Ctrl-C;\n" \
    "128 + the signal for SIGTERM 143, SIGHUP 129, SIGQUIT 131).\n"

/* `muxprof --version`: "muxprof RELEASE (git DESCRIBE)"; returns 0. */
int mp_cmd_version(FILE *f);

/* A JSON document for stdout (--json): {"schema": "muxprof-NAME/1",
 * "tool": {name, version, git_describe}}, to which the verb adds. */
cJSON *mp_json_doc_new(const char *name);
/* The same document with body's members after schema and tool; body is
 * consumed (deleted).  NULL when out of memory or body is NULL. */
cJSON *mp_json_doc_with(const char *name, cJSON *body);
/* Print doc and a newline on f: 0, or 1 with a message on stderr. */
int mp_json_doc_print(const cJSON *doc, FILE *f);

/* Exit status for an mp_err code: MP_EUSAGE -> 2, other failures -> 1. */
int mp_exit_status(int code);

/* The options of `muxprof run` (cmd/run_options.c).  Parse argv (argv[0] ==
 * "run"): 0, 1 when -h or --help was asked for (nothing else parsed), or
 * MP_EUSAGE with a message. */
int mp_cli_parse_run(int argc, char **argv, mp_run_config *cfg, mp_err *err);
/* The --help text of `muxprof run`, printed from the option table. */
void mp_cli_run_usage(FILE *f);
/* The verbs, as main.c lists them. */
typedef struct mp_verb {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
    const struct mp_cli *cli;   /* its options (cmd/opt.h) */
} mp_verb;

struct mp_tool;
/* An option of muxprof itself, before any verb (main.c's table): the
 * general help, the manual's synopsis and the completion list them. */
typedef struct mp_top_opt {
    const char *name;            /* "--version" */
    const char *alias;           /* "-V"; NULL: none */
    const char *help;            /* the general help's text; NULL: not listed there
                                  * (what the build runs: --man, --completion) */
    int (*fn)(const struct mp_tool *t);   /* does it; returns the exit status */
} mp_top_opt;

/* muxprof's tables, as main.c holds them. */
typedef struct mp_tool {
    const mp_verb *verbs;
    size_t nverbs;
    const mp_top_opt *opts;
    size_t nopts;
} mp_tool;

/* `muxprof --man`: the manual page (troff), from the verb table, the
 * options above and each verb's option table; `muxprof --completion`: the
 * bash completion script, from the same tables and the name registries they
 * point to (cmd/manual.c). */
int mp_cmd_man(const mp_tool *t, FILE *f);
int mp_cmd_completion(const mp_tool *t, FILE *f);

#endif
