/* compare.c - `muxprof compare RUN_OR_REF... --out DIR`: set several
 * runs (run directories, results.json files) and published reference
 * datasets side by side in DIR/report.md and DIR/figures/.  See compare.h
 * for what is compared and docs/compare.md for the report. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "report/reference.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: muxprof compare RUN_OR_REF RUN_OR_REF... --out DIR [--no-plots]\n"
        "       muxprof compare --list-references\n\n"
        "Set runs of several hosts side by side.  Each argument is a run directory, its\n"
        "results.json, or the name of a reference dataset (published figures carried in\n"
        "the binary; --list-references lists them).  Writes DIR/report.md and DIR/figures/:\n"
        "per backend and mode the time per call vs N with one line per host, poll/epoll\n"
        "and select/epoll ratios, per-descriptor slopes (ns, and cycles where counted) and\n"
        "counters side by side.  Cells measured by at least two inputs are compared; the\n"
        "others are listed.\n\n"
        "  --out DIR           where to write (created if missing; required)\n"
        "  --no-plots          write data files and gnuplot scripts, do not run gnuplot\n"
        "  --list-references   the reference datasets and their sources\n"
        "  -h, --help          this text\n\n"
        "Exit status: 0 done, 1 the report could not be written, 2 usage error or an input\n"
        "that is missing, malformed or shares nothing with the others (the message names\n"
        "the file and the field).\n");
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

int mp_cmd_compare(int argc, char **argv)
{
    const char *out = NULL;
    int no_plots = 0;
    const char **in = calloc((size_t)argc + 1, sizeof *in);
    size_t nin = 0;
    if (!in) {
        fprintf(stderr, "muxprof compare: out of memory\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(in);
            return 0;
        } else if (!strcmp(argv[i], "--list-references")) {
            free(in);
            return list_references();
        } else if (!strcmp(argv[i], "--no-plots")) {
            no_plots = 1;
        } else if (!strcmp(argv[i], "--out") || !strncmp(argv[i], "--out=", 6)) {
            out = argv[i][5] == '=' ? argv[i] + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!out || !*out) {
                fprintf(stderr, "muxprof compare: --out needs a directory\n");
                free(in);
                return 2;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "muxprof compare: unknown option '%s' (see muxprof compare "
                            "--help)\n", argv[i]);
            free(in);
            return 2;
        } else {
            in[nin++] = argv[i];
        }
    }
    if (nin < 2 || !out) {
        fprintf(stderr, "muxprof compare: %s; usage: muxprof compare RUN_OR_REF "
                        "RUN_OR_REF... --out DIR (references: muxprof compare "
                        "--list-references)\n",
                nin < 2 ? "give at least two runs or reference datasets" : "--out DIR is required");
        free(in);
        return 2;
    }
    if (nin > MP_CMP_MAX_HOSTS) {
        fprintf(stderr, "muxprof compare: at most %d inputs (%zu given)\n", MP_CMP_MAX_HOSTS,
                nin);
        free(in);
        return 2;
    }
    mp_cmp c = { calloc(nin, sizeof *c.h), 0 };
    if (!c.h) {
        fprintf(stderr, "muxprof compare: out of memory\n");
        free(in);
        return 1;
    }
    mp_err err;
    mp_err_clear(&err);
    int rc = 0, status = 0;
    for (size_t i = 0; i < nin && !rc; i++) {
        rc = mp_cmp_host_open(&c.h[i], in[i], &err);
        c.n++;
    }
    if (!rc)
        rc = mp_cmp_prepare(&c, &err);
    if (rc) {
        fprintf(stderr, "muxprof compare: %s\n", err.msg);
        status = rc == -ENOMEM || rc == -EIO ? 1 : 2;
    } else {
        size_t drawn = 0;
        char note[MP_ERR_MAX];
        rc = mp_cmp_write(&c, out, no_plots, &drawn, note, sizeof note, &err);
        if (rc) {
            fprintf(stderr, "muxprof compare: %s\n", err.msg);
            status = 1;
        } else {
            for (size_t i = 0; i < c.n; i++)
                printf("host %zu: %s%s  <- %s\n", i + 1, c.h[i].label,
                       c.h[i].reference ? " (published reference)" : "", c.h[i].m.path);
            printf("wrote %s/report.md; %zu figure%s drawn in %s/figures/%s%s\n", out, drawn,
                   drawn == 1 ? "" : "s", out, note[0] ? "; " : "", note);
        }
    }
    for (size_t i = 0; i < c.n; i++)
        mp_cmp_host_free(&c.h[i]);
    free(c.h);
    free(in);
    return status;
}
