/* fig.c - the figure plumbing of report/: the list of prepared figures,
 * gnuplot wrappers, cleaning out old figure files, and drawing.  It knows no
 * section: each section prepares its own figures through it.  See fig.h;
 * the figure kinds are the scripts in plots/. */
#include "report/fig.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/plot.h"
#include "report/calc.h"
#include "common/file.h"
#include "common/quote.h"
#include "report/util.h"
#include "report/internal.h"

void mp__rfig_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.10g", v);
    else
        fputs(" ?", f);
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

int mp_rfig_write_wrapper(const char *dir, const char *name, const char *caption,
                          const char *script, const char *vars, mp_err *err)
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
    fprintf(a.f, "%sout = %s\nload %s\n", vars, MP_QGP(name), MP_QGP(script));
    return mp_afile_commit(&a, err);
}

int mp__rfig_wrapper(const char *dir, const mp_rfig *g, const char *script, const char *vars,
                     mp_err *err)
{
    return mp_rfig_write_wrapper(dir, g->name, g->caption, script, vars, err);
}

/* Remove what an earlier report wrote here (only names this writer makes),
 * so figures of counters or modes no longer in results.json do not linger. */
static void remove_old(const char *figdir, const char *const *pre, size_t npre)
{
    static const char *ext[] = {".png", ".svg", ".pdf", ".gp", ".dat"};
    DIR *d = opendir(figdir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        int p = 0, x = 0;
        for (size_t i = 0; i < npre; i++)
            p |= !strncmp(e->d_name, pre[i], strlen(pre[i]));
        for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
            x |= n > strlen(ext[i]) && !strcmp(e->d_name + n - strlen(ext[i]), ext[i]);
        if (p && x) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", figdir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
}

int mp_rfig_begin(const char *figdir, const char *const *prefixes, size_t nprefixes,
                  mp_rfigs *out, mp_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = mp_mkdir(figdir, err);
    if (rc)
        return rc;
    remove_old(figdir, prefixes, nprefixes);
    return mp_plot_install(figdir, err);
}

static int nonempty(const char *dir, const char *name, const char *ext)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s%s", dir, name, ext);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

void mp_rfig_draw(const char *figdir, mp_rfigs *f)
{
    f->asked = 1;
    f->gnuplot = mp_plot_gnuplot_found(NULL, 0);
    if (!f->gnuplot)
        return;
    for (size_t i = 0; i < f->n; i++) {
        mp_rfig *g = &f->v[i];
        char gp[200];
        mp_err e;
        mp_err_clear(&e);
        snprintf(gp, sizeof gp, "%s.gp", g->name);
        static const char *ext[] = {"png", "svg", "pdf", "-2col.pdf"};
        for (int x = 0; x < 4; x++) {   /* never mistake an old figure for new */
            char p[4096];
            snprintf(p, sizeof p, "%s/%s%s%s", figdir, g->name, x < 3 ? "." : "", ext[x]);
            unlink(p);
        }
        if (mp_plot_run(figdir, gp, &e) != 0) {
            snprintf(g->error, sizeof g->error, "%s", e.msg);
        } else if (!nonempty(figdir, g->name, ".png") || !nonempty(figdir, g->name, ".svg") ||
                   !nonempty(figdir, g->name, ".pdf") ||
                   !nonempty(figdir, g->name, "-2col.pdf")) {
            snprintf(g->error, sizeof g->error, "gnuplot ran but %s.png/.svg/.pdf/-2col.pdf "
                     "are not all there", g->name);
        } else {
            g->drawn = 1;
            continue;
        }
        f->failed++;
    }
}

void mp_rfigs_free(mp_rfigs *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}
