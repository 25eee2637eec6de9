#!/bin/sh
# SPDX-License-Identifier: MIT
# ci-deb.sh - the Debian package, end to end, as a CI step (it installs a
# package on this machine and removes it again, so it is not a ctest):
#   1. README.md's two Debian package lines as written (`cd build && cpack -G DEB`,
#      then in build/ `apt install ./muxprof_*.deb`; BUILD_DIR stands for build/):
#      BUILD_DIR/muxprof_VERSION_ARCH.deb, whose Depends (from dpkg-shlibdeps) must
#      name libpfm4, hwloc, cJSON, liburing, libc6;
#      and lintian (installed when missing) finds no error in it, its
#      warnings listed;
#   2. the apt line, answered yes (APT::Get::Assume-Yes), installs it;
#   3. with the source tree and BUILD_DIR hidden (an empty tmpfs over each, in a
#      mount namespace: the installed program is tried where it was not built):
#      `muxprof --version`, `man -w muxprof` is /usr/share/man/man1/muxprof.1.gz,
#      `man muxprof` formats it, the completion is in bash-completion's folder,
#      `muxprof run --quick` completes;
#   4. `apt-get remove --purge muxprof`: the package is gone and none of its files
#      remains.
# Usage: scripts/ci-deb.sh [BUILD_DIR]          (default build; root, or sudo -n)
# Refuses (exit 1) when a muxprof package is installed already, or a muxprof is
# on PATH: it would replace or hide it.  Every wait is bounded (timeout).
# Exit status: 0 all checked, 1 a check failed (said on one line), 2 usage.
set -eu
case ${1:-} in -h|--help) sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
               -*) echo "ci-deb: unknown option $1 (see --help)" >&2; exit 2 ;; esac
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" 2>/dev/null && pwd) || { echo "ci-deb: no build folder ${1:-$src/build}" >&2; exit 2; }
say() { echo "ci-deb: $*"; }
fail() { echo "ci-deb: FAIL: $*" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    fail "installs a package: run as root, or with sudo that needs no password"
fi
for t in cpack dpkg-deb apt apt-get man unshare; do
    command -v $t >/dev/null 2>&1 || fail "$t not found (cmake, dpkg, apt, man-db, util-linux)"
done
dpkg-query -W -f='${Status}' muxprof 2>/dev/null | grep -q "install ok installed" &&
    fail "a muxprof package is installed already; remove it first (apt-get remove muxprof)"
if command -v muxprof >/dev/null 2>&1; then
    fail "$(command -v muxprof) is on PATH already; this check would be confused by it"
fi

# The README's lines, as a reader copies them.
make_line=$(grep -m1 '^cd build && cpack -G DEB' "$src/README.md") ||
    fail "README.md has no line 'cd build && cpack -G DEB'"
apt_line=$(grep -m1 '^apt install \./muxprof_\*\.deb' "$src/README.md") ||
    fail "README.md has no line 'apt install ./muxprof_*.deb'"
rm -f "$build"/muxprof_*.deb
say "in $build: ${make_line#cd build && }"
(cd "$build" && eval "timeout 600 ${make_line#cd build && }") >"$build/ci-deb-cpack.log" 2>&1 ||
    { tail -n 20 "$build/ci-deb-cpack.log" >&2; fail "$make_line (log: $build/ci-deb-cpack.log)"; }
set -- "$build"/muxprof_*.deb
[ $# = 1 ] && [ -f "$1" ] || fail "not one .deb in $build after '$make_line': $*"
deb=$1
depends=$(dpkg-deb -f "$deb" Depends)
for d in libc6 libpfm4 libhwloc libcjson liburing; do
    case $depends in *"$d"*) ;; *) fail "Depends has no $d: $depends" ;; esac
done
if ldd "$build/bin/muxprof" 2>/dev/null | grep -q 'libbpf\.so'; then
    case $depends in *libbpf*) ;; *) fail "the program links libbpf, Depends does not name it: $depends" ;; esac
fi
say "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB; Depends: $depends"
if ! command -v lintian >/dev/null 2>&1; then
    say "installing lintian"
    { timeout 300 $sudo apt-get update -q && timeout 300 \
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends lintian; } \
        >"$build/ci-deb-lintian.log" 2>&1 ||
        fail "could not install lintian (apt-get install lintian; log: $build/ci-deb-lintian.log)"
fi
# lintian exits 0, or 1 where it found an error; anything else is its own failure
lrc=0
timeout 600 lintian --tag-display-limit 0 "$deb" >"$build/ci-deb-lintian.out" 2>&1 || lrc=$?
[ $lrc -le 1 ] ||
    fail "lintian did not finish (exit $lrc): $(grep -v '^[EWIP]: ' "$build/ci-deb-lintian.out" | head -n 3 | tr '\n' ' ')"
