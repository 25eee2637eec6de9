#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bias-check.py - does asking for wakeup cells change the ready cells?

The measuring process is part of the measurement: a run with wakeup mode
needs a poker, and a poker that shares the descriptor table (a thread)
makes every fd lookup of a ready-mode call take a reference.  This script
measures whether `muxprof run --mode ready,wakeup` gives the same ready
cells as `muxprof run --mode ready` on this host, with a control for how
well this host agrees with itself.

Runs, alternated so that drift hits both kinds alike:

    A0 B1 A1 B2 A2 ... BK AK      A: --mode ready   B: --mode ready,wakeup

For every ready cell (backend, fd kind, N, fd table, active):
  B/A   each B's p50 over the mean p50 of the two A runs around it
  A/A   each inner A's p50 over the mean of the two A runs around it: the
        same ratio with no difference between the runs (the control)
The median of each, with a distribution-free interval of the median from
order statistics (the widest pair whose binomial coverage is at least
95%; 6 ratios at least).  Neighbouring ratios share an A run, so they are
not independent and the interval is approximate.  Verdict on B/A against
a tolerance (5%):
  agree      the interval lies inside 1 +- tolerance
  differ     the interval lies wholly outside it
  undecided  neither (the host's noise is too large for this many pairs),
             fewer than 6 pairs, or the A/A control itself differs
Every ready cell must also say process_threads 1 (fd_table private).

  scripts/bias-check.py --out DIR [--bin PATH] [--pairs K (100)] [--tolerance 0.05]
                        [-- RUN OPTIONS]
  scripts/bias-check.py --from DIR      (analyse the runs already in DIR)

RUN OPTIONS replace the default `--backends poll,epoll --fds 10,1000
--samples 200 --repeats 3`.  Writes DIR/runs/{A0,B1,...}/, DIR/bias-check.md
and DIR/bias-check.json.  DIR: new, or an empty directory of yours that its
group and others cannot write (a symbolic link, another user's or a writable
one is refused, exit 1).  Exit: 0 every cell agrees and every ready cell ran
with one thread; 3 some cell differs, is undecided, or had more threads;
1 a run failed; 2 usage.
"""
import argparse
import json
import os
import math
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from outdir import outdir  # noqa: E402
from runfile import load_json  # noqa: E402
from runs import noise_text, split_run_options  # noqa: E402

DEFAULT_RUN = ["--backends", "poll,epoll", "--fds", "10,1000", "--samples", "200",
               "--repeats", "3"]
RUN_LIMIT_S = 900
LEVEL = 0.95
MIN_PAIRS = 6   # the fewest ratios whose extremes bound the median at LEVEL
SHOW_CELLS = 10  # cells listed by name in bias-check.md when the thread check fails


def die(msg, code=1):
    print("bias-check: " + msg, file=sys.stderr)
    sys.exit(code)


def run_names(pairs):
    names = ["A0"]
    for i in range(1, pairs + 1):
        names += ["B%d" % i, "A%d" % i]
    return names


def make_runs(out, binary, pairs, extra):
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    names = run_names(pairs)
    for k, name in enumerate(names):
        mode = "ready" if name[0] == "A" else "ready,wakeup"
        d = os.path.join(out, "runs", name)
        cmd = [binary, "run", "--mode", mode, "--events", "none", "--no-plots", "--quiet",
               "--out", d] + extra
        t0 = time.time()
        print("bias-check: run %d/%d %s: %s" % (k + 1, len(names), name, " ".join(cmd)),
              file=sys.stderr)
        try:
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=RUN_LIMIT_S)
        except subprocess.TimeoutExpired:
            die("%s ran past %d s and was stopped" % (name, RUN_LIMIT_S))
        if r.returncode != 0:
            die("%s failed (exit %d): %s" % (name, r.returncode,
                                               r.stderr.decode(errors="replace").strip()[-400:]))
        print("bias-check: %s took %.0f s" % (name, time.time() - t0), file=sys.stderr)


def ready_cells(path):
    """{(backend, fd_kind, nfds, fd_table, active): cell} of the ok ready cells of one run
    (cells missing from a run, or not ok in it, are simply absent)."""
    doc = load_json("bias-check", path)
    cells = {}
    for c in doc.get("results", []):
        if c.get("mode") != "ready" or c.get("status") != "ok":
            continue
        p50 = (c.get("metrics", {}).get("wall_ns") or {}).get("p50")
        if isinstance(p50, (int, float)) and p50 > 0:
            cells[(c["backend"], c["fd_kind"], int(c["nfds"]), c.get("fd_table", "private"),
                   int(c.get("active", 1)))] = c
    return cells


def median_ci(xs):
    """Median of xs and an interval of it from order statistics: [x(k), x(n+1-k)] with the
    largest k whose coverage 1 - 2 P(Bin(n, 1/2) < k) is at least LEVEL; the interval is
    None when no k >= 1 reaches it (fewer than 6 values)."""
    xs = sorted(xs)
    n = len(xs)
    cdf, k = 0.0, 0
    while True:   # cdf = P(Bin(n, 1/2) <= k)
        nxt = cdf + math.comb(n, k) / 2 ** n
        if 1 - 2 * nxt < LEVEL or k + 1 > n // 2:
            break
        cdf, k = nxt, k + 1
    if k == 0:
        return statistics.median(xs), None, None
    return statistics.median(xs), xs[k - 1], xs[n - k]


def verdict(lo, hi, tol):
    if lo is None:
        return "undecided"
    if 1 - tol <= lo and hi <= 1 + tol:
        return "agree"
    if lo > 1 + tol or hi < 1 - tol:
        return "differ"
    return "undecided"


def analyse(out, tol):
    runs_dir = os.path.join(out, "runs")
    a, b = {}, {}
    for name in os.listdir(runs_dir):
        path = os.path.join(runs_dir, name, "results.json")
        if name[:1] in "AB" and name[1:].isdigit() and os.path.lexists(path):
            (a if name[0] == "A" else b)[int(name[1:])] = ready_cells(path)
    pairs = sorted(i for i in b if i - 1 in a and i in a)
    if not pairs:
        die("no B run in %s with an A run on both sides (want runs/A0, B1, A1, ...)"
            % runs_dir)
    keys = sorted(set().union(*[set(a[i]) for i in a], *[set(b[i]) for i in b]))
    rows, threads_bad = [], []
    for run in [("A%d" % i, a[i]) for i in sorted(a)] + [("B%d" % i, b[i]) for i in sorted(b)]:
        for key, c in run[1].items():
            if key[3] == "private" and c.get("process_threads") != 1:
                threads_bad.append("%s %s/%s/N=%d: process_threads %s, fd_table %s" % (
                    run[0], key[0], key[1], key[2], c.get("process_threads", "not recorded"),
                    c.get("fd_table", "not recorded")))
    def p50(run, key):
        return run[key]["metrics"]["wall_ns"]["p50"]

    for key in keys:
        ba = [p50(b[i], key) / ((p50(a[i - 1], key) + p50(a[i], key)) / 2)
              for i in pairs if key in b[i] and key in a[i - 1] and key in a[i]]
        aa = [p50(a[i], key) / ((p50(a[i - 1], key) + p50(a[i + 1], key)) / 2)
              for i in sorted(a) if i - 1 in a and i + 1 in a
              and all(key in a[j] for j in (i - 1, i, i + 1))]
        m, lo, hi = median_ci(ba) if ba else (None, None, None)
        am, alo, ahi = median_ci(aa) if aa else (None, None, None)
        v = verdict(lo, hi, tol) if ba else "undecided"
        why = ""
        if len(ba) < MIN_PAIRS:
            why = "%d pair%s: fewer than %d" % (len(ba), "" if len(ba) == 1 else "s", MIN_PAIRS)
        elif verdict(alo, ahi, tol) == "differ":
            v, why = "undecided", "the A/A control differs"
        rows.append({"backend": key[0], "fd_kind": key[1], "nfds": key[2],
                     "fd_table": key[3], "active": key[4], "pairs": len(ba),
                     "b_over_a": ba, "median": m, "interval": [lo, hi],
                     "a_over_a": aa, "aa_median": am, "aa_interval": [alo, ahi],
                     "verdict": v, "why": why})
    return rows, threads_bad


def pct(x):
    return "n/a" if x is None else "%+.1f%%" % ((x - 1) * 100)


def interval(iv):
    return "n/a" if iv[0] is None else "%s .. %s" % (pct(iv[0]), pct(iv[1]))


def write(out, rows, threads_bad, tol, noise):
    res = {"tolerance": tol, "level": LEVEL, "interval": "order statistics of the median",
           "cells": rows, "threads_not_one": threads_bad, "noise": noise}
    tmp = os.path.join(out, ".bias-check.json.tmp")
    with open(tmp, "w") as f:
        json.dump(res, f, indent=1)
    os.replace(tmp, os.path.join(out, "bias-check.json"))
    lines = ["# Ready cells: `--mode ready,wakeup` (B) against `--mode ready` (A)", "",
             "Each B run's p50 over the mean p50 of the A runs on either side of it; A/A is each "
             "inner A run over the A runs on either side of it, the same ratio with nothing "
             "changed (how well this host agrees with itself). Medians of the ratios with "
             "distribution-free %g%% intervals from order statistics (neighbouring ratios "
             "share an A run, so the intervals are approximate); tolerance +-%g%%; fewer than "
             "%d pairs, or an A/A control that differs, leave a cell undecided."
             % (LEVEL * 100, tol * 100, MIN_PAIRS), "",
             "| backend | fd kind | N | fd table | pairs | B/A median | B/A interval | "
             "A/A median | A/A interval | verdict |",
             "|---|---|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s%s |" % (
            r["backend"], r["fd_kind"], format(r["nfds"], ","), r["fd_table"], r["pairs"],
            pct(r["median"]), interval(r["interval"]), pct(r["aa_median"]),
            interval(r["aa_interval"]), r["verdict"], " (%s)" % r["why"] if r["why"] else ""))
    lines.append("")
    if threads_bad:
        lines.append("Ready cells with a private descriptor table but not one thread in the "
                     "process:")
        lines += ["- " + t for t in threads_bad[:SHOW_CELLS]]
        if len(threads_bad) > SHOW_CELLS:
            lines.append("- and %d more (all in bias-check.json)" % (len(threads_bad) - SHOW_CELLS))
    else:
        lines.append("Every ready cell with a private descriptor table ran with "
                     "process_threads 1.")
    if noise:
        lines += ["", "Host during the runs: " + noise]
    text = "\n".join(lines) + "\n"
    tmp = os.path.join(out, ".bias-check.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(out, "bias-check.md"))
    return text


def noise_summary(out):
    docs = []
    runs_dir = os.path.join(out, "runs")
    for name in sorted(os.listdir(runs_dir)):
        path = os.path.join(runs_dir, name, "results.json")
        if os.path.lexists(path):
            docs.append(load_json("bias-check", path))
    return noise_text(docs)


def main():
    argv, extra = split_run_options(sys.argv[1:])
    ap = argparse.ArgumentParser(prog="scripts/bias-check.py",
                                 description="ready cells of --mode ready,wakeup against "
                                 "--mode ready, alternated, with an A/A control")
    ap.add_argument("--out", help="new directory for the runs and the verdict (or an empty one "
                    "of yours that group and others cannot write)")
    ap.add_argument("--from", dest="src", help="analyse the runs already in this directory "
                    "(the verdict is written into it: yours, not writable by group or others)")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "build", "bin", "muxprof"))
    ap.add_argument("--pairs", type=int, default=100,
                    help="B runs, each between two A runs [100]; at least %d" % MIN_PAIRS)
    ap.add_argument("--tolerance", type=float, default=0.05, help="agreement bound [0.05]")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    if bool(args.out) == bool(args.src):
        die("give --out DIR (make the runs) or --from DIR (analyse them), not both", 2)
    if args.pairs < MIN_PAIRS:
        die("--pairs must be at least %d (fewer cannot bound a median at %g%%)"
            % (MIN_PAIRS, LEVEL * 100), 2)
    if not 0 < args.tolerance < 1:
        die("--tolerance is a fraction between 0 and 1 (0.05 is 5%)", 2)
    out = args.src or args.out
    if args.out:
        outdir("bias-check", out, make=False)
        if os.path.exists(out) and os.listdir(out):
            die("%s exists and is not empty: give a new directory" % out, 2)
        if not os.access(args.bin, os.X_OK):
            die("no muxprof at %s: build it (scripts/setup.sh) or give --bin" % args.bin, 1)
        out = outdir("bias-check", out)
        make_runs(out, args.bin, args.pairs, extra or DEFAULT_RUN)
    else:   # the verdict goes into DIR itself: it must be a directory to trust
        out = outdir("bias-check", out, option="--from", make=False)
        if not os.path.isdir(os.path.join(out, "runs")):
            die("%s has no runs/ directory" % out, 2)
    rows, threads_bad = analyse(out, args.tolerance)
    sys.stdout.write(write(out, rows, threads_bad, args.tolerance, noise_summary(out)))
    ok = not threads_bad and rows and all(r["verdict"] == "agree" for r in rows)
    sys.exit(0 if ok else 3)


if __name__ == "__main__":
    main()
