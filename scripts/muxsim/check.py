#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check.py DIR - CI's check of a scripts/muxsim.sh run (poll and epoll at two
N, --with-contrib): every loop succeeded; poll's simulated L1d misses and
dTLB misses per call grow more than 5x from the smaller N to the larger,
epoll's stay under 1 per call; the two models' per-core totals in
crosscheck.md agree exactly; results.json and report.md say "simulated"."""
import json
import os
import sys


def main(d):
    bad = []
    j = json.load(open(os.path.join(d, "results.json")))
    if not (j["context"].get("simulated") and j["context"]["label"].startswith("simulated (")):
        bad.append("results.json is not labelled simulated")
    cells = {}
    for c in j["results"]:
        if c["status"] != "ok":
            bad.append("%s N=%d: %s" % (c["backend"], c["nfds"], c.get("reason")))
            continue
        cells[(c["backend"], c["nfds"])] = c["metrics"]
    ns = sorted({n for _, n in cells})
    if len(ns) < 2:
        bad.append("needs two N, has %r" % ns)
    else:
        lo, hi = ns[0], ns[-1]
        for m in ("sim:L1d-misses", "sim:dTLB-misses"):
            p = [cells.get(("poll", n), {}).get(m, {}).get("p50") for n in (lo, hi)]
            if None in p or not p[1] > 5 * max(p[0], 1):
                bad.append("poll's %s per call does not grow 5x from N=%d to %d: %r" % (m, lo, hi, p))
            e = [cells.get(("epoll", n), {}).get(m, {}).get("p50") for n in (lo, hi)]
            if None in e or max(e) >= 1:
                bad.append("epoll's %s per call is not flat near 0: %r" % (m, e))
    cc = open(os.path.join(d, "crosscheck.md")).read() if os.path.exists(
        os.path.join(d, "crosscheck.md")) else ""
    if "largest difference: 0.000%" not in cc:
        bad.append("the model and QEMU's contrib plugin differ: %s" % cc.strip().splitlines()[-1:] )
    rep = open(os.path.join(d, "report.md")).read() if os.path.exists(
        os.path.join(d, "report.md")) else ""
    if "Counts of muxprof's own cache and TLB model" not in rep:
        bad.append("report.md does not name muxprof's model")
    for b in bad:
        print("muxsim check: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    sys.exit(main(sys.argv[1]))
