/* SPDX-License-Identifier: MIT */
/* test_results.c - results/: the cell and summary tables, the writer
 * through them, the reader back, and docs/results-schema.md against them
 * (config's: run/'s table of the options a run records). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/cell.h"
#include "results/config.h"
#include "results/context.h"
#include "results/top.h"
#include "results/counters.h"
#include "results/profile.h"
#include "results/schema.h"
#include "results/sim.h"
#include "results/trace.h"
#include "results/topology.h"
#include "results_rows.h"
#include "results/summary.h"
#include "run/config.h"

#define SCHEMA_DOC MP_TEST_FIXTURES "/../../docs/results-schema.md"

/* The object's keys, comma-separated, in order. */
static void keys_of(const cJSON *o, char *buf, size_t len)
{
    const cJSON *e;
    buf[0] = 0;
    cJSON_ArrayForEach(e, o) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", n ? "," : "", e->string);
    }
}

static void summary_nulls_when_empty(void **state)
{
    (void)state;
    mp_summary s = {0};
    cJSON *o = mp_summary_json(&s);
    char keys[256];
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "p10,p50,p90,p99,mean,min,max,stddev,n");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "p50")));
    assert_int_equal(cJSON_GetObjectItem(o, "n")->valuedouble, 0);
    cJSON_Delete(o);
    s = (mp_summary){.p10 = 1, .p50 = 2, .p90 = 3, .p99 = 4, .mean = 5, .min = 6, .max = 7,
                     .stddev = 8, .n = 9};
    o = mp_summary_json(&s);
    for (size_t i = 0; i < mp_nrsum_fields; i++)
        assert_int_equal(cJSON_GetObjectItem(o, mp_rsum_fields[i].key)->valuedouble, i + 1);
    cJSON_Delete(o);
}

/* A number's absent kinds: NaN as "unavailable", null or left out; read
 * back, each as NaN, a value as itself. */
static void number_absent_kinds(void **state)
{
    (void)state;
    typedef struct { double a, u, n, o; } rec;
    static const mp_rtfield fields[] = {
        {"a", MP_RT_NUMBER, MP_RT_ALWAYS, offsetof(rec, a), 0, 0, 0, 0, NULL, NULL, "", "", 0},
        {"u", MP_RT_NUMBER, MP_RT_UNAVAILABLE_NAN, offsetof(rec, u), 0, 0, 0, 0, NULL, NULL, "",
         "", 0},
        {"n", MP_RT_NUMBER, MP_RT_NULL_NAN, offsetof(rec, n), 0, 0, 0, 0, NULL, NULL, "", "", 0},
        {"o", MP_RT_NUMBER, MP_RT_OMIT_NAN, offsetof(rec, o), 0, 0, 0, 0, NULL, NULL, "", "", 0},
    };
    static const mp_rtable t = {"t", fields, 4};
    rec r = {NAN, NAN, NAN, NAN}, back;
    cJSON *o = mp_rtable_json(&t, &r);
    char *text = cJSON_PrintUnformatted(o);
    assert_string_equal(text, "{\"a\":null,\"u\":\"unavailable\",\"n\":null}");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "n")));   /* a null, not a NaN number */
    free(text);
    mp_rtable_read(&t, o, &back);
    assert_true(isnan(back.a) && isnan(back.u) && isnan(back.n) && isnan(back.o));
    cJSON_Delete(o);
    r = (rec){1, 2, 3, 4.5};
    o = mp_rtable_json(&t, &r);
    text = cJSON_PrintUnformatted(o);
    assert_string_equal(text, "{\"a\":1,\"u\":2,\"n\":3,\"o\":4.5}");
    free(text);
    mp_rtable_read(&t, o, &back);
    assert_true(back.a == 1 && back.u == 2 && back.n == 3 && back.o == 4.5);
    cJSON_Delete(o);
}

/* A count left out below 0 is written at 0 and above, and read back
 * absent as -1: the value it was left out for. */
static void count_omit_negative(void **state)
{
    (void)state;
    typedef struct { long long a, n; } rec;
    static const mp_rtfield fields[] = {
        {"a", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(rec, a), 0, 0, 0, 0, NULL, NULL, "", "", 0},
        {"n", MP_RT_COUNT, MP_RT_OMIT_NEGATIVE, offsetof(rec, n), 0, 0, 0, 0, NULL, NULL, "",
         "", 0},
    };
    static const mp_rtable t = {"t", fields, 2};
    const long long n[] = {-1, -7, 0, 3};
    const char *const want[] = {"{\"a\":-1}", "{\"a\":-7}", "{\"a\":0,\"n\":0}",
                                "{\"a\":3,\"n\":3}"};
    for (size_t i = 0; i < 4; i++) {
        rec r = {n[i], n[i]}, back;
        cJSON *o = mp_rtable_json(&t, &r);
        char *text = cJSON_PrintUnformatted(o);
        assert_string_equal(text, want[i]);
        free(text);
        mp_rtable_read(&t, o, &back);
        assert_int_equal(back.n, n[i] < 0 ? -1 : n[i]);
        cJSON_Delete(o);
    }
}

static mp_rcell error_cell(void)
{
    mp_rcell c;
    memset(&c, 0, sizeof c);
    strcpy(c.backend, "poll");
    strcpy(c.syscall, "ppoll");
    strcpy(c.fd_kind, "pipe");
    strcpy(c.mode, "ready");
    strcpy(c.fd_table, "private");
    c.nfds = 10;
    c.active = 1;
    c.status = MP_CELL_ERROR;
    strcpy(c.reason, "it failed");
    c.fd_lo = c.fd_hi = c.ready_fd = -1;
    c.process_threads = c.watch_sets = -1;
    c.rl_soft = 1024;
    c.rl_hard = 4096;
    return c;
}

