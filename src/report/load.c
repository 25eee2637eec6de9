/* SPDX-License-Identifier: MIT */
/* load.c - results.json read into the model: the file read whole (with a
 * size limit), parsed, checked cell by cell, then its optional parts.  See
 * report/model.h. */
#include "report/model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"
#include "report/anonymize.h"
#include "common/input.h"
#include "report/internal.h"
#include "results/schema.h"

static int read_all(const char *path, char **out, size_t *len, mp_err *err)
{
    char *buf;
    size_t n;
    int rc = mp_read_regular_file(path, MP_RM_MAX_FILE_BYTES, &buf, &n, err);
    if (rc == -ENOENT || rc == -ENOTDIR)
        return mp_errf(err, rc, "cannot open %s: %s (is this a muxprof run directory?)", path,
                       strerror(-rc));
    if (rc == -EFBIG) {   /* refused as a bad file is; the message says why */
        err->code = -EBADMSG;
        return -EBADMSG;
    }
    if (rc < 0)
        return rc;
    /* JSON text has no raw NUL (cJSON would keep one inside a string and
     * cut the string there, hiding what followed) */
    const char *nul = memchr(buf, 0, n);
    if (nul) {
        size_t at = (size_t)(nul - buf);
        free(buf);
        return mp_errf(err, -EBADMSG, "%s: not valid JSON: a NUL byte at byte %zu", path, at);
    }
    *out = buf;
    *len = n;
    return 0;
}

/* The text fields of table t in rec (the object at dotted path prefix, ""
 * for the top level) that the file holds as a number or a boolean: as the
 * text the report shows any scalar in (mp_rm_text), in m->run_text from
 * *next on. */
static void text_of_scalars(mp_rmodel *m, const mp_rtable *t, void *rec, const char *prefix,
                            size_t *next)
{
    for (size_t i = 0; i < t->nfields && *next < MP_RM_MAX_RUN_TEXT; i++) {
        const mp_rtfield *f = &t->fields[i];
        const char **at = (const char **)((char *)rec + f->off);
        char key[64];
        snprintf(key, sizeof key, "%s%s", prefix, f->key);
        if (f->type == MP_RT_STR && !*at &&
            mp_rm_text(m, key, m->run_text[*next], sizeof m->run_text[*next]))
            *at = m->run_text[(*next)++];
    }
}

/* The run's statuses results.json may give (results/top.h), NULL-ended. */
static const char *const run_statuses[] = {"complete", "interrupted", "errors", NULL};

static int run_status_ok(const cJSON *s)
{
    for (size_t i = 0; cJSON_IsString(s) && run_statuses[i]; i++)
        if (!strcmp(s->valuestring, run_statuses[i]))
            return 1;
    return 0;
}

/* The top level's members before its objects into m->run. */
static void read_run(mp_rmodel *m)
{
    size_t next = 0;
    mp_rrun_read(m->root, &m->run);
    text_of_scalars(m, &mp_rrun_table, &m->run, "", &next);
    text_of_scalars(m, &mp_rtool_table, &m->run.tool, "tool.", &next);
}

int mp_rm_load(mp_rmodel *m, const char *path, mp_err *err)
{
    return mp_rm_load_anonymized(m, path, NULL, err);
}

