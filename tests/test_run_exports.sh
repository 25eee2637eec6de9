#!/bin/sh
# SPDX-License-Identifier: MIT
# One small run with every dimension of a cell varied (backends, N, K,
# wake delays, fd tables, modes) and a software counter:
# - results.csv and samples.csv give each cell its own rows: unique by their
#   key columns (without the `cell` index) and equal, value for value, to
#   results.json (keys, run parameters, summaries, unit, interval);
# - the terminal prints a row for every measured cell;
# - units come from the counters' definitions: task-clock and poker:task-clock
#   are ns in results.json, results.csv, report.md and the figure scripts;
# - a report section or table with no rows is not printed (a run of one N).
#   test_run_exports.sh MUXPROF WORK_DIR
bin=${1:?usage: test_run_exports.sh MUXPROF WORK_DIR}
work=${2:?usage: test_run_exports.sh MUXPROF WORK_DIR}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
run="$work/run"
"$bin" run --quick --backends poll,epoll --fds 10,30 --active 1,2 --mode ready,wakeup \
    --wake-delay 0,30us --fd-table private,shared --samples 20 --repeats 3 \
    --events task-clock --out "$run" >"$work/out" 2>"$work/err" ||
    { cat "$work/err" >&2; fail "the run failed"; }
python3 - "$run" "$work/out" <<'PY' || exit 1
import csv, json, sys
run, out = sys.argv[1], sys.argv[2]
doc = json.load(open(run + "/results.json"))
cells, cfg = doc["results"], doc["config"]
dims = ["backend", "fd_kind", "mode", "nfds", "active", "wake_delay_ns", "fd_table"]
params = ["ready_pos", "samples", "repeats", "warmup", "repeat_order", "events", "placement"]
def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)
def same(text, v):
    if v is None:
        return text == ""
    if isinstance(v, bool):
        return text == ("true" if v else "false")
    if isinstance(v, (int, float)):
        return text != "" and float(text) == float(v)
    return text == str(v)
def check_keys(row, what):
    c = cells[int(row["cell"])]
    for k in dims:
        if not same(row[k], c.get(k)):
            fail("%s: column %s is %r, results.json's cell %s has %r" % (what, k, row[k], row["cell"], c.get(k)))
    for k in params:
        if not same(row[k], cfg.get(k)):
            fail("%s: column %s is %r, config has %r" % (what, k, row[k], cfg.get(k)))
# the run varied every dimension
for k in ("wake_delay_ns", "fd_table", "active", "nfds", "backend", "mode"):
    if len({json.dumps(c.get(k)) for c in cells}) < 2:
        fail("the run did not vary " + k)
rows = list(csv.DictReader(open(run + "/results.csv")))
hdr = list(rows[0].keys())
for k in ["cell"] + dims + params + ["status", "metric", "unit", "p50", "n", "p50_lo", "p50_hi", "p50_level"]:
    if k not in hdr:
        fail("results.csv has no column " + k + ": " + ",".join(hdr))
keycols = dims + params + ["metric"]
seen = {}
for r in rows:
    key = tuple(r[k] for k in keycols)
    if key in seen:
        fail("results.csv rows of cells %s and %s share their keys %s" % (seen[key], r["cell"], key))
    seen[key] = r["cell"]
    check_keys(r, "results.csv")
    c = cells[int(r["cell"])]
    if r["status"] != c["status"]:
        fail("results.csv status %s, cell %s" % (r["status"], c["status"]))
    if c["status"] != "ok":
        continue
    m = c["metrics"][r["metric"]]
    for k in ("p10", "p50", "p90", "p99", "mean", "min", "max", "stddev", "n"):
        if m is not None and not same(r[k], m[k]):
            fail("results.csv cell %s %s %s is %s, results.json %r" % (r["cell"], r["metric"], k, r[k], m[k]))
    want = m.get("unit") if isinstance(m, dict) and "unit" in m else "ns"
    if r["unit"] != want:
        fail("results.csv cell %s %s unit %s, results.json %s" % (r["cell"], r["metric"], r["unit"], want))
    ci = c.get("wall_p50_ci95_ns") if r["metric"] == "wall_ns" else None
    for a, b in (("p50_lo", "lo"), ("p50_hi", "hi"), ("p50_level", "level")):
        if not same(r[a], ci[b] if ci else None):
            fail("results.csv cell %s %s %s is %r, results.json %r" % (r["cell"], r["metric"], a, r[a], ci))
okcells = {i for i, c in enumerate(cells) if c["status"] == "ok"}
if {int(r["cell"]) for r in rows} != set(range(len(cells))):
    fail("results.csv does not hold every cell")
