#!/bin/sh
# SPDX-License-Identifier: MIT
# bundle.sh - a portable muxprof: dist/muxprof-VERSION-ARCH/ and its .tar.gz,
# for a Linux host with no compiler, no package and none of muxprof's
# libraries.  The folder holds
#   bin/muxprof           a static launcher (scripts/bundle/launcher.c) that runs
#                         libexec/muxprof through lib/ld-linux* with lib/ only
#   libexec/muxprof       the program (its datasets and plot scripts are built in)
#   lib/                  every shared library it needs (its ELF needed list,
#                         followed to the end: libpfm4, hwloc and what hwloc needs,
#                         cJSON, liburing, glibc) and the loader; lib/hwloc/ is
#                         hwloc's plugin folder (empty: muxprof needs no plugin)
#   share/man/man1/muxprof.1, share/bash-completion/completions/muxprof
#   licences/             the copyright file (/usr/share/doc/PACKAGE/copyright) of the
#                         Debian package each copied library, the loader and the
#                         launcher's static C library came from, as licences/PACKAGE;
#                         licences/muxprof (LICENSE); licences/FILES: which file
#                         came from which package and version (dpkg -S)
#   validate-host.sh      the host check (docs/bundle.md), README
# Every folder and program is 0755 and every other file 0644 whatever the
# caller's umask; the .tar.gz holds them as root:root (0:0) with those modes.
# Usage: scripts/bundle.sh [--out DIR] [BUILD_DIR]     (defaults: dist, build)
# DIR (default dist in the current directory) is made when missing; an
# existing one must be yours and writable by neither its group nor others: a
# symbolic link, another user's or a writable directory is refused (exit 1,
# scripts/lib/outdir.sh).
# BUILD_DIR may be a cross build (scripts/cross-aarch64.sh: build-aarch64): the
# libraries then come from that architecture's multiarch folders, and the
# launcher is compiled with that architecture's compiler.
# Environment: CC (the launcher's compiler; default cc for x86_64 on x86_64,
#              aarch64-linux-gnu-gcc for aarch64), LIBDIRS (colon-separated
#              folders to find the libraries in; default /lib/TRIPLE:/usr/lib/TRIPLE).
# Needs readelf (binutils), a C compiler with a static C library (libc6-dev), and
# dpkg (the libraries must come from Debian packages, whose copyright files
# the bundle carries).
# Exit status: 0 bundle written, 2 usage, 1 something missing (said on one line).
set -eu
umask 022
src=$(cd "$(dirname "$0")/.." && pwd)
out=dist
build=
while [ $# -gt 0 ]; do
    case $1 in
        --out) [ $# -ge 2 ] || { echo "bundle: --out needs a folder" >&2; exit 2; }
               out=$2; shift 2 ;;
        --help|-h) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "bundle: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) [ -z "$build" ] || { echo "bundle: one build folder only (got $build and $1)" >&2; exit 2; }
           build=$1; shift ;;
    esac
done
build=${build:-$src/build}
. "$src/scripts/lib/outdir.sh"
outdir_check bundle --out "$out"
die() { echo "bundle: $*" >&2; exit 1; }
command -v readelf >/dev/null 2>&1 || die "readelf not found: apt-get install binutils"
command -v dpkg-query >/dev/null 2>&1 ||
    die "dpkg-query not found: the bundle takes its libraries' licences from their Debian packages"
[ -s "$src/LICENSE" ] || die "$src/LICENSE not found"
prog=$build/bin/muxprof
[ -x "$prog" ] || die "$prog not found: build first (scripts/setup.sh, or scripts/cross-aarch64.sh --build-only)"
for f in "$build/share/muxprof.1" "$build/share/muxprof.bash"; do
    [ -s "$f" ] || die "$f not found: build the whole tree (cmake --build $build), not only the muxprof target"
done
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt" 2>/dev/null)
[ -n "$version" ] || die "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt: is $build a muxprof build folder?"
machine=$(readelf -h "$prog" | sed -n 's/^ *Machine: *//p')
case $machine in
    *X86-64*) arch=x86_64 ;;
    *AArch64*) arch=aarch64 ;;
    *) die "$prog is for '$machine': bundles are made for x86_64 and aarch64 only" ;;
esac
triple=$arch-linux-gnu
if [ -z "${CC:-}" ]; then
    if [ "$arch" = "$(uname -m)" ]; then CC=cc; else CC=$triple-gcc; fi
fi
command -v "$CC" >/dev/null 2>&1 || die "$CC not found (the launcher's compiler): apt-get install gcc (gcc-$triple for a cross build) or set CC"
LIBDIRS=${LIBDIRS:-/lib/$triple:/usr/lib/$triple}

