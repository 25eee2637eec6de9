/* report.c - `muxprof report DIR [--no-plots]`: rebuild DIR/report.md
 * and DIR/figures/ from DIR/results.json. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report/plot.h"
#include "report/report.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: muxprof report DIR [--no-plots]\n\n"
        "(Re)build DIR/report.md and DIR/figures/ from DIR/results.json alone.\n\n"
        "  --no-plots   write the data files and gnuplot scripts, but do not run gnuplot\n"
        "  -h, --help   this text\n\n"
        "Figures need gnuplot (Debian/Ubuntu: apt-get install gnuplot-nox); without it the\n"
        "report is still written and says how to draw them. Exit status: 0 done, 1 the\n"
        "report or a figure could not be written, 2 usage error or no readable results.json.\n");
}

int mp_cmd_report(int argc, char **argv)
{
    const char *dir = NULL;
    int figures = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--no-plots")) {
            figures = 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "muxprof report: unknown option '%s' (see muxprof report --help)\n",
                    argv[i]);
            return 2;
        } else if (dir) {
            fprintf(stderr, "muxprof report: one run directory only ('%s' and '%s')\n", dir,
                    argv[i]);
            return 2;
        } else {
            dir = argv[i];
        }
    }
    if (!dir) {
        fprintf(stderr, "muxprof report: which run directory? usage: muxprof report DIR "
                        "[--no-plots]\n");
        return 2;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "muxprof report: %s is not a directory (give the directory a run "
                        "wrote, e.g. reports/runs/HOST-TIME)\n", dir);
        return 2;
    }
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_report_build(dir, figures, &err);
    if (rc == -ENOENT || rc == -EBADMSG || rc == MP_EUSAGE) {
        fprintf(stderr, "muxprof report: %s\n", err.msg);
        return 2;
    }
    if (rc) {
        fprintf(stderr, "muxprof report: %s\n", err.msg);
        return mp_exit_status(rc);
    }
    printf("wrote %s/report.md%s\n", dir, !figures ? " (figures not drawn: --no-plots)"
           : mp_plot_gnuplot_found(NULL, 0) ? " and figures/"
           : "; figures not drawn: " MP_PLOT_INSTALL_HINT);
    return 0;
}
