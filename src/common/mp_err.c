/* SPDX-License-Identifier: MIT */
/* mp_err.c - see mp_err.h. */
#include "common/mp_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int mp_errf(mp_err *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = code;
    }
    return code;
}

void mp_err_clear(mp_err *e)
{
    if (e) {
        e->code = 0;
        e->msg[0] = '\0';
    }
}

const char *mp_echo_arg(mp_echo *e, const char *value)
{
    size_t len = strlen(value), n = len;
    if (n > MP_ECHO_MAX) {
        n = MP_ECHO_MAX;
        while (n > 0 && ((unsigned char)value[n] & 0xC0) == 0x80)
            n--;   /* not inside a UTF-8 sequence */
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)value[i];
        e->s[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    if (n < len)
        snprintf(e->s + n, sizeof e->s - n, "... (%zu bytes)", len);
    else
        e->s[n] = '\0';
    return e->s;
}
