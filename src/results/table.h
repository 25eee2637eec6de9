/* SPDX-License-Identifier: MIT */
/* table.h - an object of results.json as a table of its fields: each row
 * a key, the kind of value, where the value lies in the C model, when it
 * is left out, a unit and one line of doc.  The writer and the reader of
 * the object go through the same rows, and the schema's test holds
 * docs/results-schema.md to them.  A <cell> has its own table
 * (results/cell.h); every other object written through a table uses this one.  The
 * model may be a struct of another layer: INT, ARRAY and REF describe its
 * plain C (int members, arrays counted by an int, a pointer to a named
 * thing) without a copy made for the writer. */
#ifndef MP_RESULTS_TABLE_H
#define MP_RESULTS_TABLE_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* The kinds of value of a field, and the C type it has in the model. */
typedef enum {
    MP_RT_TEXT,         /* char[len] */
    MP_RT_STR,          /* const char * (NULL reads as "") */
    MP_RT_COUNT,        /* long long */
    MP_RT_NUMBER,       /* double */
    MP_RT_BOOL,         /* int, 0 or 1 */
    MP_RT_HEX,          /* unsigned long long, written as the string "0x..." */
    MP_RT_CHOICE,       /* int, written as names[value] */
    MP_RT_TEXT_LIST,    /* const char *[len], its length a size_t at count_off */
    MP_RT_COUNT_LIST,   /* long long[len], its length a size_t at count_off */
    MP_RT_OBJECT,       /* a struct at off, written through the row's sub table */
    MP_RT_OBJECT_LIST,  /* const T * at off, of size len, count at count_off, through sub */
    MP_RT_JSON,         /* const cJSON * at off: an object another writer made */
    MP_RT_INT,          /* int, written as a count */
    MP_RT_ARRAY,        /* T[] at off, len bytes apart, their number an int at count_off:
                           an array, each element the value of sub's one field (its off
                           within the element) */
    MP_RT_REF,          /* const T * at off: the value of sub's one field of *it (its off
                           within T); NULL: left out */
    MP_RT_KEYED_LIST,   /* const T * at off, of size len, count at count_off: an object with
                           a member per element, in order, named by the const char * that T
                           begins with, its value through sub */
} mp_rt_type;

/* When a field is left out or written as something else than its value. */
typedef enum {
    MP_RT_ALWAYS,
    MP_RT_OMIT_EMPTY,       /* TEXT or STR "", JSON NULL: left out */
    MP_RT_OMIT_ZERO,        /* COUNT, BOOL or HEX 0: left out */
    MP_RT_UNAVAILABLE_NAN,  /* NUMBER NaN: the string "unavailable" (the file was unreadable) */
    MP_RT_NULL_NAN,         /* NUMBER NaN: null */
    MP_RT_OMIT_NAN,         /* NUMBER NaN: left out */
    MP_RT_OMIT_NEGATIVE,    /* COUNT below 0 (what an absent COUNT reads as): left out */
} mp_rt_absent;

struct mp_rtable;

/* One field of an object, in the order results.json writes them. */
typedef struct mp_rtfield {
    const char *key;
    mp_rt_type type;
    mp_rt_absent absent;
    size_t off;                 /* the value in the model */
    size_t len;                 /* TEXT: its buffer; lists: capacity; OBJECT_LIST,
                                   KEYED_LIST, ARRAY: element size */
    size_t count_off;           /* lists: the size_t holding their length; ARRAY: the int */
    size_t when;                /* 0: always there; else 1 + the offset of an int that must
                                   be non-zero (MP_RT_WHEN) or zero (MP_RT_UNLESS) for it to be */
    int unless;
    const char *const *names;   /* CHOICE: the value's names */
    const struct mp_rtable *sub;   /* OBJECT, OBJECT_LIST, KEYED_LIST; ARRAY, REF: the
                                      value's one field */
    const char *unit;           /* "ns", "fds", ... or "" */
    const char *doc;            /* one line */
    int not_key;                /* config: no key column of the CSVs (run/out_csv.c): a list
                                   of the sweep, whose value each cell holds in its own
                                   fields, or no condition of the measurement; every other
                                   field of config is one, so that no option is left out */
} mp_rtfield;

typedef struct mp_rtable {
    const char *name;           /* the object's path in results.json ("context",
                                   "counters.events[]") */
    const mp_rtfield *fields;
    size_t nfields;
} mp_rtable;

#define MP_RT_WHEN(type, member) (1 + offsetof(type, member))

/* A field that an object holds: its row, and the OBJECT row whose object
 * it lies in, or NULL for a field of the object itself. */
typedef struct mp_rtheld {
    const mp_rtfield *field, *in;
} mp_rtheld;

/* The fields object o holds with a value of their row's kind (what
 * mp_rtable_read takes for a value: a string for TEXT, STR and HEX, one of
 * the names for CHOICE, a whole number the model can hold for COUNT, a number or
 * "unavailable" for NUMBER written MP_RT_UNAVAILABLE_NAN, a boolean, an
 * array for a list, anything but null for JSON), in o's order, an OBJECT
 * row's object as its own fields in its order: at most max into out, and
 * how many.  A key the table lacks is not listed. */
size_t mp_rtable_held(const mp_rtable *t, const cJSON *o, mp_rtheld *out, size_t max);

/* The object of rec (a model of table t), field by field. */
cJSON *mp_rtable_json(const mp_rtable *t, const void *rec);

/* The scalar fields and lists of object o into rec, unchecked: a field absent
 * or of another kind reads as "" (TEXT), NULL (STR, JSON), -1 (COUNT, INT,
 * CHOICE), NaN (NUMBER), 0 (BOOL, HEX), an empty list; STR, TEXT_LIST and
 * JSON point into o.  OBJECT reads its sub table into its struct;
 * OBJECT_LIST and KEYED_LIST are left to the caller (an OBJECT_LIST's
 * elements read with the row's sub table, all of them with
 * mp_rtable_read_lists; one list with mp_rtable_read_list); ARRAY and REF,
 * which describe a writer's own C, are not read. */
void mp_rtable_read(const mp_rtable *t, const cJSON *o, void *rec);
/* Each OBJECT_LIST field of t in o into an array of its own, every element
 * read through the row's sub table (zeroed first: a member the sub table
 * does not name reads as 0), its length at count_off; a field absent or
 * not an array reads as NULL, 0.  0, or -ENOMEM with every array freed. */
int mp_rtable_read_lists(const mp_rtable *t, const cJSON *o, void *rec);
/* The arrays mp_rtable_read_lists allocated, set back to NULL, 0. */
void mp_rtable_free_lists(const mp_rtable *t, void *rec);

/* The elements of v, the value of an OBJECT_LIST or KEYED_LIST field f, into
 * out (room for max elements of f->len bytes), each read with f->sub as
 * mp_rtable_read does and a KEYED_LIST element's key pointing into v;
 * members that are not objects are skipped.  Returns how many were read. */
size_t mp_rtable_read_list(const mp_rtfield *f, const cJSON *v, void *out, size_t max);

#endif