static void cell_keys_by_status_and_mode(void **state)
{
    (void)state;
    char keys[1024];
    mp_rcell c = error_cell();
    cJSON *o = mp_rcell_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "backend,syscall,fd_kind,mode,nfds,active,status,reason,"
                              "fd_table,process_threads,watch_sets,rlimit_nofile");
    assert_string_equal(cJSON_GetObjectItem(o, "status")->valuestring, "error");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "process_threads")));
    cJSON_Delete(o);

    double rep[3] = {100, NAN, 120};
    mp_metric mt[2] = {{.name = "wall_ns", .s = {.p50 = 110, .n = 5}},
                       {.name = "cycles", .is_counter = 1, .bracket = NAN}};
    c.status = MP_CELL_OK;
    c.reason[0] = 0;
    c.fd_lo = 3, c.fd_hi = 12, c.ready_fd = 12;
    c.process_threads = 1, c.watch_sets = 0;
    c.samples_preempted = -1;
    c.repeat_medians = rep, c.nrepeats = 3;
    c.ci_lo = c.ci_hi = NAN;
    c.empty_bracket_ns = NAN;
    c.bare_loop_ns = 90, c.bare_loop_mean_ns = 95;
    c.metrics = mt, c.nmetrics = 2;
    o = mp_rcell_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "backend,syscall,fd_kind,mode,nfds,active,status,reason,"
                              "fd_lo,fd_hi,ready_fd,fd_table,process_threads,watch_sets,"
                              "rlimit_nofile,samples_kept,samples_discarded,samples_stopped,"
                              "samples_preempted,repeat_medians_ns,repeat_medians_of,repeat_spread_ns,"
                              "empty_bracket_ns,bare_loop_ns,bare_loop_mean_ns,metrics,"
                              "counters_missing");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "reason")));
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "repeat_medians_ns"), 1)));
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "repeat_spread_ns"),
                                         "median")->valuedouble, 110);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "metrics"), "cycles")));

    /* read back: every scalar field as written */
    mp_rcell back;
    memset(&back, 0, sizeof back);
    mp_rcell_read(o, &back);
    assert_string_equal(back.syscall, "ppoll");
    assert_string_equal(back.fd_table, "private");
    assert_int_equal(back.ready_fd, 12);
    assert_int_equal(back.samples_preempted, -1);
    assert_true(isnan(back.empty_bracket_ns));
    assert_true(back.bare_loop_mean_ns == 95);
    cJSON_Delete(o);

    strcpy(c.mode, "wakeup");   /* the ready-mode fields go */
    c.ci_lo = 100, c.ci_hi = 120;
    o = mp_rcell_json(&c);
    assert_null(cJSON_GetObjectItem(o, "bare_loop_ns"));
    assert_non_null(cJSON_GetObjectItem(o, "wall_p50_ci95_ns"));
    cJSON_Delete(o);
}

static mp_rcontext a_context(void)
{
    static const char *seen[] = {"CPU implementer 0x00"};
    mp_rcontext c;
    memset(&c, 0, sizeof c);
    strcpy(c.host, "h1");
    c.has_uname = 1;
    strcpy(c.arch, "aarch64");
    strcpy(c.kernel, "6.1.0");
    strcpy(c.kernel_version, "#1 SMP");
    strcpy(c.cpu_model, "Arm implementer 0x00 part 0x000");
    c.nr_cpus = 2;
    c.emulated = 1;
    c.emulation_seen[0] = seen[0];
    c.nemulation_seen = 1;
    strcpy(c.governor, "unavailable");
    strcpy(c.clocksource, "arch_sys_counter");
    c.perf_event_paranoid = -1;
    c.kptr_restrict = NAN;
    c.has_rlimit = 1;
    c.rlimit_nofile = (mp_rlimit_pair){1024, 4096};
    c.nr_open = 1048576;
    c.git_describe = "v1";
    c.compiler = "gcc";
    c.build_type = "Release";
    c.command = "muxprof run";
    c.boot_seconds_total = NAN;   /* as mp_context_read leaves it: a simulated run's alone */
    return c;
}

/* The writer's keys in the table's order, the fields another writer adds
 * left out until set, "unavailable" for a file that could not be read;
 * read back, every field as written. */
static void context_through_its_table(void **state)
{
    (void)state;
    char keys[1024];
    mp_rcontext c = a_context();
    cJSON *o = mp_rcontext_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "host,arch,kernel,kernel_version,cpu_model,nr_cpus,hypervisor,"
                              "emulated,emulation_seen,governor,clocksource,perf_event_paranoid,"
                              "kptr_restrict,rlimit_nofile,nr_open,git_describe,compiler,"
                              "build_type,command");
    assert_true(cJSON_GetObjectItem(o, "perf_event_paranoid")->valuedouble == -1);
    assert_string_equal(cJSON_GetObjectItem(o, "kptr_restrict")->valuestring, "unavailable");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(o, "hypervisor")));
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "rlimit_nofile"),
                                         "hard")->valuedouble, 4096);

    mp_rcontext back;
    mp_rcontext_read(o, &back);
    assert_string_equal(back.arch, "aarch64");
    assert_true(back.emulated && !back.hypervisor && back.has_uname && back.has_rlimit);
    assert_int_equal(back.nemulation_seen, 1);
    assert_string_equal(back.emulation_seen[0], "CPU implementer 0x00");
    assert_true(back.perf_event_paranoid == -1 && isnan(back.kptr_restrict));
    assert_int_equal(back.rlimit_nofile.soft, 1024);
    assert_string_equal(back.command, "muxprof run");
    assert_null(back.anonymized);
    assert_int_equal(back.simulated, 0);
    cJSON *again = mp_rcontext_json(&back);
    assert_true(cJSON_Compare(o, again, 1));
    cJSON_Delete(again);
    cJSON_Delete(o);

    c.has_uname = c.has_rlimit = 0;   /* uname() or getrlimit() failed */
    c.simulated = 1;
    c.label = "simulated (n1)";
    o = mp_rcontext_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "host,cpu_model,nr_cpus,hypervisor,emulated,emulation_seen,"
                              "governor,clocksource,perf_event_paranoid,kptr_restrict,nr_open,"
                              "git_describe,compiler,build_type,command,simulated,label");
    cJSON_Delete(o);
}

/* config read back: each field report/ reads is a row of the table run/
 * writes config by (run/config.h), of the same kind there as here; a config
 * written from a run's configuration reads back its lists and anonymize; a
 * list value of another kind is skipped. */
