/* SPDX-License-Identifier: MIT */
/* json.c - strict parsing and lenient getters for cJSON.  See json.h. */
#include "common/json.h"
#include "common/quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t line_of(const char *text, size_t at)
{
    size_t line = 1;
    for (size_t i = 0; i < at; i++)
        line += text[i] == '\n';
    return line;
}

static int by_key(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* The first key that one object of the tree under j holds twice (sorting
 * each object's keys: linear-logarithmic in its size), with where it is in
 * path; NULL when there is none or no memory (-ENOMEM in *rc). */
static const char *duplicate_key(const cJSON *j, char *path, size_t len, int *rc)
{
    size_t used = strlen(path);
    const cJSON *c;
    if (cJSON_IsObject(j)) {
        size_t n = 0, i = 0;
        cJSON_ArrayForEach(c, j)
            n++;
        const cJSON **keys = malloc((n ? n : 1) * sizeof *keys);
        if (!keys) {
            *rc = -ENOMEM;
            return NULL;
        }
        cJSON_ArrayForEach(c, j)
            keys[i++] = c;
        qsort(keys, n, sizeof *keys, by_key);
        const char *dup = NULL;
        for (i = 1; i < n && !dup; i++)
            if (!strcmp(keys[i]->string, keys[i - 1]->string))
                dup = keys[i]->string;
        free(keys);
        if (dup)
            return dup;
    }
    size_t idx = 0;
    cJSON_ArrayForEach(c, j) {
        if (cJSON_IsObject(j))
            snprintf(path + used, len - used, "%s%.40s", used ? "." : "", c->string);
        else
            snprintf(path + used, len - used, "[%zu]", idx);
        idx++;
        const char *dup = duplicate_key(c, path, len, rc);
        if (dup || *rc)
            return dup;
    }
    path[used] = '\0';
    return NULL;
}

/* The offset of the first byte of text that is not valid UTF-8, or len. */
static size_t utf8_bad(const char *text, size_t len)
{
    size_t at = 0;
    while (at < len) {
        size_t n = (unsigned char)text[at] < 0x80 ? 1 : mp_utf8_seq(text + at, len - at);
        if (!n)
            return at;
        at += n;
    }
    return len;
}

int mp_json_parse(const char *text, size_t len, cJSON **out, mp_err *err)
{
    const char *end = NULL;
    *out = NULL;
    size_t bad = utf8_bad(text, len);
    if (bad < len)
        return mp_errf(err, -EBADMSG, "not valid UTF-8 at line %zu (byte %zu, 0x%02x); JSON "
                       "text is UTF-8: convert the file (iconv -t UTF-8)", line_of(text, bad),
                       bad, (unsigned char)text[bad]);
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t at = end && end >= text ? (size_t)(end - text) : 0;
    if (!j)
        return mp_errf(err, -EBADMSG, "not valid JSON near line %zu (byte %zu); NaN and "
                       "Infinity are not JSON", line_of(text, at), at);
    while (at < len && (unsigned char)text[at] <= ' ')
        at++;
    if (at < len) {
        cJSON_Delete(j);
        return mp_errf(err, -EBADMSG, "text after the end of the JSON document at line %zu "
                       "(byte %zu); a file holds one document", line_of(text, at), at);
    }
    char path[256] = "";
    int rc = 0;
    const char *dup = duplicate_key(j, path, sizeof path, &rc);
    if (dup || rc) {
        mp_echo k, where;
        if (rc)
            mp_errf(err, rc, "out of memory checking the JSON keys");
        else
            rc = mp_errf(err, -EBADMSG, "key \"%s\" appears twice in the object %s; JSON "
                         "readers disagree on which one counts", mp_echo_arg(&k, dup),
                         path[0] ? mp_echo_arg(&where, path) : "at the top level");
        cJSON_Delete(j);
        return rc;
    }
    *out = j;
    return 0;
}

/* The escape that stands for a byte that is not UTF-8: U+FFFD. */
#define REPLACEMENT "\\ufffd"

char *mp_json_print(const cJSON *j, int formatted)
{
    char *text = formatted ? cJSON_Print(j) : cJSON_PrintUnformatted(j);
    if (!text)
        return NULL;
    size_t len = strlen(text), bad = utf8_bad(text, len), nbad = 0;
    if (bad == len)
        return text;
    for (size_t at = bad; at < len; at++) {   /* an upper bound: every byte from the first */
        size_t n = (unsigned char)text[at] < 0x80 ? 1 : mp_utf8_seq(text + at, len - at);
        if (!n)
            nbad++;
        else
            at += n - 1;
    }
    char *fixed = malloc(len + nbad * (sizeof REPLACEMENT - 2) + 1);
    if (!fixed) {
        free(text);
        return NULL;
    }
    size_t o = 0;
    for (size_t at = 0; at < len;) {
        size_t n = (unsigned char)text[at] < 0x80 ? 1 : mp_utf8_seq(text + at, len - at);
        if (!n) {   /* only inside a string: everything else cJSON prints is ASCII */
            memcpy(fixed + o, REPLACEMENT, sizeof REPLACEMENT - 1);
            o += sizeof REPLACEMENT - 1;
            at++;
        } else {
            memcpy(fixed + o, text + at, n);
            o += n;
            at += n;
        }
    }
    fixed[o] = 0;
    free(text);
    return fixed;
}

double mp_json_num(const cJSON *o, const char *key, double missing)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(j) ? j->valuedouble : missing;
}

const char *mp_json_str(const cJSON *o, const char *key, const char *missing)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(j) ? j->valuestring : missing;
}
