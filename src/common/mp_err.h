/* SPDX-License-Identifier: MIT */
/* mp_err.h - the error convention of every muxprof module.  common/ uses
 * nothing else of muxprof, and every folder may use it.
 *
 * Functions return 0 on success or a negative errno value on failure.
 * When they fail they also fill an mp_err with one line that says what
 * failed, why, and what the user can do about it.  Only main.c decides to
 * exit; library code never prints or exits on its own.
 *
 * MP_EUSAGE (== -EINVAL) is the code for "the user asked for something
 * invalid": main maps it to exit status 2, every other failure to 1.
 */
#ifndef MP_ERR_H
#define MP_ERR_H

#include <errno.h>
#include <stddef.h>

#define MP_ERR_MAX 512
#define MP_EUSAGE (-EINVAL)

typedef struct mp_err {
    int code;               /* 0 or a negative errno */
    char msg[MP_ERR_MAX];   /* one line, no trailing newline */
} mp_err;

/* Record an error and return code (so "return mp_errf(e, -EIO, ...)"). */
int mp_errf(mp_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clear e (code 0, empty message). */
void mp_err_clear(mp_err *e);

/* A value the user gave, as a message echoes it: its first MP_ECHO_MAX
 * bytes (cut at a character boundary), then "... (N bytes)" when it is
 * longer; control characters as '?', so the message stays one line.
 * Returns e->s.  One buffer per value echoed in the same message. */
#define MP_ECHO_MAX 160
typedef struct mp_echo {
    char s[MP_ECHO_MAX + 40];
} mp_echo;
const char *mp_echo_arg(mp_echo *e, const char *value);

#endif
