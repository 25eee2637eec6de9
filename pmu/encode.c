/* SPDX-License-Identifier: MIT */
/* encode.c - turn one event string into a perf_event_attr: perf's generic
 * names (cycles, L1-dcache-load-misses, task-clock, ...), raw rHEX,
 * sysfs pmu/event/ and pmu/term=v,.../ syntax, and everything else through
 * libpfm4 (pfm_get_os_event_encoding).  Syntax errors are MP_EUSAGE; an
 * event this host cannot encode is marked unavailable with the reason. */
#include "internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#define SYSFS_PMUS_DEFAULT "/sys/bus/event_source/devices"
/* The PMU directory; MUXPROF_SYSFS_PMUS points the tests at a fake tree. */
const char *mp__sysfs_pmus(void)
{
    const char *e = getenv("MUXPROF_SYSFS_PMUS");
    return e && *e ? e : SYSFS_PMUS_DEFAULT;
}
#define SYSFS_PMUS "%s"

/* ---- generic perf names --------------------------------------------- */

static const struct { const char *name; uint32_t type; uint64_t config; } generic[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
};

static const struct { const char *name; unsigned id; } hwc_cache[] = {
    {"L1-dcache", PERF_COUNT_HW_CACHE_L1D}, {"L1-icache", PERF_COUNT_HW_CACHE_L1I},
    {"LLC", PERF_COUNT_HW_CACHE_LL}, {"dTLB", PERF_COUNT_HW_CACHE_DTLB},
    {"iTLB", PERF_COUNT_HW_CACHE_ITLB}, {"branch", PERF_COUNT_HW_CACHE_BPU},
    {"node", PERF_COUNT_HW_CACHE_NODE},
};
static const struct { const char *suffix; unsigned op, result; } hwc_op[] = {
    {"-loads", PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS},
    {"-load-misses", PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS},
    {"-stores", PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_ACCESS},
    {"-store-misses", PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_MISS},
    {"-prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_ACCESS},
    {"-prefetch-misses", PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_MISS},
};

static int generic_lookup(const char *name, uint32_t *type, uint64_t *config)
{
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (!strcmp(name, generic[i].name)) {
            *type = generic[i].type;
            *config = generic[i].config;
            return 1;
        }
    for (size_t i = 0; i < sizeof hwc_cache / sizeof hwc_cache[0]; i++) {
        size_t l = strlen(hwc_cache[i].name);
        if (strncmp(name, hwc_cache[i].name, l)) continue;
        for (size_t j = 0; j < sizeof hwc_op / sizeof hwc_op[0]; j++)
            if (!strcmp(name + l, hwc_op[j].suffix)) {
                *type = PERF_TYPE_HW_CACHE;
                *config = hwc_cache[i].id | (uint64_t)hwc_op[j].op << 8 |
                          (uint64_t)hwc_op[j].result << 16;
                return 1;
            }
    }
    return 0;
}

/* Split "name:mods" where mods is only u/k letters (perf's modifiers).
 * Returns 0, or MP_EUSAGE for an empty or unknown modifier. */
static int split_mods(char *s, int *u, int *k, mp_err *err, const char *orig)
{
    char *c = strrchr(s, ':');
    *u = *k = 0;
    if (!c) return 0;
    if (!c[1])
        return mp_errf(err, MP_EUSAGE, "event '%s': empty modifier after ':'; use :u "
                       "(user only), :k (kernel only) or :uk", orig);
    for (const char *m = c + 1; *m; m++) {
        if (*m == 'u') *u = 1;
        else if (*m == 'k') *k = 1;
        else
            return mp_errf(err, MP_EUSAGE, "event '%s': unknown modifier ':%s'; perf-style "
                           "names take :u, :k or :uk", orig, c + 1);
    }
    *c = '\0';
    return 0;
}

static void apply_mods(mp__event *ev, int u, int k)
{
    ev->mod_u = u;
    ev->mod_k = k;
    if (u && !k) ev->attr.exclude_kernel = 1;
    if (k && !u) ev->attr.exclude_user = 1;
}

/* ---- sysfs pmu/event/ ------------------------------------------------ */

int mp__read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return -errno;
    if (!fgets(buf, (int)n, f)) buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* Place value into attr per a format spec such as "config:0-7,21" or
 * "config1:0-63".  Returns 0, or -1 when the format cannot be parsed. */
int mp__put_bits(struct perf_event_attr *a, const char *fmt, uint64_t value)
{
    char field[16];
    const char *p = strchr(fmt, ':');
    uint64_t *dst;
    unsigned used = 0;
    if (!p || (size_t)(p - fmt) >= sizeof field) return -1;
    memcpy(field, fmt, (size_t)(p - fmt));
    field[p - fmt] = '\0';
    if (!strcmp(field, "config")) dst = (uint64_t *)&a->config;
    else if (!strcmp(field, "config1")) dst = (uint64_t *)&a->config1;
    else if (!strcmp(field, "config2")) dst = (uint64_t *)&a->config2;
    else return -1;
    p++;
    while (*p) {
        char *end;
        unsigned lo = (unsigned)strtoul(p, &end, 10), hi = lo;
        if (end == p) return -1;
        if (*end == '-') { p = end + 1; hi = (unsigned)strtoul(p, &end, 10); }
        if (hi < lo || hi > 63) return -1;
        for (unsigned b = lo; b <= hi; b++, used++)
            if (used < 64 && (value >> used) & 1) *dst |= (uint64_t)1 << b;
            else if (used < 64) *dst &= ~((uint64_t)1 << b);
        p = end;
        if (*p == ',') p++;
        else if (*p) return -1;
    }
    return 0;
}

/* Apply "term=value,term,..." of PMU pmu.  depth guards event aliases. */
static int sysfs_terms(mp__event *ev, const char *pmu, const char *terms, int depth,
                       mp_err *err)
{
    char buf[512], *save = NULL, *t;
    snprintf(buf, sizeof buf, "%s", terms);
    for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '='), path[512], fmt[256];
        uint64_t v = 1;
        while (isspace((unsigned char)*t)) t++;
        if (eq) {
            char *end;
            *eq = '\0';
            if (!strcmp(eq + 1, "?"))
                return mp_errf(err, MP_EUSAGE, "event '%s': term %s of %s needs a value "
                               "(the sysfs alias has '?')", ev->spec, t, pmu);
            errno = 0;
            v = strtoull(eq + 1, &end, 0);
            if (errno || end == eq + 1 || *end)
                return mp_errf(err, MP_EUSAGE, "event '%s': term %s=%s is not a number",
                               ev->spec, t, eq + 1);
        }
        if (!strcmp(t, "config") || !strcmp(t, "config1") || !strcmp(t, "config2")) {
            if (!eq) return mp_errf(err, MP_EUSAGE, "event '%s': %s needs =value", ev->spec, t);
            if (!strcmp(t, "config")) ev->attr.config = v;
            else if (!strcmp(t, "config1")) ev->attr.config1 = v;
            else ev->attr.config2 = v;
            continue;
        }
        snprintf(path, sizeof path, SYSFS_PMUS "/%s/format/%s", mp__sysfs_pmus(), pmu, t);
        if (mp__read_line(path, fmt, sizeof fmt) == 0) {
            if (mp__put_bits(&ev->attr, fmt, v))
                return mp_errf(err, -EIO, "event '%s': cannot parse %s ('%s')", ev->spec,
                               path, fmt);
            continue;
        }
        if (!eq && depth == 0) {
            char alias[256];
            snprintf(path, sizeof path, SYSFS_PMUS "/%s/events/%s", mp__sysfs_pmus(), pmu, t);
            if (mp__read_line(path, alias, sizeof alias) == 0) {
                int r = sysfs_terms(ev, pmu, alias, 1, err);
                if (r) return r;
                snprintf(ev->encoding, sizeof ev->encoding, "%s/%s/ = %s", pmu, t, alias);
                continue;
            }
        }
        ev->available = 0;
        snprintf(ev->reason, sizeof ev->reason, "PMU %s has no event or format term '%s' "
                 "(see %s/%s/events and format)", pmu, t, mp__sysfs_pmus(), pmu);
        return 0;
    }
    return 0;
}

