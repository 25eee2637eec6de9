/* SPDX-License-Identifier: MIT */
/* test_journal.c - nothing measured is lost: real runs of the binary
 * (the quick cells with 1000 samples, about 5 s) stopped in every way a
 * run can stop, and the journal read back by `muxprof report DIR`.
 *
 * "Finished" cells are those the run printed as final on stderr ("[k/N]")
 * before the test sent its signal: each of them must be in results[]
 * afterwards, either in the results.json the run wrote or in the one
 * `muxprof report DIR` writes from the run's journal.jsonl.
 *   - SIGHUP, SIGQUIT: handled like SIGINT (exit 128+sig, results.json
 *     "interrupted");
 *   - two signals 50 ms apart, and two that arrive at once (SIGINT and
 *     SIGTERM sent while the run is stopped): exit at once, the finished
 *     cells recoverable;
 *   - SIGKILL: `muxprof report DIR` writes results.json ("interrupted",
 *     "recovered") and samples.csv from the journal, and says so;
 *   - stdout and stderr into a pipe whose reader leaves after two lines
 *     (`muxprof run 2>&1 | head -2`): the run finishes, exit 0, complete;
 *   - samples.csv cannot be written at the end: the summary is printed
 *     anyway, stderr names the journal, exit 1; the journal read back gives
 *     the same results.json and results.csv as the run wrote;
 *   - --out on a full disk (a small tmpfs): the summary is printed and
 *     stderr says that the journal could not be written either, and what it
 *     holds is recovered without calling the run stopped;
 *   - journals that are not a run's: a torn last line is left out, a
 *     damaged line, a FIFO and a symlink are refused, a leftover journal is
 *     never overwritten by a new run;
 *   - SIGKILL once the first pass is over (before any cell is final):
 *     every cell is recovered from its pass records, with samples.csv;
 *   - results.json written, samples.csv not: `muxprof report DIR` (the
 *     advice printed) writes samples.csv from the journal;
 *   - the descriptor helper killed once the first pass is over: the cells
 *     keep the repeats timed before, the run says "errors";
 *   - a plan of more cells than a report reads, and a journal line of
 *     more samples than a run keeps: refused, nothing measured or read;
 *   - a journal of more cells than a report reads: its recovery refused,
 *     nothing written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#define RUN_TIMEOUT_MS 300000

static char root[64];

static const char *const longer[] = {"run", "--quick", "--samples", "1000", "--no-plots", NULL};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* Start `muxprof ARGS... --out OUT`; stdout and stderr to OUT.std{out,err},
 * or both to fd pipe_w when it is >= 0. */
