/* SPDX-License-Identifier: MIT */
/* plan_preset.c - the preset catalogue and the preset data files (pmu/presets/,
 * embedded): the preset names, the data file chosen for this host's PMU model,
 * its header (source, counter budget) and the events of one [preset] section. */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many preset data files are built in. */
static unsigned preset_file_count(void)
{
    unsigned n = 0;
    while (mp__preset_files[n].name)
        n++;
    return n;
}

/* The preset names are the [sections] of the preset data files, in order of
 * first appearance, then the two built in: "software" and "none". */
#define MAX_PRESETS 16
static char preset_names[MAX_PRESETS][32];
static unsigned npreset_names, nfile_presets;

static void preset_names_load(void)
{
    if (npreset_names)
        return;
    for (unsigned f = 0; f < preset_file_count(); f++)
        for (const char *p = mp__preset_files[f].text; p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
            char name[32];
            if (sscanf(p, "[%31[a-z0-9_-]]", name) != 1)
                continue;
            unsigned i = 0;
            while (i < npreset_names && strcmp(preset_names[i], name))
                i++;
            if (i == npreset_names && npreset_names < MAX_PRESETS - 2)
                snprintf(preset_names[npreset_names++], sizeof preset_names[0], "%s", name);
        }
    nfile_presets = npreset_names;
    snprintf(preset_names[npreset_names++], sizeof preset_names[0], "software");
    snprintf(preset_names[npreset_names++], sizeof preset_names[0], "none");
}

const char *mp_pmu_preset_name(unsigned i)
{
    preset_names_load();
    return i < npreset_names ? preset_names[i] : NULL;
}

const char *mp_pmu_preset_list(void)
{
    static char buf[MAX_PRESETS * 34];
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; mp_pmu_preset_name(i) && o < sizeof buf; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "",
                              mp_pmu_preset_name(i));
    return buf;
}

/* A preset defined by the data files (not "software" or "none"). */
int mp__file_preset(const char *s)
{
    preset_names_load();
    for (unsigned i = 0; i < nfile_presets; i++)
        if (!strcmp(s, preset_names[i]))
            return 1;
    return 0;
}

unsigned mp_pmu_preset_file_count(void) { return preset_file_count(); }
const char *mp_pmu_preset_file_name(unsigned i)
{
    return i < preset_file_count() ? mp__preset_files[i].name : NULL;
}
const char *mp_pmu_preset_file_text(unsigned i)
{
    return i < preset_file_count() ? mp__preset_files[i].text : NULL;
}

/* ---- preset data files ------------------------------------------------ */

/* Copy line number ln (1-based) of text into buf; returns the next line or NULL. */
static const char *next_line(const char *p, char *buf, size_t n)
{
    size_t l;
    if (!*p) return NULL;
    l = strcspn(p, "\n");
    snprintf(buf, n, "%.*s", (int)(l < n ? l : n - 1), p);
    return p[l] ? p + l + 1 : p + l;
}

char *mp__trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s)) s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

static int cpuinfo_field(const char *key, char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    size_t kl = strlen(key);
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, key, kl) && (line[kl] == ' ' || line[kl] == '\t' || line[kl] == ':')) {
            char *c = strchr(line, ':');
            if (!c) continue;
            snprintf(out, n, "%s", mp__trim(c + 1));
            fclose(f);
            return 1;
        }
    }
    fclose(f);
    return 0;
}

