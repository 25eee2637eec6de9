/* SPDX-License-Identifier: MIT */
/* compare.h - compare/ uses only report/, results/ and common/: it reads every input
 * through report/'s loader and draws through report/'s figure code.
 * Several runs (or reference datasets) set side by side.
 *
 * Each input is a checked mp_rmodel (report/model.h) plus what compare
 * needs to say about its host: a label from CPU model and arch, whether it
 * is a published reference, whether counters were taken and at which
 * scope.  A cell key is (mode, fd kind, backend, N); a key measured by at
 * least two inputs is compared, the others are listed as not compared.  An
 * input whose fd kind is "unknown" (a reference whose article does not say)
 * is matched against any fd kind, and the report says so.
 *
 * Functions return 0 or a negative errno with a message in an mp_err.  A
 * bad or incompatible input gives -EBADMSG or -ENOENT with the file and the
 * field in the message; the verb maps those to exit status 2.
 */
#ifndef MP_COMPARE_H
#define MP_COMPARE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include "common/anonymize.h"
#include "common/file.h"
#include "common/mp_err.h"
#include "report/model.h"

#define MP_CMP_MAX_HOSTS 8
#define MP_CMP_MAXPTS 64

typedef struct mp_cmp_host {
    mp_rmodel m;
    char arg[PATH_MAX];        /* the argument as given */
    char label[192];           /* "AMD EPYC 9354P 32-Core Processor (x86_64)" or --label */
    char machine[192];         /* CPU model and arch, kept when a --label replaces label */
    int labelled;              /* label given by --label */
    int reference;             /* a published dataset, not a muxprof run */
    int builtin;               /* reference: one carried in the binary, named by its name */
    int shadowed;              /* builtin, and a local file or directory has that name too */
    char source[512];          /* reference: the article */
    int emulated;              /* context.emulated */
    int has_counters;          /* at least one counter metric in an ok cell */
    int user_only;             /* counters scope is user space only */
    char scope[32];            /* counters.scope, "" when unknown */
    char cycles[MP_RM_NAME];   /* the metric that counts core cycles, "" if none */
    size_t pooled;             /* runs pooled into this input (mp_cmp_pool), 0: one run */
    int wake_apart;            /* its wakeup cells slept another wake delay than the first
                                * input's with wakeup cells: they match none (mp_cmp_prepare) */
} mp_cmp_host;

typedef struct mp_cmp {
    mp_cmp_host *h;
    size_t n;
} mp_cmp;

/* Resolve ARG (run directory, results.json, or reference name) and load
 * it into h.  On failure h still needs mp_cmp_host_free. */
int mp_cmp_host_open(mp_cmp_host *h, const char *arg, mp_err *err);
/* The same for `compare --anonymize`: a run's results.json is anonymized
 * (report/anonymize.h, labels shared by all inputs) before it is read, and
 * the input is named "input-NTH" instead of by its path. */
int mp_cmp_host_open_anonymized(mp_cmp_host *h, const char *arg, size_t nth, mp_anon *labels,
                                mp_err *err);
void mp_cmp_host_free(mp_cmp_host *h);
/* Pool hs[0..k-1], runs of one side, into hs[0] (the others are then freed
 * by the caller): per cell the runs' medians take the place of the repeat
 * medians, the median and interval are theirs, the canary the runs'
 * median; the label gets ", K runs".  A reference is refused (-EINVAL). */
int mp_cmp_pool(mp_cmp_host *hs, size_t k, mp_err *err);
#define MP_CMP_MAX_POOLED 64   /* runs over all inputs */

/* Name host h NAME (`--label`) instead of its CPU model and arch.  NAME goes
 * into Markdown tables and gnuplot strings: an empty or over-long name, or
 * one with " \\ | ` or control characters, is -EINVAL. */
#define MP_CMP_LABEL_MAX 120
int mp_cmp_host_label(mp_cmp_host *h, const char *name, mp_err *err);

/* Labels made unique, and a check that the inputs share at least one
 * measured cell (else -EBADMSG naming every file and what each measured). */
int mp_cmp_prepare(mp_cmp *c, mp_err *err);

/* The fd kind to look up in host h when comparing kind: kind itself, or
 * "unknown" for a host that does not know its fd kind; NULL if neither. */
const char *mp_cmp_kind(const mp_cmp_host *h, const char *kind);

/* The cell of host h for a key (any status), or NULL; NULL for every
 * wakeup key of a host whose wake delay differs (wake_apart). */
const mp_rcell *mp_cmp_cell(const mp_cmp_host *h, const char *mode, const char *kind,
                            const char *backend, long long nfds);

/* How many hosts have a cell (any status) for this key. */
size_t mp_cmp_nhave(const mp_cmp *c, const char *mode, const char *kind,
                    const char *backend, long long nfds);

/* The comparison groups: distinct (mode, fd kind) pairs, known kinds first
 * ("unknown" only when no host names a kind for that mode). */
typedef struct mp_cmp_group {
    char mode[16], kind[32];
} mp_cmp_group;
size_t mp_cmp_groups(const mp_cmp *c, mp_cmp_group *out, size_t max);

