#!/bin/sh
# SPDX-License-Identifier: MIT
# muxprof trace end to end (tests/trace.cmake):
#   test_trace.sh MUXPROF TRACE_TARGET BUILT
# BUILT 0: the build has no trace; the verb must refuse in one line, exit 1.
# BUILT 1 (root only, else 77): trace_target's calls (tests/trace_target.c)
# traced as a started command and by --pid, each call's N checked in
# calls.csv, the run directory read by report and compare; a target exiting
# inside the window; --follow on a target that forks and exits (its child's
# and grandchild's calls); --duration ending a command that outlives it; Python's
# selectors (scripts/trace-lab.py): N, and poll's cost growing with N while
# epoll's does not; --against a run; refusals.  The --pid trace takes the BPF
# program's build without bpf_loop (MUXPROF_TRACE_NO_LOOP=1): select's sets
# read to 1,024 bits.
case ${1-} in -h|--help) sed -n '3,9s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
bin=${1:?usage: test_trace.sh MUXPROF TRACE_TARGET BUILT}
target=${2:?usage: test_trace.sh MUXPROF TRACE_TARGET BUILT}
built=${3:-1}
tmp=$(mktemp -d /tmp/mp-trace.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

if [ "$built" != 1 ]; then
  "$bin" trace --out "$tmp/r" -- true >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'built without trace' "$tmp/err" \
     && grep -Eq 'scripts/setup.sh|MUXPROF_TRACE=OFF' "$tmp/err" && [ ! -e "$tmp/r" ]; then
    ok "no trace in this build: $(cat "$tmp/err")"
  else
    bad "trace without the build: exit $rc, stderr: $(cat "$tmp/err")"
  fi
  exit $fail
fi
if [ "$(id -u)" != 0 ]; then echo "SKIP: tracing needs root here"; exit 77; fi
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

# check DIR MODE: results.json and calls.csv of a trace of trace_target.
check() {
  python3 - "$1" "$2" <<'PY'
import csv, json, sys
d, mode = sys.argv[1], sys.argv[2]
doc = json.load(open(d + "/results.json"))
t = doc["trace"]
errs = []
def want(what, got, exp):
    if got != exp:
        errs.append("%s: %r, expected %r" % (what, got, exp))
want("trace.source", t["source"], "trace")
want("trace.target", t["target"], mode)
want("trace.ended", t["ended"], "target exited")
want("trace.target_exited", t["target_exited"], True)
want("trace.calls_dropped", t["calls_dropped"], 0)
# select's sets are read to select_bits: 65,536 with bpf_loop, 1,024 without.
# The kernel cuts nfds to the descriptor table (4,096 once fd 3000 is open),
# so the nfds 70,000 call is known wherever the sets of 3,001 bits are.
bits = t["select_bits"]
if mode == "pid":
    want("trace.select_bits without bpf_loop", bits, 1024)
past = bits >= 4096
want("trace.calls_unknown_n (select past %d bits)" % bits, t["calls_unknown_n"],
     0 if past else 3)
if mode == "pid":   # counted while it waited for the go file; a command may end between counts
    want("trace.fd_kind (pipes)", t.get("fd_kind"), "pipe")
    want("trace.fd_kinds names pipes", "pipe " in t.get("fd_kinds", ""), True)
else:
    want("trace.fd_kind (pipes, or not counted)", t.get("fd_kind") in (None, "pipe"), True)
if mode == "command":
    want("trace.exit_status", t.get("exit_status"), "exit 0")
else:
    want("trace.epoll_seeded >= 1", t["epoll_seeded"] >= 1, True)
calls = list(csv.DictReader(open(d + "/calls.csv")))
want("calls.csv rows == calls_seen", len(calls), t["calls_seen"])
def count(names, n, **kw):
    k = 0
    for c in calls:
        if c["syscall"] in names and int(c["n"]) == n and \
           all(c[a] == str(v) for a, v in kw.items()):
            k += 1
    return k
poll, sel, ep = ("poll",), ("select", "pselect6"), ("epoll_wait", "epoll_pwait")
want("poll N 10 t0", count(poll, 10, timeout="0", ret=0), 5)
want("poll N 100 t0", count(poll, 100, timeout="0", ret=0), 5)
want("poll N 11 one ready", count(poll, 11, timeout="0", ret=1), 1)
want("poll N 13 finite", count(poll, 13, timeout="finite", ret=0), 1)
want("poll N 7 from a later thread", count(poll, 7), 3)
want("select N 8 (nfds 16,384 over 1,024-bit sets cut to the table)",
     count(sel, 8, timeout="0"), 5)
small = [c for c in calls if c["syscall"] in sel and c["arg"] not in ("3001", "70000")]
tops = {c["top"] for c in small}
args = sorted(int(c["arg"]) for c in small)
want("select's highest + 1, whatever nfds", len(tops) == 1 and
     args == [int(next(iter(tops)))] * 3 + [1024, 16384], True)
big = [(c["n"], c["top"]) for c in calls if c["syscall"] in sel and c["arg"] == "3001"]
want("select past FD_SETSIZE: N 4, highest + 1 3001" if past else "select past %d bits: "
     "N not known" % bits, big, [("4", "3001") if past else ("-1", "0")] * 2)
huge = [c["n"] for c in calls if c["syscall"] in sel and c["arg"] == "70000"]
want("select's nfds 70,000 cut to the table", huge, ["4" if past else "-1"])
want("epoll N 12 (instance older than the go)", count(ep, 12), 2)
want("epoll N 20 (add, then mod)", count(ep, 20), 2)
want("epoll N 15 (del)", count(ep, 15), 1)
want("epoll N 18 (add through the dup; wait on both)", count(ep, 18), 2)
tids = {c["tid"] for c in calls if c["syscall"] == "poll" and c["n"] == "7"}
main = {c["tid"] for c in calls if c["syscall"] == "poll" and c["n"] == "10"}
want("the thread's calls have their own tid", bool(tids) and tids.isdisjoint(main), True)
cells = doc["results"]
want("every cell ok", all(c["status"] == "ok" for c in cells), True)
want("calls in cells", sum(c["trace"]["calls"] for c in cells), t["calls_seen"]
     - t["calls_zero_n"] - t["calls_unknown_n"])
p100 = [c for c in cells if c["backend"] == "poll" and c["nfds"] == 100]
want("a poll cell at N 100", len(p100), 1)
if p100:
    m = p100[0]["metrics"]
    want("its wall_ns n", m["wall_ns"]["n"], 5)
    for k in ("task-clock", "context-switches", "page-faults"):
        if k not in m:
            errs.append("poll N 100: no %s" % k)
if errs:
    print("\n".join(errs))
    sys.exit(1)
PY
}

# 1. a started command that exits inside the window
"$bin" trace --quiet --no-plots --duration 60 --out "$tmp/cmd" -- "$target" \
  >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -ne 0 ]; then
  bad "trace -- trace_target: exit $rc: $(cat "$tmp/err")"
