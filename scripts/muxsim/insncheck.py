#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""insncheck.py DIR [WARMUP] - instructions per call two ways, from one boot
of scripts/muxsim.sh --with-insn (x86_64 guest): muxprof's model between the
loop's markers (DIR/samples.tsv, user + kernel, every call) beside QEMU's own
instruction counter (tests/plugin/insn.c, libinsn.so, loaded with
match=MARKER: for each marker it executes it logs the instructions that CPU
ran since the marker before, in DIR/guest/plugin.log).  A call's window runs
from its begin marker to its end marker, so the count QEMU logs at each end
marker is that call's.  Per (backend, N): the mean over the kept calls (those
after the first WARMUP, plan.env's warmup by default) in both, the largest
difference of one call, and the largest difference in all.  Exit status 1
when a file is missing or the calls of the two do not pair up."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from muxsim_cells import loops  # noqa: E402

HIT = re.compile(r"'nopl 0x4d58507([0-2])\(%rax\)'.*?\+(\d+) since last match")


def plan(d):
    p = {}
    with open(d + "/plan.env") as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            p[k] = v
    return p


def ours(d):
    calls = {}
    with open(d + "/samples.tsv") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            n = int(r["instructions:user"]) + int(r["instructions:kernel"])
            calls.setdefault(int(r["cell"]), []).append(n)
    return [calls[c] for c in sorted(calls)]


def qemus(d):
    cells = []
    with open(d + "/guest/plugin.log", errors="replace") as f:
        for line in f:
            m = HIT.search(line)
            if not m:
                continue
            if m.group(1) == "0":
                cells.append([])
            elif m.group(1) == "2" and cells:
                cells[-1].append(int(m.group(2)))
    return cells


def main():
    d = sys.argv[1]
    p = plan(d)
    warm = int(sys.argv[2]) if len(sys.argv) > 2 else int(p.get("warmup", "0"))
    runs = loops(d)
    a, q = ours(d), qemus(d)
    if not q:
        sys.exit("insncheck.py: no marker of the loop in guest/plugin.log (was --with-insn given?)")
    # cells whose loop failed before its first marker are in neither list
    q = [c for c in q if c]
    if not (len(a) == len(q) == len(runs)):
        sys.exit("insncheck.py: %d loops succeeded, the model saw %d cells and QEMU's insn plugin %d"
                 % (len(runs), len(a), len(q)))
    print("Instructions per call (user + kernel) between the loop's markers: muxprof's model "
          "(sim/) against QEMU's own instruction counter (tests/plugin/insn.c, "
          "match=nopl 0x4d58507), same boot, the first %d calls of a cell left out:" % warm)
    print()
    print("| backend | N | calls | sim/ mean | insn.c mean | difference | largest in one call |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for (b, n), x, y in zip(runs, a, q):
        if len(x) != len(y):
            sys.exit("insncheck.py: %s %d: the model saw %d calls, QEMU's plugin %d"
                     % (b, n, len(x), len(y)))
        x, y = x[warm:], y[warm:]
        if not x:
            sys.exit("insncheck.py: %s %d: no call after the %d left out" % (b, n, warm))
        mx, my = sum(x) / len(x), sum(y) / len(y)
        diff = (mx - my) / my * 100 if my else (0.0 if mx == my else float("inf"))
        one = max(abs(u - v) / v * 100 if v else (0.0 if u == v else float("inf"))
                  for u, v in zip(x, y))
        worst = max(worst, abs(diff), one)
        print("| %s | %d | %d | %.1f | %.1f | %+.3f%% | %.3f%% |" % (b, n, len(x), mx, my, diff, one))
    print()
    print("largest difference: %.3f%%" % worst)


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]) or len(sys.argv) < 2:
        print(__doc__)
        sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)
    main()
