#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_compare_pool.sh - compare --pool K: runs pooled per side, the run the
# unit of replication.  From one quick run, eight copies whose cell medians
# are set (side A: m x (1, 1.01, 1.02, 1.03); side B the same x 1.5, or
# x 1.0): pooled 4 against 4 the ratio is the runs' (1.5), the test is on the
# 4 run medians a side, every cell is "slower" (or "within noise" for
# identical sides), and --json says the replicate is the run, report.md's
# threshold line the pooled one (3%, no cell interval); a count that
# is not a multiple of K, the same run twice in a pool and a reference in a
# pool are usage errors (2).
#
#   tests/test_compare_pool.sh MUXPROF
set -u
bin=${1:?usage: test_compare_pool.sh MUXPROF}
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to edit the runs"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/muxprof-pool.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

timeout 120 "$bin" run --backends poll,epoll --mode ready --fds 10,100 --repeats 5 --samples 100 \
  --events none --no-plots --quiet --out "$work/r" >/dev/null 2>"$work/r.err" ||
  { echo "FAIL: the run failed: $(cat "$work/r.err")"; exit 1; }

python3 - "$work" "$bin" <<'PY'
import copy, json, os, subprocess, sys
work, bin = sys.argv[1], sys.argv[2]
fails = []
r = json.load(open(work + "/r/results.json"))

def make(name, factor):
    d = copy.deepcopy(r)
    for c in d["results"]:
        if c.get("status") != "ok":
            continue
        m = c["metrics"]["wall_ns"]["p50"] * factor
        c["metrics"]["wall_ns"]["p50"] = m
        c["repeat_medians_ns"] = [m for _ in c["repeat_medians_ns"]]
        c["wall_p50_ci95_ns"]["lo"] = c["wall_p50_ci95_ns"]["hi"] = m
    os.makedirs(work + "/" + name)
    json.dump(d, open(work + "/" + name + "/results.json", "w"))
    return work + "/" + name

a = [make("a%d" % j, 1 + 0.01 * j) for j in range(4)]
b = [make("b%d" % j, 1.5 * (1 + 0.01 * j)) for j in range(4)]
same = [make("s%d" % j, 1 + 0.01 * ((j + 2) % 4)) for j in range(4)]

def compare(*args):
    return subprocess.run([bin, "compare"] + list(args), capture_output=True, text=True,
                          timeout=120)

def changes(out):
    doc = json.loads(out.stdout)["comparison"]
    return doc, [(c["backend"], c["nfds"], ch) for c in doc["cells"] for ch in c["change"]]

out = compare("--pool", "4", "--json", *(a + b))
if out.returncode != 0:
    fails.append("pooled compare: exit %d: %s" % (out.returncode, out.stderr.strip()))
else:
    doc, chs = changes(out)
    if doc["test"].get("replicate") != "run" or doc["test"].get("runs_per_input") != 4:
        fails.append("test: %r" % doc["test"])
    if len(doc["inputs"]) != 2 or not doc["inputs"][0]["label"].endswith(", 4 runs"):
        fails.append("inputs: %r" % [i["label"] for i in doc["inputs"]])
    if not chs:
        fails.append("no cell compared")
    for be, n, ch in chs:
        if ch["verdict"] != "slower" or abs(ch["ratio"] - 1.5) > 1e-6 or ch["repeats_this"] != 4:
            fails.append("%s N=%s: %s ratio %s on %s runs" % (be, n, ch["verdict"], ch["ratio"],
                                                           ch["repeats_this"]))
        if not (ch["could_show_slower_pct"] > 0):
            fails.append("%s N=%s: no 'could show': %r" % (be, n, ch))
out = compare("--pool", "4", "--no-plots", "--out", work + "/pm", *(a + b))
md = open(work + "/pm/report.md").read() if out.returncode == 0 else ""
if "The threshold per cell: 3% (the runs are the replicates" not in md or \
        "the wider of the two cells' median intervals" in md or "or the cells' own noise" in md:
    fails.append("pooled report.md: its threshold line is not the pooled one (exit %d)"
                 % out.returncode)
out = compare("--pool", "4", "--json", *(a + same))
if out.returncode == 0:
    for be, n, ch in changes(out)[1]:
        if ch["verdict"] != "within noise":
            fails.append("identical sides: %s N=%s is %s" % (be, n, ch["verdict"]))
else:
    fails.append("identical sides: exit %d: %s" % (out.returncode, out.stderr.strip()))
for args, what in ((["--pool", "3"] + a + b, "8 runs in pools of 3"),
                   (["--pool", "4", a[0], a[1], a[2], a[0]] + b, "the same run twice"),
                   (["--pool", "2", a[0], "epyc-9354p"] + b[:2], "a reference in a pool"),
                   (["--pool", "1"] + a[:2], "--pool 1")):
    out = compare("--json", *args)
    if out.returncode != 2 or len(out.stderr.strip().splitlines()) != 1:
        fails.append("%s: exit %d, stderr %r" % (what, out.returncode, out.stderr))
if fails:
    print("FAIL: " + "\n  ".join(fails))
    sys.exit(1)
print("compare --pool: the runs' medians tested 4 against 4; bad pools refused")
PY
