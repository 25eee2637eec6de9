#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""functions.py DIR SYMBOLS - the kernel functions that hold each cell's
simulated misses, from a scripts/muxsim.sh run: DIR/functions.tsv (the
plugin's L1d, L2 and LLC-load misses per cell and instruction address, over
the kept calls) and SYMBOLS (the guest kernel's text symbols, /proc/kallsyms
of the same kernel booted with nokaslr: "ADDRESS TYPE NAME").  Each address
goes to the symbol at or below it; user addresses (top bit clear) are one
row, "(user space)".  Per call = the sum over the kept calls / their number.
Writes DIR/functions.json ({"cells": [{backend, nfds, kept, functions: the
top 15 by L1d misses per call, attributed_L1d_share: what the rows hold of
the cell's L1d misses in its kept calls}]}) and prints a table per cell.
Exit status 1 when a file is missing or the cells do not pair up."""
import bisect
import csv
import json
import os
import sys


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from muxsim_cells import loops  # noqa: E402

TOP = 15


def symbols(path):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in "tTwW":
                out.append((int(p[0], 16), p[2]))
    out.sort()
    return [a for a, _ in out], [n for _, n in out]


def main(d, syms):
    runs = loops(d)
    kept, l1d = {}, {}
    with open(os.path.join(d, "muxsim.tsv")) as f:
        f.readline()
        for r in csv.DictReader(f, delimiter="\t"):
            if r["event"] == "L1-dcache-misses" and r["priv"] == "all":
                kept[int(r["cell"])] = int(r["kept"])
                l1d[int(r["cell"])] = float(r["mean"]) * int(r["kept"])
    if len(kept) != len(runs):
        sys.exit("functions.py: %d loops succeeded but the plugin saw %d cells" % (len(runs), len(kept)))
    addrs, names = symbols(syms)
    if not addrs:
        sys.exit("functions.py: no text symbols in %s" % syms)
    acc = {}
    with open(os.path.join(d, "functions.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            c, a = int(r["cell"]), int(r["vaddr"], 16)
            if a >> 63:
                i = bisect.bisect_right(addrs, a) - 1
                name = names[i] if i >= 0 else "(below the first symbol)"
            else:
                name = "(user space)"
            row = acc.setdefault(c, {}).setdefault(name, [0, 0, 0])
            for k, key in enumerate(("L1d-misses", "L2-misses", "LLC-load-misses")):
                row[k] += int(r[key])
    cells = []
    for c, (b, n) in enumerate(runs):
        k = kept[c] or 1
        rows = sorted(acc.get(c, {}).items(), key=lambda kv: -kv[1][0])
        total = sum(v[0] for _, v in rows)
        fns = [{"name": name, "L1d-misses": v[0] / k, "L2-misses": v[1] / k,
                "LLC-load-misses": v[2] / k} for name, v in rows[:TOP]]
        share = (sum(v[0] for _, v in rows[:TOP]) / l1d[c]) if l1d[c] else None
        cells.append({"backend": b, "nfds": n, "kept": kept[c], "functions": fns,
                      "attributed_L1d_share": share, "all_rows_L1d": total / k})
        print("\n%s, N = %d (%d kept calls; %s):\n" % (
            b, n, kept[c], "the rows hold %.1f%% of the L1d misses" % (100 * share)
            if share is not None else "no L1d misses in them"))
        print("| function | L1d misses per call | per fd | L2 misses | LLC-load misses |")
        print("|---|---:|---:|---:|---:|")
        for fn in fns[:8]:
            print("| `%s` | %.1f | %.2f | %.1f | %.1f |" % (
                fn["name"], fn["L1d-misses"], fn["L1d-misses"] / n, fn["L2-misses"],
                fn["LLC-load-misses"]))
    path = os.path.join(d, "functions.json")
    with open(path + ".tmp", "w") as f:
        json.dump({"cells": cells}, f, indent=1)
    os.rename(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) != 3:
        print("usage: functions.py DIR SYMBOLS", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