elif ! grep -q 'exited inside the window' "$tmp/err"; then
  bad "trace -- trace_target: no word that the target exited: $(cat "$tmp/err")"
elif check "$tmp/cmd" command >"$tmp/check" 2>&1; then
  ok "trace -- trace_target: every N as made; $(head -1 "$tmp/out")"
else
  bad "trace -- trace_target: $(cat "$tmp/check")"
fi
if grep -q '^## Traced program' "$tmp/cmd/report.md" && grep -q 'target exited inside the window' \
   "$tmp/cmd/report.md" && ! grep -q '^## What was measured and how' "$tmp/cmd/report.md"; then
  ok "report.md: the traced program's section, not the harness's method"
else
  bad "report.md of a trace: $(grep '^## ' "$tmp/cmd/report.md" 2>&1 | tr '\n' ' ')"
fi
"$bin" report --no-plots "$tmp/cmd" >"$tmp/out" 2>"$tmp/err" && ok "muxprof report reads it" \
  || bad "muxprof report on the trace: $(cat "$tmp/err")"

# 2. attached by --pid: the instance of 12 made before the attach is seeded
rm -f "$tmp/go"
"$target" "$tmp/go" & tpid=$!
MUXPROF_TRACE_NO_LOOP=1 "$bin" trace --no-plots --duration 60 --pid $tpid --out "$tmp/pid" \
  >"$tmp/out" 2>"$tmp/err" &
