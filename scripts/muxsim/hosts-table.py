#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hosts-table.py RUN... - the host comparison of scripts/muxsim.sh --geometry
A,B as one Markdown table (README.md and docs/cachesim.md quote it): for
each N the runs share, poll's instructions, L1d misses, LLC-load misses and
dTLB misses per watched fd and epoll's instructions per call, p50 of the
kept calls, one column per run (its geometry and guest ISA).  Each RUN is a
run directory of muxsim.sh (its results.json).  Exit status 1 when a run
cannot be read or the runs share no N."""
import json
import os
import sys

COLS = [("poll", "sim:instructions", "poll instructions per fd", True),
        ("poll", "sim:L1d-misses", "poll L1d misses per fd", True),
        ("poll", "sim:LLC-load-misses", "poll LLC-load misses per fd", True),
        ("poll", "sim:dTLB-misses", "poll dTLB misses per fd", True),
        ("epoll", "sim:instructions", "epoll instructions per call", False)]


def load(d):
    with open(os.path.join(d, "results.json")) as f:
        j = json.load(f)
    ctx = j.get("context", {})
    name = (ctx.get("geometry") or {}).get("name", "?")
    kinds = {c.get("fd_kind") for c in j.get("results", [])}
    arch = {"aarch64": "arm64"}.get(ctx.get("arch"), ctx.get("arch", "?"))
    cells = {}
    for c in j.get("results", []):
        if c.get("status") == "ok" and c.get("mode", "ready") == "ready":
            cells[(c["backend"], c["nfds"])] = c.get("metrics", {})
    return "%s, %s" % (name, arch), cells, kinds


def fmt(v):
    if v is None:
        return "–"
    if v >= 100:
        return "{:,.0f}".format(v)
    return "%.3g" % v


def main(dirs):
    runs = [load(d) for d in dirs]
    kinds = set.union(*[k for _, _, k in runs])
    if len(kinds) != 1:
        sys.exit("hosts-table.py: the runs measured different fd kinds (%s); give runs of one"
                 % ", ".join(sorted(str(k) for k in kinds)))
    runs = [(t, c) for t, c, _ in runs]
    ns = sorted(set.intersection(*[{n for _, n in c} for _, c in runs]))
    if not ns:
        sys.exit("hosts-table.py: the runs share no N")
    tags = [chr(ord("A") + i) for i in range(len(runs))]
    print("; ".join("%s: %s" % (t, r[0]) for t, r in zip(tags, runs)) + " (p50 per call of the "
          "kept calls, ready mode)")
    print()
    head = ["N"]
    for _, _, label, _ in COLS:
        head += ["%s, %s" % (label, tags[0])] + tags[1:]
    print("| " + " | ".join(head) + " |")
    print("|" + "---:|" * len(head))
    for n in ns:
        row = ["{:,}".format(n)]
        for b, m, _, per_fd in COLS:
            for _, cells in runs:
                v = cells.get((b, n), {}).get(m, {}).get("p50")
                row.append(fmt(v / n if per_fd and v is not None else v))
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]) or len(sys.argv) < 3:
        print(__doc__)
        sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)
    main(sys.argv[1:])
