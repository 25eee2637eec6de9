/* SPDX-License-Identifier: MIT */
/* events.c - `muxprof events`: each event of a preset (or of an
 * --events list) with its encoding and whether it opened on this host, and
 * if not, why in words; --all shows every preset, the embedded preset data
 * files and the generic perf names.  Reads the plan's JSON description. */
#include "cmd/cmd.h"
#include "cmd/internal.h"
#include "cmd/opt.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "common/json.h"
#include "pmu/pmu.h"
#include "run/results.h"

static const char *str(const cJSON *o, const char *k)
{
    return mp_json_str(o, k, "");
}

/* Whether each pass of the plan opens now, added to the plan's JSON.  The
 * check runs pinned to the CPU it is on, as the run's waiter is pinned: a
 * CPU-wide pass opens only on the CPU of a pinned thread. */
static void add_pass_status(cJSON *j, const mp_pmu_plan *plan)
{
    cJSON *arr = cJSON_AddArrayToObject(j, "pass_status");
    cpu_set_t was, one;
    int cpu = sched_getcpu(), pinned = 0;
    if (cpu >= 0 && sched_getaffinity(0, sizeof was, &was) == 0) {
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        pinned = sched_setaffinity(0, sizeof one, &one) == 0;
    }
    for (unsigned pi = 0; pi < mp_pmu_plan_passes(plan); pi++) {
        mp_pmu_pass *p;
        mp_err err;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "pass", pi);
        if (mp_pmu_pass_open(&p, plan, pi, &err)) {
            cJSON_AddBoolToObject(o, "opens", 0);
            cJSON_AddStringToObject(o, "reason", err.msg);
        } else {
            cJSON_AddBoolToObject(o, "opens", 1);
            cJSON_AddNumberToObject(o, "counters", mp_pmu_pass_count(p));
            cJSON_AddStringToObject(o, "read_path", mp_pmu_pass_read_path(p));
            mp_pmu_pass_close(p);
        }
        cJSON_AddItemToArray(arr, o);
    }
    if (pinned) sched_setaffinity(0, sizeof was, &was);
}

/* Whether the plan JSON's events[] has `name` with status "opened". */
static int opened(const cJSON *plan, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(plan, "events"))
        if (!strcmp(str(e, "name"), name))
            return !strcmp(str(e, "status"), "opened");
    return 0;
}

void mp__events_table(FILE *f, const cJSON *evs)
{
    const cJSON *e;
    if (cJSON_GetArraySize(evs))
        fprintf(f, "  %-24s %-11s %-4s %-5s %-12s %-11s %s\n", "metric", "status", "pass", "type",
               "config", "scope", "encoding / reason");
    /* each reason once: later metrics with the same one point back to it */
    const char *said[32];
    size_t nsaid = 0;
    cJSON_ArrayForEach(e, evs) {
        const cJSON *pass = cJSON_GetObjectItemCaseSensitive(e, "pass");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");
        char pss[16] = "-", ts[16] = "-";
        int ok = !strcmp(str(e, "status"), "opened");
        if (cJSON_IsNumber(pass)) snprintf(pss, sizeof pss, "%d", pass->valueint);
        if (cJSON_IsNumber(type)) snprintf(ts, sizeof ts, "%d", type->valueint);
        fprintf(f, "  %-24s %-11s %-4s %-5s %-12s %-11s %s\n", str(e, "name"), str(e, "status"),
               pss, ts, *str(e, "config") ? str(e, "config") : "-",
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "cpu_wide")) ? "cpu-wide"
               : *str(e, "scope") ? str(e, "scope") : "-",
               *str(e, "encoding") ? str(e, "encoding") : str(e, "event"));
        if (ok)
            continue;
        const char *why = str(e, "reason");
        size_t w = 0;
        while (w < nsaid && strcmp(said[w], why))
            w++;
        if (w < nsaid)
            fprintf(f, "  %-24s   why: as (%zu) above\n", "", w + 1);
        else if (nsaid < sizeof said / sizeof said[0]) {
            said[nsaid++] = why;
            fprintf(f, "  %-24s   why (%zu): %s\n", "", nsaid, why);
        } else
            fprintf(f, "  %-24s   why: %s\n", "", why);
    }
}

void mp__events_adds(FILE *f, const cJSON *plan)
{
    const cJSON *add = cJSON_GetObjectItemCaseSensitive(plan, "software_added"), *a;
    for (int want = 1; want >= 0; want--) {
        int n = 0;
        cJSON_ArrayForEach(a, add) {
            if (!cJSON_IsString(a) || opened(plan, a->valuestring) != want)
                continue;
            fprintf(f, "%s %s", n++ ? "," : want ? "  adds:" : "  would add (not available, "
                    "why below):", a->valuestring);
        }
        if (n && want)
            fprintf(f, " -- %s", str(plan, "software_why"));
        if (n)
            fputc('\n', f);
    }
}

cJSON *mp__events_plan_json(const mp_pmu_plan *plan)
{
    cJSON *j = mp_counters_json(plan);
    add_pass_status(j, plan);
    return j;
}

