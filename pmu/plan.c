/* plan.c - from a --events spec to a plan: presets chosen per PMU model from
 * the embedded data files (pmu/presets/), comma lists of events, the
 * always-on software group, the counting scope (user+kernel when allowed),
 * a probe of every event on this host (refusals recorded with the reason),
 * and the packing of what opened into passes that fit the counter budget.
 * Also the "counters" object of results.json. */
#include "pmu_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
static int file_preset(const char *s)
{
    preset_names_load();
    for (unsigned i = 0; i < nfile_presets; i++)
        if (!strcmp(s, preset_names[i]))
            return 1;
    return 0;
}

static const char *const software_group[] = {
    "task-clock", "context-switches", "cpu-migrations", "page-faults"};
#define SOFTWARE_GROUP_N (sizeof software_group / sizeof software_group[0])
/* Why every plan but "none" counts the software group (`events`, results.json). */
#define SOFTWARE_WHY "always counted, in pass 0 beside any hardware counter: they need no " \
    "PMU and tell whether the waiter slept (task-clock below the wall time, " \
    "context-switches), moved or faulted during the interval"

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

static char *trim(char *s)
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
            snprintf(out, n, "%s", trim(c + 1));
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
        char *s = trim(line), *tok, *save = NULL;
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
static unsigned choose_model(const char *libpfm_core)
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

static void file_header(mp_pmu_plan *pl, const char *text)
{
    char line[512];
    const char *p = text;
    while ((p = next_line(p, line, sizeof line))) {
        char *s = trim(line);
        if (!strncmp(s, "# source:", 9) && !pl->model_source[0]) {
            snprintf(pl->model_source, sizeof pl->model_source, "%s", trim(s + 9));
            /* Continuation lines: "#   more". */
            while (p && !strncmp(p, "#   ", 4)) {
                size_t have = strlen(pl->model_source);
                p = next_line(p, line, sizeof line);
                snprintf(pl->model_source + have, sizeof pl->model_source - have, " %s",
                         trim(line + 1));
            }
        }
        else if (!strncmp(s, "budget ", 7)) {
            const char *g = strstr(s, "general="), *f = strstr(s, "fixed=");
            if (g) pl->budget_general = (unsigned)strtoul(g + 8, NULL, 10);
            if (f) pl->budget_fixed = (unsigned)strtoul(f + 6, NULL, 10);
        }
    }
}

static int add_event(mp_pmu_plan *pl, const char *name, const char *spec,
                     const char *unavailable, mp_err *err);

