/* SPDX-License-Identifier: MIT */
/* fig.c - the figure plumbing of report/: the list of prepared figures,
 * gnuplot wrappers, removing the figure files an earlier report wrote, and
 * drawing.  It knows no section: each section prepares its own figures
 * through it.  See fig.h; the figure kinds are the scripts in plots/. */
#include "report/fig.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/paper.h"
#include "report/plot.h"
#include "report/series.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/format.h"
#include "report/internal.h"

void mp__rfig_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.10g", v);
    else
        fputs(" ?", f);
}

int mp__rfig_wall_row(FILE *f, long long x, const mp_rcell *c)
{
    if (!c || c->status != MP_CELL_OK || !(c->wall.p50 > 0))
        return 0;
    fprintf(f, "%lld", x);
    mp__rfig_num(f, c->wall.p10 > 0 ? c->wall.p10 : NAN);
    mp__rfig_num(f, c->wall.p50);
    mp__rfig_num(f, c->wall.p90 > 0 ? c->wall.p90 : NAN);
    fputc('\n', f);
    return 1;
}

mp_rfig *mp__rfig_add(mp_rfigs *o, int kind, const char *name, mp_err *err)
{
    mp_rfig *v = realloc(o->v, (o->n + 1) * sizeof *v);
    if (!v) {
        mp_errf(err, -ENOMEM, "out of memory listing figures");
        return NULL;
    }
    o->v = v;
    mp_rfig *g = &v[o->n++];
    memset(g, 0, sizeof *g);
    g->kind = kind;
    snprintf(g->name, sizeof g->name, "%s", name);
    return g;
}

const mp_rfig *mp_rfig_find(const mp_rfigs *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->v[i].name, name))
            return &f->v[i];
    return NULL;
}

/* The wrapper: caption, vars, the paper layout (NULL: none), out, load. */
static int write_wrapper(mp_dir *dir, const char *name, const char *caption,
                         const char *script, const char *vars, const mp_rpaper *paper,
                         mp_err *err)
{
    char file[200];
    snprintf(file, sizeof file, "%s.gp", name);
    size_t nv = strlen(vars);
    if (nv && vars[nv - 1] != '\n')   /* cut short: a half line is not gnuplot to run */
        return mp_errf(err, -ENAMETOOLONG, "%s: the figure's variables do not fit in %d "
                       "bytes", file, MP_RFIG_VARS);
    mp_afile a;
    int rc = mp_afile_open(&a, dir, file, err);
    if (rc)
        return rc;
    fprintf(a.f, "# %s.gp - %s\n# Redraw %s.png/.svg/.pdf here with: gnuplot %s.gp\n"
                 "# (restyle all figures in style.gp, this kind in %s)\n",
            name, MP_QCOMMENT(caption), name, name, script);
    fputs(vars, a.f);
    if (paper && (rc = mp_rpaper_write(paper, a.f)) != 0) {
        mp_afile_abort(&a);
        return mp_errf(err, rc, "out of memory laying out %s for a paper", file);
    }
    fprintf(a.f, "out = %s\nload %s\n", MP_QGP(name), MP_QGP(script));
    return mp_afile_commit(&a, err);
}

int mp_rfig_write_wrapper(mp_dir *dir, const char *name, const char *caption,
                          const char *script, const char *vars, mp_err *err)
{
    return write_wrapper(dir, name, caption, script, vars, NULL, err);
}

int mp__rfig_wrapper(mp_dir *dir, const mp_rfig *g, const char *script, const char *vars,
                     mp_err *err)
{
    return write_wrapper(dir, g->name, g->caption, script, vars, NULL, err);
}

int mp__rfig_wrapper_paper(mp_dir *dir, const mp_rfig *g, const char *script,
                           const char *vars, const mp_rpaper *paper, mp_err *err)
{
    return write_wrapper(dir, g->name, g->caption, script, vars, paper, err);
}

