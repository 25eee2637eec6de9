#!/bin/sh
# SPDX-License-Identifier: MIT
# test_one_estimate.sh - one quantity, one estimate, for a cell's median, a
# per-descriptor cost and a change between runs: every printed instance is
# read back and checked against the JSON that owns it.  Two runs (poll and
# epoll at two N, both modes) and their comparison:
#   - a cell's median and its interval (report --json: median_ns) in
#     results.csv (wall_ns p50, p50_lo, p50_hi), report.md's tables of
#     "p50 [interval]", the figures' data (p50, ci_lo, ci_hi) and the run's
#     terminal table (3 digits);
#   - the per-descriptor cost between neighbouring N (report --json:
#     interval_costs) in the terminal's findings ("poll adds X ns per watched
#     fd") and report.md's list, with its interval; the fitted cost
#     (report --json: fit) in report.md's fit table and compare's slope table;
#   - compare's change: in compare --json change_pct is (ratio - 1) x 100,
#     and its terminal table and report.md print that change beside that
#     ratio.
# The ratio to epoll has its own test (test_one_ratio.sh).
#
#   test_one_estimate.sh MUXPROF
set -u
bin=${1:?usage: test_one_estimate.sh MUXPROF}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mp-estimate.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
for r in a b; do
    MUXPROF_NO_WAIT=1 "$bin" run --backends poll,epoll --fds 10,100 --samples 40 --repeats 5 \
        --events none --no-plots --out "$tmp/$r" >"$tmp/$r.term" 2>"$tmp/err" ||
        { echo "FAIL: run $r: $(head -3 "$tmp/err")"; exit 1; }
    "$bin" report --json "$tmp/$r" >"$tmp/$r.json" 2>"$tmp/err" ||
        { echo "FAIL: report --json $r: $(head -3 "$tmp/err")"; exit 1; }
done
"$bin" compare "$tmp/a" "$tmp/b" --no-plots --out "$tmp/cmp" >"$tmp/cmp.term" 2>"$tmp/err" ||
    { echo "FAIL: compare: $(head -3 "$tmp/err")"; exit 1; }
"$bin" compare "$tmp/a" "$tmp/b" --json >"$tmp/cmp.json" 2>"$tmp/err" ||
    { echo "FAIL: compare --json: $(head -3 "$tmp/err")"; exit 1; }
python3 - "$tmp" <<'PY'
import csv, json, math, re, sys
d = sys.argv[1]
errs = []

def close(got, exp, digits):
    """got is exp as printed to `digits` significant digits (or as a whole number)."""
    if exp == 0:
        return abs(got) < 1e-9
    # half a unit of the last digit printed, and a hair more: a value a printed digit
    # rounds at (24.45 as 24.4 from its binary 24.4499...) is on the boundary
    tol = 0.5 * 10 ** (math.floor(math.log10(abs(exp))) + 1 - digits) * (1 + 1e-6)
    return abs(got - exp) <= max(tol, 0.5 if abs(exp) >= 10 ** digits else 0)

# a number as mp_fmt_num prints it: 656,745 / 24.4 / 0.52 / -4.12e-03 (below 0.01)
NUM = r"-?[\d.,]+(?:e[-+]\d+)?"

def num(s):
    return float(s.replace(",", "").replace("\u2212", "-"))

def check(where, key, got, exp, digits=3):
    if exp is None or not close(got, exp, digits):
        errs.append("%s, %s: %r, the JSON's %r" % (where, key, got, exp))

def check_dp(where, key, got, exp, places):
    """got is exp printed with `places` decimals."""
    if exp is None or abs(got - exp) > 0.5 * 10 ** -places + 1e-9:
        errs.append("%s, %s: %r, the JSON's %r" % (where, key, got, exp))

rep = json.load(open(d + "/a.json"))
med, costs, fits = {}, {}, {}
for s in rep["series"]:
    for c in s["cells"]:
        if c.get("status") == "ok":
            med[s["mode"], s["backend"], int(c["nfds"])] = c["median_ns"]
    for ic in s.get("interval_costs", []):
        costs[s["mode"], s["backend"], int(ic["from_nfds"]), int(ic["to_nfds"])] = ic
    if s.get("fit"):
        fits[s["mode"], s["backend"]] = s["fit"]
if len(med) != 8 or len(costs) != 4 or len(fits) != 4:
    sys.exit("FAIL: report --json has %d medians, %d interval costs, %d fits; want 8, 4, 4"
             % (len(med), len(costs), len(fits)))

# -- the median and its interval
rows = list(csv.DictReader(open(d + "/a/results.csv")))
k = 0
for r in rows:
    if r["metric"] != "wall_ns":
        continue
    key = (r["mode"], r["backend"], int(r["nfds"]))
    m = med.get(key)
    check("results.csv p50", key, float(r["p50"]), m and m["p50"], 9)
    if r["p50_lo"]:
        check("results.csv p50_lo", key, float(r["p50_lo"]), m and m["lo"], 9)
        check("results.csv p50_hi", key, float(r["p50_hi"]), m and m["hi"], 9)
    k += 1