static pid_t start_run(const char *out, const char *const *args, int pipe_w)
{
    char so[256], se[256];
    snprintf(so, sizeof so, "%s.stdout", out);
    snprintf(se, sizeof se, "%s.stderr", out);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char *argv[32];
        int n = 0;
        argv[n++] = MP_TEST_BIN;
        while (*args && n < 28)
            argv[n++] = *args++;
        argv[n++] = "--out";
        argv[n++] = out;
        argv[n] = NULL;
        int o = pipe_w >= 0 ? dup(pipe_w) : open(so, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = pipe_w >= 0 ? dup(pipe_w) : open(se, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0)
            _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);   /* as from a shell in the foreground */
        execv(MP_TEST_BIN, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static int wait_run(pid_t pid)
{
    int st = 0;
    for (int waited = 0;; waited += 10) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return st;
        if (waited >= RUN_TIMEOUT_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            fail_msg("muxprof (pid %d) still running after %d s: killed", (int)pid,
                     RUN_TIMEOUT_MS / 1000);
        }
        sleep_ms(10);
    }
}

static void expect_exit(int st, int code, const char *what)
{
    if (!WIFEXITED(st) || WEXITSTATUS(st) != code) {
        if (WIFSIGNALED(st))
            fail_msg("%s: killed by signal %d (%s), expected exit %d", what, WTERMSIG(st),
                     strsignal(WTERMSIG(st)), code);
        fail_msg("%s: exit %d, expected %d", what, WEXITSTATUS(st), code);
    }
}

/* Lines "[k/N ...] ... : ok|unsupported|error" the run printed on stderr. */
static int finished_cells(const char *out)
{
    char se[256];
    snprintf(se, sizeof se, "%s.stderr", out);
    char *s = mp_test_slurp(se);
    int n = 0;
    /* a final cell's line is "[I/N  T.Ts] ..."; "[pass ..." is progress */
    for (char *p = s; p && (p = strstr(p, "\n[")) != NULL; p++)
        if (strncmp(p + 2, "pass ", 5) && strchr(p + 1, '\n'))
            n++;
    if (s && s[0] == '[' && strncmp(s + 1, "pass ", 5) && strchr(s, '\n'))
        n++;
    free(s);
    return n;
}

/* Until the run has printed `cells` final cells (the journal has them). */
static void wait_cells(pid_t pid, const char *out, int cells)
{
    for (int i = 0; i < 30000; i++) {
        if (finished_cells(out) >= cells)
            return;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            fail_msg("the run ended before %d cells were final", cells);
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    fail_msg("no %d final cells after 300 s (a hang, not a slow host)", cells);
}

static cJSON *load_json(const char *path)
{
    char *s = mp_test_slurp(path);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    free(s);
    return j;
}

/* `muxprof report DIR --no-plots`; returns the exit status, stderr to DIR.report. */
static int report(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' report '%s' --no-plots >/dev/null 2>'%s.report'",
             MP_TEST_BIN, dir, dir);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* DIR/results.json exists (written by the run, or by report from the
 * journal) and has at least `cells` cells in results[] with status
 * `status`. */
static void expect_results(const char *dir, int cells, const char *status, int recovered)
{
    char path[256];
    snprintf(path, sizeof path, "%s/results.json", dir);
    struct stat st;
    if (stat(path, &st) != 0) {
        assert_true(recovered);
        int rc = report(dir);
        if (rc != 0)
            fail_msg("muxprof report %s: exit %d (see %s.report)", dir, rc, dir);
    }
    cJSON *j = load_json(path);
    if (!j)
        fail_msg("%s is missing or does not parse", path);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "status");
    int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "results"));
    if (!cJSON_IsString(s) || strcmp(s->valuestring, status))
        fail_msg("%s: status %s, expected %s", path, cJSON_IsString(s) ? s->valuestring : "?",
                 status);
    if (n < cells)
        fail_msg("%s holds %d cells; %d were final before the signal", path, n, cells);
    print_message("  %s: %s, %d cells (%d final before the signal)\n", dir, status, n, cells);
    cJSON_Delete(j);
}

static void out_path(char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "%s/%s", root, tag);
}

/* Signal a run once `k` cells are final; returns the wait status. */
static int signal_after(const char *out, int k, int sig, int second, long gap_ms, int *cells)
{
    pid_t pid = start_run(out, longer, -1);
    wait_cells(pid, out, k);
    *cells = finished_cells(out);
    kill(pid, sig);
    if (second) {
        sleep_ms(gap_ms);
        kill(pid, second);
    }
    return wait_run(pid);
}

static void test_sighup_sigquit(void **state)
{
    (void)state;
    static const int sigs[] = {SIGHUP, SIGQUIT};
    for (size_t i = 0; i < 2; i++) {
        char out[128];
        int cells;
        out_path(out, sizeof out, i ? "quit" : "hup");
        int st = signal_after(out, 3, sigs[i], 0, 0, &cells);
        expect_exit(st, 128 + sigs[i], i ? "SIGQUIT" : "SIGHUP");
        expect_results(out, cells, "interrupted", 0);
        /* no report.md, and the summary says what makes one */
        char path[256];
        snprintf(path, sizeof path, "%s.stdout", out);
        char *so = mp_test_slurp(path);
        assert_non_null(so);
        if (!strstr(so, "no report.md was written: `muxprof report ") ||
            !strstr(so, "` writes it and the figures"))
            fail_msg("the interrupted run does not say how to get its report:\n%s", so);
        free(so);
    }
}

static void test_two_signals(void **state)
{
    (void)state;
    char out[128];
    int cells;
    out_path(out, sizeof out, "int50");
    int st = signal_after(out, 3, SIGINT, SIGINT, 50, &cells);
    expect_exit(st, 130, "two SIGINTs 50 ms apart");
    expect_results(out, cells, "interrupted", 1);

    /* Both pending at once: the first handler sets the stop, the second
     * leaves before the sweep has seen it. */
    out_path(out, sizeof out, "burst");
    pid_t pid = start_run(out, longer, -1);
    wait_cells(pid, out, 3);
    cells = finished_cells(out);
    kill(pid, SIGSTOP);
    kill(pid, SIGINT);
    kill(pid, SIGTERM);
    kill(pid, SIGCONT);
    st = wait_run(pid);
    assert_true(WIFEXITED(st) && (WEXITSTATUS(st) == 130 || WEXITSTATUS(st) == 143));
    char se[256];
    snprintf(se, sizeof se, "%s.stderr", out);
    char *err = mp_test_slurp(se);
    if (!err || !strstr(err, "second signal") || !strstr(err, "journal.jsonl"))
        fail_msg("the second signal did not say where the finished cells are:\n%s",
                 err ? err : "(no stderr)");
    free(err);
    expect_results(out, cells, "interrupted", 1);
}

