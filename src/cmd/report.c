/* SPDX-License-Identifier: MIT */
/* report.c - `muxprof report DIR|DIR/results.json [--no-plots] [--paper]
 * [--anonymize [--out PUB]] [--json]`: rebuild DIR/report.md and DIR/figures/ from
 * DIR/results.json, write an anonymized copy of the run with its report into
 * PUB, or print the report's analysis as JSON. */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "report/anonymize.h"
#include "report/plot.h"
#include "report/report.h"
#include "results/config.h"
#include "run/journal.h"

#define MAX_PUB_SUFFIX 999

/* The default home of the anonymized copy: anonymized-<UTC stamp> in DIR's
 * parent (reports/runs/anonymized-20261201T101500Z for
 * reports/runs/HOST-STAMP), as run --anonymize names its directory; DIR's
 * own name would carry the host name into it.  Created by mkdir itself:
 * when taken, -2, -3 and so on. */
static int default_pub(const char *dir, char *pub, size_t len, mp_dir *pd, mp_err *err)
{
    char parent[PATH_MAX], stamp[32];
    size_t l = strlen(dir);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(parent, sizeof parent, "%s", dir);
    while (l > 1 && parent[l - 1] == '/')
        parent[--l] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == parent)
        parent[1] = '\0';
    else
        *slash = '\0';
    for (int n = 1; n <= MAX_PUB_SUFFIX; n++) {
        int w = n == 1 ? snprintf(pub, len, "%s/anonymized-%s", parent, stamp)
                       : snprintf(pub, len, "%s/anonymized-%s-%d", parent, stamp, n);
        if (w < 0 || (size_t)w >= len)
            return mp_errf(err, -ENAMETOOLONG, "%s: path too long for the copy; give --out "
                           "PUB", parent);
        int rc = mp_dir_create(pd, pub, err);
        if (rc != -EEXIST)
            return rc;
    }
    return mp_errf(err, -EEXIST, "%s/anonymized-%s and %d numbered variants exist; give "
                   "--out PUB", parent, stamp, MAX_PUB_SUFFIX - 1);
}

/* What the options set; the run directory is the operand. */
typedef struct report_args {
    const char *out;
    int no_plots, paper, anonymize, force, json;
} report_args;

static const mp_opt opts[] = {
    MP_OPT_BOOL("no-plots", report_args, no_plots,
                "write the data files and gnuplot scripts, but do not run gnuplot"),
    MP_OPT_BOOL("paper", report_args, paper,
                "draw the PDFs for a paper (NAME.pdf 3.5 in, NAME-2col.pdf 7 in):\n"
                "no title (the caption holds it), axes over the data's range\n"
                "with labelled ticks at 1, 2 and 5 per decade, the legend inside\n"
                "where a corner is free, solid error bars; PNG and SVG as without"),
    MP_OPT_BOOL("anonymize", report_args, anonymize,
                "leave DIR as it is; write a copy to publish into PUB (default\n"
                "anonymized-<UTC stamp> beside DIR, a name without the host's):\n"
                "results.json rewritten field by field (host\n"
                "name a label, paths and kernel addresses replaced; CPU model,\n"
                "kernel version and every measured value kept), the CSVs, and\n"
                "report.md and figures made from that results.json"),
    MP_OPT_STR("out", "PUB", report_args, out,
               "where --anonymize writes: a new directory (or an empty one)",
               .complete = MP_OPT_DIRS, .needs = "a directory"),
    MP_OPT_BOOL("force", report_args, force,
                "with --anonymize: write over a PUB that muxprof wrote before"),
    MP_OPT_BOOL("json", report_args, json,
                "print the analysis report.md is written from (medians with their\n"
                "intervals, per-interval costs, fits, ratios to epoll, knees, the\n"
                "seeds' claims checked) as one JSON object on stdout; writes\n"
                "nothing (docs/report.md)"),
};

const mp_cli mp_cli_report = {
    .name = "report", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 15,
    .intro = "usage: muxprof report DIR|DIR/results.json [--no-plots] [--paper]\n"
             "                      [--anonymize [--out PUB] [--force]]\n"
             "       muxprof report DIR|DIR/results.json --json\n\n"
             "(Re)build DIR/report.md and DIR/figures/ from DIR/results.json alone.  A DIR\n"
             "with no results.json but the journal.jsonl of a run that did not finish (killed,\n"
             "or its last write failed) gets results.json, results.csv, samples.csv and\n"
             "experiments.csv from the journal first.\n\n",
    .outro = "\nFigures need gnuplot (Debian/Ubuntu: apt-get install gnuplot-nox); without it the\n"
             "report is still written and says how to draw them.  A missing results.json is\n"
             "exit 1, a malformed one 2.\n" MP_EXIT_HELP,
    .help_head = "-h, --help", .unknown = "unknown option",
    .see = " (see muxprof report --help)", .operand_dirs = 1,
};

