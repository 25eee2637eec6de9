#!/bin/sh
# SPDX-License-Identifier: MIT
# test_deb.sh SOURCE_DIR BUILD_DIR WORK_DIR - what the .deb (cpack -G DEB) holds,
# without installing it:
#   - Maintainer is MUXPROF_MAINTAINER of the build (a real address, not localhost);
#   - Architecture is the one /usr/bin/muxprof is built for (a cross build too);
#   - /usr/share/doc/muxprof/copyright is machine-readable (DEP-5: its Format
#     line, Files: *, License: MIT; the BPF program's MIT or GPL-2) and
#     holds LICENSE's copyright line and text;
#   - the manual page is /usr/share/man/man1/muxprof.1.gz, gzip -9n (no name, no
#     time in its header), and no uncompressed one;
#   - /usr/share/doc/muxprof holds the guides (*.md), copyright and changelog.gz
#     only: no run data (results.json, .muxprof-manifest, CSV, figures);
#   - where lintian is installed: no error.
# Exit 77 when cpack or dpkg-deb is missing.
set -u
src=${1:?usage: test_deb.sh SOURCE_DIR BUILD_DIR WORK_DIR}
build=$(cd "${2:?usage}" && pwd) || exit 1
work=${3:?usage}
skip() { echo "SKIP: test_deb: $*"; exit 77; }
fail() { echo "FAIL: test_deb: $*" >&2; exit 1; }
for t in cpack dpkg-deb gzip; do command -v $t >/dev/null 2>&1 || skip "no $t"; done
rm -rf "$work" && mkdir -p "$work" || exit 1
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1 ||
    { tail -n 20 "$work/cpack.log" >&2; fail "cpack -G DEB"; }
set -- "$work"/deb/muxprof_*.deb
[ $# = 1 ] && [ -f "$1" ] || fail "not one .deb in $work/deb: $*"
deb=$1

want=$(sed -n 's/^MUXPROF_MAINTAINER:STRING=//p' "$build/CMakeCache.txt")
got=$(dpkg-deb -f "$deb" Maintainer)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "Maintainer is '$got', not MUXPROF_MAINTAINER '$want'"
case $got in *localhost*|*'<>'*|'') fail "Maintainer '$got' is no address anyone can write to" ;;
             *' <'*@*.*'>') ;; *) fail "Maintainer '$got' is not 'Name <address>'" ;; esac

x=$work/x
dpkg-deb -x "$deb" "$x" || fail "dpkg-deb -x"
# Architecture is the program's (e_machine, bytes 18-19 of its ELF header), also
# in a cross build, where CPack would otherwise name the build machine's.
arch=$(dpkg-deb -f "$deb" Architecture)
[ -f "$x/usr/bin/muxprof" ] || fail "no /usr/bin/muxprof"
case $(od -An -tx1 -j18 -N2 "$x/usr/bin/muxprof" | tr -d ' \n') in
    3e00) elf=amd64 ;; b700) elf=arm64 ;; f300) elf=riscv64 ;; 1500) elf=ppc64el ;;
    *) elf="unknown e_machine $(od -An -tx1 -j18 -N2 "$x/usr/bin/muxprof" | tr -d ' \n')" ;;
esac
[ "$arch" = "$elf" ] || fail "Architecture is '$arch' but /usr/bin/muxprof is built for $elf"
doc=$x/usr/share/doc/muxprof
c=$doc/copyright
[ -s "$c" ] || fail "no /usr/share/doc/muxprof/copyright"
head -n 1 "$c" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    fail "copyright is not DEP-5: its first line is '$(head -n 1 "$c")'"
grep -qx 'Files: \*' "$c" && grep -qx 'License: MIT' "$c" || fail "copyright names no 'Files: *' / 'License: MIT'"
grep -qx 'Files: src/trace/trace.bpf.c' "$c" && grep -qx 'License: MIT or GPL-2' "$c" &&
    grep -qx 'License: GPL-2' "$c" ||
    fail "copyright has no stanza for the BPF program (MIT or GPL-2) and its licence paragraph"
holder=$(sed -n 's/^Copyright (c) //p' "$src/LICENSE")
grep -qx "Copyright: $holder" "$c" || fail "copyright lacks 'Copyright: $holder' (LICENSE)"
sed -n '/^Permission is hereby/,$p' "$src/LICENSE" | grep -v '^$' >"$work/text.want"
sed -n '/^ Permission is hereby/,$p' "$c" | sed 's/^ //' | grep -vx '\.' >"$work/text.got"
cmp -s "$work/text.want" "$work/text.got" || fail "copyright's licence text is not LICENSE's"

m=$x/usr/share/man/man1
[ -s "$m/muxprof.1.gz" ] || fail "no /usr/share/man/man1/muxprof.1.gz"
[ ! -e "$m/muxprof.1" ] || fail "an uncompressed /usr/share/man/man1/muxprof.1 as well"
[ "$(od -An -tx1 -j3 -N5 "$m/muxprof.1.gz" | tr -d ' ')" = 0000000000 ] ||
    fail "muxprof.1.gz has a name or a time in its gzip header (not gzip -n)"
[ "$(od -An -tx1 -j8 -N1 "$m/muxprof.1.gz" | tr -d ' ')" = 02 ] || fail "muxprof.1.gz is not gzip -9"
gzip -dc "$m/muxprof.1.gz" | head -n 2 | grep -q '^\.TH MUXPROF 1 ' || fail "muxprof.1.gz is no manual page"

(cd "$doc" && find . -type f ! -name '*.md' ! -path ./copyright ! -path ./changelog.gz) >"$work/extra"
[ ! -s "$work/extra" ] || fail "run data or other files under /usr/share/doc/muxprof: $(head -n 5 "$work/extra" | tr '\n' ' ')"
[ -s "$doc/changelog.gz" ] && gzip -dc "$doc/changelog.gz" | head -n 1 | grep -q '^muxprof (' ||
    fail "no Debian changelog.gz in /usr/share/doc/muxprof"

if command -v lintian >/dev/null 2>&1; then
    lintian --tag-display-limit 0 "$deb" >"$work/lintian.out" 2>&1
    if grep -q '^E: ' "$work/lintian.out"; then
        fail "lintian: $(grep '^E: ' "$work/lintian.out" | head -n 5 | tr '\n' ' ')"
    fi
    echo "test_deb: lintian: no error, $(grep -c '^W: ' "$work/lintian.out") warnings"
else
    echo "test_deb: lintian not installed: not run (apt-get install lintian)"
fi
rm -rf "$work"
echo "test_deb: $(basename "$deb"): maintainer, DEP-5 copyright, muxprof.1.gz, doc folder checked"
