/* compare.c - `muxprof compare RUN_OR_REF... --out DIR`: set several
 * runs (run directories, results.json files) and published reference
 * datasets side by side in DIR/report.md and DIR/figures/.  See compare.h
 * for what is compared and docs/compare.md for the report. */
#include "cmd/cmd.h"
#include "cmd/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "common/anonymize.h"
#include "compare/compare.h"
#include "report/reference.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: muxprof compare RUN_OR_REF RUN_OR_REF... [--label NAME]... --out DIR\n"
        "                       [--force] [--no-plots] [--json] [--anonymize]\n"
        "       muxprof compare RUN_OR_REF RUN_OR_REF... [--label NAME]... --json\n"
        "       muxprof compare --list-references\n\n"
        "Set runs of several hosts side by side.  Each argument is a run directory, its\n"
        "results.json, or the name of a reference dataset (published figures carried in\n"
        "the binary; --list-references lists them).  Writes DIR/report.md and DIR/figures/:\n"
        "per backend and mode the time per call vs N with one line per host, poll/epoll\n"
        "and select/epoll ratios, per-descriptor slopes (ns, and cycles where counted) and\n"
        "counters side by side.  Cells measured by at least two inputs are compared; the\n"
        "others are listed.\n\n"
        "Before/after on one host: each shared cell shows the change of the median in %%\n"
        "against the first input and a two-sided Mann-Whitney U test on the kept samples\n"
        "(samples.csv) of both, significant when p < 0.05; \"not testable\" where an input\n"
        "has no samples (a published reference carries one number).  Two inputs of one\n"
        "host are told apart by their run directory's name; the same file twice is\n"
        "refused.\n\n"
        "  --out DIR           where to write: a new directory (or an empty one); required\n"
        "                      without --json\n"
        "  --force             write over a DIR that muxprof wrote before\n"
        "  --label NAME        name the next input NAME instead of its CPU model and arch\n"
        "                      (repeat: the Nth --label names the Nth input)\n"
        "  --no-plots          write data files and gnuplot scripts, do not run gnuplot\n"
        "  --anonymize         each run's results.json rewritten field by field before it\n"
        "                      is read: host names host-1, host-2, ..., paths <path>, inputs\n"
        "                      input-1, input-2, ...; CPU models, kernel versions and every\n"
        "                      measured value kept (docs/privileges.md)\n"
        "  --json              print the comparison as one JSON document on stdout\n"
        "                      (docs/json-output.md); without --out nothing is written\n"
        "  --list-references   the reference datasets and their sources\n"
        "  -h, --help          this text\n\n"
        "An input that is missing or unreadable is exit 1; one that is malformed or\n"
        "shares nothing with the others is 2 (the message names the file and the field).\n"
        MP_EXIT_HELP);
}

static int list_references(void)
{
    for (const mp_cmp_ref *r = mp_cmp_refs; r->name; r++) {
        mp_rmodel m;
        mp_err err;
        mp_err_clear(&err);
        int rc = mp_cmp_ref_load(&m, r, &err);
        if (rc) {
            printf("%-22s  (unreadable: %s)\n", r->name, err.msg);
        } else {
            char cpu[128], arch[32];
            const char *s = mp_rm_text(&m, "context.cpu_model", cpu, sizeof cpu);
            const cJSON *src = cJSON_GetObjectItemCaseSensitive(m.root, "source");
            snprintf(arch, sizeof arch, "%s", m.arch);
            printf("%-22s  %s (%s), %zu cells; %s mode%s\n%-22s  source: %s\n", r->name,
                   s ? s : "unknown CPU", arch, m.ncells, m.nmodes ? m.modes[0] : "?",
                   m.nmodes > 1 ? "s" : "", "", cJSON_IsString(src) ? src->valuestring : "?");
        }
        mp_rm_free(&m);
    }
    return 0;
}

/* MP_EUSAGE when --out names the run directory of one of the inputs (a
 * directory, or the one that holds a results.json): its report and figures
 * are not compare's to replace, --force or not. */
static int out_is_input(const char *out, const char *const *in, size_t nin, mp_err *err)
{
    struct stat so, si;
    if (stat(out, &so) != 0 || !S_ISDIR(so.st_mode))
        return 0;
    for (size_t i = 0; i < nin; i++) {
        char dir[PATH_MAX];
        if (stat(in[i], &si) != 0)
            continue;
        if (!S_ISDIR(si.st_mode)) {
            const char *slash = strrchr(in[i], '/');
            snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - in[i]) : 1,
                     slash ? in[i] : ".");
            if (!dir[0] || stat(dir, &si) != 0)
                continue;
        }
        if (si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            mp_echo e;
            return mp_errf(err, MP_EUSAGE, "%s is the run directory of input %zu; give "
                           "compare a directory of its own", mp_echo_arg(&e, out), i + 1);
        }
    }
    return 0;
}