/* The first PMU in sysfs whose name starts with prefix (sorted by name). */
static int first_pmu_with_prefix(const char *prefix, char *out, size_t n)
{
    DIR *d = opendir(mp__sysfs_pmus());
    struct dirent *e;
    size_t k = strlen(prefix);
    out[0] = '\0';
    if (!d) return 0;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, prefix, k) && (!out[0] || strcmp(e->d_name, out) < 0) &&
            strlen(e->d_name) < n)
            snprintf(out, n, "%s", e->d_name);
    closedir(d);
    return out[0] != '\0';
}

/* Names of the Arm common events the presets use, for the encoding text. */
static const char *arm_common_name(uint64_t id)
{
    static const struct { unsigned id; const char *name; } t[] = {
        {0x03, "L1D_CACHE_REFILL"}, {0x05, "L1D_TLB_REFILL"}, {0x08, "INST_RETIRED"},
        {0x11, "CPU_CYCLES"}, {0x16, "L2D_CACHE"}, {0x17, "L2D_CACHE_REFILL"},
        {0x2d, "L2D_TLB_REFILL"}, {0x34, "DTLB_WALK"}, {0x36, "LL_CACHE_RD"},
        {0x37, "LL_CACHE_MISS_RD"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].id == id) return t[i].name;
    return "common event";
}

