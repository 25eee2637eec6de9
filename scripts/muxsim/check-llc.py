#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-llc.py DIR... - CI's check of the simulated L3 and dTLB in
scripts/muxsim.sh runs of poll and epoll at three or more N, one run per
geometry: in each, every cell ran; poll's LLC-load misses per fd per call
are below 0.01 at the smallest N and above 0.5 at the largest (it grew past
its L3 knee), epoll's stay below 0.01 per fd of the smallest N at every N
(flat); poll's dTLB misses per fd per call at the largest N are above 0.05,
epoll's below 1 per call at every N; report.md names poll's L3 knee and
epoll flat.  Prints each run's knee interval.  Exit status 1 when a check
fails."""
import json
import os
import sys

NONE_PER_FD = 0.01   # report/sec_sim.c: fewer LLC-load misses per fd count as none


def check(d, bad):
    j = json.load(open(os.path.join(d, "results.json")))
    label = j["context"].get("label", "?")
    cells = {}
    for c in j["results"]:
        if c["status"] != "ok":
            bad.append("%s: %s N=%d: %s" % (d, c["backend"], c["nfds"], c.get("reason")))
            continue
        cells[(c["backend"], c["nfds"])] = c["metrics"]

    def p50(b, n, m):
        return cells.get((b, n), {}).get(m, {}).get("p50")

    ns = sorted({n for _, n in cells})
    if len(ns) < 3:
        bad.append("%s: needs three N, has %r" % (d, ns))
        return
    lo, hi = ns[0], ns[-1]
    llc = [p50("poll", n, "sim:LLC-load-misses") for n in ns]
    if None in llc:
        bad.append("%s: poll lacks sim:LLC-load-misses at some N: %r" % (d, llc))
        return
    if not (llc[0] / lo < NONE_PER_FD and llc[-1] / hi > 0.5):
        bad.append("%s: poll's LLC-load misses per fd do not grow past a knee: %s" % (
            d, ", ".join("%d: %.3f" % (n, v / n) for n, v in zip(ns, llc))))
    else:
        last_none = max(n for n, v in zip(ns, llc) if v / n < NONE_PER_FD)
        first = min(n for n, v in zip(ns, llc) if n > last_none)
        print("%s (%s): poll's L3 knee between N = %d and %d; LLC-load misses per fd %s" % (
            d, label, last_none, first, ", ".join("%.3f" % (v / n) for n, v in zip(ns, llc))))
    e = [p50("epoll", n, "sim:LLC-load-misses") for n in ns]
    if None in e or max(e) >= NONE_PER_FD * lo:
        bad.append("%s: epoll's LLC-load misses per call are not flat: %r" % (d, e))
    t = p50("poll", hi, "sim:dTLB-misses")
    if t is None or t / hi <= 0.05:
        bad.append("%s: poll's dTLB misses per fd at N=%d are %r" % (d, hi, t))
    et = [p50("epoll", n, "sim:dTLB-misses") for n in ns]
    if None in et or max(et) >= 1:
        bad.append("%s: epoll's dTLB misses per call are not near 0: %r" % (d, et))
    path = os.path.join(d, "report.md")
    rep = open(path).read() if os.path.exists(path) else ""
    for want in ("**poll's L3 knee: LLC-load misses per call start growing per fd between",
                 "- epoll: **flat**"):
        if want not in rep:
            bad.append("%s: report.md lacks %r" % (d, want))


def main(dirs):
    bad = []
    for d in dirs:
        check(d, bad)
    for b in bad:
        print("muxsim LLC check: " + b, file=sys.stderr)
    return 1 if bad or not dirs else 0


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))
