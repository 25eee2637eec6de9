#!/bin/sh
# SPDX-License-Identifier: MIT
# readme-runs.sh OUTDIR - make the four runs the README's results section quotes, with the
# binary in build/, then regenerate that section from them (scripts/readme-results.py).
#
#   OUTDIR/default/   muxprof run (the default sweep)
#   OUTDIR/profile/   --profile run: select, poll, epoll on eventfds, ready mode
#   OUTDIR/herd/      --experiment herd (experiments only)
#   OUTDIR/bench.txt  bench/bench_sweep's output
#   OUTDIR/times.txt  how long each step took
#
# OUTDIR: new, or an empty directory of yours that its group and others cannot
# write; a symbolic link, another user's or a writable directory is refused
# (exit 1, scripts/lib/outdir.sh).
# bench_sweep missing one of its targets (MISSED) is reported, not a failure.
# Each step has a time limit (seconds, MUXPROF_README_LIMIT overrides the default 600);
# any failure stops the script with exit 1 and says which step. Usage error: exit 2.
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -eu

die() { echo "readme-runs: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: scripts/readme-runs.sh OUTDIR" >&2; exit 2; }
case $1 in /*) out=$1 ;; *) out=$PWD/$1 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib/outdir.sh"
outdir_check readme-runs OUTDIR "$out"
cd "$top"
bin=build/bin/muxprof
limit=${MUXPROF_README_LIMIT:-600}

[ -d build ] || die "no build/ here: run scripts/setup.sh first"
command -v python3 >/dev/null || die "python3 is needed to write README.md"
[ ! -e "$out" ] || [ -z "$(ls -A "$out")" ] || die "$out exists and is not empty: give a new OUTDIR"
outdir_make readme-runs OUTDIR "$out"
: >"$out/times.txt"

# step NAME CMD...: run CMD under the time limit, log its wall time, stop on failure.
step() {
    name=$1; shift
    t0=$(date +%s)
    echo "readme-runs: $name: $*" >&2
    rc=0
    timeout --kill-after=10 "$limit" "$@" || rc=$?
    t=$(( $(date +%s) - t0 ))
    echo "$name ${t}s rc=$rc" >>"$out/times.txt"
    [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || die "$name ran past ${limit}s and was stopped"
    [ "$rc" -eq 0 ] || die "$name failed (exit $rc); see its messages above"
}

step build cmake --build build -j2 --target muxprof bench
step default "$bin" run --out "$out/default" --quiet
step profile "$bin" run --backends select,poll,epoll --fds 10,100,1000,10000 --mode ready \
    --fd-kind eventfd --samples 100 --repeats 3 --events none --profile \
    --out "$out/profile" --quiet
step herd "$bin" run --experiment herd --out "$out/herd" --quiet
# bench_sweep exits 1 when it misses a target (its line then says MISSED): that is a result
# the README reports; any other failure stops here.
step bench sh -c 'rc=0; build/bench/bench_sweep "$1" >"$2.tmp" || rc=$?
    if [ $rc -eq 1 ] && grep -q MISSED "$2.tmp"; then
        echo "readme-runs: bench missed a target (the README says so):" >&2
        grep MISSED "$2.tmp" >&2; rc=0
    fi
    [ $rc -eq 0 ] && mv "$2.tmp" "$2"; exit $rc' bench "$bin" "$out/bench.txt"
step readme python3 scripts/readme-results.py "$out/default" --profile "$out/profile" \
    --herd "$out/herd" --bench "$out/bench.txt" --muxprof "$bin"
cat "$out/times.txt" >&2
