/* SPDX-License-Identifier: MIT */
/* test_census.c - descriptor and process census around `muxprof run`.
 *
 * After a complete quick sweep, and after sweeps (the quick cells with 1000
 * samples, about 5 s) stopped by SIGINT or SIGTERM at random points, the
 * run must leave nothing behind:
 *   - no helper process (the helper is a fork of muxprof, so its
 *     /proc/PID/cmdline is the parent's: found by the unique --out path);
 *   - in the run directory only complete files: no *.tmp.* or dot file
 *     other than muxprof's manifest, every results.json parses and says "complete" or "interrupted",
 *     every text file ends with a newline;
 *   - exit 0 (finished first), 130 (SIGINT) or 143 (SIGTERM);
 *   - in the process itself (mp_cmd_run called in a forked child): the same
 *     descriptors open after the run as before, one thread, no child left.
 * A run under a hard RLIMIT_NOFILE of 600 with --fds 10,1000 records the
 * 1000 cell "unsupported" with the numbers and exits 0; a run whose helper
 * is killed mid-sweep ends by itself, the cells it could not measure
 * "error" with a reason, the run's status "errors" and its exit 1.
 *
 * The delays are drawn from a seeded generator; the seed is printed, and
 * MP_CENSUS_SEED=S reproduces a run (MP_CENSUS_TRIALS=N changes the count).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "cmd/cmd.h"
#include "test_util.h"

#define RUN_TIMEOUT_MS 120000

static char root[64];
static unsigned long long rng;
static int trials = 6;
static int died_early;   /* SIGINT landed before the handler was installed */

