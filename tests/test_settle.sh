#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_settle.sh - `muxprof run` waits for a busy host to settle before it
# measures, within its bound, and says so:
#   other CPUs kept busy, --settle-max 1s: it says it waits and why, gives up
#     after about 1 s, measures, and records the wait in context.noise.settle
#     with the other work named in the noise warnings;
#   --no-wait, MUXPROF_NO_WAIT=1, --settle-max 0: no wait, recorded as such;
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
grep -q "CPUs busy besides muxprof.*waiting up to 1 s for the host to settle.*--no-wait skips" \
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
  [ -f "$tmp/$how/results.json" ] && settle "$tmp/$how/results.json" | head -1 |
    grep -q '"checked": false' || no "$how: settle not recorded as unchecked"
done

# Bad bounds.
for bad in 5 forever 2h -1s; do
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
[ "$fail" -eq 0 ] && echo "ok: the settling wait"
exit "$fail"
