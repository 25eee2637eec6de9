#!/bin/sh
# SPDX-License-Identifier: MIT
# muxprof report DIR --json: the numbers it prints are those report.md shows for the same
# fixture (fits, interval costs, ratios with their intervals, knees, claims), it writes
# nothing, and it exits as report does (1 missing, 2 malformed or a usage error).
# usage: test_report_json.sh MUXPROF FIXTURES SCRATCH_DIR
set -u
mp=$1 fx=$2 tmp=$3
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

for f in synthetic profile; do
    mkdir -p "$tmp/$f" && cp "$fx/report/$f/results.json" "$tmp/$f/" || exit 1
    "$mp" report "$tmp/$f" --json >"$tmp/$f.json" || no "$f: --json exited $?"
    [ "$(ls "$tmp/$f")" = results.json ] || no "$f: --json wrote into the run: $(ls "$tmp/$f")"
    "$mp" report "$tmp/$f" --no-plots >/dev/null || no "$f: report exited $?"
done
mkdir -p "$tmp/profB" && cp "$fx/compare/profB/results.json" "$tmp/profB/" || exit 1
"$mp" report "$tmp/profB/results.json" --json >"$tmp/profB.json" || no "profB: --json exited $?"
"$mp" report "$tmp/profB" --no-plots >/dev/null || no "profB: report exited $?"

# Each check: the number --json prints, rounded as report.md rounds it, and the line of
# report.md that shows it.
python3 - "$tmp" <<'PY' || fail=1
import json, math, sys
tmp = sys.argv[1]
bad = 0
def load(name):
    return json.load(open(f"{tmp}/{name}.json")), open(f"{tmp}/{name}/report.md").read()
def series(d, mode, backend):
    return next(s for s in d["series"] if s["mode"] == mode and s["backend"] == backend)
def claim(d, name, mode):
    return next(c for c in d["claims"]["checks"] if c["claim"].startswith(name) and c["mode"] == mode)
def check(md, text, what):
    global bad
    if text not in md:
        print(f"FAIL: {what}: report.md has no {text!r}")
        bad = 1

d, md = load("synthetic")
assert d["schema"] == "muxprof-report/1" and d["tool"]["name"] == "muxprof"
assert d["input"]["schema"] == "muxprof-results/1" and d["input"]["host"] == "fixture-host"
f = series(d, "wakeup", "poll")["fit"]
check(md, f"| poll | {f['ns_per_fd']:.1f} | {f['intercept_ns']:,.0f} | {f['weighted_r2']:.3f} | "
      f"{f['points']} | {f['warnings']} |", "the wakeup fit of poll")
costs = "; ".join(f"{c['from_nfds']:,}→{c['to_nfds']:,}: {c['ns_per_fd']:.0f}"
                  for c in series(d, "wakeup", "poll")["interval_costs"])
check(md, f"- poll (interval not available: a cell has fewer than 2 repeat medians): {costs}\n",
      "the wakeup interval costs of poll")
assert all(c["lo"] is None and c["verdict"] == "interval not available"
           for c in series(d, "wakeup", "poll")["interval_costs"])
r = [x["ratio"] for x in series(d, "ready", "poll")["ratio_to_epoll"]]
check(md, f"| poll | {r[0]:.3f}× | {r[1]:.2f}× | {r[2]:.1f}× | {r[3]:.0f}× |", "ready ratios")
e = series(d, "ready", "epoll")["fit"]
check(md, f"| epoll | constant: {series(d, 'ready', 'epoll')['cells'][0]['median_ns']['p50']:.0f} "
      f"in every cell |", "epoll's constant series")
assert e["constant"] and e["ns_per_fd"] is None
sel = [c for c in series(d, "ready", "select")["cells"] if c["status"] == "unsupported"]
check(md, f"- select, N={sel[0]['nfds']:,}: unsupported: {sel[0]['reason']}", "select refused")
# wakeup poll's knee is beside the claim, not against it: both modes hold
for mode, v in (("ready", "holds"), ("wakeup", "holds")):
    c = claim(d, "poll grows with N", mode)
    assert c["verdict"] == v, (mode, c["verdict"])
    check(md, f"  - {mode} mode: **{v}**", f"the growth claim in {mode} mode")
    check(md, f"poll grows {c['poll_growth']:,.0f}× (no interval) from N = {c['from_nfds']:,} "
          f"to {c['to_nfds']:,}, log-log slope {c['poll_loglog_slope']:.2f}",
          f"the growth factor and slope in {mode} mode")
    assert c["seed_fd_kind"] == ("tcp" if mode == "wakeup" else "pipe"), c
    assert c["seed_fd_kind_measured"] == (mode == "ready"), c
