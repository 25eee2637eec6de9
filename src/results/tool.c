/* SPDX-License-Identifier: MIT */
/* tool.c - the "tool" object: which muxprof wrote a document; see
 * results/top.h. */
#include "results/schema.h"
#include "results/top.h"

#include "common/version.h"

#define STR(k, doc) \
    {#k, MP_RT_STR, MP_RT_ALWAYS, offsetof(mp_rtool, k), 0, 0, 0, 0, NULL, NULL, "", doc, 0}

static const mp_rtfield fields[] = {
    STR(name, "muxprof"),
    STR(version, "its release: the CMake project version"),
    STR(git_describe, "git describe of the build (-dirty: uncommitted changes)"),
};
#undef STR

const mp_rtable mp_rtool_table = {"tool", fields, sizeof fields / sizeof fields[0]};

mp_rtool mp_rtool_this(void)
{
    return (mp_rtool){"muxprof", mp_version_release(), mp_version_git()};
}

cJSON *mp_res_tool_json(void)
{
    mp_rtool t = mp_rtool_this();
    return mp_rtable_json(&mp_rtool_table, &t);
}