static void config_read_back_from_its_writer(void **state)
{
    (void)state;
    for (size_t i = 0; i < mp_rconfig_table.nfields; i++) {
        const mp_rtfield *f = &mp_rconfig_table.fields[i], *w = NULL;
        for (size_t k = 0; k < mp_run_config_table.nfields; k++)
            if (!strcmp(mp_run_config_table.fields[k].key, f->key))
                w = &mp_run_config_table.fields[k];
        assert_non_null(w);
        assert_string_equal(rt_kind(w), rt_kind(f));
    }
    static mp_run_config run;
    memset(&run, 0, sizeof run);
    run.backends[run.nbackends++] = mp_backend_find("epoll");
    run.backends[run.nbackends++] = mp_backend_find("select");
    run.modes[run.nmodes++] = MP_MODE_WAKEUP;
    run.kinds[run.nkinds++] = MP_FD_PIPE;
    cJSON *o = mp_run_config_json(&run);
    mp_rconfig back;
    mp_rconfig_read(o, &back);
    assert_int_equal(back.nbackends, 2);
    assert_string_equal(back.backends[0], "epoll");
    assert_string_equal(back.backends[1], "select");
    assert_int_equal(back.nmodes, 1);
    assert_string_equal(back.modes[0], "wakeup");
    assert_false(back.anonymize);
    cJSON_Delete(o);
    run.anonymize = 1;
    o = mp_run_config_json(&run);
    mp_rconfig_read(o, &back);
    assert_true(back.anonymize);

    cJSON_InsertItemInArray(cJSON_GetObjectItem(o, "backends"), 0, cJSON_CreateNumber(3));
    mp_rconfig_read(o, &back);
    assert_int_equal(back.nbackends, 2);
    assert_string_equal(back.backends[0], "epoll");
    cJSON_Delete(o);
}

/* Another layer's plain C through INT, ARRAY and REF rows: ints written as
 * counts, arrays counted by an int (of ints, names and references), a
 * reference's field or nothing for NULL; INT reads back, ARRAY and REF are
 * not read. */
typedef struct {
    const char *name;
    int rank;
} plain_thing;
typedef enum { PLAIN_RED, PLAIN_BLUE } plain_colour;
typedef struct {
    int size, zero;
    int counts[4];
    int ncounts;
    plain_colour colours[3];
    int ncolours;
    const plain_thing *things[2];
    int nthings;
    const plain_thing *best, *none;
} plain_model;

static const char *const colour_names[] = {"red", "blue", NULL};
static const mp_rtfield int_el[] = {{.type = MP_RT_INT}};
static const mp_rtfield colour_el[] = {{.type = MP_RT_CHOICE, .names = colour_names}};
static const mp_rtfield thing_name[] = {{.type = MP_RT_STR, .off = offsetof(plain_thing, name)}};
static const mp_rtable thing_name_table = {"thing", thing_name, 1};
static const mp_rtfield thing_el[] = {{.type = MP_RT_REF, .sub = &thing_name_table}};
#define ONE(f) (&(const mp_rtable){"element", f, 1})
#define PLAIN_ARRAY(k, el)                                                                    \
    {.key = #k, .type = MP_RT_ARRAY, .off = offsetof(plain_model, k),                        \
     .len = sizeof ((plain_model *)0)->k[0], .count_off = offsetof(plain_model, n##k),         \
     .sub = ONE(el)}
static const mp_rtfield plain_fields[] = {
    {.key = "size", .type = MP_RT_INT, .off = offsetof(plain_model, size)},
    {.key = "zero", .type = MP_RT_INT, .absent = MP_RT_OMIT_ZERO,
     .off = offsetof(plain_model, zero)},
    PLAIN_ARRAY(counts, int_el),
    PLAIN_ARRAY(colours, colour_el),
    PLAIN_ARRAY(things, thing_el),
    {.key = "best", .type = MP_RT_REF, .off = offsetof(plain_model, best),
     .sub = &thing_name_table},
    {.key = "none", .type = MP_RT_REF, .off = offsetof(plain_model, none),
     .sub = &thing_name_table},
};
static const mp_rtable plain_table = {"plain", plain_fields,
                                      sizeof plain_fields / sizeof plain_fields[0]};

static void plain_c_through_a_table(void **state)
{
    (void)state;
    static const plain_thing a = {"alpha", 1}, b = {"beta", 2};
    plain_model m = {.size = -3, .counts = {7, 8, 9}, .ncounts = 2,
                     .colours = {PLAIN_BLUE, PLAIN_RED}, .ncolours = 2,
                     .things = {&b, &a}, .nthings = 2, .best = &a};
    cJSON *o = mp_rtable_json(&plain_table, &m);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"size\":-3,\"counts\":[7,8],\"colours\":[\"blue\",\"red\"],"
                           "\"things\":[\"beta\",\"alpha\"],\"best\":\"alpha\"}");
    free(s);
    m.ncounts = 0;
    m.zero = 5;
    cJSON *again = mp_rtable_json(&plain_table, &m);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(again, "counts")), 0);
    assert_int_equal(cJSON_GetObjectItem(again, "zero")->valuedouble, 5);
    cJSON_Delete(again);

    plain_model back;
    memset(&back, 0, sizeof back);
    back.ncounts = 9;
    back.best = &b;
    mp_rtable_read(&plain_table, o, &back);
    assert_int_equal(back.size, -3);
    assert_int_equal(back.zero, -1);   /* absent */
    assert_int_equal(back.ncounts, 9);
    assert_ptr_equal(back.best, &b);
    cJSON_Delete(o);
}
#undef PLAIN_ARRAY
#undef ONE

/* counters: a plan of "none" has no budget or software part; an event's
 * encoding only when it was encoded, pass and group only when opened, the
 * reason only when not; read back, the same object again. */