static void test_sigkill_recovered(void **state)
{
    (void)state;
    char out[128], path[256];
    int cells;
    out_path(out, sizeof out, "kill");
    int st = signal_after(out, 4, SIGKILL, 0, 0, &cells);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    snprintf(path, sizeof path, "%s/results.json", out);
    struct stat sb;
    assert_int_not_equal(stat(path, &sb), 0);   /* the run never got to write it */
    expect_results(out, cells, "interrupted", 1);
    cJSON *j = load_json(path);
    const cJSON *rec = cJSON_GetObjectItemCaseSensitive(j, "recovered");
    assert_true(cJSON_IsObject(rec));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rec, "finished")));
    cJSON_Delete(j);
    snprintf(path, sizeof path, "%s.report", out);
    char *err = mp_test_slurp(path);
    assert_non_null(err);
    if (!strstr(err, "had no results.json: wrote results.json, results.csv, samples.csv and "
                     "experiments.csv from"))
        fail_msg("report did not say it recovered the run: %s", err);
    free(err);
    snprintf(path, sizeof path, "%s/samples.csv", out);
    char *samples = mp_test_slurp(path);
    assert_non_null(samples);
    /* the first cell of --quick is ready mode, ok: all its samples are back */
    snprintf(path, sizeof path, "%s/results.json", out);
    j = load_json(path);
    const cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "results"), 0);
    int kept = (int)cJSON_GetObjectItemCaseSensitive(c0, "samples_kept")->valuedouble;
    cJSON_Delete(j);
    int rows = 0;
    for (char *p = samples; (p = strstr(p, "\n0,")) != NULL; p++)
        rows++;
    assert_true(kept > 0);
    assert_int_equal(rows, kept);
    free(samples);
}

static void test_reader_gone(void **state)
{
    (void)state;
    char out[128];
    out_path(out, sizeof out, "head");
    int p[2];
    assert_int_equal(pipe2(p, O_CLOEXEC), 0);   /* the run holds no read end */
    pid_t pid = start_run(out, longer, p[1]);
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    char line[512];
    for (int i = 0; i < 2 && fgets(line, sizeof line, f); i++)
        ;
    fclose(f);   /* `| head -2` leaves */
    int st = wait_run(pid);
    expect_exit(st, 0, "a run whose stdout and stderr reader left");
    expect_results(out, 18, "complete", 0);
}

static int run_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int run_cmd(const char *fmt, ...)
{
    char cmd[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_final_write_fails(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "nowrite");
    snprintf(path, sizeof path, "%s/samples.csv", out);
    /* --force takes only a directory muxprof wrote: a run first, then its
     * samples.csv replaced by a directory (renaming onto it fails) */
    static const char *const args[] = {"run", "--quick", "--no-plots", "--force", NULL};
    expect_exit(wait_run(start_run(out, args, -1)), 0, "the first run");
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    int st = wait_run(start_run(out, args, -1));
    expect_exit(st, 1, "a run whose samples.csv cannot be written");
    snprintf(path, sizeof path, "%s.stdout", out);
    char *so = mp_test_slurp(path);
    snprintf(path, sizeof path, "%s.stderr", out);
    char *se = mp_test_slurp(path);
    assert_non_null(so);
    assert_non_null(se);
    if (!strstr(so, "poll/epoll") || !strstr(so, "run directory:"))
        fail_msg("no summary on stdout after the failed write:\n%s", so);
    if (!strstr(se, "journal.jsonl") || !strstr(se, "muxprof report"))
        fail_msg("stderr does not say where the results are:\n%s", se);
    free(so);
    free(se);
    /* The journal read back gives what the run wrote. */
    assert_int_equal(run_cmd("cd '%s' && rmdir samples.csv && mv results.json run.json && "
                             "mv results.csv run.csv", out), 0);
    assert_int_equal(report(out), 0);
    snprintf(path, sizeof path, "%s/run.json", out);
    cJSON *a = load_json(path);
    snprintf(path, sizeof path, "%s/results.json", out);
    cJSON *b = load_json(path);
    assert_non_null(a);
    assert_non_null(b);
    const cJSON *rec = cJSON_GetObjectItemCaseSensitive(b, "recovered");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "finished")));
    cJSON_DeleteItemFromObjectCaseSensitive(b, "recovered");
    if (!cJSON_Compare(a, b, 1))
        fail_msg("results.json from the journal differs from the run's");
    cJSON_Delete(a);
    cJSON_Delete(b);
    if (run_cmd("diff '%s/run.csv' '%s/results.csv' >&2", out, out) != 0)
        fail_msg("results.csv from the journal differs from the run's");
}

