#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""crosscheck.py DIR - a scripts/muxsim.sh --with-contrib run: each core's
totals over the whole boot from muxprof's model (DIR/totals.tsv) beside
those of QEMU's contrib cache plugin (its table in DIR/guest/plugin.log),
which saw the same accesses in the same boot with the same L1d, L1i and L2."""
import re
import sys


def main():
    d = sys.argv[1]
    ours = {}
    with open(d + "/totals.tsv") as f:
        next(f)
        for line in f:
            core, ev, u, k = line.split("\t")
            ours[(int(core), ev)] = int(u) + int(k)
    theirs = {}
    with open(d + "/guest/plugin.log", errors="replace") as f:
        text = f.read()
    for m in re.finditer(r"^(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+%\s+(\d+)\s+(\d+)\s+[\d.]+%\s+(\d+)\s+(\d+)",
                         text, re.M):
        c = int(m.group(1))
        v = [int(m.group(i)) for i in range(2, 8)]
        theirs[c] = dict(zip(["da", "dm", "ia", "im", "ua", "um"], v))
    if not theirs:
        sys.exit("crosscheck.py: no per-core table of the contrib plugin in guest/plugin.log")
    pairs = [("L1d accesses", "L1-dcache-accesses", "da"), ("L1d misses", "L1-dcache-misses", "dm"),
             ("L1i accesses", "L1-icache-loads", "ia"), ("L1i misses", "L1-icache-load-misses", "im"),
             ("L2 accesses", "L2-accesses", "ua"), ("L2 misses", "L2-misses", "um")]
    print("Whole-boot totals per core, muxprof's model (sim/) against QEMU's contrib cache plugin, same boot:")
    print()
    print("| core | count | sim/ | contrib cache.c | difference |")
    print("|---:|---|---:|---:|---:|")
    worst = 0.0
    for c in sorted(theirs):
        for label, ev, key in pairs:
            a, b = ours.get((c, ev), 0), theirs[c][key]
            diff = (a - b) / b * 100 if b else 0.0
            worst = max(worst, abs(diff))
            print("| %d | %s | %d | %d | %+.3f%% |" % (c, label, a, b, diff))
    print()
    print("largest difference: %.3f%%" % worst)


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    main()