# The loader: the program's PT_INTERP, looked for by name in LIBDIRS.
interp=$(readelf -l "$prog" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p')
[ -n "$interp" ] || die "$prog has no program interpreter (a static build needs no bundle)"
loader=$(basename "$interp")

find_lib() {   # NAME: the first LIBDIRS/NAME, or nothing
    old=$IFS; IFS=:
    for d in $LIBDIRS; do
        if [ -e "$d/$1" ]; then IFS=$old; echo "$d/$1"; return 0; fi
    done
    IFS=$old
    return 1
}
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
# owner PATH: the Debian package that installed PATH (the path as given, or what
# its links lead to, with or without /usr in front: a merged /usr names a file
# by two paths and dpkg knows one).
owner() {
    for c in "$1" "$(readlink -f "$1")"; do
        c=$(realpath -s "$c")
        for v in "$c" "${c#/usr}" "/usr$c"; do
            o=$(dpkg-query -S "$v" 2>/dev/null | sed -n '1s/[:,].*//p')
            if [ -n "$o" ]; then echo "$o"; return 0; fi
        done
    done
    return 1
}
# licence FILE_IN_BUNDLE HOST_PATH: licences/PACKAGE for the package HOST_PATH came from.
licence() {
    pkg=$(owner "$2") || die "$2 (copied as $1) belongs to no Debian package: its licence is unknown"
    copyright=/usr/share/doc/$pkg/copyright
    [ -s "$copyright" ] || die "$copyright not found: the licence of $2 ($pkg) is unknown"
    cp "$copyright" "$root/licences/$pkg"
    echo "$1 $pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null | sed -n 1p)" >>"$root/licences/FILES"
}

name=muxprof-$version-$arch
outdir_make bundle --out "$out"
out=$(cd "$OUTDIR" && pwd)
tmp=$(mktemp -d "$out/.bundle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
root=$tmp/$name
mkdir -p "$root/bin" "$root/libexec" "$root/lib/hwloc" "$root/share/man/man1" \
         "$root/share/bash-completion/completions" "$root/licences"

# Every library the program needs, and what those need, once each.
todo=$(needed "$prog")
done_list=" "
while [ -n "$todo" ]; do
    next=
    for lib in $todo; do
        case $done_list in *" $lib "*) continue ;; esac
        done_list="$done_list$lib "
        path=$(find_lib "$lib") || die "$lib (needed by muxprof) not found in $LIBDIRS"
        cp -L "$path" "$root/lib/$lib"
        licence "lib/$lib" "$path"
        next="$next $(needed "$path")"
    done
    todo=$next
done
lpath=$(find_lib "$loader") || die "the loader $loader not found in $LIBDIRS"
cp -L "$lpath" "$root/lib/$loader"
case $done_list in *" $loader "*) ;; *) licence "lib/$loader" "$lpath" ;; esac

cp "$prog" "$root/libexec/muxprof"
"$CC" -static -O2 -Wall -Wextra -DMP_LOADER="\"$loader\"" -o "$root/bin/muxprof" \
      "$src/scripts/bundle/launcher.c" ||
    die "$CC -static failed: a static C library is needed (libc6-dev, or libc6-dev-arm64-cross)"
readelf -l "$root/bin/muxprof" | grep -q 'program interpreter' &&
    die "$CC made a launcher that needs a loader; it must be static"
licence bin/muxprof "$("$CC" -print-file-name=libc.a)"
cp "$src/LICENSE" "$root/licences/muxprof"
printf 'bin/muxprof muxprof %s\nlibexec/muxprof muxprof %s\n' "$version" "$version" >>"$root/licences/FILES"
cp "$build/share/muxprof.1" "$root/share/man/man1/muxprof.1"
cp "$build/share/muxprof.bash" "$root/share/bash-completion/completions/muxprof"
cp "$src/scripts/validate-host.sh" "$root/validate-host.sh"
cat >"$root/README" <<EOF
muxprof $version for $arch Linux: a folder that runs on any $arch Linux host, with
no compiler, no package and none of its libraries installed (it brings them:
glibc and its loader, libpfm4, hwloc, cJSON, liburing).
  bin/muxprof --help               the program (man: share/man/man1/muxprof.1)
  bin/muxprof run --quick          a first measurement
  ./validate-host.sh               check what this host counts, and against perf stat
Figures are drawn with gnuplot, which the bundle does not bring: without it a run
says so and \`bin/muxprof report DIR\` draws them later, on any host that has it.
Capabilities set on a file do not apply to a bundle (the loader is what runs):
count as root, or with a low kernel.perf_event_paranoid.
muxprof is under the MIT licence (licences/muxprof); licences/ holds the copyright
file of each library it brings, licences/FILES which file came from which package.
EOF
# The modes, whatever the files were copied from.
find "$root" -type d -exec chmod 755 {} +
find "$root" -type f -exec chmod 644 {} +
chmod 755 "$root/bin/muxprof" "$root/libexec/muxprof" "$root/lib/$loader" "$root/validate-host.sh"

rm -rf "${out:?}/$name" "$out/$name.tar.gz"
tar -C "$tmp" -czf "$tmp/$name.tar.gz" --owner=0 --group=0 --numeric-owner --mode=go-w \
    --sort=name "$name"
mv "$tmp/$name" "$out/$name"
mv "$tmp/$name.tar.gz" "$out/$name.tar.gz"
size=$(du -sk "$out/$name" | cut -f1)
tsize=$(du -k "$out/$name.tar.gz" | cut -f1)
echo "bundle: $out/$name ($((size / 1024)) MiB, $(ls "$out/$name/lib" | grep -c '\.so') libraries) and $out/$name.tar.gz ($((tsize / 1024)) MiB)"
