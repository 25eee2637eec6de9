/* SPDX-License-Identifier: MIT */
/* geometry.c - geometry files (model.h: mp_sim_geometry_parse). */
#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEO_FILE_MAX (64 * 1024)

/* "32K", "1M", "4096" -> bytes; 0 when it is not one. */
static uint64_t bytes(const char *v, const char *end)
{
    char *e;
    if (v == end || !isdigit((unsigned char)*v))
        return 0;
    errno = 0;
    unsigned long long n = strtoull(v, &e, 10);
    if (errno)
        return 0;
    uint64_t mul = 1;
    if (e < end && (*e == 'K' || *e == 'k'))
        mul = 1024, e++;
    else if (e < end && (*e == 'M' || *e == 'm'))
        mul = 1024 * 1024, e++;
    if (e != end || n > UINT64_MAX / mul)
        return 0;
    return n * mul;
}

/* "A,B" with A in bytes (K, M) and B a count; 0 or -1. */
static int pair(const char *v, uint64_t *a, unsigned *b)
{
    const char *comma = strchr(v, ',');
    if (!comma)
        return -1;
    *a = bytes(v, comma);
    uint64_t w = bytes(comma + 1, comma + 1 + strlen(comma + 1));
    if (!*a || !w || w > 1u << 20)
        return -1;
    *b = (unsigned)w;
    return 0;
}

int mp_sim_prefetch_parse(const char *v, unsigned *bits, mp_err *err)
{
    static const struct { const char *name; unsigned bits; } pf[] = {
        {"none", 0}, {"l1d", MP_SIM_PF_L1D}, {"l2", MP_SIM_PF_L2},
        {"l1d+l2", MP_SIM_PF_L1D | MP_SIM_PF_L2},
    };
    for (size_t i = 0; i < sizeof pf / sizeof pf[0]; i++)
        if (!strcmp(v, pf[i].name)) {
            *bits = pf[i].bits;
            return 0;
        }
    mp_echo e;
    return mp_errf(err, MP_EUSAGE, "prefetch: '%.60s' is not one of none, l1d, l2, l1d+l2",
                   mp_echo_arg(&e, v));
}

enum { K_DESC, K_LINE, K_L1I, K_L1D, K_L2, K_L3, K_POLICY, K_ITLB, K_DTLB, K_L2TLB, K_PAGE,
       K_PREFETCH, K_SOURCE, K_ISA, K_N };
static const char *const keys[K_N] = {"description", "line", "l1i", "l1d", "l2", "l3",
                                      "l3_policy", "itlb", "dtlb", "l2tlb", "page",
                                      "prefetch", "source", "isa"};

static int set(mp_sim_geometry *g, int k, const char *v, mp_err *err)
{
    uint64_t a;
    unsigned b;
    mp_sim_cache_geo *c = k == K_L1I ? &g->l1i : k == K_L1D ? &g->l1d : k == K_L2 ? &g->l2 :
                          &g->l3;
    mp_sim_tlb_geo *t = k == K_ITLB ? &g->itlb : k == K_DTLB ? &g->dtlb : &g->l2tlb;
    switch (k) {
    case K_DESC:
        snprintf(g->description, sizeof g->description, "%s", v);
        return 0;
    case K_SOURCE:
        return 0;
    case K_ISA:
        if (strcmp(v, "arm64") && strcmp(v, "x86_64"))
            return mp_errf(err, MP_EUSAGE, "'%.60s' is not arm64 or x86_64", v);
        snprintf(g->isa, sizeof g->isa, "%s", v);
        return 0;
    case K_LINE:
    case K_PAGE:
        a = bytes(v, v + strlen(v));
        if (!a || a > UINT32_MAX)
            return mp_errf(err, MP_EUSAGE, "'%.60s' is not a size in bytes (64, 4K)", v);
        if (k == K_LINE)
            g->line = (unsigned)a;
        else
            g->page = a;
        return 0;
    case K_L1I:
    case K_L1D:
    case K_L2:
    case K_L3:
        if (pair(v, &a, &b) < 0)
            return mp_errf(err, MP_EUSAGE, "'%.60s' is not SIZE,WAYS (32K,8)", v);
        c->size = a, c->ways = b;
        return 0;
    case K_ITLB:
    case K_DTLB:
    case K_L2TLB:
        if (pair(v, &a, &b) < 0 || a > 1u << 24)
            return mp_errf(err, MP_EUSAGE, "'%.60s' is not ENTRIES,WAYS (48,48)", v);
        t->entries = (unsigned)a, t->ways = b;
        return 0;
    case K_POLICY:
        if (!strcmp(v, "inclusive"))
            g->l3_policy = MP_SIM_INCLUSIVE;
        else if (!strcmp(v, "victim"))
            g->l3_policy = MP_SIM_VICTIM;
        else
            return mp_errf(err, MP_EUSAGE, "'%.60s' is not inclusive or victim", v);
        return 0;
    default:
        return mp_sim_prefetch_parse(v, &g->prefetch, err);
    }
}