if grep -q '^E: ' "$build/ci-deb-lintian.out"; then
    fail "lintian: $(grep '^E: ' "$build/ci-deb-lintian.out" | head -n 5 | tr '\n' ' ')"
fi
say "lintian $(lintian --version | awk '{print $2}'): no error, $(grep -c '^W: ' "$build/ci-deb-lintian.out") warnings$(grep '^W: ' "$build/ci-deb-lintian.out" | sed 's/^W: muxprof[^:]*: /; /' | tr -d '\n')"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $NF}' | sed 's|^\./|/|' >"$build/ci-deb-files"
for f in /usr/bin/muxprof /usr/share/man/man1/muxprof.1.gz /usr/share/bash-completion/completions/muxprof \
         /usr/share/doc/muxprof/copyright; do
    grep -qx "$f" "$build/ci-deb-files" || fail "the package has no $f"
    [ ! -e "$f" ] || fail "$f exists already (not from a package): it would be overwritten"
done

installed=""
cleanup() {
    if [ -n "$installed" ]; then
        DEBIAN_FRONTEND=noninteractive timeout 300 $sudo apt-get remove --purge -y -q muxprof \
            >/dev/null 2>&1 || echo "ci-deb: could not remove muxprof: apt-get remove --purge muxprof" >&2
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say "in $build: $apt_line"
installed=1
aptconf=$(mktemp /tmp/muxprof-ci-deb-apt.XXXXXX)
echo 'APT::Get::Assume-Yes "true";' >"$aptconf"
(cd "$build" && eval "timeout 600 $sudo env APT_CONFIG=$aptconf DEBIAN_FRONTEND=noninteractive $apt_line") \
    </dev/null >"$build/ci-deb-install.log" 2>&1 ||
    { rm -f "$aptconf"; tail -n 20 "$build/ci-deb-install.log" >&2; fail "$apt_line (in $build)"; }
rm -f "$aptconf"
dpkg-query -W -f='${Status}' muxprof | grep -q "install ok installed" || fail "dpkg does not list muxprof installed"

# Where it was not built: the source tree and the build folder are empty here.
work=$(mktemp -d /tmp/muxprof-ci-deb.XXXXXX)
inner=$work/inner.sh
cat >"$inner" <<EOF
set -e
mount -t tmpfs -o size=1m none "$build"
mount -t tmpfs -o size=1m none "$src"
cd /
[ ! -e "$src/CMakeLists.txt" ]
out=$work/out
muxprof --version >\$out.version
man -w muxprof >\$out.manw
MANWIDTH=80 man muxprof 2>/dev/null >\$out.man
muxprof run --quick --backends poll,epoll --fds 10,100 --out $work/run >\$out.run 2>&1
EOF
if [ "$(id -u)" = 0 ]; then ns="unshare -m --propagation private"; else ns="$sudo unshare -m --propagation private"; fi
timeout 300 $ns sh "$inner" || fail "the installed muxprof, with the source tree hidden: $(tail -n 3 "$work"/out.* 2>/dev/null)"
grep -q '^muxprof [0-9]' "$work/out.version" || fail "muxprof --version: $(cat "$work/out.version")"
[ "$(cat "$work/out.manw")" = /usr/share/man/man1/muxprof.1.gz ] || fail "man -w muxprof: $(cat "$work/out.manw")"
grep -q 'MUXPROF' "$work/out.man" || fail "man muxprof printed no page"
grep -q '"status":[[:space:]]*"complete"' "$work/run/results.json" || fail "the quick run is not complete"
say "installed: $(cat "$work/out.version"); man -w: $(cat "$work/out.manw"); run --quick complete"
rm -rf "$work"

say "apt-get remove --purge muxprof"
DEBIAN_FRONTEND=noninteractive timeout 300 $sudo apt-get remove --purge -y -q muxprof \
    >"$build/ci-deb-remove.log" 2>&1 || { tail -n 20 "$build/ci-deb-remove.log" >&2; fail "apt-get remove --purge muxprof"; }
installed=""
! dpkg-query -W -f='${Status}' muxprof 2>/dev/null | grep -q "installed" ||
    fail "dpkg still lists muxprof after the purge"
left=0
while IFS= read -r f; do
    if [ -e "$f" ] || [ -L "$f" ]; then echo "ci-deb: left after the purge: $f" >&2; left=1; fi
done <"$build/ci-deb-files"
[ -e /usr/share/doc/muxprof ] && { echo "ci-deb: left after the purge: /usr/share/doc/muxprof/" >&2; left=1; }
[ -e /usr/libexec/muxprof ] && { echo "ci-deb: left after the purge: /usr/libexec/muxprof/" >&2; left=1; }
[ "$left" = 0 ] || fail "files of the package remain after apt-get remove --purge"
say "removed: no file of the package remains ($(wc -l <"$build/ci-deb-files") files checked)"
