/* cli.c - `muxprof run` options: one table of options with their defaults,
 * strict parsing of lists and counts, and the usage text. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"

/* Defaults: chosen so the default sweep takes under a minute on a 2-core VM. */
#define DEF_BACKENDS "select,poll,epoll"
#define DEF_FDS "10,20,50,100,200,500,1000,2000,5000,10000"
#define DEF_MODES "ready,wakeup"
#define DEF_KIND "pipe"
#define DEF_SAMPLES 200
#define DEF_REPEATS 5
#define DEF_WARMUP 50
#define QUICK_FDS "10,100,1000"
#define QUICK_SAMPLES 100
#define QUICK_REPEATS 3

enum { O_BACKENDS = 256, O_FDS, O_MODE, O_KIND, O_SAMPLES, O_REPEATS, O_WARMUP, O_EVENTS,
       O_PLACEMENT, O_OUT, O_FORCE, O_QUICK, O_NOPLOTS, O_QUIET, O_READYPOS, O_ACTIVE,
       O_PROFILE, O_EXPERIMENT, O_WAITERS, O_HELP };

static const struct option opts[] = {
    {"backends", required_argument, 0, O_BACKENDS},
    {"fds", required_argument, 0, O_FDS},
    {"active", required_argument, 0, O_ACTIVE},
    {"experiment", required_argument, 0, O_EXPERIMENT},
    {"waiters", required_argument, 0, O_WAITERS},
    {"mode", required_argument, 0, O_MODE},
    {"fd-kind", required_argument, 0, O_KIND},
    {"samples", required_argument, 0, O_SAMPLES},
    {"repeats", required_argument, 0, O_REPEATS},
    {"warmup", required_argument, 0, O_WARMUP},
    {"events", required_argument, 0, O_EVENTS},
    {"placement", required_argument, 0, O_PLACEMENT},
    {"ready-pos", required_argument, 0, O_READYPOS},
    {"out", required_argument, 0, O_OUT},
    {"force", no_argument, 0, O_FORCE},
    {"quick", no_argument, 0, O_QUICK},
    {"no-plots", no_argument, 0, O_NOPLOTS},
    {"quiet", no_argument, 0, O_QUIET},
    {"profile", no_argument, 0, O_PROFILE},
    {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0},
};

void mp_cli_run_usage(FILE *f)
{
    fprintf(f,
"usage: muxprof run [options]\n"
"\n"
"Measure one select/poll/epoll_wait call while N idle descriptors are watched\n"
"and one is ready, for each N, and write results.json, results.csv, samples.csv\n"
"and report.md into a run directory.\n"
"\n"
"  --backends LIST   select, poll, epoll, epoll-et, ppoll, epoll-pwait2,\n"
"                    io_uring                                    [" DEF_BACKENDS "]\n"
"  --fds LIST        watched descriptor counts, 1..%d\n"
"                    [" DEF_FDS "]\n"
"  --active LIST     K of the N fds ready at once (ready mode only; wakeup cells\n"
"                    with K > 1 are unsupported: the poker writes one fd)   [1]\n"
"  --mode LIST       ready (fd already readable, timeout 0: the scan cost),\n"
"                    wakeup (waiter asleep, a poker thread writes one byte)  [" DEF_MODES "]\n"
"  --fd-kind LIST    pipe, socketpair, tcp, eventfd              [" DEF_KIND "]\n"
"  --samples N       timed calls per repeat per cell             [%d]\n"
"  --repeats R       repeats (backends interleaved in each)      [%d]\n"
"  --warmup N        untimed calls before each block             [%d]\n"
"  --ready-pos P     where the ready fd sits: first, middle, last [last]\n"
"  --experiment LIST calls (the per-call sweep), register (cost of adding N fds),\n"
"                    herd (M waiters on one fd), ltet (LT vs ET, partial reads) [calls]\n"
"  --waiters M       herd: waiting threads, 1..%d                [4]\n"
"  --events SPEC     counter preset or event list (muxprof events) [cache]\n"
"  --placement KIND  auto, smt, same-l2, same-l3, cross-l3, cross-numa, none [auto]\n"
"  --out DIR         run directory [reports/runs/<host>-<UTC stamp>]\n"
"  --force           reuse a non-empty run directory\n"
"  --quick           small sweep for smoke tests (fds " QUICK_FDS ", %d samples x %d)\n"
"  --no-plots        write the report without figures\n"
"  --quiet           no progress on stderr\n"
"  --profile         after each cell's timing and counters, sample the waiter's\n"
"                    kernel functions (perf_event_open, /proc/kallsyms) and group\n"
"                    them into phases (docs/profile.md)\n"
"\n"
"Exit status: 0 success, 1 runtime failure, 2 usage error.\n",
            MP_FDS_MAX, DEF_SAMPLES, DEF_REPEATS, DEF_WARMUP, MP_WAITERS_MAX, QUICK_SAMPLES,
            QUICK_REPEATS);
}