static unsigned long long next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static long rand_between(long lo, long hi)
{
    return lo + (long)(next_rand() % (unsigned long long)(hi - lo + 1));
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* ---- the binary ---------------------------------------------------------- */

/* Start `muxprof ARGS... --out OUT`, stdout and stderr to OUT.std{out,err}
 * beside it; nofile > 0: soft and hard RLIMIT_NOFILE for the child. */
static pid_t start_run(const char *out, long nofile, const char *const *args)
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
        int o = open(so, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(se, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0)
            _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        close(o);
        close(e);
        if (nofile > 0) {
            struct rlimit rl = {(rlim_t)nofile, (rlim_t)nofile};
            if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
                _exit(125);
        }
        signal(SIGINT, SIG_DFL);   /* as from a shell in the foreground */
        signal(SIGTERM, SIG_DFL);
        execv(MP_TEST_BIN, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static int wait_run(pid_t pid, int timeout_ms)
{
    int st = 0;
    for (int waited = 0;; waited += 10) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return st;
        if (waited >= timeout_ms) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            fail_msg("muxprof (pid %d) still running after %d s: killed", (int)pid,
                     timeout_ms / 1000);
        }
        sleep_ms(10);
    }
}

static void describe(int st, char *buf, size_t len)
{
    if (WIFEXITED(st))
        snprintf(buf, len, "exit %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, len, "status 0x%x", st);
}

/* ---- the census ---------------------------------------------------------- */


/* The helper may take a moment to see its parent gone: allow 3 s. */
static void assert_no_helper(const char *out)
{
    for (int i = 0; i < 300; i++) {
        if (mp_test_procs_mentioning(out) == 0)
            return;
        sleep_ms(10);
    }
    fail_msg("a process mentioning %s outlived the run (helper not reaped)", out);
}

static const char *want_status;   /* for check_file: "complete", "interrupted" or NULL */
static int problems, results_seen;
static int tolerate_tmp, tmp_left;   /* count leftover temporary files instead of failing */

static int check_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    const char *name = path + ftw->base;
    int manifest = ftw->level == 1 && !strcmp(name, MP_MANIFEST);
    if ((ftw->level > 0 && name[0] == '.' && !manifest) || strstr(name, ".tmp.")) {
        print_message("  leftover file %s (temporary or probe file)\n", path);
        if (tolerate_tmp)
            tmp_left++;
        else
            problems++;
    }
    if (type != FTW_F)
        return 0;
    size_t len = strlen(name);
    int text = len > 4 && (!strcmp(name + len - 4, ".csv") || !strcmp(name + len - 3, ".md") ||
                           !strcmp(name + len - 5, ".json"));
    if (!text)
        return 0;
    char *s = mp_test_slurp(path);
    if (!s) {
        print_error("cannot read %s\n", path);
        problems++;
        return 0;
    }
    if (st->st_size == 0 || s[st->st_size - 1] != '\n') {
        if (strcmp(name, "results.json")) {   /* cJSON's output has no final newline */
            print_error("%s is empty or does not end with a newline (half written?)\n", path);
            problems++;
        }
    }
    if (!strcmp(name, "results.json") && ftw->level == 1) {
        results_seen++;
        cJSON *j = cJSON_Parse(s);
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
        if (!j) {
            print_error("%s does not parse\n", path);
            problems++;
        } else if (!cJSON_IsString(status) || (strcmp(status->valuestring, "complete") &&
                                               strcmp(status->valuestring, "interrupted") &&
                                               strcmp(status->valuestring, "errors"))) {
            print_error("%s: status is neither complete, errors nor interrupted\n", path);
            problems++;
        } else if (want_status && strcmp(status->valuestring, want_status)) {
            print_error("%s: status %s, expected %s\n", path, status->valuestring, want_status);
            problems++;
        } else if (!strcmp(status->valuestring, "interrupted") &&
                   !cJSON_GetObjectItemCaseSensitive(j, "interrupted_cell")) {
            print_error("%s: interrupted without interrupted_cell\n", path);
            problems++;
        }
        cJSON_Delete(j);
    }
    free(s);
    return 0;
}

/* Only complete files in out; results.json present when need_results. */
static void assert_complete_files(const char *out, const char *status, int need_results)
{
    problems = 0;
    results_seen = 0;
    want_status = status;
    struct stat st;
    if (stat(out, &st) == 0)
        assert_int_equal(nftw(out, check_file, 16, FTW_PHYS), 0);
    if (need_results && !results_seen) {
        print_error("%s/results.json missing\n", out);
        problems++;
    }
    if (problems)
        fail_msg("%d problem(s) in %s", problems, out);
}

/* ---- tests --------------------------------------------------------------- */

static const char *const quick[] = {"run", "--quick", "--no-plots", "--quiet", NULL};
/* The quick cells with 1000 samples: about 5 s here, so a signal within
 * 1.5 s lands in the sweep, not after it. */
static const char *const longer[] = {"run", "--quick", "--samples", "1000", "--no-plots",
                                     "--quiet", NULL};

static void test_complete_run(void **state)
{
    (void)state;
    char out[128], how[64];
    snprintf(out, sizeof out, "%s/complete", root);
    int st = wait_run(start_run(out, 0, quick), RUN_TIMEOUT_MS);
    describe(st, how, sizeof how);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("quick run: %s, expected exit 0", how);
    assert_no_helper(out);
    assert_complete_files(out, "complete", 1);
}

/* One interrupted trial: returns after all checks. */
static void interrupt_trial(int sig, long delay_ms, long second_ms, const char *tag)
{
    char out[128], how[64];
    snprintf(out, sizeof out, "%s/%s", root, tag);
    pid_t pid = start_run(out, 0, longer);
    sleep_ms(delay_ms);
    kill(pid, sig);
    if (second_ms >= 0) {
        sleep_ms(second_ms);
        kill(pid, sig);
    }
    int st = wait_run(pid, RUN_TIMEOUT_MS);
    describe(st, how, sizeof how);
    char again[48] = "";
    if (second_ms >= 0)
        snprintf(again, sizeof again, ", again %ld ms later", second_ms);
    print_message("  %s: %s after %ld ms%s: %s\n", tag, strsignal(sig), delay_ms, again, how);
    assert_no_helper(out);
    if (WIFSIGNALED(st) && WTERMSIG(st) == sig) {
        /* before the handler exists the default action applies (a shell
         * reports 128+sig as well; a second signal after the handler exists
         * exits with 128+sig instead); nothing may be half written */
        died_early++;
        assert_complete_files(out, NULL, 0);
        return;
    }
    if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 128 + sig))
        fail_msg("%s: %s, expected exit 0 or %d", tag, how, 128 + sig);
    int finished = WEXITSTATUS(st) == 0;
    /* a second signal leaves at once: results.json may not be written yet */
    assert_complete_files(out, finished ? "complete" : second_ms >= 0 ? NULL : "interrupted",
                          second_ms < 0);
}

