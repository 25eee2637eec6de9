/* SPDX-License-Identifier: MIT */
/* numeric.h - the arithmetic behind a report: least-squares fits, how far
 * a fit holds, knees in a log-log curve, and the bytes and cache lines one
 * select/poll/epoll_wait call must move across the user/kernel boundary
 * according to the kernel ABI.  Pure functions of numbers: no JSON, no I/O,
 * so tests can feed them synthetic data with known answers.
 */
#ifndef MP_REPORT_NUMERIC_H
#define MP_REPORT_NUMERIC_H

#include <stddef.h>

/* y = intercept + slope * x over n points.  r2 is the coefficient of
 * determination (1 when every point lies on the line); NaN when all y are
 * equal: a constant series has no R² (nothing to explain).  ok = 0 when
 * fewer than 2 points or all x equal. */
typedef struct mp_fit {
    double slope;
    double intercept;
    double r2;
    size_t n;
    int ok;
} mp_fit;

mp_fit mp_fit_linear(const double *x, const double *y, size_t n);

/* The same line fitted by least squares on relative error: each point
 * weighted 1 / max(|y|, floor)^2 with floor = max(1, 1e-3 max|y|), so every
 * N counts alike instead of the largest N deciding the slope.  r2 is the
 * weighted coefficient of determination (NaN when all y are equal). */
mp_fit mp_fit_relative(const double *x, const double *y, size_t n);

/* 1 when n >= 1 and every y is the same value. */
int mp_series_constant(const double *y, size_t n);

/* Marginal cost of each interval: out[i] = (y[i+1] - y[i]) / (x[i+1] - x[i])
 * for i < n - 1 (NaN where x does not grow).  Returns n - 1 (0 for n < 2). */
size_t mp_marginal(const double *x, const double *y, size_t n, double *out);

/* Largest prefix (sorted by x, at least 3 points) over which a linear fit
 * holds: r2 >= min_r2 and every point within max_rel of the fitted value
 * (relative to max(|y|, |fit|)).  Returns the number of points k of that prefix,
 * 0 when fewer than 3 points exist or even 3 fail.  The fit over the prefix
 * goes to *fit when fit != NULL.  When 0 < k < n, x[k] is where the fit
 * stops holding. */
size_t mp_fit_holds(const double *x, const double *y, size_t n,
                    double min_r2, double max_rel, mp_fit *fit);

/* Local log-log slope between neighbouring points i and i+1:
 * d ln y / d ln x.  NaN when either point is not positive. */
double mp_loglog_slope(double x0, double y0, double x1, double y1);

/* A knee: between x[i] and x[i+1] the log-log slope exceeds threshold. */
typedef struct mp_knee {
    size_t i;          /* index of the left point */
    double x0, x1;     /* the interval */
    double slope;      /* its log-log slope */
    double lo, hi;     /* its 95% interval (NaN: none; mp_find_knees gives none) */
} mp_knee;

/* Find knees in points sorted by x (threshold > 1 means "clearly above
 * linear"; reports use MP_KNEE_SLOPE).  Writes at most max knees, returns
 * how many were found (possibly more than max). */
#define MP_KNEE_SLOPE 1.2
size_t mp_find_knees(const double *x, const double *y, size_t n,
                     double threshold, mp_knee *out, size_t max);

/* ---- the kernel ABI: bytes and lines per call ---------------------------- */

typedef enum mp_abi { MP_ABI_X86_64, MP_ABI_ARM64, MP_ABI_OTHER } mp_abi;

/* "x86_64" -> MP_ABI_X86_64; "aarch64"/"arm64" -> MP_ABI_ARM64; else OTHER. */
mp_abi mp_abi_from_arch(const char *arch);
/* sizeof(struct epoll_event): 12 on x86_64 (packed), 16 elsewhere. */
unsigned mp_abi_epoll_event_bytes(mp_abi abi);

#define MP_POLLFD_BYTES 8u   /* struct pollfd: int fd; short events, revents */
#define MP_REVENTS_BYTES 2u  /* what poll writes back per entry */

/* ceil(bytes / line) lines, assuming the buffer starts on a line boundary. */
unsigned long long mp_lines(unsigned long long bytes, unsigned line_bytes);

/* What one call moves through copy_from_user/copy_to_user. */
typedef struct mp_move {
    unsigned long long bytes_in;    /* user -> kernel */
    unsigned long long bytes_out;   /* kernel -> user */
    unsigned long long lines_in;
    unsigned long long lines_out;
} mp_move;

/* poll(): the pollfd array is copied in, and revents is written back into
 * every entry, so the same lines come back out. */
mp_move mp_move_poll(unsigned long long nfds, unsigned line_bytes);
/* select(): nsets bitmaps (muxprof passes only the read set: 1) of
 * ceil((maxfd+1)/64) 8-byte words in, and the same back. */
mp_move mp_move_select(unsigned long long maxfd, unsigned nsets, unsigned line_bytes);
/* epoll_wait(): nothing copied in; one epoll_event per ready fd out. */
mp_move mp_move_epoll(unsigned long long nready, mp_abi abi, unsigned line_bytes);

/* Estimated kernel bytes touched per watched descriptor by poll/select,
 * beyond the user array: fdtable slot (8), one line of struct file (64),
 * one line of the pipe/socket object (64); wakeup mode adds the
 * poll_table_entry (64) and the wait-queue head's line (64). */
unsigned mp_kernel_bytes_per_fd(int wakeup);

/* N at which a per-descriptor footprint of bytes_per_fd fills cache_bytes. */
double mp_cross_nfds(unsigned long long cache_bytes, double bytes_per_fd);

/* Where curve a (say epoll's median against K) first reaches curve b
 * (poll's) over the shared points x[0..n-1], x increasing: between the
 * first x[i-1] with a < b and x[i] with a >= b, interpolated linearly in x
 * on the difference a - b (exact when both are straight lines in x).
 * Returns MP_CROSS_AT (and *at), MP_CROSS_BEFORE when a >= b already at
 * x[0] (*at = x[0]), MP_CROSS_NONE when a < b at every point, and
 * MP_CROSS_NODATA when n == 0 or a value is not finite. */
enum { MP_CROSS_AT, MP_CROSS_BEFORE, MP_CROSS_NONE, MP_CROSS_NODATA };
int mp_crossing(const double *x, const double *a, const double *b, size_t n, double *at);
/* The same in log-log space: ln a - ln b interpolated linearly in ln x, so
 * the crossing sits where the two lines meet on a log-log figure.  Every
 * value must be positive (else MP_CROSS_NODATA). */
int mp_crossing_loglog(const double *x, const double *a, const double *b, size_t n, double *at);

/* x into v[0..*n-1], kept ascending and without repeats; nothing when x is
 * there already or v holds max values. */
void mp_add_sorted(long long *v, size_t *n, size_t max, long long x);

#endif
