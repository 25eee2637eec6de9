/* SPDX-License-Identifier: MIT */
/* run_options.c - the options of `muxprof run` as one table (cmd/opt.h):
 * parsing, the defaults, --help, the manual page and the completion are all
 * made from it.  Lists of names (backends, experiments, fd kinds,
 * placements) come from their registries.  Parsing is strict: a bad value
 * is one line naming the option and what it accepts (MP_EUSAGE). */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/internal.h"
#include "cmd/opt.h"
#include "common/duration.h"
#include "common/names.h"
#include "experiments/experiment.h"
#include "run/config.h"
#include "pmu/pmu.h"
#include "topology/topology.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* The defaults are chosen so the default sweep takes under a minute on a
 * 2-core VM; --quick is the smoke-test sweep, with the fewest repeats whose
 * two interval costs still have intervals that cover together at 95% (5 x 5
 * repeat medians: 99.2%, against the 97.5% each needs). */
#define QUICK_FDS "10,100,1000"
#define QUICK_SAMPLES "100"
#define QUICK_REPEATS "5"

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

static int set_backends(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
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

static int set_fds(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
    return parse_counts(opt, v, c->fds, &c->ncounts, err);
}

static int set_active(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
    return parse_counts(opt, v, c->actives, &c->nactives, err);
}

static int set_modes(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
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

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Durations with units, 0..MP_WAKE_DELAY_MAX_NS, sorted, no duplicates. */
static int set_wake_delays(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
    mp_echo e;
    char *it[MP_MAX_WAKE_DELAYS], max[32];
    int n = split_list(opt, v, it, MP_MAX_WAKE_DELAYS, err);
    if (n < 0)
        return n;
    mp_duration_fmt(max, sizeof max, MP_WAKE_DELAY_MAX_NS);
    for (int i = 0; i < n; i++) {
        int rc = mp_duration_parse(it[i], MP_WAKE_DELAY_MAX_NS, &c->wake_delays_ns[i]);
        if (rc == -ERANGE)
            return mp_errf(err, MP_EUSAGE, "%s: '%s' is longer than %s, the longest delay "
                           "a wakeup sample may take", opt, mp_echo_arg(&e, it[i]), max);
        if (rc < 0)
            return mp_errf(err, MP_EUSAGE, "%s: '%s' is not a duration; expected a number "
                           "and a unit (%s), e.g. 0,30us,1ms, up to %s", opt,
                           mp_echo_arg(&e, it[i]), mp_duration_units(), max);
    }
    qsort(c->wake_delays_ns, (size_t)n, sizeof c->wake_delays_ns[0], cmp_ll);
    for (int i = 1; i < n; i++)
        if (c->wake_delays_ns[i] == c->wake_delays_ns[i - 1])
            return mp_errf(err, MP_EUSAGE, "%s: %s is given twice", opt,
                           mp_duration_fmt(max, sizeof max, c->wake_delays_ns[i]));
    c->nwake_delays = n;
    return 0;
}

static int set_kinds(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
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

static int set_experiments(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
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

static int set_ready_pos(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
    mp_echo e;
    if (mp_ready_pos_parse(v, &c->ready_pos) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: unknown position '%s'; expected %s", opt,
                           mp_echo_arg(&e, v),
                       mp_ready_pos_names());
    return 0;
}

static int set_repeat_order(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
    mp_echo e;
    if (mp_repeat_order_parse(v, &c->repeat_order) < 0)
        return mp_errf(err, MP_EUSAGE, "%s: unknown order '%s'; expected %s", opt,
                       mp_echo_arg(&e, v), mp_repeat_order_names());
    return 0;
}

static int set_fd_table(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
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
    static int set_##field(void *cfg, const char *opt, char *v, mp_err *err)              \
    {                                                                                     \
        mp_run_config *c = cfg;                                                           \
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
    static int set_##field(void *cfg, const char *opt, char *v, mp_err *err)              \
    {                                                                                     \
        mp_run_config *c = cfg;                                                           \
        return parse_word(opt, v, c->field, sizeof c->field, err);                        \
    }
WORD_TARGET(events)
WORD_TARGET(placement)
WORD_TARGET(out_dir)

static const char *placement_names(void)
{
    static char buf[256];
    return mp_names_join(buf, sizeof buf, mp_topo_placement_names, MP_TOPO_NPLACEMENTS);
}

/* ---- the table ---- */

/* The longest --settle-max: a wait is a courtesy, not a schedule. */
#define SETTLE_MAX_NS (3600LL * 1000000000LL)

static int set_settle_max(void *cfg, const char *opt, char *v, mp_err *err)
{
    mp_run_config *c = cfg;
    mp_echo e;
    long long ns;
    int rc = mp_duration_parse(v, SETTLE_MAX_NS, &ns);
    if (rc == -ERANGE)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is longer than 3600s, the longest wait "
                       "allowed", opt, mp_echo_arg(&e, v));
    if (rc < 0)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is not a duration; expected a number and a "
                       "unit (%s), e.g. 60s; 0 does not wait", opt, mp_echo_arg(&e, v),
                       mp_duration_units());
    c->settle_max_s = (double)ns / 1e9;
    return 0;
}

#define RUN_FLAG(n, field, h) MP_OPT_BOOL(n, mp_run_config, field, h)

static const mp_opt opts[] = {
    MP_OPT_FN("backends", "LIST", set_backends, "one or more of %s",
              .values = mp_backend_names, .def = "select,poll,epoll"),
    MP_OPT_FN("fds", "LIST", set_fds, "watched descriptor counts, 1.." STR(MP_FDS_MAX),
              .def = "10,20,50,100,200,500,1000,2000,5000,10000", .alt = QUICK_FDS),
    MP_OPT_FN("active", "LIST", set_active,
              "K of the N fds ready at once (ready mode only; wakeup cells with K > 1 are "
              "unsupported: the poker writes one fd)", .def = "1"),
    MP_OPT_FN("mode", "LIST", set_modes,
              "ready (fd already readable, timeout 0: the scan cost), wakeup (waiter asleep, a "
              "poker process writes one byte)", .values = mp_mode_names, .def = "ready,wakeup"),
    MP_OPT_FN("wake-delay", "LIST", set_wake_delays,
              "wakeup: how long the waiter has slept (seen asleep in /proc) before the poker "
              "writes, each delay a cell of its own: 0 the cheapest wakeup, longer ones let "
              "the idle CPU sink deeper (docs/methodology.md); durations with a unit (ns, "
              "us, ms, s), e.g. 0,30us,1ms", .def = "0"),
    MP_OPT_FN("fd-kind", "LIST", set_kinds, "one or more of %s", .values = mp_fd_kind_names,
              .def = "pipe"),
    MP_OPT_FN("samples", "N", set_samples, "timed calls per repeat per cell", .def = "100",
              .alt = QUICK_SAMPLES),
    MP_OPT_FN("repeats", "R", set_repeats, "repeats (backends interleaved in each)",
              .def = "9", .alt = QUICK_REPEATS),
    MP_OPT_FN("repeat-order", "ORDER", set_repeat_order,
              "passes: one repeat of every cell per pass over the sweep, each on a descriptor "
              "set built afresh (drift and memory layout spread over every cell's repeats); "
              "back-to-back: a cell's repeats one after another on one set; one of %s",
              .values = mp_repeat_order_names, .def = "passes"),
    MP_OPT_FN("fd-table", "LIST", set_fd_table,
              "descriptor table of the measuring process in timed blocks: private (one "
              "thread), shared (plus one parked thread, as in a multi-threaded server), or "
              "both; one or more of %s", .values = mp_fd_table_names, .def = "private"),
    MP_OPT_FN("warmup", "N", set_warmup,
              "untimed calls before each block (and at least 2 ms of them; 0: none)",
              .def = "50"),
    MP_OPT_FN("ready-pos", "P", set_ready_pos, "where the ready fd sits: %s",
              .values = mp_ready_pos_names, .def = "last"),
    MP_OPT_FN("experiment", "LIST", set_experiments, "one or more of %s",
              .values = mp_experiment_names, .shown = mp_experiment_help, .def = "calls"),
    MP_OPT_FN("waiters", "M", set_waiters, "herd: waiting threads, 1.." STR(MP_WAITERS_MAX),
              .def = "4"),
    MP_OPT_FN("events", "SPEC", set_events, "counter preset or event list (muxprof events)",
              .values = mp_pmu_preset_list, .def = "cache"),
    MP_OPT_FN("placement", "KIND", set_placement, "one of %s", .values = placement_names,
              .def = "auto"),
    MP_OPT_FN("out", "DIR", set_out_dir, "run directory [reports/runs/<host>-<UTC stamp>]",
              .complete = MP_OPT_DIRS, .flags = MP_OPT_RAW),
    RUN_FLAG("force", force, "write over a run directory muxprof wrote"),
    RUN_FLAG("quick", quick, "small sweep for smoke tests (the --quick defaults above)"),
    RUN_FLAG("no-plots", no_plots, "write the report without figures"),
    RUN_FLAG("paper", paper,
             "draw the report's PDFs for a paper, as muxprof report --paper does (no title, "
             "axes over the data's range, legend inside where a corner is free; "
             "docs/report.md)"),
    RUN_FLAG("quiet", quiet, "no progress on stderr"),
    RUN_FLAG("profile", profile,
             "after each cell's timing and counters, sample the waiter's kernel functions "
             "(perf_event_open, /proc/kallsyms) and group them into phases (docs/profile.md)"),
    MP_OPT_FN("settle-max", "DURATION", set_settle_max,
              "before measuring, wait up to this long for the other CPUs to go idle (below "
              "a quarter of one CPU busy besides muxprof, or 5% of the CPUs on a large host; "
              "/proc/stat): a run started right after a build would measure beside its tail; "
              "0 does not wait", .def = "60s"),
    RUN_FLAG("no-wait", no_wait,
             "measure at once, without waiting for the host to settle (MUXPROF_NO_WAIT=1, "
             "yes, true or on in the environment does the same)"),
    RUN_FLAG("dry-run", dry_run,
             "measure nothing and write nothing: print the cells, the passes in their order, "
             "the counters that would open and an estimate of the run's time, then exit 0 "
             "(the options are checked as for a run)"),
    RUN_FLAG("anonymize", anonymize,
             "outputs to publish: results.json rewritten field by field (host name a label, "
             "paths and kernel addresses replaced), the report made from it; CPU, kernel and "
             "every measured value kept (run directory reports/runs/anonymized-<UTC stamp>)"),
};

const mp_cli mp_cli_run = {
    .name = "run", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 20, .width = 79,
    .intro = "usage: muxprof run [options]\n\n"
             "Measure one select/poll/epoll_wait call while N idle descriptors are watched\n"
             "and one is ready, for each N, and write results.json, results.csv, samples.csv,\n"
             "experiments.csv and report.md into a run directory.\n\n",
    .outro = "\nThe run directory's default name gets -2, -3, ... when it exists.\n"
             "A run in which no cell could be measured, a cell or an experiment ended in\n"
             "error, or the report or a figure could not be written exits 1 and says why\n"
             "(what was measured is kept).\n" MP_EXIT_HELP,
    .help_head = "--help", .unknown = "unknown option", .see = "; see muxprof run --help",
    .stray = "; run takes options only (see muxprof run --help)", .alt = "quick",
    .man_rows = 1,
};

void mp_cli_run_usage(FILE *f)
{
    mp_opt_usage(&mp_cli_run, f);
}

int mp_cli_parse_run(int argc, char **argv, mp_run_config *c, mp_err *err)
{
    memset(c, 0, sizeof *c);
    for (int i = 0, off = 0; i < argc && off < (int)sizeof c->command - 1; i++)
        off += snprintf(c->command + off, sizeof c->command - (size_t)off, "%s%s",
                        i ? " " : "muxprof ", argv[i]);
    mp_opt_parsed p;
    int rc = mp_opt_parse(&mp_cli_run, argc, argv, c, &p, err);
    if (rc < 0 || p.help)
        return rc < 0 ? rc : p.help;
    const char *nw = getenv("MUXPROF_NO_WAIT");
    if (nw && *nw) {
        static const char *const yes[] = {"1", "yes", "true", "on"}, *const no[] = {"0", "no",
                                                                              "false", "off"};
        int known = 0;
        for (size_t i = 0; i < 4; i++) {
            known |= !strcmp(nw, yes[i]) || !strcmp(nw, no[i]);
            c->no_wait |= !strcmp(nw, yes[i]);
        }
        if (!known) {
            mp_echo e;
            return mp_errf(err, MP_EUSAGE, "MUXPROF_NO_WAIT='%s' in the environment: expected "
                           "1, yes, true or on (as --no-wait), or 0, no, false or off",
                           mp_echo_arg(&e, nw));
        }
    }
    int wakeup = 0;
    for (int i = 0; i < c->nmodes; i++)
        wakeup |= c->modes[i] == MP_MODE_WAKEUP;
    if (!wakeup && (c->nwake_delays > 1 || c->wake_delays_ns[0] != 0))
        return mp_errf(err, MP_EUSAGE, "--wake-delay applies to wakeup cells, and --mode "
                       "asks for none: add wakeup to --mode or leave --wake-delay out");
    return 0;
}
