#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""level-check.py - what pooling runs and the host-level canary are worth on this host.

Makes Q identical runs one after another on a quiet host, then S more with a
memory-heavy job beside each (a process copying a 64 MiB buffer in a loop, on
the other CPU), all with the same options, then measures:

  pooled A/A   `muxprof compare --pool K` of disjoint groups of K quiet runs
               against K others (K = 4 and 8 where Q allows; 10 random splits of
               the quiet runs, fixed seed): the share of shared cells flagged
               (slower or faster), and the share called "host level" (a change
               compare puts down to the groups' canaries)
  power        the same groups with the second group's times scaled by SHIFT
               (1.10: ten percent slower): the share of cells called slower, and
               the share called "host level"
  single       single quiet runs against single loaded ones (pairs q_i, s_i):
               cells flagged, cells "host level" (the canary explains the
               change) and the canary's shift per pair
  divide       per cell, the run-to-run coefficient of variation of the
               median over all Q + S runs, and of the median divided by the
               run's canary (syscall, and LLC chase): does dividing narrow it?

Targets (issue text, the defaults): pooled A/A flags <= 5%; single runs with
a loaded host flagged (slower/faster) in <= 5% of cells, the level named.

  scripts/level-check.py --out DIR [--bin PATH] [--quiet-runs Q (16)] [--loaded-runs S (8)]
                         [--shift 1.10] [-- RUN OPTIONS]
  scripts/level-check.py --from DIR [--bin PATH] [--shift 1.10]   (DIR is only read)

RUN OPTIONS default to a small sweep: ready mode, select/poll/epoll at N = 10, 100, 1,000,
9 repeats of 200 calls, no counters.  --out DIR must be new: an existing DIR is
refused (exit 1 when it is a symbolic link, another user's or writable by group
or others, else 2).  Exit 0 when the measurements were made (whatever
they found), 1 when a run or compare failed, 2 for a usage error."""
import copy
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from outdir import outdir  # noqa: E402
from runfile import load_json  # noqa: E402
from runs import noise_text, split_run_options  # noqa: E402

DEFAULT_OPTS = ["--mode", "ready", "--backends", "select,poll,epoll", "--fds", "10,100,1000",
                "--repeats", "9", "--samples", "200", "--events", "none"]
SPLITS = 10   # random splits of the quiet runs per group size
HOG = "b = bytearray(64 << 20)\nwhile True:\n    c = bytes(b)\n"


def usage(msg):
    sys.stderr.write("level-check.py: %s\nusage: scripts/level-check.py --out DIR | --from DIR "
                     "[--bin PATH] [--quiet-runs Q] [--loaded-runs S] [--shift X] "
                     "[-- RUN OPTIONS]\n" % msg)
    sys.exit(2)


def parse(argv):
    own, run_opts = split_run_options(argv)
    a = {"out": None, "from": None, "bin": "build/bin/muxprof", "q": 16, "s": 8, "shift": 1.10}
    i = 0
    while i < len(own):
        k = own[i]
        if k in ("-h", "--help"):
            try:
                print(__doc__)
            except BrokenPipeError:
                pass
            sys.exit(0)
        if i + 1 >= len(own):
            usage("%s needs a value" % k)
        v = own[i + 1]
        try:
            if k == "--out":
                a["out"] = v
            elif k == "--from":
                a["from"] = v
            elif k == "--bin":
                a["bin"] = v
            elif k == "--quiet-runs":
                a["q"] = int(v)
            elif k == "--loaded-runs":
                a["s"] = int(v)
            elif k == "--shift":
                a["shift"] = float(v)
            else:
                usage("unknown option %s" % k)
        except ValueError:
            usage("%s %s is not a number" % (k, v))
        i += 2
    if bool(a["out"]) == bool(a["from"]):
        usage("give --out DIR (make the runs) or --from DIR (read them), one of the two")
    if a["q"] < 8 or a["s"] < 1 or not (a["shift"] > 1):
        usage("--quiet-runs at least 8, --loaded-runs at least 1, --shift above 1")
    if a["out"]:
        outdir("level-check.py", a["out"], make=False)
        if os.path.lexists(a["out"]):
            usage("--out %s exists: give a new directory" % a["out"])
    return a, run_opts or DEFAULT_OPTS


def run(binary, out, opts, wait=True):
    """A run; wait=False measures at once (beside the copy, on purpose)."""
    subprocess.run([binary, "run", "--no-plots", "--quiet", "--out", out] + opts
                   + ([] if wait else ["--no-wait"]),
                   stdout=subprocess.DEVNULL, check=True, timeout=600)


def make_runs(a, opts):
    a["out"] = outdir("level-check.py", a["out"])
    for i in range(a["q"]):
        run(a["bin"], "%s/q%02d" % (a["out"], i), opts)
    for i in range(a["s"]):
        hog = subprocess.Popen([sys.executable, "-c", HOG])
        try:
            time.sleep(1)   # the hog's buffer made and copying
            run(a["bin"], "%s/s%02d" % (a["out"], i), opts, wait=False)
        finally:
            hog.kill()
            hog.wait(timeout=10)


def runs_in(d, prefix):
    return sorted(os.path.join(d, x) for x in os.listdir(d) if x.startswith(prefix)
                  and os.path.lexists(os.path.join(d, x, "results.json")))


def compare(binary, args):
    out = subprocess.run([binary, "compare", "--json"] + args, capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        raise RuntimeError("compare %s: exit %d: %s" % (" ".join(args), out.returncode,
                                                       out.stderr.strip()))
    return json.loads(out.stdout)["comparison"]


def verdicts(doc):
    return [ch["verdict"] for c in doc["cells"] for ch in c["change"]]


def scaled_copy(src, dst, factor):
    d = load_json("level-check.py", os.path.join(src, "results.json"))
    for c in d["results"]:
        if c.get("status") != "ok":
            continue
        c["repeat_medians_ns"] = [v * factor if isinstance(v, (int, float)) else v
                                  for v in c.get("repeat_medians_ns", [])]
        for k in ("lo", "hi"):
            if isinstance((c.get("wall_p50_ci95_ns") or {}).get(k), (int, float)):
                c["wall_p50_ci95_ns"][k] *= factor
        for k, v in c["metrics"]["wall_ns"].items():
            if k in ("p10", "p50", "p90", "p99", "mean", "min", "max", "stddev") and \
                    isinstance(v, (int, float)):
                c["metrics"]["wall_ns"][k] = v * factor
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, "results.json"), "w") as f:
        json.dump(d, f)
    return dst


def share(vs, which):
    return sum(v in which for v in vs), len(vs)


def pct(k, n):
    return "%d of %d (%.1f%%)" % (k, n, 100.0 * k / n) if n else "none"


def main():
    a, opts = parse(sys.argv[1:])
    d = a["out"] or a["from"]
    if a["out"]:
        make_runs(a, opts)
    q, s = runs_in(d, "q"), runs_in(d, "s")
    if len(q) < 8:
        usage("%s holds %d quiet runs (q*/results.json): at least 8 needed" % (d, len(q)))
    docs = [load_json("level-check.py", os.path.join(x, "results.json")) for x in q + s]
    print("runs: %d quiet, %d with a memory-heavy job beside; %s" % (len(q), len(s),
          noise_text(docs[:len(q)])))
    if s:
        print("loaded runs: %s" % noise_text(docs[len(q):]))
    flagged = ("slower", "faster")
    # The shifted copies go to a directory of this process's own (mkdtemp,
    # 0700, removed at the end), never into DIR: --from reads DIR only.
    with tempfile.TemporaryDirectory(prefix="level-check.") as scratch:
        report(a, q, s, docs, flagged, scratch)
    return 0


def report(a, q, s, docs, flagged, scratch):
    """What the runs show (the module's text), printed; shifted copies in scratch."""
    # pooled A/A and power
    rnd = random.Random(20261202)   # the same splits of the same runs every time
    for k in (4, 8):
        if len(q) < 2 * k:
            continue
        pairs = []
        for _ in range(SPLITS):   # random splits of the quiet runs into two groups of k
            order = rnd.sample(q, len(q))
            pairs += [(order[i:i + k], order[i + k:i + 2 * k])
                      for i in range(0, len(order) - 2 * k + 1, 2 * k)]
        aa, pw = [], []
        for g1, g2 in pairs:
            aa += verdicts(compare(a["bin"], ["--pool", str(k)] + g1 + g2))
            sh = [scaled_copy(x, os.path.join(scratch, os.path.basename(x)), a["shift"])
                  for x in g2]
            pw += verdicts(compare(a["bin"], ["--pool", str(k)] + g1 + sh))
        # "host level": compare saw a change and put it down to the canaries' shift
        print("pooled %d against %d (%d comparisons): A/A flagged %s, host level %s; a %+.0f%% "
              "shift called slower in %s, host level %s" % (
                  k, k, len(pairs), pct(*share(aa, flagged)), pct(*share(aa, ("host level",))),
                  (a["shift"] - 1) * 100, pct(*share(pw, ("slower",))),
                  pct(*share(pw, ("host level",)))))
    # single runs: quiet against loaded
    if s:
        single, level, shifts = [], [], []
        for x, y in zip(q, s):
            doc = compare(a["bin"], [x, y])
            vs = verdicts(doc)
            single += vs
            level += vs
            can = doc["inputs"][1].get("canary") or {}
            shifts.append(can.get("ratio_to_first") or {})
        print("single quiet run against single loaded run (%d pairs): flagged %s, host level "
              "%s" % (len(shifts), pct(*share(single, flagged)), pct(*share(level, ("host level",)))))
        for key in ("syscall_ns", "l1_ns", "llc_ns"):
            r = [x.get(key) for x in shifts if isinstance(x.get(key), (int, float))]
            if r:
                print("  canary %s loaded/quiet: median %.2f (%.2f to %.2f)" % (
                    key, statistics.median(r), min(r), max(r)))
    # does dividing by the canary narrow the run-to-run spread?
    cells = {}
    for doc in docs:
        can = ((doc.get("context") or {}).get("noise") or {}).get("canary") or {}
        med = can.get("median") or {}
        for c in doc["results"]:
            if c.get("status") != "ok":
                continue
            key = (c["mode"], c["fd_kind"], c["backend"], c["nfds"])
            cells.setdefault(key, []).append((c["metrics"]["wall_ns"]["p50"], med))

    def cv(v):
        return statistics.pstdev(v) / statistics.mean(v) if len(v) > 1 and statistics.mean(v) else float("nan")
    rows = []
    for key, v in sorted(cells.items()):
        plain = [m for m, _ in v]
        row = [cv(plain)]
        for ck in ("syscall_ns", "llc_ns"):
            div = [m / c[ck] for m, c in v if isinstance(c.get(ck), (int, float)) and c[ck] > 0]
            row.append(cv(div) if len(div) == len(v) else float("nan"))
        rows.append((key, row))
    print("run-to-run CV of each cell's median over all %d runs: plain / divided by the syscall "
          "canary / by the LLC canary" % len(docs))
    for key, row in rows:
        print("  %-6s %-5s %-6s %6d  %5.1f%%  %5.1f%%  %5.1f%%" % (key + tuple(x * 100 for x in row)))
    finite = [r for _, r in rows if all(math.isfinite(x) for x in r)]
    if finite:
        print("median CV: plain %.1f%%, / syscall %.1f%%, / LLC %.1f%%" % tuple(
            statistics.median(r[i] for r in finite) * 100 for i in range(3)))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, RuntimeError) as e:
        sys.stderr.write("level-check.py: %s\n" % e)
        sys.exit(1)