/* DIR, or the directory of DIR/results.json, into dir. */
static int run_dir(const char *arg, char *dir, size_t len)
{
    struct stat st;
    mp_echo e;
    size_t n = strlen(arg);
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(dir, len, "%s", arg);
        return 0;
    }
    if (!strcmp(base, "results.json")) {
        if (stat(arg, &st) != 0) {
            fprintf(stderr, "muxprof report: %s: %s\n", mp_echo_arg(&e, arg),
                    strerror(errno));
            return 1;
        }
        if (base == arg)
            snprintf(dir, len, ".");
        else
            snprintf(dir, len, "%.*s", (int)(n - strlen(base) - 1), arg);
        if (!dir[0])
            snprintf(dir, len, "/");
        return 0;
    }
    if (stat(arg, &st) != 0)
        fprintf(stderr, "muxprof report: %s: %s (give the directory a run wrote, e.g. "
                        "reports/runs/HOST-TIME, or its results.json)\n", mp_echo_arg(&e, arg),
                strerror(errno));
    else
        fprintf(stderr, "muxprof report: %s is neither a run directory nor a results.json\n",
                mp_echo_arg(&e, arg));
    return 1;
}

/* A run that stopped before its outputs were all written (killed, or a
 * last write failed) left its journal: results.json and its CSVs
 * (mp_journal_outputs) are written from that, and said so on stderr.  Nothing to
 * do (0) when DIR has all three or no journal. */
static int recover(const char *dir, int anonymize, mp_err *err)
{
    char path[PATH_MAX + 32];
    const char *missing = NULL;
    struct stat st;
    for (size_t i = 0; !missing && mp_journal_outputs[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, mp_journal_outputs[i]);
        if (lstat(path, &st) != 0 && errno == ENOENT)
            missing = mp_journal_outputs[i];
    }
    if (!missing)
        return 0;
    snprintf(path, sizeof path, "%s/%s", dir, MP_JOURNAL_NAME);
    if (lstat(path, &st) != 0)
        return 0;
    if (anonymize)
        return mp_errf(err, MP_EUSAGE, "%s has no %s but a journal: `muxprof report %s` writes "
                       "it from the journal; then anonymize", dir, missing, dir);
    mp_journal j;
    int rc = mp_journal_read(&j, dir, err);
    cJSON *how = rc == 0 ? mp_journal_recovered_json(&j) : NULL;
    mp_dir d = {.fd = -1};
    if (rc == 0 && !how)
        rc = mp_errf(err, -ENOMEM, "out of memory");
    if (rc == 0)   /* written as every output is: into a directory that is yours */
        rc = mp_dir_open(&d, dir, 1, err);
    if (rc == 0)   /* and only when report reads what it makes */
        rc = mp_journal_write_outputs(&j, &d, how, mp_rm_check_text, err);
    /* a run asked for anonymized outputs: its recovered ones are too */
    mp_rconfig cfg;
    mp_rconfig_read(cJSON_GetObjectItemCaseSensitive(j.head, "config"), &cfg);
    if (rc == 0 && cfg.anonymize)
        rc = mp_report_anonymize_run(dir, &d, err);
    mp_dir_close(&d);
    if (rc == 0)
        fprintf(stderr, "muxprof report: %s had no %s: wrote results.json, results.csv, "
                "samples.csv and experiments.csv from %s, %zu cells (%s%s%s)\n", dir, missing, path, j.ncells,
                j.tail ? "the run ended but could not write them" : "status \"interrupted\": the "
                "journal ends before the run's end (a signal, a kill or a full disk: it cannot "
                "tell which)",
                j.from_passes ? "; cells the run had not finished are summarised from the "
                "repeats their pass records hold" : "",
                j.torn ? "; a torn last line, written as the run died, was left out" : "");
    cJSON_Delete(how);
    mp_journal_free(&j);
    return rc;
}

/* The run directory held under an exclusive flock while report writes into
 * it (and recovers it), so that two reports of one DIR do not write over
 * each other's files: the descriptor holding the lock, INT_MAX when none
 * could be taken (DIR not opened here, no locks on its filesystem), or -1
 * (said on stderr) when another report holds DIR. */
static int lock_run_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return INT_MAX;   /* the reading that follows says what is wrong with DIR */
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    int e = errno;
    close(fd);
    if (e != EWOULDBLOCK)
        return INT_MAX;   /* a filesystem without locks: go on without */
    mp_echo d;
    fprintf(stderr, "muxprof report: another muxprof report is writing %s; run this one again "
                    "once it has finished\n", mp_echo_arg(&d, dir));
    return -1;
}

/* 1, said on stderr, when m holds no cell and no experiment: a report of
 * nothing measured is no success. */
static int no_cell(const mp_rmodel *m, const char *path)
{
    if (m->nall || m->nxtabs || m->legacy)
        return 0;
    fprintf(stderr, "muxprof report: %s holds no cell (\"results\": []): the run measured "
            "nothing; run it again\n", path);
    return 1;
}

/* --json: the analysis of DIR/results.json on stdout; nothing is written,
 * so a run with only its journal is not recovered (exit 1, as a missing
 * results.json). */
