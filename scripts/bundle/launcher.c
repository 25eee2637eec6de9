/* SPDX-License-Identifier: MIT */
/* launcher.c - bin/muxprof of a bundle (scripts/bundle.sh): runs the real
 * program, libexec/muxprof, through the bundle's own loader with the
 * bundle's libraries only:
 *   lib/LOADER --library-path lib --argv0 ARGV0 libexec/muxprof ARGS...
 * Linked -static, so it needs no library of the host either.  The loader's
 * --library-path is not inherited by what muxprof starts (gnuplot), which
 * keeps using the host's own libraries.  hwloc's plugins are looked for in
 * the bundle's lib/hwloc (HWLOC_PLUGINS_PATH, unless set), never in the
 * host's plugin folder, whose plugins are built against the host's hwloc.
 * MP_LOADER (the loader's file name) is set by scripts/bundle.sh. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MP_LOADER
#error "MP_LOADER (the loader's file name, e.g. ld-linux-x86-64.so.2) must be defined"
#endif

int main(int argc, char **argv)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "muxprof: cannot find the bundle: readlink /proc/self/exe: %s "
                "(is /proc mounted?)\n", strerror(errno));
        return 1;
    }
    self[n] = '\0';
    /* self is ROOT/bin/muxprof: cut two components. */
    for (int i = 0; i < 2; i++) {
        char *slash = strrchr(self, '/');
        if (!slash) {
            fprintf(stderr, "muxprof: %s is not inside a bundle (ROOT/bin/muxprof)\n", self);
            return 1;
        }
        *slash = '\0';
    }
    char loader[PATH_MAX], libdir[PATH_MAX], prog[PATH_MAX];
    if (snprintf(loader, sizeof loader, "%s/lib/%s", self, MP_LOADER) >= (int)sizeof loader ||
        snprintf(libdir, sizeof libdir, "%s/lib", self) >= (int)sizeof libdir ||
        snprintf(prog, sizeof prog, "%s/libexec/muxprof", self) >= (int)sizeof prog) {
        fprintf(stderr, "muxprof: the bundle's path is too long: %s\n", self);
        return 1;
    }
    char plugins[PATH_MAX];
    if (snprintf(plugins, sizeof plugins, "%s/lib/hwloc", self) < (int)sizeof plugins)
        setenv("HWLOC_PLUGINS_PATH", plugins, 0);
    char **args = calloc((size_t)argc + 7, sizeof *args);
    if (!args) {
        fprintf(stderr, "muxprof: out of memory\n");
        return 1;
    }
    int k = 0;
    args[k++] = loader;
    args[k++] = "--library-path";
    args[k++] = libdir;
    args[k++] = "--argv0";
    args[k++] = argc > 0 ? argv[0] : "muxprof";
    args[k++] = prog;
    for (int i = 1; i < argc; i++)
        args[k++] = argv[i];
    args[k] = NULL;
    execv(loader, args);
    fprintf(stderr, "muxprof: cannot run %s: %s (the bundle is incomplete: unpack it again)\n",
            loader, strerror(errno));
    return 1;
}
