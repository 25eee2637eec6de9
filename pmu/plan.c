/* SPDX-License-Identifier: MIT */
/* plan.c - from a --events spec to a plan: the comma list split into presets
 * and events, and the always-on software group; then the probe with the
 * counting scope (plan_probe.c) and the packing into passes (plan_pack.c).
 * Presets: plan_preset.c; what the plan knows as plain C (results.json's "counters" object is
 * written from it by run/): plan_info.c. */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mp__software_group[MP__SOFTWARE_GROUP_N] = {
    "task-clock", "context-switches", "cpu-migrations", "page-faults"};

/* ---- events ------------------------------------------------------------ */

int mp__add_event(mp_pmu_plan *pl, const char *name, const char *spec,
                  const char *unavailable, mp_err *err)
{
    mp__event *ev;
    for (unsigned i = 0; i < pl->nev; i++)
        if (!strcmp(pl->ev[i].name, name)) {
            if (!strcmp(pl->ev[i].spec, spec)) return 0; /* same event twice: once */
            return mp_errf(err, MP_EUSAGE, "metric '%s' named twice (as %s and %s); name "
                           "each event once", name, pl->ev[i].spec, spec);
        }
    if (pl->nev >= MP__MAX_EVENTS)
        return mp_errf(err, MP_EUSAGE, "more than %d events; split the list over runs",
                       MP__MAX_EVENTS);
    ev = &pl->ev[pl->nev];
    memset(ev, 0, sizeof *ev);
    snprintf(ev->name, sizeof ev->name, "%s", name);
    if (unavailable) {
        snprintf(ev->spec, sizeof ev->spec, "-");
        snprintf(ev->origin, sizeof ev->origin, "preset");
        snprintf(ev->reason, sizeof ev->reason, "%s", unavailable);
        ev->available = 0;
        ev->pass = ev->group = -1;
        ev->kind = MP__KIND_CORE;
        pl->nev++;
        return 0;
    }
    {
        int r = mp__encode(ev, spec, err);
        if (r) return r;
    }
    pl->nev++;
    return 0;
}

/* Split spec at commas that are not inside a pmu/.../ term list. */
static int split_spec(const char *spec, char toks[][192], unsigned max, unsigned *n,
                      mp_err *err)
{
    const char *p = spec;
    *n = 0;
    while (*p) {
        char buf[192];
        size_t l = 0;
        int slashes = 0;
        while (*p && !(*p == ',' && slashes % 2 == 0)) {
            if (*p == '/') slashes++;
            if (l + 1 < sizeof buf) buf[l++] = *p;
            p++;
        }
        buf[l] = '\0';
        if (*p == ',') p++;
        if (*n >= max)
            return mp_errf(err, MP_EUSAGE, "--events: more than %u items", max);
        snprintf(toks[*n], 192, "%s", mp__trim(buf));
        if (!toks[*n][0])
            return mp_errf(err, MP_EUSAGE, "--events '%s': empty item in the list", spec);
        (*n)++;
    }
    if (*n == 0)
        return mp_errf(err, MP_EUSAGE, "--events: empty; give a preset (%s) or a comma "
                       "list of events", mp_pmu_preset_list());
    return 0;
}

static int is_preset(const char *s)
{
    for (unsigned i = 0; mp_pmu_preset_name(i); i++)
        if (!strcmp(s, mp_pmu_preset_name(i))) return 1;
    return 0;
}

/* ---- entry points ----------------------------------------------------- */

