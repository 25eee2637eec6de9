# SPDX-License-Identifier: MIT
# qemu-source.sh - the TCG plugin sources of the installed qemu-system-arm,
# fetched once from Debian's qemu source package: include/qemu/qemu-plugin.h
# (muxprof's plugin, sim/plugin.c, is built against it; CMake finds it here
# too), contrib/plugins/cache.c (QEMU's own cache model, built as
# libcache.so for the cross-check of scripts/muxsim.sh --with-contrib) and
# tests/plugin/insn.c (QEMU's instruction counter, built as libinsn-quiet.so for
# the instruction cross-check of scripts/muxsim.sh --with-insn).
# Sourced by bash scripts; it defines functions and variables prefixed qs_ /
# QS_ and runs nothing by itself.
#
#   . scripts/lib/qemu-source.sh
#   qs_fetch           # QS_DIR/source/: qemu-plugin.h, cache.c, insn.c, VERSION (cached)
#   qs_contrib_cache   # QS_CONTRIB: QS_DIR/libcache.so, built once (libglib2.0-dev)
#   qs_contrib_insn    # QS_INSN: QS_DIR/libinsn-quiet-SUM.so, built once (libglib2.0-dev)
#
# The source comes with `apt-get source --download-only` through a deb-src
# list of its own (the system's apt sources are never touched; no root
# needed), each apt-get bounded by a timeout.  Cached per qemu source version
# in CS_CACHE (default ~/.cache/muxprof/cachesim): plugin-VERSION/.  Each
# function returns 0, or 1 with the reason on stderr.

CS_CACHE=${CS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/muxprof/cachesim}

qs_say() { printf '%s: %s\n' "${AG_NAME:-qemu-source}" "$*" >&2; }

# The installed qemu-system-arm's source version (no binNMU +bN).
qs_version() { dpkg-query -W -f='${source:Version}' qemu-system-arm 2>/dev/null; }

qs_fetch() {
    local ver tmp apt codename mirror O orig src
    ver=$(qs_version)
    [ -n "$ver" ] || { qs_say "qemu-system-arm is not installed (apt-get install qemu-system-arm)"; return 1; }
    QS_DIR=$CS_CACHE/plugin-${ver//[:+~]/_}
    [ -f "$QS_DIR/source/qemu-plugin.h" ] && [ -f "$QS_DIR/source/cache.c" ] &&
        [ -f "$QS_DIR/source/insn.c" ] && return 0
    qs_say "fetching the plugin sources of qemu $ver (once; cached in $QS_DIR)"
    mkdir -p "$CS_CACHE" && tmp=$(mktemp -d "$CS_CACHE/.fetch.XXXXXX") || return 1
    apt=$tmp/apt
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$tmp/dl" || return 1
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    mirror=${CS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
    {
        echo "deb-src $mirror $codename main"
        echo "deb-src $mirror $codename-updates main"
        echo "deb-src ${CS_DEBIAN_SECURITY:-http://deb.debian.org/debian-security} $codename-security main"
    } > "$apt/sources.list"
    O=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=-
       -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
    { timeout 300 apt-get "${O[@]}" update -q &&
      (cd "$tmp/dl" && timeout 900 apt-get "${O[@]}" source --download-only "qemu=$ver"); } \
        > "$tmp/apt.log" 2>&1 ||
        { qs_say "apt-get source --download-only qemu=$ver failed (log: $tmp/apt.log)"; return 1; }
    orig=$(ls "$tmp"/dl/qemu_*.orig.tar.* 2>/dev/null | head -n 1)
    [ -n "$orig" ] || { qs_say "no qemu orig tarball downloaded (log: $tmp/apt.log)"; return 1; }
    tar -xf "$orig" -C "$tmp" --wildcards --no-wildcards-match-slash \
        '*/contrib/plugins/cache.c' '*/include/qemu/qemu-plugin.h' '*/tests/plugin/insn.c' ||
        { qs_say "could not unpack the plugin sources from $orig"; return 1; }
    src=$(ls -d "$tmp"/qemu-*/ | head -n 1)
    mkdir -p "$QS_DIR/source" &&
        mv "$src/include/qemu/qemu-plugin.h" "$src/contrib/plugins/cache.c" \
            "$src/tests/plugin/insn.c" "$QS_DIR/source/" &&
        echo "qemu $ver: include/qemu/qemu-plugin.h, contrib/plugins/cache.c, tests/plugin/insn.c" \
            > "$QS_DIR/source/VERSION" && rm -rf "$tmp"
}

# qs_build_plugin SOURCE LIB [CC ARGS...]: QS_DIR/LIB from
# QS_DIR/source/SOURCE (and the further arguments), once.
qs_build_plugin() {
    local src=$1 lib=$2
    shift 2
    qs_fetch || return 1
    [ -f "$QS_DIR/$lib" ] && return 0
    pkg-config --exists glib-2.0 2>/dev/null || {
        [ "$(id -u)" = 0 ] || { qs_say "needs libglib2.0-dev (apt-get install libglib2.0-dev)"; return 1; }
        qs_say "installing libglib2.0-dev"
        DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q libglib2.0-dev >/dev/null ||
            { qs_say "could not install libglib2.0-dev"; return 1; }; }
    # shellcheck disable=SC2046
    gcc -O2 -shared -fPIC -I"$QS_DIR/source" $(pkg-config --cflags glib-2.0) \
        -o "$QS_DIR/$lib.tmp" "$QS_DIR/source/$src" "$@" $(pkg-config --libs glib-2.0) \
        2>"$QS_DIR/gcc.log" || { qs_say "gcc failed on $src (log: $QS_DIR/gcc.log)"; return 1; }
    mv "$QS_DIR/$lib.tmp" "$QS_DIR/$lib"
}

qs_contrib_cache() { qs_build_plugin cache.c libcache.so && QS_CONTRIB=$QS_DIR/libcache.so; }
# insn.c prints a line for each repeated execution of one instruction:
# scripts/muxsim/insn-quiet.c drops those lines on their way out.
# The library is named by the wrapper's checksum: an edit of it builds anew.
qs_contrib_insn() {
    local shim sum
    shim=$(dirname "${BASH_SOURCE[0]}")/../muxsim/insn-quiet.c
    sum=$(cksum < "$shim" | cut -d' ' -f1) || return 1
    qs_build_plugin insn.c "libinsn-quiet-$sum.so" "$shim" -Wl,--wrap=qemu_plugin_outs &&
        QS_INSN=$QS_DIR/libinsn-quiet-$sum.so
}
