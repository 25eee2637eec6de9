/* out_csv.c - results.csv (one row per cell and metric) and samples.csv
 * (every kept wall-time sample), built in memory and written atomically. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
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

int mp_write_csv(const mp_results *r, mp_dir *dir, mp_err *err)
{
    sbuf b = {0};
    sb_printf(&b, "backend,fd_kind,mode,nfds,active,status,metric,p10,p50,p90,p99,mean,min,max,stddev,n\n");
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->status == MP_CELL_PENDING)
            continue;   /* never reached: not in results.json either */
        if (c->status != MP_CELL_OK) {
            sb_printf(&b, "%s,%s,%s,%d,%d,%s,", c->backend->name, mp_fd_kind_name(c->kind),
                      mp_mode_name(c->mode), c->nfds, c->active, mp_cell_status_name(c->status));
            sb_printf(&b, ",,,,,,,,,\n");
            continue;
        }
        for (size_t k = 0; k < c->nmetrics; k++) {
            const mp_summary *s = &c->metrics[k].s;
            sb_printf(&b, "%s,%s,%s,%d,%d,%s,", c->backend->name, mp_fd_kind_name(c->kind),
                      mp_mode_name(c->mode), c->nfds, c->active, mp_cell_status_name(c->status));
            if (c->metrics[k].is_counter && s->n == 0) {   /* nothing counted: empty */
                sb_printf(&b, "%s,,,,,,,,,0\n", c->metrics[k].name);
                continue;
            }
            sb_printf(&b, "%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%zu\n",
                      c->metrics[k].name, s->p10, s->p50, s->p90, s->p99, s->mean, s->min,
                      s->max, s->stddev, s->n);
        }
    }
    return sb_write(&b, dir, "results.csv", err);
}

int mp_write_samples(const mp_results *r, mp_dir *dir, mp_err *err)
{
    sbuf b = {0};
    sb_printf(&b, "cell,backend,fd_kind,mode,nfds,active,repeat,wall_raw_ns\n");
    /* `cell` indexes results[] in results.json, which leaves out cells never reached. */
    for (size_t i = 0, j = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->status == MP_CELL_PENDING)
            continue;
        if (c->status == MP_CELL_OK)
            for (size_t k = 0; k < c->nsamples; k++)
                sb_printf(&b, "%zu,%s,%s,%s,%d,%d,%d,%.0f\n", j, c->backend->name,
                          mp_fd_kind_name(c->kind), mp_mode_name(c->mode), c->nfds, c->active,
                          c->sample_repeat[k], c->samples[k]);
        j++;
    }
    return sb_write(&b, dir, "samples.csv", err);
}
