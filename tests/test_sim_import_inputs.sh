#!/bin/sh
# SPDX-License-Identifier: MIT
# test_sim_import_inputs.sh MUXPROF SRC - what sim-import reads and writes
# when the directory is a stranger's: plan.env's geometry= is a name of
# sim/geometries (or a path ending in sim/geometries/NAME.conf) or a file
# inside DIR opened without following links; an absolute path, a "../" or a
# link inside DIR is refused, and no line of a file from outside DIR is ever
# echoed (nor of --geometry FILE's); a fd_kind= that is no kind is named as
# such; and a document `muxprof report` would refuse (values near 1e300,
# calls past 1e18) is never written: exit 2, DIR unchanged.
set -u
mp=$1 src=$2
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
secret='root:SECRET-HASH:20228:0:99999:7:::'
printf '%s\n' "$secret" > "$t/shadow"
fresh() {   # fresh NAME GEOMETRY: a copy of the recorded boot naming GEOMETRY
    rm -rf "${t:?}/$1" && cp -r "$src/tests/fixtures/muxsim" "$t/$1" &&
        sed -i "s|^geometry=.*|geometry=$2|" "$t/$1/plan.env" || exit 1
}
listing() { (cd "$1" && find . | sort && find . -type f -exec cat {} + | cksum); }
# refused DIR WANT [ARGS]: exit 2, the one line WANT, no secret, DIR as it was
refused() {
    d=$1 want=$2; shift 2
    listing "$d" > "$t/before"
    "$mp" sim-import "$d" "$@" >"$t/out" 2>"$t/err"; rc=$?
    [ "$rc" = 2 ] || fail "$want: exit $rc, not 2: $(cat "$t/err")"
    [ "$(wc -l < "$t/err")" = 1 ] && grep -qF -- "$want" "$t/err" || fail "said: $(cat "$t/err")"
    ! grep -q SECRET "$t/err" "$t/out" || fail "echoed a line of a file outside DIR: $(cat "$t/err")"
    listing "$d" | cmp -s - "$t/before" || fail "$want: $d changed"
}
imported() {   # imported DIR [ARGS]: exit 0, and report reads what was written
    "$mp" sim-import "$@" >"$t/out" 2>"$t/err" || fail "sim-import $*: $(cat "$t/err")"
    "$mp" report "$1" --no-plots >/dev/null 2>"$t/err" || fail "report $1: $(cat "$t/err")"
}

# ---- the geometries that are read ----
fresh name neoverse-n1 && imported "$t/name"
grep -q '"name":[[:space:]]*"neoverse-n1"' "$t/name/results.json" || fail "geometry by name not stated"
fresh path /nowhere/sim/geometries/epyc-9354p.conf && imported "$t/path"
grep -q '"name":[[:space:]]*"epyc-9354p"' "$t/path/results.json" || fail "sim/geometries path not named"
fresh inside geometry/mine.conf && mkdir "$t/inside/geometry" &&
    cp "$src/sim/geometries/neoverse-n1.conf" "$t/inside/geometry/mine.conf" && imported "$t/inside"
grep -q '"name":[[:space:]]*"mine"' "$t/inside/results.json" || fail "a geometry inside DIR not read"
fresh given "$t/shadow" && imported "$t/given" --geometry neoverse-n1

# ---- the geometries that are not ----
fresh abs "$t/shadow" && refused "$t/abs" "geometry= is neither a name of sim/geometries nor a file inside"
fresh up ../shadow && refused "$t/up" "geometry= is neither a name of sim/geometries nor a file inside"
fresh link geo && ln -s "$t/shadow" "$t/link/geo" && refused "$t/link" "$t/link/geo: a symbolic link"
fresh fifo geo && mkfifo "$t/fifo/geo" && refused "$t/fifo" "$t/fifo/geo"
fresh opt neoverse-n1 && refused "$t/opt" "$t/shadow line 1: not a geometry line" --geometry "$t/shadow"
fresh kind neoverse-n1 && sed -i 's|^fd_kind=.*|fd_kind=../x|' "$t/kind/plan.env" &&
    refused "$t/kind" "plan.env: fd_kind= must be one of pipe, socketpair, tcp, eventfd"

# ---- a document report would refuse is not written ----
fresh huge neoverse-n1 && sed -i '3,$s/\t[0-9.e+]*\t[0-9.e+]*\t[0-9.e+]*\t[0-9.e+]*\t[0-9.e+]*\t[0-9.e+]*$/\t1e300\t1e300\t1e300\t1e300\t1e300\t1e300/' "$t/huge/muxsim.tsv"
refused "$t/huge" "not written, \`muxprof report\` would refuse it: $t/huge/results.json: field results[0]"
fresh calls neoverse-n1 && sed -i '3,$s/^\([0-9]*\t[0-9]*\t\)[0-9]*\t[0-9]*/\19223372036854775807\t9223372036854775807/' "$t/calls/muxsim.tsv"
refused "$t/calls" "not written, \`muxprof report\` would refuse it: $t/calls/results.json: field results[0]"
echo ok
