#!/bin/sh
# SPDX-License-Identifier: MIT
# test_one_ratio.sh - one quantity, one estimate: poll's median over epoll's at
# each N is the same number wherever muxprof prints it.  From one run (poll
# and epoll at two N, both modes), every instance is read and checked against
# report --json's series (ratio_to_epoll, the Hodges-Lehmann ratio of the
# repeat medians):
#   - the terminal table of `muxprof run` (poll/epoll column, 3 digits);
#   - the findings on the terminal ("poll/epoll at N=... is") and report.md's
#     tables of medians relative to epoll's;
#   - the figures' data (figures/data_MODE_pipe_poll.dat, ratio_epoll);
#   - compare's table and its figure data (cmp_MODE_pipe_poll_h1.dat).
#
#   test_one_ratio.sh MUXPROF
set -u
bin=${1:?usage: test_one_ratio.sh MUXPROF}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mp-ratio.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
MUXPROF_NO_WAIT=1 "$bin" run --backends poll,epoll --fds 10,100 --samples 40 --repeats 5 \
    --events none --no-plots --out "$tmp/run" >"$tmp/term" 2>"$tmp/err" ||
    { echo "FAIL: the run: $(head -3 "$tmp/err")"; exit 1; }
"$bin" report --json "$tmp/run" >"$tmp/report.json" 2>"$tmp/err" ||
    { echo "FAIL: report --json: $(head -3 "$tmp/err")"; exit 1; }
cp -r "$tmp/run" "$tmp/run2"
"$bin" compare "$tmp/run" "$tmp/run2" --no-plots --out "$tmp/cmp" >/dev/null 2>"$tmp/err" ||
    { echo "FAIL: compare: $(head -3 "$tmp/err")"; exit 1; }
python3 - "$tmp" <<'PY'
import json, math, re, sys
d = sys.argv[1]
rep = json.load(open(d + "/report.json"))
want = {}
for s in rep["series"]:
    for x in s.get("ratio_to_epoll", []):
        if s.get("backend") == "poll":
            want[s["mode"], int(x["nfds"])] = x["ratio"]
errs = []
if len(want) != 4:
    sys.exit("FAIL: report --json has %d poll/epoll ratios, want 4 (2 modes x 2 N): %r" % (len(want), want))

def close(got, exp, digits):
    """got is exp as printed to `digits` significant digits."""
    # half a unit of the last digit printed, and a hair more for a value on the boundary
    return abs(got - exp) <= 0.5 * 10 ** (math.floor(math.log10(abs(exp))) + 1 - digits) * (1 + 1e-6)

def check(where, mode, n, got, digits=3):
    exp = want[mode, n]
    if not close(got, exp, digits):
        errs.append("%s, %s N=%d: %g, report --json %g" % (where, mode, n, got, exp))

# the run's terminal table: a header line per mode, rows N poll epoll ratio
term = open(d + "/term").read().splitlines()
mode, seen = None, 0
for line in term:
    m = re.match(r"(ready|wakeup) mode, pipe", line)
    if m:
        mode = m.group(1)
        continue
    m = re.match(r"\s+(\d+)\s.*\s(\d[\d.]*)$", line)
    if mode and m and "poll/epoll" not in line:
        check("run's table", mode, int(m.group(1)), float(m.group(2)))
        seen += 1
    if not line.strip():
        mode = None
if seen != 4:
    errs.append("run's table: %d rows with a ratio, want 4" % seen)
# the findings on the terminal
k = 0
for m in re.finditer(r"(ready|wakeup)[^\n]*?poll/epoll at N=([\d,]+) is ([\d.,]+)", "\n".join(term)):
    check("terminal finding", m.group(1), int(m.group(2).replace(",", "")),
          float(m.group(3).replace(",", "")))
    k += 1
if k != 2:
    errs.append("terminal: %d 'poll/epoll at N=... is' lines, want 2" % k)
# report.md's table of medians relative to epoll's, in each mode's results
md = open(d + "/run/report.md").read()
k = 0
for sec in re.finditer(r"## Results: (ready|wakeup) mode, pipe fds\n(.*?)(?=\n## )", md, re.S):
    t = re.search(r"\| backend / epoll \|([^\n]*)\n\|[^\n]*\n\| poll \|([^\n]*)", sec.group(2))
    if not t:
        continue
    ns = [int(x.strip()[2:].replace(",", "")) for x in t.group(1).strip(" |").split("|")]
    vs = [float(x.strip().rstrip("×").replace(",", "")) for x in t.group(2).strip(" |").split("|")]
    for n, v in zip(ns, vs):
        check("report.md", sec.group(1), n, v)
        k += 1
if k != 4:
    errs.append("report.md: %d poll / epoll cells in the Results tables, want 4" % k)
# the figures' data, full precision
for mode in ("ready", "wakeup"):
    for name, where in (("run/figures/data_%s_pipe_poll.dat", "figure data"),
                        ("cmp/figures/cmp_%s_pipe_poll_h1.dat", "compare's figure data")):
        rows = [l.split() for l in open(d + "/" + name % mode) if not l.startswith("#")]
        col = rows[0].index("ratio_epoll")
        if len(rows) != 3:
            errs.append("%s, %s: %d rows, want 2 (N 10, 100)" % (where, mode, len(rows) - 1))
        for r in rows[1:]:
            check(where, mode, int(r[0]), float(r[col]), digits=8)
# compare's table: "### poll / epoll ..." then | N | host1 | host2 |
cmd = open(d + "/cmp/report.md").read()
k = 0
for block in re.finditer(r"## ([a-z]+) mode, pipe descriptors.*?### poll / epoll[^\n]*\n\n(.*?)\n\n", cmd, re.S):
    mode = block.group(1)
    for row in block.group(2).splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        check("compare's table", mode, int(cells[0].replace(",", "")), float(cells[1].replace(",", "")))
        k += 1
if k != 4:
    errs.append("compare's table: %d poll/epoll rows, want 4" % k)
if errs:
    print("FAIL: " + "\n      ".join(errs))
    sys.exit(1)
print("one poll/epoll ratio everywhere: %s" % ", ".join("%s N=%d %.3g" % (m, n, r)
                                                       for (m, n), r in sorted(want.items())))
PY
