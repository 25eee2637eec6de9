/* SPDX-License-Identifier: MIT */
/* opt.h - a verb's options as one table of rows.  From a verb's table are
 * made its parsing (getopt_long, each option once), its --help, its part of
 * the manual page and its bash completion (cmd/opt.c, cmd/manual.c).  Every
 * verb also takes -h and --help, which the parser handles itself. */
#ifndef MP_CMD_OPT_H
#define MP_CMD_OPT_H

#include <stddef.h>
#include <stdio.h>

#include "common/mp_err.h"

typedef enum mp_opt_kind {
    MP_OPT_FLAG,     /* an int at off, set to 1 */
    MP_OPT_STOP,     /* a flag that ends parsing: what follows is not read and no
                      * default is given */
    MP_OPT_STRING,   /* a const char * at off, pointing into argv ("" refused where
                      * the row says what it needs) */
    MP_OPT_CALL,     /* set(cfg, "--name", value, err) */
} mp_opt_kind;

/* How bash completes an option's value. */
typedef enum mp_opt_complete {
    MP_OPT_VALUES,   /* the names values() returns, if the row has them */
    MP_OPT_DIRS,
    MP_OPT_FILES,
} mp_opt_complete;

/* flags */
#define MP_OPT_REPEAT 1u   /* may be given more than once */
#define MP_OPT_RAW 2u      /* set gets argv's own string, of any length (a path) */

/* Sets what the row's value says in cfg: 0 or MP_EUSAGE with a message that
 * starts with opt ("--fds"); v is NULL for a row without a value. */
typedef int (*mp_opt_set)(void *cfg, const char *opt, char *v, mp_err *err);

#define MP_OPT_ROWS_MAX 64   /* rows of one verb, beyond which parsing sees none */

typedef struct mp_opt {
    const char *name;              /* --name */
    const char *arg;               /* its value's name in --help; NULL: a flag */
    mp_opt_kind kind;
    size_t off;                    /* FLAG, STOP, STRING: where in the verb's config */
    mp_opt_set set;                /* CALL */
    const char *help;              /* --help's text for it: "%s" stands for the names
                                    * (shown, else values); "\n" breaks the line */
    const char *(*values)(void);   /* the names a value may be: "a, b, c" */
    const char *(*shown)(void);    /* what --help shows for "%s", when not values */
    mp_opt_complete complete;
    const char *def;               /* CALL: given to set when the option is absent */
    const char *alt;               /* that default when the verb's alt flag is given */
    const char *needs;             /* a missing or empty value, in words: "--out needs
                                    * NEEDS" (NULL: "needs a value" and the verb's see) */
    unsigned flags;
} mp_opt;

/* A verb: its rows and the words around them in --help and in messages. */
typedef struct mp_cli {
    const char *name;              /* "run" */
    const mp_opt *opts;
    size_t nopts;
    const char *intro;             /* --help before the option list */
    const char *outro;             /* --help after it */
    int col;                       /* the column of each option's text in --help */
    int width;                     /* wrap the texts to this width; 0: as they are */
    const char *help_head;         /* the list's line for -h/--help; NULL: none */
    const char *unknown;           /* "unknown option": an option the verb lacks */
    const char *see;               /* after that message and after "needs a value" */
    const char *stray;             /* NULL: operands are the verb's; else an operand
                                    * is "unexpected argument 'X'" STRAY ("": as an
                                    * unknown option) */
    const char *alt;               /* the flag (name) that picks each row's alt default */
    const char *(*operands)(void); /* completion: names an operand may be, or NULL */
    int operand_dirs;              /* completion: an operand may be a directory */
    int man_rows;                  /* the manual lists the rows, not the --help text */
} mp_cli;

/* Rows, perf-style: the usual fields, then any others designated (.def = ...). */
#define MP_OPT_BOOL(n, type, field, h, ...)                                              \
    {.name = (n), .kind = MP_OPT_FLAG, .off = offsetof(type, field), .help = (h), __VA_ARGS__}
#define MP_OPT_STR(n, a, type, field, h, ...)                                            \
    {.name = (n), .arg = (a), .kind = MP_OPT_STRING, .off = offsetof(type, field),         \
     .help = (h), __VA_ARGS__}
#define MP_OPT_FN(n, a, fn, h, ...)                                                      \
    {.name = (n), .arg = (a), .kind = MP_OPT_CALL, .set = (fn), .help = (h), __VA_ARGS__}

#define MP_CLI_NOPTS(a) (sizeof(a) / sizeof((a)[0]))

/* What parsing found beyond the config. */
typedef struct mp_opt_parsed {
    int help;        /* -h or --help: nothing after it was read */
    int next;        /* argv[next..argc) are the operands */
    int malformed;   /* on failure: an option the verb lacks, a missing value or a
                      * stray operand (not a bad value nor a repeat) */
} mp_opt_parsed;

/* Parse argv (argv[0] the verb) into cfg by v's rows, then give each CALL
 * row that was absent its default: 0, or MP_EUSAGE with a message. */
int mp_opt_parse(const mp_cli *v, int argc, char **argv, void *cfg, mp_opt_parsed *p,
                 mp_err *err);

/* Row o's --help text, "%s" filled in and its default added, into buf. */
const char *mp_opt_text(const mp_cli *v, const mp_opt *o, char *buf, size_t len);

/* The --help of v. */
void mp_opt_usage(const mp_cli *v, FILE *f);

/* The verbs' tables (cmd/<verb>.c), in the order main.c lists the verbs. */
extern const mp_cli mp_cli_run, mp_cli_report, mp_cli_compare, mp_cli_events,
    mp_cli_topology, mp_cli_doctor, mp_cli_loop, mp_cli_sim_import, mp_cli_trace;

#endif
