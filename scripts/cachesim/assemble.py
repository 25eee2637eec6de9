#!/usr/bin/env python3
"""assemble.py DIR - turn the boots of scripts/cachesim.sh into DIR/results.json.

Each (backend, N) has two boots, with K and 2K calls of `muxprof loop`; QEMU's
cache plugin prints, at exit, a table per simulated core and the instructions
that missed most.  A cell's metrics are core 1's counts (the loop runs alone
there: isolcpus=1, --cpu 1) in the 2K boot less those in the K boot, divided
by K.  Instructions are named by host address; guest RAM's host base (from
qemu's /proc maps) and the kernel's physical and virtual addresses of _stext
(/proc/iomem, kallsyms; nokaslr) turn them into kernel functions.

Nothing is invented: a boot that failed leaves its cell "error" with the
reason; a count that went down from K to 2K calls is kept (it is noise and
shows as such), never clipped to zero.
"""
import bisect
import json
import os
import re
import subprocess
import sys

RAM_BASE = 0x40000000   # guest physical address of RAM on qemu's arm64 "virt" machine
TOP_FUNCTIONS = 15
SCHEMA = re.search(r'#define MP_RESULTS_SCHEMA "([^"]+)"', open(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "../../src/results/schema.h")).read()).group(1)
STEXT_IN_IMAGE = 0x10000  # _stext's offset in an arm64 Image (head section padded to 64 KiB)
CHECK_INSNS = 10          # top instructions whose disassembly is checked per cell
METRICS = [  # (metric, column in the per-core table)
    ("sim:L1d-accesses", 1), ("sim:L1d-misses", 2), ("sim:L1i-accesses", 4),
    ("sim:L1i-misses", 5), ("sim:L2-accesses", 7), ("sim:L2-misses", 8)]
LISTS = {"data misses": "L1d-misses", "fetch misses": "L1i-misses", "L2 misses": "L2-misses"}


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip("\n").partition("=")
            if sep:
                env[k] = v
    return env


def parse_plugin_log(path):
    """-> ({core: [columns]}, {list name: {host address: count}})"""
    cores, tops, cur = {}, {}, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(\d+|sum)\s+(\d+)\s+(\d+)\s+\S+%\s+(\d+)\s+(\d+)\s+\S+%"
                         r"(?:\s+(\d+)\s+(\d+)\s+\S+%)?", line)
            if m and cur is None:
                g = m.groups()
                cores[g[0]] = [g[0], int(g[1]), int(g[2]), None, int(g[3]), int(g[4]), None,
                               int(g[5]) if g[5] else None, int(g[6]) if g[6] else None]
                continue
            h = re.match(r"^address, (.*), instruction$", line)
            if h:
                cur = tops.setdefault(LISTS.get(h.group(1), h.group(1)), {})
                continue
            t = re.match(r"^0x([0-9a-f]+)(?: \([^)]*\))?, (\d+), ", line)
            if t and cur is not None:
                cur[int(t.group(1), 16)] = int(t.group(2))
            elif not line.strip():
                cur = None
    return cores, tops


class Symbols:
    def __init__(self, path):
        rows = []
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 3 and p[1] in "tTwW":
                    rows.append((int(p[0], 16), p[2]))
        rows.sort()
        self.addr = [a for a, _ in rows]
        self.name = [n for _, n in rows]
        self.stext = dict((n, a) for a, n in rows).get("_stext")

    def lookup(self, vaddr):
        i = bisect.bisect_right(self.addr, vaddr) - 1
        return self.name[i] if i >= 0 else None


def boot_mapper(bootdir, syms):
    """-> (host base of guest RAM, host address -> kernel function or a bucket), for one
    boot; None when the boot left no RAM mapping or kernel address."""
    try:
        with open(os.path.join(bootdir, "ram.maps")) as f:
            base = int(f.read().split("-")[0], 16)
        with open(os.path.join(bootdir, "iomem")) as f:
            kphys = int(f.read().split("-")[0].strip(), 16)
    except (OSError, ValueError, IndexError):
        return None
    text_lo, text_hi = syms.stext, syms.addr[-1] if syms.addr else 0

    def name(haddr):
        vaddr = haddr - base + RAM_BASE - kphys + syms.stext
        if text_lo <= vaddr <= text_hi:
            return re.sub(r"\.(isra|constprop|part|cold|llvm)\.?\d*$", "", syms.lookup(vaddr))
        return "[user space or outside kernel text]"
    return base, name


