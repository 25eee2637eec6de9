/* run_options.c - the options of `muxprof run` as one table: each row is
 * {name, target, default, help}, and parsing, the defaults and --help are
 * all produced from it.  Lists of names (backends, experiments, fd kinds,
 * placements) come from their registries.  Parsing is strict: a bad value
 * is one line naming the option and what it accepts (MP_EUSAGE). */
#include "cmd/cmd.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/internal.h"
#include "common/names.h"
#include "experiments/experiment.h"
#include "run/config.h"
#include "pmu.h"
#include "topology.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* The defaults are chosen so the default sweep takes under a minute on a
 * 2-core VM; --quick is the smoke-test sweep. */
#define QUICK_FDS "10,100,1000"
#define QUICK_SAMPLES "100"
#define QUICK_REPEATS "4"

int mp__cli_parse_count(const char *opt, const char *s, long lo, long hi, long *out,
                        mp_err *err)
{
    char *end;
    mp_echo e;
    errno = 0;
    long v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : 0;
    if (!(*s >= '0' && *s <= '9') || *end || errno == ERANGE)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is not a whole number; expected %ld..%ld",
                       opt, mp_echo_arg(&e, s), lo, hi);
    if (v < lo || v > hi)
        return mp_errf(err, MP_EUSAGE, "%s: %ld is out of range; expected %ld..%ld", opt, v,
                       lo, hi);
    *out = v;
    return 0;
}

/* Split a comma list into at most max non-empty items (modifies s). */
static int split_list(const char *opt, char *s, char **items, int max, mp_err *err)
{
    int n = 0;
    char *save = NULL;
    mp_echo e;
    if (!*s)
        return mp_errf(err, MP_EUSAGE, "%s: empty list", opt);
    if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
        return mp_errf(err, MP_EUSAGE, "%s: empty item in '%s'", opt,
                       mp_echo_arg(&e, s));
    for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return mp_errf(err, MP_EUSAGE, "%s: more than %d items", opt, max);
        for (int i = 0; i < n; i++)
            if (!strcmp(items[i], t))
                return mp_errf(err, MP_EUSAGE, "%s: '%s' is given twice", opt,
                               mp_echo_arg(&e, t));
        items[n++] = t;
    }
    return n;
}

static int parse_word(const char *opt, const char *s, char *dst, size_t len, mp_err *err)
{
    mp_echo e;
    if (!*s || strlen(s) >= len)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is empty or longer than %zu characters", opt,
                       mp_echo_arg(&e, s), len - 1);
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}
static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A list of counts in 1..MP_FDS_MAX, sorted, no duplicates. */
static int parse_counts(const char *opt, char *s, int *out, int *nout, mp_err *err)
{
    char *it[MP_MAX_COUNTS];
    int n = split_list(opt, s, it, MP_MAX_COUNTS, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        long v;
        int rc = mp__cli_parse_count(opt, it[i], 1, MP_FDS_MAX, &v, err);
        if (rc < 0)
            return rc;
        out[i] = (int)v;
    }
    qsort(out, (size_t)n, sizeof out[0], cmp_int);
    for (int i = 1; i < n; i++)
        if (out[i] == out[i - 1])
            return mp_errf(err, MP_EUSAGE, "%s: %d is given twice", opt, out[i]);
    *nout = n;
    return 0;
}

/* ---- targets: one per option, (config, "--name", value, err) ---- */

typedef int (*set_fn)(mp_run_config *c, const char *opt, char *v, mp_err *err);

static int set_backends(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    char *it[MP_MAX_BACKENDS];
    int n = split_list(opt, v, it, MP_MAX_BACKENDS, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        c->backends[i] = mp_backend_find(it[i]);
        if (!c->backends[i])
            return mp_errf(err, MP_EUSAGE, "%s: unknown backend '%s'; expected %s", opt,
                           mp_echo_arg(&e, it[i]), mp_backend_names());
    }
    c->nbackends = n;
    return 0;
}

static int set_fds(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    return parse_counts(opt, v, c->fds, &c->ncounts, err);
}

static int set_active(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    return parse_counts(opt, v, c->actives, &c->nactives, err);
}

static int set_modes(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    char *it[2];
    int n = split_list(opt, v, it, 2, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++)
        if (mp_mode_parse(it[i], &c->modes[i]) < 0)
            return mp_errf(err, MP_EUSAGE, "%s: unknown mode '%s'; expected %s", opt,
                           mp_echo_arg(&e, it[i]),
                           mp_mode_names());
    c->nmodes = n;
    return 0;
}