/* An architected (common) event of an Arm PMU: say so, and check it against
 * the PMU's common-event bitmap (PMCEID0/1), which the kernel exposes as the
 * files of .../events/ ("event=0x0003"): an event it does not list is not
 * implemented by this core (or this emulator). */
static void arm_common_event(mp__event *ev, const char *pmu)
{
    uint64_t id = ev->attr.config & 0xffff;
    char dir[512], path[800], line[64];
    int listed = 0;
    if (!(id < 0x40 || (id >= 0x4000 && id < 0x4040))) return;
    size_t l = strlen(ev->encoding);
    snprintf(ev->encoding + l, sizeof ev->encoding - l, " (architected ARMv8 common event "
             "0x%02llx %s, not a model-specific table)", (unsigned long long)id,
             arm_common_name(id));
    snprintf(dir, sizeof dir, SYSFS_PMUS "/%s/events", mp__sysfs_pmus(), pmu);
    DIR *d = opendir(dir);
    if (!d) return;   /* no list to check against: the open decides */
    struct dirent *e;
    while (!listed && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        const char *v;
        if (mp__read_line(path, line, sizeof line) == 0 && (v = strstr(line, "event=")) &&
            strtoull(v + 6, NULL, 0) == id)
            listed = 1;
    }
    closedir(d);
    if (!listed) {
        ev->available = 0;
        snprintf(ev->reason, sizeof ev->reason, "the %s PMU does not implement common event "
                 "0x%02llx %s: not in its PMCEID0/1 bitmap (%s lists what it has)", pmu,
                 (unsigned long long)id, arm_common_name(id), dir);
    }
}

static int encode_sysfs(mp__event *ev, char *s, mp_err *err)
{
    char *slash = strchr(s, '/'), *last = strrchr(s, '/'), path[512], line[64];
    int u = 0, k = 0;
    const char *mods;
    if (slash == last || slash == s)
        return mp_errf(err, MP_EUSAGE, "event '%s': sysfs events are written pmu/event/ "
                       "or pmu/term=value,.../ (e.g. msr/tsc/)", ev->spec);
    *slash = '\0';
    *last = '\0';
    mods = last + 1;
    if (*mods == ':') mods++;
    for (const char *m = mods; *m; m++) {
        if (*m == 'u') u = 1;
        else if (*m == 'k') k = 1;
        else
            return mp_errf(err, MP_EUSAGE, "event '%s': unknown modifier '%s' after the "
                           "last '/'; use u, k or uk", ev->spec, mods);
    }
    if (!slash[1])
        return mp_errf(err, MP_EUSAGE, "event '%s': no event between the slashes", ev->spec);
    snprintf(ev->pmu, sizeof ev->pmu, "%s", s);
    snprintf(ev->origin, sizeof ev->origin, "sysfs");
    snprintf(ev->encoding, sizeof ev->encoding, "%s/%s/", s, slash + 1);
    ev->attr.size = sizeof ev->attr;
    if (s[strlen(s) - 1] == '*') {   /* "armv8_pmuv3*": the first PMU named so */
        char found[64];
        s[strlen(s) - 1] = '\0';
        if (!first_pmu_with_prefix(s, found, sizeof found)) {
            ev->available = 0;
            snprintf(ev->reason, sizeof ev->reason, "no PMU named %s* on this host (not in "
                     "%s)", s, mp__sysfs_pmus());
            return 0;
        }
        snprintf(ev->pmu, sizeof ev->pmu, "%s", found);
        s = ev->pmu;
    }
    snprintf(path, sizeof path, SYSFS_PMUS "/%s/type", mp__sysfs_pmus(), s);
    if (mp__read_line(path, line, sizeof line) != 0) {
        ev->available = 0;
        snprintf(ev->reason, sizeof ev->reason, "no PMU named '%s' on this host (not in "
                 "%s)", s, mp__sysfs_pmus());
        return 0;
    }
    ev->attr.type = (uint32_t)strtoul(line, NULL, 10);
    {
        int r = sysfs_terms(ev, s, slash + 1, 0, err);
        if (r) return r;
    }
    if (ev->attr.type == PERF_TYPE_SOFTWARE) ev->kind = MP__KIND_SOFTWARE;
    else if (!strcmp(s, "cpu") || !strcmp(s, "cpu_core") || !strcmp(s, "cpu_atom") ||
             !strncmp(s, "armv8_", 6) || !strncmp(s, "armv9_", 6))
        ev->kind = MP__KIND_CORE;
    else ev->kind = MP__KIND_OTHER;
    if (ev->available && (!strncmp(s, "armv8_", 6) || !strncmp(s, "armv9_", 6)))
        arm_common_event(ev, s);
    apply_mods(ev, u, k);
    return 0;
}

