#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# arm64-vm-ci.sh - the CI step with hardware counters: two muxprof runs in the
# emulated arm64 guest (scripts/arm64-vm.sh), each checked.
#
#   1. -cpu max -icount shift=0, --events minimal, poll and epoll at N = 10, 100,
#      1000, ready mode: emulated is true; cycles and instructions in every
#      cell, read with mrs; poll's instructions per call grow with N on a
#      straight line (R^2 > 0.999, exact under icount) and epoll's stay flat;
#      and test_pmu_hw in the guest: cycles and instructions of a known loop
#      through mrs and read(), and a group too large for the counters (it
#      opens and never runs) refused; cycles equal instructions in the
#      least disturbed calls (p10), the median within 1%.
#   2. -cpu neoverse-n1 -icount shift=0, perf_user_access=1, --events cache: the
#      arm_n1 preset is chosen and every event of it opens; cycles and
#      instructions are read with mrs (the cycle counter 64-bit, event
#      counters 32-bit: this PMU has no 64-bit event counters); the report
#      says the emulated cache events counted nothing rather than showing zeros
#      as measurements.
#
# Usage: scripts/arm64-vm-ci.sh [DIR]   (default: a temporary directory)
# Environment: BUILD_DIR (default build-aarch64), VM_TIMEOUT per guest (default 200 s).
# Exit status 0 when both runs pass their checks, 1 otherwise.
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -euo pipefail
cd "$(dirname "$0")/.."

command -v python3 >/dev/null || {
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y -q python3 >/dev/null || { echo "arm64-vm-ci: python3 is missing" >&2; exit 1; }
}
dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/arm64-vm-ci.XXXXXX")}
mkdir -p "$dir"
t=${VM_TIMEOUT:-200}
run_args=(--backends poll,epoll --fds 10,100,1000 --mode ready --quick --no-plots)
status=0

start=$(date +%s)
echo "arm64-vm-ci: run 1: -cpu max -icount, --events minimal"
scripts/arm64-vm.sh --out "$dir/icount" --icount --timeout "$t" --tests test_pmu_hw -- "${run_args[@]}" \
    --events minimal || status=1
echo "arm64-vm-ci: run 2: -cpu neoverse-n1 -icount, perf_user_access=1, --events cache"
scripts/arm64-vm.sh --out "$dir/n1" --cpu neoverse-n1 --icount --user-access 1 --timeout "$t" \
    -- "${run_args[@]}" --events cache || status=1
echo "arm64-vm-ci: both guests in $(( $(date +%s) - start )) s"
[ "$status" = 0 ] || { echo "arm64-vm-ci: a guest run failed (logs in $dir/*/guest/)"; exit 1; }

python3 - "$dir" <<'EOF'
import json, sys
d = sys.argv[1]
bad = []

def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what)
    if not ok:
        bad.append(what)

def load(name):
    with open(f"{d}/{name}/results.json") as f:
        return json.load(f)

def p50(r, backend, metric):
    return {c["nfds"]: c["metrics"][metric]["p50"] for c in r["results"]
            if c["backend"] == backend and metric in c["metrics"]}

def fit(pts):
    xs, ys = zip(*sorted(pts.items()))
    n = len(xs); mx = sum(xs) / n; my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    ss = sum((y - my) ** 2 for y in ys)
    r2 = 1 - sum((y - a - b * x) ** 2 for x, y in zip(xs, ys)) / ss if ss else 1.0
    return b, a, r2

def mrs_everywhere(r, label):
    for c in r["results"]:
        check(c["status"] == "ok", f"{label}: {c['backend']} N={c['nfds']} is ok")
        for m in ("cycles", "instructions"):
            mt = c["metrics"].get(m)
            check(mt is not None and mt.get("read_path") == "mrs" and mt.get("dropped") == 0,
                  f"{label}: {c['backend']} N={c['nfds']} {m} read with mrs, nothing dropped")

print("run 1 (-cpu max, -icount, minimal)")
tl = open(f"{d}/icount/guest/tests.log").read()
check("test_pmu_hw: exit 0" in tl and "[  PASSED  ] 3 test(s)." in tl,
      "test_pmu_hw passes in the guest (mrs and read() count a known loop)")
