/* out_csv.c - results.csv (one row per cell and metric) and samples.csv
 * (every kept wall-time sample), built in memory and written atomically. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/json.h"
#include "run/results.h"

typedef struct {
    char *buf;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->buf && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t ncap = b->cap ? b->cap * 2 : 65536;
        while (ncap < b->len + (size_t)n + 1)
            ncap *= 2;
        char *nb = realloc(b->buf, ncap);
        if (!nb) {
            b->oom = 1;
            return;
        }
        b->buf = nb;
        b->cap = ncap;
    }
}

static int sb_write(sbuf *b, mp_dir *dir, const char *name, mp_err *err)
{
    int rc = b->oom ? mp_errf(err, -ENOMEM, "out of memory writing %s", name)
                    : mp_write_file(dir, name, b->buf ? b->buf : "", b->len, err);
    free(b->buf);
    return rc;
}

/* "backend,fd_kind,mode,nfds,active," of a cell of results[]. */
static void keys(sbuf *b, const cJSON *c)
{
    sb_printf(b, "%s,%s,%s,%d,%d,", mp_json_str(c, "backend", ""),
              mp_json_str(c, "fd_kind", ""), mp_json_str(c, "mode", ""),
              (int)mp_json_num(c, "nfds", -1), (int)mp_json_num(c, "active", -1));
}

static int cell_ok(const cJSON *c)
{
    return !strcmp(mp_json_str(c, "status", ""), "ok");
}

int mp_write_csv(const cJSON *cells, mp_dir *dir, mp_err *err)
{
    static const char *fields[] = {"p10", "p50", "p90", "p99", "mean", "min", "max", "stddev"};
    sbuf b = {0};
    sb_printf(&b, "backend,fd_kind,mode,nfds,active,status,metric,p10,p50,p90,p99,mean,min,max,stddev,n\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, cells) {
        const char *status = mp_json_str(c, "status", "");
        if (!cell_ok(c)) {
            keys(&b, c);
            sb_printf(&b, "%s,,,,,,,,,,\n", status);
            continue;
        }
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c, "metrics")) {
            keys(&b, c);
            sb_printf(&b, "%s,%s", status, m->string);
            if (!cJSON_IsObject(m)) {   /* a counter that counted nothing: empty */
                sb_printf(&b, ",,,,,,,,,0\n");
                continue;
            }
            for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, fields[k]);
                if (cJSON_IsNumber(v))
                    sb_printf(&b, ",%.6g", v->valuedouble);
                else
                    sb_printf(&b, ",");
            }
            sb_printf(&b, ",%.0f\n", mp_json_num(m, "n", 0));
        }
    }
    return sb_write(&b, dir, "results.csv", err);
}

int mp_write_samples(const cJSON *cells, const mp_samples *samples, mp_dir *dir,
                     mp_err *err)
{
    sbuf b = {0};
    sb_printf(&b, "cell,backend,fd_kind,mode,nfds,active,repeat,wall_raw_ns\n");
    /* `cell` indexes results[] in results.json. */
    size_t j = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cells) {
        const mp_samples *s = &samples[j];
        for (size_t k = 0; cell_ok(c) && k < s->n; k++) {
            sb_printf(&b, "%zu,", j);
            keys(&b, c);
            sb_printf(&b, "%d,%.0f\n", s->repeat[k], s->wall_raw_ns[k]);
        }
        j++;
    }
    return sb_write(&b, dir, "samples.csv", err);
}