static void test_sigint_trials(void **state)
{
    (void)state;
    for (int t = 0; t < trials; t++) {
        char tag[32];
        snprintf(tag, sizeof tag, "sigint-%d", t + 1);
        interrupt_trial(SIGINT, rand_between(50, 1500), -1, tag);
    }
    if (died_early)
        print_message("  %d trial(s) ended by the default SIGINT action (signal before the "
                      "handler was installed)\n", died_early);
}

static void test_sigterm(void **state)
{
    (void)state;
    interrupt_trial(SIGTERM, rand_between(300, 1500), -1, "sigterm");
}

/* The second signal leaves at once (_exit), but not while the files are
 * written (the stop signals are blocked then): no temporary file may stay
 * behind. */
static void test_double_sigint(void **state)
{
    (void)state;
    tolerate_tmp = 1;
    tmp_left = 0;
    for (int t = 0; t < 5; t++) {
        char tag[32];
        snprintf(tag, sizeof tag, "double-sigint-%d", t + 1);
        interrupt_trial(SIGINT, rand_between(200, 1500), rand_between(0, 30), tag);
    }
    tolerate_tmp = 0;
    if (tmp_left)
        fail_msg("%d temporary file(s) left when a second SIGINT landed while the run was "
                 "writing its files", tmp_left);
}

static void test_rlimit_mid_sweep(void **state)
{
    (void)state;
    char out[128], how[64], path[192];
    snprintf(out, sizeof out, "%s/rlimit", root);
    static const char *const args[] = {"run", "--fds", "10,1000", "--mode", "ready",
                                       "--samples", "50", "--repeats", "1", "--no-plots",
                                       "--quiet", NULL};
    int st = wait_run(start_run(out, 600, args), RUN_TIMEOUT_MS);
    describe(st, how, sizeof how);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char p[192];
        snprintf(p, sizeof p, "%s.stderr", out);
        char *e = mp_test_slurp(p);
        fail_msg("run under RLIMIT_NOFILE 600: %s, expected exit 0; stderr: %.500s", how,
                 e ? e : "");
    }
    assert_no_helper(out);
    assert_complete_files(out, NULL, 1);
    snprintf(path, sizeof path, "%s/results.json", out);
    char *s = mp_test_slurp(path);
    cJSON *j = cJSON_Parse(s);
    free(s);
    assert_non_null(j);
    const cJSON *c;
    int ok10 = 0, uns1000 = 0, total = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "results")) {
        double n = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "nfds"));
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
        const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "reason"));
        total++;
        if (n == 10 && status && !strcmp(status, "ok"))
            ok10++;
        if (n == 1000) {
            if (!uns1000)
                print_message("  N=1000 reason: %.300s\n", reason ? reason : "");
            if (!status || strcmp(status, "unsupported"))
                fail_msg("N=1000 cell: status %s, expected unsupported", status ? status : "?");
            if (!reason || !strstr(reason, "RLIMIT_NOFILE") || !strstr(reason, "600"))
                fail_msg("N=1000 cell: reason '%s' does not give the limit and its value",
                         reason ? reason : "");
            uns1000++;
        }
    }
    cJSON_Delete(j);
    print_message("  rlimit 600: %d cells, %d ok at N=10, %d unsupported at N=1000\n", total,
                  ok10, uns1000);
    assert_true(uns1000 > 0);
    assert_int_equal(ok10, total - uns1000);
}

/* The helper process dies (SIGKILL) in the middle of a sweep: the run must
 * still end by itself, record what it could not measure as "error" with a
 * reason, and write complete files. */