if k != 8:
    errs.append("results.csv: %d wall_ns rows, want 8" % k)

md = open(d + "/a/report.md").read()
k = 0
for sec in re.finditer(r"## Results: (ready|wakeup) mode, pipe fds\n(.*?)(?=\n## )", md, re.S):
    mode = sec.group(1)
    t = re.search(r"\| backend \| (N=[^\n]*)\n\|[^\n]*\n((?:\| [a-z_]+ \|[^\n]*\n)+)", sec.group(2))
    if not t:
        continue
    ns = [int(x.strip()[2:].replace(",", "")) for x in t.group(1).strip(" |").split("|")]
    for line in t.group(2).splitlines():
        cells = [x.strip() for x in line.strip(" |").split("|")]
        for n, v in zip(ns, cells[1:]):
            m = re.match(r"([\d,.]+) \[([\d,.]+)\u2013([\d,.]+)\]", v)
            if not m:
                continue
            key = (mode, cells[0], n)
            e = med.get(key) or {}
            check("report.md median", key, num(m.group(1)), e.get("p50"))
            check("report.md interval lo", key, num(m.group(2)), e.get("lo"))
            check("report.md interval hi", key, num(m.group(3)), e.get("hi"))
            k += 1
if k != 8:
    errs.append("report.md: %d 'p50 [interval]' cells in the Results tables, want 8" % k)

for mode in ("ready", "wakeup"):
    for be in ("poll", "epoll"):
        lines = [l.split() for l in open("%s/a/figures/data_%s_pipe_%s.dat" % (d, mode, be))
                 if not l.startswith("#")]
        h = lines[0]
        for r in lines[1:]:
            key = (mode, be, int(r[0]))
            e = med.get(key) or {}
            check("figure data p50", key, float(r[h.index("p50")]), e.get("p50"), 8)
            check("figure data ci_lo", key, float(r[h.index("ci_lo")]), e.get("lo"), 8)
            check("figure data ci_hi", key, float(r[h.index("ci_hi")]), e.get("hi"), 8)

UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
term = open(d + "/a.term").read()
mode, k = None, 0
for line in term.splitlines():
    m = re.match(r"(ready|wakeup) mode, pipe", line)
    if m:
        mode = m.group(1)
        continue
    m = re.match(r"\s+(\d+)\s+([\d.]+) (ns|us|ms|s) \[[^]]*\]\s+([\d.]+) (ns|us|ms|s) \[", line)
    if mode and m:
        n = int(m.group(1))
        for be, v, u in (("poll", m.group(2), m.group(3)), ("epoll", m.group(4), m.group(5))):
            e = med.get((mode, be, n)) or {}
            check("run's table median", (mode, be, n), float(v) * UNIT[u], e.get("p50"))
            k += 1
    if not line.strip():
        mode = None
if k != 8:
    errs.append("run's table: %d medians, want 8" % k)

# -- the per-descriptor cost
k = 0
for m in re.finditer(r"(ready|wakeup), pipe: (poll|epoll) adds (" + NUM + ") ns per watched fd "
                     r"between neighbouring N \(N=([\d,]+) to ([\d,]+)\)", term):
    key = (m.group(1), m.group(2), int(num(m.group(4))), int(num(m.group(5))))
    check("terminal per-fd cost", key, num(m.group(3)), (costs.get(key) or {}).get("ns_per_fd"))
    k += 1
if not re.search(r"ready, pipe: poll adds ", term):
    errs.append("terminal: no 'ready, pipe: poll adds ... ns per watched fd' finding")
# "epoll at N=100 is within 10% of N=10 (its medians between: X to Y)": the
# lowest and highest of that backend's medians
for m in re.finditer(r"(ready|wakeup), pipe: (poll|epoll) at N=[\d,]+ is within 10% of N=[\d,]+ "
                     r"\(its medians between: ([\d.]+) (ns|us|ms) to ([\d.]+) (ns|us|ms)\)", term):
    ms = [v["p50"] for (mo, be, n), v in med.items() if mo == m.group(1) and be == m.group(2)]
    key = (m.group(1), m.group(2))
    check("terminal's lowest median", key, float(m.group(3)) * UNIT[m.group(4)], min(ms))
    check("terminal's highest median", key, float(m.group(5)) * UNIT[m.group(6)], max(ms))
k = 0
for sec in re.finditer(r"## Results: (ready|wakeup) mode, pipe fds\n(.*?)(?=\n## )", md, re.S):
    mode = sec.group(1)
    for m in re.finditer(r"^- (poll|epoll): ([\d,]+)\u2192([\d,]+): (%s) \[(%s), (%s)\]" % (NUM, NUM, NUM),
                         sec.group(2), re.M):
        key = (mode, m.group(1), int(num(m.group(2))), int(num(m.group(3))))
        e = costs.get(key) or {}
        check("report.md per-fd cost", key, num(m.group(4)), e.get("ns_per_fd"))
        check("report.md per-fd cost lo", key, num(m.group(5)), e.get("lo"))
        check("report.md per-fd cost hi", key, num(m.group(6)), e.get("hi"))
        k += 1
    for m in re.finditer(r"^\| (poll|epoll) \| (%s) \[(%s), (%s)\] \|" % (NUM, NUM, NUM),
                         sec.group(2), re.M):
        key = (mode, m.group(1))
        e = fits.get(key) or {}
        check("report.md fit", key, num(m.group(2)), e.get("ns_per_fd"))
        check("report.md fit lo", key, num(m.group(3)), e.get("ns_per_fd_lo"))
        check("report.md fit hi", key, num(m.group(4)), e.get("ns_per_fd_hi"))
        k += 1
