/* SPDX-License-Identifier: MIT */
/* topology.c - load a topology through hwloc (this host, a synthetic
 * description or an XML export), work out the PUs this process may use, and
 * answer questions about counts and data caches. */
#include "internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/input.h"

hwloc_obj_type_t mp__cache_type(int level)
{
    switch (level) {
    case 1: return HWLOC_OBJ_L1CACHE;
    case 2: return HWLOC_OBJ_L2CACHE;
    case 3: return HWLOC_OBJ_L3CACHE;
    case 4: return HWLOC_OBJ_L4CACHE;
    default: return HWLOC_OBJ_L5CACHE;
    }
}

const char *mp__fmt_bytes(unsigned long long bytes, char *buf, size_t len)
{
    if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0)
        snprintf(buf, len, "%llu GiB", bytes >> 30);
    else if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0)
        snprintf(buf, len, "%llu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%llu KiB", bytes >> 10);
    else
        snprintf(buf, len, "%llu B", bytes);
    return buf;
}

int mp__usable(const mp_topo *t, hwloc_obj_t pu)
{
    return pu && hwloc_bitmap_isset(t->usable, pu->os_index);
}

hwloc_obj_t mp__core_of(const mp_topo *t, hwloc_obj_t pu)
{
    hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_CORE, pu);
    return core ? core : pu;
}

int mp__llc_level(const mp_topo *t)
{
    for (int level = 5; level >= 1; level--)
        if (hwloc_get_nbobjs_by_type(t->topo, mp__cache_type(level)) > 0)
            return level;
    return 0;
}

/* Common tail of the loaders: load, then compute the usable set. */
static int finish_load(mp_topo *t, const char *what, mp_err *err)
{
    if (hwloc_topology_load(t->topo) < 0)
        return mp_errf(err, errno ? -errno : -EIO,
                       "topology: hwloc could not load %s: %s; run lstopo to see "
                       "whether hwloc works here", what, strerror(errno ? errno : EIO));
    int pus = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
    if (pus > MP_TOPO_MAX_PUS)
        return mp_errf(err, MP_EUSAGE, "topology: %s has %d PUs; muxprof handles at most %d",
                       what, pus, MP_TOPO_MAX_PUS);
    t->usable = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(t->topo));
    if (!t->usable)
        return mp_errf(err, -ENOMEM, "topology: out of memory copying a cpuset");
    hwloc_bitmap_and(t->usable, t->usable, hwloc_topology_get_topology_cpuset(t->topo));
    t->is_host = hwloc_topology_is_thissystem(t->topo);
    if (t->is_host) {
        /* The cgroup cpuset is in the allowed set; taskset/sched_setaffinity
         * narrows it further.  A failure here only means "not narrowed". */
        hwloc_bitmap_t bound = hwloc_bitmap_alloc();
        if (bound && hwloc_get_cpubind(t->topo, bound, HWLOC_CPUBIND_PROCESS) == 0
            && hwloc_bitmap_intersects(bound, t->usable))
            hwloc_bitmap_and(t->usable, t->usable, bound);
        hwloc_bitmap_free(bound);
    }
    if (hwloc_bitmap_iszero(t->usable))
        return mp_errf(err, -ENODEV, "topology: %s has no PU this process may use; "
                       "check the cgroup cpuset and taskset", what);
    return 0;
}