trpid=$!
i=0
while ! grep -q 'tracing' "$tmp/err" 2>/dev/null && [ $i -lt 300 ] && kill -0 $trpid 2>/dev/null; do
  sleep 0.1; i=$((i + 1))
done
touch "$tmp/go"
wait $trpid; rc=$?
wait $tpid
if [ $rc -ne 0 ]; then
  bad "trace --pid: exit $rc: $(cat "$tmp/err")"
elif check "$tmp/pid" pid >"$tmp/check" 2>&1; then
  ok "trace --pid: every N as made, the older epoll instance seeded, sets read to 1,024 bits"
else
  bad "trace --pid: $(cat "$tmp/check")"
fi
if grep -q '3 calls have no known N.*nfds above 1024' "$tmp/pid/report.md"; then
  ok "report.md: the calls of unknown N and the bound"
else
  bad "report.md of the --pid trace: no line on the 3 calls of unknown N"
fi

"$bin" compare --out "$tmp/cmp" "$tmp/cmd" "$tmp/pid" >"$tmp/out" 2>"$tmp/err" \
  && ok "muxprof compare reads two traces" || bad "muxprof compare on traces: $(cat "$tmp/err")"

# 2b. --follow: trace_target --fork exits at once; its child and grandchild make
# the calls (an inherited epoll instance of 12, a new one of 9, poll at 17 and
# 19), and the trace lasts until they too have exited; without --follow none
"$bin" trace --quiet --no-plots --follow --out "$tmp/fork" -- "$target" --fork \
  >"$tmp/out" 2>"$tmp/err"; rc=$?
"$bin" trace --quiet --no-plots --out "$tmp/nofork" -- "$target" --fork >/dev/null 2>&1; rc2=$?
if [ $rc -ne 0 ] || [ $rc2 -ne 0 ]; then
  bad "trace --follow -- trace_target --fork: exit $rc (without --follow $rc2): $(cat "$tmp/err")"
elif python3 - "$tmp/fork" "$tmp/nofork" >"$tmp/check" 2>&1 <<'PY'
import csv, json, sys
from collections import Counter
d, nd = sys.argv[1], sys.argv[2]
t = json.load(open(d + "/results.json"))["trace"]
calls = list(csv.DictReader(open(d + "/calls.csv")))
got = Counter((c["syscall"], c["n"]) for c in calls)
want = Counter({("epoll_wait", "12"): 2, ("poll", "17"): 4, ("epoll_wait", "9"): 1, ("poll", "19"): 2})
errs = []
if got != want:
    errs.append("calls by (syscall, N): %s, expected %s" % (dict(got), dict(want)))
tids = {c["tid"] for c in calls}
if len(tids) != 2:
    errs.append("%d processes' threads made the calls, expected 2: %s" % (len(tids), tids))
# the child and the grandchild, and any helper a runtime forks (LeakSanitizer's
# tracer at the parent's exit under ASan)
if not (t["follow"] is True and t["processes_followed"] >= 2 and t["processes_not_followed"] == 0
        and t["target_exited"] is True):
    errs.append("trace object: follow %r, processes_followed %r, not %r, target_exited %r" % (
        t["follow"], t["processes_followed"], t["processes_not_followed"], t["target_exited"]))
n = json.load(open(nd + "/results.json"))["trace"]
if n["follow"] is not False or n["calls_seen"] != 0:
    errs.append("without --follow: follow %r, %r calls seen" % (n["follow"], n["calls_seen"]))
print("\n".join(errs))
sys.exit(1 if errs else 0)
PY
then
  ok "trace --follow: the child's and grandchild's calls, N as made (inherited epoll instance too), after the target exited"
else
  bad "trace --follow: $(cat "$tmp/check")"
fi

# 3. --duration ends a command that outlives it: SIGTERM, the trace kept
start=$(date +%s)
"$bin" trace --quiet --no-plots --duration 1 --out "$tmp/dur" -- sleep 30 >"$tmp/out" 2>"$tmp/err"
rc=$?; took=$(( $(date +%s) - start ))
if [ $rc -eq 0 ] && [ $took -lt 15 ] && python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["trace"]
sys.exit(not (t["ended"] == "duration" and t["exit_status"] == "signal 15"
              and not t["target_exited"]))' "$tmp/dur/results.json"; then
  ok "--duration 1 -- sleep 30: ended after ${took} s, the command terminated"