int mp_sim_geometry_parse(const char *text, const char *name, mp_sim_geometry *g, mp_err *err)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    int seen[K_N] = {0}, lineno = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
        char buf[512];
        lineno++;
        size_t len = (size_t)(end - p);
        if (len >= sizeof buf)
            return mp_errf(err, MP_EUSAGE, "%s:%d: line longer than %zu bytes", name, lineno,
                           sizeof buf - 1);
        memcpy(buf, p, len);
        buf[len] = 0;
        p = nl ? nl + 1 : end;
        while (len && isspace((unsigned char)buf[len - 1]))
            buf[--len] = 0;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        char *eq = strchr(s, '=');
        if (!eq)
            return mp_errf(err, MP_EUSAGE, "%s:%d: '%.60s' is not key=value", name, lineno, s);
        *eq = 0;
        int k = 0;
        while (k < K_N && strcmp(keys[k], s))
            k++;
        if (k == K_N)
            return mp_errf(err, MP_EUSAGE, "%s:%d: unknown key '%.60s' (description, source, line, "
                           "l1i, l1d, l2, l3, l3_policy, itlb, dtlb, l2tlb, page, prefetch, isa)",
                           name, lineno, s);
        if (seen[k]++ && k != K_SOURCE)
            return mp_errf(err, MP_EUSAGE, "%s:%d: %s given twice", name, lineno, s);
        mp_err e2;
        if (set(g, k, eq + 1, &e2) < 0)
            return mp_errf(err, MP_EUSAGE, "%s:%d: %s: %s", name, lineno, s, e2.msg);
    }
    for (int k = 0; k < K_N; k++)
        if (!seen[k] && k != K_SOURCE && k != K_PREFETCH && k != K_ISA)
            return mp_errf(err, MP_EUSAGE, "%s: no %s= line", name, keys[k]);
    mp_err e2;
    if (mp_sim_geometry_check(g, &e2) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: %s", name, e2.msg);
    return 0;
}

int mp_sim_geometry_load(const char *path, mp_sim_geometry *g, mp_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return mp_errf(err, -errno, "%s: %s", path, strerror(errno));
    char *text = malloc(GEO_FILE_MAX + 1);
    if (!text) {
        fclose(f);
        return mp_errf(err, -ENOMEM, "out of memory reading %s", path);
    }
    size_t n = fread(text, 1, GEO_FILE_MAX + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n > GEO_FILE_MAX) {
        free(text);
        return mp_errf(err, bad ? -EIO : MP_EUSAGE, "%s: %s", path,
                       bad ? "read error" : "larger than 64 KiB; not a geometry file");
    }
    text[n] = 0;
    const char *base = strrchr(path, '/');
    char name[64];
    snprintf(name, sizeof name, "%s", base ? base + 1 : path);
    char *dot = strstr(name, ".conf");
    if (dot && !dot[5])
        *dot = 0;
    int rc = mp_sim_geometry_parse(text, name, g, err);
    free(text);
    return rc;
}
