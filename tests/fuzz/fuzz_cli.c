/* SPDX-License-Identifier: MIT */
/* fuzz_cli.c - libFuzzer target: the option parser of `muxprof run`
 * (mp_cli_parse_run), fed one command line per call.
 *
 * The input is split at '\n' into at most 64 arguments, each in its own
 * heap block of exactly its size (so the sanitizers see any overread), and
 * passed after argv[0] = "run".  One execution = one parse.  A parse must
 * either fail with MP_EUSAGE and a message, ask for help, or return a
 * configuration that keeps the promises of run/config.h (lists non-empty, counts
 * ascending and in range); anything else aborts, as does a crash or a
 * sanitizer report.  Then a known-good command line is parsed: it must
 * still succeed, whatever the previous input left behind (getopt keeps
 * state between calls, and its reads are not seen by the sanitizers since
 * glibc is not instrumented).
 *
 * Built like fuzz_json.c (see tests/hardening.cmake).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_cli: parsed configuration breaks run/config.h: %s\n", what);
        abort();
    }
}

static void check_config(const mp_run_config *c)
{
    check(c->nbackends >= 1 && c->nbackends <= MP_MAX_BACKENDS, "nbackends");
    for (int i = 0; i < c->nbackends; i++)
        check(c->backends[i] != NULL, "backend NULL");
    check(c->ncounts >= 1 && c->ncounts <= MP_MAX_COUNTS, "ncounts");
    for (int i = 0; i < c->ncounts; i++) {
        check(c->fds[i] >= 1 && c->fds[i] <= MP_FDS_MAX, "fds range");
        check(i == 0 || c->fds[i] > c->fds[i - 1], "fds ascending and distinct");
    }
    check(c->nmodes >= 1 && c->nmodes <= 2, "nmodes");
    check(c->nkinds >= 1 && c->nkinds <= MP_MAX_KINDS, "nkinds");
    check(c->samples >= 1 && c->samples <= MP_SAMPLES_MAX, "samples");
    check(c->repeats >= 1 && c->repeats <= MP_REPEATS_MAX, "repeats");
    check(c->warmup >= 0 && c->warmup <= MP_WARMUP_MAX, "warmup");
    check(memchr(c->events, 0, sizeof c->events) && c->events[0], "events");
    check(memchr(c->placement, 0, sizeof c->placement) && c->placement[0], "placement");
    check(memchr(c->out_dir, 0, sizeof c->out_dir) != NULL, "out_dir");
    check(memchr(c->command, 0, sizeof c->command) != NULL, "command");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mp_run_config cfg;   /* large: PATH_MAX and lists */
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = strdup("run");
    size_t start = 0;
    for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
        if (i < size && data[i] != '\n')
            continue;
        size_t n = i - start;
        char *a = malloc(n + 1);
        if (!a)
            abort();
        memcpy(a, data + start, n);
        a[n] = 0;
        argv[argc++] = a;
        start = i + 1;
    }
    argv[argc] = NULL;
    char *owned[MAX_ARGS + 2];   /* getopt_long permutes argv: free what was allocated */
    memcpy(owned, argv, sizeof(char *) * (size_t)argc);

    mp_err err;
    mp_err_clear(&err);
    int rc = mp_cli_parse_run(argc, argv, &cfg, &err);
    if (rc == 0)
        check_config(&cfg);
    else if (rc == MP_EUSAGE)
        check(err.msg[0] != 0 && !strchr(err.msg, '\n'), "usage error without a one-line message");
    else
        check(rc == 1, "return value is not 0, 1 or MP_EUSAGE");

    /* argv stays alive (as a real one does): a stale pointer into it then
     * shows as a wrong answer below, not as freed memory that happens to
     * read as an empty string */
    char a0[] = "run", a1[] = "--quick", a2[] = "--fds", a3[] = "10,100";
    char *good[] = {a0, a1, a2, a3, NULL};
    mp_err_clear(&err);
    rc = mp_cli_parse_run(4, good, &cfg, &err);
    if (rc != 0 || cfg.ncounts != 2 || !cfg.quick) {
        fprintf(stderr, "fuzz_cli: 'run --quick --fds 10,100' fails after this input: %s\n",
                err.msg);
        abort();
    }
    for (int i = 0; i < argc; i++)
        free(owned[i]);
    return 0;
}