/* --out on a tmpfs too small for the run (in a mount namespace of its
 * own): the journal fills it part way, results.json cannot be written;
 * the summary is printed all the same and stderr says the journal failed
 * too; report recovers what the journal holds without calling the run
 * stopped. */
static void test_disk_full(void **state)
{
    (void)state;
    char mnt[128], res[256];
    out_path(mnt, sizeof mnt, "full");
    assert_int_equal(mkdir(mnt, 0755), 0);
    if (geteuid() != 0 || run_cmd("unshare -m true 2>/dev/null") != 0) {
        print_message("SKIP: needs root and unshare -m for a private tmpfs\n");
        skip();
    }
    int rc = run_cmd("unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs -o "
                     "size=128k tmpfs %s || exit 99; %s run --quick --samples 1000 --no-plots "
                     "--out %s/run >%s.stdout 2>%s.stderr; echo $? >%s.rc; mkdir %s.rec && "
                     "cp %s/run/journal.jsonl %s.rec/'", mnt, MP_TEST_BIN, mnt, mnt, mnt, mnt,
                     mnt, mnt, mnt);
    if (rc == 99) {
        print_message("SKIP: cannot mount a tmpfs here\n");
        skip();
    }
    snprintf(res, sizeof res, "%s.rc", mnt);
    char *code = mp_test_slurp(res);
    assert_non_null(code);
    assert_string_equal(code, "1\n");
    free(code);
    snprintf(res, sizeof res, "%s.stdout", mnt);
    char *so = mp_test_slurp(res);
    snprintf(res, sizeof res, "%s.stderr", mnt);
    char *se = mp_test_slurp(res);
    assert_non_null(so);
    assert_non_null(se);
    if (!strstr(so, "poll/epoll") || !strstr(so, "run directory:"))
        fail_msg("no summary on stdout on a full disk:\n%s", so);
    if (!strstr(se, "No space left on device") || !strstr(se, "could not be written either"))
        fail_msg("stderr does not say that the journal failed too:\n%s", se);
    free(so);
    free(se);
    /* what the full disk left, recovered: nothing says the run was stopped
     * (the journal cannot tell a full disk from a signal) */
    snprintf(res, sizeof res, "%s.rec", mnt);
    if (run_cmd("%s report --no-plots %s >%s.out 2>%s.err", MP_TEST_BIN, res, res, res) != 0)
        fail_msg("report could not recover the journal a full disk cut short");
    snprintf(res, sizeof res, "%s.rec.err", mnt);
    se = mp_test_slurp(res);
    snprintf(res, sizeof res, "%s.rec/results.json", mnt);
    char *rj = mp_test_slurp(res);
    assert_non_null(se);
    assert_non_null(rj);
    if (!strstr(se, "a full disk") || strstr(se, "was stopped"))
        fail_msg("the recovery calls a journal cut short by a full disk stopped:\n%s", se);
    if (strstr(rj, "run stopped"))
        fail_msg("recovered results.json calls a cell of a full disk's run stopped");
    free(se);
    free(rj);
}

/* A copy of a killed run's journal, edited by sh, given to report. */
static int report_edited(const char *tag, const char *edit)
{
    char out[128];
    out_path(out, sizeof out, tag);
    if (run_cmd("mkdir '%s' && cp '%s/kill/journal.jsonl' '%s/j' && cd '%s' && %s", out, root,
                root, out, edit) != 0)
        fail_msg("could not prepare %s", tag);
    return report(out);
}