const char *mp_mode_name(mp_mode m)
{
    return m == MP_MODE_READY ? "ready" : "wakeup";
}

const char *mp_ready_pos_name(mp_ready_pos p)
{
    return p == MP_POS_FIRST ? "first" : p == MP_POS_MIDDLE ? "middle" : "last";
}

int mp_ready_first(mp_ready_pos p, int n, int k)
{
    if (k > n)
        k = n;
    return p == MP_POS_FIRST ? 0 : p == MP_POS_MIDDLE ? (n - k + 1) / 2 : n - k;
}

int mp_exit_status(int code)
{
    return code == 0 ? 0 : code == MP_EUSAGE ? 2 : 1;
}

int mp_cli_parse_count(const char *opt, const char *s, long lo, long hi, long *out, mp_err *err)
{
    char *end;
    errno = 0;
    if (!*s || !(*s >= '0' && *s <= '9') )
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is not a whole number; expected %ld..%ld",
                       opt, s, lo, hi);
    long v = strtol(s, &end, 10);
    if (*end || errno == ERANGE)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is not a whole number; expected %ld..%ld",
                       opt, s, lo, hi);
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
    if (!*s)
        return mp_errf(err, MP_EUSAGE, "%s: empty list", opt);
    if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
        return mp_errf(err, MP_EUSAGE, "%s: empty item in '%s'", opt, s);
    for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return mp_errf(err, MP_EUSAGE, "%s: more than %d items", opt, max);
        for (int i = 0; i < n; i++)
            if (!strcmp(items[i], t))
                return mp_errf(err, MP_EUSAGE, "%s: '%s' is given twice", opt, t);
        items[n++] = t;
    }
    return n;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int parse_backends(char *s, mp_run_config *c, mp_err *err)
{
    char *it[MP_MAX_BACKENDS];
    int n = split_list("--backends", s, it, MP_MAX_BACKENDS, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        c->backends[i] = mp_backend_find(it[i]);
        if (!c->backends[i])
            return mp_errf(err, MP_EUSAGE, "--backends: unknown backend '%s'; expected %s",
                           it[i], mp_backend_names());
    }
    c->nbackends = n;
    return 0;
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
        int rc = mp_cli_parse_count(opt, it[i], 1, MP_FDS_MAX, &v, err);
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

static int parse_fds(char *s, mp_run_config *c, mp_err *err)
{
    return parse_counts("--fds", s, c->fds, &c->ncounts, err);
}

static int parse_modes(char *s, mp_run_config *c, mp_err *err)
{
    char *it[2];
    int n = split_list("--mode", s, it, 2, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        if (!strcmp(it[i], "ready"))
            c->modes[i] = MP_MODE_READY;
        else if (!strcmp(it[i], "wakeup"))
            c->modes[i] = MP_MODE_WAKEUP;
        else
            return mp_errf(err, MP_EUSAGE, "--mode: unknown mode '%s'; expected ready, wakeup",
                           it[i]);
    }
    c->nmodes = n;
    return 0;
}

static int parse_kinds(char *s, mp_run_config *c, mp_err *err)
{
    char *it[MP_MAX_KINDS];
    int n = split_list("--fd-kind", s, it, MP_MAX_KINDS, err);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++)
        if (mp_fd_kind_parse(it[i], &c->kinds[i]) < 0)
            return mp_errf(err, MP_EUSAGE,
                           "--fd-kind: unknown kind '%s'; expected pipe, socketpair, tcp, eventfd",
                           it[i]);
    c->nkinds = n;
    return 0;
}

static int parse_experiments(char *s, mp_run_config *c, mp_err *err)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        {"calls", MP_EXP_CALLS}, {"register", MP_EXP_REGISTER}, {"herd", MP_EXP_HERD},
        {"ltet", MP_EXP_LTET}};
    char *it[4];
    int n = split_list("--experiment", s, it, 4, err);
    if (n < 0)
        return n;
    c->experiments = 0;
    for (int i = 0; i < n; i++) {
        unsigned bit = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (!strcmp(it[i], names[k].name))
                bit = names[k].bit;
        if (!bit)
            return mp_errf(err, MP_EUSAGE, "--experiment: unknown experiment '%s'; expected "
                           "calls, register, herd, ltet", it[i]);
        c->experiments |= bit;
    }
    return 0;
}

