/* SPDX-License-Identifier: MIT */
/* main.c - muxprof: what one select/poll/epoll_wait call costs, and why.
 * Dispatches to one function per verb; the only place that exits. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opt.h"

/* scripts/grant-perfmon.sh gives capabilities only to an ELF file that holds
 * this string (it never runs the file it is asked to change). */
__attribute__((used)) static const char grant_marker[] = "muxprof-grantable-binary/1";

static const mp_verb verbs[] = {
    {"run",      mp_cmd_run,      "measure select/poll/epoll across descriptor counts",
     &mp_cli_run},
    {"report",   mp_cmd_report,   "(re)build report.md and figures from DIR/results.json",
     &mp_cli_report},
    {"compare",  mp_cmd_compare,  "compare runs and reference datasets",
     &mp_cli_compare},
    {"events",   mp_cmd_events,   "counter presets and how each resolves on this host",
     &mp_cli_events},
    {"topology", mp_cmd_topology, "caches, PUs and waiter/poker placements",
     &mp_cli_topology},
    {"doctor",   mp_cmd_doctor,   "what works on this host and how to fix what does not",
     &mp_cli_doctor},
    {"loop",     mp_cmd_loop,     "K bare calls over N fds, for perf stat, valgrind, simulators",
     &mp_cli_loop},
    {"sim-import", mp_cmd_sim_import, "results.json from a scripts/muxsim.sh run's plugin counts",
     &mp_cli_sim_import},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: muxprof VERB [options]   (muxprof VERB --help for each)\n\nverbs:\n");
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
    fprintf(f, "\n  --version  release and the git describe of the build\n\n" MP_EXIT_HELP);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    /* Generated at build time into the manual page and the completion. */
    if (!strcmp(argv[1], "--man"))
        return mp_cmd_man(verbs, sizeof verbs / sizeof verbs[0], stdout);
    if (!strcmp(argv[1], "--completion"))
        return mp_cmd_completion(verbs, sizeof verbs / sizeof verbs[0], stdout);
    if (!strcmp(argv[1], "--version")) {
        return mp_cmd_version(stdout);
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (!strcmp(argv[1], verbs[i].name))
            return verbs[i].fn(argc - 1, argv + 1);
    mp_echo e;
    fprintf(stderr, "muxprof: unknown verb '%s'; expected one of: ", mp_echo_arg(&e, argv[1]));
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", verbs[i].name);
    fputc('\n', stderr);
    return 2;
}
