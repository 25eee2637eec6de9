/* SPDX-License-Identifier: MIT */
/* test_topology.c - placements, caches and counts of topology/ on synthetic
 * topologies and XML fixtures only, never this host's: one table row per
 * machine, each carrying its line number so a failure points at the row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "run/topo_rec.h"
#include "topology/topology.h"

#define R (-2)   /* expected pair value meaning "placement refused" */

struct want_cache { int level; unsigned long long size; int instances, pus_per; };
struct want_pair { int w, p; const char *kind; };  /* w == R: refused */

struct machine {
    int line;
    const char *name;
    const char *synthetic;
    int packages, numa, cores, pus;
    struct want_cache caches[4];   /* level 0 ends the list */
    /* in mp_topo_placement_names order: auto smt same-l2 same-l3 cross-l3
     * cross-numa none */
    struct want_pair pl[MP_TOPO_NPLACEMENTS];
};

#define KB 1024ULL
#define MB (1024ULL * 1024ULL)
#define NONE_PAIR {-1, -1, "none"}
#define REFUSED {R, R, NULL}

static const struct machine machines[] = {
    /* Two-socket Intel Xeon-like: 4 cores x 2 threads per socket, private
     * L2, one L3 and one NUMA node per socket, Linux CPU numbering (thread 0
     * of every core first, then the siblings). */
    {__LINE__, "intel-2s-smt",
     "package:2 numa:1 l3:1(size=30MiB) l2:4(size=1MiB) l1d:1(size=48KiB) core:1 "
     "pu:2(indexes=0,8,1,9,2,10,3,11,4,12,5,13,6,14,7,15)",
     2, 2, 8, 16,
     {{1, 48 * KB, 8, 2}, {2, 1 * MB, 8, 2}, {3, 30 * MB, 2, 8}, {0, 0, 0, 0}},
     {{0, 1, "same-l3"}, {0, 8, "smt"}, REFUSED, {0, 1, "same-l3"}, REFUSED,
      {0, 4, "cross-numa"}, NONE_PAIR}},
    /* Two-socket AMD EPYC-like (NPS1): two CCXs (L3) per socket, 4 cores x 2
     * threads per CCX, AMD numbering (siblings at +16). */
    {__LINE__, "epyc-2s-ccx",
     "package:2 numa:1 l3:2(size=16MiB) l2:4(size=512KiB) l1d:1(size=32KiB) core:1 "
     "pu:2(indexes=0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23,"
     "8,24,9,25,10,26,11,27,12,28,13,29,14,30,15,31)",
     2, 2, 16, 32,
     {{1, 32 * KB, 16, 2}, {2, 512 * KB, 16, 2}, {3, 16 * MB, 4, 8}, {0, 0, 0, 0}},
     {{0, 1, "same-l3"}, {0, 16, "smt"}, REFUSED, {0, 1, "same-l3"}, {0, 4, "cross-l3"},
      {0, 8, "cross-numa"}, NONE_PAIR}},
    /* Arm Neoverse V1-like (Graviton3): one socket, no SMT, private 1 MiB
     * L2, one shared L3. */
    {__LINE__, "neoverse-1s",
     "package:1 l3:1(size=32MiB) l2:16(size=1MiB) l1d:1(size=64KiB) core:1 pu:1",
     1, 1, 16, 16,
     {{1, 64 * KB, 16, 1}, {2, 1 * MB, 16, 1}, {3, 32 * MB, 1, 16}, {0, 0, 0, 0}},
     {{0, 1, "same-l3"}, REFUSED, REFUSED, {0, 1, "same-l3"}, REFUSED, REFUSED, NONE_PAIR}},
    /* Arm Neoverse N1-like two-socket host whose firmware reports no L3: no
     * two cores share a cache, so auto falls back to two cores of one NUMA
     * node and stays "auto". */
    {__LINE__, "neoverse-2s-no-l3",
     "package:2 numa:1 l2:8(size=1MiB) l1d:1(size=64KiB) core:1 pu:1",
     2, 2, 16, 16,
     {{1, 64 * KB, 16, 1}, {2, 1 * MB, 16, 1}, {0, 0, 0, 0}},
     {{0, 1, "auto"}, REFUSED, REFUSED, REFUSED, REFUSED, {0, 8, "cross-numa"}, NONE_PAIR}},
    /* Arm cluster: 4 cores share an L2, no L3: the L2 is the LLC. */
    {__LINE__, "arm-cluster-l2",
     "package:1 l2:2(size=2MiB) l1d:4(size=32KiB) core:1 pu:1",
     1, 1, 8, 8,
     {{1, 32 * KB, 8, 1}, {2, 2 * MB, 2, 4}, {0, 0, 0, 0}},
     {{0, 1, "same-l2"}, REFUSED, {0, 1, "same-l2"}, REFUSED, REFUSED, REFUSED, NONE_PAIR}},
    /* This kind of VM: 2 vCPUs on AMD EPYC, L1d 32K and L2 512K per core,
     * shared L3 32M. */
    {__LINE__, "vm-2pu",
     "package:1 l3:1(size=32MiB) l2:2(size=512KiB) l1d:1(size=32KiB) core:1 pu:1",
     1, 1, 2, 2,
     {{1, 32 * KB, 2, 1}, {2, 512 * KB, 2, 1}, {3, 32 * MB, 1, 2}, {0, 0, 0, 0}},
     {{0, 1, "same-l3"}, REFUSED, REFUSED, {0, 1, "same-l3"}, REFUSED, REFUSED, NONE_PAIR}},
    /* A VM with one core and two threads: auto falls back to SMT. */
    {__LINE__, "vm-1core-smt",
     "package:1 l2:1(size=1MiB) l1d:1(size=32KiB) core:1 pu:2",
     1, 1, 1, 2,
     {{1, 32 * KB, 1, 2}, {2, 1 * MB, 1, 2}, {0, 0, 0, 0}},
     {{0, 1, "smt"}, {0, 1, "smt"}, REFUSED, REFUSED, REFUSED, REFUSED, NONE_PAIR}},
    /* One PU, no caches reported: auto is "none". */
    {__LINE__, "vm-1pu", "package:1 core:1 pu:1",
     1, 1, 1, 1,
     {{0, 0, 0, 0}},
     {NONE_PAIR, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, NONE_PAIR}},
};