/* Does a preset file's "match" line fit this host?  2: exact, 1: "any". */
static int file_matches(const char *text, const char *libpfm_core)
{
    char line[512];
    const char *p = text;
    while ((p = next_line(p, line, sizeof line))) {
        char *s = mp__trim(line), *tok, *save = NULL;
        if (strncmp(s, "match ", 6)) continue;
        s += 6;
        tok = strtok_r(s, " \t", &save);
        if (!tok) return 0;
        if (!strcmp(tok, "any")) return 1;
        if (!strcmp(tok, "libpfm")) {
            while ((tok = strtok_r(NULL, " \t", &save)))
                if (libpfm_core[0] && !strcmp(tok, libpfm_core)) return 2;
            return 0;
        }
        if (!strcmp(tok, "cpu")) {
            char vendor[64] = "", fam[32] = "";
            const char *v = strtok_r(NULL, " \t", &save), *f = strtok_r(NULL, " \t", &save);
            if (getenv("LIBPFM_FORCE_PMU")) return 0; /* a forced model wins */
            if (!v || !f || !cpuinfo_field("vendor_id", vendor, sizeof vendor) ||
                !cpuinfo_field("cpu family", fam, sizeof fam))
                return 0;
            return !strcmp(v, vendor) && strtol(f, NULL, 0) == strtol(fam, NULL, 10) ? 2 : 0;
        }
        if (!strcmp(tok, "arm-any")) {   /* an Arm core no other file matched */
            char impl[32];
            return !getenv("LIBPFM_FORCE_PMU") &&
                   cpuinfo_field("CPU implementer", impl, sizeof impl);
        }
        if (!strcmp(tok, "arm-part")) {
            char part[32] = "";
            if (getenv("LIBPFM_FORCE_PMU") || !cpuinfo_field("CPU part", part, sizeof part))
                return 0;
            while ((tok = strtok_r(NULL, " \t", &save)))
                if (strtol(tok, NULL, 0) == strtol(part, NULL, 0)) return 2;
            return 0;
        }
        return 0;
    }
    return 0;
}

/* Pick the preset file for this host; returns its index. */
unsigned mp__choose_model(const char *libpfm_core)
{
    unsigned any = 0;
    int have_any = 0;
    for (unsigned i = 0; i < preset_file_count(); i++) {
        int m = file_matches(mp__preset_files[i].text, libpfm_core);
        if (m == 2) return i;
        if (m == 1 && !have_any) { any = i; have_any = 1; }
    }
    return any;
}

void mp__file_header(mp_pmu_plan *pl, const char *text)
{
    char line[512];
    const char *p = text;
    while ((p = next_line(p, line, sizeof line))) {
        char *s = mp__trim(line);
        if (!strncmp(s, "# source:", 9) && !pl->model_source[0]) {
            snprintf(pl->model_source, sizeof pl->model_source, "%s", mp__trim(s + 9));
            /* Continuation lines: "#   more". */
            while (p && !strncmp(p, "#   ", 4)) {
                size_t have = strlen(pl->model_source);
                p = next_line(p, line, sizeof line);
                snprintf(pl->model_source + have, sizeof pl->model_source - have, " %s",
                         mp__trim(line + 1));
            }
        }
        else if (!strncmp(s, "budget ", 7)) {
            const char *g = strstr(s, "general="), *f = strstr(s, "fixed=");
            if (g) pl->budget_general = (unsigned)strtoul(g + 8, NULL, 10);
            if (f) pl->budget_fixed = (unsigned)strtoul(f + 6, NULL, 10);
        }
    }
}

/* Append the events of section [preset] of a preset file. */
int mp__add_preset(mp_pmu_plan *pl, const char *text, const char *preset, mp_err *err)
{
    char line[512], want[80];
    const char *p = text;
    int in = 0, found = 0, ln = 0;
    snprintf(want, sizeof want, "[%s]", preset);
    while ((p = next_line(p, line, sizeof line))) {
        char *s = mp__trim(line), *name, *rest;
        ln++;
        if (!*s || *s == '#') continue;
        if (*s == '[') {
            in = !strcmp(s, want);
            found |= in;
            continue;
        }
        if (!in) continue;
        name = s;
        rest = s + strcspn(s, " \t");
        if (!*rest)
            return mp_errf(err, -EIO, "preset file %s line %d: '%s' has no event; lines "
                           "are 'metric event' or 'metric - reason'", pl->model, ln, s);
        *rest++ = '\0';
        rest = mp__trim(rest);
        if (rest[0] == '-' && (rest[1] == '\0' || isspace((unsigned char)rest[1]))) {
            int r = mp__add_event(pl, name, "-", mp__trim(rest + 1), err);
            if (r) return r;
        } else {
            int r = mp__add_event(pl, name, rest, NULL, err);
            if (r) {
                char m[MP_ERR_MAX];
                snprintf(m, sizeof m, "%s", err ? err->msg : "");
                return mp_errf(err, r, "preset file %s line %d: %s", pl->model, ln, m);
            }
        }
    }
    if (!found)
        return mp_errf(err, MP_EUSAGE, "preset '%s' has no section in %s", preset, pl->model);
    return 0;
}