/* Append the events of section [preset] of a preset file. */
static int add_preset(mp_pmu_plan *pl, const char *text, const char *preset, mp_err *err)
{
    char line[512], want[80];
    const char *p = text;
    int in = 0, found = 0, ln = 0;
    snprintf(want, sizeof want, "[%s]", preset);
    while ((p = next_line(p, line, sizeof line))) {
        char *s = trim(line), *name, *rest;
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
        rest = trim(rest);
        if (rest[0] == '-' && (rest[1] == '\0' || isspace((unsigned char)rest[1]))) {
            int r = add_event(pl, name, "-", trim(rest + 1), err);
            if (r) return r;
        } else {
            int r = add_event(pl, name, rest, NULL, err);
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

/* ---- events ------------------------------------------------------------ */

static int add_event(mp_pmu_plan *pl, const char *name, const char *spec,
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
        snprintf(toks[*n], 192, "%s", trim(buf));
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

/* ---- probing on this host --------------------------------------------- */

static int event_kernel(const mp__event *ev) { return !ev->attr.exclude_kernel; }

/* Software events the kernel raises from kernel context only. */
static int kernel_triggered(const mp__event *ev)
{
    return ev->attr.type == PERF_TYPE_SOFTWARE &&
           (ev->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
            ev->attr.config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

/* Software clocks: they add up the task's (or CPU's) run time, kernel
 * time included, whatever the privilege bits say. */
static int time_based(const mp__event *ev)
{
    return ev->attr.type == PERF_TYPE_SOFTWARE &&
           (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
            ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static void probe_event(mp_pmu_plan *pl, mp__event *ev)
{
    struct perf_event_attr a = ev->attr;
    int fd, cpu = -1;
    a.disabled = 1;
    if (ev->kind == MP__KIND_OTHER && mp_pmu_pmu_is_cpu_wide(NULL, ev->pmu)) {
        /* An uncore PMU counts the whole CPU, CCX or socket: only with the
         * privilege for that, never as a widened per-thread event. */
        ev->cpu_wide = 1;
        mp__cpu_wide_classify(ev);
        if (!ev->available) return;
        if (!mp_pmu_cpu_wide_allowed(&pl->host, ev->reason, sizeof ev->reason)) {
            ev->available = 0;
            return;
        }
        /* Probe on a CPU of the PMU, filtered to that CPU's core. */
        char why[sizeof ev->reason] = "";
        cpu = mp__pmu_first_cpu(ev->pmu);
        if (cpu < 0) snprintf(why, sizeof why, "PMU %s lists no CPU in its cpumask", ev->pmu);
        if (cpu < 0 || mp__cpu_wide_attr(ev, cpu, &a, why, sizeof why)) {
            memcpy(ev->reason, why, sizeof why);
            ev->available = 0;
            return;
        }
        a.disabled = 1;
    }
    fd = ev->cpu_wide ? mp__perf_open_cpu(&a, cpu, -1) : mp__perf_open(&a, -1);
    if (fd == -EINVAL && ev->kind == MP__KIND_OTHER && !ev->mod_u && !ev->mod_k &&
        (a.exclude_hv || a.exclude_kernel)) {
        /* Some PMUs (msr, uncore) cannot filter by privilege level: count
         * everything, if that is allowed, and say so. */
        a.exclude_hv = a.exclude_kernel = 0;
        fd = ev->cpu_wide ? mp__perf_open_cpu(&a, cpu, -1) : mp__perf_open(&a, -1);
        if (fd >= 0) {
            ev->attr.exclude_hv = ev->attr.exclude_kernel = 0;
            /* A copy of the PMU name: ev->pmu and ev->encoding share *ev. */
            size_t used = strlen(ev->encoding);
            char pmu[sizeof ev->pmu];
            memcpy(pmu, ev->pmu, sizeof pmu);
            snprintf(ev->encoding + used, sizeof ev->encoding - used,
                     " (PMU %s cannot filter by privilege level: user+kernel)", pmu);
        }
    }
    if (fd >= 0) {
        close(fd);
        if (ev->cpu_wide)
            snprintf(ev->access, sizeof ev->access, "read() of its own CPU-wide group on "
                     "the waiter's CPU, in a pass of its own");
        return;
    }
    ev->available = 0;
    mp_pmu_classify(-fd, &pl->host, ev->kind != MP__KIND_SOFTWARE, event_kernel(ev),
                    ev->reason, sizeof ev->reason);
}

/* Kernel counting allowed?  Try a software event with exclude_kernel=0. */
static void probe_scope(mp_pmu_plan *pl)
{
    struct perf_event_attr a;
    int fd;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.disabled = 1;
    a.exclude_hv = 1;
    fd = mp__perf_open(&a, -1);
    if (fd >= 0) {
        close(fd);
        pl->kernel = 1;
        snprintf(pl->scope_note, sizeof pl->scope_note, "user+kernel: kernel counting "
                 "allowed (perf_event_paranoid=%d%s)", pl->host.paranoid,
                 pl->host.cap_perfmon ? ", CAP_PERFMON or CAP_SYS_ADMIN held" : "");
        return;
    }
    pl->kernel = 0;
    snprintf(pl->scope_note, sizeof pl->scope_note, "USER-ONLY: kernel counting refused "
             "(perf_event_paranoid=%d, no CAP_PERFMON); select/poll/epoll work is almost "
             "all in the kernel, so these counts miss most of it. Fix: %s",
             pl->host.paranoid, MP_PMU_GRANT_HINT);
}

/* ---- packing into passes ---------------------------------------------- */

/* Put event i into pass pi, in the group of its PMU (same kind and type;
 * CPU-wide groups apart), or a new group; unavailable with why_full when the
 * pass has no group left. */
static void place_by_pmu(mp_pmu_plan *pl, unsigned pi, unsigned i, const char *why_full)
{
    mp__passdef *pd = &pl->pass[pi];
    mp__event *ev = &pl->ev[i];
    unsigned gi;
    for (gi = 0; gi < pd->ngroups; gi++) {
        const mp__event *lead = &pl->ev[pd->g[gi].ev[0]];
        if (pd->g[gi].kind == ev->kind && lead->attr.type == ev->attr.type &&
            pd->g[gi].cpu_wide == ev->cpu_wide && pd->g[gi].nev < MP_PMU_MAX_COUNTERS)
            break;
    }
    if (gi == pd->ngroups) {
        if (pd->ngroups >= MP_PMU_MAX_GROUPS) {
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "counter budget: more than %d %s",
                     MP_PMU_MAX_GROUPS, why_full);
            return;
        }
        pd->g[gi].kind = ev->kind;
        pd->g[gi].cpu_wide = ev->cpu_wide;
        pd->ngroups++;
    }
    ev->pass = (int)pi;
    ev->group = (int)gi;
    pd->g[gi].ev[pd->g[gi].nev++] = i;
}

/* CPU-wide events: a pass of their own after the others, one group per PMU,
 * opened on the measured thread's CPU and read with read().  They cannot
 * join a per-thread group, and a pass of their own keeps the per-thread
 * counts when they cannot open (an unpinned thread, privilege gone). */
static int pack_cpu_wide(mp_pmu_plan *pl)
{
    unsigned pi = pl->npasses;
    for (unsigned i = 0; i < pl->nev; i++) {
        mp__event *ev = &pl->ev[i];
        if (!ev->available || !ev->cpu_wide) continue;
        if (pi >= MP__MAX_PASSES) {
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "counter budget: no pass left for "
                     "CPU-wide events (at most %d passes)", MP__MAX_PASSES);
            continue;
        }
        place_by_pmu(pl, pi, i, "CPU-wide PMUs");
    }
    if (pi < MP__MAX_PASSES && pl->pass[pi].ngroups) pl->npasses = pi + 1;
    return 0;
}

int mp__plan_pack(mp_pmu_plan *pl, mp_err *err)
{
    unsigned general = pl->budget_general, fixed = pl->budget_fixed;
    mp__passdef *p0;
    if (pl->host.nmi_watchdog && general > 1) general--;
    if (general == 0) general = 1;
    snprintf(pl->budget_note, sizeof pl->budget_note, "%u general + %u fixed counters per "
             "pass (%s data file%s)", general, fixed, pl->model,
             pl->host.nmi_watchdog ? ", one general counter left to the NMI watchdog" : "");
    pl->npasses = 0;
    memset(pl->pass, 0, sizeof pl->pass);

    /* Pass 0: the software group, then other PMUs' groups (read() anyway). */
    p0 = &pl->pass[0];
    for (unsigned i = 0; i < pl->nev; i++)
        if (pl->ev[i].available && pl->ev[i].kind != MP__KIND_CORE && !pl->ev[i].cpu_wide)
            place_by_pmu(pl, 0, i, "software/other-PMU groups in one pass");
    if (p0->ngroups) pl->npasses = 1;

    /* Core events: one group per pass, within the budget. */
    for (;;) {
        unsigned used_g = 0, used_f = 0, placed = 0, pi = pl->npasses;
        mp__group *g;
        int pending = 0;
        for (unsigned i = 0; i < pl->nev; i++)
            if (pl->ev[i].available && pl->ev[i].kind == MP__KIND_CORE && pl->ev[i].pass < 0)
                pending = 1;
        if (!pending) break;
        if (pi >= MP__MAX_PASSES) {
            for (unsigned i = 0; i < pl->nev; i++)
                if (pl->ev[i].available && pl->ev[i].kind == MP__KIND_CORE &&
                    pl->ev[i].pass < 0) {
                    pl->ev[i].available = 0;
                    snprintf(pl->ev[i].reason, sizeof pl->ev[i].reason, "counter budget: "
                             "does not fit in %d passes of %u counters", MP__MAX_PASSES,
                             general + fixed);
                }
            break;
        }
        g = &pl->pass[pi].g[0];
        g->kind = MP__KIND_CORE;
        for (unsigned i = 0; i < pl->nev; i++) {
            mp__event *ev = &pl->ev[i];
            if (!ev->available || ev->kind != MP__KIND_CORE || ev->pass >= 0) continue;
            if (g->nev >= MP_PMU_MAX_COUNTERS) break;
            if (ev->fixed && used_f < fixed) used_f++;
            else if (used_g < general) used_g++;
            else continue;
            ev->pass = (int)pi;
            ev->group = 0;
            g->ev[g->nev++] = i;
            placed++;
        }
        if (!placed)
            return mp_errf(err, -EIO, "internal: could not place core events in a pass");
        pl->pass[pi].ngroups = 1;
        pl->npasses++;
    }
    return pack_cpu_wide(pl);
}

/* ---- does each core pass really schedule? ------------------------------ */

/* 0: the pass ran; 1: it opened but never ran; <0: it did not open. */
static int try_pass(mp_pmu_plan *pl, unsigned pi)
{
    mp_pmu_pass *p;
    mp_pmu_snap a, b;
    volatile unsigned long sink = 0;
    int r;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if ((r = mp_pmu_pass_open(&p, pl, pi, NULL))) return r;
    for (unsigned g = 0, i = 0; g < pl->pass[pi].ngroups; g++)
        for (unsigned k = 0; k < pl->pass[pi].g[g].nev; k++, i++)
            snprintf(pl->ev[pl->pass[pi].g[g].ev[k]].access, sizeof pl->ev[0].access, "%s",
                     mp_pmu_pass_access(p, i));
    r = mp_pmu_pass_read(p, &a);
    for (unsigned long i = 0; i < 20000 && !r; i++) sink += i;
    if (!r) r = mp_pmu_pass_read(p, &b);
    (void)sink;
    mp_pmu_pass_close(p);
    if (r) return r;
    for (unsigned g = 0; g < pl->pass[pi].ngroups; g++)
        if (b.enabled_ns[g] > a.enabled_ns[g] && b.running_ns[g] == a.running_ns[g]) return 1;
    return 0;
}

static int core_pass(const mp_pmu_plan *pl, unsigned pi)
{
    return pl->pass[pi].ngroups && pl->pass[pi].g[0].kind == MP__KIND_CORE;
}

/* A group larger than the free counters opens but never runs (or gives
 * EINVAL): shrink the budget and re-pack; at one counter, give up on the
 * pass's events and say why. */
static int verify_passes(mp_pmu_plan *pl, mp_err *err)
{
    unsigned file_budget = pl->budget_general;
    for (int attempt = 0; attempt < 16; attempt++) {
        int bad = -1, r = 0;
        for (unsigned pi = 0; pi < pl->npasses && bad < 0; pi++)
            if (core_pass(pl, pi) && (r = try_pass(pl, pi)) != 0) bad = (int)pi;
        if (bad < 0) {
            if (pl->budget_general < file_budget) {
                size_t l = strlen(pl->budget_note);
                snprintf(pl->budget_note + l, sizeof pl->budget_note - l, "; reduced from "
                         "%u: a larger group did not schedule", file_budget);
            }
            return 0;
        }
        if (pl->budget_general > 1 && pl->pass[bad].g[0].nev > 1) {
            pl->budget_general--;
        } else {
            const mp__group *g = &pl->pass[bad].g[0];
            for (unsigned k = 0; k < g->nev; k++) {
                mp__event *ev = &pl->ev[g->ev[k]];
                ev->available = 0;
                if (r == 1)
                    snprintf(ev->reason, sizeof ev->reason, "counter budget: the group "
                             "opened but never ran (time_running stayed 0): no free "
                             "counter (the NMI watchdog or another perf user holds them)");
                else
                    mp_pmu_classify(-r, &pl->host, 1, !ev->attr.exclude_kernel,
                                    ev->reason, sizeof ev->reason);
            }
        }
        for (unsigned i = 0; i < pl->nev; i++) pl->ev[i].pass = pl->ev[i].group = -1;
        if ((r = mp__plan_pack(pl, err))) return r;
    }
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
    model = choose_model(pl->libpfm_pmu);
    have_model = preset_file_count() > 0;
    if (have_model) {
        const char *fn = mp__preset_files[model].name;
        size_t l = strcspn(fn, ".");
        snprintf(pl->model, sizeof pl->model, "%.*s", (int)l, fn);
        file_header(pl, mp__preset_files[model].text);
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
        if (file_preset(tk)) {
            if (!have_model) {
                r = mp_errf(err, -EIO, "no preset data files are built in");
                goto fail;
            }
            if ((r = add_preset(pl, mp__preset_files[model].text, tk, err))) goto fail;
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
        if ((r = add_event(pl, tk, tk, NULL, err))) goto fail;
    }
    for (unsigned i = 0; i < SOFTWARE_GROUP_N; i++) {
        unsigned before = pl->nev;
        if ((r = add_event(pl, software_group[i], software_group[i], NULL, err))) goto fail;
        if (pl->nev > before && !sw_named) pl->sw_added |= 1u << i;
    }

    probe_scope(pl);
    for (unsigned i = 0; i < pl->nev; i++) {
        mp__event *ev = &pl->ev[i];
        if (!ev->spec[0] || !strcmp(ev->spec, "-")) continue;
        ev->attr.exclude_hv = 1;
        if (!pl->kernel && !ev->mod_k && !ev->mod_u) ev->attr.exclude_kernel = 1;
        if (ev->available && ev->attr.exclude_kernel && kernel_triggered(ev)) {
            /* Counted only where the kernel switches or migrates the task:
             * with exclude_kernel it would read 0 whatever happened. */
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "unavailable in user-only scope: the "
                     "kernel raises this software event in kernel context, so with kernel "
                     "counting refused (perf_event_paranoid=%d, no CAP_PERFMON) it would read "
                     "0 whatever happened; allow kernel counting to measure it",
                     pl->host.paranoid);
        }
        if (ev->available) probe_event(pl, ev);
    }
    if ((r = mp__plan_pack(pl, err))) goto fail;
    if ((r = verify_passes(pl, err))) goto fail;
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
unsigned mp_pmu_plan_events(const mp_pmu_plan *plan) { return plan ? plan->nev : 0; }

const char *mp_pmu_plan_scope(const mp_pmu_plan *plan)
{
    if (!plan || plan->npasses == 0) return "none";
    return plan->kernel ? "user+kernel" : "user";
}

const char *mp__event_scope(const mp__event *ev)
{
    if (time_based(ev)) return "user+kernel";
    if (ev->attr.exclude_kernel && ev->attr.exclude_user) return "none";
    if (ev->attr.exclude_kernel) return "user";
    if (ev->attr.exclude_user) return "kernel";
    return "user+kernel";
}

cJSON *mp_pmu_plan_json(const mp_pmu_plan *plan)
{
    cJSON *o = cJSON_CreateObject(), *arr, *b;
    char hex[32];
    cJSON_AddStringToObject(o, "spec", plan->spec);
    cJSON_AddStringToObject(o, "preset", plan->preset);
    cJSON_AddStringToObject(o, "scope", mp_pmu_plan_scope(plan));
    cJSON_AddStringToObject(o, "scope_note", plan->scope_note);
    cJSON_AddNumberToObject(o, "passes", plan->npasses);
    if (!strcmp(plan->preset, "none")) {
        cJSON_AddItemToObject(o, "events", cJSON_CreateArray());
        return o;
    }
    cJSON_AddStringToObject(o, "preset_file", plan->model);
    cJSON_AddStringToObject(o, "preset_source", plan->model_source);
    cJSON_AddStringToObject(o, "libpfm4_pmu", plan->libpfm_pmu[0] ? plan->libpfm_pmu : "none");
    b = cJSON_AddObjectToObject(o, "budget");
    cJSON_AddNumberToObject(b, "general", plan->budget_general);
    cJSON_AddNumberToObject(b, "fixed", plan->budget_fixed);
    cJSON_AddBoolToObject(b, "nmi_watchdog", plan->host.nmi_watchdog);
    cJSON_AddStringToObject(b, "note", plan->budget_note);
    arr = cJSON_AddArrayToObject(o, "software_added");
    for (unsigned i = 0; i < SOFTWARE_GROUP_N; i++)
        if (plan->sw_added & (1u << i))
            cJSON_AddItemToArray(arr, cJSON_CreateString(software_group[i]));
    cJSON_AddStringToObject(o, "software_why", SOFTWARE_WHY);
    arr = cJSON_AddArrayToObject(o, "events");
    for (unsigned i = 0; i < plan->nev; i++) {
        const mp__event *ev = &plan->ev[i];
        cJSON *e = cJSON_CreateObject();
        int encoded = strcmp(ev->spec, "-") != 0 && ev->encoding[0];
        cJSON_AddStringToObject(e, "name", ev->name);
        cJSON_AddStringToObject(e, "event", ev->spec);
        cJSON_AddStringToObject(e, "origin", ev->origin);
        if (encoded) {
            cJSON_AddStringToObject(e, "pmu", ev->pmu);
            cJSON_AddStringToObject(e, "encoding", ev->encoding);
            cJSON_AddNumberToObject(e, "type", ev->attr.type);
            snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)ev->attr.config);
            cJSON_AddStringToObject(e, "config", hex);
            if (ev->attr.config1) {
                snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)ev->attr.config1);
                cJSON_AddStringToObject(e, "config1", hex);
            }
            cJSON_AddBoolToObject(e, "exclude_user", ev->attr.exclude_user);
            cJSON_AddBoolToObject(e, "exclude_kernel", ev->attr.exclude_kernel);
            cJSON_AddBoolToObject(e, "exclude_hv", ev->attr.exclude_hv);
            cJSON_AddStringToObject(e, "scope", mp__event_scope(ev));
        }
        if (ev->cpu_wide) {
            cJSON_AddBoolToObject(e, "cpu_wide", 1);
            cJSON_AddStringToObject(e, "cpu_scope", ev->cpu_scope);
        }
        cJSON_AddStringToObject(e, "status", ev->available ? "opened" : "unavailable");
        if (ev->available) {
            cJSON_AddNumberToObject(e, "pass", ev->pass);
            cJSON_AddNumberToObject(e, "group", ev->group);
            if (ev->access[0])
                cJSON_AddStringToObject(e, "access", ev->access);
        } else {
            cJSON_AddStringToObject(e, "reason", ev->reason);
        }
        cJSON_AddItemToArray(arr, e);
    }
    return o;
}
