/* SPDX-License-Identifier: MIT */
/* duration.c - durations with units; see duration.h. */
#include "common/duration.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"

static const char *const unit_names[] = {"ns", "us", "ms", "s"};
static const double unit_ns[] = {1, 1e3, 1e6, 1e9};
#define NUNITS (sizeof unit_names / sizeof unit_names[0])

int mp_duration_parse(const char *s, long long max_ns, long long *ns)
{
    char *end;
    if (!s)
        return -EINVAL;
    /* Decimal digits and at most one point: strtod alone would take hex and
     * exponents ("0x10us", "1e-9ns"). */
    size_t digits = strspn(s, "0123456789.");
    const char *point = memchr(s, '.', digits);
    if (!digits || (point && memchr(point + 1, '.', digits - (size_t)(point + 1 - s))))
        return -EINVAL;
    errno = 0;
    double v = strtod(s, &end);
    if (end != s + digits || errno == ERANGE || !isfinite(v) || v < 0)
        return -EINVAL;
    double scale = -1;
    if (!*end && v == 0)
        scale = 1;   /* "0" alone: no unit needed */
    for (size_t i = 0; i < NUNITS && scale < 0; i++)
        if (!strcmp(end, unit_names[i]))
            scale = unit_ns[i];
    if (scale < 0)
        return -EINVAL;
    double x = v * scale;
    if (x > (double)max_ns)
        return -ERANGE;
    if (fabs(x - nearbyint(x)) > 1e-6)
        return -EINVAL;   /* a fraction of a ns */
    *ns = (long long)nearbyint(x);
    return 0;
}

const char *mp_duration_units(void)
{
    static char buf[32];
    return mp_names_join(buf, sizeof buf, unit_names, NUNITS);
}

const char *mp_duration_fmt(char *buf, size_t len, long long ns)
{
    if (ns == 0) {
        snprintf(buf, len, "0");
        return buf;
    }
    size_t u = 0;
    while (u + 1 < NUNITS && (double)llabs(ns) >= unit_ns[u + 1])
        u++;
    /* Six digits: two delays a run tells apart (1001us, 1002us) print apart. */
    snprintf(buf, len, "%.6g %s", (double)ns / unit_ns[u], unit_names[u]);
    return buf;
}