static void counters_through_their_tables(void **state)
{
    (void)state;
    char keys[1024];
    mp_rcounter_event ev[2] = {
        {.name = "cycles", .event = "cycles", .origin = "generic", .encoded = 1, .pmu = "cpu",
         .encoding = "cycles", .type = 0, .config = 0x3c, .exclude_hv = 1,
         .scope = "user+kernel", .opened = 1, .pass = 1, .group = 0, .access = ""},
        {.name = "L3-misses", .event = "-", .origin = "preset", .cpu_wide = 1,
         .cpu_scope = "the L3", .opened = 0, .reason = "not on this model"},
    };
    mp_rcounters c = {.spec = "none", .preset = "none", .scope = "none", .scope_note = "",
                      .passes = 0};
    cJSON *o = mp_rcounters_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "spec,preset,scope,scope_note,passes,events");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "events")), 0);
    cJSON_Delete(o);

    c = (mp_rcounters){.spec = "cache", .preset = "cache", .scope = "user", .scope_note = "n",
                       .passes = 2, .planned = 1, .preset_file = "generic",
                       .preset_source = "s", .libpfm4_pmu = "none",
                       .budget = {4, 0, 1, "b"}, .software_added = {"task-clock"},
                       .nsoftware_added = 1, .software_why = "w", .events = ev, .nevents = 2};
    o = mp_rcounters_json(&c);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "spec,preset,scope,scope_note,passes,preset_file,preset_source,"
                              "libpfm4_pmu,budget,software_added,software_why,events");
    keys_of(cJSON_GetObjectItem(o, "budget"), keys, sizeof keys);
    assert_string_equal(keys, "general,fixed,nmi_watchdog,note");
    const cJSON *events = cJSON_GetObjectItem(o, "events");
    keys_of(cJSON_GetArrayItem(events, 0), keys, sizeof keys);
    assert_string_equal(keys, "name,event,origin,pmu,encoding,type,config,exclude_user,"
                              "exclude_kernel,exclude_hv,scope,status,pass,group");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(events, 0), "config")->valuestring,
                        "0x3c");
    keys_of(cJSON_GetArrayItem(events, 1), keys, sizeof keys);
    assert_string_equal(keys, "name,event,origin,cpu_wide,cpu_scope,status,reason");

    mp_rcounters back;
    mp_rcounters_read(o, &back);
    mp_rcounter_event bev[2];
    for (int i = 0; i < 2; i++)
        mp_rcounter_event_read(cJSON_GetArrayItem(events, i), &bev[i]);
    assert_true(back.planned);
    assert_int_equal(back.budget.general, 4);
    assert_true(bev[0].encoded && bev[0].opened == 1 && bev[0].config == 0x3c);
    assert_true(!bev[1].encoded && bev[1].opened == 0 && bev[1].cpu_wide);
    back.events = bev;
    back.nevents = 2;
    cJSON *again = mp_rcounters_json(&back);
    assert_true(cJSON_Compare(o, again, 1));
    cJSON_Delete(again);
    cJSON_Delete(o);
}

/* sim-import's counters: preset, scope, note and its events, each a name,
 * opened in no pass, and its source; no spec, scope_note or passes. */
static void simulated_counters_through_their_tables(void **state)
{
    (void)state;
    const mp_rcounter_event ev = {.simulated = 1, .name = "sim:instructions",
                                  .event = "instructions", .origin = "generic", .opened = 1,
                                  .pass = -1, .group = -1, .source = "simulated"};
    mp_rcounters c = {.simulated = 1, .spec = "cache", .preset = "simulated (n1)",
                      .scope = "user+kernel (simulated core 1)", .scope_note = "s",
                      .note = "the model's", .passes = 2, .events = &ev, .nevents = 1};
    cJSON *o = mp_rcounters_json(&c);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"preset\":\"simulated (n1)\","
                           "\"scope\":\"user+kernel (simulated core 1)\","
                           "\"note\":\"the model's\",\"events\":[{\"name\":\"sim:instructions\","
                           "\"status\":\"opened\",\"source\":\"simulated\"}]}");
    free(s);
    cJSON_Delete(o);
}

/* sim-import's config: its lists and fields in the table's order. */
static void simulated_config_through_its_table(void **state)
{
    (void)state;
    static mp_rsim_config c = {.backends = {"poll", "epoll"}, .nbackends = 2,
                               .fds = {100, 1000}, .nfds = 2, .active = {1}, .nactive = 1,
                               .modes = {"ready"}, .nmodes = 1, .fd_kinds = {"pipe"},
                               .nfd_kinds = 1, .fd_kind = "pipe", .calls = 110,
                               .ready_pos = "last", .events = "simulated (n1)"};
    cJSON *o = mp_rsim_config_json(&c);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"backends\":[\"poll\",\"epoll\"],\"fds\":[100,1000],"
                           "\"active\":[1],\"modes\":[\"ready\"],\"fd_kinds\":[\"pipe\"],"
                           "\"fd_kind\":\"pipe\",\"calls\":110,\"ready_pos\":\"last\","
                           "\"events\":\"simulated (n1)\"}");
    free(s);
    cJSON_Delete(o);
}

/* sim-import's context.geometry: its levels as objects, the last one's
 * policy only. */
static void simulated_geometry_through_its_table(void **state)
{
    (void)state;
    const mp_rsim_geometry g = {.name = "n1", .description = "Arm N1", .line_bytes = 64,
                                .l1d = {65536, 4, NULL}, .l1i = {65536, 4, ""},
                                .l2 = {1048576, 8, NULL}, .l3 = {33554432, 16, "victim"},
                                .dtlb = "48,48", .itlb = "48,48", .l2tlb = "1280,5",
                                .page_bytes = 4096, .prefetch = "none"};
    cJSON *o = mp_rsim_geometry_json(&g);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"name\":\"n1\",\"description\":\"Arm N1\",\"line_bytes\":64,"
                           "\"l1d\":{\"size_bytes\":65536,\"ways\":4},"
                           "\"l1i\":{\"size_bytes\":65536,\"ways\":4},"
                           "\"l2\":{\"size_bytes\":1048576,\"ways\":8},"
                           "\"l3\":{\"size_bytes\":33554432,\"ways\":16,\"policy\":\"victim\"},"
                           "\"dtlb\":\"48,48\",\"itlb\":\"48,48\",\"l2tlb\":\"1280,5\","
                           "\"page_bytes\":4096,\"prefetch\":\"none\"}");
    free(s);
    cJSON_Delete(o);
}

/* wake_delay_ns: written for wakeup cells only, read back as written; a
 * wakeup cell without it (an older file) reads as 0, a ready cell as -1. */
/* profile: a sampled pass with every optional key, then one whose event
 * did not open (samples and reason only); read back, the same objects. */
