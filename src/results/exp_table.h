/* SPDX-License-Identifier: MIT */
/* exp_table.h - an experiment's results as a table that describes itself.
 *
 * Each experiment builds its cell objects (one per measured case) and then
 * hands them with a static mp_exp_table to mp_exp_table_json, which writes
 * the object "table" beside them in results.json:
 *
 *   "table": { "title", "summary", "method",
 *              "columns": [ {"key", "label", "unit", "kind"} ],
 *              "rows": [ [value per column] ],
 *              "figures": [ {"name", "x", "y": [keys], "series", "split",
 *                            "logx", "logy", "title"} ],
 *              "fits": [ {"y", "x", "series", "split", "label"} ],
 *              "compare": [ {"y", "by", "at", "split"} ] }
 *
 * A column's key is the dotted path of its value in a cell object
 * ("total_ns.p50"); a key ending in ".*" stands for one column per member
 * of that object seen in any cell ("counters_per_fd.task-clock").  Kinds:
 * "key" (names the row), "value" (a measurement), "status" ("ok" when the
 * cell has none), "reason".  A value a cell lacks is null.
 *
 * A figure's x is a column of numbers (lines, sorted by x) or a key column
 * of names (bars, one group per row in table order).  A fit asks the report
 * for the least-squares line of y against x over the ok rows of each series
 * (and split) value: its slope, in y's unit per x's unit, is what `label`
 * names ("ns per added fd").  A comparison asks it to read out y across the
 * values of key column `by` among rows alike in `at` (at the smallest and
 * the largest value of `at` where two or more ran; all rows when `at` is
 * absent) and in `split`: each value, and the highest over the lowest.
 *
 * The terminal summary of a run is printed from the same description and
 * the rows (experiments/table.h); docs/experiments.md describes the JSON.
 * Error convention: common/mp_err.h. */
#ifndef MP_RESULTS_EXP_TABLE_H
#define MP_RESULTS_EXP_TABLE_H

#include <cjson/cJSON.h>

#include "common/mp_err.h"

#define MP_EXP_MAX_COLUMNS 32
#define MP_EXP_MAX_FIGURES 4
#define MP_EXP_MAX_FITS 4
#define MP_EXP_MAX_COMPARE 4

typedef struct mp_exp_column {
    const char *key;        /* dotted path in a cell object; "X.*": its members */
    const char *label;      /* heading in the report */
    const char *unit;       /* "ns", "bytes", "" for a name or a plain count */
    const char *kind;       /* "key", "value", "status", "reason" */
    /* The terminal summary: heading (NULL: not shown), printf width (negative:
     * left-aligned), digits after the point (-1: the value is text). */
    const char *tty_label;
    int tty_width, tty_digits;
} mp_exp_column;

typedef struct mp_exp_figure {
    const char *name;       /* figure name, before any split value */
    const char *x;          /* column keys */
    const char *y[4];       /* NULL-ended */
    const char *series;     /* one line per value of this column; NULL: one */
    const char *split;      /* one figure per value of this column; NULL: one */
    int logx, logy;
    const char *title;      /* "%s" is the split value where there is one */
} mp_exp_figure;

/* Column keys; series, split and at NULL when not asked for. */
typedef struct mp_exp_fit {
    const char *y, *x, *series, *split;
    const char *label;      /* what the slope is */
} mp_exp_fit;

typedef struct mp_exp_compare {
    const char *y, *by, *at, *split;
} mp_exp_compare;

/* How a row that did not measure (status not "ok", or a shown value
 * missing) is printed in the terminal summary after its key columns. */
enum {
    MP_EXP_TTY_STATUS,      /* the status under the first value, "-" under the rest */
    MP_EXP_TTY_REASON,      /* the reason, after one space */
};

typedef struct mp_exp_table {
    const char *title;      /* what the experiment measures, a few words */
    const char *summary;    /* the terminal summary's heading */
    const char *method;     /* how one value is measured, a paragraph */
    mp_exp_column columns[MP_EXP_MAX_COLUMNS];   /* ended by a NULL key */
    mp_exp_figure figures[MP_EXP_MAX_FIGURES];   /* ended by a NULL name */
    mp_exp_fit fits[MP_EXP_MAX_FITS];            /* ended by a NULL y */
    mp_exp_compare compare[MP_EXP_MAX_COMPARE];  /* ended by a NULL y */
    int tty_failed;         /* MP_EXP_TTY_* */
} mp_exp_table;

/* Add "table" to experiment object o, its rows taken from the objects of
 * the array cells.  0, or -ENOMEM (o is then unchanged). */
int mp_exp_table_json(const mp_exp_table *t, const cJSON *cells, cJSON *o, mp_err *err);

#endif
