/* SPDX-License-Identifier: MIT */
/* test_measure.c - mp_run_measure calls the steps it is given (run/measure.h)
 * where a run needs them: the experiments after the sweep with the run's
 * results and journal, --anonymize's rewrite and the report after the
 * outputs are written, no report after an interruption; what each step
 * returns reaches the outcome; a journal left in the directory is refused.  The steps are fakes that count their calls;
 * the run is a tiny one of one backend (poll, ready mode, no counters). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/file.h"
#include "pmu/pmu.h"
#include "run/measure.h"
#include "run/sample.h"
#include "test_util.h"
#include "topology/topology.h"

static char root[64];

/* What the fake steps return (set by a test before run_one). */
static struct {
    int experiments_rc, report_rc;
    int stop_signal;   /* the experiments step is interrupted by it */
} fake;

/* What the fake steps saw (cleared by run_one). */
static struct {
    int experiments, anonymize, report;
    int figures;                   /* the report's figures argument */
    int had_results, had_journal;  /* the experiments step got both */
    char anon_src[PATH_MAX];
} seen;

static int fake_experiments(const mp_run_stage *st, mp_err *err)
{
    seen.experiments++;
    seen.had_results = st->results != NULL && st->results->ncells == 1;
    seen.had_journal = st->journal != NULL && st->journal->fd >= 0;
    if (fake.stop_signal) {
        mp_sample_stop = fake.stop_signal;
        return -EINTR;
    }
    if (fake.experiments_rc < 0)
        return mp_errf(err, fake.experiments_rc, "fake experiment failed");
    return 0;
}

static int fake_anonymize(const char *src, mp_dir *dst, mp_err *err)
{
    (void)dst;
    (void)err;
    seen.anonymize++;
    snprintf(seen.anon_src, sizeof seen.anon_src, "%s", src);
    return 0;
}

static int fake_report(mp_dir *dir, int figures, mp_err *err)
{
    (void)dir;
    seen.report++;
    seen.figures = figures;
    if (fake.report_rc < 0)
        return mp_errf(err, fake.report_rc, "fake report failed");
    return 0;
}

static const mp_run_steps steps = {.experiments = fake_experiments,
                                   .anonymize = fake_anonymize,
                                   .report = fake_report};

/* One tiny run into root/TAG (created, or opened when it exists) with extra
 * options (NULL-ended); returns mp_run_measure's result, o filled. */
static int run_one(const char *tag, const char *const *extra, mp_run_outcome *o)
{
    static mp_run_config cfg;
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/%s", root, tag);
    const char *args[32] = {"run", "--fds", "10", "--samples", "20", "--repeats", "1",
                            "--warmup", "1", "--backends", "poll", "--mode", "ready",
                            "--events", "none", "--quiet", "--out", out};
    int n = 18;
    for (size_t i = 0; extra && extra[i]; i++)
        args[n++] = extra[i];
    mp_err err;
    memset(&cfg, 0, sizeof cfg);
    assert_int_equal(mp_cli_parse_run(n, (char **)args, &cfg, &err), 0);

    mp_pmu_plan *plan = NULL;
    mp_topo *topo = NULL;
    mp_pu_pair pair;
    mp_dir dir = {.fd = -1};
    assert_int_equal(mp_pmu_plan_new(&plan, cfg.events, &err), 0);
    assert_int_equal(mp_topo_load(&topo, NULL, &err), 0);
    assert_int_equal(mp_topo_pick(topo, "none", &pair, &err), 0);
    if (access(out, F_OK) == 0)
        assert_int_equal(mp_dir_open(&dir, out, 1, &err), 0);
    else
        assert_int_equal(mp_dir_create(&dir, out, &err), 0);
    memset(&seen, 0, sizeof seen);
    int rc = mp_run_measure(&cfg, &dir, plan, topo, &pair, &steps, o, &err);
    mp_dir_close(&dir);
    mp_topo_free(topo);
    mp_pmu_plan_free(plan);
    return rc;
}

static int exists(const char *tag, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s/%s", root, tag, name);
    return access(path, F_OK) == 0;
}

static const char *const with_experiment[] = {"--experiment", "calls,register", NULL};

