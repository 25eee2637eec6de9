#!/bin/sh
# SPDX-License-Identifier: MIT
# test_bundle.sh SOURCE_DIR BUILD_DIR WORK_DIR - scripts/bundle.sh on BUILD_DIR,
# then the bundle as a host without muxprof's libraries sees it:
#   - the folder: a static launcher, the program, the man page, the completion,
#     README, validate-host.sh, the loader and every library the program needs
#     (libpfm4, hwloc, cJSON, liburing, glibc), each library's own needed list
#     found in lib/ too, under 64 MiB; licences/: LICENSE as licences/muxprof, and
#     for each file in lib/ the package it came from (licences/FILES) and that
#     package's copyright file;
#   - the .tar.gz unpacked somewhere else runs (nothing names the folder it was
#     made in);
#   - in a mount namespace where the host's library folders are empty tmpfs
#     mounts and PATH holds the bundle only: the build's own muxprof cannot start
#     there (the hiding works), the bundle's runs --version, topology,
#     `run --quick` (complete results.json, "gnuplot not found" said once) and
#     `loop`;
#   - its validate-host.sh, started from another folder, uses the bundle's muxprof.
# A cross build (arm64 on x86_64) is run under qemu-user through the bundled
# loader (qemu-user cannot start the static launcher's exec of an arm64 loader
# without binfmt_misc), with the arm64 library folders hidden.
# Exit 77 when a tool is missing (readelf, unshare, a static C library, qemu).
set -u
src=${1:?usage: test_bundle.sh SOURCE_DIR BUILD_DIR WORK_DIR}
build=$(cd "${2:?usage}" && pwd) || exit 1
work=${3:?usage}
skip() { echo "SKIP: test_bundle: $*"; exit 77; }
fail() { echo "FAIL: test_bundle: $*" >&2; exit 1; }

command -v readelf >/dev/null 2>&1 || skip "no readelf (apt-get install binutils)"
command -v unshare >/dev/null 2>&1 || skip "no unshare (util-linux)"
if [ "$(id -u)" = 0 ]; then ns="unshare -m --propagation private"; else ns="unshare -r -m --propagation private"; fi
$ns true 2>/dev/null || skip "cannot make a mount namespace here ($ns)"
machine=$(readelf -h "$build/bin/muxprof" | sed -n 's/^ *Machine: *//p')
case $machine in
    *X86-64*) arch=x86_64 ;;
    *AArch64*) arch=aarch64 ;;
    *) skip "no bundle for a $machine build" ;;
esac
triple=$arch-linux-gnu
cc=cc
[ "$arch" = "$(uname -m)" ] || cc=$triple-gcc
rm -rf "$work" && mkdir -p "$work" || exit 1
printf 'int main(void){return 0;}\n' >"$work/t.c"
"$cc" -static -o "$work/t" "$work/t.c" 2>/dev/null ||
    skip "$cc cannot link -static (a static C library: libc6-dev, or libc6-dev-arm64-cross)"
emu=""
if [ "$arch" != "$(uname -m)" ]; then
    command -v "qemu-$arch" >/dev/null 2>&1 || skip "no qemu-$arch (apt-get install qemu-user)"
    emu=$(command -v "qemu-$arch")
fi

CC=$cc sh "$src/scripts/bundle.sh" --out "$work/dist" "$build" >"$work/bundle.out" 2>&1 ||
    fail "scripts/bundle.sh: $(cat "$work/bundle.out")"
