/* SPDX-License-Identifier: MIT */
/* top.c - the top level's members before its objects through the table of
 * their fields; see results/top.h. */
#include "results/top.h"

#include <string.h>

#define ROW(k, type, absent, when, unit, doc) \
    {#k, type, absent, offsetof(mp_rrun, k), 0, 0, when, 0, NULL, NULL, unit, doc, 0}
#define STR(k, doc) ROW(k, MP_RT_STR, MP_RT_OMIT_EMPTY, 0, "", doc)

static const mp_rtfield fields[] = {
    STR(schema, "the schema the document follows: muxprof-results/1"),
    {"tool", MP_RT_OBJECT, MP_RT_ALWAYS, offsetof(mp_rrun, tool), 0, 0,
     MP_RT_WHEN(mp_rrun, has_tool), 0, NULL, &mp_rtool_table, "", "the muxprof that wrote it", 0},
    STR(status, "complete, interrupted (a signal ended it) or errors (a cell or an experiment "
                "ended in error)"),
    STR(interrupted_cell, "interrupted: the cell, or what else, that was running"),
    ROW(interrupted_signal, MP_RT_INT, MP_RT_OMIT_ZERO, 0, "", "interrupted: the signal"),
    ROW(recovered, MP_RT_JSON, MP_RT_OMIT_EMPTY, 0, "",
        "written by muxprof report from the journal: from, cells, finished, torn_line_ignored, "
        "cells_from_passes"),
    STR(started_utc, "when the run started, ISO 8601 UTC"),
    STR(finished_utc, "when it finished; left out when it was killed"),
};
#undef ROW
#undef STR

const mp_rtable mp_rrun_table = {"results.json", fields, sizeof fields / sizeof fields[0]};

cJSON *mp_rrun_json(const mp_rrun *r)
{
    return mp_rtable_json(&mp_rrun_table, r);
}

void mp_rrun_read(const cJSON *o, mp_rrun *r)
{
    memset(r, 0, sizeof *r);
    mp_rtable_read(&mp_rrun_table, o, r);
    r->has_tool = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "tool"));
    if (r->interrupted_signal < 0)
        r->interrupted_signal = 0;
}