def norm_disas(text):
    """'ldp x12, x13, [x1, #0x40]!' and objdump's 'ldp\tx12, x13, [x1, #64]!' alike."""
    text = re.sub(r"#(-?)0x([0-9a-f]+)", lambda m: "#%s%d" % (m.group(1), int(m.group(2), 16)),
                  text.strip().lower())
    return re.sub(r"\s+", " ", re.sub(r"\s*//.*$", "", text))


def check_mapping(bootdir, syms, image, k=CHECK_INSNS):
    """Second method for the address mapping: the plugin's disassembly of its top missing
    instructions against objdump of the kernel Image at the mapped address.
    -> {"instructions": checked, "agree": n} or None when it cannot be checked."""
    mp = boot_mapper(bootdir, syms)
    if not mp or not os.path.exists(image):
        return None
    base, _ = mp
    try:
        kphys = int(open(os.path.join(bootdir, "iomem")).read().split("-")[0].strip(), 16)
    except (OSError, ValueError):
        return None
    rows = []
    with open(os.path.join(bootdir, "plugin.log"), errors="replace") as f:
        on = False
        for line in f:
            if line.startswith("address, data misses"):
                on = True
                continue
            if on and not line.strip():
                break
            m = re.match(r"^0x([0-9a-f]+)(?: \([^)]*\))?, \d+, (.*)$", line.rstrip("\n"))
            if on and m:
                rows.append((int(m.group(1), 16), m.group(2)))
    checked = agree = 0
    for haddr, dis in rows:
        vaddr = haddr - base + RAM_BASE - kphys + syms.stext
        if not syms.stext <= vaddr <= syms.addr[-1]:
            continue     # user space: no image to check against
        off = vaddr - syms.stext + STEXT_IN_IMAGE
        out = os.popen("aarch64-linux-gnu-objdump -D -b binary -m aarch64 --start-address=%d "
                       "--stop-address=%d '%s' 2>/dev/null" % (off, off + 4, image)).read()
        last = out.strip().splitlines()[-1:] if out.strip() else []
        parts = last[0].split("\t") if last else []
        if len(parts) < 3:
            return None  # no objdump for arm64 here
        checked += 1
        agree += norm_disas(" ".join(parts[2:])) == norm_disas(dis)
        if checked == k:
            break
    return {"instructions": checked, "agree": agree} if checked else None


def summary(v):
    return {"p10": v, "p50": v, "p90": v, "p99": v, "mean": v, "min": v, "max": v,
            "stddev": None, "n": 1}


def boot_result(bootdir):
    """-> (ok, reason, cores, tops, seconds)"""
    st = os.path.join(bootdir, "boot.status")
    if not os.path.exists(st):
        return False, "the boot did not finish (interrupted?)", None, None, None
    rc, secs = (open(st).read().split() + ["?", "?"])[:2]
    loop_rc = os.path.join(bootdir, "loop.rc")
    loop_log = os.path.join(bootdir, "loop.log")
    if rc != "0" or not os.path.exists(loop_rc):
        return False, "the guest boot failed (status %s; see %s/console.log)" % (
            rc, os.path.relpath(bootdir, os.path.dirname(os.path.dirname(bootdir)))), \
            None, None, None
    if open(loop_rc).read().strip() != "0":
        msg = open(loop_log, errors="replace").read().strip().splitlines()
        return False, "muxprof loop failed in the guest: %s" % (msg[-1] if msg else "no output"), \
            None, None, None
    try:
        cores, tops = parse_plugin_log(os.path.join(bootdir, "plugin.log"))
    except OSError as e:
        return False, "no plugin log: %s" % e, None, None, None
    if "1" not in cores:
        return False, "the plugin log has no row for core 1", None, None, None
    return True, None, cores, tops, float(secs) if secs.isdigit() else None