/* ---- libpfm4 --------------------------------------------------------- */

static int pfm_state; /* 0 not tried, 1 ok, <0 failed */

int mp__pfm_init(mp_err *err)
{
    if (pfm_state == 0) {
        int r = pfm_initialize();
        pfm_state = r == PFM_SUCCESS ? 1 : -1;
        if (r != PFM_SUCCESS)
            return mp_errf(err, -EIO, "libpfm4 did not initialise: %s", pfm_strerror(r));
    }
    return pfm_state == 1 ? 0 : mp_errf(err, -EIO, "libpfm4 did not initialise");
}

int mp_pmu_libpfm_core(char *name, size_t n, unsigned *general, unsigned *fixed)
{
    int i;
    if (mp__pfm_init(NULL)) return -ENOENT;
    pfm_for_all_pmus(i) {
        pfm_pmu_info_t info;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_pmu_info(i, &info) != PFM_SUCCESS || !info.is_present) continue;
        if (info.type != PFM_PMU_TYPE_CORE) continue;
        snprintf(name, n, "%s", info.name);
        if (general) *general = (unsigned)info.num_cntrs;
        if (fixed) *fixed = (unsigned)info.num_fixed_cntrs;
        return 0;
    }
    return -ENOENT;
}

/* Is PMU prefix known to this libpfm4 build; is it present? */
static int pfm_pmu_lookup(const char *prefix, int *present, int *core)
{
    int i;
    pfm_for_all_pmus(i) {
        pfm_pmu_info_t info;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_pmu_info(i, &info) != PFM_SUCCESS) continue;
        if (!strcmp(info.name, prefix)) {
            *present = info.is_present;
            *core = info.type == PFM_PMU_TYPE_CORE;
            return 1;
        }
    }
    return 0;
}

static int encode_pfm(mp__event *ev, const char *s, mp_err *err)
{
    pfm_perf_encode_arg_t arg;
    pfm_event_info_t einfo;
    pfm_pmu_info_t pinfo;
    char *fstr = NULL, prefix[64] = "";
    const char *dc = strstr(s, "::");
    int r, present = 0, core = 0;

    if (mp__pfm_init(err)) {
        ev->available = 0;
        snprintf(ev->reason, sizeof ev->reason, "%s", err ? err->msg : "libpfm4 failed");
        mp_err_clear(err);
        return 0;
    }
    if (dc && (size_t)(dc - s) < sizeof prefix) {
        memcpy(prefix, s, (size_t)(dc - s));
        prefix[dc - s] = '\0';
    }
    memset(&arg, 0, sizeof arg);
    arg.attr = &ev->attr;
    arg.size = sizeof arg;
    arg.fstr = &fstr;
    r = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
    snprintf(ev->origin, sizeof ev->origin, "libpfm4");
    if (r != PFM_SUCCESS) {
        if (r == PFM_ERR_NOTFOUND && prefix[0]) {
            int known = pfm_pmu_lookup(prefix, &present, &core);
            if (!known || !present) {
                char host[64] = "none";
                mp_pmu_libpfm_core(host, sizeof host, NULL, NULL);
                ev->available = 0;
                snprintf(ev->pmu, sizeof ev->pmu, "%s", prefix);
                snprintf(ev->reason, sizeof ev->reason, "PMU %s is %s; libpfm4 detects "
                         "this host's CPU PMU as %s", prefix,
                         known ? "known to libpfm4 but not this host's"
                               : "not in this libpfm4 build (another architecture or a "
                                 "newer model)", host);
                return 0;
            }
        }
        if (r == PFM_ERR_NOTFOUND)
            return mp_errf(err, MP_EUSAGE, "unknown event '%s': not a perf generic name, "
                           "not pmu/event/ syntax, and libpfm4 finds it in no PMU of this "
                           "host (a vendor event of another CPU needs its pmu:: prefix, e.g. skl::L2_RQSTS:MISS); see 'muxprof events --all'", ev->spec);
        return mp_errf(err, MP_EUSAGE, "event '%s': libpfm4 says: %s", ev->spec,
                       pfm_strerror(r));
    }
    snprintf(ev->encoding, sizeof ev->encoding, "%s", fstr ? fstr : s);
    free(fstr);
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    memset(&pinfo, 0, sizeof pinfo);
    pinfo.size = sizeof pinfo;
    if (pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT_EXT, &einfo) == PFM_SUCCESS &&
        pfm_get_pmu_info(einfo.pmu, &pinfo) == PFM_SUCCESS) {
        snprintf(ev->pmu, sizeof ev->pmu, "%s", pinfo.name);
        core = pinfo.type == PFM_PMU_TYPE_CORE;
    }
    ev->attr.size = sizeof ev->attr;
    if (ev->attr.type == PERF_TYPE_SOFTWARE) ev->kind = MP__KIND_SOFTWARE;
    else if (core || ev->attr.type == PERF_TYPE_HARDWARE ||
             ev->attr.type == PERF_TYPE_HW_CACHE || ev->attr.type == PERF_TYPE_RAW)
        ev->kind = MP__KIND_CORE;
    else ev->kind = MP__KIND_OTHER;
    ev->mod_u = ev->attr.exclude_kernel && !ev->attr.exclude_user;
    ev->mod_k = ev->attr.exclude_user && !ev->attr.exclude_kernel;
    return 0;
}

