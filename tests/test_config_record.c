/* SPDX-License-Identifier: MIT */
/* test_config_record.c - results.json's "config" object as run/ writes it
 * from a run's configuration: for fixed configurations, each field's exact
 * bytes, and every row of the table written, in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "run/config.h"
#include "run/results.h"

/* c's config object as its results.json head holds it: every field of
 * want, byte for byte, and one field per row of the table, in its order
 * (so a field want lacks only where its row is). */
static void assert_config(const mp_run_config *c, const char *want_text)
{
    mp_results r;
    memset(&r, 0, sizeof r);
    r.cfg = c;
    cJSON *head = mp_results_head_json(&r), *want = cJSON_Parse(want_text);
    assert_non_null(head);
    assert_non_null(want);
    const cJSON *got = cJSON_GetObjectItemCaseSensitive(head, "config"), *e;
    cJSON_ArrayForEach(e, want) {
        char *w = cJSON_PrintUnformatted(e);
        char *g = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(got, e->string));
        if (!g || strcmp(w, g))
            fail_msg("config.%s: %s where the test wants %s", e->string, g ? g : "nothing", w);
        free(w);
        free(g);
    }
    size_t i = 0;
    cJSON_ArrayForEach(e, got) {
        assert_true(i < mp_run_config_table.nfields);
        assert_string_equal(e->string, mp_run_config_table.fields[i++].key);
    }
    assert_int_equal(i, mp_run_config_table.nfields);
    cJSON_Delete(want);
    cJSON_Delete(head);
}

/* Every list holding more than one value, every name list through its names. */
static void many_options(void **state)
{
    (void)state;
    static mp_run_config c;
    memset(&c, 0, sizeof c);
    c.backends[c.nbackends++] = mp_backend_find("poll");
    c.backends[c.nbackends++] = mp_backend_find("epoll");
    c.fds[c.ncounts++] = 10;
    c.fds[c.ncounts++] = 100;
    c.actives[c.nactives++] = 1;
    c.actives[c.nactives++] = 4;
    c.modes[c.nmodes++] = MP_MODE_READY;
    c.modes[c.nmodes++] = MP_MODE_WAKEUP;
    c.wake_delays_ns[c.nwake_delays++] = 0;
    c.wake_delays_ns[c.nwake_delays++] = 30000;
    c.kinds[c.nkinds++] = MP_FD_EVENTFD;
    c.kinds[c.nkinds++] = MP_FD_PIPE;
    c.fd_tables[c.nfd_tables++] = MP_FDT_PRIVATE;
    c.fd_tables[c.nfd_tables++] = MP_FDT_SHARED;
    c.samples = 20, c.repeats = 4, c.warmup = 7, c.waiters = 3;
    c.repeat_order = MP_REPEATS_BACK_TO_BACK;
    c.ready_pos = MP_POS_MIDDLE;
    c.experiment_names[c.nexperiments++] = "calls";
    c.experiment_names[c.nexperiments++] = "herd";
    strcpy(c.events, "none");
    strcpy(c.placement, "same-l3");
    c.quick = 1, c.profile = 1;
    assert_config(&c,
        "{\"backends\":[\"poll\",\"epoll\"],\"fds\":[10,100],\"active\":[1,4],"
        "\"modes\":[\"ready\",\"wakeup\"],\"wake_delays_ns\":[0,30000],"
        "\"fd_kinds\":[\"eventfd\",\"pipe\"],\"fd_kind\":\"eventfd\","
        "\"fd_table\":[\"private\",\"shared\"],\"samples\":20,\"repeats\":4,"
        "\"warmup\":7,\"ready_pos\":\"middle\",\"repeat_order\":\"back-to-back\","
        "\"events\":\"none\",\"placement\":\"same-l3\",\"quick\":true,"
        "\"experiments\":[\"calls\",\"herd\"],\"waiters\":3,\"profile\":true,"
        "\"anonymize\":false}");
}

/* No wake delay given reads as one of 0; flags false are written false. */
static void few_options(void **state)
{
    (void)state;
    static mp_run_config c;
    memset(&c, 0, sizeof c);
    c.backends[c.nbackends++] = mp_backend_find("select");
    c.fds[c.ncounts++] = 1000;
    c.actives[c.nactives++] = 1;
    c.modes[c.nmodes++] = MP_MODE_WAKEUP;
    c.kinds[c.nkinds++] = MP_FD_SOCKETPAIR;
    c.fd_tables[c.nfd_tables++] = MP_FDT_SHARED;
    c.samples = 100, c.repeats = 9, c.warmup = 0, c.waiters = 4;
    c.ready_pos = MP_POS_FIRST;
    strcpy(c.events, "cache");
    strcpy(c.placement, "auto");
    c.anonymize = 1;
    assert_config(&c,
        "{\"backends\":[\"select\"],\"fds\":[1000],\"active\":[1],"
        "\"modes\":[\"wakeup\"],\"wake_delays_ns\":[0],\"fd_kinds\":[\"socketpair\"],"
        "\"fd_kind\":\"socketpair\",\"fd_table\":[\"shared\"],\"samples\":100,"
        "\"repeats\":9,\"warmup\":0,\"ready_pos\":\"first\",\"repeat_order\":\"passes\","
        "\"events\":\"cache\",\"placement\":\"auto\",\"quick\":false,"
        "\"experiments\":[],\"waiters\":4,\"profile\":false,\"anonymize\":true}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_options),
        cmocka_unit_test(few_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