def functions(k, d1, d2, syms):
    """-> ({function: {list: misses per call}}, {list: misses attributed}) from the two
    boots' top lists, instructions matched by guest physical address; None if unmapped."""
    maps = [boot_mapper(d["dir"], syms) for d in (d1, d2)]
    if None in maps:
        return None
    per, cover = {}, {}
    for lst in LISTS.values():
        (b1, _), (b2, name) = maps
        short = {h - b1: n for h, n in d1["tops"].get(lst, {}).items()}
        got = 0
        for h, n2 in d2["tops"].get(lst, {}).items():
            n1 = short.get(h - b2)
            if n1 is None:     # below the K boot's cut-off: no difference to take
                continue
            fn = per.setdefault(name(h), {})
            fn[lst] = fn.get(lst, 0.0) + (n2 - n1) / k
            got += n2 - n1
        cover[lst] = got
    return per, cover


def muxprof_tool(env):
    """The `tool` object of muxprof's own JSON output (the host build's), with this script
    named as what assembled the file."""
    mp = env.get("host_bin") or os.environ.get("HOST_BIN") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "bin", "muxprof")
    try:
        p = subprocess.run([mp, "events", "--json"], capture_output=True, text=True)
        tool = json.loads(p.stdout)["tool"]
    except (OSError, ValueError, KeyError) as e:
        print("cachesim: cannot read the tool object from `%s events --json`: %s" % (mp, e),
              file=sys.stderr)
        sys.exit(1)
    tool["assembled_by"] = "scripts/cachesim/assemble.py"
    return tool


