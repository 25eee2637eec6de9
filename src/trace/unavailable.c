// SPDX-License-Identifier: MIT
/* unavailable.c - trace/ in a build that lacked what the BPF program needs
 * (libbpf, bpftool, clang, an x86_64 target): `muxprof trace` refuses with
 * what was missing and how to get it (trace/trace.h). */
#include "trace/trace.h"

#include <errno.h>
#include <stdio.h>

int mp_trace_available(char *why, size_t n)
{
    snprintf(why, n, "this muxprof was built without trace: %s (%s)", MP_TRACE_MISSING,
             MP_TRACE_HOW);
    return 0;
}

int mp_trace_run(const mp_trace_opts *o, volatile sig_atomic_t *stop, mp_trace_sum *sum,
                 mp_err *err)
{
    char why[512];
    (void)o;
    (void)stop;
    (void)sum;
    mp_trace_available(why, sizeof why);
    return mp_errf(err, -ENOSYS, "%s", why);
}
