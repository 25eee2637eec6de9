#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/bias-check.py on synthetic runs: the alternated ratios, the A/A control, the
# verdicts (agree, differ, undecided), the thread check, the exit statuses, usage errors.
# usage: test_bias_check.sh SOURCE_DIR SCRATCH_DIR
set -u
src=$1 tmp=$2
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
bc=$src/scripts/bias-check.py
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

# fake DIR PAIRS B_FACTOR JITTER [THREADS_IN_B1]: runs A0 B1 A1 ... with poll at N=10 and
# 1,000 (p50 500 and 30,000 ns), each p50 times a factor drawn in 1 +- JITTER; the B runs
# also times B_FACTOR.  Every cell has process_threads 1 unless THREADS_IN_B1 is given.
# N=5,000 is ok in the A runs and failed in every B run.
fake() {
    python3 - "$@" <<'PY'
import json, os, random, sys
out, pairs, bf, jit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
threads = int(sys.argv[5]) if len(sys.argv) > 5 else 1
rng = random.Random(7)
names = ["A0"] + [x for i in range(1, pairs + 1) for x in ("B%d" % i, "A%d" % i)]
for name in names:
    cells = []
    cells.append({"backend": "poll", "fd_kind": "pipe", "mode": "ready", "nfds": 5000,
                  "status": "ok" if name[0] == "A" else "failed", "process_threads": 1,
                  "fd_table": "private", "metrics": {"wall_ns": {"p50": 150000.0}}})
    for n, base in ((10, 500.0), (1000, 30000.0)):
        for mode in (("ready",) if name[0] == "A" else ("ready", "wakeup")):
            p50 = base * (1 + rng.uniform(-jit, jit)) * (bf if name[0] == "B" else 1)
            cells.append({"backend": "poll", "fd_kind": "pipe", "mode": mode, "nfds": n,
                          "status": "ok", "fd_table": "private",
                          "process_threads": threads if name == "B1" else 1,
                          "metrics": {"wall_ns": {"p50": p50}}})
    d = os.path.join(out, "runs", name)
    os.makedirs(d)
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump({"context": {"noise": {"loadavg_start": [0.4], "loadavg_end": [0.6],
                                         "steal_share": 0.01}}, "results": cells}, f)
PY
}

# The same speed, 1% jitter: the cells measured in both agree; N=5,000, failed in every B
# run, is listed as undecided with 0 pairs, so the exit is 3, not 0.
fake "$tmp/same" 6 1.0 0.01
python3 "$bc" --from "$tmp/same" >"$tmp/same.out"; rc=$?
[ $rc -eq 3 ] || no "a cell never measured in B: exit $rc, want 3"
grep -q '^| poll | pipe | 1,000 | private | 6 | [-+]0\.[0-9]% | .* | agree |$' "$tmp/same.out" ||
    no "equal runs: no agree row"
grep -q '^| poll | pipe | 10 | private | 6 | .* | agree |$' "$tmp/same.out" ||
    no "equal runs: no agree row at N=10"
grep -q '^| poll | pipe | 5,000 | private | 0 | n/a | n/a | .* | undecided (0 pairs: fewer than 6) |$' \
    "$tmp/same.out" || no "the cell missing from every B run is not listed as undecided"
grep -q 'ran with process_threads 1' "$tmp/same.out" || no "thread check not stated"
# Without that cell every cell agrees: exit 0.
for r in "$tmp"/same/runs/*/results.json; do
    python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); d["results"]=[c for c in d["results"] if c["nfds"]!=5000]
json.dump(d,open(sys.argv[1],"w"))' "$r"
done
python3 "$bc" --from "$tmp/same" >"$tmp/same2.out"; rc=$?
[ $rc -eq 0 ] || no "equal runs: exit $rc, want 0"
grep -q '1-minute load 0.40 to 0.60, steal 1.0% to 1.0%' "$tmp/same.out" || no "no host noise line"
[ -s "$tmp/same/bias-check.json" ] && [ -s "$tmp/same/bias-check.md" ] || no "no json/md written"

# B 20% slower: differ, exit 3, B/A median about +20%.
fake "$tmp/slow" 6 1.2 0.01
python3 "$bc" --from "$tmp/slow" >"$tmp/slow.out"; rc=$?
[ $rc -eq 3 ] || no "slower B: exit $rc, want 3"
grep -q '^| poll | pipe | 10 | private | 6 | +[12][90]\.[0-9]% | .* | differ |$' "$tmp/slow.out" ||
    no "slower B: no differ row near +20%"

# 30% jitter: the interval is too wide to say either: undecided, exit 3.
fake "$tmp/noisy" 8 1.0 0.3
python3 "$bc" --from "$tmp/noisy" >"$tmp/noisy.out"; rc=$?
[ $rc -eq 3 ] || no "noisy host: exit $rc, want 3"
grep -q '^| poll | pipe | 1,000 | private | 8 | .* | undecided |$' "$tmp/noisy.out" ||
    no "noisy host: no undecided row"
# 3 pairs bound no median at 95%: undecided whatever the ratios, never a verdict.
fake "$tmp/few" 3 1.5 0.01
python3 "$bc" --from "$tmp/few" >"$tmp/few.out"; rc=$?
[ $rc -eq 3 ] || no "3 pairs: exit $rc, want 3"
grep -q '^| poll | pipe | 10 | private | 3 | +[45][09]\.[0-9]% | n/a | .* | undecided (3 pairs: fewer than 6) |$' \
    "$tmp/few.out" || no "3 pairs: not undecided"

# A ready cell of B1 measured with two threads: named, exit 3 although the times agree.
fake "$tmp/thr" 6 1.0 0.01 2
python3 "$bc" --from "$tmp/thr" >"$tmp/thr.out"; rc=$?
[ $rc -eq 3 ] || no "two threads: exit $rc, want 3"
grep -q '^- B1 poll/pipe/N=10: process_threads 2, fd_table private$' "$tmp/thr.out" ||
    no "two threads: the cell is not named"

# Usage: neither or both of --out/--from, too few pairs, a non-empty --out: exit 2.
python3 "$bc" >/dev/null 2>&1; [ $? -eq 2 ] || no "no arguments: want exit 2"
python3 "$bc" --out "$tmp/x" --from "$tmp/same" >/dev/null 2>&1; [ $? -eq 2 ] || no "both: want 2"
python3 "$bc" --out "$tmp/y" --pairs 5 >/dev/null 2>&1; [ $? -eq 2 ] || no "--pairs 5: want 2"
python3 "$bc" --out "$tmp/same" >/dev/null 2>&1; [ $? -eq 2 ] || no "non-empty --out: want 2"
python3 "$bc" --from "$tmp" >/dev/null 2>&1; [ $? -eq 2 ] || no "--from without runs/: want 2"

[ $fail -eq 0 ] && echo "ok"
exit $fail
