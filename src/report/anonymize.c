/* anonymize.c - the fields of results.json (docs/results-schema.md) and
 * what --anonymize does with each; see report/anonymize.h.  A string that
 * no row names is free text: its paths and kernel addresses are replaced by
 * shape (common/anonymize.h), which leaves words and numbers as they are.
 * muxprof's own messages (reasons, warnings, notes) name the host only inside
 * a path, the run directory's, so a host name cannot survive in them. */
#include "report/anonymize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file.h"

#define NOTE "context.host replaced by a label; paths in context.command and in every " \
             "free-text field replaced by " MP_ANON_PATH ", kernel addresses by " \
             MP_ANON_KADDR " (muxprof --anonymize, docs/privileges.md)"

static const mp_anon_field fields[] = {
    /* what identifies the host, its users and its files */
    {"context.host", MP_ANON_LABEL, "host"},
    {"context.command", MP_ANON_ARGV, "--out"},
    {"context.anonymized", MP_ANON_DROP, NULL},     /* written again below */
    /* data: kept as measured and described, whatever it looks like (an event
     * config may look like a kernel address, a backend like a host name) */
    {"schema", MP_ANON_KEEP, NULL},
    {"status", MP_ANON_KEEP, NULL},
    {"tool", MP_ANON_KEEP, NULL},
    {"config", MP_ANON_KEEP, NULL},
    {"context.arch", MP_ANON_KEEP, NULL},
    {"context.cpu_model", MP_ANON_KEEP, NULL},
    {"context.kernel", MP_ANON_KEEP, NULL},
    {"context.kernel_version", MP_ANON_KEEP, NULL},
    {"context.compiler", MP_ANON_KEEP, NULL},
    {"context.build_type", MP_ANON_KEEP, NULL},
    {"context.git_describe", MP_ANON_KEEP, NULL},
    {"topology.cpu_model", MP_ANON_KEEP, NULL},
    {"calibration.bare_loop[].backend", MP_ANON_KEEP, NULL},
    {"calibration.bare_loop[].fd_kind", MP_ANON_KEEP, NULL},
    {"counters.events[].name", MP_ANON_KEEP, NULL},
    {"counters.events[].event", MP_ANON_KEEP, NULL},
    {"counters.events[].pmu", MP_ANON_KEEP, NULL},
    {"counters.events[].encoding", MP_ANON_KEEP, NULL},
    {"counters.events[].config", MP_ANON_KEEP, NULL},
    {"counters.events[].config1", MP_ANON_KEEP, NULL},
    {"results[].backend", MP_ANON_KEEP, NULL},
    {"results[].syscall", MP_ANON_KEEP, NULL},
    {"results[].fd_kind", MP_ANON_KEEP, NULL},
    {"results[].mode", MP_ANON_KEEP, NULL},
    {"results[].status", MP_ANON_KEEP, NULL},
    {"results[].fd_table", MP_ANON_KEEP, NULL},
    {"results[].ready_pos", MP_ANON_KEEP, NULL},
};

int mp_rm_anonymize(cJSON *doc, mp_anon *labels, mp_err *err)
{
    int rc = mp_anon_doc(labels, doc, fields, sizeof fields / sizeof fields[0], MP_ANON_TEXT,
                         err);
    if (rc)
        return rc;
    cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
    if (cJSON_IsObject(ctx) && !cJSON_AddStringToObject(ctx, "anonymized", NOTE))
        return mp_errf(err, -ENOMEM, "out of memory anonymizing");
    return 0;
}

/* dir/name into dst; a missing file is skipped. */
static int copy_file(const char *dir, const char *name, mp_dir *dst, mp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0 : mp_errf(err, -errno, "cannot read %s: %s", path,
                                             strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    int rc = 0;
    do {
        if (n + 65536 > cap) {
            char *b = realloc(buf, cap = n + 65536 * 4);
            if (!b) {
                rc = mp_errf(err, -ENOMEM, "out of memory copying %s", path);
                break;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (!rc && ferror(f))
        rc = mp_errf(err, -EIO, "cannot read %s", path);
    fclose(f);
    if (!rc)
        rc = mp_write_file(dst, name, buf ? buf : "", n, err);
    free(buf);
    return rc;
}

static int same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return !strcmp(a, b) || (stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
                             sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

int mp_report_anonymize_run(const char *src, mp_dir *dst, mp_err *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/results.json", src) >= sizeof path)
        return mp_errf(err, -ENAMETOOLONG, "%s: path too long", src);
    mp_anon *labels = mp_anon_new();
    if (!labels)
        return mp_errf(err, -ENOMEM, "out of memory");
    mp_rmodel m;
    int rc = mp_rm_load_anonymized(&m, path, labels, err);
    char *text = rc ? NULL : cJSON_Print(m.root);
    if (!rc && !text)
        rc = mp_errf(err, -ENOMEM, "out of memory writing %s/results.json", dst->path);
    if (!rc)
        rc = mp_write_file(dst, "results.json", text, strlen(text), err);
    if (!rc && !same_dir(src, dst->path) && !(rc = copy_file(src, "results.csv", dst, err)))
        rc = copy_file(src, "samples.csv", dst, err);
    free(text);
    mp_rm_free(&m);
    mp_anon_free(labels);
    return rc;
}