static void test_steps_in_order(void **state)
{
    (void)state;
    mp_run_outcome o;
    assert_int_equal(run_one("plain", with_experiment, &o), 0);
    assert_int_equal(seen.experiments, 1);
    assert_true(seen.had_results);
    assert_true(seen.had_journal);
    assert_int_equal(seen.anonymize, 0);
    assert_int_equal(seen.report, 1);
    assert_int_equal(seen.figures, 1);
    assert_int_equal(o.exit_code, 0);
    assert_true(o.saved);
    assert_int_equal(o.report_rc, 0);
    assert_true(exists("plain", "results.json"));
    assert_false(exists("plain", "journal.jsonl"));
    mp_run_outcome_free(&o);
}

/* Only the calls: the experiments step is not called. */
static void test_calls_only(void **state)
{
    (void)state;
    static const char *const noplots[] = {"--no-plots", NULL};
    mp_run_outcome o;
    assert_int_equal(run_one("calls", noplots, &o), 0);
    assert_int_equal(seen.experiments, 0);
    assert_int_equal(seen.report, 1);
    assert_int_equal(seen.figures, 0);
    assert_int_equal(o.exit_code, 0);
    mp_run_outcome_free(&o);
}

static void test_anonymize_step(void **state)
{
    (void)state;
    static const char *const anon[] = {"--anonymize", NULL};
    mp_run_outcome o;
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/anon", root);
    assert_int_equal(run_one("anon", anon, &o), 0);
    assert_int_equal(seen.anonymize, 1);
    assert_string_equal(seen.anon_src, want);
    assert_int_equal(seen.report, 1);
    mp_run_outcome_free(&o);
}

/* A report that fails: the results are saved, the failure is the outcome's. */
static void test_report_fails(void **state)
{
    (void)state;
    mp_run_outcome o;
    fake.report_rc = -EIO;
    assert_int_equal(run_one("repfail", NULL, &o), 0);
    fake.report_rc = 0;
    assert_int_equal(seen.report, 1);
    assert_int_equal(o.report_rc, -EIO);
    assert_string_equal(o.report_err.msg, "fake report failed");
    assert_true(o.saved);
    assert_int_equal(o.exit_code, 0);   /* the summary makes it 1 */
    mp_run_outcome_free(&o);
}

/* An experiment that fails: exit code 1, the outputs still written. */
static void test_experiments_fail(void **state)
{
    (void)state;
    mp_run_outcome o;
    fake.experiments_rc = -ENOMEM;
    assert_int_equal(run_one("xfail", with_experiment, &o), 0);
    fake.experiments_rc = 0;
    assert_int_equal(seen.experiments, 1);
    assert_int_equal(o.exit_code, 1);
    assert_true(o.saved);
    assert_true(exists("xfail", "results.json"));
    mp_run_outcome_free(&o);
}

/* Interrupted during the experiments: 128 + the signal, results saved as
 * interrupted, and no report (the summary says how to make it). */
static void test_interrupted_no_report(void **state)
{
    (void)state;
    mp_run_outcome o;
    fake.stop_signal = SIGTERM;
    assert_int_equal(run_one("stopped", with_experiment, &o), 0);
    fake.stop_signal = 0;
    mp_sample_stop = 0;
    assert_int_equal(seen.experiments, 1);
    assert_int_equal(seen.report, 0);
    assert_int_equal(o.exit_code, 128 + SIGTERM);
    assert_int_equal(o.results.interrupted, SIGTERM);
    assert_true(o.saved);
    assert_true(exists("stopped", "results.json"));
    mp_run_outcome_free(&o);
}

/* A run directory with a journal left in it: MP_EUSAGE before anything is
 * measured or reported, and the journal is still there. */
static void test_leftover_journal_kept(void **state)
{
    (void)state;
    mp_run_outcome o;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/left2", root);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/left2/journal.jsonl", root);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(run_one("left2", NULL, &o), MP_EUSAGE);
    assert_int_equal(seen.report, 0);
    assert_true(exists("left2", "journal.jsonl"));
}

int main(void)
{
    if (mp_test_mkdtemp(root, sizeof root, "measure") < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_in_order),
        cmocka_unit_test(test_calls_only),
        cmocka_unit_test(test_anonymize_step),
        cmocka_unit_test(test_report_fails),
        cmocka_unit_test(test_experiments_fail),
        cmocka_unit_test(test_interrupted_no_report),
        cmocka_unit_test(test_leftover_journal_kept),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mp_test_rmtree(root);
    return rc;
}