int mp_cmd_compare(int argc, char **argv)
{
    const char *out = NULL;
    int no_plots = 0, json = 0, anonymize = 0, force = 0;
    /* inputs, then labels, in one block */
    const char **in = calloc(2 * ((size_t)argc + 1), sizeof *in);
    if (!in) {
        fprintf(stderr, "muxprof compare: out of memory\n");
        return 1;
    }
    const char **label = in + argc + 1;
    size_t nin = 0, nlabel = 0;
    mp__cli_seen seen = {0};
    mp_err err;
    mp_echo e;
    for (int i = 1; i < argc; i++) {
        /* --label names one input each: the only option given more than once */
        if (strcmp(argv[i], "--label") && strncmp(argv[i], "--label=", 8) &&
            mp__cli_once(&seen, argv[i], &err)) {
            fprintf(stderr, "muxprof compare: %s\n", err.msg);
            free(in);
            return 2;
        }
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(in);
            return 0;
        } else if (!strcmp(argv[i], "--list-references")) {
            free(in);
            return list_references();
        } else if (!strcmp(argv[i], "--no-plots")) {
            no_plots = 1;
        } else if (!strcmp(argv[i], "--anonymize")) {
            anonymize = 1;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--force")) {
            force = 1;
        } else if (!strcmp(argv[i], "--out") || !strncmp(argv[i], "--out=", 6)) {
            out = argv[i][5] == '=' ? argv[i] + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!out || !*out) {
                fprintf(stderr, "muxprof compare: --out needs a directory\n");
                free(in);
                return 2;
            }
        } else if (!strcmp(argv[i], "--label") || !strncmp(argv[i], "--label=", 8)) {
            const char *l = argv[i][7] == '=' ? argv[i] + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!l) {
                fprintf(stderr, "muxprof compare: --label needs a name\n");
                free(in);
                return 2;
            }
            label[nlabel++] = l;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "muxprof compare: unknown option '%s' (see muxprof compare "
                            "--help)\n", mp_echo_arg(&e, argv[i]));
            free(in);
            return 2;
        } else {
            in[nin++] = argv[i];
        }
    }
    if (nin < 2 || (!out && !json)) {
        fprintf(stderr, "muxprof compare: %s; usage: muxprof compare RUN_OR_REF "
                        "RUN_OR_REF... --out DIR (references: muxprof compare "
                        "--list-references)\n",
                nin < 2 ? "give at least two runs or reference datasets"
                        : "--out DIR is required (or --json)");
        free(in);
        return 2;
    }
    if (nlabel > nin) {
        fprintf(stderr, "muxprof compare: %zu labels for %zu inputs; give at most one "
                        "--label per input, in the inputs' order\n", nlabel, nin);
        free(in);
        return 2;
    }
    if (nin > MP_CMP_MAX_HOSTS) {
        fprintf(stderr, "muxprof compare: at most %d inputs (%zu given)\n", MP_CMP_MAX_HOSTS,
                nin);
        free(in);
        return 2;
    }
    if (out && out_is_input(out, in, nin, &err)) {
        fprintf(stderr, "muxprof compare: --out: %s\n", err.msg);
        free(in);
        return 2;
    }
    mp_cmp c = { calloc(nin, sizeof *c.h), 0 };
    if (!c.h) {
        fprintf(stderr, "muxprof compare: out of memory\n");
        free(in);
        return 1;
    }
    mp_err_clear(&err);
    int rc = 0, status = 0;
    mp_anon *anon = NULL;
    mp_dir od;
    if (anonymize && !(anon = mp_anon_new()))
        rc = mp_errf(&err, -ENOMEM, "out of memory");
    for (size_t i = 0; i < nin && !rc; i++) {
        rc = mp_cmp_host_open_anonymized(&c.h[i], in[i], i + 1, anon, &err);
        c.n++;
        if (!rc && i < nlabel)
            rc = mp_cmp_host_label(&c.h[i], label[i], &err);
    }
    if (!rc)
        rc = mp_cmp_prepare(&c, &err);
    if (rc) {
        fprintf(stderr, "muxprof compare: %s\n", err.msg);
        status = rc == -ENOMEM || rc == -EIO || rc == -ENOENT || rc == -EACCES ? 1 : 2;
    } else if (!out) {
        cJSON *doc = mp_json_doc_new("compare");
        cJSON_AddItemToObject(doc, "comparison", mp_cmp_json(&c));
        status = mp_json_doc_print(doc, stdout);
        cJSON_Delete(doc);
    } else if ((rc = mp__cmd_out_dir(&od, out, force, &err))) {
        fprintf(stderr, "muxprof compare: --out: %s\n", err.msg);
        status = mp_exit_status(rc);
    } else {
        size_t drawn = 0;
        char note[MP_ERR_MAX];
        rc = mp_cmp_write(&c, &od, no_plots, &drawn, note, sizeof note, &err);
        mp_dir_close(&od);
        if (rc) {
            fprintf(stderr, "muxprof compare: %s\n", err.msg);
            status = 1;
        } else {
            FILE *f = json ? stderr : stdout;   /* stdout: the JSON document only */
            for (size_t i = 0; i < c.n; i++)
                fprintf(f, "host %zu: %s%s  <- %s\n", i + 1, c.h[i].label,
                        c.h[i].reference ? " (published reference)" : "", c.h[i].m.path);
            fprintf(f, "wrote %s/report.md; %zu figure%s drawn in %s/figures/%s%s\n", out,
                    drawn, drawn == 1 ? "" : "s", out, note[0] ? "; " : "", note);
            if (json) {
                cJSON *doc = mp_json_doc_new("compare");
                cJSON_AddItemToObject(doc, "comparison", mp_cmp_json(&c));
                status = mp_json_doc_print(doc, stdout);
                cJSON_Delete(doc);
            }
        }
    }
    for (size_t i = 0; i < c.n; i++)
        mp_cmp_host_free(&c.h[i]);
    mp_anon_free(anon);
    free(c.h);
    free(in);
    return status;
}