static int set_kinds(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    char *it[MP_MAX_KINDS];
    int n = split_list(opt, v, it, MP_MAX_KINDS, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++)
        if (mp_fd_kind_parse(it[i], &c->kinds[i]) < 0)
            return mp_errf(err, MP_EUSAGE, "%s: unknown kind '%s'; expected %s", opt,
                           mp_echo_arg(&e, it[i]),
                           mp_fd_kind_names());
    c->nkinds = n;
    return 0;
}

static int set_experiments(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    char *it[MP_MAX_EXPERIMENTS];
    int rows = 0;
    while (mp_experiments[rows].name)
        rows++;
    int n = split_list(opt, v, it, rows, err);
    if (n < 0)
        return n;
    c->experiments = 0;
    for (int i = 0; i < n; i++) {
        unsigned bit;
        if (!mp_experiment_find(it[i], &bit))
            return mp_errf(err, MP_EUSAGE, "%s: unknown experiment '%s'; expected %s", opt,
                           mp_echo_arg(&e, it[i]), mp_experiment_names());
        c->experiments |= bit;
    }
    c->nexperiments = 0;
    for (int i = 0; i < rows; i++)
        if (c->experiments & (1u << i))
            c->experiment_names[c->nexperiments++] = mp_experiments[i].name;
    return 0;
}

static int set_ready_pos(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    if (mp_ready_pos_parse(v, &c->ready_pos) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: unknown position '%s'; expected %s", opt,
                           mp_echo_arg(&e, v),
                       mp_ready_pos_names());
    return 0;
}

static int set_repeat_order(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    if (mp_repeat_order_parse(v, &c->repeat_order) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: unknown order '%s'; expected %s", opt,
                       mp_echo_arg(&e, v), mp_repeat_order_names());
    return 0;
}

static int set_fd_table(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    mp_echo e;
    char *it[2];
    int n = split_list(opt, v, it, 2, err);
    if (n < 0)
        return n;
    mp_fd_table t[2];
    for (int i = 0; i < n; i++)
        if (mp_fd_table_parse(it[i], &t[i]) < 0)
            return mp_errf(err, MP_EUSAGE, "%s: unknown value '%s'; expected %s", opt,
                           mp_echo_arg(&e, it[i]),
                           mp_fd_table_names());
    c->nfd_tables = n;
    c->fd_tables[0] = n == 2 ? MP_FDT_PRIVATE : t[0];   /* both: private first */
    c->fd_tables[1] = MP_FDT_SHARED;
    return 0;
}

#define COUNT_TARGET(field, lo, hi)                                                       \
    static int set_##field(mp_run_config *c, const char *opt, char *v, mp_err *err)       \
    {                                                                                     \
        long n;                                                                           \
        int rc = mp__cli_parse_count(opt, v, lo, hi, &n, err);                            \
        if (rc == 0)                                                                      \
            c->field = (int)n;                                                            \
        return rc;                                                                        \
    }
COUNT_TARGET(samples, 1, MP_SAMPLES_MAX)
COUNT_TARGET(repeats, 1, MP_REPEATS_MAX)
COUNT_TARGET(warmup, 0, MP_WARMUP_MAX)
COUNT_TARGET(waiters, 1, MP_WAITERS_MAX)

#define WORD_TARGET(field)                                                                \
    static int set_##field(mp_run_config *c, const char *opt, char *v, mp_err *err)       \
    {                                                                                     \
        return parse_word(opt, v, c->field, sizeof c->field, err);                        \
    }
WORD_TARGET(events)
WORD_TARGET(placement)
WORD_TARGET(out_dir)

#define FLAG_TARGET(field)                                                                \
    static int set_##field(mp_run_config *c, const char *opt, char *v, mp_err *err)       \
    {                                                                                     \
        (void)opt, (void)v, (void)err;                                                    \
        c->field = 1;                                                                     \
        return 0;                                                                         \
    }
FLAG_TARGET(force)
FLAG_TARGET(quick)
FLAG_TARGET(no_plots)
FLAG_TARGET(quiet)
FLAG_TARGET(profile)
FLAG_TARGET(anonymize)

/* --help: parsing stops and says so. */
static int set_help(mp_run_config *c, const char *opt, char *v, mp_err *err)
{
    (void)c, (void)opt, (void)v, (void)err;
    return 1;
}

static const char *placement_names(void)
{
    static char buf[256];
    return mp_names_join(buf, sizeof buf, mp_topo_placement_names, MP_TOPO_NPLACEMENTS);
}

/* ---- the table ---- */

typedef struct run_opt {
    const char *name;           /* --name */
    const char *arg;            /* its value's name in --help; NULL: a flag */
    set_fn target;
    const char *def;            /* default, given to target when the option is absent */
    const char *quick;          /* default under --quick, when it differs */
    const char *help;
    const char *(*list)(void);  /* the accepted names, printed after help */
} run_opt;

