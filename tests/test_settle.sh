#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_settle.sh - `muxprof run` waits for a busy host to settle before it
# measures, within its bound, and says so:
#   other CPUs kept busy, --settle-max 1s: it says it waits and why, gives up
#     after about 1 s, measures, and records the wait in context.noise.settle
#     with the other work named in the noise warnings;
#   muxprof just built and a build (cc1) running: the line says the load is
#     the build's;
#   a host that goes quiet (a /proc/stat file rewritten, MUXPROF_PROC_STAT):
#     it waits for two quiet windows and goes on, long before the bound;
#   /proc/stat unreadable: one line, no wait, recorded;
#   --no-wait, MUXPROF_NO_WAIT=1, --settle-max 0: no wait, recorded as such;
#   MUXPROF_NO_WAIT=maybe: a usage error;
#   a bad --settle-max: one line, exit 2, no run directory;
#   SIGINT during the wait: the run ends at once as interrupted.
#
#   test_settle.sh MUXPROF
set -u
bin=${1:?usage: test_settle.sh MUXPROF}
unset MUXPROF_NO_WAIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
hogs=()
stop_hogs() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; hogs=(); }
trap 'stop_hogs; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
ncpu=$(getconf _NPROCESSORS_ONLN)
for _ in $(seq "$ncpu"); do
  (while :; do :; done) &
  hogs+=($!)
done

one=(run --backends poll --mode ready --fds 10 --repeats 2 --samples 20 --events none
     --no-plots --force)
settle() { python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["context"]["noise"]
print(json.dumps(s["settle"], sort_keys=True)); print(json.dumps(s["warnings"]))' "$1"; }

# Busy host, bounded wait.
t0=$(date +%s.%N)
"$bin" "${one[@]}" --settle-max 1s --out "$tmp/busy" >"$tmp/out" 2>"$tmp/err"
rc=$? t1=$(date +%s.%N)
[ "$rc" -eq 0 ] || no "busy host: exit $rc, expected 0: $(head -3 "$tmp/err")"
grep -q "CPUs busy besides muxprof.*waiting up to 1 s for them to settle.*--no-wait skips" \
  "$tmp/err" || no "busy host: no line saying it waits and why: $(head -2 "$tmp/err")"
grep -q "still .* CPUs busy after 1 s; measuring anyway" "$tmp/err" ||
  no "busy host: no line saying the wait ended unsettled: $(head -3 "$tmp/err")"
python3 -c "import sys; sys.exit(not float(sys.argv[2]) - float(sys.argv[1]) < 20)" "$t0" "$t1" ||
  no "busy host: the run took $t0..$t1, far past its 1 s bound"
if [ -f "$tmp/busy/results.json" ]; then
  settle "$tmp/busy/results.json" >"$tmp/s"
  python3 - "$tmp/s" <<'PY' || no "busy host: settle record or warning wrong: $(cat "$tmp/s")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
s, w = json.loads(lines[0]), json.loads(lines[1])
ok = (s["checked"] and not s["settled"] and s["bound_s"] == 1 and 0.9 <= s["waited_s"] < 5
      and s["busy_first"] >= 0.25 and s["busy_last"] >= 0.25
      and any(x.startswith("other work kept") for x in w))
sys.exit(not ok)
PY
else
  no "busy host: no results.json"
fi

# Just built, a build still running (a process named cc1): the line says the
# load is the build's.
mkdir -p "$tmp/fresh"
cp "$bin" "$tmp/fresh/muxprof"
printf '#!/bin/sh\nsleep 30 & p=$!\ntrap "kill $p; exit 0" TERM\nwait $p\n' >"$tmp/cc1" && chmod +x "$tmp/cc1"
"$tmp/cc1" & hogs+=($!)
sleep 0.2
"$tmp/fresh/muxprof" "${one[@]}" --settle-max 1s --out "$tmp/fresh/run" >"$tmp/out" 2>"$tmp/err" ||
  no "just built: exit $?: $(head -3 "$tmp/err")"
# (another build running on the host may be named instead of cc1)
grep -Eq "muxprof was built [0-9]+ s ago and a build is still running \([a-z0-9+]+\): the load is the build's" \
  "$tmp/err" || no "just built, cc1 running: no line naming the build: $(head -2 "$tmp/err")"

# No wait: the flag, the environment, a bound of 0.
for how in flag env zero; do
  case $how in
    flag) args=(--no-wait) envs=() ;;
    env) args=() envs=(MUXPROF_NO_WAIT=1) ;;
    zero) args=(--settle-max 0) envs=() ;;
  esac
  env "${envs[@]}" "$bin" "${one[@]}" "${args[@]}" --out "$tmp/$how" >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 0 ] || no "$how: exit $rc: $(head -2 "$tmp/err")"
  grep -q "waiting up to" "$tmp/err" && no "$how: it waited: $(head -1 "$tmp/err")"
  [ -f "$tmp/$how/results.json" ] && settle "$tmp/$how/results.json" | sed -n 1p |
    grep -q '"checked": false' || no "$how: settle not recorded as unchecked"