/* The document text (len bytes) read as the file path holds it. */
static int load_text(mp_rmodel *m, const char *path, const char *buf, size_t len,
                     mp_anon *labels, mp_err *err)
{
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    m->line_bytes = 64;
    mp_err jerr;
    int rc = mp_json_parse(buf, len, &m->root, &jerr);
    if (rc)
        return mp_errf(err, rc, "%s: %s", path, jerr.msg);
    if (!cJSON_IsObject(m->root))
        return mp__rm_bad(err, m, "(top level)", "expected an object, found %s", mp__rm_type_name(m->root));
    if (labels && (rc = mp_rm_anonymize(m->root, labels, err)))
        return rc;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(m->root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, MP_RESULTS_SCHEMA))
        return mp__rm_bad(err, m, "schema", "expected \"" MP_RESULTS_SCHEMA "\", found %s",
                   cJSON_IsString(schema) ? "another version" : mp__rm_type_name(schema));
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(m->root, "context");
    if (ctx && !cJSON_IsObject(ctx))
        return mp__rm_bad(err, m, "context", "expected an object, found %s", mp__rm_type_name(ctx));
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(m->root, "config");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(m->root, "status");
    if (status && !run_status_ok(status)) {
        char known[80];
        size_t o = 0;
        for (size_t i = 0; run_statuses[i]; i++)
            o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "",
                                  run_statuses[i]);
        return mp__rm_bad(err, m, "status", "expected one of %s, found %s", known,
                          cJSON_IsString(status) ? "another word" : mp__rm_type_name(status));
    }
    read_run(m);
    mp_rcontext_read(ctx, &m->context);
    mp_rconfig_read(cfg, &m->config);
    m->ncontext_held = mp_rtable_held(&mp_rcontext_table, ctx, m->context_held, MP_RM_MAX_HELD);
    m->settings = cJSON_IsObject(cfg) ? cfg : NULL;
    /* an anonymized document never says where it lies */
    m->anonymized = m->context.anonymized != NULL;
    snprintf(m->shown, sizeof m->shown, "%s", m->anonymized ? "results.json" : path);
    snprintf(m->arch, sizeof m->arch, "%.31s", m->context.has_uname ? m->context.arch : "unknown");
    m->abi = mp_abi_from_arch(m->arch);
    m->simulated = m->context.simulated;
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(m->root, "trace");
    if (cJSON_IsObject(tr)) {
        m->traced = 1;
        mp_rtable_read(&mp_rtrace_table, tr, &m->trace);
        m->ntrace_held = mp_rtable_held(&mp_rtrace_table, tr, m->trace_held, MP_RM_MAX_HELD);
    }
    snprintf(m->sim_label, sizeof m->sim_label, "%.90s",
             m->simulated && m->context.label ? m->context.label : "simulated");

    const cJSON *res = cJSON_GetObjectItemCaseSensitive(m->root, "results");
    if (!cJSON_IsArray(res))
        return mp__rm_bad(err, m, "results", "expected an array of cells, found %s", mp__rm_type_name(res));
    int n = cJSON_GetArraySize(res);
    if (n > MP_RM_MAX_CELLS)
        return mp__rm_bad(err, m, "results", "%d cells, more than the %d a report can hold", n,
                   MP_RM_MAX_CELLS);
    m->cells = calloc(n > 0 ? (size_t)n : 1, sizeof *m->cells);
    m->kcells = calloc(n > 0 ? (size_t)n : 1, sizeof *m->kcells);
    m->dcells = calloc(n > 0 ? (size_t)n : 1, sizeof *m->dcells);
    m->all = calloc(n > 0 ? (size_t)n : 1, sizeof *m->all);
    if (!m->cells || !m->kcells || !m->dcells || !m->all)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", path);
    const cJSON *c;
    size_t idx = 0;
    cJSON_ArrayForEach(c, res)
        mp_rcell_read(c, &m->all[m->nall++]);
    /* A run with several --wake-delay values: the analyses use the wakeup
     * cells of the shortest; the others go to the sleep-depth section. */
    m->wake_delay_ns = -1;
    for (size_t i = 0; i < m->nall; i++)
        if (!strcmp(m->all[i].mode, "wakeup") && m->all[i].wake_delay_ns >= 0 &&
            (m->wake_delay_ns < 0 || m->all[i].wake_delay_ns < m->wake_delay_ns))
            m->wake_delay_ns = m->all[i].wake_delay_ns;
    /* A run with both --fd-table values: the analyses use the private
     * cells; the shared ones are compared in the harness section. */
    int has_private = 0;
    cJSON_ArrayForEach(c, res) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(c, "fd_table");
        has_private |= !cJSON_IsString(t) || !strcmp(t->valuestring, "private");
    }
    cJSON_ArrayForEach(c, res) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(c, "fd_table");
        if (has_private && cJSON_IsString(t) && strcmp(t->valuestring, "private")) {
            idx++;
            continue;
        }
        mp_rcell *x = &m->cells[m->ncells];
        if ((rc = mp__rm_load_cell(m, c, idx++, x, err))) {
            m->ncells++;   /* so mp_rm_free releases its counters */
            return rc;
        }
        if (x->active == 1 && !strcmp(x->mode, "wakeup") &&
            x->wake_delay_ns != m->wake_delay_ns) {
            m->dcells[m->ndcells++] = *x;
            memset(x, 0, sizeof *x);
            continue;
        }
        if (x->active == 1) {
            m->ncells++;
            continue;
        }
        if (x->active > 1)   /* K of N: kept apart so per-call analyses never see it */
            m->kcells[m->nkcells++] = *x;
        else
            free(x->counters);
        memset(x, 0, sizeof *x);
    }
    if (mp__rm_load_profiles(m) < 0 || mp__rm_load_noise(m) < 0 ||
        mp__rm_load_all_metrics(m, res) < 0 || mp__rm_load_sim_fns(m) < 0)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", path);
    mp__rm_load_topology(m);
    mp__rm_load_counters(m);
    if (mp__rm_index(m) < 0)
        return mp_errf(err, -ENOMEM, "out of memory reading %s", path);
    mp__rm_load_experiments(m);
    return 0;
}

int mp_rm_load_anonymized(mp_rmodel *m, const char *path, mp_anon *labels, mp_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    int rc = read_all(path, &buf, &len, err);
    if (rc)
        return rc;
    rc = load_text(m, path, buf, len, labels, err);
    free(buf);
    return rc;
}

int mp_rm_check_text(const char *text, size_t len, const char *path, mp_err *err)
{
    if (len > MP_RM_MAX_FILE_BYTES)
        return mp_errf(err, -EBADMSG, "%s: %zu bytes, more than the %u MiB a report reads",
                       path, len, (unsigned)(MP_RM_MAX_FILE_BYTES >> 20));
    if (memchr(text, 0, len))
        return mp_errf(err, -EBADMSG, "%s: not valid JSON: a NUL byte", path);
    mp_rmodel *m = malloc(sizeof *m);
    if (!m)
        return mp_errf(err, -ENOMEM, "out of memory checking %s", path);
    int rc = load_text(m, path, text, len, NULL, err);
    mp_rm_free(m);
    free(m);
    return rc;
}
