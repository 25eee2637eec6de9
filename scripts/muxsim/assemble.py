#!/usr/bin/env python3
"""assemble.py DIR - a scripts/muxsim.sh run as DIR/results.json, in the
results schema that scripts/cachesim/assemble.py writes (docs/cachesim.md),
so that `muxprof report` and `muxprof compare` read it.  A cell's metrics
are the plugin's distributions over its kept calls (p10, p50, p90, mean,
min, max, n), user + kernel, named `sim:...`; a loop that failed leaves its
cell "error" with the loop's message."""
import csv
import json
import os
import sys

# (metric in results.json, the plugin's event)
METRICS = [
    ("sim:instructions", "instructions"),
    ("sim:L1d-accesses", "L1-dcache-accesses"), ("sim:L1d-misses", "L1-dcache-misses"),
    ("sim:L1-dcache-loads", "L1-dcache-loads"),
    ("sim:L1-dcache-load-misses", "L1-dcache-load-misses"),
    ("sim:L1i-accesses", "L1-icache-loads"), ("sim:L1i-misses", "L1-icache-load-misses"),
    ("sim:L2-accesses", "L2-accesses"), ("sim:L2-misses", "L2-misses"),
    ("sim:L3-accesses", "L3-accesses"), ("sim:L3-misses", "L3-misses"),
    ("sim:LLC-loads", "LLC-loads"), ("sim:LLC-load-misses", "LLC-load-misses"),
    ("sim:dTLB-misses", "dTLB-misses"), ("sim:dTLB-walks", "dTLB-walks"),
    ("sim:iTLB-misses", "iTLB-misses"), ("sim:prefetches", "prefetches")]


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip("\n").partition("=")
            if sep:
                env.setdefault(k, v)
    return env


def size(v):
    mul = {"K": 1024, "M": 1024 * 1024}.get(v[-1:], 1)
    return int(v[:-1] if mul > 1 else v) * mul


