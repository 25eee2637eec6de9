/* SPDX-License-Identifier: MIT */
/* fuzz_say.h - what a fuzz target says about an input.  Define
 * MP_FUZZ_NAME (the target's name, a string) before including it.
 *
 * say():     MP_FUZZ_SAY=1 in the environment: one line per input saying
 *            what became of it (for checking what the seeds reach;
 *            libFuzzer runs stay quiet);
 * finding(): a finding, on one line, then abort() for libFuzzer to keep
 *            the input. */
#ifndef MP_FUZZ_SAY_H
#define MP_FUZZ_SAY_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef MP_FUZZ_NAME
#error "define MP_FUZZ_NAME before including fuzz_say.h"
#endif

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    static int on = -1;
    if (on < 0)
        on = getenv("MP_FUZZ_SAY") != NULL;
    if (!on)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs(MP_FUZZ_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void finding(const char *what, const char *msg)
{
    fprintf(stderr, MP_FUZZ_NAME ": %s%s%s\n", what, msg ? ": " : "", msg ? msg : "");
    abort();
}

#endif
