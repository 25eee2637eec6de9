#!/usr/bin/env python3
"""pmugap.py DIR - instructions per call three ways, from one boot of
scripts/muxsim.sh --pmu-check:

  PMU      what `muxprof run` reported: the emulated PMU's instructions
           counter read with mrs around each call, minus its calibrated empty
           bracket (DIR/guest/run/results.json);
  between  the model's instruction count at the same mrs reads
           (DIR/pmureads.tsv), computed the way run computes it: the median
           over the calls' brackets minus the median over the empty brackets;
  markers  the model's count between the HINT markers of `muxprof loop`
           (DIR/muxsim.tsv, p50).

run reads each counter pass in pairs (before, after): first BRACKETS empty
pairs, then one pair around each sampled call, so the reads of one counter
on one core fall into pairs in order (reads before the first whole pass,
a probe of the counters, are left out).  A pass is 200 empty pairs followed by
`samples` call pairs (samples from results.json's config).  The passes are
matched to run's cells by the PMU's own per-call count (the nearest cell of
that backend and N by instructions).  Exit status 1 when a file is missing
or the reads do not pair up."""
import csv
import json
import statistics
import sys

BRACKETS = 200   # src/run/counter_pass.c


def markers(d):
    runs = []
    with open(d + "/cells.txt") as f:
        for line in f:
            b, n, rc = line.split()
            if rc == "0":
                runs.append((b, int(n)))
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


def pmu_cells(d):
    with open(d + "/guest/run/results.json") as f:
        res = json.load(f)
    samples = int(res.get("config", {}).get("samples", 100))
    out = []
    for c in res.get("results", []):
        m = (c.get("metrics") or {}).get("instructions")
        if c.get("status") != "ok" or not m or c.get("mode") != "ready":
            continue
        out.append({"backend": c["backend"], "nfds": int(c["nfds"]), "p50": float(m["p50"]),
                    "bracket": float(m.get("bracket", float("nan")))})
    return samples, out


def reads(d):
    by = {}
    with open(d + "/pmureads.tsv") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["counter"] == "31":   # the cycle counter; instructions are an event counter
                continue
            by.setdefault((r["core"], r["counter"]), []).append((int(r["user"]), int(r["kernel"])))
    return by


def passes(seq, samples):
    """Split one counter's reads on one core into passes of BRACKETS empty
    pairs and `samples` call pairs: [(empty deltas, call deltas)], each delta
    (user, kernel)."""
    per = 2 * (BRACKETS + samples)
    if len(seq) < per:
        return None
    # reads before the first pass (a probe of the counters) are left out
    start = len(seq) % per
    out = []
    for p in range(start, len(seq), per):
        pairs = [(seq[i + 1][0] - seq[i][0], seq[i + 1][1] - seq[i][1])
                 for i in range(p, p + per, 2)]
        out.append((pairs[:BRACKETS], pairs[BRACKETS:]))
    return out


def main():
    d = sys.argv[1]
    mk = markers(d)
    samples, cells = pmu_cells(d)
    found = []
    for (core, ctr), seq in reads(d).items():
        ps = passes(seq, samples)
        if ps is None:
            continue
        for empty, call in ps:
            med = lambda xs: statistics.median(xs)
            tot = med([u + k for u, k in call]) - med([u + k for u, k in empty])
            user = med([u for u, _ in call]) - med([u for u, _ in empty])
            found.append((core, ctr, tot, user, tot - user))
    if not found:
        sys.exit("pmugap.py: no counter's reads pair up into passes of %d empty and %d call "
                 "brackets" % (BRACKETS, samples))
    print("Instructions per call, three ways (one boot; p50):\n")
    print("| backend | N | PMU (run, mrs) | model between the same reads | of which user | "
          "kernel | model between the markers (loop) | user | kernel | PMU - markers | "
          "between - markers |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in sorted(cells, key=lambda c: (c["backend"], c["nfds"])):
        # the passes of this cell: nearest by the model's count to the PMU's
        near = sorted(found, key=lambda f: abs(f[2] - c["p50"]))[0]
        m = mk.get((c["backend"], c["nfds"]), {})
        ma = m.get("all", float("nan"))
        print("| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %+.0f | %+.0f |" % (
            c["backend"], c["nfds"], c["p50"], near[2], near[3], near[4], ma,
            m.get("user", float("nan")), m.get("kernel", float("nan")), c["p50"] - ma,
            near[2] - ma))
    print("\n(PMU: run's p50 with its empty bracket subtracted; the model's passes: %d, "
          "matched to cells by the nearest count)" % len(found))


if __name__ == "__main__":
    main()
