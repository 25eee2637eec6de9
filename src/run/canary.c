/* SPDX-License-Identifier: MIT */
/* canary.c - the host's level in every pass; see canary.h. */
#include "run/canary.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/stats.h"
#include "run/noise.h"

#define CANARY_BLOCKS 5
#define CANARY_CALLS 1000          /* getppid() calls per block */
#define CANARY_STEPS 20000         /* chase steps per block, after as many to warm up */
#define LINE_WORDS (64 / sizeof(size_t))
#define L1_BYTES (16u << 10)
#define LLC_DEFAULT (4u << 20)
#define LLC_MIN (256u << 10)
#define LLC_MAX (16u << 20)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* utime + stime of process pid, seconds; NaN when it is gone or
 * unreadable (a helper that died in the pass took its CPU time with it:
 * the pass's other_busy is then unknown, not inflated). */
static double proc_cpu_s(pid_t pid)
{
    char path[40], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NAN;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');   /* the name may hold spaces and parentheses */
    unsigned long long ut, st;
    long hz = sysconf(_SC_CLK_TCK);
    /* after ")": state (3), then fields 4..13, utime (14), stime (15) */
    if (!p || hz <= 0 || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
                                &ut, &st) != 2)
        return NAN;
    return (double)(ut + st) / (double)hz;
}

static double own_cpu_s(const mp_canary_state *s)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) < 0)
        return NAN;
    double t = (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    for (size_t i = 0; i < sizeof s->helpers / sizeof s->helpers[0]; i++)
        if (s->helpers[i] > 0)
            t += proc_cpu_s(s->helpers[i]);
    return t;
}

/* A cycle through every line of buf (nwords words), in a fixed random
 * order (Sattolo's algorithm: one cycle, no shorter loop). */
static size_t *chase(size_t bytes, size_t *nwords)
{
    size_t lines = bytes / 64;
    size_t *buf = aligned_alloc(64, lines * 64);
    size_t *order = malloc(lines * sizeof *order);
    if (!buf || !order) {
        free(buf);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = lines - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = (size_t)(x % i);
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    memset(buf, 0, lines * 64);
    for (size_t i = 0; i < lines; i++)
        buf[order[i] * LINE_WORDS] = order[(i + 1) % lines] * LINE_WORDS;
    free(order);
    *nwords = lines * LINE_WORDS;
    return buf;
}

int mp_canary_init(mp_canary_state *s, size_t llc_bytes)
{
    memset(s, 0, sizeof *s);
    size_t llc = llc_bytes ? llc_bytes / 2 : LLC_DEFAULT;
    llc = llc < LLC_MIN ? LLC_MIN : llc > LLC_MAX ? LLC_MAX : llc;
    s->llc_bytes = llc;
    s->l1 = chase(L1_BYTES, &s->nl1);
    s->llc = chase(llc, &s->nllc);
    if (!s->l1 || !s->llc) {
        mp_canary_free(s);
        return -ENOMEM;
    }
    return 0;
}

void mp_canary_free(mp_canary_state *s)
{
    free(s->l1);
    free(s->llc);
    s->l1 = s->llc = NULL;
}

/* ns per step of the chase: the median over the blocks, after a warm-up of
 * one block (or one lap of a shorter cycle). */
static double chase_ns(const size_t *buf, size_t nwords)
{
    volatile size_t sink;
    size_t p = 0;
    for (size_t k = 0; k < nwords / LINE_WORDS && k < CANARY_STEPS; k++)
        p = buf[p];
    double t[CANARY_BLOCKS];
    for (int b = 0; b < CANARY_BLOCKS; b++) {
        double t0 = now_s();
        for (int k = 0; k < CANARY_STEPS; k++)
            p = buf[p];
        t[b] = (now_s() - t0) * 1e9 / CANARY_STEPS;
    }
    sink = p;
    (void)sink;
    return mp_median(t, CANARY_BLOCKS);
}

static double syscall_ns(void)
{
    double t[CANARY_BLOCKS];
    for (int b = 0; b < CANARY_BLOCKS; b++) {
        double t0 = now_s();
        for (int k = 0; k < CANARY_CALLS; k++)
            (void)syscall(SYS_getppid);
        t[b] = (now_s() - t0) * 1e9 / CANARY_CALLS;
    }
    return mp_median(t, CANARY_BLOCKS);
}

static int busy_ticks(unsigned long long *busy)
{
    mp_noise_snap s;
    mp_noise_snap_take(&s);
    if (!s.have_stat)
        return -1;
    *busy = s.total - s.idle - s.steal;
    return 0;
}

void mp_canary_begin(mp_canary_state *s, mp_canary *out)
{
    out->syscall_ns = syscall_ns();
    out->l1_ns = s->l1 ? chase_ns(s->l1, s->nl1) : NAN;
    out->llc_ns = s->llc ? chase_ns(s->llc, s->nllc) : NAN;
    out->other_busy = NAN;
    s->have_busy = busy_ticks(&s->busy0) == 0;
    s->own0_s = own_cpu_s(s);
    s->wall0_s = now_s();
}

void mp_canary_end(mp_canary_state *s, mp_canary *out)
{
    unsigned long long busy1;
    long hz = sysconf(_SC_CLK_TCK);
    double wall = now_s() - s->wall0_s, own = own_cpu_s(s) - s->own0_s;
    if (!s->have_busy || busy_ticks(&busy1) < 0 || hz <= 0 || !(wall > 0) || isnan(own))
        return;
    double other = ((double)(busy1 - s->busy0) / (double)hz - own) / wall;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    /* tick granularity: never below none, nor above every CPU */
    out->other_busy = other < 0 ? 0 : ncpu > 0 && other > (double)ncpu ? (double)ncpu : other;
}

static void number(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static const char *const keys[] = {"syscall_ns", "l1_ns", "llc_ns", "other_busy"};
#define NKEYS (sizeof keys / sizeof keys[0])

static double field(const mp_canary *c, size_t k)
{
    return k == 0 ? c->syscall_ns : k == 1 ? c->l1_ns : k == 2 ? c->llc_ns : c->other_busy;
}

/* Median and max/min of quantity k over the passes where it was measured. */
static void summary(const mp_canary *p, size_t n, size_t k, double *median, double *spread)
{
    double v[64];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 64; i++)
        if (isfinite(field(&p[i], k)))
            v[m++] = field(&p[i], k);
    *median = m ? mp_median(v, m) : NAN;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < m; i++)
        lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
    *spread = m >= 2 && lo > 0 ? hi / lo : NAN;
}