/* Distinct backends measured in a group (in first-seen order). */
size_t mp_cmp_backends(const mp_cmp *c, const mp_cmp_group *g, char (*out)[32], size_t max);

/* Sorted distinct N of the keys of (group, backend) that at least two
 * hosts have; returns the count. */
size_t mp_cmp_shared_n(const mp_cmp *c, const mp_cmp_group *g, const char *backend,
                       long long *out, size_t max);

/* The change of host hi against the first input at one key, with the
 * repeat (never the call) as the unit: the ratio of the medians with its
 * interval (Hodges-Lehmann over the repeat medians), the change as that
 * ratio's (ratio - 1) in %, and a two-sided permutation test on the repeat
 * medians.  A
 * change smaller than the minimum effect -- MP_CMP_MIN_EFFECT, or the
 * cells' own noise (the wider of their intervals, relative to its median:
 * what another run of the same code may move by), whichever is larger -- is
 * within noise whatever p says; a larger one is
 * a slowdown or a speed-up when p < MP_CMP_ALPHA and the ratio's interval
 * lies wholly on the side of the change, else not resolved.  Not testable (p NAN, why set) when either
 * input has fewer than MP_CMP_MIN_REPEATS repeat medians for the cell (a
 * published reference has none). */
#define MP_CMP_ALPHA 0.05
#define MP_CMP_MIN_REPEATS 4     /* 4 against 4: the smallest p is 2/70 < alpha */
#define MP_CMP_ADVISED_REPEATS 9 /* below it the test has little power: a warning */
#define MP_CMP_MIN_EFFECT 0.03
typedef enum {
    MP_CMP_NOT_TESTABLE, MP_CMP_WITHIN_NOISE, MP_CMP_SLOWER, MP_CMP_FASTER,
    MP_CMP_NOT_RESOLVED, MP_CMP_HOST_LEVEL
} mp_cmp_verdict;

/* The host's level of input hi against the first input's, from the
 * canaries both runs measured in every pass (run/canary.h): per quantity
 * the ratio of the medians over the passes.  A change the level explains
 * is "host level", never slower or faster: a slowdown whose ratio interval
 * reaches down to within the cell's threshold of the largest canary ratio
 * (up > 1 + MP_CMP_LEVEL_MIN), a speed-up likewise below. */
#define MP_CMP_LEVEL_MIN 0.05
typedef struct mp_cmp_level {
    int known;                 /* both inputs carry a canary */
    double ratio[3];           /* per canary quantity (MP_RCANARY_*), NaN where either lacks it */
    double up, down;           /* the largest and smallest ratio, 1 when none is known */
    int which_up, which_down;  /* their quantities */
    int differs;               /* up or down beyond MP_CMP_LEVEL_MIN */
} mp_cmp_level;
void mp_cmp_level_of(const mp_cmp *c, size_t hi, mp_cmp_level *out);
/* "canary syscall +28%, L1 +3%, LLC +40%" into buf. */
const char *mp_cmp_level_text(const mp_cmp_level *l, char *buf, size_t len);
const char *mp_cmp_verdict_name(mp_cmp_verdict v);
typedef struct mp_cmp_change {
    double base, value;        /* medians, ns; NAN when not measured */
    double pct;                /* (ratio - 1) * 100; NAN when either is missing */
    double ratio, ratio_lo, ratio_hi, ratio_level;   /* value / base: the Hodges-Lehmann
                                  * estimate from the repeats, value / base without them */
    double p;                  /* permutation test; NAN when not testable */
    double min_effect;         /* the threshold used, a fraction */
    double could_up, could_down;   /* the smallest slowdown and speed-up, in %, this cell could
                                    * have been called with: beyond min_effect and far enough
                                    * that the ratio's interval, as wide as measured, excludes 1
                                    * (NAN when not testable) */
    size_t n_base, n_value;    /* repeat medians tested */
    mp_cmp_verdict verdict;
    int significant;           /* verdict is a slowdown or a speed-up */
    char why[240];             /* not testable: why */
} mp_cmp_change;
void mp_cmp_change_of(const mp_cmp *c, size_t hi, const mp_cmp_group *g, const char *backend,
                      long long nfds, mp_cmp_change *out);

/* For the terminal: each input's repeat warning, then one line per shared
 * cell and input after the first with the change, the ratio and its 95%
 * interval, p and the verdict of mp_cmp_change_of (the tables of
 * report.md, as plain columns). */
void mp_cmp_print_changes(FILE *f, const mp_cmp *c);

/* The comparison as one JSON document for --json (docs/json-output.md). */
cJSON *mp_cmp_json(const mp_cmp *c);

/* Write DIR/report.md, DIR/figures/ (data, wrappers and, unless
 * no_plots or gnuplot is missing, the drawings), through the directory held
 * open (common/file.h).  *drawn gets the number of figures drawn.  Failures
 * are -errno (not usage errors). */
int mp_cmp_write(const mp_cmp *c, mp_dir *dir, int no_plots, size_t *drawn,
                 char *note, size_t note_len, mp_err *err);

#endif