static mp_topo *load_or_fail(const struct machine *m)
{
    mp_topo *t = NULL;
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_topo_load(&t, m->synthetic, &err);
    if (rc != 0)
        fail_msg("row line %d (%s): load failed: %d %s", m->line, m->name, rc, err.msg);
    return t;
}

/* "auto, smt, none" for the offered placements of a row. */
static void offered_of(const struct machine *m, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < MP_TOPO_NPLACEMENTS; k++)
        if (m->pl[k].w != R)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     mp_topo_placement_names[k]);
}

static void test_counts_and_caches(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
        const struct machine *m = &machines[i];
        mp_topo *t = load_or_fail(m);
        mp_topo_counts n;
        mp_topo_get_counts(t, &n);
        print_message("row line %d: %s\n", m->line, m->name);
        assert_int_equal(n.packages, m->packages);
        assert_int_equal(n.numa_nodes, m->numa);
        assert_int_equal(n.cores, m->cores);
        assert_int_equal(n.pus, m->pus);
        assert_int_equal(n.usable_pus, m->pus);
        assert_false(mp_topo_is_host(t));

        mp_cache_level got[5];
        int nc = mp_topo_caches(t, got, 5), want_nc = 0;
        while (want_nc < 4 && m->caches[want_nc].level)
            want_nc++;
        assert_int_equal(nc, want_nc);
        for (int c = 0; c < want_nc; c++) {
            assert_int_equal(got[c].level, m->caches[c].level);
            assert_int_equal(got[c].size_bytes, m->caches[c].size);
            assert_int_equal(got[c].size_min_bytes, got[c].size_max_bytes);
            assert_int_equal(got[c].instances, m->caches[c].instances);
            assert_int_equal(got[c].pus_per_instance, m->caches[c].pus_per);
            assert_int_equal(got[c].line_bytes, 64);   /* synthetic caches: 64 */
            assert_int_equal(mp_topo_cache_bytes(t, got[c].level, -1), m->caches[c].size);
        }
        int known = -1;
        assert_int_equal(mp_topo_line_bytes(t, &known), 64);
        assert_int_equal(known, want_nc > 0);
        mp_topo_free(t);
    }
}