assert claim(d, "poll grows with N", "wakeup")["poll_knees"] == 1

c = claim(d, "FD_SETSIZE", "any")
check(md, f"**{c['verdict']} by the kernel ABI (the cliff itself not measured)**: select ran up to "
      f"N={c['ran_up_to_nfds']:,} (maxfd {c['ran_up_to_fd']:,}); from "
      f"N={c['refused_from_nfds']:,} (maxfd {c['refused_from_fd']:,})", "the FD_SETSIZE claim")

d, md = load("profile")
# 3 repeat medians per cell: no Hodges-Lehmann interval reaches 95% (3 x 3 repeats
# give at most 90%), so the ratio and the interval costs have none and say why;
# the interval costs are a family, each at 1 - 5%/m, and say how many repeats they need
few = "fewer repeat medians than a 95% interval needs (at least 4 per cell)"
npoll = len(series(d, "ready", "poll")["cells"])
few_costs = few if npoll <= 2 else (
    "fewer repeat medians than %d intervals covering together at 95%% need (each at %.1f%%: "
    "at least %d per cell)" % (npoll - 1, 100 - 5 / (npoll - 1),
                               next(r for r in range(2, 64)
                                    if 1 - 2 / math.comb(2 * r, r) >= 1 - 0.05 / (npoll - 1))))
c = claim(d, "poll/epoll ratio", "wakeup")
p, ep = c["poll"], c["epoll"]
assert c["verdict"] == "not resolved" and few in c["why"] and c["lo"] is None, c
note = (f", on {c['fd_kind']} fds as the seed measured" if c["seed_fd_kind_measured"] else
        f", on {c['fd_kind']} fds, not the seed's {c['seed_fd_kind']} (this run has no "
        f"{c['seed_fd_kind']} cells)")
check(md, f"  - wakeup mode: **not resolved** ({c['why']}){note}: measured at N=10,000: "
      f"{c['ratio']:.1f}×, "
      f"poll {p['p50']:,.0f} ns [{p['lo']:,.0f}–{p['hi']:,.0f}]",
      "the wakeup ratio claim without an interval")
assert p["interval"] == "repeats" and c["seed_ratio"] == 240.75
x = next(x for x in series(d, "wakeup", "poll")["ratio_to_epoll"] if x["nfds"] == 10000)
assert x["lo"] is None and x["hi"] is None, x
pc = series(d, "ready", "poll")["interval_costs"][0]
assert pc["verdict"] == "interval not available" and pc["lo"] is None, pc
check(md, f"- poll (interval not available: {few_costs}): {pc['from_nfds']:,}→{pc['to_nfds']:,}: "
      f"{pc['ns_per_fd']:.1f};", "an interval cost without its interval, and why")
f = series(d, "ready", "poll")["fit"]
assert f["interval"] == "bootstrap over repeats" and f["ns_per_fd_lo"] < f["ns_per_fd_hi"]
check(md, f"| poll | {f['ns_per_fd']:.1f} [{f['ns_per_fd_lo']:.1f}, {f['ns_per_fd_hi']:.1f}] |",
      "the fit with its interval")
w = claim(d, "poll grows with N", "wakeup")
assert w["verdict"] == "not resolved" and w["interval"] == "repeats", w
assert few in w["why"], w
check(md, f"  - wakeup mode: **not resolved** ({w['why']})", "the unresolved growth claim and why")

d, md = load("profB")
k = series(d, "wakeup", "poll")["knees"]
assert len(k) == 1, k
check(md, f"| poll | {k[0]['from_nfds']:,} | {k[0]['to_nfds']:,} | {k[0]['loglog_slope']:.2f} "
      "(interval not available) |",
      "the knee of poll in wakeup mode")
sys.exit(bad)
PY

# Exit codes as report's; nothing is recovered from a journal.
mkdir -p "$tmp/none" "$tmp/bad"
"$mp" report "$tmp/none" --json >/dev/null 2>&1; [ $? -eq 1 ] || no "no results.json: not exit 1"
echo '{"schema": "something-else/9"}' >"$tmp/bad/results.json"
"$mp" report "$tmp/bad" --json >/dev/null 2>&1; [ $? -eq 2 ] || no "a malformed results.json: not exit 2"
"$mp" report "$tmp/synthetic" --json --anonymize >/dev/null 2>&1
[ $? -eq 2 ] || no "--json with --anonymize: not a usage error"
[ $fail -eq 0 ] && echo "ok"
exit $fail
