/* cmd.c - what the verbs share.  See cmd.h. */
#include "cmd/cmd.h"

#include <stdlib.h>

#include "common/version.h"

int mp_exit_status(int code)
{
    return code == 0 ? 0 : code == MP_EUSAGE ? 2 : 1;
}

int mp_cmd_version(FILE *f)
{
    fprintf(f, "muxprof %s (git %s)\n", mp_version_release(), mp_version_git());
    return 0;
}

cJSON *mp_json_doc_new(const char *name)
{
    char schema[64];
    snprintf(schema, sizeof schema, "muxprof-%s/1", name);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", schema);
    cJSON *tool = cJSON_AddObjectToObject(doc, "tool");
    cJSON_AddStringToObject(tool, "name", "muxprof");
    cJSON_AddStringToObject(tool, "version", mp_version_release());
    cJSON_AddStringToObject(tool, "git_describe", mp_version_git());
    return doc;
}

int mp_json_doc_print(const cJSON *doc, FILE *f)
{
    char *s = doc ? cJSON_Print(doc) : NULL;
    if (!s) {
        fprintf(stderr, "muxprof: out of memory printing the JSON document\n");
        return 1;
    }
    fprintf(f, "%s\n", s);
    free(s);
    return fflush(f) == 0 ? 0 : 1;
}