static void test_placements(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
        const struct machine *m = &machines[i];
        mp_topo *t = load_or_fail(m);
        char offered[128], want_tail[160];
        offered_of(m, offered, sizeof offered);
        snprintf(want_tail, sizeof want_tail, "this host offers: %s", offered);
        int n_offered = 0;
        for (int k = 0; k < MP_TOPO_NPLACEMENTS; k++) {
            const char *name = mp_topo_placement_names[k];
            const struct want_pair *w = &m->pl[k];
            mp_pu_pair pair;
            mp_err err;
            mp_err_clear(&err);
            memset(&pair, 0x55, sizeof pair);
            print_message("row line %d: %s --placement %s\n", m->line, m->name, name);
            int rc = mp_topo_pick(t, name, &pair, &err);
            if (w->w == R) {
                assert_int_equal(rc, MP_EUSAGE);
                assert_int_equal(err.code, MP_EUSAGE);
                print_message("  refused: %s\n", err.msg);
                assert_non_null(strstr(err.msg, name));
                assert_non_null(strstr(err.msg, want_tail));
                assert_non_null(mp_topo_refusal(t, name));
            } else {
                n_offered++;
                assert_int_equal(rc, 0);
                assert_int_equal(pair.waiter_pu, w->w);
                assert_int_equal(pair.poker_pu, w->p);
                assert_string_equal(pair.placement, w->kind);
                assert_string_equal(pair.requested, name);
                assert_true(pair.detail[0] != '\0');
                assert_null(mp_topo_refusal(t, name));
            }
        }
        mp_pu_pair all[MP_TOPO_NPLACEMENTS];
        assert_int_equal(mp_topo_offered(t, all, MP_TOPO_NPLACEMENTS), n_offered);
        mp_topo_free(t);
    }
}

static void test_unknown_placement_and_bad_input(void **state)
{
    (void)state;
    mp_topo *t = load_or_fail(&machines[0]);
    mp_pu_pair pair;
    mp_err err;
    mp_err_clear(&err);
    assert_int_equal(mp_topo_pick(t, "same-core", &pair, &err), MP_EUSAGE);
    for (int k = 0; k < MP_TOPO_NPLACEMENTS; k++)
        assert_non_null(strstr(err.msg, mp_topo_placement_names[k]));
    /* A synthetic topology is not this host: binding is refused, -1 is a no-op. */
    mp_err_clear(&err);
    assert_int_equal(mp_topo_bind_thread(t, 0, &err), -EXDEV);
    assert_non_null(strstr(err.msg, "synthetic"));
    assert_int_equal(mp_topo_bind_thread(t, -1, &err), 0);
    mp_topo_free(t);

    mp_topo *bad = (mp_topo *)0x1;
    mp_err_clear(&err);
    assert_int_equal(mp_topo_load(&bad, "package:2 bogus:3", &err), MP_EUSAGE);
    assert_null(bad);
    assert_non_null(strstr(err.msg, "bogus:3"));
}

/* The "topology" object of t, whose members `muxprof topology --json` prints. */
static cJSON *summary_json(const mp_topo *t)
{
    mp_topo_rec rec;
    cJSON *j = mp_topo_rec_fill(&rec, t) == 0 ? mp_rtopology_json(&rec.m) : NULL;
    mp_topo_rec_free(&rec);
    return j;
}

