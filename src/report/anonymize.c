/* SPDX-License-Identifier: MIT */
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
#include <unistd.h>

#include "common/file.h"
#include "common/input.h"
#include "common/json.h"

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

/* dir/name into dst, opened as every input of a run directory is
 * (common/input.h): not followed when a symbolic link, a FIFO or device
 * refused without blocking, at most MP_ANON_COPY_MAX_BYTES; streamed into a
 * temporary file of dst renamed into place, as every output is.  A missing
 * file is skipped; one refused is bad input (-EBADMSG). */
static int copy_file(const char *dir, const char *name, mp_dir *dst, mp_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = mp_open_regular_file_in(dir, name, MP_ANON_COPY_MAX_BYTES, err);
    if (fd == -ENOENT)
        return 0;
    if (fd == -ELOOP || fd == -EFBIG)
        err->code = fd = -EBADMSG;   /* the message stays: it names the file and why */
    if (fd < 0)
        return fd;
    mp_afile a;
    int rc = mp_afile_open(&a, dst, name, err);
    static char buf[1 << 16];
    unsigned long long n = 0;
    while (!rc) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = mp_errf(err, -errno, "cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (!got)
            break;
        if ((n += (unsigned long long)got) > MP_ANON_COPY_MAX_BYTES)
            rc = mp_errf(err, -EBADMSG, "%s grew past the limit of %llu bytes for a copy while "
                         "read", path, (unsigned long long)MP_ANON_COPY_MAX_BYTES);
        else if (fwrite(buf, 1, (size_t)got, a.f) != (size_t)got)
            rc = mp_errf(err, -EIO, "cannot write %s/%s: %s", dst->path, name, strerror(errno));
    }
    close(fd);
    if (!rc)
        return mp_afile_commit(&a, err);
    mp_afile_abort(&a);
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
    char *text = rc ? NULL : mp_json_print(m.root, 1);
    if (!rc && !text)
        rc = mp_errf(err, -ENOMEM, "out of memory writing %s/results.json", dst->path);
    if (!rc)
        rc = mp_write_file(dst, "results.json", text, strlen(text), err);
    static const char *const csvs[] = {"results.csv", "samples.csv", "experiments.csv"};
    for (size_t i = 0; !rc && !same_dir(src, dst->path) && i < sizeof csvs / sizeof csvs[0]; i++)
        rc = copy_file(src, csvs[i], dst, err);
    free(text);
    mp_rm_free(&m);
    mp_anon_free(labels);
    return rc;
}
