/* events.c - `muxprof events`: each event of a preset (or of an
 * --events list) with its encoding and whether it opened on this host, and
 * if not, why in words; --all shows every preset, the embedded preset data
 * files and the generic perf names.  Reads the plan's JSON description. */
#include "cmd/cmd.h"

#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "common/json.h"
#include "pmu.h"

static const char *str(const cJSON *o, const char *k)
{
    return mp_json_str(o, k, "");
}

static int show(const char *spec)
{
    mp_pmu_plan *plan;
    mp_err err;
    cJSON *j, *evs, *e;
    mp_err_clear(&err);
    if (mp_pmu_plan_new(&plan, spec, &err)) {
        fprintf(stderr, "muxprof events: %s\n", err.msg);
        return mp_exit_status(err.code);
    }
    j = mp_pmu_plan_json(plan);
    printf("--events %s: preset %s", spec, str(j, "preset"));
    if (*str(j, "preset_file"))
        printf(", data file %s (libpfm4 core PMU: %s)", str(j, "preset_file"),
               str(j, "libpfm4_pmu"));
    printf("\n  scope: %s -- %s\n", mp_pmu_plan_scope(plan), str(j, "scope_note"));
    if (*str(j, "preset_source")) printf("  source: %s\n", str(j, "preset_source"));
    {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "budget");
        if (b) printf("  budget: %s\n", str(b, "note"));
    }
    printf("  passes per cell: %u\n", mp_pmu_plan_passes(plan));
    for (unsigned pi = 0; pi < mp_pmu_plan_passes(plan); pi++) {
        mp_pmu_pass *p;
        if (mp_pmu_pass_open(&p, plan, pi, &err)) {
            printf("    pass %u: does not open now: %s\n", pi, err.msg);
            continue;
        }
        printf("    pass %u: %u counter%s, read path %s\n", pi, mp_pmu_pass_count(p),
               mp_pmu_pass_count(p) == 1 ? "" : "s", mp_pmu_pass_read_path(p));
        mp_pmu_pass_close(p);
    }
    evs = cJSON_GetObjectItemCaseSensitive(j, "events");
    if (cJSON_GetArraySize(evs))
        printf("  %-24s %-11s %-4s %-5s %-12s %-11s %s\n", "metric", "status", "pass", "type",
               "config", "scope", "encoding / reason");
    cJSON_ArrayForEach(e, evs) {
        const cJSON *pass = cJSON_GetObjectItemCaseSensitive(e, "pass");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");
        char ps[16] = "-", ts[16] = "-";
        int ok = !strcmp(str(e, "status"), "opened");
        if (cJSON_IsNumber(pass)) snprintf(ps, sizeof ps, "%d", pass->valueint);
        if (cJSON_IsNumber(type)) snprintf(ts, sizeof ts, "%d", type->valueint);
        printf("  %-24s %-11s %-4s %-5s %-12s %-11s %s\n", str(e, "name"), str(e, "status"),
               ps, ts, *str(e, "config") ? str(e, "config") : "-",
               *str(e, "scope") ? str(e, "scope") : "-",
               *str(e, "encoding") ? str(e, "encoding") : str(e, "event"));
        if (!ok) printf("  %-24s   why: %s\n", "", str(e, "reason"));
    }
    cJSON_Delete(j);
    mp_pmu_plan_free(plan);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: muxprof events [--all] [--events PRESET|LIST]\n\n"
        "Shows how a counter preset resolves on this host: every event with its\n"
        "encoding (perf type, config, scope), whether it opened, and why not.\n\n"
        "  --events SPEC  a preset (%s) or a comma\n"
        "                 list: perf names (L1-dcache-load-misses, cycles:u), libpfm4\n"
        "                 names (amd64_fam19h_zen4::L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS),\n"
        "                 sysfs pmu/event/ (msr/tsc/), raw rHEX.  Default: cache\n"
        "  --all          every preset, and the preset data files built in\n",
        mp_pmu_preset_list());
}

int mp_cmd_events(int argc, char **argv)
{
    const char *spec = NULL;
    int all = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--all")) {
            all = 1;
        } else if (!strcmp(argv[i], "--events") && i + 1 < argc) {
            spec = argv[++i];
        } else if (!strncmp(argv[i], "--events=", 9)) {
            spec = argv[i] + 9;
        } else {
            fprintf(stderr, "muxprof events: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!all) return show(spec ? spec : "cache");
    if (spec && (rc = show(spec))) return rc;
    for (unsigned i = 0; mp_pmu_preset_name(i); i++) {
        if (spec && !strcmp(spec, mp_pmu_preset_name(i))) continue;
        if (i || spec) printf("\n");
        if ((rc = show(mp_pmu_preset_name(i)))) return rc;
    }
    printf("\npreset data files built in (pmu/presets/; chosen by their 'match' line):\n");
    for (unsigned i = 0; i < mp_pmu_preset_file_count(); i++) {
        const char *t = mp_pmu_preset_file_text(i), *m = strstr(t, "\nmatch ");
        int l = m ? (int)strcspn(m + 1, "\n") : 0;
        printf("  %-22s %.*s\n", mp_pmu_preset_file_name(i), l, m ? m + 1 : "");
    }
    return 0;
}
