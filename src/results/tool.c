/* tool.c - the "tool" object: which muxprof wrote a document; see
 * results/schema.h. */
#include "results/schema.h"

#include "common/version.h"

cJSON *mp_res_tool_json(void)
{
    cJSON *tool = cJSON_CreateObject();
    cJSON_AddStringToObject(tool, "name", "muxprof");
    cJSON_AddStringToObject(tool, "version", mp_version_release());
    cJSON_AddStringToObject(tool, "git_describe", mp_version_git());
    return tool;
}
