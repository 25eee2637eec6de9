#!/bin/sh
# SPDX-License-Identifier: MIT
# Two small runs with every dimension of a cell varied (backends, fd kinds,
# N, K, wake delays, fd tables, modes), every experiment, and each run
# parameter (samples, repeats, warmup, --ready-pos, --repeat-order,
# --events, --placement, --quick, --experiment, --waiters) different
# between the two:
# - results.csv, samples.csv and experiments.csv give each cell its own
#   rows: their key columns (those before `status`, or `repeat` in
#   samples.csv) are read from each header, and the rows of both runs are
#   unique by them (without `cell`); every config field that differs
#   between the runs is a key column; each key column is a field of the
#   cell (or the experiment's row) or of config, equal to it value for
#   value, and so are the summaries, unit, interval and experiment values;
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
sweep="--backends poll,epoll --fds 10,30 --active 1,2 --mode ready,wakeup --wake-delay 0,30us
       --fd-table private,shared --fd-kind pipe,eventfd"
# shellcheck disable=SC2086
"$bin" run $sweep --quick --samples 20 --repeats 3 --events task-clock \
    --experiment calls,register,herd,ltet --out "$run" >"$work/out" 2>"$work/err" ||
    { cat "$work/err" >&2; fail "the run failed"; }
# shellcheck disable=SC2086
"$bin" run $sweep --samples 10 --repeats 2 --warmup 5 --ready-pos first \
    --repeat-order back-to-back --events cpu-clock --placement none \
    --experiment calls,register,herd --waiters 2 --no-plots --out "$work/run2" \
    >/dev/null 2>"$work/err2" || { cat "$work/err2" >&2; fail "the second run failed"; }
