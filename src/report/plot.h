/* plot.h - gnuplot scripts carried inside the binary, and a runner that
 * draws them.  The report writes its figures through this; so will
 * compare.  A figure directory holds the figure-kind scripts copied out of
 * the binary (cost.gp, style.gp, ...), the data files, and one small
 * wrapper per figure that sets its variables and loads a kind script, so
 * `cd DIR && gnuplot FIGURE.gp` redraws FIGURE.png/.svg/.pdf.
 */
#ifndef MP_PLOT_H
#define MP_PLOT_H

#include <stddef.h>
#include "common/file.h"
#include "common/mp_err.h"

typedef struct mp_plot_script {
    const char *name;    /* file name in plots/, e.g. "cost.gp" */
    const char *text;    /* NUL-terminated */
    size_t len;
} mp_plot_script;

/* Generated at build time from the .gp files in plots/; ends with {0}. */
extern const mp_plot_script mp_plot_scripts[];

/* The embedded script NAME, or NULL. */
const mp_plot_script *mp_plot_find(const char *name);

/* Write every embedded script into DIR (atomically, replacing old ones). */
int mp_plot_install(mp_dir *dir, mp_err *err);

/* Full path of gnuplot in PATH into buf (when buf != NULL); 1 when found. */
int mp_plot_gnuplot_found(char *buf, size_t len);

/* Run `gnuplot SCRIPT` with DIR (entered by its descriptor) as working directory, stdin from
 * /dev/null.  Fails with -ENOENT when gnuplot is not installed, -EIO when
 * it exits non-zero (the message quotes its first error line). */
int mp_plot_run(const mp_dir *dir, const char *script, mp_err *err);

/* The advice printed when gnuplot is missing. */
#define MP_PLOT_INSTALL_HINT "install gnuplot (Debian/Ubuntu: apt-get install gnuplot-nox)"

#endif
