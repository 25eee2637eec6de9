/* SPDX-License-Identifier: MIT */
/* names.c - name lists for messages.  See names.h. */
#include "common/names.h"

#include <stdio.h>

const char *mp_names_join(char *buf, size_t len, const char *const *names, size_t n)
{
    size_t o = 0;
    if (len)
        buf[0] = 0;
    for (size_t i = 0; i < n && o < len; i++) {
        int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    return buf;
}
