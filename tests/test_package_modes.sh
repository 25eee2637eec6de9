#!/bin/sh
# SPDX-License-Identifier: MIT
# test_package_modes.sh SOURCE_DIR BUILD_DIR WORK_DIR - the .deb (cpack -G DEB)
# and the bundle (scripts/bundle.sh), each made under umask 000, set their own
# modes: every folder 0755, the programs 0755 (the .deb's /usr/bin/muxprof and
# /usr/libexec/muxprof/grant-perfmon.sh; the bundle's bin/muxprof,
# libexec/muxprof, lib/ld-linux*, validate-host.sh), every other file 0644,
# nothing writable by group or others, owned by root:root (0:0) in the .deb's
# archives and in the bundle's .tar.gz.  Exit 77 when cpack, dpkg-deb, readelf
# or a static C library is missing.
set -u
src=${1:?usage: test_package_modes.sh SOURCE_DIR BUILD_DIR WORK_DIR}
build=$(cd "${2:?usage}" && pwd) || exit 1
work=${3:?usage}
skip() { echo "SKIP: test_package_modes: $*"; exit 77; }
fail() { echo "FAIL: test_package_modes: $*" >&2; exit 1; }
for t in cpack dpkg-deb readelf tar; do
    command -v $t >/dev/null 2>&1 || skip "no $t"
done
rm -rf "$work" && mkdir -p "$work" || exit 1
printf 'int main(void){return 0;}\n' >"$work/t.c"
cc -static -o "$work/t" "$work/t.c" 2>/dev/null || skip "cc cannot link -static (libc6-dev): no bundle"

# check_listing WHAT EXEC_REGEX [MIN_FILES] < `tar tv` lines: modes and owners.
check_listing() {
    awk -v what="$1" -v exe="$2" -v min="${3:-3}" '
        { mode = $1; own = $2; path = $NF }
        own != "root/root" && own != "0/0" { print what ": " path " owned by " own; bad = 1 }
        mode ~ /^d/ { if (mode != "drwxr-xr-x") { print what ": folder " path " is " mode; bad = 1 }; next }
        mode ~ /^-/ {
            want = (path ~ exe) ? "-rwxr-xr-x" : "-rw-r--r--"
            if (mode != want) { print what ": " path " is " mode ", not " want; bad = 1 }
            n++; next
        }
        { print what ": " path " is " mode " (not a folder or a plain file)"; bad = 1 }
        END { if (n < min) { print what ": only " n " files listed"; bad = 1 }; exit bad }'
}

# The .deb ------------------------------------------------------------------------
(umask 000; cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb") >"$work/cpack.log" 2>&1 ||
    { tail -n 20 "$work/cpack.log" >&2; fail "cpack -G DEB under umask 000"; }
set -- "$work"/deb/muxprof_*.deb
[ $# = 1 ] && [ -f "$1" ] || fail "not one .deb in $work/deb: $*"
deb=$1
dpkg-deb -c "$deb" >"$work/data.lst" || fail "dpkg-deb -c $deb"
check_listing "the .deb" '^\./usr/(bin/muxprof|libexec/muxprof/grant-perfmon\.sh)$' <"$work/data.lst" >"$work/bad" ||
    fail "$(head -n 5 "$work/bad" | tr '\n' ';')"
grep -q '^-rwxr-xr-x.* \./usr/libexec/muxprof/grant-perfmon\.sh$' "$work/data.lst" ||
    fail "the .deb has no /usr/libexec/muxprof/grant-perfmon.sh 0755"
dpkg-deb --ctrl-tarfile "$deb" | tar tv >"$work/ctrl.lst" || fail "dpkg-deb --ctrl-tarfile $deb"
check_listing "the .deb's control" '^\./(preinst|postinst|prerm|postrm)$' 2 <"$work/ctrl.lst" >"$work/bad" ||
    fail "$(head -n 5 "$work/bad" | tr '\n' ';')"
echo "test_package_modes: $(basename "$deb") made under umask 000: $(wc -l <"$work/data.lst") entries, modes right"

# The bundle ----------------------------------------------------------------------
(umask 000; sh "$src/scripts/bundle.sh" --out "$work/dist" "$build") >"$work/bundle.log" 2>&1 ||
    fail "scripts/bundle.sh under umask 000: $(tail -n 3 "$work/bundle.log")"
set -- "$work"/dist/muxprof-*
[ -d "$1" ] || fail "no bundle folder in $work/dist"
d=$1
name=$(basename "$d")
bexe="^(\\./)?$name/(bin/muxprof|libexec/muxprof|lib/ld-linux[^/]*|validate-host\\.sh)/?\$"
(cd "$work/dist" && find "$name" -printf '%M root/root %p\n') | check_listing "the bundle" "$bexe" >"$work/bad" ||
    fail "$(head -n 5 "$work/bad" | tr '\n' ';')"
tar tvzf "$d.tar.gz" >"$work/tar.lst" || fail "tar tvzf $name.tar.gz"
check_listing "the bundle's .tar.gz" "$bexe" <"$work/tar.lst" >"$work/bad" ||
    fail "$(head -n 5 "$work/bad" | tr '\n' ';')"
[ "$(wc -l <"$work/tar.lst")" = "$(cd "$work/dist" && find "$name" | wc -l)" ] ||
    fail "the .tar.gz and the folder list different entries"
for f in bin/muxprof libexec/muxprof validate-host.sh; do
    grep -q "^-rwxr-xr-x 0/0 .* $name/$f\$" "$work/tar.lst" || fail "$name.tar.gz: $f is not 0755 0/0"
done
rm -rf "$work"
echo "test_package_modes: the bundle and its .tar.gz made under umask 000: modes right, 0/0"