static int print_json(const char *dir)
{
    char path[PATH_MAX + 16];
    mp_rmodel m;
    mp_err err;
    mp_err_clear(&err);
    snprintf(path, sizeof path, "%s/results.json", dir);
    int rc = mp_rm_load(&m, path, &err);
    if (rc) {
        mp_rm_free(&m);
        fprintf(stderr, "muxprof report: %s\n", err.msg);
        return rc == -EBADMSG || rc == MP_EUSAGE ? 2 : 1;
    }
    cJSON *doc = mp_json_doc_with("report", mp_report_json(&m));
    int out = 1;
    if (doc)
        out = mp_json_doc_print(doc, stdout);
    else
        fprintf(stderr, "muxprof report: out of memory\n");
    cJSON_Delete(doc);
    if (out == 0)
        out = no_cell(&m, path);
    mp_rm_free(&m);
    return out;
}

static int report_main(int argc, char **argv, int *lock)
{
    report_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    mp_echo e1, e2;
    if (mp_opt_parse(&mp_cli_report, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof report: %s\n", err.msg);
        return 2;
    }
    if (p.help) {
        mp_opt_usage(&mp_cli_report, stdout);
        return 0;
    }
    if (argc - p.next > 1) {
        fprintf(stderr, "muxprof report: one run directory only ('%s' and '%s')\n",
                mp_echo_arg(&e1, argv[p.next]), mp_echo_arg(&e2, argv[p.next + 1]));
        return 2;
    }
    const char *arg = p.next < argc ? argv[p.next] : NULL, *out = a.out;
    int figures = (a.no_plots ? 0 : MP_RFIG_DRAW) | (a.paper ? MP_RFIG_PAPER : 0);
    int anonymize = a.anonymize, force = a.force, json = a.json;
    if (!arg) {
        fprintf(stderr, "muxprof report: which run directory? usage: muxprof report "
                        "DIR|DIR/results.json [--no-plots]\n");
        return 2;
    }
    if ((out || force) && !anonymize) {
        fprintf(stderr, "muxprof report: %s goes with --anonymize (the report of DIR is "
                        "written into DIR)\n", out ? "--out" : "--force");
        return 2;
    }
    if (json && (anonymize || figures != MP_RFIG_DRAW)) {
        fprintf(stderr, "muxprof report: --json goes alone (it writes nothing: no report, "
                        "no figures, no copy)\n");
        return 2;
    }
    char dirbuf[PATH_MAX];
    if (run_dir(arg, dirbuf, sizeof dirbuf))
        return 1;
    if (json)
        return print_json(dirbuf);
    const char *dir = dirbuf;
    mp_err_clear(&err);
    if ((*lock = lock_run_dir(dir)) < 0)
        return 1;
    char pub[4096];
    int rc = recover(dir, anonymize, &err);
    if (!rc && anonymize) {
        snprintf(pub, sizeof pub, "%s", out ? out : dir);
        struct stat st, ps;
        if (out && stat(dir, &st) == 0 && stat(pub, &ps) == 0 && ps.st_ino == st.st_ino &&
            ps.st_dev == st.st_dev) {
            fprintf(stderr, "muxprof report: --out %s is the run directory itself; give "
                            "another directory for the anonymized copy\n", pub);
            return 2;
        }
        mp_dir pd;
        mp_err why;
        rc = out ? mp__cmd_out_dir(&pd, pub, force, &why)
                 : default_pub(dir, pub, sizeof pub, &pd, &why);
        if (rc) {
            fprintf(stderr, "muxprof report: %s%s\n", out ? "--out: " : "", why.msg);
            return mp_exit_status(rc);
        }
        rc = mp_report_anonymize_run(dir, &pd, &err);
        if (rc)
            mp_dir_discard(&pd);   /* nothing of the copy written: leave no directory */
        if (!rc) rc = mp_report_build_in(&pd, figures, &err);
        mp_dir_close(&pd);
        dir = pub;
    } else if (!rc) {
        rc = mp_report_build(dir, figures, &err);
    }
    if (rc) {   /* a malformed or oversized input is the input's fault: 2, like compare */
        fprintf(stderr, "muxprof report: %s\n", err.msg);
        if (rc == -EINTR && mp_plot_interrupted())
            return 128 + mp_plot_interrupted();
        return rc == -EBADMSG || rc == -EFBIG || rc == MP_EUSAGE ? 2 : 1;
    }
    printf("wrote %s/report.md%s\n", dir,
           !(figures & MP_RFIG_DRAW) ? " (figures not drawn: --no-plots)"
           : mp_plot_gnuplot_found(NULL, 0) ? " and figures/"
           : "; figures not drawn: " MP_PLOT_INSTALL_HINT);
    char path[PATH_MAX + 16];
    mp_rmodel m;
    snprintf(path, sizeof path, "%s/results.json", dir);
    int empty = 0;
    if (mp_rm_load(&m, path, &err) == 0) {   /* what the report warns about and finds */
        mp_report_notes(&m, stdout);
        empty = no_cell(&m, path);
    }
    mp_rm_free(&m);
    return empty;
}

int mp_cmd_report(int argc, char **argv)
{
    int lock = INT_MAX;
    int rc = report_main(argc, argv, &lock);
    if (lock >= 0 && lock != INT_MAX)
        close(lock);
    return rc;
}