static mp_topo *load_fixture(const char *file)
{
    char path[512];
    mp_topo *t = NULL;
    mp_err err;
    mp_err_clear(&err);
    snprintf(path, sizeof path, "%s/topology/%s", MP_TEST_FIXTURES, file);
    int rc = mp_topo_load_xml(&t, path, &err);
    if (rc != 0)
        fail_msg("%s: %d %s", path, rc, err.msg);
    return t;
}

/* A cgroup cpuset of one thread per core: SMT exists but is not usable. */
static void test_restricted_cpuset_xml(void **state)
{
    (void)state;
    mp_topo *t = load_fixture("vm-smt-cpuset-0_2.xml");
    mp_topo_counts n;
    char list[64];
    mp_topo_get_counts(t, &n);
    assert_int_equal(n.pus, 4);
    assert_int_equal(n.usable_pus, 2);
    mp_topo_usable_list(t, list, sizeof list);
    assert_string_equal(list, "0,2");

    mp_pu_pair pair;
    mp_err err;
    mp_err_clear(&err);
    assert_int_equal(mp_topo_pick(t, "smt", &pair, &err), MP_EUSAGE);
    assert_non_null(strstr(err.msg, "this host offers: auto, same-l3, none"));
    assert_int_equal(mp_topo_pick(t, "auto", &pair, &err), 0);
    assert_string_equal(pair.placement, "same-l3");
    assert_int_equal(pair.waiter_pu, 0);
    assert_int_equal(pair.poker_pu, 2);

    cJSON *j = summary_json(t);
    assert_non_null(j);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "restricted")));
    assert_string_equal(cJSON_GetObjectItem(j, "usable_cpus")->valuestring, "0,2");
    assert_int_equal(cJSON_GetObjectItem(j, "pus")->valueint, 4);
    cJSON_Delete(j);

    FILE *f = tmpfile();
    assert_non_null(f);
    mp_topo_print(t, f);
    char text[4096];
    rewind(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "usable PUs: 0,2 (2 of 4"));
    assert_non_null(strstr(text, "smt "));
    mp_topo_free(t);
}

/* hwloc without line sizes: 64 assumed, and said so. */
static void test_unknown_line_size_xml(void **state)
{
    (void)state;
    mp_topo *t = load_fixture("vm-2pu-no-linesize.xml");
    int known = -1;
    assert_int_equal(mp_topo_line_bytes(t, &known), 64);
    assert_int_equal(known, 0);
    cJSON *j = summary_json(t);
    assert_non_null(j);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "line_bytes_known")));
    assert_int_equal(cJSON_GetObjectItem(j, "line_bytes")->valueint, 64);
    cJSON *caches = cJSON_GetObjectItem(j, "caches");
    assert_int_equal(cJSON_GetArraySize(caches), 3);
    cJSON *l3 = cJSON_GetArrayItem(caches, 2);
    assert_int_equal(cJSON_GetObjectItem(l3, "level")->valueint, 3);
    assert_int_equal(cJSON_GetObjectItem(l3, "line_bytes")->valueint, 0);
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(l3, "shared_by"), 0)->valuestring,
                        "0-1");
    cJSON_Delete(j);
    mp_topo_free(t);
}

/* The JSON summary of the EPYC-like row: counts, caches and offered pairs. */
static void test_json_summary(void **state)
{
    (void)state;
    mp_topo *t = load_or_fail(&machines[1]);
    cJSON *j = summary_json(t);
    assert_non_null(j);
    assert_int_equal(cJSON_GetObjectItem(j, "pus")->valueint, 32);
    assert_int_equal(cJSON_GetObjectItem(j, "cores")->valueint, 16);
    assert_int_equal(cJSON_GetObjectItem(j, "numa_nodes")->valueint, 2);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "restricted")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "line_bytes_known")));
    cJSON *l3 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "caches"), 2);
    assert_int_equal((long long)cJSON_GetObjectItem(l3, "size_bytes")->valuedouble,
                     (long long)(16 * MB));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(l3, "shared_by")), 4);
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(l3, "shared_by"), 1)->valuestring,
                        "4-7,20-23");
    cJSON *pl = cJSON_GetObjectItem(j, "placements_offered");
    assert_int_equal(cJSON_GetArraySize(pl), 6);
    cJSON *x = cJSON_GetObjectItem(pl, "cross-l3");
    assert_non_null(x);
    assert_int_equal(cJSON_GetObjectItem(x, "poker_pu")->valueint, 4);
    assert_null(cJSON_GetObjectItem(pl, "same-l2"));
    cJSON_Delete(j);
    mp_topo_free(t);
}

