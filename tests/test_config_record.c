/* test_config_record.c - results.json's "config" object as run/ writes it
 * from a run's configuration: the exact bytes for fixed configurations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "run/config.h"
#include "run/results.h"

/* The config object of c's results.json head, unformatted (free it). */
static char *config_text(const mp_run_config *c)
{
    mp_results r;
    memset(&r, 0, sizeof r);
    r.cfg = c;
    cJSON *head = mp_results_head_json(&r);
    assert_non_null(head);
    char *s = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(head, "config"));
    cJSON_Delete(head);
    assert_non_null(s);
    return s;
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
    char *s = config_text(&c);
    assert_string_equal(s,
        "{\"backends\":[\"poll\",\"epoll\"],\"fds\":[10,100],\"active\":[1,4],"
        "\"modes\":[\"ready\",\"wakeup\"],\"wake_delays_ns\":[0,30000],"
        "\"fd_kinds\":[\"eventfd\",\"pipe\"],\"fd_kind\":\"eventfd\","
        "\"fd_table\":[\"private\",\"shared\"],\"samples\":20,\"repeats\":4,"
        "\"warmup\":7,\"ready_pos\":\"middle\",\"repeat_order\":\"back-to-back\","
        "\"events\":\"none\",\"placement\":\"same-l3\",\"quick\":true,"
        "\"experiments\":[\"calls\",\"herd\"],\"waiters\":3,\"profile\":true,"
        "\"anonymize\":false}");
    free(s);
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
    char *s = config_text(&c);
    assert_string_equal(s,
        "{\"backends\":[\"select\"],\"fds\":[1000],\"active\":[1],"
        "\"modes\":[\"wakeup\"],\"wake_delays_ns\":[0],\"fd_kinds\":[\"socketpair\"],"
        "\"fd_kind\":\"socketpair\",\"fd_table\":[\"shared\"],\"samples\":100,"
        "\"repeats\":9,\"warmup\":0,\"ready_pos\":\"first\",\"repeat_order\":\"passes\","
        "\"events\":\"cache\",\"placement\":\"auto\",\"quick\":false,"
        "\"experiments\":[],\"waiters\":4,\"profile\":false,\"anonymize\":true}");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_options),
        cmocka_unit_test(few_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
