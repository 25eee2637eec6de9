/* SPDX-License-Identifier: MIT */
/* phases.c - the phase file (pmu/phases.txt): parse, and map a kernel
 * function name to its phase.  See phases.txt for the format. */
#include "profile.h"
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PHASES 16
#define NAME_MAX_BYTES 64


typedef struct pat {
    char *text;      /* without the '*' */
    size_t len;
    int prefix;
    int phase;       /* index or MP_PHASE_CALLER */
    int caller;      /* -1, or "helper@[phase]": applies when the caller is in that phase */
} pat;

struct mp_phases {
    char names[MAX_PHASES][NAME_MAX_BYTES];
    unsigned n;
    pat *pats;
    size_t npats, cap;
};

static int phase_index(mp_phases *p, const char *name, size_t len)
{
    for (unsigned i = 0; i < p->n; i++)
        if (strlen(p->names[i]) == len && !strncmp(p->names[i], name, len))
            return (int)i;
    if (p->n == MAX_PHASES || len >= NAME_MAX_BYTES)
        return -1;
    memcpy(p->names[p->n], name, len);
    p->names[p->n][len] = 0;
    return (int)p->n++;
}

int mp_phases_parse(mp_phases **out, const char *text, const char *origin, mp_err *err)
{
    mp_phases *p = calloc(1, sizeof *p);
    int cur = -100, lineno = 0, rc = 0;
    *out = NULL;
    if (!p)
        return mp_errf(err, -ENOMEM, "out of memory");
    for (const char *s = text; *s && rc == 0;) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        char line[512];
        lineno++;
        if (len >= sizeof line) {
            rc = mp_errf(err, MP_EUSAGE, "%s:%d: line longer than %zu characters", origin,
                         lineno, sizeof line - 1);
            break;
        }
        memcpy(line, s, len);
        line[len] = 0;
        s += len + (eol ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *t = line;
        while (isspace((unsigned char)*t))
            t++;
        if (!*t)
            continue;
        if (*t == '[') {
            char *end = strchr(t, ']');
            if (!end || end == t + 1) {
                rc = mp_errf(err, MP_EUSAGE, "%s:%d: a group is written [name]", origin,
                             lineno);
                break;
            }
            if (!strncmp(t + 1, "=caller", (size_t)(end - t - 1)) && end - t - 1 == 7) {
                cur = MP_PHASE_CALLER;
            } else {
                cur = phase_index(p, t + 1, (size_t)(end - t - 1));
                if (cur < 0) {
                    rc = mp_errf(err, MP_EUSAGE, "%s:%d: more than %d phases or a name "
                                 "longer than %d characters", origin, lineno, MAX_PHASES - 1,
                                 NAME_MAX_BYTES - 1);
                    break;
                }
            }
            continue;
        }
        if (cur == -100) {
            rc = mp_errf(err, MP_EUSAGE, "%s:%d: function names before the first [phase]",
                         origin, lineno);
            break;
        }
        for (char *save = NULL, *w = strtok_r(t, " \t\r", &save); w;
             w = strtok_r(NULL, " \t\r", &save)) {
            if (p->npats == p->cap) {
                size_t cap = p->cap ? p->cap * 2 : 128;
                pat *np = realloc(p->pats, cap * sizeof *np);
                if (!np) {
                    rc = mp_errf(err, -ENOMEM, "out of memory");
                    break;
                }
                p->pats = np;
                p->cap = cap;
            }
            pat *q = &p->pats[p->npats];
            q->caller = -1;
            char *at = strchr(w, '@');
            if (at) {
                size_t cl = strlen(at + 1);
                if (cl < 3 || at[1] != '[' || at[cl] != ']' || cur == MP_PHASE_CALLER) {
                    rc = mp_errf(err, MP_EUSAGE, "%s:%d: '%s': a caller qualifier is written "
                                 "helper@[phase], inside a phase group", origin, lineno, w);
                    break;
                }
                q->caller = phase_index(p, at + 2, cl - 2);
                if (q->caller < 0) {
                    rc = mp_errf(err, MP_EUSAGE, "%s:%d: too many phases", origin, lineno);
                    break;
                }
                *at = 0;
            }
            size_t wl = strlen(w);
            q->prefix = w[wl - 1] == '*';
            q->len = wl - (size_t)q->prefix;
            q->text = strndup(w, q->len);
            q->phase = cur;
            if (!q->text || (q->prefix && q->len == 0)) {
                free(q->text);
                rc = q->text ? mp_errf(err, MP_EUSAGE, "%s:%d: a lone '*' matches everything",
                                       origin, lineno)
                             : mp_errf(err, -ENOMEM, "out of memory");
                break;
            }
            p->npats++;
        }
    }
    if (rc == 0 && phase_index(p, "other", 5) < 0)
        rc = mp_errf(err, MP_EUSAGE, "%s: too many phases", origin);
    if (rc == 0) {
        /* "other" goes last whatever the file says. */
        int o = phase_index(p, "other", 5);
        if ((unsigned)o != p->n - 1) {
            char tmp[NAME_MAX_BYTES];
            memcpy(tmp, p->names[o], sizeof tmp);
            memmove(p->names[o], p->names[o + 1], sizeof p->names[0] * (p->n - 1 - (unsigned)o));
            memcpy(p->names[p->n - 1], tmp, sizeof tmp);
            for (size_t i = 0; i < p->npats; i++) {
                int *f[2] = {&p->pats[i].phase, &p->pats[i].caller};
                for (int j = 0; j < 2; j++)
                    if (*f[j] == o)
                        *f[j] = (int)p->n - 1;
                    else if (*f[j] > o)
                        *f[j] = *f[j] - 1;
            }
        }
    }
    if (rc < 0) {
        mp_phases_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

int mp_phases_builtin(mp_phases **out, mp_err *err)
{
    return mp_phases_parse(out, mp__phases_file[0].text, "pmu/phases.txt (built in)", err);
}

void mp_phases_free(mp_phases *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->npats; i++)
        free(p->pats[i].text);
    free(p->pats);
    free(p);
}

unsigned mp_phases_count(const mp_phases *p)
{
    return p->n;
}

const char *mp_phases_name(const mp_phases *p, unsigned i)
{
    return i < p->n ? p->names[i] : NULL;
}

static int match_in(const mp_phases *p, const char *function, int caller)
{
    /* Drop compiler clone suffixes: "finish_task_switch.isra.0". */
    size_t len = strcspn(function, ".");
    int best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < p->npats; i++) {
        const pat *q = &p->pats[i];
        if (q->caller != caller)
            continue;
        if (!q->prefix) {
            if (q->len == len && !strncmp(q->text, function, len))
                return q->phase;
        } else if (q->len <= len && q->len > best_len && !strncmp(q->text, function, q->len)) {
            best = q->phase;
            best_len = q->len;
        }
    }
    return best;
}

int mp_phases_match(const mp_phases *p, const char *function)
{
    return match_in(p, function, -1);
}

int mp_phases_match_under(const mp_phases *p, const char *helper, int caller_phase)
{
    if (caller_phase < 0)
        return -1;
    return match_in(p, helper, caller_phase);
}
