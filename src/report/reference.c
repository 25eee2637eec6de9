/* SPDX-License-Identifier: MIT */
/* reference.c - embedded reference datasets: lookup and loading.  See
 * report/reference.h.  Loading goes through mp_rm_load (report/model.c), which
 * reads a path: the embedded text is handed to it through a memfd so that
 * a reference is checked exactly like a results.json on disk. */
#include "report/reference.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const mp_cmp_ref *mp_cmp_ref_find(const char *name)
{
    size_t n = strlen(name);
    if (n > 5 && !strcmp(name + n - 5, ".json"))
        n -= 5;
    for (const mp_cmp_ref *r = mp_cmp_refs; r->name; r++)
        if (strlen(r->name) == n && !strncmp(r->name, name, n))
            return r;
    return NULL;
}

double mp_cmp_ref_claim(const char *name, const char *key)
{
    const mp_cmp_ref *r = mp_cmp_ref_find(name);
    cJSON *root = r ? cJSON_ParseWithLength(r->text, r->len) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "source_claims"), key);
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    cJSON_Delete(root);
    return x;
}

int mp_cmp_ref_check(const mp_rmodel *m, int *is_ref, mp_err *err)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(m->root, "reference");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(m->root, "source");
    *is_ref = 0;
    if (r && !cJSON_IsBool(r))
        return mp_errf(err, -EBADMSG, "%s: field reference: expected true or false "
                       "(a reference dataset says \"reference\": true)", m->path);
    if (s && (!cJSON_IsString(s) || !*s->valuestring))
        return mp_errf(err, -EBADMSG, "%s: field source: expected a non-empty string "
                       "naming the article the figures come from", m->path);
    if (cJSON_IsTrue(r)) {
        if (!s)
            return mp_errf(err, -EBADMSG, "%s: field source: missing (a reference "
                           "dataset names the article its figures come from)", m->path);
        *is_ref = 1;
    }
    return 0;
}

int mp_cmp_ref_load(mp_rmodel *m, const mp_cmp_ref *r, mp_err *err)
{
    int fd = memfd_create("muxprof-reference", MFD_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return mp_errf(err, -e, "reference %s: cannot create a memory file: %s", r->name,
                       strerror(e));
    }
    size_t off = 0;
    while (off < r->len) {
        ssize_t w = write(fd, r->text + off, r->len - off);
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            return mp_errf(err, -e, "reference %s: cannot write a memory file: %s",
                           r->name, strerror(e));
        }
        off += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int rc = mp_rm_load(m, path, err);
    close(fd);
    snprintf(m->path, sizeof m->path, "reference %s (built in: reports/reference/%s.json)", r->name,
             r->name);
    snprintf(m->shown, sizeof m->shown, "%s", m->path);
    if (rc) {
        char msg[MP_ERR_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg);
        mp_errf(err, rc, "reference %s (reports/reference/%s.json, embedded): %s", r->name,
                r->name, msg);
        return rc;
    }
    int is_ref = 0;
    rc = mp_cmp_ref_check(m, &is_ref, err);
    if (!rc && !is_ref)
        rc = mp_errf(err, -EBADMSG, "%s: field reference: expected true", m->path);
    return rc;
}