static const run_opt opts[] = {
    {"backends", "LIST", set_backends, "select,poll,epoll", NULL, "one or more of",
     mp_backend_names},
    {"fds", "LIST", set_fds, "10,20,50,100,200,500,1000,2000,5000,10000", QUICK_FDS,
     "watched descriptor counts, 1.." STR(MP_FDS_MAX), NULL},
    {"active", "LIST", set_active, "1", NULL,
     "K of the N fds ready at once (ready mode only; wakeup cells with K > 1 are "
     "unsupported: the poker writes one fd)", NULL},
    {"mode", "LIST", set_modes, "ready,wakeup", NULL,
     "ready (fd already readable, timeout 0: the scan cost), wakeup (waiter asleep, a "
     "poker process writes one byte)", NULL},
    {"fd-kind", "LIST", set_kinds, "pipe", NULL, "one or more of", mp_fd_kind_names},
    {"samples", "N", set_samples, "100", QUICK_SAMPLES, "timed calls per repeat per cell", NULL},
    {"repeats", "R", set_repeats, "9", QUICK_REPEATS, "repeats (backends interleaved in each)",
     NULL},
    {"repeat-order", "ORDER", set_repeat_order, "passes", NULL,
     "passes: one repeat of every cell per pass over the sweep, each on a descriptor set "
     "built afresh (drift and memory layout spread over every cell's repeats); "
     "back-to-back: a cell's repeats one after another on one set; one of",
     mp_repeat_order_names},
    {"fd-table", "LIST", set_fd_table, "private", NULL,
     "descriptor table of the measuring process in timed blocks: private (one thread), "
     "shared (plus one parked thread, as in a multi-threaded server), or both; one or more of",
     mp_fd_table_names},
    {"warmup", "N", set_warmup, "50", NULL,
     "untimed calls before each block (and at least 2 ms of them; 0: none)", NULL},
    {"ready-pos", "P", set_ready_pos, "last", NULL, "where the ready fd sits:",
     mp_ready_pos_names},
    {"experiment", "LIST", set_experiments, "calls", NULL, "one or more of", mp_experiment_help},
    {"waiters", "M", set_waiters, "4", NULL, "herd: waiting threads, 1.." STR(MP_WAITERS_MAX),
     NULL},
    {"events", "SPEC", set_events, "cache", NULL,
     "counter preset or event list (muxprof events)", NULL},
    {"placement", "KIND", set_placement, "auto", NULL, "one of", placement_names},
    {"out", "DIR", set_out_dir, NULL, NULL,
     "run directory [reports/runs/<host>-<UTC stamp>]", NULL},
    {"force", NULL, set_force, NULL, NULL, "write over a run directory muxprof wrote", NULL},
    {"quick", NULL, set_quick, NULL, NULL,
     "small sweep for smoke tests (the --quick defaults above)", NULL},
    {"no-plots", NULL, set_no_plots, NULL, NULL, "write the report without figures", NULL},
    {"quiet", NULL, set_quiet, NULL, NULL, "no progress on stderr", NULL},
    {"profile", NULL, set_profile, NULL, NULL,
     "after each cell's timing and counters, sample the waiter's kernel functions "
     "(perf_event_open, /proc/kallsyms) and group them into phases (docs/profile.md)", NULL},
    {"anonymize", NULL, set_anonymize, NULL, NULL,
     "outputs to publish: results.json rewritten field by field (host name a label, paths "
     "and kernel addresses replaced), the report made from it; CPU, kernel and every "
     "measured value kept (run directory reports/runs/anonymized-<UTC stamp>)", NULL},
    {"help", NULL, set_help, NULL, NULL, "this text", NULL},
};
#define NOPTS (sizeof opts / sizeof opts[0])

/* ---- --help ---- */

#define HELP_COL 20
#define HELP_WIDTH 79

/* Words of text, wrapped to HELP_WIDTH with continuation lines at HELP_COL. */
static void wrap(FILE *f, const char *text, int col)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        if (col > HELP_COL && col + 1 + (int)w > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_COL, "");
            col = HELP_COL;
        } else if (col > HELP_COL) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += (int)w;
        p += w;
    }
}

size_t mp_cli_run_nopts(void)
{
    return NOPTS;
}

const char *mp_cli_run_opt(size_t i, const char **arg, char *help, size_t len)
{
    const run_opt *o = &opts[i];
    int n = snprintf(help, len, "%s%s%s", o->help, o->list ? " " : "", o->list ? o->list() : "");
    if (o->def && n > 0 && (size_t)n < len)
        snprintf(help + n, len - (size_t)n, " [%s%s%s]", o->def,
                 o->quick ? "; --quick: " : "", o->quick ? o->quick : "");
    *arg = o->arg;
    return o->name;
}

