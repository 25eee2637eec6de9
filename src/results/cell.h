/* cell.h - a cell of results.json: the status a cell ends in, and the
 * cell as read back from the file (docs/results-schema.md). */
#ifndef MP_RESULTS_CELL_H
#define MP_RESULTS_CELL_H

#include <stddef.h>
#include <cjson/cJSON.h>

#define MP_RM_NAME 96
#define MP_RM_MAX_REP 64

typedef enum { MP_CELL_PENDING, MP_CELL_OK, MP_CELL_UNSUPPORTED, MP_CELL_ERROR } mp_cell_status;

const char *mp_cell_status_name(mp_cell_status s);

/* Where a cell's interval on the median comes from. */
enum { MP_CI_NONE, MP_CI_BOOT, MP_CI_REPEATS };

/* A <summary> from the schema; fields absent from the file are NaN. */
typedef struct mp_rsum {
    double p10, p50, p90, p99, mean, min, max, stddev, n;
} mp_rsum;

typedef struct mp_rmetric {
    char name[MP_RM_NAME];
    mp_rsum s;
} mp_rmetric;

enum { MP_RC_OK, MP_RC_UNSUPPORTED, MP_RC_ERROR };

typedef struct mp_rcell {
    size_t index;                 /* position in results[] */
    const cJSON *json;            /* results[index] itself */
    char backend[32], fd_kind[32], mode[16];
    long long nfds;
    long long active;             /* K ready at once; 1 when the file has no "active" */
    int status;                   /* MP_RC_* */
    char reason[256];             /* empty when none */
    long long fd_hi;              /* -1 when absent */
    mp_rsum wall;                 /* metrics.wall_ns (ok cells) */
    mp_rsum waiter;               /* metrics.waiter_ns (wakeup cells; p50 NaN if absent) */
    /* Interval on wall.p50: MP_CI_BOOT (wall_p50_ci95_ns, level 0.95) or,
     * for files without it, MP_CI_REPEATS: the range of the repeat medians,
     * which holds the median with probability 1 - 2^(1-R) (ci_level). */
    int ci_kind;
    double ci_lo, ci_hi, ci_level;
    double rep[MP_RM_MAX_REP];    /* repeat medians, on wall_ns's scale (ready mode: */
    size_t nrep;                  /* the bracket subtracted as in wall_ns) */
    mp_rmetric *counters;         /* metrics other than wall_ns/wall_raw_ns/waiter_ns; a
                                     null summary (nothing counted) is left out */
    size_t ncounters;
    const cJSON *profile;         /* checked "profile" object, or NULL */
} mp_rcell;

#endif