# samples.csv: the same key columns, as many rows per cell as wall_raw_ns kept
n = {}
srows = 0
skeys = {}
for r in csv.DictReader(open(run + "/samples.csv")):
    srows += 1
    if srows == 1:
        for k in ["cell"] + dims + params + ["repeat", "wall_raw_ns"]:
            if k not in r:
                fail("samples.csv has no column " + k)
    j = int(r["cell"])
    n[j] = n.get(j, 0) + 1
    key = tuple(r[k] for k in dims + params)
    if skeys.setdefault(key, j) != j:
        fail("samples.csv cells %d and %d share their keys %s" % (skeys[key], j, key))
    if n[j] == 1:
        check_keys(r, "samples.csv")
for j in okcells:
    if n.get(j, 0) != cells[j]["metrics"]["wall_raw_ns"]["n"]:
        fail("samples.csv holds %d samples of cell %d, results.json %r" % (n.get(j, 0), j, cells[j]["metrics"]["wall_raw_ns"]["n"]))
# units from the counters' definitions
units = {e["name"]: e.get("unit") for e in doc["counters"]["events"] if e.get("status") == "opened"}
if "task-clock" in units:
    if units["task-clock"] != "ns":
        fail("counters.events[] gives task-clock the unit %r" % units["task-clock"])
    for c in cells:
        for name in ("task-clock", "poker:task-clock"):
            m = c.get("metrics", {}).get(name)
            if isinstance(m, dict) and m.get("unit") != "ns":
                fail("cell %s %s unit %r" % (c["backend"], name, m.get("unit")))
# the terminal: a table per (kind, fd table, K, mode, delay), a row for every measured cell
text = open(out).read()
tables = {}
cur = None
import re
for line in text.splitlines():
    h = re.match(r"^(ready|wakeup) mode, (\w+), (\w+) fd table, median", line)
    if h:
        d = re.search(r"waiter asleep (\S+ ?\S*) before", line)
        k = re.search(r"timeout 0, (\d+) fds readable", line)
        cur = (h.group(1), h.group(2), h.group(3), line)
        tables[cur] = {}
        continue
    if cur and re.match(r"^ +\d+ ", line):
        tables[cur][int(line.split()[0])] = line
    elif cur and not line.startswith("       N"):
        cur = None
measured = [c for c in cells if c["status"] == "ok"]
for c in measured:
    found = [t for t in tables if t[0] == c["mode"] and t[1] == c["fd_kind"] and t[2] == c["fd_table"]
             and c["nfds"] in tables[t]]
    if not found:
        fail("the terminal shows no row for cell %s %s N=%s %s fd table" % (c["backend"], c["mode"], c["nfds"], c["fd_table"]))
want = len({(c["mode"], c["fd_kind"], c["fd_table"], c["active"], c.get("wake_delay_ns")) for c in measured})
if len(tables) != want:
    fail("the terminal prints %d tables, the run has %d (mode, kind, fd table, K, delay)" % (len(tables), want))
PY
grep -q "^| task-clock (ns), poll |" "$run/report.md" ||
    fail "report.md's counters per descriptor does not give task-clock in ns: $(grep 'task-clock' "$run/report.md" | head -3)"
! grep -q "events per fd" "$run/report.md" || fail "report.md still says events per fd"
for gp in "$run"/figures/*task-clock*.gp; do
    [ -f "$gp" ] || continue
    ! grep -q 'unit = "events"' "$gp" || fail "$gp says unit = \"events\" for a clock"
done
ls "$run"/figures/*poker*task-clock*.gp >/dev/null 2>&1 || fail "no poker:task-clock figure"
# One N: no table without rows in report.md.
"$bin" run --quick --backends poll,epoll --fds 10 --samples 20 --repeats 3 --events task-clock \
    --out "$work/one" >/dev/null 2>"$work/err1" || { cat "$work/err1" >&2; fail "the run of one N failed"; }
awk '/^\|---/ { sep = NR; next } sep && sep == NR - 1 && !/^\|/ { print "line " NR - 2 ": " head; bad = 1 }
     /^\|/ { head = $0 } END { exit bad }' "$work/one/report.md" >"$work/empty" ||
    fail "report.md of one N has tables without rows: $(cat "$work/empty")"
# ... and no section or table that would say only that it has nothing: no
# cache-line fit, no knee paragraph, no seed table beside none of this run's
# cells (seed 002's starts at N 100: one line instead).
for pat in '^## Cache-line correlation' '^Knees: '; do
    ! grep -q -- "$pat" "$work/one/report.md" ||
        fail "report.md of one N prints what has no row ($pat): $(grep -m1 -- "$pat" "$work/one/report.md" | cut -c1-120)"
done
grep -q "^Seed 002's numbers (ready mode, N .*) are not shown" "$work/one/report.md" ||
    fail "report.md of one N does not say in one line why seed 002's table is not shown"
rm -rf "$work"
echo "results.csv and samples.csv keep every cell apart; the terminal shows every cell; clocks in ns"