def main(out):
    env = read_env(os.path.join(out, "plan.env"))
    gpath = env["geometry"]
    if not os.path.isabs(gpath):
        gpath = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", gpath)
    g = read_env(gpath)
    line = size(g["line"])
    lv = {k: (size(g[k].split(",")[0]), int(g[k].split(",")[1])) for k in ("l1d", "l1i", "l2", "l3")}
    name = os.path.basename(gpath)[:-len(".conf")] if gpath.endswith(".conf") else gpath
    runs = []
    with open(os.path.join(out, "cells.txt")) as f:
        for ln in f:
            b, n, rc = ln.split()
            runs.append((b, int(n), int(rc)))
    stats = {}
    with open(os.path.join(out, "muxsim.tsv")) as f:
        f.readline()
        for r in csv.DictReader(f, delimiter="\t"):
            if r["priv"] == "all":
                stats.setdefault(int(r["cell"]), {})[r["event"]] = r
    if len([r for r in runs if r[2] == 0]) != len(stats):
        sys.exit("assemble.py: %d loops succeeded but the plugin saw %d cells"
                 % (len([r for r in runs if r[2] == 0]), len(stats)))
    cells, i = [], 0
    for b, n, rc in runs:
        cell = {"backend": b, "fd_kind": env["fd_kind"], "mode": "ready", "nfds": n,
                "active": 1, "status": "ok", "reason": None, "ready_pos": "last",
                "calls": int(env["calls"])}
        if rc:
            log = os.path.join(out, "guest", "loop-%s-%d.log" % (b, n))
            why = open(log).read().strip() if os.path.exists(log) else ""
            cell.update(status="error", reason=why or "muxprof loop exited %d" % rc)
            cells.append(cell)
            continue
        metrics = {}
        for m, ev in METRICS:
            r = stats[i][ev]
            s = {k: float(r[k]) for k in ("p10", "p50", "p90", "mean", "min", "max")}
            s.update({"p99": None, "stddev": None, "n": int(r["kept"]),
                      "scope": "user+kernel, simulated core %s" % r["core"],
                      "source": "simulated"})
            metrics[m] = s
        cell["metrics"] = metrics
        cells.append(cell)
        i += 1
    # the kernel functions of each cell (functions.py), when the run has them
    fpath = os.path.join(out, "functions.json")
    if os.path.exists(fpath):
        fns = {(c["backend"], c["nfds"]): c for c in json.load(open(fpath))["cells"]}
        for cell in cells:
            f = fns.get((cell["backend"], cell["nfds"]))
            if f and cell.get("status") == "ok":
                cell["sim_functions"] = {"functions": f["functions"],
                                         "attributed_L1d_share": f["attributed_L1d_share"]}
    label = "simulated (%s)" % name
    kernel = os.path.basename(env.get("kernel", "")).replace("vmlinuz-", "")
    caches = [{"level": 1, "type": "data", "size_bytes": lv["l1d"][0], "ways": lv["l1d"][1]},
              {"level": 1, "type": "instruction", "size_bytes": lv["l1i"][0], "ways": lv["l1i"][1]},
              {"level": 2, "type": "unified", "size_bytes": lv["l2"][0], "ways": lv["l2"][1]},
              {"level": 3, "type": "unified", "size_bytes": lv["l3"][0], "ways": lv["l3"][1],
               "policy": g["l3_policy"]}]
    for c in caches:
        c["line_bytes"] = line
    res = {
        "schema": "muxprof-results/1",
        "tool": {"name": "muxprof muxsim", "version": os.popen(
            "git -C '%s' describe --always --dirty 2>/dev/null" % os.path.dirname(
                os.path.abspath(__file__))).read().strip() or None},
        "status": "complete",
        "started_utc": env.get("started"), "finished_utc": env.get("finished"),
        "context": {
            "host": os.uname().nodename, "arch": "aarch64",
            "emulated": True, "simulated": True, "label": label,
            "geometry": {"name": name, "description": g.get("description"), "line_bytes": line,
                         "l1d": {"size_bytes": lv["l1d"][0], "ways": lv["l1d"][1]},
                         "l1i": {"size_bytes": lv["l1i"][0], "ways": lv["l1i"][1]},
                         "l2": {"size_bytes": lv["l2"][0], "ways": lv["l2"][1]},
                         "l3": {"size_bytes": lv["l3"][0], "ways": lv["l3"][1],
                                "policy": g["l3_policy"]},
                         "dtlb": g["dtlb"], "itlb": g["itlb"], "l2tlb": g["l2tlb"],
                         "page_bytes": size(g["page"]), "prefetch": env.get("prefetch")},
            "method": "QEMU TCG guest (-icount shift=0), muxprof's model (sim/, libmuxsim.so); "
                      "every cell in one boot, loop pinned to CPU 1 with isolcpus=1; one "
                      "counting window per call between the loop's HINT markers, the first "
                      "%s calls left out" % env.get("warmup"),
            "qemu": env.get("qemu"), "guest_kernel": kernel, "kernel": kernel,
            "host_load": {"start": env.get("load"), "end": env.get("load_end")},
            "boot_seconds_total": float(env.get("boot_seconds", 0))},
        "topology": {"simulated": True, "line_bytes": line, "caches": caches},
        "counters": {"preset": label, "scope": "user+kernel (simulated core 1)",
                     "note": "counts of muxprof's cache and TLB model, not hardware counters",
                     "events": [{"name": m, "status": "opened", "source": "simulated"}
                                for m, _ in METRICS]},
        "config": {"backends": env["backends"].split(","),
                   "fds": [int(x) for x in env["fds"].split(",")], "active": [1],
                   "modes": ["ready"], "fd_kinds": [env["fd_kind"]], "fd_kind": env["fd_kind"],
                   "calls": int(env["calls"]), "ready_pos": "last", "events": label},
        "results": cells,
    }
    path = os.path.join(out, "results.json")
    tmp = os.path.join(out, ".results.json.tmp.%d" % os.getpid())
    with open(tmp, "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    os.rename(tmp, path)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: assemble.py DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