/* The JSON summary, byte for byte: each fixture's .json is the topology
 * object whose members `muxprof topology --json` prints after schema and
 * tool, for its .xml (loaded from the fixtures folder, so that "source"
 * names the file alone), or, for the EPYC-like row, for its synthetic
 * description. */
static char *summary_text(const mp_topo *t)
{
    cJSON *j = summary_json(t);
    char *s = j ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    return s;
}

static void expect_summary(const mp_topo *t, const char *want_file)
{
    char path[512], want[16384];
    snprintf(path, sizeof path, "%s/topology/%s", MP_TEST_FIXTURES, want_file);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot open", path);
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = '\0';
    char *got = summary_text(t);
    assert_non_null(got);
    size_t len = strlen(got);
    if (len + 1 != n || strncmp(got, want, len) || want[len] != '\n')
        fail_msg("%s differs from the summary:\n%s", want_file, got);
    free(got);
}

static void test_json_bytes(void **state)
{
    (void)state;
    static const char *const xmls[] = {"vm-smt-cpuset-0_2", "vm-2pu-no-linesize",
                                       "vm-hybrid-l2"};
    char dir[512], back[4096], file[64];
    assert_non_null(getcwd(back, sizeof back));
    snprintf(dir, sizeof dir, "%s/topology", MP_TEST_FIXTURES);
    assert_int_equal(chdir(dir), 0);
    for (size_t i = 0; i < sizeof xmls / sizeof xmls[0]; i++) {
        mp_topo *t = NULL;
        mp_err err;
        mp_err_clear(&err);
        snprintf(file, sizeof file, "%s.xml", xmls[i]);
        if (mp_topo_load_xml(&t, file, &err) != 0)
            fail_msg("%s: %s", file, err.msg);
        snprintf(file, sizeof file, "%s.json", xmls[i]);
        expect_summary(t, file);
        mp_topo_free(t);
    }
    assert_int_equal(chdir(back), 0);
    mp_topo *t = load_or_fail(&machines[1]);
    expect_summary(t, "epyc-2s-ccx.json");
    mp_topo_free(t);
}

/* The verb: exit statuses for good and bad input. */
static void test_verb_exit_status(void **state)
{
    (void)state;
    char *ok[] = {"topology", "--synthetic", "package:1 core:2 pu:2", NULL};
    char *json[] = {"topology", "--json", "--synthetic", "package:1 core:2 pu:1", NULL};
    char *bad_desc[] = {"topology", "--synthetic", "nonsense:9", NULL};
    char *bad_opt[] = {"topology", "--frobnicate", NULL};
    char *no_val[] = {"topology", "--synthetic", NULL};
    char *help[] = {"topology", "--help", NULL};
    assert_int_equal(mp_cmd_topology(3, ok), 0);
    assert_int_equal(mp_cmd_topology(4, json), 0);
    assert_int_equal(mp_cmd_topology(3, bad_desc), 2);
    assert_int_equal(mp_cmd_topology(2, bad_opt), 2);
    assert_int_equal(mp_cmd_topology(2, no_val), 2);
    assert_int_equal(mp_cmd_topology(2, help), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_caches),
        cmocka_unit_test(test_placements),
        cmocka_unit_test(test_unknown_placement_and_bad_input),
        cmocka_unit_test(test_restricted_cpuset_xml),
        cmocka_unit_test(test_unknown_line_size_xml),
        cmocka_unit_test(test_json_summary),
        cmocka_unit_test(test_json_bytes),
        cmocka_unit_test(test_verb_exit_status),
    };
    return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