static void profile_through_its_tables(void **state)
{
    (void)state;
    char keys[1024];
    mp_rprof_entry fn[2] = {{.name = "eventfd_poll", .share = 0.5, .ns_per_call = 50,
                             .ns_per_fd = NAN, .phase = "file-poll"},
                            {.name = "f", .share = 0.25, .ns_per_call = NAN, .ns_per_fd = NAN}};
    mp_rprof_entry ph[2] = {{.name = "file-poll", .share = 0.5, .ns_per_call = 50,
                             .ns_per_fd = 5},
                            {.name = "other", .share = 0.25, .ns_per_call = NAN,
                             .ns_per_fd = NAN}};
    mp_rprofile p = {.sampled = 1, .event = "cpu-clock", .period = 50000,
                     .scope = "user+kernel", .samples = 4, .lost = 0, .truncated = 1,
                     .calls = 10, .window = MP_RPROF_CALLS, .outside_calls = 0,
                     .wall_p50_ns = 100, .on_cpu_ns_per_call = 20000, .symbols = "kallsyms",
                     .note = "n", .user_share = 0.25, .kernel_share = 0.75, .functions = fn,
                     .nfunctions = 2, .phases = ph, .nphases = 2, .throttled = 2,
                     .reason = "not written"};
    cJSON *o = mp_rprofile_json(&p);
    keys_of(o, keys, sizeof keys);
    assert_string_equal(keys, "event,period,scope,samples,lost,truncated,calls,window,"
                              "outside_calls,wall_p50_ns,on_cpu_ns_per_call,symbols,note,"
                              "user_share,kernel_share,functions,phases,throttled");
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "functions"));
    assert_string_equal(text, "[{\"name\":\"eventfd_poll\",\"share\":0.5,\"ns_per_call\":50,"
                              "\"phase\":\"file-poll\"},{\"name\":\"f\",\"share\":0.25,"
                              "\"ns_per_call\":null}]");
    free(text);
    text = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "phases"));
    assert_string_equal(text, "[{\"phase\":\"file-poll\",\"share\":0.5,\"ns_per_call\":50,"
                              "\"ns_per_fd\":5},{\"phase\":\"other\",\"share\":0.25,"
                              "\"ns_per_call\":null}]");
    free(text);
    mp_rprofile back;
    assert_int_equal(mp_rprofile_read(o, &back), 0);
    assert_int_equal(back.sampled, 1);
    assert_int_equal(back.window, MP_RPROF_CALLS);
    assert_string_equal(mp_rprofile_window(&back), "calls");
    assert_int_equal(back.nfunctions, 2);
    assert_string_equal(back.phases[0].name, "file-poll");
    assert_true(back.phases[0].ns_per_fd == 5 && isnan(back.phases[1].ns_per_fd));
    assert_null(back.phases[0].phase);
    back.reason = "not written";
    cJSON *again = mp_rprofile_json(&back);
    assert_true(cJSON_Compare(o, again, 1));
    cJSON_Delete(again);
    mp_rprofile_free(&back);
    assert_null(back.functions);
    cJSON_Delete(o);

    /* window blocks: no outside_calls; no samples: user_share null, no kernel_share */
    p = (mp_rprofile){.sampled = 1, .event = "cycles", .scope = "user", .calls = 3,
                      .window = MP_RPROF_BLOCKS, .outside_calls = 9, .wall_p50_ns = NAN,
                      .on_cpu_ns_per_call = NAN, .symbols = "hidden: h", .user_share = NAN,
                      .kernel_share = NAN};
    o = mp_rprofile_json(&p);
    text = cJSON_PrintUnformatted(o);
    assert_string_equal(text, "{\"event\":\"cycles\",\"scope\":\"user\",\"samples\":0,"
                              "\"lost\":0,\"calls\":3,\"window\":\"blocks\","
                              "\"symbols\":\"hidden: h\",\"user_share\":null,"
                              "\"functions\":[],\"phases\":[]}");
    free(text);
    assert_int_equal(mp_rprofile_read(o, &back), 0);
    assert_true(isnan(back.user_share) && isnan(back.kernel_share) && back.nphases == 0);
    mp_rprofile_free(&back);
    cJSON_Delete(o);

    p = (mp_rprofile){.event = "cpu-clock", .samples = 0, .reason = "no perf_event_open"};
    o = mp_rprofile_json(&p);
    text = cJSON_PrintUnformatted(o);
    assert_string_equal(text, "{\"samples\":0,\"reason\":\"no perf_event_open\"}");
    free(text);
    assert_int_equal(mp_rprofile_read(o, &back), 0);
    assert_int_equal(back.sampled, 0);
    assert_int_equal(back.window, -1);
    assert_null(mp_rprofile_window(&back));
    assert_string_equal(back.reason, "no perf_event_open");
    cJSON_Delete(o);
}

static void wake_delay_round_trip(void **state)
{
    (void)state;
    mp_rcell c = error_cell(), back;
    strcpy(c.mode, "wakeup");
    c.wake_delay_ns = 3000000;
    cJSON *o = mp_rcell_json(&c);
    const cJSON *d = cJSON_GetObjectItem(o, "wake_delay_ns");
    assert_true(cJSON_IsNumber(d));
    assert_true(d->valuedouble == 3000000);
    memset(&back, 0, sizeof back);
    mp_rcell_read(o, &back);
    assert_int_equal(back.wake_delay_ns, 3000000);
    cJSON_DeleteItemFromObject(o, "wake_delay_ns");
    mp_rcell_read(o, &back);
    assert_int_equal(back.wake_delay_ns, 0);
    cJSON_Delete(o);
    strcpy(c.mode, "ready");
    c.wake_delay_ns = -1;
    o = mp_rcell_json(&c);
    assert_null(cJSON_GetObjectItem(o, "wake_delay_ns"));
    mp_rcell_read(o, &back);
    assert_int_equal(back.wake_delay_ns, -1);
    cJSON_Delete(o);
}

