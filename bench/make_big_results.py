#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_big_results.py - a results.json with many cells, for timing `muxprof report` and
`muxprof compare` on large inputs (a benchmark, not a test: nothing here is checked).

    bench/make_big_results.py CELLS OUT_DIR [FIXTURE]
    time build/bin/muxprof report OUT_DIR --no-plots

The cells are the fixture's (tests/fixtures/report/synthetic by default: 3 backends x 2 modes
of pipes), cycled over more and more N (10, 11, 12, ...), each with a medians that grows with N
so that fits and knees have something to find.  samples.csv is written too (8 samples per ok
cell), so compare can test the changes.  OUT_DIR: new (made), or a directory of yours that
its group and others cannot write; a symbolic link, another user's or a writable one is
refused (exit 1).
"""
import copy
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
from outdir import outdir  # noqa: E402


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    cells, out = int(sys.argv[1]), sys.argv[2]
    outdir("make_big_results", out, option="OUT_DIR", make=False)
    here = os.path.dirname(os.path.abspath(__file__))
    fixture = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        here, "..", "tests", "fixtures", "report", "synthetic", "results.json")
    doc = json.load(open(fixture))
    base = {}
    for c in doc["results"]:   # one template per (backend, mode, kind): its smallest N
        key = (c["backend"], c["mode"], c["fd_kind"])
        if c.get("status") == "ok" and (key not in base or c["nfds"] < base[key]["nfds"]):
            base[key] = c
    keys = sorted(base)
    res = []
    for i in range(cells):
        t = base[keys[i % len(keys)]]
        c = copy.deepcopy(t)
        n = 10 + i // len(keys)
        c["nfds"] = n
        c["fd_lo"], c["fd_hi"] = 3, 2 + n
        c["ready_fd"] = 2 + n
        scale = n / t["nfds"]
        for name, m in c.get("metrics", {}).items():
            for k in ("p10", "p50", "p90", "p99", "mean", "min", "max"):
                if isinstance(m.get(k), (int, float)):
                    m[k] = m[k] * scale
        res.append(c)
    doc["results"] = res
    doc.pop("experiments", None)
    out = outdir("make_big_results", out, option="OUT_DIR")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(doc, f)
    with open(os.path.join(out, "samples.csv"), "w") as f:
        f.write("cell,repeat,wall_ns\n")
        for i, c in enumerate(res):
            p50 = c["metrics"]["wall_ns"]["p50"]
            for k in range(8):
                f.write("%d,%d,%.0f\n" % (i, k % 2, p50 + k - 4))


if __name__ == "__main__":
    main()