static pid_t child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (d && (e = readdir(d)) && !found) {
        char path[300], buf[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[k] = 0;
        const char *rp = strrchr(buf, ')');   /* comm may hold spaces */
        int ppid = 0;
        char state;
        if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
            found = (pid_t)atoi(e->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

/* sig SIGKILL: the helper dies; SIGSTOP: it hangs, never answering, and the
 * run's bounded waits must give up on it (the old code waited forever). */
static void helper_trial(int sig, const char *tag)
{
    char out[128], how[64], path[192];
    snprintf(out, sizeof out, "%s/%s", root, tag);
    static const char *const args[] = {"run", "--fds", "10,100,1000,2000", "--samples", "400",
                                       "--repeats", "3", "--no-plots", "--quiet", NULL};
    pid_t pid = start_run(out, 0, args);
    long delay = rand_between(100, 1000);
    pid_t helper = 0;
    for (long t = 0; t < delay || !helper; t += 10) {
        helper = child_of(pid);
        if (t > 10000)
            break;
        sleep_ms(10);
    }
    if (!helper) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fail_msg("no helper process of muxprof (pid %d) found", (int)pid);
    }
    kill(helper, sig);
    int st = wait_run(pid, RUN_TIMEOUT_MS);
    describe(st, how, sizeof how);
    print_message("  helper (pid %d) %s after %ld ms: muxprof %s\n", (int)helper,
                  sig == SIGKILL ? "killed" : "stopped", delay, how);
    if (kill(helper, 0) == 0 && sig == SIGSTOP)
        kill(helper, SIGKILL);   /* the run did not: a failure below */
    if (!WIFEXITED(st) || WEXITSTATUS(st) > 1)
        fail_msg("run whose helper %s: %s, expected exit 0 or 1",
                 sig == SIGKILL ? "died" : "hung", how);
    assert_no_helper(out);
    assert_complete_files(out, NULL, 1);
    snprintf(path, sizeof path, "%s/results.json", out);
    char *s = mp_test_slurp(path);
    cJSON *j = cJSON_Parse(s);
    free(s);
    assert_non_null(j);
    const cJSON *c;
    int ok = 0, err = 0, uns = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "results")) {
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
        const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "reason"));
        assert_non_null(status);
        const char *died = reason ? strstr(reason, "descriptor helper process died") : NULL;
        if (died && strstr(died + 1, "descriptor helper process died"))
            fail_msg("the helper's death said twice: %s", reason);
        /* ok from the repeats timed before the helper failed: an error of the run */
        if (!strcmp(status, "ok") && reason && !strncmp(reason, "timed in ", 9)) {
            if (!err)
                print_message("  first error: %.200s\n", reason);
            err++;
            continue;
        }
        if (!strcmp(status, "ok")) {
            ok++;
            continue;
        }
        if (!reason || !*reason)
            fail_msg("a cell with status %s has no reason", status);
        if (!strcmp(status, "error")) {
            if (!err)
                print_message("  first error: %.200s\n", reason);
            err++;
        } else {
            uns++;
        }
    }
    const char *run_status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "status"));
    assert_non_null(run_status);
    print_message("  %d cells ok, %d error, %d unsupported; status %s\n", ok, err, uns,
                  run_status);
    /* a cell in error makes the run's status "errors" and its exit 1 */
    assert_string_equal(run_status, err ? "errors" : "complete");
    if (err && WEXITSTATUS(st) != 1)
        fail_msg("run with %d cells in error: %s, expected exit 1", err, how);
    cJSON_Delete(j);
}

static void test_helper_killed(void **state)
{
    (void)state;
    helper_trial(SIGKILL, "helper-killed");
}

static void test_helper_stopped(void **state)
{
    (void)state;
    helper_trial(SIGSTOP, "helper-stopped");
}

/* ---- in-process census: mp_cmd_run in a forked child ------------------------ */

typedef struct {
    int n;
    int fd[1024];
} fdlist;

static void list_fds(fdlist *l)
{
    l->n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        _exit(90);
    int self = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && atoi(e->d_name) != self && l->n < 1024)
            l->fd[l->n++] = atoi(e->d_name);
    closedir(d);
}