const char *mp_cli_run_opt_values(size_t i)
{
    const run_opt *o = &opts[i];
    if (o->target == set_modes)
        return mp_mode_names();
    if (o->target == set_experiments)
        return mp_experiment_names();
    if (o->target == set_events)
        return mp_pmu_preset_list();
    return o->list ? o->list() : "";
}

void mp_cli_run_usage(FILE *f)
{
    fprintf(f, "usage: muxprof run [options]\n\n"
               "Measure one select/poll/epoll_wait call while N idle descriptors are watched\n"
               "and one is ready, for each N, and write results.json, results.csv, samples.csv\n"
               "and report.md into a run directory.\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        char head[64], text[1024];
        const char *arg, *name = mp_cli_run_opt(i, &arg, text, sizeof text);
        snprintf(head, sizeof head, "  --%s%s%s", name, arg ? " " : "", arg ? arg : "");
        int col = fprintf(f, "%-*s", HELP_COL - 1, head);
        if (col >= HELP_COL) {
            fprintf(f, "\n%*s", HELP_COL, "");
        } else {
            fputc(' ', f);
        }
        wrap(f, text, HELP_COL);
        fputc('\n', f);
    }
    fprintf(f, "\nThe run directory's default name gets -2, -3, ... when it exists.\n"
               "A run in which no cell could be measured, a cell or an experiment ended in\n"
               "error, or the report or a figure could not be written exits 1 and says why\n"
               "(what was measured is kept).\n"
               MP_EXIT_HELP);
}

/* ---- parsing ---- */

static int apply(const run_opt *o, mp_run_config *c, char *v, mp_err *err)
{
    char opt[32];
    snprintf(opt, sizeof opt, "--%s", o->name);
    return o->target(c, opt, v, err);
}

int mp_cli_parse_run(int argc, char **argv, mp_run_config *c, mp_err *err)
{
    struct option lo[NOPTS + 1];
    int seen[NOPTS] = {0};
    char buf[4096];

    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < NOPTS; i++)
        lo[i] = (struct option){opts[i].name, opts[i].arg ? required_argument : no_argument,
                                0, 256 + (int)i};
    lo[NOPTS] = (struct option){0, 0, 0, 0};
    for (int i = 0, off = 0; i < argc && off < (int)sizeof c->command - 1; i++)
        off += snprintf(c->command + off, sizeof c->command - (size_t)off, "%s%s",
                        i ? " " : "muxprof ", argv[i]);

    /* 0, not 1: glibc then also drops what an earlier call left half read
     * (the "y" of a refused "-xy"), which it would otherwise parse next */
    optind = 0;
    opterr = 0;
    int o;
    mp_echo e;
    while ((o = getopt_long(argc, argv, ":", lo, NULL)) != -1) {
        if (o == ':')
            return mp_errf(err, MP_EUSAGE, "%s needs a value; see muxprof run --help",
                           mp_echo_arg(&e, argv[optind - 1]));
        if (o < 256 || o >= 256 + (int)NOPTS) {
            if (optopt > ' ' && optopt < 127)   /* a short one, maybe inside "-xy" */
                return mp_errf(err, MP_EUSAGE, "unknown option '-%c'; see muxprof run --help",
                               optopt);
            return mp_errf(err, MP_EUSAGE, "unknown option '%s'; see muxprof run --help",
                           mp_echo_arg(&e, argv[optind - 1]));
        }
        const run_opt *row = &opts[o - 256];
        if (seen[o - 256])
            return mp_errf(err, MP_EUSAGE, "--%s given twice", row->name);
        char *v = NULL;
        if (optarg && row->target == set_out_dir) {
            v = optarg;   /* a path: its own length limit, in its own words */
        } else if (optarg) {
            if (strlen(optarg) >= sizeof buf)
                return mp_errf(err, MP_EUSAGE, "--%s: argument too long", row->name);
            strcpy(buf, optarg);
            v = buf;
        }
        int rc = apply(row, c, v, err);
        if (rc != 0)
            return rc;
        seen[o - 256] = 1;
    }
    if (optind < argc)
        return mp_errf(err, MP_EUSAGE, "unexpected argument '%s'; run takes options only "
                       "(see muxprof run --help)", mp_echo_arg(&e, argv[optind]));

    for (size_t i = 0; i < NOPTS; i++) {
        const char *def = c->quick && opts[i].quick ? opts[i].quick : opts[i].def;
        if (seen[i] || !def)
            continue;
        snprintf(buf, sizeof buf, "%s", def);
        int rc = apply(&opts[i], c, buf, err);
        if (rc < 0)
            return rc;
    }
    mp_err_clear(err);
    return 0;
}
