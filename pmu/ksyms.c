/* SPDX-License-Identifier: MIT */
/* ksyms.c - kernel text symbols from /proc/kallsyms (or a fixture in the
 * same format), sorted once, looked up by binary search.
 *
 * /proc/kallsyms shows real addresses only to readers the kernel trusts
 * (kallsyms_show_value): with kernel.kptr_restrict=0, when
 * perf_event_paranoid <= 1 or the reader has CAP_SYSLOG; with 1, only with
 * CAP_SYSLOG; with 2, never.  Otherwise every address reads as zero: the
 * table then loads as "hidden" with that reason, and no sample is
 * attributed by guesswork.
 */
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FN_BYTES (1u << 20)   /* an IP further than this past a symbol is unknown */

typedef struct ksym {
    uint64_t addr;
    uint32_t name;   /* offset into names */
    uint32_t order;  /* line order, for a stable sort */
} ksym;

struct mp_ksyms {
    ksym *sym;
    size_t n;
    char *names;
    size_t names_len, names_cap;
    char hidden[384];
};

static int cmp_sym(const void *a, const void *b)
{
    const ksym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static int read_int_file(const char *path, int *v)
{
    FILE *f = fopen(path, "r");
    int ok = f && fscanf(f, "%d", v) == 1;
    if (f)
        fclose(f);
    return ok ? 0 : -1;
}

static void hidden_reason(mp_ksyms *k, const char *path)
{
    int kr = -1, par = -99;
    read_int_file("/proc/sys/kernel/kptr_restrict", &kr);
    read_int_file("/proc/sys/kernel/perf_event_paranoid", &par);
    const char *why;
    if (kr == 2)
        why = "kernel.kptr_restrict=2 hides kernel addresses from every reader; "
              "set it to 0 or 1 (sysctl kernel.kptr_restrict=1) and run as root";
    else if (kr == 1)
        why = "kernel.kptr_restrict=1 shows kernel addresses only to readers with "
              "CAP_SYSLOG; run as root or grant CAP_SYSLOG";
    else if (kr == 0)
        why = "kernel.kptr_restrict=0 shows kernel addresses only when "
              "perf_event_paranoid <= 1 or the reader has CAP_SYSLOG";
    else
        why = "kernel.kptr_restrict could not be read";
    snprintf(k->hidden, sizeof k->hidden,
             "addresses in %s are all zero (euid %u, perf_event_paranoid %d): %s", path,
             (unsigned)geteuid(), par, why);
}

static int add_name(mp_ksyms *k, const char *s, uint32_t *off)
{
    size_t len = strlen(s) + 1;
    if (k->names_len + len > k->names_cap) {
        size_t cap = k->names_cap ? k->names_cap * 2 : 1 << 20;
        while (cap < k->names_len + len)
            cap *= 2;
        char *p = realloc(k->names, cap);
        if (!p)
            return -ENOMEM;
        k->names = p;
        k->names_cap = cap;
    }
    memcpy(k->names + k->names_len, s, len);
    *off = (uint32_t)k->names_len;
    k->names_len += len;
    return 0;
}

int mp_ksyms_load(mp_ksyms **out, const char *path, mp_err *err)
{
    if (!path)
        path = "/proc/kallsyms";
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return mp_errf(err, -errno, "cannot read kernel symbols from %s: %s", path,
                       strerror(errno));
    mp_ksyms *k = calloc(1, sizeof *k);
    size_t cap = 0, nonzero = 0, lines = 0;
    char line[512];
    int rc = 0;
    if (!k) {
        fclose(f);
        return mp_errf(err, -ENOMEM, "out of memory for kernel symbols");
    }
    while (fgets(line, sizeof line, f)) {
        char type, name[256];
        uint64_t addr;
        lines++;
        if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
            continue;
        if (type != 't' && type != 'T')
            continue;   /* text only: data symbols never hold an IP */
        if (k->n == cap) {
            cap = cap ? cap * 2 : 4096;
            ksym *p = realloc(k->sym, cap * sizeof *p);
            if (!p) {
                rc = -ENOMEM;
                break;
            }
            k->sym = p;
        }
        if (add_name(k, name, &k->sym[k->n].name) < 0) {
            rc = -ENOMEM;
            break;
        }
        k->sym[k->n].addr = addr;
        k->sym[k->n].order = (uint32_t)k->n;
        k->n++;
        nonzero += addr != 0;
    }
    fclose(f);
    if (rc < 0) {
        mp_ksyms_free(k);
        return mp_errf(err, rc, "out of memory loading %s", path);
    }
    if (k->n == 0)
        snprintf(k->hidden, sizeof k->hidden, "%s holds no text symbols (%zu lines read)",
                 path, lines);
    else if (nonzero == 0)
        hidden_reason(k, path);
    else
        qsort(k->sym, k->n, sizeof *k->sym, cmp_sym);
    *out = k;
    return 0;
}

void mp_ksyms_free(mp_ksyms *k)
{
    if (!k)
        return;
    free(k->sym);
    free(k->names);
    free(k);
}

const char *mp_ksyms_hidden(const mp_ksyms *k)
{
    if (!k)
        return "no kernel symbol table";
    return k->hidden[0] ? k->hidden : NULL;
}

size_t mp_ksyms_count(const mp_ksyms *k)
{
    return k ? k->n : 0;
}

const char *mp_ksyms_lookup(const mp_ksyms *k, uint64_t ip, size_t *index)
{
    if (!k || k->hidden[0] || k->n == 0 || ip < k->sym[0].addr)
        return NULL;
    size_t lo = 0, hi = k->n;   /* first symbol with addr > ip */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->sym[mid].addr <= ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    const ksym *s = &k->sym[lo - 1];
    if (ip - s->addr >= MAX_FN_BYTES)
        return NULL;
    if (index)
        *index = lo - 1;
    return k->names + s->name;
}

int mp_ksyms_addr(const mp_ksyms *k, const char *name, uint64_t *addr)
{
    for (size_t i = 0; k && i < k->n; i++)
        if (!strcmp(k->names + k->sym[i].name, name)) {
            *addr = k->sym[i].addr;
            return 0;
        }
    return -ENOENT;
}

const char *mp_ksyms_name(const mp_ksyms *k, size_t index)
{
    return k && index < k->n ? k->names + k->sym[index].name : NULL;
}