done

# Bad bounds and a bad MUXPROF_NO_WAIT.
MUXPROF_NO_WAIT=maybe "$bin" "${one[@]}" --out "$tmp/bad" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "MUXPROF_NO_WAIT='maybe'" "$tmp/err" ||
  no "MUXPROF_NO_WAIT=maybe: exit $rc, not 2 naming it: $(cat "$tmp/err")"
[ -e "$tmp/bad" ] && no "MUXPROF_NO_WAIT=maybe: a run directory was made"
for bad in 5 forever 2h -1s 3601s; do
  "$bin" "${one[@]}" --settle-max "$bad" --out "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || no "--settle-max $bad: exit $rc, expected 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^muxprof run: --settle-max: '$bad'" "$tmp/err" ||
    no "--settle-max $bad: not one line naming it: $(cat "$tmp/err")"
  [ -e "$tmp/bad" ] && no "--settle-max $bad: a run directory was made"
done

# Interrupted while waiting.
"$bin" "${one[@]}" --settle-max 60s --out "$tmp/int" >/dev/null 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do grep -q "waiting up to" "$tmp/err" && break; sleep 0.1; done
kill -INT "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  no "SIGINT during the wait: still running 10 s later"
  kill -9 "$pid"
fi
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || no "SIGINT during the wait: exit $rc, expected 130: $(tail -2 "$tmp/err")"

stop_hogs
# A host that goes quiet after 1.5 s, as /proc/stat would show it (a file
# rewritten every 0.1 s, MUXPROF_PROC_STAT): the wait ends once two windows
# in a row are quiet, well before its bound.
fake=$tmp/stat
hz=100
( u=0 i=0 t0=$(date +%s%N)
  while :; do
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    [ "$ms" -gt 30000 ] && exit 0
    if [ "$ms" -lt 1500 ]; then u=$(( ms * hz * ncpu / 1000 )); else i=$(( (ms - 1500) * hz * ncpu / 1000 )); fi
    printf 'cpu  %d 0 0 %d 0 0 0 0 0 0\n' "$u" "$i" >"$fake.tmp" && mv "$fake.tmp" "$fake"
    sleep 0.05
  done ) &
writer=$!
sleep 0.2
MUXPROF_PROC_STAT=$fake "$bin" "${one[@]}" --settle-max 20s --out "$tmp/quiet" >/dev/null 2>"$tmp/err"
rc=$?
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
[ "$rc" -eq 0 ] || no "a host going quiet: exit $rc: $(head -2 "$tmp/err")"
grep -q "waiting up to 20 s" "$tmp/err" || no "a host going quiet: no wait said: $(head -2 "$tmp/err")"
grep -q "the host settled after" "$tmp/err" || no "a host going quiet: not settled: $(cat "$tmp/err")"
[ -f "$tmp/quiet/results.json" ] && settle "$tmp/quiet/results.json" | sed -n 1p | python3 -c '
import json, sys
s = json.loads(sys.stdin.read())
sys.exit(not (s["settled"] and 1.2 <= s["waited_s"] < 10 and s["busy_first"] >= 1))' ||
  no "a host going quiet: settle record wrong: $(settle "$tmp/quiet/results.json" | sed -n 1p)"

# /proc/stat unreadable: one line, no wait, recorded.
MUXPROF_PROC_STAT=$tmp/none "$bin" "${one[@]}" --out "$tmp/unread" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || no "unreadable /proc/stat: exit $rc"
grep -q "cannot read the CPUs' busy time ($tmp/none): measuring without waiting" "$tmp/err" ||
  no "unreadable /proc/stat: not said: $(head -2 "$tmp/err")"
settle "$tmp/unread/results.json" | sed -n 1p | grep -q '"unreadable": true' ||
  no "unreadable /proc/stat: not recorded"

[ "$fail" -eq 0 ] && echo "ok: the settling wait"
exit "$fail"