else
  bad "--duration 1 -- sleep 30: exit $rc after ${took} s: $(cat "$tmp/err")"
fi

# SIGTERM ends the window: the trace is written, "interrupted", exit 143
"$bin" trace --no-plots --duration 60 --out "$tmp/sig" -- sleep 30 >"$tmp/out" 2>"$tmp/err" &
trpid=$!
i=0
while ! grep -q 'tracing' "$tmp/err" 2>/dev/null && [ $i -lt 300 ] && kill -0 $trpid 2>/dev/null; do
  sleep 0.1; i=$((i + 1))
done
kill -TERM $trpid; wait $trpid; rc=$?
if [ $rc -eq 143 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["status"] == "interrupted" and d["trace"]["ended"] == "interrupted"))' \
   "$tmp/sig/results.json" 2>/dev/null; then
  ok "SIGTERM: the trace written, interrupted, exit 143"
else
  bad "SIGTERM: exit $rc, $(cat "$tmp/err")"
fi

# 4. Python's selectors (scripts/trace-lab.py --ready: timeout 0, the poke already
# there): N is the pairs + the poked one; poll's call grows with N (20 -> 400
# pairs: more than twice), epoll's does not (within 1.5x).  Both N are in one
# trace, one selector each taken in turn call by call, so that the host's level
# (which moves by 2x for seconds here) is the same for the two cells compared.
lab=$(dirname "$0")/../scripts/trace-lab.py
for sel in poll epoll; do
  "$bin" trace --quiet --no-plots --duration 60 --out "$tmp/lab-$sel" -- \
    python3 "$lab" --selector $sel --pairs 20,400 --pokes 1000 --ready >"$tmp/out" 2>"$tmp/err" ||
    bad "trace of trace-lab.py $sel: $(cat "$tmp/err")"
done
if python3 - "$tmp" >"$tmp/check" 2>&1 <<'PY'
import json, sys
p50 = {}
for sel, call in (("poll", "poll"), ("epoll", "epoll_wait")):
    d = json.load(open("%s/lab-%s/results.json" % (sys.argv[1], sel)))
    if d["trace"]["calls_dropped"]:
        sys.exit("%s: %d calls dropped" % (sel, d["trace"]["calls_dropped"]))
    if d["trace"].get("fd_kind") not in (None, "tcp"):
        sys.exit("%s: fd_kind %r (%s), want tcp or none" % (sel, d["trace"].get("fd_kind"),
                                                             d["trace"].get("fd_kinds")))
    for n in (20, 400):
        c = [c for c in d["results"] if c["syscall"] == call and c["nfds"] == n + 1
             and c["mode"] == "t0-r1"]
        k = sum(x["trace"]["calls"] for x in c)
        if k < 500:
            sys.exit("%s: %d calls at N %d (want 500)" % (sel, k, n + 1))
        p50[sel, n] = max(c, key=lambda x: x["trace"]["calls"])["metrics"]["wall_ns"]["p50"]
r_poll, r_epoll = p50["poll", 400] / p50["poll", 20], p50["epoll", 400] / p50["epoll", 20]
print("poll x%.2f, epoll x%.2f from 21 to 401 descriptors, in one trace each" % (r_poll, r_epoll))
sys.exit(0 if r_poll > 2 and r_epoll < 1.5 else 1)
PY
then ok "trace-lab.py: N = pairs + 1; $(cat "$tmp/check")"
else bad "trace-lab.py: $(cat "$tmp/check")"
fi

# --against: a run of the harness set beside the traced cells
if "$bin" run --backends poll --fds 21 --mode ready --fd-kind tcp --quick --no-plots --quiet \
     --out "$tmp/run" >"$tmp/out" 2>"$tmp/err"; then
  "$bin" trace --quiet --no-plots --against "$tmp/run" --out "$tmp/against" -- \
    python3 "$lab" --selector poll --pairs 20 --pokes 200 --ready >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