# every interval cost and fit the JSON gives with its interval is printed with it; a fit of
# a constant series (every median equal) has none, in report.md and compare alike
want_costs = sum(1 for c in costs.values() if c.get("lo") is not None)
want_fits = sum(1 for f in fits.values() if f.get("ns_per_fd_lo") is not None)
if k != want_costs + want_fits:
    errs.append("report.md: %d per-fd costs and fits with intervals, want %d (%d and %d)"
                % (k, want_costs + want_fits, want_costs, want_fits))
cmd = open(d + "/cmp/report.md").read()
k = 0
for block in re.finditer(r"## (ready|wakeup) mode, pipe descriptors(.*?)(?=\n## |\Z)", cmd, re.S):
    mode = block.group(1)
    s = re.search(r"### Per-descriptor slope[^\n]*\n\n(.*?)\n\n", block.group(2), re.S)
    if not s:
        continue
    for m in re.finditer(r"^\| (poll|epoll), ns \| (%s) \[(%s), (%s)\] ns/fd" % (NUM, NUM, NUM),
                         s.group(1), re.M):
        key = (mode, m.group(1))
        e = fits.get(key) or {}
        check("compare's slope", key, num(m.group(2)), e.get("ns_per_fd"))
        check("compare's slope lo", key, num(m.group(3)), e.get("ns_per_fd_lo"))
        check("compare's slope hi", key, num(m.group(4)), e.get("ns_per_fd_hi"))
        k += 1
if k != want_fits:
    errs.append("compare's report.md: %d slopes of the first input, want %d" % (k, want_fits))
for key, f in fits.items():
    if f.get("constant") and not re.search(r"^\| %s, ns \| constant: [\d,.]+ ns in every cell"
                                           % key[1], cmd, re.M):
        errs.append("compare's report.md: %s's constant series not called constant" % (key,))

# -- compare's change is its ratio's
cj = json.load(open(d + "/cmp.json"))["comparison"]
chg = {}
for c in cj["cells"]:
    for x in c.get("change", []):
        if x.get("change_pct") is None or x.get("ratio") is None:
            continue
        key = (c["mode"], c["backend"], int(c["nfds"]))
        chg[key] = x
        if abs(x["change_pct"] - 100 * (x["ratio"] - 1)) > 1e-6 * max(1, abs(x["change_pct"])):
            errs.append("compare --json %s: change %g%% beside ratio %g" % (key, x["change_pct"], x["ratio"]))
if len(chg) != 8:
    errs.append("compare --json: %d cells with a change, want 8" % len(chg))
k = 0
for m in re.finditer(r"^(ready|wakeup)\s+pipe\s+(poll|epoll)\s+(\d+)\s+2\s+([-+][\d.]+)% ([\d.]+) \[",
                     open(d + "/cmp.term").read(), re.M):
    key = (m.group(1), m.group(2), int(m.group(3)))
    x = chg.get(key) or {}
    check_dp("compare's table change", key, float(m.group(4)), x.get("change_pct"), 1)
    check_dp("compare's table ratio", key, float(m.group(5)), x.get("ratio"), 3)
    if x.get("ratio") is not None and abs(float(m.group(4)) - 100 * (float(m.group(5)) - 1)) > 0.1 + 1e-6:
        errs.append("compare's table %s: %s%% beside ratio %s" % (key, m.group(4), m.group(5)))
    k += 1
if k != 8:
    errs.append("compare's terminal table: %d rows, want 8" % k)
k = 0
for block in re.finditer(r"## (ready|wakeup) mode, pipe descriptors(.*?)(?=\n## |\Z)", cmd, re.S):
    mode = block.group(1)
    for t in re.finditer(r"#### (poll|epoll): change against[^\n]*\n(.*?)(?=\n#|\Z)", block.group(2), re.S):
        for m in re.finditer(r"^\| ([\d,]+) \| ([-+][\d.]+)% \(([\d.]+)\u2013", t.group(2), re.M):
            key = (mode, t.group(1), int(num(m.group(1))))
            x = chg.get(key) or {}
            check_dp("compare's report.md change", key, float(m.group(2)), x.get("change_pct"), 1)
            k += 1
if k != 8:
    errs.append("compare's report.md: %d changes, want 8" % k)

if errs:
    print("FAIL: " + "\n      ".join(errs))
    sys.exit(1)
print("one estimate each: 8 medians with their intervals, 4 per-fd costs, 4 fits, 8 changes "
      "agree in every output")
PY