static void test_hostile_journals(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/kill/journal.jsonl", root);
    struct stat st;
    if (stat(path, &st) != 0)
        skip();   /* test_sigkill_recovered made it */
    /* torn last line: left out, the rest recovered */
    assert_int_equal(report_edited("torn", "cat ../j > journal.jsonl && printf '{\"type\":\"ce' "
                                   ">> journal.jsonl"), 0);
    snprintf(path, sizeof path, "%s/torn/results.json", root);
    cJSON *j = load_json(path);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "recovered"), "torn_line_ignored")));
    cJSON_Delete(j);
    /* a damaged line that is not the last: refused, nothing written */
    assert_int_equal(report_edited("damaged", "head -2 ../j > journal.jsonl && echo '{oops' >> "
                                   "journal.jsonl && tail -n +3 ../j >> journal.jsonl"), 2);
    /* parsed as strictly as results.json: text after the record, two records on
     * one line, a key twice */
    assert_int_equal(report_edited("trailing", "sed '2s/$/ x/' ../j > journal.jsonl"), 2);
    assert_int_equal(report_edited("two", "sed '2s/.*/&&/' ../j > journal.jsonl"), 2);
    assert_int_equal(report_edited("dupkey", "sed '2s/^{/{\"type\":\"x\",/' ../j > "
                                   "journal.jsonl"), 2);
    /* the head alone: no cell to report, exit 1 */
    assert_int_equal(report_edited("nocell", "head -1 ../j > journal.jsonl"), 1);
    /* samples that are not integers, in a pass record and in a cell record */
    assert_int_equal(report_edited("badsample", "grep -q '\"type\":\"pass\"' ../j && sed "
                                   "'2s/\"wall_raw_ns\":\"/&x/' ../j > journal.jsonl"), 2);
    assert_int_equal(report_edited("badcell", "sed '/\"type\":\"cell\"/s/\"wall_raw_ns\":"
                                   "\\[/&\"x\",/' ../j > journal.jsonl"), 2);
    /* not a muxprof journal */
    assert_int_equal(report_edited("nohead", "tail -n +2 ../j > journal.jsonl"), 2);
    /* a FIFO: refused at once, never blocks */
    assert_int_equal(report_edited("fifo", "mkfifo journal.jsonl"), 2);
    /* a symlink to another run's journal: not followed */
    assert_int_equal(report_edited("link", "ln -s ../j journal.jsonl"), 1);
    snprintf(path, sizeof path, "%s/link/results.json", root);
    assert_int_not_equal(stat(path, &st), 0);
}

static void test_leftover_journal(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "leftover");
    assert_int_equal(mkdir(out, 0755), 0);
    snprintf(path, sizeof path, "%s/journal.jsonl", out);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("left by a run that died\n", f);
    fclose(f);
    static const char *const args[] = {"run", "--quick", "--no-plots", "--force", NULL};
    int st = wait_run(start_run(out, args, -1));
    expect_exit(st, 2, "a run into a directory with a leftover journal");
    char *s = mp_test_slurp(path);
    assert_string_equal(s, "left by a run that died\n");
    free(s);
}

static int setup(void **state)
{
    (void)state;
    return mp_test_mkdtemp(root, sizeof root, "mp-journal");
}

static int teardown(void **state)
{
    (void)state;
    mp_test_rmtree(root);
    return 0;
}

/* A run over an earlier one (--force) that is then killed: none of the
 * earlier run's outputs is left to pass for this one's, and report recovers
 * this run's cells; a killed --anonymize run is recovered anonymized. */
static void test_force_then_killed(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "forced");
    static const char *const first[] = {"run", "--quick", "--no-plots", NULL};
    expect_exit(wait_run(start_run(out, first, -1)), 0, "the first run");
    static const char *const again[] = {"run", "--quick", "--samples", "1000", "--no-plots",
                                        "--force", "--anonymize", NULL};
    snprintf(path, sizeof path, "%s.stderr", out);
    unlink(path);   /* the cells counted must be this run's */
    pid_t pid = start_run(out, again, -1);
    wait_cells(pid, out, 3);
    kill(pid, SIGKILL);
    wait_run(pid);
    static const char *const stale[] = {"results.json", "results.csv", "samples.csv",
                                        "report.md", "figures/cost_ready_pipe.gp"};
    for (size_t i = 0; i < sizeof stale / sizeof stale[0]; i++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", out, stale[i]);
        if (stat(path, &sb) == 0)
            fail_msg("%s of the earlier run is still there", path);
    }
    assert_int_equal(report(out), 0);
    snprintf(path, sizeof path, "%s/results.json", out);
    cJSON *j = load_json(path);
    assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "recovered")));
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(j, "context");
    const char *host = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ctx, "host"));
    char real[256] = "";
    gethostname(real, sizeof real - 1);
    assert_non_null(host);
    if (!strcmp(host, real) || strncmp(host, "host-", 5))
        fail_msg("a recovered --anonymize run names host '%s'", host);
    cJSON_Delete(j);
}

/* Until DIR/journal.jsonl holds a record of the second pass: the first
 * pass is over for every cell (its records are written group by group). */