/* docs/results-schema.md's text, NULL when unreadable. */
static char *read_doc(void)
{
    FILE *f = fopen(SCHEMA_DOC, "r");
    if (!f)
        return NULL;
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* The keys at the top level of the jsonc block after `heading`, comments
 * left out, as ",k1,k2,...,". */
static void doc_block_keys(const char *doc, const char *heading, char *out, size_t len)
{
    const char *p = strstr(doc, heading);
    assert_non_null(p);
    p = strstr(p, "```jsonc\n");
    assert_non_null(p);
    p += 9;
    const char *end = strstr(p, "\n```");
    assert_non_null(end);
    int depth = 0;
    snprintf(out, len, ",");
    while (p < end) {
        if (p[0] == '/' && p[1] == '/') {
            p = strchr(p, '\n');
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        if (*p != '"') {
            p++;
            continue;
        }
        const char *q = strchr(p + 1, '"');
        const char *after = q + 1;
        while (*after == ' ')
            after++;
        if (depth == 1 && *after == ':') {
            size_t n = strlen(out);
            snprintf(out + n, len - n, "%.*s,", (int)(q - p - 1), p + 1);
        }
        p = q + 1;
    }
}

static void doc_names_every_field(void **state)
{
    (void)state;
    const char *doc = read_doc();
    assert_non_null(doc);
    char keys[4096], want[128];
    doc_block_keys(doc, "A `<cell>`:", keys, sizeof keys);
    size_t in_doc = 0;
    for (const char *k = keys + 1; *k; k = strchr(k, ',') + 1)
        in_doc++;
    for (size_t i = 0; i < mp_nrcell_fields; i++) {
        snprintf(want, sizeof want, ",%s,", mp_rcell_fields[i].key);
        if (!strstr(keys, want))
            fail_msg("cell field %s is not in docs/results-schema.md", mp_rcell_fields[i].key);
        assert_non_null(mp_rcell_fields[i].doc);
    }
    if (in_doc != mp_nrcell_fields)
        fail_msg("docs/results-schema.md's <cell> has %zu fields (%s), the table %zu", in_doc,
                 keys, mp_nrcell_fields);
    const char *sum = strstr(doc, "A `<summary>` is `{");
    assert_non_null(sum);
    const char *sum_end = strchr(sum, '}');
    size_t nsum = 0;
    for (const char *q = sum; (q = strchr(q, '"')) && q < sum_end; q = strchr(q + 1, '"') + 1)
        nsum++;
    assert_int_equal(nsum, mp_nrsum_fields);
    for (size_t i = 0; i < mp_nrsum_fields; i++) {
        snprintf(want, sizeof want, "\"%s\"", mp_rsum_fields[i].key);
        const char *at = strstr(sum, want);
        if (!at || at > sum_end)
            fail_msg("summary key %s is not in docs/results-schema.md", mp_rsum_fields[i].key);
    }
    snprintf(want, sizeof want, "\"schema\": \"%s\"", MP_RESULTS_SCHEMA);
    assert_non_null(strstr(doc, want));
}

/* Table t's lines in the doc (under "### `NAME`") against its fields, in
 * order and both ways, then those of its objects' tables; the number of
 * differences, each said on stderr with the line the doc should have. */
static int doc_matches_table(const char *doc, const mp_rtable *t)
{
    char heading[128], want[1024];
    int bad = 0;
    snprintf(heading, sizeof heading, "\n### `%s`\n", t->name);
    const char *p = strstr(doc, heading);
    if (!p) {
        fprintf(stderr, "docs/results-schema.md has no heading ### `%s`\n", t->name);
        return 1;
    }
    p += strlen(heading);
    while (*p == '\n')   /* the blank line before the table */
        p++;
    const char *end = strstr(p, "\n\n");
    end = end ? end : p + strlen(p);
    size_t i = 0;
    for (const char *l = p; l && l < end; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t n = strcspn(l, "\n");
        if (strncmp(l, "| `", 3))
            continue;
        if (i < t->nfields)
            rt_row(&t->fields[i], want, sizeof want);
        if (i >= t->nfields || strlen(want) != n || strncmp(l, want, n)) {
            fprintf(stderr, "%s: the doc has\n  %.*s\nwhere the table has\n  %s\n", t->name,
                    (int)n, l, i < t->nfields ? want : "(no more fields)");
            bad++;
        }
        i++;
    }
    for (; i < t->nfields; i++) {
        rt_row(&t->fields[i], want, sizeof want);
        fprintf(stderr, "%s: the doc lacks\n  %s\n", t->name, want);
        bad++;
    }
    for (size_t k = 0; k < t->nfields; k++)
        if (t->fields[k].type == MP_RT_OBJECT || t->fields[k].type == MP_RT_OBJECT_LIST)
            bad += doc_matches_table(doc, t->fields[k].sub);
    return bad;
}

/* docs/results-schema.md lists every field of the top level, context,
 * config, counters and a cell's profile and topology (and of their objects) as their tables do. */
static void doc_names_every_table_field(void **state)
{
    (void)state;
    const char *doc = read_doc();
    assert_non_null(doc);
    const mp_rtable *tables[] = {&mp_rrun_table, &mp_rcontext_table, &mp_run_config_table,
                                 &mp_rcounters_table, &mp_rprofile_table, &mp_rtopology_table,
                                 &mp_rsim_config_table, &mp_rsim_geometry_table,
                                 &mp_rtrace_table, &mp_rtrace_cell_table};
    int bad = 0;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        bad += doc_matches_table(doc, tables[i]);
    if (bad)
        fail_msg("docs/results-schema.md differs from the tables in %d lines (above)", bad);
}

/* The object below, with model after "source" and tail after the offers. */
#define TOPO_JSON(model, tail) \
    "{\"source\":\"xml: a.xml\"," model "\"packages\":1,\"numa_nodes\":1,\"cores\":2," \
    "\"pus\":4,\"usable_pus\":2,\"usable_cpus\":\"0,2\",\"restricted\":true," \
    "\"line_bytes\":64,\"line_bytes_known\":false,\"caches\":[{\"level\":1," \
    "\"type\":\"data\",\"size_bytes\":32768,\"line_bytes\":64,\"instances\":2," \
    "\"pus_per_instance\":1,\"shared_by\":[\"0\",\"1\"]},{\"level\":2," \
    "\"type\":\"unified\",\"size_bytes\":1048576,\"size_min_bytes\":1048576," \
    "\"size_max_bytes\":2097152,\"line_bytes\":0,\"instances\":2," \
    "\"pus_per_instance\":1,\"shared_by\":[\"0\",\"1\"]}],\"placements_offered\":" \
    "{\"auto\":{\"kind\":\"same-l2\",\"waiter_pu\":0,\"poker_pu\":1}," \
    "\"none\":{\"kind\":\"none\",\"waiter_pu\":-1,\"poker_pu\":-1}}" tail "}"

/* topology: the verb's object (no pair), then a run's, byte for byte in
 * results.json's order; each placement offered a member named by the
 * placement asked for. */
static void topology_through_its_tables(void **state)
{
    (void)state;
    static mp_rtopo_cache caches[2];
    caches[0] = (mp_rtopo_cache){.level = 1, .type = "data", .size_bytes = 32768,
                                 .line_bytes = 64, .instances = 2, .pus_per_instance = 1,
                                 .shared_by = {"0", "1"}, .nshared_by = 2};
    caches[1] = (mp_rtopo_cache){.level = 2, .type = "unified", .size_bytes = 1048576,
                                 .sized_apart = 1, .size_min_bytes = 1048576,
                                 .size_max_bytes = 2097152, .line_bytes = 0, .instances = 2,
                                 .pus_per_instance = 1, .shared_by = {"0", "1"},
                                 .nshared_by = 2};
    const mp_rtopo_offer offered[] = {{"auto", "same-l2", 0, 1}, {"none", "none", -1, -1}};
    mp_rtopology t = {.source = "xml: a.xml", .packages = 1, .numa_nodes = 1, .cores = 2,
                      .pus = 4, .usable_pus = 2, .usable_cpus = "0,2", .restricted = 1,
                      .line_bytes = 64, .line_bytes_known = 0, .caches = caches, .ncaches = 2,
                      .offered = offered, .noffered = 2};
    cJSON *o = mp_rtopology_json(&t);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, TOPO_JSON("", ""));
    free(s);
    cJSON_Delete(o);

    t.has_cpu_model = 1;
    t.cpu_model = "";
    t.placed = 1;
    t.placement = "same-l2";
    t.placement_requested = "auto";
    t.placement_detail = "PU 0 and PU 1 share an L2";
    t.placement_fell_back = 0;
    t.waiter_pu = 0;
    t.poker_pu = 1;
    t.poker_binding_warning = "the poker: EPERM";
    t.binding_warning = "";
    t.bound = 0;
    o = mp_rtopology_json(&t);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, TOPO_JSON("\"cpu_model\":\"\",",
                                     ",\"placement\":\"same-l2\",\"placement_requested\":\"auto\","
                                     "\"placement_detail\":\"PU 0 and PU 1 share an L2\","
                                     "\"placement_fell_back\":false,\"waiter_pu\":0,"
                                     "\"poker_pu\":1,"
                                     "\"poker_binding_warning\":\"the poker: EPERM\","
                                     "\"bound\":false"));
    free(s);
    cJSON_Delete(o);
}

