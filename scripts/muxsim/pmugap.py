#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pmugap.py DIR - instructions per call two ways, from one boot of
scripts/muxsim.sh --pmu-check: what `muxprof run` reported (the emulated
PMU's instructions counter read with mrs around each call, its calibrated
empty bracket subtracted; DIR/guest/run/results.json) beside the model's
count between the HINT markers of `muxprof loop` (DIR/muxsim.tsv, p50, with
its user and kernel parts), per (backend, N), and their difference.  Exit
status 1 when a file is missing or a cell is in one and not the other."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from muxsim_cells import loops  # noqa: E402


def markers(d):
    runs = loops(d)
    with open(d + "/muxsim.tsv") as f:
        f.readline()
        rows = list(csv.DictReader(f, delimiter="\t"))
    p50 = {}
    for r in rows:
        if r["event"] == "instructions":
            p50.setdefault(int(r["cell"]), {})[r["priv"]] = float(r["p50"])
    if len(p50) != len(runs):
        sys.exit("pmugap.py: %d loops succeeded but the plugin saw %d cells" % (len(runs), len(p50)))
    return {runs[i]: p50[i] for i in range(len(runs))}


def pmu(d):
    with open(d + "/guest/run/results.json") as f:
        res = json.load(f)
    out = {}
    for c in res.get("results", []):
        m = (c.get("metrics") or {}).get("instructions")
        if c.get("status") == "ok" and m and c.get("mode") == "ready":
            out[(c["backend"], int(c["nfds"]))] = m
    return out


def main():
    d = sys.argv[1]
    mk, pm = markers(d), pmu(d)
    if set(mk) != set(pm):
        sys.exit("pmugap.py: cells differ: loop %s, run %s" % (sorted(mk), sorted(pm)))
    print("Instructions per call, the emulated PMU (`muxprof run`, mrs) and the model between "
          "the markers (`muxprof loop`), one boot, p50:\n")
    print("| backend | N | PMU [p10, p90] | PMU's empty bracket (subtracted) | model, markers | "
          "user | kernel | PMU - model | % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k in sorted(mk):
        p, m = pm[k], mk[k]
        diff = p["p50"] - m["all"]
        print("| %s | %d | %.0f [%.0f, %.0f] | %.0f | %.0f | %.0f | %.0f | %+.0f | %+.2f%% |" % (
            k[0], k[1], p["p50"], p["p10"], p["p90"], p.get("bracket", float("nan")), m["all"],
            m["user"], m["kernel"], diff, 100 * diff / m["all"]))


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    main()