static int count_tasks(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Child: census, run, census.  Exit 0 when clean, 3 on a leak. */
static void census_child(const char *out, long delay_ms)
{
    int dn = open("/dev/null", O_WRONLY);
    dup2(dn, 1);   /* same descriptor numbers: only the targets change */
    close(dn);
    fdlist before, after;
    list_fds(&before);
    int tasks0 = count_tasks();
    if (delay_ms > 0) {
        timer_t tm;
        struct sigevent sev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGINT};
        if (timer_create(CLOCK_MONOTONIC, &sev, &tm) < 0)
            _exit(91);
        struct itimerspec its = {.it_value = {delay_ms / 1000, (delay_ms % 1000) * 1000000L}};
        timer_settime(tm, 0, &its, NULL);
        list_fds(&before);   /* the timer has no descriptor, but be exact */
    }
    char *argv[] = {"run", "--quick", "--samples", delay_ms > 0 ? "1000" : "100", "--no-plots",
                    "--quiet", "--out", (char *)out, NULL};
    int code = mp_cmd_run(8, argv);
    list_fds(&after);
    int bad = 0;
    for (int i = 0; i < after.n; i++) {
        int found = 0;
        for (int k = 0; k < before.n; k++)
            found |= before.fd[k] == after.fd[i];
        if (!found) {
            char p[64], tgt[256] = "?";
            snprintf(p, sizeof p, "/proc/self/fd/%d", after.fd[i]);
            ssize_t r = readlink(p, tgt, sizeof tgt - 1);
            tgt[r > 0 ? r : 1] = 0;
            fprintf(stderr, "census: fd %d left open after the run: %s\n", after.fd[i], tgt);
            bad = 1;
        }
    }
    if (after.n < before.n) {
        fprintf(stderr, "census: %d descriptors of the caller were closed by the run\n",
                before.n - after.n);
        bad = 1;
    }
    int tasks1 = count_tasks();
    if (tasks1 != tasks0) {
        fprintf(stderr, "census: %d threads before the run, %d after\n", tasks0, tasks1);
        bad = 1;
    }
    if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
        fprintf(stderr, "census: a child process of the run is left\n");
        bad = 1;
    }
    fprintf(stderr, "census: run returned %d; %d descriptors before, %d after\n", code,
            before.n, after.n);
    exit(bad ? 3 : code == 0 ? 0 : code == 130 ? 130 : 4);   /* exit(): LeakSanitizer looks */
}

static void in_process(const char *tag, long delay_ms)
{
    char out[128], how[64], se[192];
    snprintf(out, sizeof out, "%s/%s", root, tag);
    snprintf(se, sizeof se, "%s.stderr", out);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int e = open(se, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(e, 2);
        close(e);
        census_child(out, delay_ms);
    }
    int st = wait_run(pid, RUN_TIMEOUT_MS);
    describe(st, how, sizeof how);
    char *err = mp_test_slurp(se);
    if (delay_ms > 0)
        print_message("  %s: SIGINT after %ld ms: %s\n", tag, delay_ms, how);
    else
        print_message("  %s: %s\n", tag, how);
    if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 130))
        fail_msg("in-process %s: %s; stderr:\n%.2000s", tag, how, err ? err : "");
    free(err);
    assert_no_helper(out);
    assert_complete_files(out, WEXITSTATUS(st) == 0 ? "complete" : "interrupted", 1);
}

static void test_in_process_census(void **state)
{
    (void)state;
    in_process("inproc-complete", 0);
    in_process("inproc-sigint", rand_between(300, 1500));
}

/* ---- setup --------------------------------------------------------------- */

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/mp-census-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    const char *s = getenv("MP_CENSUS_SEED");
    rng = s && *s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL) ^ (unsigned long long)getpid() << 20;
    if (!rng)
        rng = 1;
    const char *t = getenv("MP_CENSUS_TRIALS");
    if (t && atoi(t) > 0)
        trials = atoi(t);
    print_message("census: seed %llu, %d SIGINT trials (rerun with MP_CENSUS_SEED=%llu)\n",
                  rng, trials, rng);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete_run),
        cmocka_unit_test(test_sigint_trials),
        cmocka_unit_test(test_sigterm),
        cmocka_unit_test(test_double_sigint),
        cmocka_unit_test(test_rlimit_mid_sweep),
        cmocka_unit_test(test_helper_killed),
        cmocka_unit_test(test_helper_stopped),
        cmocka_unit_test(test_in_process_census),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
