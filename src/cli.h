/* cli.h - options of `muxprof run`, parsed and validated before anything
 * is created.  Error convention: mp_err.h (MP_EUSAGE -> exit 2). */
#ifndef MP_CLI_H
#define MP_CLI_H

#include <limits.h>
#include <stdio.h>
#include "backend.h"
#include "fdset.h"

#define MP_MAX_BACKENDS 8
#define MP_MAX_COUNTS 64
#define MP_MAX_KINDS 4

/* Largest accepted values: beyond these a count is a typo, not a wish. */
#define MP_FDS_MAX 1048576      /* the kernel's default fs.nr_open */
#define MP_SAMPLES_MAX 10000000
#define MP_REPEATS_MAX 1000
#define MP_WARMUP_MAX 10000000

typedef enum { MP_MODE_READY, MP_MODE_WAKEUP } mp_mode;
typedef enum { MP_POS_FIRST, MP_POS_MIDDLE, MP_POS_LAST } mp_ready_pos;

/* What a run measures (--experiment): bits. */
enum {
    MP_EXP_CALLS = 1,      /* the per-call sweep (default) */
    MP_EXP_REGISTER = 2,   /* cost of registering N fds */
    MP_EXP_HERD = 4,       /* M waiters on one fd */
    MP_EXP_LTET = 8,       /* level- vs edge-triggered, partial reads */
};
#define MP_WAITERS_MAX 64

typedef struct mp_run_config {
    const mp_backend_ops *backends[MP_MAX_BACKENDS];
    int nbackends;
    int fds[MP_MAX_COUNTS];        /* ascending */
    int ncounts;
    int actives[MP_MAX_COUNTS];    /* K ready fds at once (ready mode), ascending */
    int nactives;
    mp_mode modes[2];
    int nmodes;
    mp_fd_kind kinds[MP_MAX_KINDS];
    int nkinds;
    int samples, repeats, warmup;
    unsigned experiments;          /* MP_EXP_* bits */
    int waiters;                   /* herd: M */
    mp_ready_pos ready_pos;
    char events[256];
    char placement[32];
    char out_dir[PATH_MAX];        /* empty: reports/runs/<host>-<stamp> */
    int force, quick, no_plots, quiet;
    int profile;                   /* --profile: a kernel sampling pass per ok cell */
    char command[1024];            /* the command line, for the record */
} mp_run_config;

/* Parse argv (argv[0] == "run").  Returns 0, 1 when --help was asked for
 * (nothing else parsed), or MP_EUSAGE with a message. */
int mp_cli_parse_run(int argc, char **argv, mp_run_config *cfg, mp_err *err);

/* The --help text of `muxprof run`. */
void mp_cli_run_usage(FILE *f);

const char *mp_mode_name(mp_mode m);
const char *mp_ready_pos_name(mp_ready_pos p);
/* Index of the first of k ready fds in a set of n for a position (the k
 * ready fds are consecutive). */
int mp_ready_first(mp_ready_pos p, int n, int k);

/* A whole decimal number in [lo, hi] for option opt: 0, or MP_EUSAGE. */
int mp_cli_parse_count(const char *opt, const char *s, long lo, long hi, long *out,
                       mp_err *err);

#endif
