/* SPDX-License-Identifier: MIT */
/* fixture_edit.h - a test's variation of a base fixture, made in the test:
 * load the base, apply one edit, write the result into a scratch directory.
 * The edits on the JSON tree (set or delete the member or element a path
 * names) keep a defect next to the assertion that expects it; the edits on
 * the text (replace the first occurrence of a string, cut the file) make
 * what JSON cannot hold (NaN, 1e999, a truncated document) and keep the
 * base's line numbers.  Header only, like test_util.h. */
#ifndef MP_TEST_FIXTURE_EDIT_H
#define MP_TEST_FIXTURE_EDIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test_util.h"

/* The node a path names ("results[3].nfds", "experiments.herd", "schema"),
 * or NULL.  *parent and *key (the last member's name, or NULL for an array
 * element, then *index) say where it hangs, so that it can be replaced or
 * deleted; for a path whose last member only is missing, *parent is still
 * set, for one that is missing earlier it is NULL. */
static inline cJSON *mp_fx_walk(cJSON *doc, const char *path, cJSON **parent, char *key,
                                size_t keylen, int *index)
{
    cJSON *node = doc;
    const char *p = path;
    *parent = NULL;
    while (*p && node) {
        *parent = node;
        if (*p == '[') {
            *index = atoi(p + 1);
            key[0] = '\0';
            node = cJSON_GetArrayItem(node, *index);
            const char *end = strchr(p, ']');
            p = end ? end + 1 : p + strlen(p);
        } else {
            size_t n = strcspn(p, ".[");
            snprintf(key, keylen, "%.*s", (int)n, p);
            node = cJSON_GetObjectItemCaseSensitive(node, key);
            p += n;
        }
        if (*p == '.')
            p++;
    }
    if (*p)
        *parent = NULL;   /* a member before the last is missing */
    return node;
}

/* Set path to value (taken over; NULL deletes what path names).  A member
 * that does not exist is added to its object.  0, or -1 when path does not
 * lead to an object or array. */
static inline int mp_fx_set(cJSON *doc, const char *path, cJSON *value)
{
    cJSON *parent;
    char key[128];
    int index = -1;
    cJSON *node = mp_fx_walk(doc, path, &parent, key, sizeof key, &index);
    if (!parent || (!node && !(key[0] && cJSON_IsObject(parent) && value))) {
        cJSON_Delete(value);
        return -1;
    }
    if (!value) {
        if (key[0])
            cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
        else
            cJSON_DeleteItemFromArray(parent, index);
        return 0;
    }
    if (!node)
        cJSON_AddItemToObject(parent, key, value);
    else if (key[0])
        cJSON_ReplaceItemInObjectCaseSensitive(parent, key, value);
    else
        cJSON_ReplaceItemInArray(parent, index, value);
    return 0;
}

/* path = a value written as JSON ("\"many\"", "5", "[1, 2]", "null"). */
static inline int mp_fx_set_json(cJSON *doc, const char *path, const char *json)
{
    cJSON *v = cJSON_Parse(json);
    return v ? mp_fx_set(doc, path, v) : -1;
}

/* The base fixture (a path under the fixtures directory) as text, or NULL. */
static inline char *mp_fx_text(const char *fixtures, const char *base)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", fixtures, base);
    return mp_test_slurp(path);
}

/* The base fixture parsed, or NULL. */
static inline cJSON *mp_fx_doc(const char *fixtures, const char *base)
{
    char *text = mp_fx_text(fixtures, base);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    return doc;
}

/* Replace the first occurrence of from in text by to: a new string (text
 * is freed), or NULL when text is NULL or has no from. */
static inline char *mp_fx_replace(char *text, const char *from, const char *to)
{
    char *at = text ? strstr(text, from) : NULL;
    char *out = at ? malloc(strlen(text) - strlen(from) + strlen(to) + 1) : NULL;
    if (out)
        sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return out;
}

/* Write text (len bytes) to path: 0, or -1. */
static inline int mp_fx_write_text(const char *path, const char *text, size_t len)
{
    FILE *f = text ? fopen(path, "w") : NULL;
    if (!f)
        return -1;
    int ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Write doc to path (cJSON's formatting; doc is deleted): 0, or -1. */
static inline int mp_fx_write_doc(const char *path, cJSON *doc)
{
    char *text = doc ? cJSON_Print(doc) : NULL;
    int rc = text ? mp_fx_write_text(path, text, strlen(text)) : -1;
    free(text);
    cJSON_Delete(doc);
    return rc;
}

#endif
