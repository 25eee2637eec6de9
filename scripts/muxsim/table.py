#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""table.py DIR - the per-call table of a scripts/muxsim.sh run: DIR/cells.txt
(backend, N, the loop's exit status, in the order the guest ran them) matched
in order to the plugin's cells in DIR/muxsim.tsv (one per loop that reached
its calls), p50 per call (user + kernel) with p10..p90 for the L1d.
Exit status 1 when the two lists do not match."""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from muxsim_cells import loops  # noqa: E402


def load(d):
    runs = loops(d, ok_only=False)
    with open(d + "/muxsim.tsv") as f:
        head = f.readline().strip()
        rows = list(csv.DictReader(f, delimiter="\t"))
    cells = {}
    for r in rows:
        cells.setdefault(int(r["cell"]), {})[(r["event"], r["priv"])] = r
    ok = [r for r in runs if r[2] == 0]
    if len(ok) != len(cells):
        sys.exit("table.py: %d loops succeeded but the plugin saw %d cells" % (len(ok), len(cells)))
    return head, [(b, n, cells[i]) for i, (b, n, _) in enumerate(ok)], [r for r in runs if r[2]]


def main():
    d = sys.argv[1]
    head, cells, failed = load(d)
    cols = [("instructions", "instructions"), ("L1d loads", "L1-dcache-loads"),
            ("L1d load misses [p10, p90]", "L1-dcache-load-misses"),
            ("L1d misses", "L1-dcache-misses"), ("L2 misses", "L2-misses"),
            ("L3 (LLC) misses", "L3-misses"), ("LLC-load-misses", "LLC-load-misses"),
            ("dTLB misses", "dTLB-misses"), ("dTLB walks", "dTLB-walks"),
            ("iTLB misses", "iTLB-misses")]
    print("Simulated, per call (p50 of the kept calls; user + kernel): " + head.lstrip("# "))
    print()
    print("| backend | N | calls kept | " + " | ".join(c[0] for c in cols) + " | kernel share of L1d misses |")
    print("|---|---:|---:|" + "---:|" * len(cols) + "---:|")
    for b, n, c in cells:
        out = []
        for label, ev in cols:
            r = c[(ev, "all")]
            v = "%.1f" % float(r["p50"])
            if label.startswith("L1d load misses"):
                v += " [%.1f, %.1f]" % (float(r["p10"]), float(r["p90"]))
            out.append(v)
        k = float(c[("L1-dcache-misses", "kernel")]["mean"])
        a = float(c[("L1-dcache-misses", "all")]["mean"])
        share = "%.0f%%" % (100 * k / a) if a else "-"
        print("| %s | %d | %s | %s | %s |" % (b, n, c[("instructions", "all")]["kept"], " | ".join(out), share))
    for b, n, rc in failed:
        print("\n%s at N = %d: the loop failed (exit %d; guest/loop-%s-%d.log)" % (b, n, rc, b, n))


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    main()
