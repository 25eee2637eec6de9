/* SPDX-License-Identifier: MIT */
/* format.c - table formatting for the report writers.  See format.h. */
#include "report/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/quote.h"

const char *mp_fmt_num(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    double a = fabs(v);
    if (a >= 1e15) {
        snprintf(buf, len, "%.3g", v);
    } else if (a >= 999.5) {
        /* thousands grouped with commas: 656,745 */
        char digits[32];
        snprintf(digits, sizeof digits, "%.0f", a);
        size_t nd = strlen(digits), o = 0;
        char tmp[48];
        if (v < 0)
            tmp[o++] = '-';
        for (size_t i = 0; i < nd; i++) {
            if (i && (nd - i) % 3 == 0)
                tmp[o++] = ',';
            tmp[o++] = digits[i];
        }
        tmp[o] = 0;
        snprintf(buf, len, "%s", tmp);
    } else if (a >= 100) {
        snprintf(buf, len, "%.0f", v);
    } else if (a >= 10) {
        snprintf(buf, len, "%.1f", v);
        size_t n = strlen(buf);
        if (n > 2 && !strcmp(buf + n - 2, ".0"))   /* 80.0 -> 80 */
            buf[n - 2] = 0;
    } else if (a >= 0.01 || a == 0) {
        snprintf(buf, len, "%.3g", v);
    } else {
        snprintf(buf, len, "%.2e", v);
    }
    return buf;
}

const char *mp_md_cell(char *buf, size_t len, const char *s)
{
    return mp_quote_md(buf, len, s);
}

const char *mp_fmt_outside_calls(char *buf, size_t len, const mp_rprofile *p)
{
    if (p->window == MP_RPROF_CALLS && p->outside_calls >= 0)
        return mp_fmt_num(buf, len, (double)p->outside_calls);
    snprintf(buf, len, "%s", mp_rprofile_window(p) ? "not separated (no sample times)"
                                                   : "not separated (older file)");
    return buf;
}