static int parse_word(const char *opt, const char *s, char *dst, size_t len, mp_err *err)
{
    if (!*s || strlen(s) >= len)
        return mp_errf(err, MP_EUSAGE, "%s: '%s' is empty or longer than %zu characters", opt,
                       s, len - 1);
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

int mp_cli_parse_run(int argc, char **argv, mp_run_config *c, mp_err *err)
{
    char buf[4096];
    long v;
    int rc = 0, have_fds = 0, have_samples = 0, have_repeats = 0;

    memset(c, 0, sizeof *c);
    c->samples = DEF_SAMPLES;
    c->repeats = DEF_REPEATS;
    c->warmup = DEF_WARMUP;
    c->ready_pos = MP_POS_LAST;
    c->experiments = MP_EXP_CALLS;
    c->waiters = 4;
    strcpy(c->events, "cache");
    strcpy(c->placement, "auto");
    for (int i = 0, off = 0; i < argc && off < (int)sizeof c->command - 1; i++)
        off += snprintf(c->command + off, sizeof c->command - (size_t)off, "%s%s",
                        i ? " " : "muxprof ", argv[i]);

    /* 0, not 1: glibc then also drops what an earlier call left half read
     * (the "y" of a refused "-xy"), which it would otherwise parse next */
    optind = 0;
    opterr = 0;
    int o;
    while ((o = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (optarg && (o != O_OUT)) {
            if (strlen(optarg) >= sizeof buf)
                return mp_errf(err, MP_EUSAGE, "%s: argument too long", argv[optind - 1]);
            strcpy(buf, optarg);
        }
        switch (o) {
        case O_HELP: return 1;
        case O_BACKENDS: rc = parse_backends(buf, c, err); break;
        case O_FDS: rc = parse_fds(buf, c, err); have_fds = 1; break;
        case O_ACTIVE: rc = parse_counts("--active", buf, c->actives, &c->nactives, err); break;
        case O_EXPERIMENT: rc = parse_experiments(buf, c, err); break;
        case O_WAITERS:
            rc = mp_cli_parse_count("--waiters", buf, 1, MP_WAITERS_MAX, &v, err);
            c->waiters = (int)v; break;
        case O_MODE: rc = parse_modes(buf, c, err); break;
        case O_KIND: rc = parse_kinds(buf, c, err); break;
        case O_SAMPLES:
            rc = mp_cli_parse_count("--samples", buf, 1, MP_SAMPLES_MAX, &v, err);
            c->samples = (int)v; have_samples = 1; break;
        case O_REPEATS:
            rc = mp_cli_parse_count("--repeats", buf, 1, MP_REPEATS_MAX, &v, err);
            c->repeats = (int)v; have_repeats = 1; break;
        case O_WARMUP:
            rc = mp_cli_parse_count("--warmup", buf, 0, MP_WARMUP_MAX, &v, err);
            c->warmup = (int)v; break;
        case O_READYPOS:
            if (!strcmp(buf, "first")) c->ready_pos = MP_POS_FIRST;
            else if (!strcmp(buf, "middle")) c->ready_pos = MP_POS_MIDDLE;
            else if (!strcmp(buf, "last")) c->ready_pos = MP_POS_LAST;
            else rc = mp_errf(err, MP_EUSAGE,
                              "--ready-pos: unknown position '%s'; expected first, middle, last", buf);
            break;
        case O_EVENTS: rc = parse_word("--events", buf, c->events, sizeof c->events, err); break;
        case O_PLACEMENT:
            rc = parse_word("--placement", buf, c->placement, sizeof c->placement, err); break;
        case O_OUT: rc = parse_word("--out", optarg, c->out_dir, sizeof c->out_dir, err); break;
        case O_FORCE: c->force = 1; break;
        case O_QUICK: c->quick = 1; break;
        case O_NOPLOTS: c->no_plots = 1; break;
        case O_QUIET: c->quiet = 1; break;
        case O_PROFILE: c->profile = 1; break;
        case ':':
            return mp_errf(err, MP_EUSAGE, "%s needs a value; see muxprof run --help",
                           argv[optind - 1]);
        default:
            if (optopt > ' ' && optopt < 127)   /* a short one, maybe inside "-xy" */
                return mp_errf(err, MP_EUSAGE, "unknown option '-%c'; see muxprof run --help",
                               optopt);
            return mp_errf(err, MP_EUSAGE, "unknown option '%s'; see muxprof run --help",
                           argv[optind - 1]);
        }
        if (rc < 0)
            return rc;
    }
    if (optind < argc)
        return mp_errf(err, MP_EUSAGE, "unexpected argument '%s'; run takes options only "
                       "(see muxprof run --help)", argv[optind]);

    if (!c->nbackends) { strcpy(buf, DEF_BACKENDS); parse_backends(buf, c, err); }
    if (!c->nmodes) { strcpy(buf, DEF_MODES); parse_modes(buf, c, err); }
    if (!c->nkinds) { strcpy(buf, DEF_KIND); parse_kinds(buf, c, err); }
    if (!have_fds) { strcpy(buf, c->quick ? QUICK_FDS : DEF_FDS); parse_fds(buf, c, err); }
    if (!c->nactives) { c->actives[0] = 1; c->nactives = 1; }
    if (c->quick && !have_samples) c->samples = QUICK_SAMPLES;
    if (c->quick && !have_repeats) c->repeats = QUICK_REPEATS;
    mp_err_clear(err);
    return 0;
}
