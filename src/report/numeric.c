/* SPDX-License-Identifier: MIT */
/* numeric.c - least-squares fits, fit validity, knees, and the bytes/lines
 * model of the select/poll/epoll_wait ABIs.  See report/numeric.h. */
#include "report/numeric.h"

#include <math.h>
#include <string.h>

static mp_fit fit_weighted(const double *x, const double *y, const double *w, size_t n)
{
    mp_fit f = {0};
    f.n = n;
    f.r2 = NAN;
    f.slope = NAN;
    f.intercept = NAN;
    if (n < 2)
        return f;
    double mx = 0, my = 0, sw = 0;
    for (size_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        mx += wi * x[i];
        my += wi * y[i];
        sw += wi;
    }
    mx /= sw;
    my /= sw;
    double sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0, dx = x[i] - mx, dy = y[i] - my;
        sxx += wi * dx * dx;
        sxy += wi * dx * dy;
        syy += wi * dy * dy;
    }
    if (!(sxx > 0) || !isfinite(sxx) || !isfinite(sxy))
        return f;
    f.slope = sxy / sxx;
    f.intercept = my - f.slope * mx;
    if (syy > 0 && !mp_series_constant(y, n)) {
        double ssr = 0;
        for (size_t i = 0; i < n; i++) {
            double r = y[i] - (f.intercept + f.slope * x[i]);
            ssr += (w ? w[i] : 1.0) * r * r;
        }
        f.r2 = 1.0 - ssr / syy;
    }   /* else all y equal: no variance to explain, no R² (NaN) */
    f.ok = isfinite(f.slope) && isfinite(f.intercept);
    return f;
}

mp_fit mp_fit_linear(const double *x, const double *y, size_t n)
{
    return fit_weighted(x, y, NULL, n);
}

mp_fit mp_fit_relative(const double *x, const double *y, size_t n)
{
    double w[256], big = 0;
    if (n > sizeof w / sizeof w[0]) {
        mp_fit f = {.n = n, .slope = NAN, .intercept = NAN, .r2 = NAN};
        return f;
    }
    for (size_t i = 0; i < n; i++)
        big = fmax(big, fabs(y[i]));
    double floor_ = fmax(1.0, 1e-3 * big);
    for (size_t i = 0; i < n; i++) {
        double s = fmax(fabs(y[i]), floor_);
        w[i] = 1.0 / (s * s);
    }
    return fit_weighted(x, y, w, n);
}

int mp_series_constant(const double *y, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (y[i] != y[0])
            return 0;
    return 1;
}

size_t mp_marginal(const double *x, const double *y, size_t n, double *out)
{
    if (n < 2)
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        out[i] = x[i + 1] > x[i] ? (y[i + 1] - y[i]) / (x[i + 1] - x[i]) : NAN;
    return n - 1;
}

static int holds(const double *x, const double *y, size_t k, double min_r2,
                 double max_rel, mp_fit *fit)
{
    *fit = mp_fit_linear(x, y, k);
    if (!fit->ok || !(fit->r2 >= min_r2))
        return 0;
    for (size_t i = 0; i < k; i++) {
        double p = fit->intercept + fit->slope * x[i];
        double scale = fmax(fabs(y[i]), fabs(p));
        if (scale > 0 && fabs(y[i] - p) / scale > max_rel)
            return 0;
    }
    return 1;
}

size_t mp_fit_holds(const double *x, const double *y, size_t n,
                    double min_r2, double max_rel, mp_fit *fit)
{
    mp_fit f;
    for (size_t k = n; k >= 3; k--) {
        if (holds(x, y, k, min_r2, max_rel, &f)) {
            if (fit)
                *fit = f;
            return k;
        }
    }
    if (fit) {
        memset(fit, 0, sizeof *fit);
        *fit = mp_fit_linear(x, y, n);
    }
    return 0;
}

double mp_loglog_slope(double x0, double y0, double x1, double y1)
{
    if (!(x0 > 0) || !(x1 > 0) || !(y0 > 0) || !(y1 > 0) || x0 == x1)
        return NAN;
    return (log(y1) - log(y0)) / (log(x1) - log(x0));
}

size_t mp_find_knees(const double *x, const double *y, size_t n,
                     double threshold, mp_knee *out, size_t max)
{
    size_t found = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        double s = mp_loglog_slope(x[i], y[i], x[i + 1], y[i + 1]);
        if (!(s > threshold))
            continue;
        if (found < max && out)
            out[found] = (mp_knee){ .i = i, .x0 = x[i], .x1 = x[i + 1], .slope = s,
                                     .lo = NAN, .hi = NAN };
        found++;
    }
    return found;
}

