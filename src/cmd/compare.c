/* SPDX-License-Identifier: MIT */
/* compare.c - `muxprof compare RUN_OR_REF... --out DIR`: set several
 * runs (run directories, results.json files) and published reference
 * datasets side by side in DIR/report.md and DIR/figures/.  See compare.h
 * for what is compared and docs/compare.md for the report. */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "common/anonymize.h"
#include "compare/compare.h"
#include "report/reference.h"

/* What the options set; the inputs are the operands. */
typedef struct cmp_args {
    const char *out;
    const char **label;   /* the Nth names the Nth input */
    size_t nlabel;
    int force, no_plots, anonymize, json, list;
    size_t pool;          /* runs per input, 0: each operand an input */
} cmp_args;

static int set_pool(void *cfg, const char *opt, char *v, mp_err *err)
{
    cmp_args *a = cfg;
    char *end;
    errno = 0;
    long k = strtol(v, &end, 10);
    if (errno || end == v || *end || k < 2 || k > MP_RM_MAX_REP)
        return mp_errf(err, MP_EUSAGE, "--%s '%s': give the runs per side, 2 to %d", opt, v,
                       MP_RM_MAX_REP);
    a->pool = (size_t)k;
    return 0;
}

static int add_label(void *cfg, const char *opt, char *v, mp_err *err)
{
    cmp_args *a = cfg;
    (void)opt, (void)err;
    a->label[a->nlabel++] = v;
    return 0;
}

/* The reference datasets' names, "a b c": what an operand may be besides a run. */
static const char *ref_names(void)
{
    static char buf[1024];
    size_t o = 0;
    buf[0] = '\0';
    for (const mp_cmp_ref *r = mp_cmp_refs; r->name && o < sizeof buf; r++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s ", r->name);
    return buf;
}

static const mp_opt opts[] = {
    MP_OPT_STR("out", "DIR", cmp_args, out,
               "where to write: a new directory (or an empty one); required\nwithout --json",
               .complete = MP_OPT_DIRS, .needs = "a directory"),
    MP_OPT_BOOL("force", cmp_args, force, "write over a DIR that muxprof wrote before"),
    MP_OPT_FN("label", "NAME", add_label,
              "name the next input NAME instead of its CPU model and arch\n"
              "(repeat: the Nth --label names the Nth input)",
              .needs = "a name", .flags = MP_OPT_REPEAT | MP_OPT_RAW),
    MP_OPT_FN("pool", "K", set_pool,
              "pool the operands K at a time, in order: each K runs are one\n"
              "input (one side), the run the unit of replication: per cell\n"
              "the runs' medians are tested, not the repeats (--label names\n"
              "each pool)", .needs = "a number of runs"),
    MP_OPT_BOOL("no-plots", cmp_args, no_plots,
                "write data files and gnuplot scripts, do not run gnuplot"),
    MP_OPT_BOOL("anonymize", cmp_args, anonymize,
                "each run's results.json rewritten field by field before it\n"
                "is read: host names host-1, host-2, ..., paths <path>, inputs\n"
                "input-1, input-2, ...; CPU models, kernel versions and every\n"
                "measured value kept (docs/privileges.md)"),
    MP_OPT_BOOL("json", cmp_args, json,
                "print the comparison as one JSON document on stdout\n"
                "(docs/json-output.md); without --out nothing is written"),
    {.name = "list-references", .kind = MP_OPT_STOP, .off = offsetof(cmp_args, list),
     .help = "the reference datasets and their sources"},
};

const mp_cli mp_cli_compare = {
    .name = "compare", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 22,
    .intro =
        "usage: muxprof compare RUN_OR_REF RUN_OR_REF... [--label NAME]... --out DIR\n"
        "                       [--force] [--no-plots] [--json] [--anonymize]\n"
        "       muxprof compare RUN_OR_REF RUN_OR_REF... [--label NAME]... --json\n"
        "       muxprof compare --list-references\n\n"
        "Set runs of several hosts side by side.  Each argument is a run directory, its\n"
        "results.json, or the name of a reference dataset (published figures carried in\n"
        "the binary; --list-references lists them; a bare name is always the built-in\n"
        "dataset: ./NAME reads a local file or directory of that name).  Writes\n"
        "DIR/report.md and DIR/figures/:\n"
        "per backend and mode the time per call vs N with one line per host, poll/epoll\n"
        "and select/epoll ratios, per-descriptor slopes (ns, and cycles where counted) and\n"
        "counters side by side.  Cells measured by at least two inputs are compared; the\n"
        "others are listed.\n\n"
        "Before/after on one host: each shared cell shows the change of the median in %\n"
        "against the first input, the ratio's 95% interval and a permutation test, all on\n"
        "the repeat medians: \"within noise\" under 3% or the cells' own interval width,\n"
        "\"slower\"/\"faster\" when p < 0.05 and the interval excludes 1, else \"not\n"
        "resolved\"; \"not testable\" where an input has fewer than 4 repeats (a published\n"
        "reference carries one number).  Two inputs of one host are told apart by their\n"
        "run directory's name; the same file twice is refused.\n\n",
    .outro = "\nAn input that is missing or unreadable is exit 1; one that is malformed or\n"
             "shares nothing with the others is 2 (the message names the file and the field).\n"
             MP_EXIT_HELP,
    .help_head = "-h, --help", .unknown = "unknown option",
    .see = " (see muxprof compare --help)", .operands = ref_names, .operand_dirs = 1,
};

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

/* The runs of one pool are distinct files (the same run twice would be
 * two replicates of one). */
static int pool_distinct(const mp_cmp_host *run, size_t n, mp_err *err)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            char a[PATH_MAX], b[PATH_MAX];
            if (!realpath(run[i].m.path, a) || !realpath(run[j].m.path, b) || strcmp(a, b))
                continue;
            return mp_errf(err, -EINVAL, "'%s' and '%s' are the same run (%s); give each "
                           "run once", run[i].arg, run[j].arg, a);
        }
    return 0;
}

