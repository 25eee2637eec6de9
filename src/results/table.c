/* SPDX-License-Identifier: MIT */
/* table.c - an object of results.json through the table of its fields; see
 * results/table.h. */
#include "results/table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int holds(const mp_rtfield *f, const char *rec)
{
    if (!f->when)
        return 1;
    int flag = *(const int *)(rec + f->when - 1);
    return f->unless ? !flag : flag != 0;
}

static cJSON *array_json(const mp_rtfield *f, const char *rec);

static cJSON *value_json(const mp_rtfield *f, const char *rec)
{
    const char *at = rec + f->off;
    char hex[32];
    switch (f->type) {
    case MP_RT_TEXT:
        return f->absent == MP_RT_OMIT_EMPTY && !*at ? NULL : cJSON_CreateString(at);
    case MP_RT_STR: {
        const char *s = *(const char *const *)at;
        return f->absent == MP_RT_OMIT_EMPTY && (!s || !*s) ? NULL
                                                           : cJSON_CreateString(s ? s : "");
    }
    case MP_RT_COUNT: {
        long long n = *(const long long *)at;
        if ((f->absent == MP_RT_OMIT_ZERO && !n) || (f->absent == MP_RT_OMIT_NEGATIVE && n < 0))
            return NULL;
        return cJSON_CreateNumber((double)n);
    }
    case MP_RT_NUMBER: {
        double x = *(const double *)at;
        if (!isnan(x))
            return cJSON_CreateNumber(x);
        return f->absent == MP_RT_UNAVAILABLE_NAN ? cJSON_CreateString("unavailable")
               : f->absent == MP_RT_NULL_NAN      ? cJSON_CreateNull()
               : f->absent == MP_RT_OMIT_NAN      ? NULL
                                                  : cJSON_CreateNumber(x);
    }
    case MP_RT_BOOL: {
        int b = *(const int *)at;
        return f->absent == MP_RT_OMIT_ZERO && !b ? NULL : cJSON_CreateBool(b);
    }
    case MP_RT_HEX: {
        unsigned long long x = *(const unsigned long long *)at;
        if (f->absent == MP_RT_OMIT_ZERO && !x)
            return NULL;
        snprintf(hex, sizeof hex, "0x%llx", x);
        return cJSON_CreateString(hex);
    }
    case MP_RT_CHOICE: {
        int v = *(const int *)at, n = 0;
        while (f->names[n])
            n++;
        return v >= 0 && v < n ? cJSON_CreateString(f->names[v]) : NULL;
    }
    case MP_RT_TEXT_LIST:
    case MP_RT_COUNT_LIST: {
        size_t n = *(const size_t *)(rec + f->count_off);
        cJSON *a = cJSON_CreateArray();
        for (size_t i = 0; a && i < n && i < f->len; i++)
            cJSON_AddItemToArray(a, f->type == MP_RT_TEXT_LIST
                                        ? cJSON_CreateString(((const char *const *)at)[i])
                                        : cJSON_CreateNumber((double)((const long long *)at)[i]));
        return a;
    }
    case MP_RT_OBJECT:
        return mp_rtable_json(f->sub, at);
    case MP_RT_OBJECT_LIST: {
        size_t n = *(const size_t *)(rec + f->count_off);
        const char *el = *(const char *const *)at;
        cJSON *a = cJSON_CreateArray();
        for (size_t i = 0; a && i < n; i++)
            cJSON_AddItemToArray(a, mp_rtable_json(f->sub, el + i * f->len));
        return a;
    }
    case MP_RT_JSON: {
        const cJSON *j = *(const cJSON *const *)at;
        return j ? cJSON_Duplicate(j, 1) : NULL;
    }
    case MP_RT_INT: {
        int n = *(const int *)at;
        return f->absent == MP_RT_OMIT_ZERO && !n ? NULL : cJSON_CreateNumber(n);
    }
    case MP_RT_ARRAY:
        return array_json(f, rec);
    case MP_RT_REF: {
        const char *to = *(const char *const *)at;
        return to ? value_json(f->sub->fields, to) : NULL;
    }
    case MP_RT_KEYED_LIST: {
        size_t n = *(const size_t *)(rec + f->count_off);
        const char *el = *(const char *const *)at;
        cJSON *o = cJSON_CreateObject();
        for (size_t i = 0; o && i < n; i++, el += f->len)
            cJSON_AddItemToObject(o, *(const char *const *)el, mp_rtable_json(f->sub, el));
        return o;
    }
    }
    return NULL;
}