cat "$work/bundle.out"
set -- "$work"/dist/muxprof-*-"$arch"
[ $# = 1 ] && [ -d "$1" ] || fail "no single dist/muxprof-VERSION-$arch folder: $*"
name=$(basename "$1")
[ -s "$work/dist/$name.tar.gz" ] || fail "no $name.tar.gz"

# The folder ------------------------------------------------------------------
d=$work/dist/$name
for f in bin/muxprof libexec/muxprof share/man/man1/muxprof.1 \
         share/bash-completion/completions/muxprof README validate-host.sh; do
    [ -s "$d/$f" ] || fail "$name/$f missing"
done
[ -x "$d/bin/muxprof" ] && [ -x "$d/validate-host.sh" ] || fail "launcher or validate-host.sh not executable"
readelf -l "$d/bin/muxprof" | grep -q 'program interpreter' && fail "the launcher is not static"
readelf -h "$d/bin/muxprof" | grep -q "Machine: *$(echo "$machine" | sed 's/^ *//')" ||
    fail "the launcher is not a $arch program"
set -- "$d"/lib/ld-linux*
[ -f "$1" ] || fail "no loader in $name/lib"
loader=$1
for l in libpfm.so libhwloc.so libcjson.so liburing.so libc.so.6; do
    ls "$d/lib/$l"* >/dev/null 2>&1 || fail "$l* not in $name/lib"
done
for f in "$d/libexec/muxprof" "$d"/lib/*.so*; do
    for n in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        [ -f "$d/lib/$n" ] || fail "$(basename "$f") needs $n, which is not in $name/lib"
    done
done
# Licences: muxprof's, and the copyright file of the package of each copied library.
cmp -s "$d/licences/muxprof" "$src/LICENSE" || fail "$name/licences/muxprof is not LICENSE"
[ -s "$d/licences/FILES" ] || fail "$name/licences/FILES missing"
for f in "$d"/lib/*; do
    [ -f "$f" ] || continue
    pkg=$(awk -v p="lib/$(basename "$f")" '$1 == p {print $2; exit}' "$d/licences/FILES")
    [ -n "$pkg" ] || fail "licences/FILES does not say which package lib/$(basename "$f") came from"
    [ -s "$d/licences/$pkg" ] || fail "lib/$(basename "$f") came from $pkg, but licences/$pkg is missing"
    grep -qi 'copyright\|licen[cs]e' "$d/licences/$pkg" || fail "licences/$pkg holds no copyright or licence text"
done
awk '$1 == "bin/muxprof" && $2 != "muxprof"' "$d/licences/FILES" | grep -q . ||
    fail "licences/FILES names no package for the launcher's static C library"
kib=$(du -sk "$d" | cut -f1)
[ "$kib" -lt 65536 ] || fail "$name is $kib KiB, not under 64 MiB"
echo "test_bundle: $name is $kib KiB, the .tar.gz $(du -k "$work/dist/$name.tar.gz" | cut -f1) KiB"

# Unpacked elsewhere: nothing points back at dist/ -------------------------------
mkdir "$work/x" && tar -C "$work/x" -xzf "$work/dist/$name.tar.gz" || fail "tar -xzf $name.tar.gz"
rm -rf "$work/dist/$name"
b=$work/x/$name
[ -x "$b/bin/muxprof" ] || fail "the .tar.gz has no $name/bin/muxprof"

# With the host's libraries hidden -----------------------------------------------
if [ -n "$emu" ]; then
    mp="$emu $b/lib/$(basename "$loader") --library-path $b/lib --argv0 muxprof $b/libexec/muxprof"
    own="$emu $build/bin/muxprof"
    hide="/usr/local/lib /usr/$triple/lib /usr/lib/$triple /lib/$triple"
else
    mp="$b/bin/muxprof"
    own="$build/bin/muxprof"
    hide="/usr/local/lib /usr/lib/$triple /lib/$triple"
fi
# Each mount is a program that needs the libraries it may hide: the folder
# it is loaded from goes last, and once (on a merged /usr, /lib/TRIPLE is /usr/lib/TRIPLE).
mounts=""
for h in $hide; do
    [ -d "$h" ] || continue
    real=$(cd "$h" && pwd -P)
    case " $mounts " in *" $real "*) continue ;; esac
    mounts="$mounts $real"
done
cat >"$work/inner.sh" <<EOF
for m in $mounts; do mount -t tmpfs -o size=1m none "\$m" || exit 3; done
PATH=$b/bin
$own --version >$work/own.out 2>&1; echo \$? >$work/own.rc
$mp --version >$work/version.out 2>&1 || exit 10
$mp topology >$work/topology.out 2>&1 || exit 11
$mp run --quick $([ -n "$emu" ] && echo "--backends poll,epoll --fds 10 --samples 30") \
    --out $work/run >$work/run.out 2>$work/run.err || exit 12
$mp loop --backend epoll --fds 100 --calls 1000 >$work/loop.out 2>&1 || exit 13
exit 0
EOF
$ns sh "$work/inner.sh"
rc=$?
case $rc in
    0) ;;
    3) fail "cannot mount a tmpfs over the library folders ($mounts)" ;;
    10) fail "the bundle's muxprof --version with the libraries hidden: $(cat "$work/version.out")" ;;
    11) fail "the bundle's muxprof topology with the libraries hidden: $(cat "$work/topology.out")" ;;
    12) fail "the bundle's muxprof run --quick with the libraries hidden: $(tail -n 5 "$work/run.err")" ;;
    13) fail "the bundle's muxprof loop with the libraries hidden: $(cat "$work/loop.out")" ;;
    *) fail "the namespace ended with $rc" ;;
esac
[ "$(cat "$work/own.rc")" != 0 ] ||
    fail "the build's muxprof started with the libraries hidden: the hiding did not work"
grep -q '^muxprof [0-9]' "$work/version.out" || fail "--version said: $(cat "$work/version.out")"
grep -q '"status":[[:space:]]*"complete"' "$work/run/results.json" || fail "the run's results.json is not complete"
[ -s "$work/run/report.md" ] || fail "the run wrote no report.md"
n=$(grep -c 'gnuplot not found' "$work/run.err")
[ "$n" = 1 ] || fail "without gnuplot the run said so $n times, not once: $(cat "$work/run.err")"
grep -q 'answer right' "$work/loop.out" || fail "loop said: $(cat "$work/loop.out")"
# The bundle's validate-host.sh finds the bundle's muxprof by itself (native only:
# under qemu-user the launcher cannot start); no perf, so nothing to compare.
if [ -z "$emu" ] && command -v bash >/dev/null 2>&1; then
    (cd "$work" && PERF=/nonexistent/perf MUXPROF= bash "$b/validate-host.sh" --fds 100 --calls 200) \
        >"$work/validate.out" 2>&1 || fail "the bundle's validate-host.sh: $(tail -n 5 "$work/validate.out")"
    set -- "$work"/muxprof-validation-*
    [ -s "$1/summary.txt" ] || fail "the bundle's validate-host.sh wrote no summary.txt under $work"
    grep -q "^muxprof: muxprof [0-9].*($b/bin/muxprof)\$" "$1/summary.txt" ||
        fail "validate-host.sh did not use the bundle's muxprof: $(sed -n 2p "$1/summary.txt")"
fi
[ -n "${BUNDLE_KEEP:-}" ] || rm -rf "$work"
echo "test_bundle: $name runs --version, topology, run --quick and loop with$mounts hidden"
