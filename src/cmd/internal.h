/* internal.h - what the verb files of cmd/ share and nothing outside uses. */
#ifndef MP_CMD_INTERNAL_H
#define MP_CMD_INTERNAL_H

#include "common/file.h"
#include "common/mp_err.h"

/* A whole decimal number in [lo, hi] for option opt ("--fds"): 0, or
 * MP_EUSAGE with "OPT: 'S' is not a whole number; expected LO..HI" or
 * "... is out of range" (cmd/run_options.c). */
int mp__cli_parse_count(const char *opt, const char *s, long lo, long hi, long *out,
                        mp_err *err);

/* Take path as a verb's output directory (--out) into d: created anew; or an
 * existing empty directory of yours, claimed so that no other process takes
 * it too; or, with force, one that muxprof wrote (it holds a manifest).
 * Anything else, and a directory common/file.h will not write into (a link,
 * another user's, writable by others), is MP_EUSAGE with a message that says
 * what to do (cmd/cmd.c). */
int mp__cmd_out_dir(mp_dir *d, const char *path, int force, mp_err *err);
/* The options a hand-parsed verb has seen.  A verb has fewer than
 * MP__CLI_SEEN_MAX options, and one it does not know ends its parsing. */
#define MP__CLI_SEEN_MAX 32
typedef struct mp__cli_seen {
    const char *name[MP__CLI_SEEN_MAX];   /* into argv: "--out" or "--out=DIR" */
    size_t len[MP__CLI_SEEN_MAX];         /* of the name, up to '=' */
    size_t n;
} mp__cli_seen;

/* Every option is taken once: arg is an argv item; 0 when it is not an
 * option ("-", a value) or its name (up to '=') is new, else MP_EUSAGE with
 * "--out given twice". */
int mp__cli_once(mp__cli_seen *seen, const char *arg, mp_err *err);

#endif
