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
    {"trace",    mp_cmd_trace,    "every select/poll/epoll_wait of another program (eBPF), as a run",
     &mp_cli_trace},
};

static const mp_tool tool;

/* The verbs' names for a message: "run, report, ...". */
static void verb_names(FILE *f)
{
    for (size_t i = 0; i < tool.nverbs; i++)
        fprintf(f, "%s%s", i ? ", " : "", tool.verbs[i].name);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: muxprof VERB [options]   (muxprof help VERB, or muxprof VERB --help, "
               "for each)\n\nverbs:\n");
    for (size_t i = 0; i < tool.nverbs; i++)
        fprintf(f, "  %-10s %s\n", tool.verbs[i].name, tool.verbs[i].summary);
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i < tool.nopts; i++) {
        const mp_top_opt *o = &tool.opts[i];
        char names[64];
        snprintf(names, sizeof names, "%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "",
                 o->name);
        if (o->help)
            fprintf(f, "  %-14s %s\n", names, o->help);
    }
    fprintf(f, "\n" MP_EXIT_HELP);
}

static int help(const mp_tool *t)
{
    (void)t;
    usage(stdout);
    return 0;
}

static int version(const mp_tool *t)
{
    (void)t;
    return mp_cmd_version(stdout);
}

static int man(const mp_tool *t)
{
    return mp_cmd_man(t, stdout);
}

static int completion(const mp_tool *t)
{
    return mp_cmd_completion(t, stdout);
}

static const mp_top_opt top_opts[] = {
    {"--help", "-h", "the general help (muxprof help VERB: that verb's --help)", help},
    {"--version", "-V", "release and the git describe of the build", version},
    /* Run by the build for the manual page and the completion it installs. */
    {"--man", NULL, NULL, man},
    {"--completion", NULL, NULL, completion},
};

static const mp_tool tool = {verbs, sizeof verbs / sizeof verbs[0], top_opts,
                             sizeof top_opts / sizeof top_opts[0]};

static const mp_verb *find_verb(const char *name)
{
    for (size_t i = 0; i < tool.nverbs; i++)
        if (!strcmp(name, tool.verbs[i].name))
            return &tool.verbs[i];
    return NULL;
}

/* `muxprof help [VERB]`: the general help, or what `muxprof VERB --help`
 * prints (that verb's own --help, run). */
static int help_verb(int argc, char **argv)
{
    if (argc < 3)
        return help(&tool);
    mp_echo e;
    const mp_verb *v = find_verb(argv[2]);
    if (!v || argc > 3) {
        if (v)
            fprintf(stderr, "muxprof help: '%s' after the verb; help takes one verb, one "
                    "of: ", mp_echo_arg(&e, argv[3]));
        else
            fprintf(stderr, "muxprof help: unknown verb '%s'; expected one of: ",
                    mp_echo_arg(&e, argv[2]));
        verb_names(stderr);
        fputc('\n', stderr);
        return 2;
    }
    char *av[] = {(char *)v->name, (char *)"--help", NULL};
    return v->fn(2, av);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "help"))
        return help_verb(argc, argv);
    for (size_t i = 0; i < tool.nopts; i++)
        if (!strcmp(argv[1], tool.opts[i].name) ||
            (tool.opts[i].alias && !strcmp(argv[1], tool.opts[i].alias)))
            return tool.opts[i].fn(&tool);
    const mp_verb *v = find_verb(argv[1]);
    if (v)
        return v->fn(argc - 1, argv + 1);
    mp_echo e;
    fprintf(stderr, "muxprof: unknown verb '%s'; expected one of: ", mp_echo_arg(&e, argv[1]));
    verb_names(stderr);
    fputc('\n', stderr);
    return 2;
}