static void wait_second_pass(pid_t pid, const char *out)
{
    char path[256];
    snprintf(path, sizeof path, "%s/journal.jsonl", out);
    for (int i = 0; i < 12000; i++) {
        char *s = mp_test_slurp(path);
        int found = s && strstr(s, "\"pass\":1,\"cell\":") != NULL;
        free(s);
        if (found)
            return;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            fail_msg("the run ended before its second pass");
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    fail_msg("no second pass after 120 s");
}

/* Rows of DIR/samples.csv per cell index (cells[] of n), -1 when the file
 * is missing. */
static int sample_rows(const char *dir, int *rows, int n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/samples.csv", dir);
    char *s = mp_test_slurp(path);
    if (!s)
        return -1;
    memset(rows, 0, sizeof *rows * (size_t)n);
    int total = 0;
    for (char *p = strchr(s, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        int cell = atoi(p + 1);
        if (cell >= 0 && cell < n)
            rows[cell]++;
        total++;
    }
    free(s);
    return total;
}

static void test_sigkill_after_first_pass(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "pass1");
    pid_t pid = start_run(out, longer, -1);
    wait_second_pass(pid, out);
    kill(pid, SIGKILL);
    wait_run(pid);
    assert_int_equal(report(out), 0);
    snprintf(path, sizeof path, "%s/results.json", out);
    cJSON *j = load_json(path);
    assert_non_null(j);
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(j, "results"), *c;
    int n = cJSON_GetArraySize(cells), rows[64], i = 0;
    if (n != 18)   /* --quick: 18 cells, each timed in the first pass */
        fail_msg("%d cells recovered after the first pass, expected all 18", n);
    assert_true(sample_rows(out, rows, 64) > 0);
    cJSON_ArrayForEach(c, cells) {
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
        double kept = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "samples_kept"));
        if (!st || strcmp(st, "ok") || kept < 1 || rows[i] != (int)kept)
            fail_msg("cell %d: status %s, %g samples kept, %d rows in samples.csv", i,
                     st ? st : "?", kept, rows[i]);
        i++;
    }
    const cJSON *rec = cJSON_GetObjectItemCaseSensitive(j, "recovered");
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rec, "cells_from_passes"))
                >= 1);
    cJSON_Delete(j);
}

/* The run wrote results.json and results.csv, not samples.csv: the
 * advice it prints (`muxprof report DIR`) writes samples.csv too. */
static void test_advice_restores_samples(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "nosamples");
    snprintf(path, sizeof path, "%s/samples.csv", out);
    static const char *const args[] = {"run", "--quick", "--no-plots", "--force", NULL};
    expect_exit(wait_run(start_run(out, args, -1)), 0, "the first run");
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    expect_exit(wait_run(start_run(out, args, -1)), 1, "a run whose samples.csv cannot be "
                "written");
    assert_int_equal(rmdir(path), 0);
    snprintf(path, sizeof path, "%s/results.json", out);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);   /* the run wrote it */
    assert_int_equal(report(out), 0);
    int rows[64];
    if (sample_rows(out, rows, 64) <= 0)
        fail_msg("`muxprof report %s` left no samples.csv (the samples stay in the journal)",
                 out);
}

/* A /proc file's first line (its size reads as 0), "" when none. */
static void proc_line(const char *path, char *buf, int len)
{
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (f && !fgets(buf, len, f))
        buf[0] = '\0';
    if (f)
        fclose(f);
}

/* The descriptor helper (the run's child named "muxprof") killed once the
 * first pass is over: the cells keep the repeats timed before. */
static void test_helper_death_keeps_repeats(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "helper");
    pid_t pid = start_run(out, longer, -1);
    wait_second_pass(pid, out);
    /* the children of every thread of the run (a thread may have forked it) */
    snprintf(path, sizeof path, "/proc/%d/task/*/children", (int)pid);
    glob_t g;
    int killed = 0;
    assert_int_equal(glob(path, 0, NULL, &g), 0);
    for (size_t t = 0; t < g.gl_pathc; t++) {
        char kids[1024], comm[64];
        proc_line(g.gl_pathv[t], kids, sizeof kids);
        for (char *p = strtok(kids, " \n"); p; p = strtok(NULL, " \n")) {
            snprintf(path, sizeof path, "/proc/%s/comm", p);
            proc_line(path, comm, sizeof comm);
            if (!strcmp(comm, "muxprof\n") && kill(atoi(p), SIGKILL) == 0)
                killed++;
        }
    }
    globfree(&g);
    if (killed != 1)
        fail_msg("%d descriptor helpers found among the run's children, expected 1", killed);
    int st = wait_run(pid);
    expect_exit(st, 1, "a run whose helper died");
    snprintf(path, sizeof path, "%s/results.json", out);
    cJSON *j = load_json(path);
    assert_non_null(j);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "status")),
                        "errors");
    int rows[64], i = 0, kept_part = 0;
    assert_true(sample_rows(out, rows, 64) > 0);
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "results")) {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "reason"));
        double kept = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "samples_kept"));
        if (!s || strcmp(s, "ok") || kept < 1 || rows[i] != (int)kept)
            fail_msg("cell %d: status %s (%s), %g samples kept, %d rows: the repeats timed "
                     "before the helper died are lost", i, s ? s : "?", why ? why : "",
                     kept, rows[i]);
        kept_part += why && strstr(why, "timed in ") && strstr(why, "helper");
        i++;
    }
    assert_true(kept_part >= 1);
    cJSON_Delete(j);
}