/* ---- entry ------------------------------------------------------------ */

static int valid_chars(const char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_-.:/=,@*", *s)) return 0;
    return 1;
}

int mp__encode(mp__event *ev, const char *spec, mp_err *err)
{
    char s[192];
    int u, k, r;
    uint32_t type;
    uint64_t config;

    memset(&ev->attr, 0, sizeof ev->attr);
    ev->attr.size = sizeof ev->attr;
    ev->available = 1;
    ev->reason[0] = '\0';
    ev->pass = ev->group = -1;
    snprintf(ev->spec, sizeof ev->spec, "%s", spec);
    if (!*spec || strlen(spec) >= sizeof s)
        return mp_errf(err, MP_EUSAGE, "event '%s': empty or longer than %zu characters",
                       spec, sizeof s - 1);
    if (!valid_chars(spec))
        return mp_errf(err, MP_EUSAGE, "event '%s': unexpected character; events are "
                       "perf names (cycles:u), libpfm4 names (pmu::EVENT:UMASK) or "
                       "pmu/event/", spec);
    snprintf(s, sizeof s, "%s", spec);
    if (strchr(s, '/')) return encode_sysfs(ev, s, err);

    if (!strstr(s, "::")) {
        char g[192];
        snprintf(g, sizeof g, "%s", s);
        if ((r = split_mods(g, &u, &k, NULL, spec)) == 0 && generic_lookup(g, &type, &config)) {
            ev->attr.type = type;
            ev->attr.config = config;
            ev->kind = type == PERF_TYPE_SOFTWARE ? MP__KIND_SOFTWARE : MP__KIND_CORE;
            ev->fixed = type == PERF_TYPE_HARDWARE &&
                        (config == PERF_COUNT_HW_CPU_CYCLES ||
                         config == PERF_COUNT_HW_INSTRUCTIONS ||
                         config == PERF_COUNT_HW_REF_CPU_CYCLES);
            snprintf(ev->origin, sizeof ev->origin, "generic");
            snprintf(ev->pmu, sizeof ev->pmu, "%s",
                     type == PERF_TYPE_SOFTWARE ? "software" : "cpu");
            snprintf(ev->encoding, sizeof ev->encoding, "%s", g);
            apply_mods(ev, u, k);
            return 0;
        }
        /* perf's raw syntax: rHEX[:mods] */
        if (s[0] == 'r' && s[1] && r == 0) {
            char *end;
            errno = 0;
            config = strtoull(g + 1, &end, 16);
            if (!errno && end != g + 1 && !*end) {
                ev->attr.type = PERF_TYPE_RAW;
                ev->attr.config = config;
                ev->kind = MP__KIND_CORE;
                snprintf(ev->origin, sizeof ev->origin, "raw");
                snprintf(ev->pmu, sizeof ev->pmu, "cpu");
                snprintf(ev->encoding, sizeof ev->encoding, "raw 0x%llx",
                         (unsigned long long)config);
                apply_mods(ev, u, k);
                return 0;
            }
        }
    }
    return encode_pfm(ev, s, err);
}