def main(out):
    env = read_env(os.path.join(out, "plan.env"))
    k = int(env["calls"])
    syms = Symbols(env["symbols"])
    boots = os.path.join(out, "boots")
    cells, wall = [], 0.0
    for b in env["backends"].split(","):
        for n in [int(x) for x in env["fds"].split(",")]:
            cell = {"backend": b, "fd_kind": env["fd_kind"], "mode": "ready", "nfds": n,
                    "active": 1, "status": "ok", "reason": None, "ready_pos": "last",
                    "calls": [k, 2 * k]}
            pre = os.path.join(boots, "%s-%d.unsupported" % (b, n))
            if os.path.exists(pre):
                cell.update(status="unsupported", reason=open(pre).read().strip())
                cells.append(cell)
                continue
            r = []
            for kk in (k, 2 * k):
                d = os.path.join(boots, "%s-%d-%d" % (b, n, kk))
                ok, why, cores, tops, secs = boot_result(d)
                wall += secs or 0
                if not ok:
                    cell.update(status="error", reason="%d calls: %s" % (kk, why))
                    break
                r.append({"dir": d, "cores": cores, "tops": tops, "seconds": secs})
            if cell["status"] != "ok":
                cells.append(cell)
                continue
            c1, c2 = r[0]["cores"]["1"], r[1]["cores"]["1"]
            metrics = {}
            for name, col in METRICS:
                if c1[col] is None or c2[col] is None:
                    continue
                s = summary((c2[col] - c1[col]) / k)
                s.update({"scope": "user+kernel, simulated core 1", "source": "simulated",
                          "counts": [c1[col], c2[col]]})
                metrics[name] = s
            cell["metrics"] = metrics
            cell["boot_seconds"] = [x["seconds"] for x in r]
            # Core 0 ran the rest of the boot and the helper process: its difference is
            # what the K..2K difference did not cancel there.  The plugin's instruction
            # lists sum every core, so the function table below carries this noise too.
            o1, o2 = r[0]["cores"]["0"], r[1]["cores"]["0"]
            cell["sim_other_core"] = {"L1d-accesses": (o2[1] - o1[1]) / k,
                                      "L1d-misses": (o2[2] - o1[2]) / k}
            fn = functions(k, r[0], r[1], syms)
            if fn:
                per, cover = fn
                tot1, tot2 = r[0]["cores"].get("sum"), r[1]["cores"].get("sum")
                rows = [{"name": f, "L1d-misses": round(v.get("L1d-misses", 0.0), 2),
                         "L1i-misses": round(v.get("L1i-misses", 0.0), 2),
                         "L2-misses": round(v.get("L2-misses", 0.0), 2)}
                        for f, v in per.items()]
                rows.sort(key=lambda x: -x["L1d-misses"])
                total_d = (tot2[2] - tot1[2]) if tot1 and tot2 else None
                chk = check_mapping(r[1]["dir"], syms, env["kernel"])
                cell["sim_functions"] = {
                    "mapping_check": chk,
                    "per": "call", "source": "the plugin's top %s instructions per list, "
                    "K..2K difference, mapped with the guest kernel's kallsyms" % env.get(
                        "top_limit", "N"),
                    "attributed_L1d_share": (cover["L1d-misses"] / total_d)
                    if total_d else None,
                    "functions": rows[:TOP_FUNCTIONS]}
            cells.append(cell)

    d, i = env["l1d"].split(","), env["l1i"].split(",")
    u, line = env["l2"].split(","), int(env["line"])
    geom = {"name": env["geometry"], "description": env["description"], "line_bytes": line,
            "l1d": {"size_bytes": int(d[0]), "ways": int(d[1])},
            "l1i": {"size_bytes": int(i[0]), "ways": int(i[1])},
            "l2": {"size_bytes": int(u[0]), "ways": int(u[1])}}
    label = "simulated (%s)" % env["geometry"]
    kernel = os.path.basename(env["kernel"]).replace("vmlinuz-", "")
    res = {
        "schema": SCHEMA,
        "tool": muxprof_tool(env),
        "status": "complete",
        "started_utc": env.get("started"), "finished_utc": env.get("finished"),
        "context": {
            "host": os.uname().nodename, "arch": "aarch64",
            "emulated": True, "simulated": True, "label": label, "geometry": geom,
            "method": "QEMU TCG guest (-icount shift=0), contrib/plugins/cache.c; loop pinned "
                      "to CPU 1 with isolcpus=1; per call = (counts after 2K calls - counts "
                      "after K calls) / K on simulated core 1",
            "qemu": env.get("qemu"), "qemu_source": env.get("qemu_source"),
            "plugin": env.get("plugin"), "guest_kernel": kernel,
            "kernel": kernel, "host_load": {"start": env.get("load"), "end": env.get("load_end")},
            "boot_seconds_total": wall, "jobs": int(env.get("jobs", 2)),
            "command": env.get("command")},
        "topology": {
            "simulated": True, "line_bytes": line,
            "caches": [
                {"level": 1, "type": "data", "size_bytes": int(d[0]), "ways": int(d[1]),
                 "line_bytes": line},
                {"level": 1, "type": "instruction", "size_bytes": int(i[0]), "ways": int(i[1]),
                 "line_bytes": line},
                {"level": 2, "type": "unified", "size_bytes": int(u[0]), "ways": int(u[1]),
                 "line_bytes": line}]},
        "counters": {"preset": label, "scope": "user+kernel (simulated core 1)",
                     "note": "counts of QEMU's cache model, not hardware counters",
                     "events": [{"name": m, "status": "opened", "source": "simulated"}
                                for m, _ in METRICS]},
        "config": {"backends": env["backends"].split(","),
                   "fds": [int(x) for x in env["fds"].split(",")], "active": [1],
                   "modes": ["ready"], "fd_kinds": [env["fd_kind"]], "fd_kind": env["fd_kind"],
                   "calls": k, "ready_pos": "last", "events": label},
        "results": cells,
    }
    path = os.path.join(out, "results.json")
    tmp = os.path.join(out, ".results.json.tmp.%d" % os.getpid())
    with open(tmp, "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    os.rename(tmp, path)
    bad = [c for c in cells if c["status"] == "error"]
    for c in bad:
        print("cachesim: %s N=%d: %s" % (c["backend"], c["nfds"], c["reason"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: assemble.py DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
