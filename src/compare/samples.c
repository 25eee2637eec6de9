/* samples.c - an input's samples.csv (`cell,...,repeat,wall_raw_ns` today,
 * `cell,repeat,wall_ns` from older runs; cell indexes results[] of the
 * results.json beside it; the columns between are the cell's keys), held per cell for the
 * significance test of compare/change.c.  A missing or unreadable file is
 * not an error: the change is then "not testable" and says why. */
#include "compare/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/input.h"

void mp__cmp_samples_free(mp_cmp_host *h)
{
    for (size_t i = 0; h->samples && i < h->nsample_cells; i++)
        free(h->samples[i]);
    free(h->samples);
    free(h->nsamples);
    h->samples = NULL;
    h->nsamples = NULL;
    h->nsample_cells = 0;
}

/* Count (fill == 0) or store the rows of f; -1 on a malformed row, -EDOM
 * on a time that is not a finite number (nan, inf: the rank test could not
 * order it), -E2BIG past MP_CMP_SAMPLES_MAX_ROWS rows. */
static int read_rows(FILE *f, mp_cmp_host *h, int fill, size_t *line)
{
    char buf[256];
    *line = 1;
    if (!fgets(buf, sizeof buf, f) || strncmp(buf, "cell,", 5) ||
        (!strstr(buf, ",repeat,wall_ns") && !strstr(buf, ",repeat,wall_raw_ns")))
        return -1;
    while (fgets(buf, sizeof buf, f)) {
        if ((*line)++ > MP_CMP_SAMPLES_MAX_ROWS)
            return -E2BIG;
        /* the first column is the cell, the last two the repeat and the time */
        char *end, *last = strrchr(buf, ',');
        unsigned long cell = strtoul(buf, &end, 10);
        if (end == buf || *end != ',' || !last || last == end)
            return -1;
        *last = '\0';
        char *prev = strrchr(buf, ',');
        double v = strtod(last + 1, &end);
        if (!prev || end == last + 1 || cell >= h->nsample_cells)
            return -1;
        (void)strtol(prev + 1, &end, 10);
        if (end == prev + 1)
            return -1;
        if (!isfinite(v))
            return -EDOM;
        if (fill)
            h->samples[cell][h->nsamples[cell]++] = v;
        else
            h->nsamples[cell]++;
    }
    return ferror(f) ? -1 : 0;
}

void mp__cmp_samples_load(mp_cmp_host *h)
{
    char path[sizeof h->m.path + 16];
    const char *slash = strrchr(h->m.path, '/');
    h->samples_why[0] = 0;
    if (h->reference) {
        snprintf(h->samples_why, sizeof h->samples_why, "a published reference: one number "
                 "per cell, no samples");
        return;
    }
    snprintf(path, sizeof path, "%.*s/samples.csv", slash ? (int)(slash - h->m.path) : 1,
             slash ? h->m.path : ".");
    mp_err oerr;
    int fd = mp_open_regular_file(path, MP_CMP_SAMPLES_MAX_BYTES, &oerr);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd == -ENOENT)
            snprintf(h->samples_why, sizeof h->samples_why, "no samples.csv beside %.150s",
                     h->m.path);
        else
            snprintf(h->samples_why, sizeof h->samples_why, "%.190s",
                     fd < 0 ? oerr.msg : "out of memory");
        if (fd >= 0)
            close(fd);
        return;
    }
    size_t ncells = 0, line = 0;
    for (size_t i = 0; i < h->m.ncells; i++)
        if (h->m.cells[i].index + 1 > ncells)
            ncells = h->m.cells[i].index + 1;
    h->nsample_cells = ncells;
    h->samples = calloc(ncells ? ncells : 1, sizeof *h->samples);
    h->nsamples = calloc(ncells ? ncells : 1, sizeof *h->nsamples);
    int rc = h->samples && h->nsamples ? read_rows(f, h, 0, &line) : -ENOMEM;
    for (size_t i = 0; rc == 0 && i < ncells; i++) {
        if (h->nsamples[i] && !(h->samples[i] = malloc(sizeof **h->samples * h->nsamples[i])))
            rc = -ENOMEM;
        h->nsamples[i] = 0;
    }
    if (rc == 0) {
        rewind(f);
        rc = read_rows(f, h, 1, &line);
    }
    fclose(f);
    if (rc) {
        mp__cmp_samples_free(h);
        if (rc == -ENOMEM)
            snprintf(h->samples_why, sizeof h->samples_why, "out of memory reading %.150s",
                     path);
        else if (rc == -E2BIG)
            snprintf(h->samples_why, sizeof h->samples_why, "%.120s has more than %d rows",
                     path, MP_CMP_SAMPLES_MAX_ROWS);
        else if (rc == -EDOM)
            snprintf(h->samples_why, sizeof h->samples_why, "%.150s line %zu: the time is not "
                     "a finite number", path, line);
        else
            snprintf(h->samples_why, sizeof h->samples_why, "%.120s line %zu is not cell,...,"
                     "repeat,wall_raw_ns of a results[] cell", path, line);
    }
}
