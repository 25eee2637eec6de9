/* report.c - mp_report_build: results.json -> figures/ (data, gnuplot
 * scripts, PNG/SVG/PDF) and report.md, from results.json alone.  The
 * figures are drawn first so the report can embed exactly those that
 * exist.  See report.h. */
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/fig.h"
#include "report/md.h"
#include "report/model.h"

int mp_report_build(const char *run_dir, int figures, mp_err *err)
{
    char path[4096], figdir[4096];
    if (!run_dir || !*run_dir)
        return mp_errf(err, MP_EUSAGE, "no run directory given");
    if ((size_t)snprintf(path, sizeof path, "%s/results.json", run_dir) >= sizeof path ||
        (size_t)snprintf(figdir, sizeof figdir, "%s/figures", run_dir) >= sizeof figdir)
        return mp_errf(err, -ENAMETOOLONG, "%s: path too long", run_dir);
    mp_rmodel m;
    int rc = mp_rm_load(&m, path, err);
    if (rc) {
        mp_rm_free(&m);
        return rc;
    }
    mp_rfigs figs;
    rc = mp_rfig_prepare(&m, figdir, &figs, err);
    if (rc == 0) {
        if (figures)
            mp_rfig_draw(figdir, &figs);
        rc = mp_rmd_write(&m, run_dir, &figs, err);
    }
    if (rc == 0 && figs.failed)
        for (size_t i = 0; i < figs.n; i++)
            if (figs.v[i].error[0]) {
                rc = mp_errf(err, -EIO, "%zu of %zu figures were not drawn (report.md lists "
                             "them); first: %s", figs.failed, figs.n, figs.v[i].error);
                break;
            }
    mp_rfigs_free(&figs);
    mp_rm_free(&m);
    return rc;
}