python3 - "$run" "$work/run2" "$work/out" <<'PY' || exit 1
import csv, json, re, sys
out = sys.argv[3]
def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)
def text_of(v):
    if isinstance(v, list):
        return " ".join(text_of(x) for x in v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
def same(text, v):
    if v is None:
        return text == ""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return text != "" and float(text) == float(v)
    return text == text_of(v)
def read(path, last):
    """The rows of a CSV and its key columns: those before `last`, without `cell`."""
    try:
        rows = list(csv.DictReader(open(path)))
        hdr = next(csv.reader(open(path)))
    except (OSError, StopIteration) as e:
        fail("%s: %s" % (path, e))
    if len(set(hdr)) != len(hdr):
        fail("%s names a column twice: %s" % (path, ",".join(hdr)))
    if last not in hdr or "cell" not in hdr:
        fail("%s has no column %s or cell: %s" % (path, last, ",".join(hdr)))
    return rows, [k for k in hdr[:hdr.index(last)] if k != "cell"]
runs = []
for d in sys.argv[1:3]:
    doc = json.load(open(d + "/results.json"))
    r = {"dir": d, "doc": doc, "cells": doc["results"], "cfg": doc["config"]}
    r["rows"], r["keys"] = read(d + "/results.csv", "status")
    r["srows"], r["skeys"] = read(d + "/samples.csv", "repeat")
    r["xrows"], r["xkeys"] = read(d + "/experiments.csv", "status")
    runs.append(r)
keys, skeys = runs[0]["keys"], runs[0]["skeys"]
for r in runs:
    if r["keys"] != keys or r["skeys"] != keys:
        fail("the key columns differ: results.csv %s, samples.csv %s, first run's %s" % (r["keys"], r["skeys"], keys))
    for k in ["metric", "unit", "p50", "n", "p50_lo", "p50_hi", "p50_level"]:
        if k not in r["rows"][0]:
            fail("results.csv has no column " + k)
    if "wall_raw_ns" not in r["srows"][0]:
        fail("samples.csv has no column wall_raw_ns")
cell_keys = [k for k in keys if any(k in c for c in runs[0]["cells"])]
cfg_keys = [k for k in keys if k not in cell_keys]
# every dimension varied: within a run for a cell's fields, between the runs for config's
not_varied = {"profile"}   # --profile needs perf_event sampling of the kernel
for k in cell_keys:
    if len({json.dumps(c.get(k)) for c in runs[0]["cells"]}) < 2:
        fail("the run did not vary " + k)
for k in cfg_keys:
    if k not in runs[0]["cfg"]:
        fail("key column %s is neither a field of a cell nor of config" % k)
    if k not in not_varied and runs[0]["cfg"][k] == runs[1]["cfg"][k]:
        fail("the two runs did not vary " + k)
for k in runs[0]["cfg"]:   # the runs share their sweep: what differs is a run parameter
    if runs[0]["cfg"][k] != runs[1]["cfg"].get(k) and k not in keys:
        fail("config field %s differs between the runs but is no key column of results.csv" % k)
def check_keys(r, row, what, c):
    for k in cell_keys:
        if not same(row[k], c.get(k)):
            fail("%s: column %s is %r, results.json's cell %s has %r" % (what, k, row[k], row["cell"], c.get(k)))
    for k in cfg_keys:
        if not same(row[k], r["cfg"].get(k)):
            fail("%s: column %s is %r, config has %r" % (what, k, row[k], r["cfg"].get(k)))
seen, sseen, xseen = {}, {}, {}
for r in runs:
    cells = r["cells"]
    for row in r["rows"]:
        key = tuple(row[k] for k in keys + ["metric"])
        if key in seen:
            fail("results.csv rows %s and %s share their keys %s" % (seen[key], (r["dir"], row["cell"]), key))
        seen[key] = (r["dir"], row["cell"])
        c = cells[int(row["cell"])]
        check_keys(r, row, "results.csv", c)
        if row["status"] != c["status"]:
            fail("results.csv status %s, cell %s" % (row["status"], c["status"]))
        if c["status"] != "ok":
            continue
        m = c["metrics"][row["metric"]]
        for k in ("p10", "p50", "p90", "p99", "mean", "min", "max", "stddev", "n"):
            if m is not None and not same(row[k], m[k]):
                fail("results.csv cell %s %s %s is %s, results.json %r" % (row["cell"], row["metric"], k, row[k], m[k]))
        want = m.get("unit") if isinstance(m, dict) and "unit" in m else "ns"
        if row["unit"] != want:
            fail("results.csv cell %s %s unit %s, results.json %s" % (row["cell"], row["metric"], row["unit"], want))
        ci = c.get("wall_p50_ci95_ns") if row["metric"] == "wall_ns" else None
        for a, b in (("p50_lo", "lo"), ("p50_hi", "hi"), ("p50_level", "level")):
            if not same(row[a], ci[b] if ci else None):
                fail("results.csv cell %s %s %s is %r, results.json %r" % (row["cell"], row["metric"], a, row[a], ci))
    if {int(row["cell"]) for row in r["rows"]} != set(range(len(cells))):
        fail("results.csv does not hold every cell")
    # samples.csv: the same key columns, as many rows per cell as wall_raw_ns kept
    n = {}
    for row in r["srows"]:
        j = int(row["cell"])
        n[j] = n.get(j, 0) + 1
        key = tuple(row[k] for k in keys)
        if sseen.setdefault(key, (r["dir"], j)) != (r["dir"], j):
            fail("samples.csv cells %s and %s share their keys %s" % (sseen[key], (r["dir"], j), key))
        if n[j] == 1:
            check_keys(r, row, "samples.csv", cells[j])
    for j, c in enumerate(cells):
        if c["status"] == "ok" and n.get(j, 0) != c["metrics"]["wall_raw_ns"]["n"]:
            fail("samples.csv holds %d samples of cell %d, results.json %r"
                 % (n.get(j, 0), j, c["metrics"]["wall_raw_ns"]["n"]))
    # experiments.csv: one row per experiment's row and value column
    xkeys = r["xkeys"]
    if "experiment" not in xkeys or not set(cfg_keys) <= set(xkeys):
        fail("experiments.csv's key columns %s lack experiment or one of %s" % (xkeys, cfg_keys))
    for k in ("metric", "unit", "value"):
        if k not in r["xrows"][0]:
            fail("experiments.csv has no column " + k)
    want = {}
    for name, e in r["doc"].get("experiments", {}).items():
        cols = e["table"]["columns"]
        tkeys = [c["key"] for c in cols if c["kind"] == "key"]
        for k in tkeys:
            if k not in xkeys:
                fail("experiments.csv has no column %s (a key of %s)" % (k, name))
        for i, v in enumerate(e["table"]["rows"]):
            st = [v[j] for j, c in enumerate(cols) if c["kind"] == "status"]
            st = st[0] if st else "ok"
            vals = [(c, v[j]) for j, c in enumerate(cols) if c["kind"] == "value"]
            if st != "ok":
                vals = [(None, None)]   # one row, an empty metric
            for c, x in vals:
                want[(name, str(i), c["key"] if c else "")] = (v, cols, st, c, x)
    got = {}
    for row in r["xrows"]:
        key = tuple(row[k] for k in xkeys + ["metric"])
        if key in xseen:
            fail("experiments.csv rows %s and %s share their keys %s"
                 % (xseen[key], (r["dir"], row["experiment"], row["cell"]), key))
        xseen[key] = (r["dir"], row["experiment"], row["cell"])
        w = want.get((row["experiment"], row["cell"], row["metric"]))
        if not w:
            fail("experiments.csv row %s %s %s is in no experiment's table" % (row["experiment"], row["cell"], row["metric"]))
        got[(row["experiment"], row["cell"], row["metric"])] = 1
        v, cols, st, c, x = w
        tvals = {cc["key"]: v[j] for j, cc in enumerate(cols) if cc["kind"] == "key"}
        for k in xkeys:
            if k == "experiment":
                exp = row["experiment"]
            else:   # the table's key, a run parameter, or empty: a key of another table
                exp = tvals[k] if k in tvals else r["cfg"].get(k) if k in cfg_keys else None
            if not same(row[k], exp):
                fail("experiments.csv %s row %s: column %s is %r, results.json %r" % (row["experiment"], row["cell"], k, row[k], exp))
        if row["status"] != st or not same(row["value"], x) or row["unit"] != (c["unit"] if c else ""):
            fail("experiments.csv %s row %s %s: %s %r %s, results.json %s %r %s"
                 % (row["experiment"], row["cell"], row["metric"], row["status"], row["value"],
                    row["unit"], st, x, c and c["unit"]))
    if set(got) != set(want):
        fail("experiments.csv lacks %s" % sorted(set(want) - set(got))[:3])
    if not want:
        fail("%s: no experiment ran" % r["dir"])
doc, cells = runs[0]["doc"], runs[0]["cells"]
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
echo "results.csv, samples.csv and experiments.csv keep every cell apart; the terminal shows every cell; clocks in ns"