int mp_pmu_plan_new(mp_pmu_plan **out, const char *spec, mp_err *err)
{
    mp_pmu_plan *pl;
    char (*toks)[192];
    unsigned ntok = 0, model = 0;
    int r, none = 0, have_model = 0;

    *out = NULL;
    if (!spec) spec = "cache";
    pl = calloc(1, sizeof *pl);
    toks = calloc(MP__MAX_EVENTS, 192);
    if (!pl || !toks) {
        free(pl);
        free(toks);
        return mp_errf(err, -ENOMEM, "out of memory building the counter plan");
    }
    snprintf(pl->spec, sizeof pl->spec, "%s", spec);
    mp_pmu_host_probe(&pl->host);
    if ((r = split_spec(spec, toks, MP__MAX_EVENTS, &ntok, err))) goto fail;

    for (unsigned t = 0; t < ntok; t++)
        if (!strcmp(toks[t], "none")) none = 1;
    if (none) {
        if (ntok > 1) {
            r = mp_errf(err, MP_EUSAGE, "--events '%s': 'none' (no counters) cannot be "
                        "combined with other items", spec);
            goto fail;
        }
        snprintf(pl->preset, sizeof pl->preset, "none");
        snprintf(pl->scope_note, sizeof pl->scope_note, "no counters requested");
        free(toks);
        *out = pl;
        return 0;
    }
    snprintf(pl->preset, sizeof pl->preset, "%s",
             ntok == 1 && is_preset(toks[0]) ? toks[0] : "list");

    mp__pfm_init(NULL); /* failure shows up per libpfm4 event */
    mp_pmu_libpfm_core(pl->libpfm_pmu, sizeof pl->libpfm_pmu, NULL, NULL);
    model = mp__choose_model(pl->libpfm_pmu);
    have_model = mp_pmu_preset_file_count() > 0;
    if (have_model) {
        const char *fn = mp__preset_files[model].name;
        size_t l = strcspn(fn, ".");
        snprintf(pl->model, sizeof pl->model, "%.*s", (int)l, fn);
        mp__file_header(pl, mp__preset_files[model].text);
    }

    int sw_named = 0;   /* "software" given: the group is asked for, not added */
    for (unsigned t = 0; t < ntok; t++)
        for (unsigned u = 0; u < t; u++)
            if (!strcmp(toks[u], toks[t])) {
                r = mp_errf(err, MP_EUSAGE, "--events '%s': '%s' is given twice; name each "
                            "preset or event once", spec, toks[t]);
                goto fail;
            }
    for (unsigned t = 0; t < ntok; t++) {
        const char *tk = toks[t];
        if (!strcmp(tk, "software")) { /* added below in any case, as asked */
            sw_named = 1;
            continue;
        }
        if (mp__file_preset(tk)) {
            if (!have_model) {
                r = mp_errf(err, -EIO, "no preset data files are built in");
                goto fail;
            }
            if ((r = mp__add_preset(pl, mp__preset_files[model].text, tk, err))) goto fail;
            continue;
        }
        if (!strchr(tk, ':') && !strchr(tk, '/') && !strchr(tk, '-') &&
            islower((unsigned char)tk[0]) && !strchr(tk, '_')) {
            /* A bare lower-case word: a preset name or a generic event. */
            mp__event probe;
            mp_err e2;
            memset(&probe, 0, sizeof probe);
            if (mp__encode(&probe, tk, &e2)) {
                r = mp_errf(err, MP_EUSAGE, "--events: '%s' is neither a preset (%s) nor "
                            "a known event", tk, mp_pmu_preset_list());
                goto fail;
            }
        }
        if ((r = mp__add_event(pl, tk, tk, NULL, err))) goto fail;
    }
    for (unsigned i = 0; i < MP__SOFTWARE_GROUP_N; i++) {
        unsigned before = pl->nev;
        const char *sw = mp__software_group[i];
        if ((r = mp__add_event(pl, sw, sw, NULL, err))) goto fail;
        if (pl->nev > before && !sw_named) pl->sw_added |= 1u << i;
    }

    mp__probe(pl);
    if ((r = mp__plan_pack(pl, err))) goto fail;
    if ((r = mp__verify_passes(pl, err))) goto fail;
    free(toks);
    *out = pl;
    return 0;
fail:
    free(toks);
    free(pl);
    return r;
}

void mp_pmu_plan_free(mp_pmu_plan *plan) { free(plan); }
unsigned mp_pmu_plan_passes(const mp_pmu_plan *plan) { return plan ? plan->npasses : 0; }

const char *mp_pmu_plan_scope(const mp_pmu_plan *plan)
{
    if (!plan || plan->npasses == 0) return "none";
    return plan->kernel ? "user+kernel" : "user";
}