/* The plan of spec as JSON (with pass_status), or NULL with a message. */
static cJSON *plan_json(const char *spec, int *code)
{
    mp_pmu_plan *plan;
    mp_err err;
    mp_err_clear(&err);
    if (mp_pmu_plan_new(&plan, spec, &err)) {
        fprintf(stderr, "muxprof events: %s\n", err.msg);
        *code = mp_exit_status(err.code);
        return NULL;
    }
    cJSON *j = mp__events_plan_json(plan);
    mp_pmu_plan_free(plan);
    return j;
}

void mp__events_plan_print(FILE *f, const cJSON *j)
{
    fprintf(f, "  scope: %s -- %s\n", str(j, "scope"), str(j, "scope_note"));
    if (*str(j, "preset_source")) fprintf(f, "  source: %s\n", str(j, "preset_source"));
    {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "budget");
        if (b) fprintf(f, "  budget: %s\n", str(b, "note"));
    }
    mp__events_adds(f, j);
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(j, "pass_status"), *p;
    fprintf(f, "  passes per cell: %d\n", cJSON_GetArraySize(ps));
    cJSON_ArrayForEach(p, ps) {
        int n = (int)mp_json_num(p, "counters", 0);
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "opens")))
            fprintf(f, "    pass %.0f: does not open now: %s\n", mp_json_num(p, "pass", 0),
                    str(p, "reason"));
        else
            fprintf(f, "    pass %.0f: %d counter%s, read path %s\n", mp_json_num(p, "pass", 0),
                    n, n == 1 ? "" : "s", str(p, "read_path"));
    }
    mp__events_table(f, cJSON_GetObjectItemCaseSensitive(j, "events"));
}

static int show(const char *spec)
{
    int code = 0;
    cJSON *j = plan_json(spec, &code);
    if (!j)
        return code;
    printf("--events %s: preset %s", spec, str(j, "preset"));
    if (*str(j, "preset_file"))
        printf(", data file %s (libpfm4 core PMU: %s)", str(j, "preset_file"),
               str(j, "libpfm4_pmu"));
    printf("\n");
    mp__events_plan_print(stdout, j);
    cJSON_Delete(j);
    return 0;
}

/* One JSON document on stdout: {"plans": [...], "preset_files": [...]}. */
static int show_json(const char *spec, int all)
{
    int code = 0;
    cJSON *doc = mp_json_doc_new("events");
    cJSON *plans = cJSON_AddArrayToObject(doc, "plans");
    const char *first = spec ? spec : "cache";
    cJSON *j = all && !spec ? NULL : plan_json(first, &code);
    if (!(all && !spec) && !j)
        goto out;
    if (j)
        cJSON_AddItemToArray(plans, j);
    for (unsigned i = 0; all && mp_pmu_preset_name(i); i++) {
        if (spec && !strcmp(spec, mp_pmu_preset_name(i))) continue;
        if (!(j = plan_json(mp_pmu_preset_name(i), &code)))
            goto out;
        cJSON_AddItemToArray(plans, j);
    }
    cJSON *files = cJSON_AddArrayToObject(doc, "preset_files");
    for (unsigned i = 0; all && i < mp_pmu_preset_file_count(); i++) {
        const char *t = mp_pmu_preset_file_text(i), *m = strstr(t, "\nmatch ");
        char line[256];
        snprintf(line, sizeof line, "%.*s", m ? (int)strcspn(m + 1, "\n") : 0, m ? m + 1 : "");
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "file", mp_pmu_preset_file_name(i));
        cJSON_AddStringToObject(f, "match", line);
        cJSON_AddItemToArray(files, f);
    }
    code = mp_json_doc_print(doc, stdout);
out:
    cJSON_Delete(doc);
    return code;
}

/* What the options set. */
typedef struct events_args {
    const char *spec;
    int all, json;
} events_args;

static const mp_opt opts[] = {
    MP_OPT_STR("events", "SPEC", events_args, spec,
               "a preset (%s) or a comma\n"
               "list: perf names (L1-dcache-load-misses, cycles:u), libpfm4\n"
               "names (amd64_fam19h_zen4::L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS),\n"
               "sysfs pmu/event/ (msr/tsc/), raw rHEX.  Default: cache",
               .values = mp_pmu_preset_list),
    MP_OPT_BOOL("all", events_args, all, "every preset, and the preset data files built in"),
    MP_OPT_BOOL("json", events_args, json, "one JSON document on stdout (docs/json-output.md)"),
};

const mp_cli mp_cli_events = {
    .name = "events", .opts = opts, .nopts = MP_CLI_NOPTS(opts), .col = 17,
    .intro = "usage: muxprof events [--all] [--events PRESET|LIST] [--json]\n\n"
             "Shows how a counter preset resolves on this host: every event with its\n"
             "encoding (perf type, config, scope), whether it opened, and why not.\n\n",
    .outro = "\n" MP_EXIT_HELP,
    .unknown = "unexpected argument", .see = " (see muxprof events --help)", .stray = "",
};

int mp_cmd_events(int argc, char **argv)
{
    events_args a = {0};
    mp_opt_parsed p;
    mp_err err;
    if (mp_opt_parse(&mp_cli_events, argc, argv, &a, &p, &err)) {
        fprintf(stderr, "muxprof events: %s\n", err.msg);
        return 2;
    }
    if (p.help) {
        mp_opt_usage(&mp_cli_events, stdout);
        return 0;
    }
    const char *spec = a.spec;
    int all = a.all, json = a.json, rc = 0;
    if (json) return show_json(spec, all);
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
