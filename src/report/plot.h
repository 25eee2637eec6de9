/* SPDX-License-Identifier: MIT */
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

/* Seconds one gnuplot run may take before it is killed and its figure
 * reported failed; MUXPROF_GNUPLOT_TIMEOUT_S (whole seconds, at most
 * MP_PLOT_TIMEOUT_MAX_S) overrides it.  A pending stop signal is looked for
 * every MP_PLOT_POLL_MS. */
#define MP_PLOT_TIMEOUT_S 60
#define MP_PLOT_TIMEOUT_MAX_S 86400
#define MP_PLOT_POLL_MS 50

/* Run `gnuplot -d SCRIPT` (no initialization files) with DIR as working
 * directory, stdin from /dev/null, in a process group of its own.  It is
 * killed, with every command it started, after the time limit (-ETIMEDOUT)
 * or when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrives (-EINTR; such a
 * signal is held while gnuplot runs, then acts as it would have: a handler
 * runs, or the default action ends muxprof; one already pending starts
 * nothing).  Fails with -ENOENT when gnuplot is not installed, -EIO when it
 * exits non-zero (the message quotes its first error line), -EINVAL for a
 * bad MUXPROF_GNUPLOT_TIMEOUT_S.  DIR is entered by its descriptor.  The
 * messages name the script as DIR's name inside its top directory gives it
 * ("figures/x.gp"), never DIR's path: they go into report.md, anonymized
 * or not, and a run directory's path holds the host name. */
int mp_plot_run(const mp_dir *dir, const char *script, mp_err *err);

/* The stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) that ended a gnuplot
 * mp_plot_run ran, for a process that lives on after it (the signal was
 * ignored or handled); 0 while none did.  No further figure is drawn then. */
int mp_plot_interrupted(void);

/* The advice printed when gnuplot is missing. */
#define MP_PLOT_INSTALL_HINT "install gnuplot (Debian/Ubuntu: apt-get install gnuplot-nox)"

#endif
