/* topology.c - PLACEHOLDER until the topology issue lands: no hwloc yet,
 * reports a flat host, binds nothing. */
#include "topology.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

struct mp_topo { int npus; };

int mp_topo_load(mp_topo **out, const char *synthetic, mp_err *err)
{
    (void)synthetic; (void)err;
    *out = calloc(1, sizeof **out);
    if (!*out) return -ENOMEM;
    (*out)->npus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return 0;
}
void mp_topo_free(mp_topo *t) { free(t); }
int mp_topo_pick(const mp_topo *t, const char *placement, mp_pu_pair *out, mp_err *err)
{
    (void)t; (void)err;
    snprintf(out->placement, sizeof out->placement, "%s", placement);
    out->waiter_pu = out->poker_pu = -1;
    return 0;
}
int mp_topo_bind_thread(const mp_topo *t, int pu, mp_err *err) { (void)t; (void)pu; (void)err; return 0; }
unsigned mp_topo_line_bytes(const mp_topo *t, int *known) { (void)t; if (known) *known = 0; return 64; }
cJSON *mp_topo_json(const mp_topo *t) { cJSON *o = cJSON_CreateObject(); cJSON_AddNumberToObject(o, "pus", t->npus); return o; }
