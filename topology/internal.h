/* SPDX-License-Identifier: MIT */
/* internal.h - what the files of topology/ share: the mp_topo struct and a
 * few hwloc helpers.  Internal (mp__ prefix); only topology/ includes it. */
#ifndef MP_TOPO_INTERNAL_H
#define MP_TOPO_INTERNAL_H

#include <hwloc.h>

#include "topology.h"

struct mp_topo {
    hwloc_topology_t topo;
    hwloc_bitmap_t usable;   /* allowed cpuset, cut by affinity on the host */
    int is_host;             /* discovered here: binding is meaningful */
    char source[256];        /* "host", "synthetic: ...", "xml: ..." */
};

/* Placement kinds, in the order of mp_topo_placement_names. */
enum mp__kind {
    MP__AUTO, MP__SMT, MP__SAME_L2, MP__SAME_L3, MP__CROSS_L3, MP__CROSS_NUMA,
    MP__NONE, MP__OTHER
};

/* 1 when PU object pu is one this process may use. */
int mp__usable(const mp_topo *t, hwloc_obj_t pu);

/* The core of a PU, or the PU itself when hwloc reports no cores. */
hwloc_obj_t mp__core_of(const mp_topo *t, hwloc_obj_t pu);

/* Largest level (1..5) of data cache present, 0 when none. */
int mp__llc_level(const mp_topo *t);

/* hwloc type of data cache level 1..5. */
hwloc_obj_type_t mp__cache_type(int level);

/* "32 KiB" style size into buf. */
const char *mp__fmt_bytes(unsigned long long bytes, char *buf, size_t len);

#endif
