/* internal.h - what the verb files of cmd/ share and nothing outside uses. */
#ifndef MP_CMD_INTERNAL_H
#define MP_CMD_INTERNAL_H

#include "common/mp_err.h"

/* A whole decimal number in [lo, hi] for option opt ("--fds"): 0, or
 * MP_EUSAGE with "OPT: 'S' is not a whole number; expected LO..HI" or
 * "... is out of range" (cmd/run_options.c). */
int mp__cli_parse_count(const char *opt, const char *s, long lo, long hi, long *out,
                        mp_err *err);

#endif