/* sim-import's topology: the line and the caches with their ways and the
 * last level's policy; no host counts, instances or placements. */
static void simulated_topology_through_its_tables(void **state)
{
    (void)state;
    const mp_rtopo_cache caches[] = {
        {.simulated = 1, .level = 1, .type = "instruction", .size_bytes = 65536, .ways = 4,
         .line_bytes = 64, .instances = 9, .shared_by = {"0"}, .nshared_by = 1},
        {.simulated = 1, .level = 3, .type = "unified", .size_bytes = 33554432, .ways = 16,
         .policy = "victim", .line_bytes = 64}};
    const mp_rtopo_offer offered[] = {{"auto", "same-l2", 0, 1}};
    mp_rtopology t = {.simulated = 1, .source = "host", .pus = 4, .line_bytes = 64,
                      .caches = caches, .ncaches = 2, .offered = offered, .noffered = 1};
    cJSON *o = mp_rtopology_json(&t);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"simulated\":true,\"line_bytes\":64,\"caches\":["
                           "{\"level\":1,\"type\":\"instruction\",\"size_bytes\":65536,"
                           "\"ways\":4,\"line_bytes\":64},"
                           "{\"level\":3,\"type\":\"unified\",\"size_bytes\":33554432,"
                           "\"ways\":16,\"policy\":\"victim\",\"line_bytes\":64}]}");
    free(s);
    cJSON_Delete(o);
}

/* A KEYED_LIST: an object with a member per element, in the list's order,
 * named by the element's first field; read back element by element. */
typedef struct keyed_el {
    const char *key;
    long long n;
    const char *s;
} keyed_el;

static const mp_rtfield keyed_el_fields[] = {
    {"n", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(keyed_el, n), 0, 0, 0, 0, NULL, NULL, "", "n", 0},
    {"s", MP_RT_STR, MP_RT_OMIT_EMPTY, offsetof(keyed_el, s), 0, 0, 0, 0, NULL, NULL, "", "s", 0},
};
static const mp_rtable keyed_el_table = {"t.by_name", keyed_el_fields, 2};

typedef struct keyed_rec {
    long long before;
    const keyed_el *els;
    size_t nels;
} keyed_rec;

static const mp_rtfield keyed_fields[] = {
    {"before", MP_RT_COUNT, MP_RT_ALWAYS, offsetof(keyed_rec, before), 0, 0, 0, 0, NULL, NULL,
     "", "before", 0},
    {"by_name", MP_RT_KEYED_LIST, MP_RT_ALWAYS, offsetof(keyed_rec, els), sizeof(keyed_el),
     offsetof(keyed_rec, nels), 0, 0, NULL, &keyed_el_table, "", "by name", 0},
};
static const mp_rtable keyed_table = {"t", keyed_fields, 2};

static void keyed_list_through_its_table(void **state)
{
    (void)state;
    const keyed_el els[] = {{"zeta", 1, "one"}, {"alpha", 2, NULL}, {"mid", -3, "three"}};
    keyed_rec r = {.before = 7, .els = els, .nels = 3};
    cJSON *o = mp_rtable_json(&keyed_table, &r);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"before\":7,\"by_name\":{\"zeta\":{\"n\":1,\"s\":\"one\"},"
                           "\"alpha\":{\"n\":2},\"mid\":{\"n\":-3,\"s\":\"three\"}}}");
    free(s);

    keyed_rec back;
    mp_rtable_read(&keyed_table, o, &back);
    assert_int_equal(back.before, 7);
    keyed_el got[4];
    const cJSON *v = cJSON_GetObjectItem(o, "by_name");
    assert_int_equal(mp_rtable_read_list(&keyed_fields[1], v, got, 3), 3);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(got[i].key, els[i].key);
        assert_int_equal(got[i].n, els[i].n);
        if (els[i].s)
            assert_string_equal(got[i].s, els[i].s);
        else
            assert_null(got[i].s);
    }
    back.els = got;
    back.nels = 3;
    cJSON *again = mp_rtable_json(&keyed_table, &back);
    assert_true(cJSON_Compare(o, again, 1));
    cJSON_Delete(again);

    /* At most max read; a member that is not an object skipped; an array is
     * not a keyed object. */
    assert_int_equal(mp_rtable_read_list(&keyed_fields[1], v, got, 2), 2);
    assert_string_equal(got[1].key, "alpha");
    cJSON_AddNumberToObject((cJSON *)v, "bad", 1);
    assert_int_equal(mp_rtable_read_list(&keyed_fields[1], v, got, 4), 3);
    cJSON *arr = cJSON_CreateArray();
    assert_int_equal(mp_rtable_read_list(&keyed_fields[1], arr, got, 4), 0);
    cJSON_Delete(arr);
    cJSON_Delete(o);

    r.nels = 0;
    o = mp_rtable_json(&keyed_table, &r);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"before\":7,\"by_name\":{}}");
    free(s);
    cJSON_Delete(o);
}

