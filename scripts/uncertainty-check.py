#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""uncertainty-check.py - are muxprof's intervals and compare's verdicts honest on this host?

Makes R identical runs one after another, then measures:

  coverage   for every cell of every run: does the run's 95% interval of the
             median (the cell's `wall_p50_ci95_ns`) contain the median of the
             R runs' medians (the "truth" as well as this host can give it),
             and how often does it contain another single run's median; the
             target is on ready cells, wakeup's are printed beside them
  A/A        `muxprof compare` of disjoint pairs of identical runs (r1 r2,
             r3 r4, ...): the share of shared cells it flags as changed
  power      the same pairs with the second run's times scaled by SHIFT
             (1.05: five percent slower, everything else equal): the share of
             cells flagged as a slowdown
  spread     per cell, the run-to-run coefficient of variation of the median
             and one run's interval half-width: the smallest shift two single
             runs can show with 80% power at 5% A/A, (1.96 + 0.84) sqrt(2) CV
  verdicts   the report's verdicts (`report --json`) in groups of four
             consecutive runs: the share the same in all four, contradictions

A cell is "flagged" when compare's change entry says significant and, where
compare gives a verdict, the verdict is not "within noise".  Targets (the
defaults): coverage of the all-runs median >= 90%, A/A flags <= 5%, power
>= 80%, every verdict the same in all four runs of a group.

  scripts/uncertainty-check.py --out DIR [--bin PATH] [--runs R (20)] [--shift 1.05]
                               [-- RUN OPTIONS]
  scripts/uncertainty-check.py --from DIR [--bin PATH] [--shift 1.05]

RUN OPTIONS are given to every run (default: none, muxprof run's default sweep,
about 15 s a run on a 2-core VM; a sweep much shorter than that puts all of a
cell's repeats in one level of a drifting host).  Writes DIR/runs/r01 ...,
DIR/compare/, DIR/uncertainty-check.md and .json.  DIR: new, or an empty
directory of yours that its group and others cannot write (a symbolic link,
another user's or a writable one is refused, exit 1).  A benchmark, not a test:
it takes minutes and its numbers depend on the host.  Exit: 0 every target
met; 3 a target missed; 1 a run, compare or report failed; 2 usage.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from outdir import outdir  # noqa: E402
from runfile import SAMPLES_MAX_BYTES, load_json, open_run_file  # noqa: E402
from runs import noise_text, split_run_options  # noqa: E402

DEFAULT_RUN = []   # muxprof run's defaults: the default sweep
VERDICT_GROUP = 4  # identical runs whose reports must give the same verdicts
RUN_LIMIT_S = 900
TARGET_COVERAGE = 0.90
TARGET_AA = 0.05
TARGET_POWER = 0.80
TARGET_VERDICTS = 1.0
# Per-cell fields holding times, scaled by --shift for the power check.  Fixed
# costs measured apart from the call (the empty bracket, the bare loop) are not.
TIME_FIELDS = ("repeat_medians_ns", "repeat_spread_ns", "wall_p50_ci95_ns")
TIME_METRICS = ("wall_ns", "wall_raw_ns")


def die(msg, code=1):
    print("uncertainty-check: " + msg, file=sys.stderr)
    sys.exit(code)


def call(cmd, what):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=RUN_LIMIT_S)
    except subprocess.TimeoutExpired:
        die("%s ran past %d s and was stopped" % (what, RUN_LIMIT_S))
    return r


def make_runs(out, binary, runs, extra):
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    for k in range(1, runs + 1):
        d = os.path.join(out, "runs", "r%02d" % k)
        cmd = [binary, "run", "--no-plots", "--quiet", "--out", d] + extra
        t0 = time.time()
        r = call(cmd, "run %d" % k)
        if r.returncode != 0:
            die("run %d failed (exit %d): %s" % (k, r.returncode,
                                                 r.stderr.decode(errors="replace").strip()[-400:]))
        print("uncertainty-check: run %d/%d took %.1f s" % (k, runs, time.time() - t0),
              file=sys.stderr)


def cell_key(c):
    return (c["mode"], c["fd_kind"], c["backend"], int(c["nfds"]), int(c.get("active", 1)),
            c.get("fd_table", "private"))


def key_name(k):
    return "%s %s %s N=%d" % (k[0], k[1], k[2], k[3])


def load_cells(path):
    doc = load_json("uncertainty-check", path)
    cells = {}
    for c in doc.get("results", []):
        p50 = (c.get("metrics", {}).get("wall_ns") or {}).get("p50")
        if c.get("status") == "ok" and isinstance(p50, (int, float)):
            cells[cell_key(c)] = c
    return doc, cells


def interval_of(c):
    iv = c.get("wall_p50_ci95_ns")
    if isinstance(iv, dict) and isinstance(iv.get("lo"), (int, float)) \
            and isinstance(iv.get("hi"), (int, float)):
        return iv["lo"], iv["hi"]
    return None


def coverage(runs, mode=None):
    keys = sorted(k for k in set().union(*[set(r) for r in runs]) if mode in (None, k[0]))
    rows, tot = [], {"grand": [0, 0], "other": [0, 0], "zero": 0, "cells": 0}
    for key in keys:
        have = [r[key] for r in runs if key in r]
        meds = [c["metrics"]["wall_ns"]["p50"] for c in have]
        if len(have) < 3:
            continue
        grand = statistics.median(meds)
        g = o = on = zero = n = 0
        for i, c in enumerate(have):
            iv = interval_of(c)
            if iv is None:
                continue
            lo, hi = iv
            n += 1
            zero += lo == hi
            g += lo <= grand <= hi
            for j, m in enumerate(meds):
                if j != i:
                    on += 1
                    o += lo <= m <= hi
        if n == 0:
            continue
        rows.append({"cell": key_name(key), "runs": n, "median_of_runs": grand,
                     "run_medians_min": min(meds), "run_medians_max": max(meds),
                     "covers_grand": g / n, "covers_other": o / on if on else None,
                     "zero_width": zero})
        tot["grand"][0] += g
        tot["grand"][1] += n
        tot["other"][0] += o
        tot["other"][1] += on
        tot["zero"] += zero
        tot["cells"] += n
    return rows, tot


def run_spread(runs, mode):
    """The run-to-run coefficient of variation of a cell's median (the median
    over cells) and one run's interval half-width over its median (the median
    over every cell of every run): how far identical runs move against how
    sure one run says it is."""
    keys = sorted(k for k in set().union(*[set(r) for r in runs]) if k[0] == mode)
    cv, half = [], []
    for key in keys:
        meds = [r[key]["metrics"]["wall_ns"]["p50"] for r in runs if key in r]
        if len(meds) < 3 or not statistics.mean(meds) > 0:
            continue
        cv.append(statistics.stdev(meds) / statistics.mean(meds))
        for r in runs:
            iv = interval_of(r[key]) if key in r else None
            if iv and r[key]["metrics"]["wall_ns"]["p50"] > 0:
                half.append((iv[1] - iv[0]) / 2 / r[key]["metrics"]["wall_ns"]["p50"])
    if not cv:
        return None
    c = statistics.median(cv)
    # Two runs' medians differ with a standard deviation of sqrt(2) cv; a
    # test that keeps A/A flags at 5% (|z| > 1.96) finds a shift with 80%
    # power only when it is (1.96 + 0.84) sqrt(2) cv or larger.
    return {"run_cv": c, "interval_half_width": statistics.median(half) if half else None,
            "detectable_shift": (1.96 + 0.84) * 2 ** 0.5 * c}


def run_verdicts(binary, run_dir):
    """The report's verdicts of one run, each under a key naming what it decides."""
    r = call([binary, "report", run_dir, "--json"], "report --json " + run_dir)
    if r.returncode != 0:
        die("report --json %s failed (exit %d): %s" % (
            run_dir, r.returncode, r.stderr.decode(errors="replace").strip()[-400:]))
    doc = json.loads(r.stdout)
    v = {}
    for c in (doc.get("claims") or {}).get("checks") or []:
        v["claim %s, %s (seeds %s)" % (c.get("claim"), c.get("mode"), c.get("seeds"))] = \
            c.get("verdict")
    for s in doc.get("series") or []:
        name = "%s %s %s" % (s.get("mode"), s.get("fd_kind"), s.get("backend"))
        for ic in s.get("interval_costs") or []:
            v["%s cost %s->%s" % (name, ic.get("from_nfds"), ic.get("to_nfds"))] = \
                ic.get("verdict")
        # One verdict per neighbouring pair the report names: a knee, or a
        # knee not resolved; a pair a run does not name has no knee there.
        for what, said in (("knees", "knee"), ("knees_not_resolved", "not resolved")):
            for k in s.get(what) or []:
                v["%s knee %s-%s" % (name, k.get("from_nfds"), k.get("to_nfds"))] = said
    return v


def said(v, key):
    """What run verdicts v say of key: a pair the run names no knee at has
    none; anything else a run does not decide is "(none)"."""
    x = v.get(key)
    if x is None:
        return "no knee" if " knee " in key else "(none)"
    return str(x)


def contradicts(seen):
    """Two verdicts of one thing that cannot both be true: a cost that grows
    and falls, a knee and no knee, a claim that holds and does not hold
    ("holds in part" and "same order of magnitude" contradict neither)."""
    holds = any(x.startswith("holds") and x != "holds in part" for x in seen)
    fails = any(x.startswith("does not hold") for x in seen)
    return ({"grows", "falls"} <= seen or {"knee", "no knee"} <= seen or (holds and fails))


def verdict_check(binary, run_dirs):
    """Groups of VERDICT_GROUP consecutive runs: how many verdicts are the
    same in every run of a group, and how many contradict each other (runs
    after the last whole group are left out and named)."""
    per_run = [run_verdicts(binary, d) for d in run_dirs]
    groups, differ = [], {}
    for g in range(0, len(per_run) - VERDICT_GROUP + 1, VERDICT_GROUP):
        vs = per_run[g:g + VERDICT_GROUP]
        keys = sorted(set().union(*vs))
        same = contra = 0
        for k in keys:
            seen = set(said(v, k) for v in vs)
            if len(seen) == 1:
                same += 1
                continue
            differ.setdefault(k, set()).update(seen)
            contra += contradicts(seen)
        groups.append({"runs": "%d-%d" % (g + 1, g + VERDICT_GROUP), "verdicts": len(keys),
                       "same": same, "contradictions": contra})
    left = len(per_run) % VERDICT_GROUP
    left_out = [os.path.basename(d) for d in run_dirs[len(run_dirs) - left:]] if left else []
    return groups, {k: sorted(s) for k, s in sorted(differ.items())}, left_out


def scaled_copy(src, dst, shift):
    """A copy of run directory src in dst with every per-call time multiplied by shift."""
    os.makedirs(dst, exist_ok=True)
    doc = load_json("uncertainty-check", os.path.join(src, "results.json"))

    def scale(v):
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, (int, float)):
            return v * shift
        if isinstance(v, list):
            return [scale(x) for x in v]
        if isinstance(v, dict):
            return {k: (scale(x) if k in ("lo", "hi", "median", "min", "max") else x)
                    for k, x in v.items()}
        return v

    for c in doc.get("results", []):
        for f in TIME_FIELDS:
            if f in c:
                c[f] = scale(c[f])
        for m in TIME_METRICS:
            mo = (c.get("metrics") or {}).get(m)
            if isinstance(mo, dict):
                for k in ("p10", "p50", "p90", "p99", "mean", "min", "max", "stddev"):
                    if isinstance(mo.get(k), (int, float)):
                        mo[k] *= shift
    with open(os.path.join(dst, "results.json"), "w") as f:
        json.dump(doc, f)
    src_csv = os.path.join(src, "samples.csv")
    if os.path.lexists(src_csv):
        with open_run_file("uncertainty-check", src_csv, SAMPLES_MAX_BYTES) as f, \
                open(os.path.join(dst, "samples.csv"), "w") as g:
            head = f.readline()
            g.write(head)
            cols = head.strip().split(",")
            tcols = [i for i, n in enumerate(cols) if n.endswith("_ns") and n != "wake_delay_ns"]
            for line in f:
                v = line.rstrip("\n").split(",")
                for i in tcols:
                    if i < len(v) and v[i] not in ("", "null"):
                        v[i] = repr(float(v[i]) * shift)
                g.write(",".join(v) + "\n")


def flagged(ch):
    v = ch.get("verdict")
    if v is not None:
        return v not in ("within noise", "not testable", "same")
    return bool(ch.get("significant"))


def compare(binary, a, b, label):
    r = call([binary, "compare", a, b, "--json"], "compare " + label)
    if r.returncode != 0:
        die("compare %s failed (exit %d): %s" % (label, r.returncode,
                                               r.stderr.decode(errors="replace").strip()[-400:]))
    doc = json.loads(r.stdout)
    out = []
    for c in doc["comparison"]["cells"]:
        for ch in c.get("change", []):
            out.append((c, ch))
    return doc, out


def pairs_check(out, binary, run_dirs, shift):
    aa = {"flagged": 0, "cells": 0, "flagged_cells": []}
    pw = {"flagged": 0, "slower": 0, "cells": 0}
    cmpdir = os.path.join(out, "compare")
    os.makedirs(cmpdir, exist_ok=True)
    method = None
    for i in range(0, len(run_dirs) - 1, 2):
        a, b = run_dirs[i], run_dirs[i + 1]
        label = "%s/%s" % (os.path.basename(a), os.path.basename(b))
        doc, chs = compare(binary, a, b, label)
        method = doc["comparison"].get("test", {}).get("name", method)
        for c, ch in chs:
            if ch.get("testable") is False:
                continue
            aa["cells"] += 1
            if flagged(ch):
                aa["flagged"] += 1
                aa["flagged_cells"].append("%s: %s %s %s N=%s %+.1f%%" % (
                    label, c["mode"], c["fd_kind"], c["backend"], c["nfds"],
                    ch.get("change_pct") or 0))
        sdir = os.path.join(cmpdir, os.path.basename(b) + "-x%g" % shift)
        if os.path.exists(sdir):
            shutil.rmtree(sdir)
        scaled_copy(b, sdir, shift)
        _, chs = compare(binary, a, sdir, label + " x%g" % shift)
        for c, ch in chs:
            if ch.get("testable") is False:
                continue
            pw["cells"] += 1
            if flagged(ch):
                pw["flagged"] += 1
                pw["slower"] += (ch.get("change_pct") or 0) > 0
    return aa, pw, method


def share(k, n):
    return None if n == 0 else k / n


def pct(x):
    return "n/a" if x is None else "%.1f%%" % (x * 100)


def write(out, res):
    tmp = os.path.join(out, ".uncertainty-check.json.tmp")
    with open(tmp, "w") as f:
        json.dump(res, f, indent=1)
    os.replace(tmp, os.path.join(out, "uncertainty-check.json"))
    t = res["totals"]
    lines = ["# Uncertainty check: %d identical runs" % res["runs"], "",
             "Run options: `%s`; host: %s." % (" ".join(res["run_options"]), res["noise"]), "",
             "| check | measured | target | |", "|---|---:|---:|---|",
             "| intervals covering the median of all runs | %s | >= %s | %s |" % (
                 pct(t["coverage_grand"]), pct(TARGET_COVERAGE),
                 "" if "ready" in res["by_mode"] else res["ok"]["coverage"])]
    for mode, b in res["by_mode"].items():
        lines.append("| ... %s cells | %s | %s | %s |" % (
            mode, pct(b["coverage_grand"]), ">= " + pct(TARGET_COVERAGE) if mode == "ready"
            else "", res["ok"]["coverage"] if mode == "ready" else ""))
    lines += ["| intervals covering another run's median | %s | | |" % pct(t["coverage_other"]),
              "| zero-width intervals | %d of %d | | |" % (t["zero_width"], t["intervals"]),
              "| A/A cells flagged by compare | %s (%d of %d) | <= %s | %s |" % (
                  pct(t["aa_rate"]), res["aa"]["flagged"], res["aa"]["cells"], pct(TARGET_AA),
                  res["ok"]["aa"]),
              "| cells flagged with one side x%g | %s (%d of %d) | >= %s | %s |" % (
                  res["shift"], pct(t["power"]), res["power"]["slower"], res["power"]["cells"],
                  pct(TARGET_POWER), res["ok"]["power"]),
              "| verdicts the same in every run of a group of %d | %s | %s | %s |" % (
                  VERDICT_GROUP, pct(t["verdicts_same"]), pct(TARGET_VERDICTS),
                  res["ok"]["verdicts"]),
              "| verdicts contradicting another run's in its group | %d | 0 | %s |" % (
                  t["contradictions"], res["ok"]["contradictions"])]
    lines += ["", "How far identical runs move, per cell (median over cells): the run-to-run "
              "coefficient of variation of the median, one run's interval half-width over its "
              "median, and the smallest shift a comparison of two single runs can find with 80% "
              "power while flagging 5% of identical pairs, (1.96 + 0.84) x sqrt(2) x CV:", "",
              "| mode | run-to-run CV | interval half-width | smallest shift found |",
              "|---|---:|---:|---:|"]
    for mode, b in res["by_mode"].items():
        sp = b["spread"] or {}
        lines.append("| %s | %s | %s | %s |" % (mode, pct(sp.get("run_cv")),
                                               pct(sp.get("interval_half_width")),
                                               pct(sp.get("detectable_shift"))))
    lines += ["", "| runs | verdicts | the same in all %d | contradictions |" % VERDICT_GROUP,
              "|---|---:|---:|---:|"]
    for g in res["verdict_groups"]:
        lines.append("| %s | %d | %d | %d |" % (g["runs"], g["verdicts"], g["same"],
                                               g["contradictions"]))
    if res["verdict_runs_left_out"]:
        lines += ["", "Left out of the groups (fewer than %d after the last): %s." % (
            VERDICT_GROUP, ", ".join(res["verdict_runs_left_out"]))]
    if res["verdicts_differing"]:
        lines += ["", "Verdicts that differ between runs of a group (what they were):", ""]
        for k, seen in res["verdicts_differing"].items():
            lines.append("- %s: %s" % (k, "; ".join(seen)))
    lines += [
             "", "compare's test: %s." % (res["compare_test"] or "not given"), "",
             "| cell | runs | median of runs | run medians | covers median of runs | "
             "covers another run | zero width |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in res["cells"]:
        lines.append("| %s | %d | %.0f | %.0f..%.0f | %s | %s | %d |" % (
            r["cell"], r["runs"], r["median_of_runs"], r["run_medians_min"],
            r["run_medians_max"], pct(r["covers_grand"]), pct(r["covers_other"]),
            r["zero_width"]))
    text = "\n".join(lines) + "\n"
    tmp = os.path.join(out, ".uncertainty-check.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(out, "uncertainty-check.md"))
    return text


def main():
    argv, extra = split_run_options(sys.argv[1:])
    ap = argparse.ArgumentParser(prog="scripts/uncertainty-check.py",
                                 description="coverage of muxprof's intervals and compare's "
                                 "false-positive rate and power over identical runs")
    ap.add_argument("--out", help="new directory for the runs and the result (with --from: "
                    "for the result only)")
    ap.add_argument("--from", dest="src", help="analyse the runs already in this directory "
                    "(its runs/ are only read; the result goes into it without --out, so it must "
                    "then be yours and not writable by group or others)")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "build", "bin", "muxprof"))
    ap.add_argument("--runs", type=int, default=20, help="identical runs [20]; at least 4")
    ap.add_argument("--shift", type=float, default=1.05,
                    help="factor on the second run's times for the power check [1.05]")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    if not args.out and not args.src:
        die("give --out DIR (make the runs) or --from DIR [--out DIR2] (analyse them)", 2)
    if args.src and (extra or "--runs" in argv):
        die("--from analyses the runs it finds: --runs and run options are for --out alone", 2)
    if args.runs < 4:
        die("--runs must be at least 4 (two compare pairs)", 2)
    if not 1 < args.shift < 2:
        die("--shift is a factor between 1 and 2 (1.05 is 5% slower)", 2)
    if args.out:
        outdir("uncertainty-check", args.out, make=False)
    else:   # the result goes into DIR itself: it must be a directory to trust
        outdir("uncertainty-check", args.src, option="--from", make=False)
    if not os.access(args.bin, os.X_OK):
        die("no muxprof at %s: build it (scripts/setup.sh) or give --bin" % args.bin, 1)
    out = args.out or args.src
    if args.out:
        if os.path.exists(out) and os.listdir(out):
            die("%s exists and is not empty: give a new directory" % out, 2)
        out = outdir("uncertainty-check", out)
    if not args.src:
        make_runs(out, args.bin, args.runs, extra or DEFAULT_RUN)
    runs_dir = os.path.join(args.src or out, "runs")
    if not os.path.isdir(runs_dir):
        die("%s has no runs/ directory" % out, 2)
    names = sorted(n for n in os.listdir(runs_dir)
                   if os.path.lexists(os.path.join(runs_dir, n, "results.json")))
    if len(names) < 4:
        die("%s holds %d runs; at least 4 are needed" % (runs_dir, len(names)), 2)
    dirs = [os.path.join(runs_dir, n) for n in names]
    loaded = [load_cells(os.path.join(d, "results.json")) for d in dirs]
    cells = [c for _, c in loaded]
    rows, tot = coverage(cells)
    by_mode = {}
    for mode in ("ready", "wakeup"):
        _, t = coverage(cells, mode)
        if t["cells"]:
            by_mode[mode] = {"coverage_grand": share(*t["grand"]),
                             "coverage_other": share(*t["other"]), "intervals": t["cells"],
                             "spread": run_spread(cells, mode)}
    aa, pw, method = pairs_check(out, args.bin, dirs, args.shift)
    groups, differ, left_out = verdict_check(args.bin, dirs)
    opts = (loaded[0][0].get("context") or {}).get("command") or extra or DEFAULT_RUN
    if isinstance(opts, str):   # the command as run, less the run's own --out DIR
        opts = re.sub(r" --out \S+", "", opts)
    totals = {"coverage_grand": share(*tot["grand"]), "coverage_other": share(*tot["other"]),
              "zero_width": tot["zero"], "intervals": tot["cells"],
              "aa_rate": share(aa["flagged"], aa["cells"]),
              "power": share(pw["slower"], pw["cells"]),
              "verdicts_same": share(sum(g["same"] for g in groups),
                                     sum(g["verdicts"] for g in groups)),
              "contradictions": sum(g["contradictions"] for g in groups)}
    # The coverage target is on ready cells (wakeup's are printed beside
    # them); a sweep with no ready cell is held to all of its cells.
    cov = (by_mode.get("ready") or totals)["coverage_grand"]
    ok = {"coverage": cov is not None and cov >= TARGET_COVERAGE,
          "aa": totals["aa_rate"] is not None and totals["aa_rate"] <= TARGET_AA,
          "power": totals["power"] is not None and totals["power"] >= TARGET_POWER,
          "verdicts": totals["verdicts_same"] is not None
          and totals["verdicts_same"] >= TARGET_VERDICTS,
          "contradictions": bool(groups) and totals["contradictions"] == 0}
    res = {"runs": len(dirs), "run_options": opts if isinstance(opts, list) else [str(opts)],
           "shift": args.shift, "noise": noise_text([d for d, _ in loaded]) or "not recorded",
           "compare_test": method, "totals": totals, "by_mode": by_mode,
           "ok": {k: "met" if v else "missed" for k, v in ok.items()},
           "aa": aa, "power": pw, "verdict_groups": groups, "verdicts_differing": differ,
           "verdict_runs_left_out": left_out,
           "cells": rows}
    sys.stdout.write(write(out, res))
    sys.exit(0 if all(ok.values()) else 3)


if __name__ == "__main__":
    main()
