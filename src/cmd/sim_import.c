/* SPDX-License-Identifier: MIT */
/* sim_import.c - `muxprof sim-import DIR [--geometry FILE]`: write
 * DIR/results.json from what scripts/muxsim.sh's boot left in DIR (the QEMU
 * plugin's summaries, the guest's list of cells and its loops' messages),
 * for `muxprof report DIR` and `muxprof compare`. */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"

#include <stdio.h>

#include "report/model.h"
#include "run/sim_import.h"

/* What the options set; the directory is the operand. */
typedef struct sim_import_args {
    const char *geometry;
} sim_import_args;

static const mp_opt opts[] = {
    MP_OPT_STR("geometry", "NAME|FILE", sim_import_args, geometry,
               "the geometry to state instead of plan.env's geometry=: a name\n"
               "of sim/geometries or a file (a run directory moved from the host\n"
               "that ran it)",
               .complete = MP_OPT_FILES, .needs = "a geometry file"),
};

const mp_cli mp_cli_sim_import = {
    .name = "sim-import", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 20,
    .intro = "usage: muxprof sim-import DIR [--geometry FILE]\n"
             "\n"
             "Write DIR/results.json from a run of scripts/muxsim.sh: DIR/plan.env,\n"
             "DIR/cells.txt, DIR/muxsim.tsv and DIR/guest/loop-*.log (docs/cachesim.md).\n"
             "Each cell gets the model's sim: metrics (p10, p50, p90, mean, min, max, n over\n"
             "the calls kept) and, when DIR/functions.json is there (scripts/muxsim/\n"
             "functions.py), its kernel functions as sim_functions; a loop that failed in\n"
             "the guest is an \"error\" cell with its message.  Every input is checked\n"
             "(a symbolic link inside DIR is refused, never followed) before anything\n"
             "is written; a results.json already in DIR is replaced only\n"
             "when muxprof wrote it as a simulated run's (never a measured run's).  Then\n"
             "`muxprof report DIR` writes the report.\n"
             "\n",
    .outro = "\nA missing input is exit 1, a malformed one 2.  Loops that failed in the guest\n"
             "are named on stderr; results.json is still written (exit 0).\n" MP_EXIT_HELP,
    .help_head = "-h, --help", .unknown = "unknown option",
    .see = " (see muxprof sim-import --help)", .operand_dirs = 1,
};

int mp_cmd_sim_import(int argc, char **argv)
{
    sim_import_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    mp_echo e1, e2;
    if (mp_opt_parse(&mp_cli_sim_import, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof sim-import: %s\n", err.msg);
        return 2;
    }
    if (p.help) {
        mp_opt_usage(&mp_cli_sim_import, stdout);
        return 0;
    }
    if (p.next >= argc) {
        fprintf(stderr, "muxprof sim-import: which directory? usage: muxprof sim-import DIR "
                        "[--geometry FILE]\n");
        return 2;
    }
    if (argc - p.next > 1) {
        fprintf(stderr, "muxprof sim-import: one directory only ('%s' and '%s')\n",
                mp_echo_arg(&e1, argv[p.next]), mp_echo_arg(&e2, argv[p.next + 1]));
        return 2;
    }
    const char *dir = argv[p.next];
    mp_sim_import sum;
    mp_err_clear(&err);
    int rc = mp_sim_import_dir(dir, a.geometry, mp_rm_check_text, &sum, &err);
    if (rc) {   /* a malformed input is the input's fault: 2, as report's */
        fprintf(stderr, "muxprof sim-import: %s\n", err.msg);
        return rc == -EBADMSG || rc == MP_EUSAGE ? 2 : 1;
    }
    printf("wrote %s/results.json: %zu cells\n", mp_echo_arg(&e1, dir), sum.ncells);
    if (sum.nfailed)
        fprintf(stderr, "muxprof sim-import: %zu loop%s failed in the guest (%s%s): \"error\" "
                "cells with the loop's message\n", sum.nfailed, sum.nfailed > 1 ? "s" : "",
                sum.failed, sum.nfailed > 8 ? ", ..." : "");
    return 0;
}
