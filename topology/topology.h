/* topology.h - host topology through hwloc: caches, PUs, waiter/poker
 * placements and thread binding.  The only module that includes hwloc.h.
 * Error convention: see src/mp_err.h.
 */
#ifndef MP_TOPOLOGY_H
#define MP_TOPOLOGY_H

#include <cjson/cJSON.h>
#include "mp_err.h"

typedef struct mp_topo mp_topo;

/* A waiter/poker PU pair for one placement kind.  PUs are OS indexes
 * (what sched_setaffinity and /proc call CPU numbers); -1 = unbound. */
typedef struct mp_pu_pair {
    char placement[16];   /* "smt", "same-l2", ..., "none" */
    int waiter_pu;
    int poker_pu;
} mp_pu_pair;

/* Load the topology of this host (synthetic == NULL), or of an hwloc
 * synthetic description such as "package:2 l3:2 l2:4 core:1 pu:2". */
int mp_topo_load(mp_topo **out, const char *synthetic, mp_err *err);
void mp_topo_free(mp_topo *t);

/* Pick the PU pair for a placement name: auto, smt, same-l2, same-l3,
 * cross-l3, cross-numa, none.  Returns MP_EUSAGE with a message naming the
 * placements this host offers when it cannot offer the one asked for. */
int mp_topo_pick(const mp_topo *t, const char *placement, mp_pu_pair *out,
                 mp_err *err);

/* Bind the calling thread to one PU and check where it runs afterwards.
 * pu < 0: do nothing.  Fails with -ENOSYS/-EXDEV/-EPERM etc.; the caller
 * then runs unbound and says so. */
int mp_topo_bind_thread(const mp_topo *t, int pu, mp_err *err);

/* Data cache line size in bytes; *known = 0 when hwloc does not know and
 * 64 is assumed. */
unsigned mp_topo_line_bytes(const mp_topo *t, int *known);

/* Summary for results.json ("topology" object): caches, PUs, ...  The
 * caller adds the chosen pair.  Returns a new cJSON object. */
cJSON *mp_topo_json(const mp_topo *t);

#endif
