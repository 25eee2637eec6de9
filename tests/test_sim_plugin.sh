#!/bin/sh
# SPDX-License-Identifier: MIT
# test_sim_plugin.sh PLUGIN ARM_BIN GEOMETRIES - sim/'s QEMU plugin under
# qemu-user with the arm64 `muxprof loop`: the loop's markers open one cell
# and one counting window per call (K calls, K windows, the first 10 left out
# of the summary), user work is counted and no kernel work (qemu-user runs
# the host's kernel), a geometry file that does not parse stops QEMU with
# the reason, and a samples file has one row per call.  scope=calls models
# the windows only: the whole run's instructions (totals) are then the sum of
# the windows' (samples), where scope=all counts the set-up too, and both
# give the same instructions per call; times names the cell's first and last
# call; functions= (the model only in the windows, so the first call starts
# cold) attributes every L1d miss of the kept calls to an
# instruction (its rows sum to the windows' L1d misses).  With HOST_BIN (an
# x86_64 `muxprof loop`, 4th argument) the same loop under qemu-x86_64: its
# markers (the 7-byte NOPs of sim/marker.h) open one cell and one window per
# call too.
set -u
plugin=$1 arm=$2 geo=$3 host=${4:-}
ld=/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$plugin" ] || skip "no plugin $plugin"
command -v qemu-aarch64 >/dev/null || skip "no qemu-aarch64 (apt-get install qemu-user)"
[ -x "$arm" ] || skip "no arm64 build $arm (scripts/cross-aarch64.sh --build-only)"
[ -x "$ld" ] || skip "no arm64 loader $ld (scripts/cross-aarch64.sh installs libc6:arm64)"
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
run() {   # run OUT K [plugin args]: poll over 100 pipes, K calls
    o=$1 k=$2; shift 2
    timeout 120 qemu-aarch64 -plugin "$plugin,geometry=$geo/epyc-9354p.conf,out=$o$*" \
        "$ld" --library-path /usr/lib/aarch64-linux-gnu "$arm" loop --backend poll --fds 100 \
        --calls "$k" --quiet
}
run "$t/a.tsv" 37 ",samples=$t/a.samples" 2>"$t/err" || fail "the loop under the plugin: $(cat "$t/err")"
row() { awk -F'\t' -v e="$2" -v p="$3" '$5 == e && $6 == p' "$1"; }
r=$(row "$t/a.tsv" instructions user)
[ -n "$r" ] || fail "no instructions row: $(cat "$t/a.tsv")"
[ "$(printf '%s\n' "$r" | wc -l)" = 1 ] || fail "more than one cell: $r"
echo "$r" | awk -F'\t' '{ exit !($3 == 37 && $4 == 27 && $8 > 10) }' ||
    fail "37 calls, 27 kept, instructions per call: $r"
echo "$(row "$t/a.tsv" instructions kernel)" | awk -F'\t' '{ exit !($8 == 0) }' ||
    fail "kernel instructions under qemu-user: $(row "$t/a.tsv" instructions kernel)"
echo "$(row "$t/a.tsv" L1-dcache-loads user)" | awk -F'\t' '{ exit !($8 > 0) }' ||
    fail "no user loads: $(row "$t/a.tsv" L1-dcache-loads user)"
[ "$(wc -l < "$t/a.samples")" = 38 ] || fail "samples: $(wc -l < "$t/a.samples") lines, not 38"
grep -q '^# muxsim: geometry epyc-9354p .* warmup 10; unmatched 0$' "$t/a.tsv" ||
    fail "header: $(head -1 "$t/a.tsv")"
# Sum of column 3 (instructions:user) of the samples; user instructions of core 0 in totals.
wsum() { awk -F'\t' 'NR > 1 { s += $3 } END { print s }' "$1"; }
tot() { awk -F'\t' '$1 == 0 && $2 == "instructions" { print $3 }' "$1"; }
run "$t/c.tsv" 37 ",samples=$t/c.samples,totals=$t/c.tot,scope=calls,times=$t/c.times" \
    2>"$t/err" || fail "scope=calls: $(cat "$t/err")"