static int start(mp_topo **out, mp_topo **t, mp_err *err)
{
    *out = NULL;
    *t = calloc(1, sizeof **t);
    if (!*t)
        return mp_errf(err, -ENOMEM, "topology: out of memory");
    if (hwloc_topology_init(&(*t)->topo) < 0) {
        free(*t);
        *t = NULL;
        return mp_errf(err, -ENOMEM, "topology: hwloc_topology_init failed (out of memory?)");
    }
    /* Keep PUs outside our cpuset so `muxprof topology` can show them. */
    hwloc_topology_set_flags((*t)->topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    /* The L1i is kept for the model's geometry (mp_topo_pu_caches); every
     * other reader asks for data and unified caches by type. */
    hwloc_topology_set_type_filter((*t)->topo, HWLOC_OBJ_L1ICACHE,
                                   HWLOC_TYPE_FILTER_KEEP_ALL);
    return 0;
}

/* Check a synthetic description against the limits before hwloc builds it
 * (hwloc inserts each object among its siblings one by one: the time grows
 * with the square of the siblings under one parent).  The counts are the
 * numbers after each "type:" and the levels given by a bare number ("2 8 2"),
 * outside parentheses and brackets; what this
 * scan does not understand is left to hwloc's own parser. */
static int check_synthetic(const char *desc, mp_err *err)
{
    double pus = 1;
    int depth = 0;
    for (const char *p = desc; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth > 0)
            depth--;
        if (depth)
            continue;
        /* a count: after "type:", or a level given by its count alone ("2 8 2") */
        const char *num = *p == ':' ? p + 1
                          : p == desc || isspace((unsigned char)p[-1]) ? p : NULL;
        if (!num || *num < '0' || *num > '9')
            continue;
        double n = strtod(num, NULL);
        if (n > MP_TOPO_SYNTHETIC_MAX_ARITY)
            return mp_errf(err, MP_EUSAGE, "topology: the synthetic description '%.100s' has "
                           "%.0f objects under one parent; at most %d are accepted (nest them "
                           "in more levels, e.g. \"package:16 core:64 pu:2\")", desc, n,
                           MP_TOPO_SYNTHETIC_MAX_ARITY);
        pus *= n;
    }
    if (pus > MP_TOPO_MAX_PUS)
        return mp_errf(err, MP_EUSAGE, "topology: the synthetic description '%.100s' has %.0f "
                       "PUs; muxprof handles at most %d", desc, pus, MP_TOPO_MAX_PUS);
    return 0;
}

int mp_topo_load(mp_topo **out, const char *synthetic, mp_err *err)
{
    if (synthetic) {
        *out = NULL;
        int rc = check_synthetic(synthetic, err);
        if (rc < 0)
            return rc;
    }
    mp_topo *t;
    int rc = start(out, &t, err);
    if (rc < 0)
        return rc;
    if (synthetic) {
        snprintf(t->source, sizeof t->source, "synthetic: %s", synthetic);
        if (hwloc_topology_set_synthetic(t->topo, synthetic) < 0) {
            mp_topo_free(t);
            return mp_errf(err, MP_EUSAGE,
                           "topology: hwloc cannot parse the synthetic description '%s'; "
                           "write it like \"package:2 l3:1(size=32MiB) l2:4(size=1MiB) "
                           "core:1 pu:2\" (see lstopo --of synthetic)", synthetic);
        }
        rc = finish_load(t, "the synthetic topology", err);
    } else {
        snprintf(t->source, sizeof t->source, "host");
        rc = finish_load(t, "this host's topology", err);
    }
    if (rc < 0) {
        mp_topo_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int mp_topo_load_xml(mp_topo **out, const char *path, mp_err *err)
{
    char *xml;
    size_t len;
    mp_err rerr;
    int rc = mp_read_regular_file(path, MP_TOPO_XML_MAX_BYTES, &xml, &len, &rerr);
    if (rc < 0)
        return mp_errf(err, rc == -EBADMSG || rc == -EFBIG ? MP_EUSAGE : rc,
                       "topology: %s; make an XML topology with lstopo --of xml FILE", rerr.msg);
    mp_topo *t;
    rc = start(out, &t, err);
    if (rc < 0) {
        free(xml);
        return rc;
    }
    snprintf(t->source, sizeof t->source, "xml: %s", path);
    errno = 0;
    if (len > INT_MAX || hwloc_topology_set_xmlbuffer(t->topo, xml, (int)len + 1) < 0) {
        int e = errno ? errno : EINVAL;
        free(xml);
        mp_topo_free(t);
        return mp_errf(err, e == EINVAL ? MP_EUSAGE : -e,
                       "topology: hwloc cannot read the XML topology '%s': %s; "
                       "make one with lstopo --of xml FILE", path, strerror(e));
    }
    rc = finish_load(t, "the XML topology", err);   /* hwloc reads the buffer here */
    free(xml);
    if (rc < 0) {
        mp_topo_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void mp_topo_free(mp_topo *t)
{
    if (!t)
        return;
    hwloc_bitmap_free(t->usable);
    if (t->topo)
        hwloc_topology_destroy(t->topo);
    free(t);
}

int mp_topo_is_host(const mp_topo *t)
{
    return t->is_host;
}

const char *mp_topo_source(const mp_topo *t)
{
    return t->source;
}

const char *mp_topo_cpu_model(const mp_topo *t)
{
    hwloc_obj_t pkg = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, 0);
    const char *m = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    if (!m)
        m = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t->topo), "CPUModel");
    return m;
}

void mp_topo_get_counts(const mp_topo *t, mp_topo_counts *out)
{
    out->packages = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PACKAGE);
    out->numa_nodes = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_NUMANODE);
    out->pus = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
    out->cores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE);
    if (out->cores <= 0)
        out->cores = out->pus;   /* no core level: each PU is its own core */
    out->usable_pus = hwloc_bitmap_weight(t->usable);
}