check("opened, read 0/0, running 0 of" in tl and ": refused" in tl,
      "a group too large for the counters opened, never ran, and was refused")
r = load("icount")
check(r["context"].get("emulated") is True, "context.emulated is true: "
      + "; ".join(r["context"].get("emulation_seen", [])))
mrs_everywhere(r, "run 1")
poll, ep = p50(r, "poll", "instructions"), p50(r, "epoll", "instructions")
check(sorted(poll) == [10, 100, 1000] and sorted(ep) == [10, 100, 1000], "poll and epoll at N=10,100,1000")
if len(poll) == 3 and len(ep) == 3:
    b, a, r2 = fit(poll)
    print(f"        poll instructions per call: {poll}; {b:.1f} per fd + {a:.0f}, R^2 {r2:.6f}")
    check(poll[10] < poll[100] < poll[1000] and b > 20 and r2 > 0.999,
          "poll's instructions grow with N on a straight line (R^2 > 0.999)")
    print(f"        epoll instructions per call: {ep}")
    check(max(ep.values()) <= 1.02 * min(ep.values()) and fit(ep)[0] < 0.1,
          "epoll's instructions stay flat (within 2%, < 0.1 per fd)")
# The cycle counter follows QEMU's virtual clock, the instruction counter its
# instruction count: under -icount shift=0 they advance together while the
# guest runs, but the clock also moves when QEMU warps it (idle vCPUs, timer
# deadlines), so a call may read more cycles than instructions, never fewer.
# Both are printed; the least disturbed tenth of the calls must read them
# equal, and the median within 1%.
def pct(backend, metric, q):
    return {c["nfds"]: c["metrics"][metric][q] for c in r["results"]
            if c["backend"] == backend and metric in c["metrics"]}
for b in ("poll", "epoll"):
    cyc10, ins10 = pct(b, "cycles", "p10"), pct(b, "instructions", "p10")
    cyc50, ins50 = pct(b, "cycles", "p50"), pct(b, "instructions", "p50")
    print(f"        {b} cycles/instructions per call, p10: {cyc10} / {ins10}; p50: {cyc50} / {ins50}")
    check(cyc10 == ins10 and sorted(cyc50) == sorted(ins50)
          and all(ins50[n] <= cyc50[n] <= 1.01 * ins50[n] for n in ins50),
          f"{b}: under -icount shift=0 cycles equal instructions (1 ns virtual per instruction): "
          "at p10 exactly, at p50 within 1%, never fewer")

print("run 2 (-cpu neoverse-n1, -icount, perf_user_access=1, cache)")
r = load("n1")
cn = r["counters"]
check(cn.get("libpfm4_pmu") == "arm_n1" and cn.get("preset_file") == "arm_n1",
      f"libpfm4 detects arm_n1 and its preset is used (got {cn.get('libpfm4_pmu')}, {cn.get('preset_file')})")
evs = cn.get("events", [])
unopened = [e["name"] + ": " + e.get("reason", "") for e in evs if e["status"] != "opened"]
check(evs and not unopened, "every event of the arm_n1 cache preset opens"
      + ("" if not unopened else " -- not: " + " | ".join(unopened)))
acc = {e["name"]: e.get("access", "") for e in evs}
check(acc.get("cycles", "").startswith("mrs, 64-bit"), f"cycles: {acc.get('cycles')}")
check(acc.get("instructions", "").startswith("mrs, 32-bit"), f"instructions: {acc.get('instructions')}")
mrs_everywhere(r, "run 2")
check(r["context"].get("emulated") is True, "context.emulated is true")
md = open(f"{d}/n1/report.md").read()
check("**Emulated CPU**" in md and "not measured here" in md and "`L1-dcache-load-misses`" in md,
      "report.md labels the run emulated and the zero cache counts as not measured")

if bad:
    print(f"arm64-vm-ci: {len(bad)} check(s) failed")
    sys.exit(1)
print("arm64-vm-ci: all checks passed")
EOF
