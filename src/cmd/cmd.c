/* SPDX-License-Identifier: MIT */
/* cmd.c - what the verbs share.  See cmd.h. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/internal.h"

#include "common/json.h"
#include "common/version.h"
#include "results/schema.h"

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
    cJSON_AddItemToObject(doc, "tool", mp_res_tool_json());
    return doc;
}

cJSON *mp_json_doc_with(const char *name, cJSON *body)
{
    cJSON *doc = body ? mp_json_doc_new(name) : NULL, *e;
    while (doc && (e = body->child))
        cJSON_AddItemToObject(doc, e->string, cJSON_DetachItemViaPointer(body, e));
    cJSON_Delete(body);
    return doc;
}

int mp_json_doc_print(const cJSON *doc, FILE *f)
{
    char *s = doc ? mp_json_print(doc, 1) : NULL;
    if (!s) {
        fprintf(stderr, "muxprof: out of memory printing the JSON document\n");
        return 1;
    }
    fprintf(f, "%s\n", s);
    free(s);
    return fflush(f) == 0 ? 0 : 1;
}

/* A directory that may not be written into is the user's choice to change. */
static int refused(int rc)
{
    return rc == -ENOTDIR || rc == -ELOOP || rc == -EPERM ? MP_EUSAGE : rc;
}

int mp__cmd_out_dir(mp_dir *d, const char *path, int force, mp_err *err)
{
    int rc = mp_dir_create(d, path, err);
    if (rc != -EEXIST)
        return rc == -ELOOP ? MP_EUSAGE : rc;   /* a link among the parents, as root */
    if ((rc = mp_dir_open(d, path, 1, err)))
        return refused(rc);
    if (mp_dir_has_manifest(d)) {
        if (force && !(rc = mp_dir_start(d, err)))
            return 0;
        if (!force)
            rc = mp_errf(err, MP_EUSAGE, "%s holds what muxprof wrote before (or is being "
                         "written by another muxprof process); choose a new directory, or add "
                         "--force to write over it", path);
    } else if (mp_dir_is_empty(d)) {
        if (!(rc = mp_dir_claim(d, err)))
            return 0;
        if (rc == -EEXIST)
            rc = mp_errf(err, MP_EUSAGE, "%s was just taken by another muxprof process; choose "
                         "a new directory", path);
    } else if (force) {
        rc = mp_errf(err, MP_EUSAGE, "%s was not written by muxprof (it holds no %s); --force "
                     "writes only over muxprof's own output: choose a new directory", path,
                     MP_MANIFEST);
    } else {
        rc = mp_errf(err, MP_EUSAGE, "%s exists and is not empty; choose a new directory "
                     "(--force writes over one that muxprof wrote)", path);
    }
    mp_dir_close(d);
    return rc;
}