/* The top level's members written in the table's order, those without a
 * value left out, and read back. */
static void top_level_through_its_table(void **state)
{
    (void)state;
    cJSON *rec = cJSON_Parse("{\"from\":\"journal.jsonl\"}");
    mp_rrun r = {.schema = "muxprof-results/1", .has_tool = 1,
                 .tool = {"muxprof", "0.1.0", "g"}, .status = "interrupted",
                 .interrupted_cell = "poll pipe ready N=10", .interrupted_signal = 15,
                 .recovered = rec, .started_utc = "S", .finished_utc = "F"};
    cJSON *o = mp_rrun_json(&r);
    char *s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"schema\":\"muxprof-results/1\",\"tool\":{\"name\":\"muxprof\","
                           "\"version\":\"0.1.0\",\"git_describe\":\"g\"},"
                           "\"status\":\"interrupted\",\"interrupted_cell\":\"poll pipe ready N=10\","
                           "\"interrupted_signal\":15,\"recovered\":{\"from\":\"journal.jsonl\"},"
                           "\"started_utc\":\"S\",\"finished_utc\":\"F\"}");
    free(s);
    mp_rrun back;
    mp_rrun_read(o, &back);
    assert_string_equal(back.schema, "muxprof-results/1");
    assert_true(back.has_tool);
    assert_string_equal(back.tool.version, "0.1.0");
    assert_string_equal(back.status, "interrupted");
    assert_string_equal(back.interrupted_cell, "poll pipe ready N=10");
    assert_int_equal(back.interrupted_signal, 15);
    assert_ptr_equal(back.recovered, cJSON_GetObjectItem(o, "recovered"));
    assert_string_equal(back.started_utc, "S");
    assert_string_equal(back.finished_utc, "F");
    cJSON_Delete(o);

    mp_rrun some = {.status = "complete", .interrupted_cell = "", .finished_utc = "F"};
    o = mp_rrun_json(&some);
    s = cJSON_PrintUnformatted(o);
    assert_string_equal(s, "{\"status\":\"complete\",\"finished_utc\":\"F\"}");
    free(s);
    mp_rrun_read(o, &back);
    assert_false(back.has_tool);
    assert_null(back.tool.version);
    assert_null(back.interrupted_cell);
    assert_int_equal(back.interrupted_signal, 0);
    assert_null(back.started_utc);
    cJSON_Delete(o);
    cJSON_Delete(rec);
}

static void tool_names_this_binary(void **state)
{
    (void)state;
    cJSON *t = mp_res_tool_json();
    char keys[128];
    keys_of(t, keys, sizeof keys);
    assert_string_equal(keys, "name,version,git_describe");
    assert_string_equal(cJSON_GetObjectItem(t, "name")->valuestring, "muxprof");
    cJSON_Delete(t);
}

/* The fields an object holds, by the context table: in the object's order
 * (not the table's), rlimit_nofile's fields in place of it, a value not of
 * its row's kind and a key the table lacks left out; max bounds them. */
static void held_fields_in_file_order(void **state)
{
    (void)state;
    cJSON *o = cJSON_Parse(
        "{\"nr_cpus\": 8, \"host\": \"h\", \"unknown\": 1, \"arch\": 5,"
        " \"rlimit_nofile\": {\"hard\": 9, \"x\": 1, \"soft\": 2.5},"
        " \"perf_event_paranoid\": \"unavailable\", \"kptr_restrict\": \"unreadable\","
        " \"nr_open\": 1048576, \"hypervisor\": 1, \"emulated\": false,"
        " \"emulation_seen\": [], \"noise\": null, \"geometry\": {\"L1d\": 1},"
        " \"simulated\": true}");
    assert_non_null(o);
    mp_rtheld h[32];
    size_t n = mp_rtable_held(&mp_rcontext_table, o, h, 32);
    char keys[512] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s%s%s", i ? "," : "",
                 h[i].in ? h[i].in->key : "", h[i].in ? "." : "", h[i].field->key);
    assert_string_equal(keys, "nr_cpus,host,rlimit_nofile.hard,perf_event_paranoid,nr_open,"
                              "emulated,emulation_seen,geometry,simulated");
    assert_int_equal(mp_rtable_held(&mp_rcontext_table, o, h, 3), 3);
    assert_string_equal(h[2].field->key, "hard");
    assert_int_equal(mp_rtable_held(&mp_rcontext_table, cJSON_GetObjectItem(o, "host"), h, 32),
                     0);
    cJSON_Delete(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_nulls_when_empty),
        cmocka_unit_test(number_absent_kinds),
        cmocka_unit_test(count_omit_negative),
        cmocka_unit_test(cell_keys_by_status_and_mode),
        cmocka_unit_test(context_through_its_table),
        cmocka_unit_test(config_read_back_from_its_writer),
        cmocka_unit_test(counters_through_their_tables),
        cmocka_unit_test(simulated_counters_through_their_tables),
        cmocka_unit_test(simulated_config_through_its_table),
        cmocka_unit_test(simulated_geometry_through_its_table),
        cmocka_unit_test(plain_c_through_a_table),
        cmocka_unit_test(profile_through_its_tables),
        cmocka_unit_test(keyed_list_through_its_table),
        cmocka_unit_test(topology_through_its_tables),
        cmocka_unit_test(simulated_topology_through_its_tables),

        cmocka_unit_test(wake_delay_round_trip),
        cmocka_unit_test(doc_names_every_field),
        cmocka_unit_test(doc_names_every_table_field),
        cmocka_unit_test(top_level_through_its_table),
        cmocka_unit_test(tool_names_this_binary),
        cmocka_unit_test(held_fields_in_file_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