static void test_oversized_plan(void **state)
{
    (void)state;
    char out[128], path[256];
    out_path(out, sizeof out, "huge");
    /* 64 N x 64 K x 3 backends x 2 modes x 2 fd tables: 49,152 cells, about
     * 74 MiB of results.json at the least */
    char fds[512] = "", act[512] = "";
    for (int i = 1; i <= 64; i++) {
        snprintf(fds + strlen(fds), sizeof fds - strlen(fds), "%s%d", i > 1 ? "," : "", i);
        snprintf(act + strlen(act), sizeof act - strlen(act), "%s%d", i > 1 ? "," : "", i);
    }
    const char *const args[] = {"run", "--fds", fds, "--active", act, "--backends",
                                "select,poll,epoll", "--mode", "ready,wakeup", "--fd-table",
                                "private,shared", "--no-plots", NULL};
    pid_t pid = start_run(out, args, -1);
    int st = 0, waited = 0;
    while (waitpid(pid, &st, WNOHANG) != pid && waited < 20000) {
        sleep_ms(10);
        waited += 10;
    }
    if (waited >= 20000) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        fail_msg("a plan of 49,152 cells was not refused: the run measured for 20 s");
    }
    expect_exit(st, 2, "a plan of more than a report reads");
    struct stat sb;
    assert_int_not_equal(stat(out, &sb), 0);   /* nothing made */
    snprintf(path, sizeof path, "%s.stderr", out);
    char *se = mp_test_slurp(path);
    assert_non_null(se);
    if (!strstr(se, "49152 cells") || !strstr(se, "50000 cells"))
        fail_msg("the refusal does not give the numbers:\n%s", se);
    free(se);
}

/* A cell record of 20,000,001 samples (40 MB): more than a run keeps
 * for a cell; refused before its line is parsed. */
static void test_oversized_line(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/kill/journal.jsonl", root);
    struct stat st;
    if (stat(path, &st) != 0)
        skip();   /* test_sigkill_recovered made it */
    assert_int_equal(report_edited("bigline", "head -1 ../j > journal.jsonl && "
                                   "{ printf '{\"type\":\"cell\",\"index\":0,\"cell\":{},"
                                   "\"wall_raw_ns\":[\"1'; yes ' 1' | head -n 20000000 | "
                                   "tr -d '\\n'; printf '\"]}\\n'; } >> journal.jsonl"), 2);
    snprintf(path, sizeof path, "%s/bigline.report", root);
    char *err = mp_test_slurp(path);
    assert_non_null(err);
    if (!strstr(err, "more samples than a journal holds"))
        fail_msg("an oversized journal line was not refused for its size:\n%s", err);
    free(err);
    snprintf(path, sizeof path, "%s/bigline/results.json", root);
    assert_int_not_equal(stat(path, &st), 0);
}

/* A journal of 50,001 cells (a finished run's cell record, repeated): more
 * than a results.json holds for report, so its recovery is refused before
 * anything is written, rather than writing a results.json report refuses. */
