/* SPDX-License-Identifier: MIT */
/* duration.h - durations with units, as options take them ("0", "30us",
 * "1.5ms", "2s") and as outputs print them ("0", "30 us", "1.5 ms"). */
#ifndef MP_DURATION_H
#define MP_DURATION_H

#include <stddef.h>

/* s as whole ns: a number (decimals allowed) and one of the units of
 * mp_duration_units(); "0" alone needs none.  0, or -EINVAL (no number,
 * no or an unknown unit, negative, not a whole ns) or -ERANGE (over max_ns). */
int mp_duration_parse(const char *s, long long max_ns, long long *ns);
/* "ns, us, ms, s" for messages. */
const char *mp_duration_units(void);
/* ns in the largest unit it is a whole or decimal (3 significant digits)
 * number of: "0", "500 ns", "30 us", "1.5 ms", "2 s".  Returns buf. */
const char *mp_duration_fmt(char *buf, size_t len, long long ns);

#endif