/* An ARRAY row: each element's value through the row's one element field. */
static cJSON *array_json(const mp_rtfield *f, const char *rec)
{
    int n = *(const int *)(rec + f->count_off);
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++) {
        cJSON *v = value_json(f->sub->fields, rec + f->off + (size_t)i * f->len);
        if (v)
            cJSON_AddItemToArray(a, v);
    }
    return a;
}

cJSON *mp_rtable_json(const mp_rtable *t, const void *rec)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < t->nfields; i++) {
        const mp_rtfield *f = &t->fields[i];
        if (!holds(f, rec))
            continue;
        cJSON *v = value_json(f, rec);
        if (v)
            cJSON_AddItemToObject(o, f->key, v);
    }
    return o;
}

static int of_kind(const mp_rtfield *f, const cJSON *j)
{
    switch (f->type) {
    case MP_RT_TEXT:
    case MP_RT_STR:
    case MP_RT_HEX:
        return cJSON_IsString(j);
    case MP_RT_COUNT:
        return cJSON_IsNumber(j) && isfinite(j->valuedouble) && fabs(j->valuedouble) < 1e18 &&
               j->valuedouble == floor(j->valuedouble);
    case MP_RT_NUMBER:
        return cJSON_IsNumber(j) || (f->absent == MP_RT_UNAVAILABLE_NAN && cJSON_IsString(j) &&
                                     !strcmp(j->valuestring, "unavailable"));
    case MP_RT_BOOL:
        return cJSON_IsBool(j);
    case MP_RT_CHOICE:
        for (int k = 0; cJSON_IsString(j) && f->names[k]; k++)
            if (!strcmp(j->valuestring, f->names[k]))
                return 1;
        return 0;
    case MP_RT_TEXT_LIST:
    case MP_RT_COUNT_LIST:
    case MP_RT_OBJECT_LIST:
        return cJSON_IsArray(j);
    case MP_RT_OBJECT:
        return cJSON_IsObject(j);
    case MP_RT_JSON:
        return j && !cJSON_IsNull(j);
    default:   /* a kind with no test of its value here is not listed */
        return 0;
    }
}

static const mp_rtfield *row_of(const mp_rtable *t, const char *key)
{
    for (size_t i = 0; key && i < t->nfields; i++)
        if (!strcmp(t->fields[i].key, key))
            return &t->fields[i];
    return NULL;
}

static size_t held(const mp_rtable *t, const cJSON *o, const mp_rtfield *in, mp_rtheld *out,
                   size_t max)
{
    const cJSON *e, *obj = cJSON_IsObject(o) ? o : NULL;
    size_t n = 0;
    cJSON_ArrayForEach(e, obj) {
        const mp_rtfield *f = row_of(t, e->string);
        if (!f || !of_kind(f, e) || n == max)
            continue;
        if (f->type == MP_RT_OBJECT)
            n += in ? 0 : held(f->sub, e, f, out + n, max - n);
        else
            out[n++] = (mp_rtheld){f, in};
    }
    return n;
}

size_t mp_rtable_held(const mp_rtable *t, const cJSON *o, mp_rtheld *out, size_t max)
{
    return held(t, o, NULL, out, max);
}

static void read_list(const mp_rtfield *f, const cJSON *j, char *at, size_t *n)
{
    const cJSON *e;
    *n = 0;
    if (!cJSON_IsArray(j))
        return;
    cJSON_ArrayForEach(e, j) {
        if (*n == f->len)
            break;
        if (f->type == MP_RT_TEXT_LIST && cJSON_IsString(e))
            ((const char **)at)[(*n)++] = e->valuestring;
        else if (f->type == MP_RT_COUNT_LIST && cJSON_IsNumber(e) &&
                 isfinite(e->valuedouble) && fabs(e->valuedouble) < 1e18)
            ((long long *)at)[(*n)++] = (long long)e->valuedouble;
    }
}