static void test_recovery_over_cell_limit(void **state)
{
    (void)state;
    char dir[128], path[256];
    out_path(dir, sizeof dir, "manycells");
    if (run_cmd("mkdir '%s' && cd '%s' && j='%s/../fuzz/corpus_journal/complete.jsonl' && "
                "head -n 1 \"$j\" > journal.jsonl && grep -m 1 '\"type\":\"cell\"' \"$j\" | "
                "sed 's/\"pass_records\":[0-9]*/\"pass_records\":0/; "
                "s/\"index\":[0-9]*,/\"index\":IDX,/' > cell && "
                "awk '{ for (i = 0; i < 50001; i++) { x = $0; sub(/\"index\":IDX,/, "
                "\"\\\"index\\\":\" i \",\", x); print x } }' cell >> journal.jsonl && "
                "rm cell && [ $(wc -l < journal.jsonl) = 50002 ]",
                dir, dir, MP_TEST_FIXTURES) != 0)
        fail_msg("could not make a journal of 50,001 cells in %s", dir);
    assert_int_equal(report(dir), 2);
    snprintf(path, sizeof path, "%s.report", dir);
    char *err = mp_test_slurp(path);
    assert_non_null(err);
    if (!strstr(err, "50001 cells: a results.json holds at most 50000") ||
        !strstr(err, "nothing written"))
        fail_msg("a journal of 50,001 cells was not refused for its cells:\n%s", err);
    free(err);
    static const char *const outs[] = {"results.json", "results.csv", "samples.csv",
                                       "experiments.csv", "report.md"};
    struct stat st;
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, outs[i]);
        if (stat(path, &st) == 0)
            fail_msg("a refused recovery wrote %s", path);
    }
}

/* A journal within the cell limit whose results.json would pass the bytes
 * a report reads (24,000 cells, each with a 2,000-character reason: about
 * 80 MiB) is refused the same way: exit 2, nothing written. */
static void test_recovery_over_byte_limit(void **state)
{
    (void)state;
    char dir[128], path[256];
    out_path(dir, sizeof dir, "bigcells");
    if (run_cmd("mkdir '%s' && cd '%s' && j='%s/../fuzz/corpus_journal/complete.jsonl' && "
                "head -n 1 \"$j\" > journal.jsonl && pad=$(head -c 2000 /dev/zero | tr '\\0' x) && "
                "grep -m 1 '\"type\":\"cell\"' \"$j\" | "
                "sed \"s/\\\"pass_records\\\":[0-9]*/\\\"pass_records\\\":0/; "
                "s/\\\"index\\\":[0-9]*,/\\\"index\\\":IDX,/; "
                "s/\\\"reason\\\":null/\\\"reason\\\":\\\"$pad\\\"/\" > cell && "
                "grep -q xxxxxxxxxx cell && "
                "awk '{ for (i = 0; i < 24000; i++) { x = $0; sub(/\"index\":IDX,/, "
                "\"\\\"index\\\":\" i \",\", x); print x } }' cell >> journal.jsonl && "
                "rm cell && [ $(wc -l < journal.jsonl) = 24001 ]",
                dir, dir, MP_TEST_FIXTURES) != 0)
        fail_msg("could not make a journal of 24,000 long cells in %s", dir);
    assert_int_equal(report(dir), 2);
    snprintf(path, sizeof path, "%s.report", dir);
    char *err = mp_test_slurp(path);
    assert_non_null(err);
    if (!strstr(err, "more than the 64 MiB a report reads") || !strstr(err, "nothing written"))
        fail_msg("a journal whose results.json would pass 64 MiB was not refused for its "
                 "size:\n%s", err);
    free(err);
    static const char *const outs[] = {"results.json", "results.csv", "samples.csv",
                                       "experiments.csv", "report.md"};
    struct stat st;
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, outs[i]);
        if (stat(path, &st) == 0)
            fail_msg("a refused recovery wrote %s", path);
    }
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    if (stat(path, &st) != 0)
        fail_msg("a refused recovery removed the journal %s", path);
    unlink(path);   /* 100 MB: not left for the suite's tmpfs */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sighup_sigquit),
        cmocka_unit_test(test_two_signals),
        cmocka_unit_test(test_sigkill_recovered),
        cmocka_unit_test(test_reader_gone),
        cmocka_unit_test(test_final_write_fails),
        cmocka_unit_test(test_disk_full),
        cmocka_unit_test(test_hostile_journals),
        cmocka_unit_test(test_leftover_journal),
        cmocka_unit_test(test_force_then_killed),
        cmocka_unit_test(test_sigkill_after_first_pass),
        cmocka_unit_test(test_advice_restores_samples),
        cmocka_unit_test(test_helper_death_keeps_repeats),
        cmocka_unit_test(test_oversized_plan),
        cmocka_unit_test(test_oversized_line),
        cmocka_unit_test(test_recovery_over_cell_limit),
        cmocka_unit_test(test_recovery_over_byte_limit),
    };
    if (getenv("MP_TEST_FILTER"))   /* one test by name, to rerun it alone */
        cmocka_set_test_filter(getenv("MP_TEST_FILTER"));
    return cmocka_run_group_tests(tests, setup, teardown);
}