run "$t/d.tsv" 37 ",samples=$t/d.samples,totals=$t/d.tot,scope=all" 2>"$t/err" ||
    fail "scope=all: $(cat "$t/err")"
[ "$(tot "$t/c.tot")" = "$(wsum "$t/c.samples")" ] ||
    fail "scope=calls: totals $(tot "$t/c.tot") instructions, windows $(wsum "$t/c.samples")"
[ "$(tot "$t/d.tot")" -gt $(( 10 * $(wsum "$t/d.samples") )) ] ||
    fail "scope=all: totals $(tot "$t/d.tot") not far above the windows' $(wsum "$t/d.samples")"
[ "$(row "$t/c.tsv" instructions user | cut -f8)" = "$(row "$t/d.tsv" instructions user | cut -f8)" ] ||
    fail "instructions per call differ between the scopes: $(row "$t/c.tsv" instructions user) / $(row "$t/d.tsv" instructions user)"
awk -F'\t' '$1 == 0 { ok = $3 == 37 && $4 >= 0 && $5 >= $4 && $6 >= $5 } END { exit !ok }' "$t/c.times" ||
    fail "times: $(cat "$t/c.times")"
grep -q '^# muxsim: .*scope calls; callbacks: [0-9]* instructions' "$t/c.times" ||
    fail "times header: $(head -1 "$t/c.times")"
run "$t/f.tsv" 5 ",samples=$t/f.samples,functions=$t/f.fn,warmup=0,scope=calls" 2>"$t/err" ||
    fail "functions=: $(cat "$t/err")"
col=$(head -1 "$t/f.samples" | tr '\t' '\n' | grep -nx 'L1-dcache-misses:user' | cut -d: -f1)
want=$(awk -F'\t' -v c="$col" 'NR > 1 { s += $c } END { print s }' "$t/f.samples")
got=$(awk -F'\t' 'NR > 1 { s += $3 } END { print s + 0 }' "$t/f.fn")
[ "$want" -gt 0 ] && [ "$got" = "$want" ] ||
    fail "functions: $got L1d misses attributed, the windows had $want"
printf 'line=64\n' > "$t/bad.conf"
timeout 60 qemu-aarch64 -plugin "$plugin,geometry=$t/bad.conf,out=$t/b.tsv" "$ld" \
    --library-path /usr/lib/aarch64-linux-gnu "$arm" loop --backend poll --fds 1 --calls 1 \
    >/dev/null 2>"$t/err" && fail "a bad geometry was accepted"
grep -q "muxsim: bad: no description= line" "$t/err" || fail "bad geometry said: $(cat "$t/err")"
[ ! -e "$t/b.tsv" ] || fail "a refused start wrote $t/b.tsv"
if [ -n "$host" ] && [ "$(uname -m)" = x86_64 ] && command -v qemu-x86_64 >/dev/null; then
    timeout 120 qemu-x86_64 -plugin "$plugin,geometry=$geo/epyc-9354p.conf,out=$t/x.tsv" \
        "$host" loop --backend poll --fds 100 --calls 37 --quiet 2>"$t/err" ||
        fail "the x86_64 loop under the plugin: $(cat "$t/err")"
    r=$(row "$t/x.tsv" instructions user)
    [ "$(printf '%s\n' "$r" | grep -c .)" = 1 ] || fail "x86_64: not one cell: $(cat "$t/x.tsv")"
    echo "$r" | awk -F'\t' '{ exit !($3 == 37 && $4 == 27 && $8 > 10) }' ||
        fail "x86_64: 37 calls, 27 kept, instructions per call: $r"
    echo "x86_64 markers: $(echo "$r" | cut -f3,4,8)"
fi
echo ok