mp_abi mp_abi_from_arch(const char *arch)
{
    if (!arch)
        return MP_ABI_OTHER;
    if (!strcmp(arch, "x86_64") || !strcmp(arch, "amd64"))
        return MP_ABI_X86_64;
    if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
        return MP_ABI_ARM64;
    return MP_ABI_OTHER;
}

unsigned mp_abi_epoll_event_bytes(mp_abi abi)
{
    /* struct epoll_event { uint32_t events; uint64_t data; } is declared
     * __attribute__((packed)) only on x86_64 (for i386 compatibility). */
    return abi == MP_ABI_X86_64 ? 12u : 16u;
}

unsigned long long mp_lines(unsigned long long bytes, unsigned line_bytes)
{
    if (line_bytes == 0)
        line_bytes = 64;
    return (bytes + line_bytes - 1) / line_bytes;
}

static mp_move move(unsigned long long in, unsigned long long out, unsigned line)
{
    return (mp_move){ .bytes_in = in, .bytes_out = out,
                      .lines_in = mp_lines(in, line), .lines_out = mp_lines(out, line) };
}

mp_move mp_move_poll(unsigned long long nfds, unsigned line_bytes)
{
    /* In: the whole 8-byte pollfd per fd.  Out: only the 2-byte revents of
     * each entry is written back, but those writes touch every line. */
    unsigned long long b = nfds * MP_POLLFD_BYTES;
    mp_move m = move(b, nfds * MP_REVENTS_BYTES, line_bytes);
    m.lines_out = m.lines_in;
    return m;
}

mp_move mp_move_select(unsigned long long maxfd, unsigned nsets, unsigned line_bytes)
{
    unsigned long long words = (maxfd + 1 + 63) / 64;
    unsigned long long b = words * 8ull * nsets;
    return move(b, b, line_bytes);
}

mp_move mp_move_epoll(unsigned long long nready, mp_abi abi, unsigned line_bytes)
{
    return move(0, nready * mp_abi_epoll_event_bytes(abi), line_bytes);
}

unsigned mp_kernel_bytes_per_fd(int wakeup)
{
    unsigned b = 8 + 64 + 64;   /* fdtable slot, struct file, pipe/socket */
    if (wakeup)
        b += 64 + 64;           /* poll_table_entry, wait_queue_head line */
    return b;
}

double mp_cross_nfds(unsigned long long cache_bytes, double bytes_per_fd)
{
    if (!(bytes_per_fd > 0))
        return NAN;
    return (double)cache_bytes / bytes_per_fd;
}

int mp_crossing(const double *x, const double *a, const double *b, size_t n, double *at)
{
    if (n == 0)
        return MP_CROSS_NODATA;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(a[i]) || !isfinite(b[i]))
            return MP_CROSS_NODATA;
    if (a[0] >= b[0]) {
        *at = x[0];
        return MP_CROSS_BEFORE;
    }
    for (size_t i = 1; i < n; i++) {
        double d0 = a[i - 1] - b[i - 1], d1 = a[i] - b[i];
        if (d1 >= 0) {
            *at = x[i - 1] + (x[i] - x[i - 1]) * (-d0) / (d1 - d0);
            return MP_CROSS_AT;
        }
    }
    return MP_CROSS_NONE;
}

int mp_crossing_loglog(const double *x, const double *a, const double *b, size_t n, double *at)
{
    double lx[256], la[256], lb[256];
    if (n == 0 || n > 256)
        return MP_CROSS_NODATA;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !(a[i] > 0) || !(b[i] > 0))
            return MP_CROSS_NODATA;
        lx[i] = log(x[i]);
        la[i] = log(a[i]);
        lb[i] = log(b[i]);
    }
    double l;
    int r = mp_crossing(lx, la, lb, n, &l);
    if (r == MP_CROSS_AT || r == MP_CROSS_BEFORE)
        *at = exp(l);
    return r;
}

void mp_add_sorted(long long *v, size_t *n, size_t max, long long x)
{
    for (size_t i = 0; i < *n; i++)
        if (v[i] == x)
            return;
    if (*n >= max)
        return;
    size_t j = (*n)++;
    while (j > 0 && v[j - 1] > x) {
        v[j] = v[j - 1];
        j--;
    }
    v[j] = x;
}