int mp_cmd_compare(int argc, char **argv)
{
    cmp_args a = {.label = calloc((size_t)argc + 1, sizeof *a.label)};
    if (!a.label) {
        fprintf(stderr, "muxprof compare: out of memory\n");
        return 1;
    }
    mp_opt_parsed p;
    mp_err err;
    if (mp_opt_parse(&mp_cli_compare, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof compare: %s\n", err.msg);
        free(a.label);
        return 2;
    }
    if (p.help || a.list) {
        free(a.label);
        if (p.help)
            mp_opt_usage(&mp_cli_compare, stdout);
        return p.help ? 0 : list_references();
    }
    const char *out = a.out, **label = a.label;
    int no_plots = a.no_plots, json = a.json, anonymize = a.anonymize, force = a.force;
    char **in = argv + p.next;
    size_t nin = (size_t)(argc - p.next), nlabel = a.nlabel;
    if (nin < 2 || (!out && !json)) {
        fprintf(stderr, "muxprof compare: %s; usage: muxprof compare RUN_OR_REF "
                        "RUN_OR_REF... --out DIR (references: muxprof compare "
                        "--list-references)\n",
                nin < 2 ? "give at least two runs or reference datasets"
                        : "--out DIR is required (or --json)");
        free(label);
        return 2;
    }
    size_t k = a.pool ? a.pool : 1, nhost = nin / k;
    if (a.pool && (nin % k || nhost < 2 || nin > MP_CMP_MAX_POOLED)) {
        fprintf(stderr, "muxprof compare: --pool %zu takes the runs %zu at a time: give a "
                        "multiple of %zu, at least %zu and at most %d runs (%zu given)\n", k, k,
                k, 2 * k, MP_CMP_MAX_POOLED, nin);
        free(label);
        return 2;
    }
    if (nlabel > nhost) {
        fprintf(stderr, "muxprof compare: %zu labels for %zu inputs; give at most one "
                        "--label per input, in the inputs' order\n", nlabel, nhost);
        free(label);
        return 2;
    }
    if (nhost > MP_CMP_MAX_HOSTS) {
        fprintf(stderr, "muxprof compare: at most %d inputs (%zu given)\n", MP_CMP_MAX_HOSTS,
                nhost);
        free(label);
        return 2;
    }
    if (out && out_is_input(out, (const char *const *)in, nin, &err)) {
        fprintf(stderr, "muxprof compare: --out: %s\n", err.msg);
        free(label);
        return 2;
    }
    mp_cmp c = { calloc(nin, sizeof *c.h), 0 };
    mp_cmp_host *run = k > 1 ? calloc(k, sizeof *run) : NULL;
    if (!c.h || (k > 1 && !run)) {
        free(c.h);
        free(run);
        fprintf(stderr, "muxprof compare: out of memory\n");
        free(label);
        return 1;
    }
    mp_err_clear(&err);
    int rc = 0, status = 0;
    mp_anon *anon = NULL;
    mp_dir od;
    if (anonymize && !(anon = mp_anon_new()))
        rc = mp_errf(&err, -ENOMEM, "out of memory");
    for (size_t i = 0; i < nhost && !rc; i++) {
        rc = mp_cmp_host_open_anonymized(&c.h[i], in[i * k], i * k + 1, anon, &err);
        c.n++;
        if (k > 1 && !rc) {   /* the other runs of the pool, folded into c.h[i] */
            size_t opened = 1;
            run[0] = c.h[i];
            for (size_t j = 1; j < k && !rc; j++, opened++)
                rc = mp_cmp_host_open_anonymized(&run[j], in[i * k + j], i * k + j + 1, anon,
                                                 &err);
            if (!rc)
                rc = pool_distinct(run, opened, &err);
            if (!rc)
                rc = mp_cmp_pool(run, k, &err);
            c.h[i] = run[0];
            for (size_t j = 1; j < opened; j++)
                mp_cmp_host_free(&run[j]);
        }
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
                fprintf(f, "host %zu: %s%s  <- %s%s\n", i + 1, c.h[i].label,
                        !c.h[i].reference ? ""
                        : c.h[i].builtin ? " (published reference, built in)"
                                         : " (a file that calls itself a reference, not built in)",
                        c.h[i].m.path, c.h[i].shadowed ? "; the local path of that name is "
                        "not read: give ./NAME for it" : "");
            if (!json)
                mp_cmp_print_changes(stdout, &c);
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
    free(run);
    free(label);
    return status;
}
