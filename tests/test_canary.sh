#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_canary.sh - the host's level: a run records a canary per pass
# (context.noise.canary: one entry per repeat, positive times, medians and
# spreads), and compare does not call a change slower when the canaries
# explain it.  From one quick run A, three copies B whose every time is
# scaled (the repeat medians, the medians and their intervals):
#   cells x2, canary x2     -> every cell "host level", named in its reason;
#   cells x2, canary as A's -> every cell "slower";
#   cells x3, canary x1.3   -> every cell "slower" (more than the level explains);
# and a run without a canary (an older one) compares as before ("slower").
#
#   tests/test_canary.sh MUXPROF
set -u
bin=${1:?usage: test_canary.sh MUXPROF}
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to edit the runs"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/muxprof-canary.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

timeout 120 "$bin" run --backends poll,epoll --mode ready --fds 10,100 --repeats 6 --samples 100 \
  --events none --no-plots --quiet --out "$work/a" >/dev/null 2>"$work/a.err" ||
  { echo "FAIL: the run failed: $(cat "$work/a.err")"; exit 1; }

python3 - "$work" "$bin" <<'PY'
import copy, json, os, subprocess, sys
work, bin = sys.argv[1], sys.argv[2]
fails = []
a = json.load(open(work + "/a/results.json"))
can = a["context"]["noise"].get("canary")
keys = ("syscall_ns", "l1_ns", "llc_ns")
if not can:
    sys.exit("FAIL: results.json has no context.noise.canary")
if len(can["passes"]) != a["config"]["repeats"]:
    fails.append("canary: %d passes recorded, %d repeats" % (len(can["passes"]), a["config"]["repeats"]))
for p in can["passes"]:
    for k in keys:
        if not (isinstance(p.get(k), (int, float)) and p[k] > 0):
            fails.append("canary pass %r: %s is not a positive time" % (p, k))
    if not (p.get("other_busy") is None or p["other_busy"] >= 0):
        fails.append("canary pass %r: other_busy below 0" % p)
for k in keys:
    if not (can["median"].get(k, 0) > 0 and can["spread"].get(k, 0) >= 1):
        fails.append("canary: median or spread of %s missing" % k)

# A with a fixed canary, so that the ratios below are exact, and repeat
# medians 1% apart, so that the verdicts do not depend on this host's noise.
fixed = {"syscall_ns": 200.0, "l1_ns": 1.5, "llc_ns": 80.0}
a["context"]["noise"]["canary"]["median"] = dict(fixed)
for c in a["results"]:
    if c.get("status") == "ok":
        m = c["metrics"]["wall_ns"]["p50"]
        c["repeat_medians_ns"] = [m * (1 + 0.01 * i) for i in range(len(c["repeat_medians_ns"]))]
        c["wall_p50_ci95_ns"]["lo"] = min(c["repeat_medians_ns"])
        c["wall_p50_ci95_ns"]["hi"] = max(c["repeat_medians_ns"])
os.makedirs(work + "/base")
json.dump(a, open(work + "/base/results.json", "w"))

def scaled(name, cells, canary):
    b = copy.deepcopy(a)
    for c in b["results"]:
        if c.get("status") != "ok":
            continue
        c["repeat_medians_ns"] = [v * cells for v in c["repeat_medians_ns"]]
        for key in ("lo", "hi"):
            c["wall_p50_ci95_ns"][key] *= cells
        m = c["metrics"]["wall_ns"]
        for key in ("p10", "p50", "p90", "p99", "mean", "min", "max", "stddev"):
            if isinstance(m.get(key), (int, float)):
                m[key] *= cells
    if canary is None:
        del b["context"]["noise"]["canary"]
    else:
        b["context"]["noise"]["canary"]["median"] = {k: v * canary for k, v in fixed.items()}
    os.makedirs(work + "/" + name)
    json.dump(b, open(work + "/" + name + "/results.json", "w"))
    return work + "/" + name

def verdicts(other):
    out = subprocess.run([bin, "compare", "--json", work + "/base", other], capture_output=True,
                         text=True, timeout=120)
    if out.returncode != 0:
        fails.append("compare %s: exit %d: %s" % (other, out.returncode, out.stderr.strip()))
        return [], {}
    doc = json.loads(out.stdout)["comparison"]
    vs = []
    for cell in doc["cells"]:
        for ch in cell["change"]:
            vs.append((cell["backend"], cell["nfds"], ch["verdict"], ch.get("reason")))
    return vs, doc["inputs"][1]["canary"]

for name, cells, canary, want in (("level", 2.0, 2.0, "host level"), ("code", 2.0, 1.0, "slower"),
                                  ("beyond", 3.0, 1.3, "slower"), ("old", 2.0, None, "slower")):
    vs, lvl = verdicts(scaled(name, cells, canary))
    if not vs:
        fails.append("%s: no cell compared" % name)
    for b, n, v, why in vs:
        if v != want:
            fails.append("%s (cells x%g, canary x%s): %s N=%s is %r, not %r (%s)"
                         % (name, cells, canary, b, n, v, want, why))
        elif want == "host level" and "host's level differs: canary syscall +100%" not in (why or ""):
            fails.append("%s: the reason does not name the level: %r" % (name, why))
    if canary is not None and abs(lvl["ratio_to_first"]["llc_ns"] - canary) > 1e-9:
        fails.append("%s: ratio_to_first %r, not %g" % (name, lvl["ratio_to_first"], canary))
    if canary is not None and lvl["level_differs"] != (canary != 1.0):
        fails.append("%s: level_differs %r" % (name, lvl["level_differs"]))
if fails:
    print("FAIL: " + "\n  ".join(fails))
    sys.exit(1)
print("canary recorded per pass; compare calls a shift the canary explains host level, no more")
PY
