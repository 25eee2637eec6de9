#!/usr/bin/env python3
"""check.py DIR - what a simulated run must show (CI, scripts/ci-cachesim.sh):
poll's simulated L1d misses per call grow with N (more than 5x from the
smallest to the largest N when that spans 10x), epoll's do not (less than
1.5x plus 20 misses), and results.json and report.md say "simulated"."""
import json
import os
import sys


def main(d):
    errors = []
    j = json.load(open(os.path.join(d, "results.json")))
    ctx = j.get("context", {})
    label = ctx.get("label", "")
    if ctx.get("simulated") is not True or not label.startswith("simulated ("):
        errors.append("results.json: context.simulated/label do not say simulated (%r)" % label)
    series = {}
    for c in j["results"]:
        if c["status"] == "unsupported":
            continue
        if c["status"] != "ok":
            errors.append("%s N=%d: %s: %s" % (c["backend"], c["nfds"], c["status"],
                                               c.get("reason")))
            continue
        m = c["metrics"].get("sim:L1d-misses")
        if not m or m.get("source") != "simulated":
            errors.append("%s N=%d: no sim:L1d-misses marked simulated" % (c["backend"],
                                                                           c["nfds"]))
            continue
        series.setdefault(c["backend"], []).append((c["nfds"], m["p50"]))
    for b, pts in series.items():
        pts.sort()
        (n0, v0), (n1, v1) = pts[0], pts[-1]
        print("%s: L1d misses per call %.1f at N=%d, %.1f at N=%d (%s)" % (b, v0, n0, v1, n1,
                                                                           label))
        if b == "poll" and n1 >= 10 * n0 and not v1 > 5 * v0:
            errors.append("poll: L1d misses per call grew %.2fx from N=%d to N=%d; expected "
                          "more than 5x" % (v1 / v0 if v0 else float("inf"), n0, n1))
    for b in ("poll", "epoll"):
        if b not in series:
            errors.append("no ok %s cells" % b)
    if "poll" in series and "epoll" in series:
        per_fd = {}
        for b in ("poll", "epoll"):
            (n0, v0), (n1, v1) = sorted(series[b])[0], sorted(series[b])[-1]
            per_fd[b] = (v1 - v0) / (n1 - n0) if n1 > n0 else float("nan")
        print("L1d misses added per added descriptor: poll %.3f, epoll %.3f"
              % (per_fd["poll"], per_fd["epoll"]))
        if not per_fd["epoll"] < 0.05 * per_fd["poll"]:
            errors.append("epoll: %.3f L1d misses per added descriptor, not under 5%% of "
                          "poll's %.3f; expected flat" % (per_fd["epoll"], per_fd["poll"]))
    md = open(os.path.join(d, "report.md")).read() if os.path.exists(
        os.path.join(d, "report.md")) else ""
    if "## Simulated cache counts per call: %s" % label not in md:
        errors.append("report.md lacks the simulated section labelled %r" % label)
    for e in errors:
        print("check: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check.py DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