double mp_canary_spread(const mp_canary *passes, size_t n, const char **which)
{
    double worst = NAN;
    *which = NULL;
    for (size_t k = 0; k < 3; k++) {   /* the timed ones: other_busy is a load, not a cost */
        double med, sp;
        summary(passes, n, k, &med, &sp);
        if (isfinite(sp) && !(sp <= worst)) {
            worst = sp;
            *which = keys[k];
        }
    }
    return worst;
}

cJSON *mp_canary_json(const mp_canary_state *s, const mp_canary *passes, size_t n)
{
    cJSON *o = cJSON_CreateObject();
    char method[320];
    snprintf(method, sizeof method, "per pass, before its cells, on the waiter's CPU: "
             "getppid() (median of %d blocks of %d calls), a pointer chase of one 64-byte line "
             "per step through %u KiB and %zu KiB (median of %d blocks of %d steps); "
             "other_busy: /proc/stat busy time less muxprof's own, per second of the pass",
             CANARY_BLOCKS, CANARY_CALLS, L1_BYTES >> 10, s->llc_bytes >> 10, CANARY_BLOCKS,
             CANARY_STEPS);
    cJSON_AddStringToObject(o, "method", method);
    cJSON_AddNumberToObject(o, "l1_bytes", L1_BYTES);
    cJSON_AddNumberToObject(o, "llc_bytes", (double)s->llc_bytes);
    cJSON *a = cJSON_AddArrayToObject(o, "passes");
    for (size_t i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        for (size_t k = 0; k < NKEYS; k++)
            number(e, keys[k], field(&passes[i], k));
        cJSON_AddItemToArray(a, e);
    }
    cJSON *med = cJSON_AddObjectToObject(o, "median");
    cJSON *spr = cJSON_AddObjectToObject(o, "spread");
    for (size_t k = 0; k < NKEYS; k++) {
        double m, sp;
        summary(passes, n, k, &m, &sp);
        number(med, keys[k], m);
        number(spr, keys[k], sp);
    }
    return o;
}