void mp_rtable_read(const mp_rtable *t, const cJSON *o, void *rec)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const mp_rtfield *f = &t->fields[i];
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, f->key);
        char *at = (char *)rec + f->off;
        switch (f->type) {
        case MP_RT_TEXT:
            snprintf(at, f->len, "%s", cJSON_IsString(j) ? j->valuestring : "");
            break;
        case MP_RT_STR:
            *(const char **)at = cJSON_IsString(j) ? j->valuestring : NULL;
            break;
        case MP_RT_COUNT:
            *(long long *)at = cJSON_IsNumber(j) && isfinite(j->valuedouble) &&
                                       fabs(j->valuedouble) < 1e18
                                   ? (long long)j->valuedouble : -1;
            break;
        case MP_RT_NUMBER:
            *(double *)at = cJSON_IsNumber(j) ? j->valuedouble : NAN;
            break;
        case MP_RT_BOOL:
            *(int *)at = cJSON_IsTrue(j);
            break;
        case MP_RT_HEX:
            *(unsigned long long *)at =
                cJSON_IsString(j) ? strtoull(j->valuestring, NULL, 16) : 0;
            break;
        case MP_RT_CHOICE:
            *(int *)at = -1;
            for (int k = 0; cJSON_IsString(j) && f->names[k]; k++)
                if (!strcmp(j->valuestring, f->names[k]))
                    *(int *)at = k;
            break;
        case MP_RT_TEXT_LIST:
        case MP_RT_COUNT_LIST:
            read_list(f, j, at, (size_t *)((char *)rec + f->count_off));
            break;
        case MP_RT_OBJECT:
            mp_rtable_read(f->sub, cJSON_IsObject(j) ? j : NULL, at);
            break;
        case MP_RT_INT:
            *(int *)at = cJSON_IsNumber(j) && fabs(j->valuedouble) <= INT_MAX
                             ? (int)j->valuedouble : -1;
            break;
        case MP_RT_OBJECT_LIST:
        case MP_RT_ARRAY:
        case MP_RT_REF:
        case MP_RT_KEYED_LIST:
            break;
        case MP_RT_JSON:
            *(const cJSON **)at = j;
            break;
        }
    }
}

/* OBJECT_LIST field f of o into a new array at rec; 0 or -ENOMEM. */
static int read_object_list(const mp_rtfield *f, const cJSON *o, char *rec)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, f->key), *e;
    int size = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
    size_t *n = (size_t *)(rec + f->count_off);
    char *el = size > 0 ? calloc((size_t)size, f->len) : NULL;
    *(char **)(rec + f->off) = el;
    *n = 0;
    if (!el)
        return size > 0 ? -ENOMEM : 0;
    cJSON_ArrayForEach(e, a)
        mp_rtable_read(f->sub, e, el + (*n)++ * f->len);
    return 0;
}

int mp_rtable_read_lists(const mp_rtable *t, const cJSON *o, void *rec)
{
    for (size_t i = 0; i < t->nfields; i++)   /* all NULL first: the error path frees all */
        if (t->fields[i].type == MP_RT_OBJECT_LIST)
            *(void **)((char *)rec + t->fields[i].off) = NULL;
    for (size_t i = 0; i < t->nfields; i++) {
        const mp_rtfield *f = &t->fields[i];
        if (f->type == MP_RT_OBJECT_LIST && read_object_list(f, o, rec) < 0) {
            mp_rtable_free_lists(t, rec);
            return -ENOMEM;
        }
    }
    return 0;
}

void mp_rtable_free_lists(const mp_rtable *t, void *rec)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const mp_rtfield *f = &t->fields[i];
        if (f->type != MP_RT_OBJECT_LIST)
            continue;
        free(*(void **)((char *)rec + f->off));
        *(void **)((char *)rec + f->off) = NULL;
        *(size_t *)((char *)rec + f->count_off) = 0;
    }
}

size_t mp_rtable_read_list(const mp_rtfield *f, const cJSON *v, void *out, size_t max)
{
    int keyed = f->type == MP_RT_KEYED_LIST;
    const cJSON *e;
    size_t n = 0;
    if (keyed ? !cJSON_IsObject(v) : !cJSON_IsArray(v))
        return 0;
    cJSON_ArrayForEach(e, v) {
        if (n == max)
            break;
        if (!cJSON_IsObject(e))
            continue;
        char *el = (char *)out + n++ * f->len;
        memset(el, 0, f->len);
        mp_rtable_read(f->sub, e, el);
        if (keyed)
            *(const char **)el = e->string;
    }
    return n;
}