c = [c for c in d["results"] if c["mode"] == "t0-r1" and c["nfds"] == 21][0]["trace"]
sys.exit(not (d["trace"]["against"].endswith("/run/results.json") and c["harness_mode"] == "ready"
              and c["harness_fd_kind"] == "tcp" and c["harness_nfds"] == 21
              and c["harness_p50_ns"] > 0))' "$tmp/against" 2>"$tmp/check" &&
     grep -q '^### Beside the harness' "$tmp/against/report.md"; then
    ok "--against: the run's ready tcp cell at N 21 beside the traced poll cell"
  else
    bad "--against: exit $rc: $(cat "$tmp/err" "$tmp/check")"
  fi
else
  bad "the run for --against: $(cat "$tmp/err")"
fi
# --against-quick: the harness run made after the trace, at the traced N
MUXPROF_NO_WAIT=1 "$bin" trace --quiet --no-plots --against-quick --out "$tmp/quick" -- \
  python3 "$lab" --selector poll --pairs 20 --pokes 200 --ready >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
c = [c for c in d["results"] if c["mode"] == "t0-r1" and c["nfds"] == 21][0]["trace"]
h = json.load(open(sys.argv[1] + "/harness/results.json"))
made = [x for x in h["results"] if x["backend"] == "poll" and x["nfds"] == 21 and x["mode"] == "ready"]
# the fd kind of the target where trace counted one (a short target may end first), else pipe
kind = d["trace"].get("fd_kind") or "pipe"
sys.exit(not (d["trace"]["against"].endswith("/quick/harness/results.json") and made
              and made[0]["fd_kind"] == kind and c["harness_mode"] == "ready"
              and c["harness_fd_kind"] == kind and c["harness_nfds"] == 21
              and c["harness_p50_ns"] > 0))' "$tmp/quick" 2>"$tmp/check"; then
  ok "--against-quick: a quick run at the traced N 21, beside the traced poll cell"
else
  bad "--against-quick: exit $rc: $(cat "$tmp/err" "$tmp/check")"
fi
"$bin" trace --against "$tmp/run" --against-quick --out "$tmp/x" -- true >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/x" ] && ok "--against with --against-quick: exit 2" ||
  bad "--against with --against-quick: exit $rc"
"$bin" trace --against "$tmp/no-such-run" --out "$tmp/x" -- true >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/x" ] &&
  ok "--against a missing run: $(cat "$tmp/err")" || bad "--against a missing run: exit $rc"
"$bin" trace --against "$tmp/cmd" --out "$tmp/x" -- true >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/x" ] && ok "--against a trace: exit 2" || bad "--against a trace: exit $rc"

# 5. refusals: one line, exit 1, nothing written
refuse() {  # WHAT PATTERN DIR CMD...
  what=$1 pat=$2 dir=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$pat" "$tmp/err" \
     && [ ! -e "$dir" ]; then
    ok "$what: $(cat "$tmp/err")"
  else
    bad "$what: exit $rc, stderr: $(cat "$tmp/err"), $dir $( [ -e "$dir" ] && echo exists)"
  fi
}
pid=$(( $(cat /proc/sys/kernel/pid_max) - 1 ))
while [ -e /proc/$pid ]; do pid=$((pid - 1)); done
refuse "no such pid" "no process $pid" "$tmp/nopid" "$bin" trace --pid $pid --out "$tmp/nopid"
refuse "a command that cannot run" "cannot run" "$tmp/nocmd" \
  "$bin" trace --out "$tmp/nocmd" -- "$tmp/no-such-program"
refuse "without CAP_BPF and CAP_PERFMON" "CAP_BPF" "$tmp/nocap" \
  setpriv --bounding-set -bpf,-perfmon,-sys_admin --inh-caps -bpf,-perfmon,-sys_admin \
  "$bin" trace --out "$tmp/nocap" -- true
"$bin" trace --out "$tmp/u" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "nothing to trace: exit 2" || bad "nothing to trace: exit $rc"
"$bin" trace --pid 1 --out "$tmp/u" -- true >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "--pid and a command: exit 2" || bad "--pid and a command: exit $rc"
exit $fail
