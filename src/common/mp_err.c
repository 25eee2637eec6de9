/* mp_err.c - see mp_err.h. */
#include "common/mp_err.h"

#include <stdarg.h>
#include <stdio.h>

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