int mp_topo_usable_list(const mp_topo *t, char *buf, size_t len)
{
    return hwloc_bitmap_list_snprintf(buf, len, t->usable);
}

int mp_topo_caches(const mp_topo *t, mp_cache_level *out, int max)
{
    int n = 0;
    for (int level = 1; level <= 5; level++) {
        hwloc_obj_type_t type = mp__cache_type(level);
        int count = hwloc_get_nbobjs_by_type(t->topo, type);
        if (count <= 0)
            continue;
        if (n < max) {
            hwloc_obj_t first = hwloc_get_obj_by_type(t->topo, type, 0);
            mp_cache_level *c = &out[n];
            memset(c, 0, sizeof *c);
            c->level = level;
            c->unified = first->attr->cache.type == HWLOC_OBJ_CACHE_UNIFIED;
            c->size_bytes = c->size_min_bytes = c->size_max_bytes = first->attr->cache.size;
            c->line_bytes = first->attr->cache.linesize;
            c->instances = count;
            c->pus_per_instance = hwloc_bitmap_weight(first->cpuset);
            for (int i = 1; i < count; i++) {
                hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, type, (unsigned)i);
                unsigned long long s = o->attr->cache.size;
                if (s < c->size_min_bytes) c->size_min_bytes = s;
                if (s > c->size_max_bytes) c->size_max_bytes = s;
                if (!c->line_bytes) c->line_bytes = o->attr->cache.linesize;
            }
        }
        n++;
    }
    return n;
}

int mp_topo_cache_cpus(const mp_topo *t, int level, int i, char *buf, size_t len)
{
    hwloc_obj_t c = i < 0 ? NULL
                          : hwloc_get_obj_by_type(t->topo, mp__cache_type(level), (unsigned)i);
    return c ? hwloc_bitmap_list_snprintf(buf, len, c->cpuset) : -1;
}

/* First usable PU in logical order (there is one: finish_load checks). */
static hwloc_obj_t first_usable(const mp_topo *t)
{
    hwloc_obj_t pu = NULL;
    while ((pu = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_PU, pu)))
        if (mp__usable(t, pu))
            return pu;
    return NULL;
}

int mp_topo_pu_caches(const mp_topo *t, mp_cache_geo *out, int max)
{
    int n = 0;
    for (hwloc_obj_t o = first_usable(t); o; o = o->parent) {
        if (!hwloc_obj_type_is_cache(o->type))
            continue;
        if (n < max) {
            mp_cache_geo *c = &out[n];
            c->level = (int)o->attr->cache.depth;
            c->kind = o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? 'i' :
                      o->attr->cache.type == HWLOC_OBJ_CACHE_DATA ? 'd' : 'u';
            c->size_bytes = o->attr->cache.size;
            c->line_bytes = o->attr->cache.linesize;
            c->ways = o->attr->cache.associativity;
            const char *inc = hwloc_obj_get_info_by_name(o, "Inclusive");
            c->inclusive = inc ? atoi(inc) != 0 : -1;
        }
        n++;
    }
    return n;
}

unsigned long long mp_topo_cache_bytes(const mp_topo *t, int level, int pu)
{
    hwloc_obj_t p = pu < 0 ? first_usable(t)
                           : hwloc_get_pu_obj_by_os_index(t->topo, (unsigned)pu);
    if (!p || level < 1 || level > 5)
        return 0;
    hwloc_obj_t c = hwloc_get_ancestor_obj_by_type(t->topo, mp__cache_type(level), p);
    return c ? c->attr->cache.size : 0;
}

unsigned mp_topo_line_bytes(const mp_topo *t, int *known)
{
    /* The L1d line of the first usable PU; else any data cache that knows. */
    hwloc_obj_t pu = first_usable(t);
    for (int level = 1; level <= 5; level++) {
        hwloc_obj_t c = pu ? hwloc_get_ancestor_obj_by_type(t->topo, mp__cache_type(level), pu)
                           : NULL;
        if (c && c->attr->cache.linesize) {
            if (known) *known = 1;
            return c->attr->cache.linesize;
        }
    }
    if (known) *known = 0;
    return 64;
}