/* A figure gnuplot drew (NAME.png, .svg, .pdf, -2col.pdf). */
static int drawn_output(const char *name)
{
    static const char *const ext[] = {".png", ".svg", ".pdf"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (n > strlen(ext[i]) && !strcmp(name + n - strlen(ext[i]), ext[i]))
            return 1;
    return 0;
}

int mp_rfig_begin(mp_dir *top, mp_dir *figdir, int drawing, mp_rfigs *out, mp_err *err)
{
    memset(out, 0, sizeof *out);
    out->paper = (drawing & MP_RFIG_PAPER) != 0;
    drawing &= MP_RFIG_DRAW;
    int rc = mp_dir_sub(figdir, top, "figures", err);
    if (rc)
        return rc;
    /* figures of counters or modes no longer there do not linger; without
     * drawing, what an earlier report drew is kept */
    mp_dir_prune_except(figdir, drawing ? NULL : drawn_output);
    if ((rc = mp_plot_install(figdir, err)))
        mp_dir_close(figdir);
    return rc;
}

/* What gnuplot writes for one figure: NAME + each of these. */
static const char *const outputs[] = {".png", ".svg", ".pdf", "-2col.pdf"};
#define NOUTPUTS (sizeof outputs / sizeof outputs[0])

/* Make way for gnuplot's output file: absent, or a regular file of ours with
 * one link, emptied so that an old figure is never mistaken for a new one.
 * gnuplot opens it by name and would follow a link: anything else stops the
 * figure. */
static int clear_output(mp_dir *d, const char *file, char *why, size_t len)
{
    struct stat st;
    if (fstatat(d->fd, file, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(why, len, "cannot inspect %s/%s: %s", d->path, file, strerror(errno));
        return -1;
    }
    int fd = S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == geteuid()
                 ? openat(d->fd, file, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                 : -1;
    struct stat now;
    if (fd >= 0 && fstat(fd, &now) == 0 && now.st_ino == st.st_ino && ftruncate(fd, 0) == 0) {
        close(fd);
        return 0;
    }
    if (fd >= 0)
        close(fd);
    snprintf(why, len, "%s/%s exists and is not a figure muxprof can replace (a link, a "
             "file with other links, or not a regular file); remove it and run the report "
             "again", d->path, file);
    return -EEXIST;
}

static int drawn(mp_dir *d, const char *name, const char *ext)
{
    char p[256];
    struct stat st;
    snprintf(p, sizeof p, "%s%s", name, ext);
    return fstatat(d->fd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
           st.st_size > 0;
}

int mp_rfig_draw_one(mp_dir *figdir, const char *name, char *why, size_t len)
{
    char gp[200], file[256];
    mp_err e;
    mp_err_clear(&e);
    for (size_t x = 0; x < NOUTPUTS; x++) {
        snprintf(file, sizeof file, "%s%s", name, outputs[x]);
        if (clear_output(figdir, file, why, len))
            return -1;
    }
    snprintf(gp, sizeof gp, "%s.gp", name);
    if (mp_plot_run(figdir, gp, &e) != 0) {
        snprintf(why, len, "%s", e.msg);
        return -1;
    }
    for (size_t x = 0; x < NOUTPUTS; x++)
        if (!drawn(figdir, name, outputs[x])) {
            snprintf(why, len, "gnuplot ran but %s.png/.svg/.pdf/-2col.pdf are not all there",
                     name);
            return -1;
        }
    for (size_t x = 0; x < NOUTPUTS; x++) {
        snprintf(file, sizeof file, "%s%s", name, outputs[x]);
        if (mp_dir_note(figdir, file, &e)) {
            snprintf(why, len, "%s", e.msg);
            return -1;
        }
    }
    return 0;
}

void mp_rfig_draw(mp_dir *figdir, mp_rfigs *f)
{
    f->asked = 1;
    f->gnuplot = mp_plot_gnuplot_found(NULL, 0);
    if (!f->gnuplot)
        return;
    for (size_t i = 0; i < f->n && !mp_plot_interrupted(); i++) {
        mp_rfig *g = &f->v[i];
        if (mp_rfig_draw_one(figdir, g->name, g->error, sizeof g->error) == 0)
            g->drawn = 1;
        else
            f->failed++;
    }
}

void mp_rfigs_free(mp_rfigs *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}
