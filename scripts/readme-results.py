#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""readme-results.py - regenerate the README's results section from the runs it quotes.

    scripts/readme-results.py RUN_DIR [--profile DIR] [--herd DIR] [--bench FILE]
                              [--readme README.md] [--fds 10,100,1000,2000,10000]
                              [--muxprof BIN] [--check] [--stdout]

RUN_DIR is a default `muxprof run`; --profile a `--profile` run (eventfds, ready mode),
--herd an `--experiment herd` run, --bench the output of bench/bench_sweep.
scripts/readme-runs.sh OUTDIR makes all four and calls this script.

The medians, per-interval costs, ratios and the claims' verdicts are the report's own, read from
`muxprof report RUN_DIR --json` (BIN: --muxprof, default build/bin/muxprof), and so are the
herd's rows and readings (experiments.herd of `report --json` of the --herd run); the seeds'
figures are read from their reference datasets, reports/reference/*.json. Reads only those
and rewrites the block of README.md between the lines
`<!-- results:begin -->` and `<!-- results:end -->`: where and when the runs were made and
how loaded the host was, the table of median ns per call, and the prose that reads it
(per-interval costs of poll, epoll's range, the seeds' figures, select's limit, the
harness's overhead, where the kernel time goes, the thundering herd). It also rewrites the
sweep time quoted in the quick start, between `<!-- sweep-time -->` and `<!-- /sweep-time -->`.
A part whose input is not given is left out of the block.

--check   exit 1 (and print the difference) when README.md differs from the runs
--stdout  print the block instead of writing README.md
Exit status: 0 done, 1 failure or --check found a difference, 2 usage error.
"""
import argparse
import datetime
import difflib
import json
import os
import re
import subprocess
import sys

BEGIN = "<!-- results:begin -->"
END = "<!-- results:end -->"
SWEEP_RE = re.compile(r"(<!-- sweep-time -->)(.*?)(<!-- /sweep-time -->)")
BACKENDS = ("select", "poll", "epoll")
CLONE = re.compile(r"(\.(isra|constprop|part|cold)(\.[0-9]+)?)+$")   # compiler clone suffixes

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# The reference datasets of the articles cited in docs/sources.md (seed 000, seed 002).
REF_EPYC = os.path.join(TOP, "reports", "reference", "epyc-9354p.json")
REF_AARCH64 = os.path.join(TOP, "reports", "reference", "aarch64-gcc13-pipe.json")


def fail(msg, code=1):
    print(f"readme-results: {msg}", file=sys.stderr)
    sys.exit(code)


def num(v, digits=0):
    """1234.5 -> '1,235'."""
    if v is None:
        return "–"
    return f"{v:,.{digits}f}"


def sig(v):
    """Two or three significant digits, as the report gives ratios and per-fd costs."""
    if v is None:
        return "–"
    a = abs(v)
    if a >= 100:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def dur(ns):
    """ns -> '21 µs', '1.40 ms', '640 ns'."""
    if ns is None:
        return "–"
    if ns >= 1e6:
        return f"{sig(ns / 1e6)} ms"
    if ns >= 1e3:
        return f"{sig(ns / 1e3)} µs"
    return f"{ns:,.0f} ns"


def dur_range(lo, hi):
    """'14–20 µs' when both ends share a unit, else '900 ns–1.20 µs'."""
    a, b = dur(lo).split(" "), dur(hi).split(" ")
    return f"{a[0]}–{b[0]} {a[1]}" if a[1] == b[1] else f"{dur(lo)}–{dur(hi)}"


def pct(share):
    return "–" if share is None else f"{share * 100:.0f}%"


def load_run(path, what):
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {what} {path}: {e}; give a run directory made by `muxprof run`")


def raw_cells(run, kind="pipe"):
    """(mode, backend, nfds) -> results.json's cell, one fd ready, private table."""
    out = {}
    for c in run.get("results", []):
        if c.get("fd_kind", "pipe") != kind or c.get("active", 1) != 1:
            continue
        if c.get("fd_table", "private") != "private":
            continue
        out[(c.get("mode"), c.get("backend"), c.get("nfds"))] = c
    return out


def report_json(muxprof, path):
    """`muxprof report PATH --json`: the analysis the run's report.md is written from."""
    try:
        p = subprocess.run([muxprof, "report", path, "--json"], capture_output=True, text=True)
    except OSError as e:
        fail(f"cannot run {muxprof}: {e}; build it (cmake --build build) or give --muxprof")
    if p.returncode != 0:
        fail(f"`{muxprof} report {path} --json` exited {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def series(rep, kind="pipe"):
    """(mode, backend) -> the report's series of that fd kind."""
    return {(s["mode"], s["backend"]): s for s in rep.get("series", []) if s["fd_kind"] == kind}


def cells(rep, kind="pipe"):
    """(mode, backend, nfds) -> the report's cell: one fd ready, private table."""
    return {(m, b, c["nfds"]): c for (m, b), s in series(rep, kind).items()
            for c in s.get("cells", [])}


def claim(rep, name, mode):
    """The report's check of a seeds' claim in mode, when it was checked on pipes."""
    cl = rep.get("claims") or {}
    if cl.get("fd_kind") != "pipe":
        return {}
    return next((c for c in cl.get("checks", []) if c["claim"].startswith(name)
                 and c["mode"] == mode), {})


def p50(c):
    if c and c.get("status") == "ok":
        return c["median_ns"]["p50"]
    return None


def spread(c):
    """'repeat medians 1.38–1.45 ms', or None when the cell has no repeat spread."""
    s = (c or {}).get("repeat_spread_ns") or {}
    if isinstance(s.get("min"), (int, float)) and isinstance(s.get("max"), (int, float)):
        return f"repeat medians {dur_range(s['min'], s['max'])}"
    return None


def paren(t):
    return f" ({t})" if t else ""


def comma(t):
    return f", {t}" if t else ""


def ratio(sr, mode, n, backend="poll"):
    """The report's ratio of backend's median to epoll's at N."""
    rs = (sr.get((mode, backend)) or {}).get("ratio_to_epoll", [])
    return next((r["ratio"] for r in rs if r["nfds"] == n), None)


def seeds():
    """The seeds' figures the README quotes, from their reference datasets."""
    try:
        s0, s2 = (json.load(open(p)) for p in (REF_EPYC, REF_AARCH64))
    except (OSError, ValueError) as e:
        fail(f"cannot read a reference dataset: {e}")
    def ref_p50(d, mode, backend, n):
        return next(c["metrics"]["wall_ns"]["p50"] for c in d["results"] if c["mode"] == mode
                    and c["backend"] == backend and c["nfds"] == n)
    w = sorted(c["metrics"]["wall_ns"]["p50"] for c in s0["results"]
               if c["mode"] == "wakeup" and c["backend"] == "epoll")
    med = (w[(len(w) - 1) // 2] + w[len(w) // 2]) / 2
    return {
        "ready_ratio": f"{s2['source_claims']['epoll_over_poll_at_10000']:,}",
        "ready_poll": num(ref_p50(s2, "ready", "poll", 10000)),
        "ready_epoll": num(ref_p50(s2, "ready", "epoll", 10000)),
        "wakeup_ratio": f"{s0['source_claims']['poll_over_epoll_at_10000']:,}",
        "epoll_wakeup": f"{med / 1e3:.1f} µs",   # the median of epoll's wakeup over its N
    }


def cell_text(c):
    if c is None:
        return "not run"
    v = p50(c)
    return num(v) if v is not None else c.get("status", "missing")


def load_text(run):
    """'load average 9.1 to 10.8 on 2 CPUs, other work competing for them, 0.5% ... stolen'."""
    noise = run.get("context", {}).get("noise") or {}
    cpus = run.get("context", {}).get("nr_cpus")
    a, b = noise.get("loadavg_start"), noise.get("loadavg_end")
    if not (isinstance(a, list) and isinstance(b, list)):
        return "load not recorded"
    t = f"load average {a[0]:.1f} to {b[0]:.1f}"
    if isinstance(cpus, int):
        t += f" on {cpus} CPUs"
        if max(a[0], b[0]) > cpus:
            t += ", other work competing for them"
    steal = noise.get("steal_share")
    if isinstance(steal, (int, float)):
        t += f", {steal * 100:.1f}% of CPU time stolen"
    return t


def seconds(run):
    try:
        f = "%Y-%m-%dT%H:%M:%SZ"
        a = datetime.datetime.strptime(run["started_utc"], f)
        b = datetime.datetime.strptime(run["finished_utc"], f)
        return (b - a).total_seconds()
    except (KeyError, TypeError, ValueError):
        return None


def host_para(run, cs, rows):
    ctx, cfg = run.get("context", {}), run.get("config", {})
    nc = ctx.get("nr_cpus", "?")
    when = (run.get("started_utc") or "?")[:10]
    secs = seconds(run)
    t = (f"Measured on {ctx.get('host', '?')} ({nc} CPUs, {ctx.get('cpu_model', '?')}"
         f"{', a VM' if ctx.get('hypervisor') else ''}, Linux {ctx.get('kernel', '?')}), "
         f"{ctx.get('git_describe', '?')}, {when}, with `{ctx.get('command', '?')}`: "
         f"{cfg.get('samples', '?')} samples x {cfg.get('repeats', '?')} repeats per cell, "
         f"pipes, the ready fd {cfg.get('ready_pos', 'last')}; {load_text(run)}")
    t += f"; the sweep took {secs:.0f} s." if secs is not None else "."
    t += (" Median ns per call; the run's report.md has the intervals, p90/p99, the spread "
          "across repeats and the figures.")
    return t


def table(cs, sr, rows):
    lines = ["| N | ready: select | poll | epoll | poll/epoll | wakeup: select | poll | epoll "
             "| poll/epoll |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in rows:
        row = [num(n)]
        for mode in ("ready", "wakeup"):
            row += [cell_text(cs.get((mode, b, n))) for b in BACKENDS]
            row.append(sig(ratio(sr, mode, n)))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def missed(bench, key):
    return ", missed on this host under this load" if bench.get(key) else ""


def bullets(run, rep, raw, ns, bench):
    cs, sr, seed = cells(rep), series(rep), seeds()
    top = ns[-1]
    out = []
    costs = (sr.get(("ready", "poll")) or {}).get("interval_costs", [])
    lin = claim(rep, "poll grows with N", "ready")
    if costs and lin.get("poll_ns_per_fd_min") is not None:
        lo, hi = lin["poll_ns_per_fd_min"], lin["poll_ns_per_fd_max"]
        each = ", ".join(f"{c:.0f} ({num(a)}→{num(b)})" if abs(c) >= 10 else
                         f"{c:.1f} ({num(a)}→{num(b)})"
                         for a, b, c in ((x["from_nfds"], x["to_nfds"], x["ns_per_fd"])
                                         for x in costs))
        out.append(
            f"- **poll grows with N, about linearly; epoll does not.** In ready mode poll's "
            f"median grows {sig(lin['poll_growth'])}x from {num(ns[0])} to {num(top)} fds "
            f"(log-log slope {lin['poll_loglog_slope']:.2f}"
            + (f", 95% interval {lin['poll_loglog_slope_lo']:.2f}-"
               f"{lin['poll_loglog_slope_hi']:.2f}"
               if lin.get("poll_loglog_slope_lo") is not None else "")
            + (f"; above its cost at {num(ns[0])} fds, slope "
               f"{lin['poll_linear_slope']:.2f}"
               + (f" ({lin['poll_linear_slope_lo']:.2f}-{lin['poll_linear_slope_hi']:.2f})"
                  if lin.get("poll_linear_slope_lo") is not None else "")
               + f" from {num(lin['poll_linear_from_nfds'])} fds"
               if lin.get("poll_linear_slope") is not None
               and lin.get("poll_linear_from_nfds") != ns[0] else "")
            + f"): the claim **{lin['verdict']}** by the report's test (the whole range's "
            f"slope's interval above {lin['grows_slope_bound']} for grows; the slope of the "
            f"cost above the smallest N's within {lin['linear_band_lo']}-"
            f"{lin['linear_band_hi']} for about linearly, which any fixed cost plus a cost per "
            f"fd meets"
            + (f"; {lin['why']}" if lin.get("why") else "")
            + f"); every interval between neighbouring N adds {lo:.0f}–{hi:.0f} ns per "
            f"watched fd (ns/fd: {each})"
            + f"; epoll's median stays between {num(lin['epoll_p50_min'])} and "
            f"{num(lin['epoll_p50_max'])} ns over "
            f"the same N. At {num(top)} pipes poll takes {dur(p50(cs.get(('ready', 'poll', top))))}"
            f"{paren(spread(raw.get(('ready', 'poll', top))))} and poll/epoll is "
            f"**{sig(ratio(sr, 'ready', top))}**, against about **{seed['ready_ratio']}** in "
            f"seed 002 (an arm64 container: {seed['ready_poll']} / {seed['ready_epoll']} ns).")
    wake = claim(rep, "poll grows with N", "wakeup")
    if wake.get("epoll_p50_min") is not None:
        wlo, whi = wake["epoll_p50_min"], wake["epoll_p50_max"]
        pw = cs.get(("wakeup", "poll", top))
        out.append(
            f"- **Wakeups{' cost more here than on bare metal' if wlo > 2400 else ''}.** "
            f"Waking a sleeping epoll waiter "
            f"takes {dur_range(wlo, whi)} (medians over N) on this VM against "
            f"{seed['epoll_wakeup']} on the EPYC 9354P of seed 000; the gap coincides with "
            f"an idle vCPU being woken through the hypervisor (not measured apart here). poll's rescan comes on top: "
            f"at {num(top)} fds poll/epoll is **{sig(ratio(sr, 'wakeup', top))}** here against "
            f"**{seed['wakeup_ratio']}** in seed 000. Wakeup medians move between repeats "
            f"(poll at {num(top)} fds: {dur(p50(pw))}"
            f"{comma(spread(raw.get(('wakeup', 'poll', top))))}); compare ratios within "
            f"one run. In wakeup mode \"poll grows with N, about linearly; epoll does not\" "
            f"{'is ' if wake['verdict'] == 'not resolved' else ''}**{wake['verdict']}** on "
            f"{wake.get('fd_kind', 'pipe')} fds"
            + (f" (seed 000 measured {wake['seed_fd_kind']})"
               if wake.get("seed_fd_kind") and wake.get("seed_fd_kind") != wake.get("fd_kind")
               else "")
            + f": poll grows {wake['poll_grows_verdict']}, about linearly "
            f"{wake['poll_about_linear_verdict']}, epoll flat {wake['epoll_flat_verdict']}"
            + (f" ({wake['why']})" if wake.get("why") else "") + ".")
    ran = [n for n in ns if p50(cs.get(("ready", "select", n))) is not None]
    uns = [n for n in ns if (cs.get(("ready", "select", n)) or {}).get("status") == "unsupported"]
    if ran and uns:
        last = cs[("ready", "select", ran[-1])]
        out.append(
            f"- **select stops at fd 1023** (FD_SETSIZE): it ran at N = {num(ran[-1])} "
            f"(highest fd {num(last.get('fd_hi'))}) and is `unsupported` from "
            f"N = {num(uns[0])}, as seeds 001 and 002 say; `FD_SET` is never called past it.")
    cal = run.get("calibration", {}).get("empty_bracket_ns", {})
    h = (f"- **Harness overhead:** an empty clock bracket costs {num(cal.get('p50'))} ns (p50) "
         f"and is subtracted in ready mode.")
    if bench:
        if bench.get("ratio") is not None:
            unresolved = ", not resolved" if bench.get("ratio_unresolved") else ""
            h += (f" epoll at 10 fds measured one call at a time has a median of "
                  f"{num(bench['p50'])} ns against {num(bench['bare'])} ns in a bare loop of "
                  f"the same call: the median of {bench['repeats']:.0f} repeats' ratios is "
                  f"{bench['ratio']:.2f} [{bench['lo']:.2f}-{bench['hi']:.2f}, "
                  f"{bench['level']:.1f}%] (`bench/bench_sweep`; target within "
                  f"15%{missed(bench, 'ratio_missed')}{unresolved}).")
        if bench.get("secs") is not None:
            h += (f" The bench's own default sweep (no plots) took {bench['secs']:.0f} s "
                  f"(target: under 60 s{missed(bench, 'secs_missed')}).")
    out.append(h)
    return out


def profile_para(prof):
    cs = raw_cells(prof, prof.get("config", {}).get("fd_kind", "eventfd"))
    kind = prof.get("config", {}).get("fd_kind", "eventfd")
    parts = []
    for b in BACKENDS:
        ok = sorted(n for (m, bb, n), c in cs.items()
                    if m == "ready" and bb == b and (c.get("profile") or {}).get("phases"))
        if not ok:
            continue
        n = ok[-1]
        pr = cs[("ready", b, n)]["profile"]
        ph = sorted((p for p in pr["phases"] if p.get("share")), key=lambda p: -p["share"])
        top = []
        for p in [p for p in ph[:3] if p["share"] >= 0.05] or ph[:1]:
            fn = [f for f in pr.get("functions", []) if f.get("phase") == p["phase"]]
            name = f" (`{CLONE.sub('', fn[0]['name'])}`)" if fn else ""
            top.append(f"{pct(p['share'])} {p['phase']}{name}")
        t = f"{b} at {num(n)} fds: " + ", ".join(top)
        if b == "epoll" and len(ok) > 1:
            sh = [next((p["share"] for p in cs[("ready", b, k)]["profile"]["phases"]
                        if p["phase"] == ph[0]["phase"]), None) for k in ok]
            sh = [s for s in sh if s is not None]
            t += (f"; its {ph[0]['phase']} share is {pct(min(sh))}–{pct(max(sh))} "
                  f"from {num(ok[0])} to {num(ok[-1])} fds")
        parts.append(t)
    if not parts:
        return None
    ev = next((c["profile"].get("event") for c in cs.values() if c.get("profile")), "?")
    profs = [c["profile"] for c in cs.values() if c.get("profile")]
    if profs and all(p.get("window") == "calls" for p in profs):
        out = sum(p.get("outside_calls", 0) for p in profs)
        whose = (f"{ev} samples taken inside the calls ({num(out)} taken between them, in the "
                 f"harness, left out)")
    else:
        whose = f"{ev} samples of the waiter, the harness between calls included"
    return (f"Where the time goes (`muxprof run --profile`, same host, {kind}s, ready mode, "
            f"{whose}, {load_text(prof)}), as shares of sampled time by "
            f"phase with each phase's top function: " + "; ".join(parts) + ". Phases as "
            f"[docs/profile.md](docs/profile.md) names them; a share says where samples fell, "
            f"not what a change would save.")


def herd_para(herd, herd_rep):
    """The herd run's table and readings as its report computed them (`report --json`)."""
    h = (herd_rep.get("experiments") or {}).get("herd") or {}
    reading = {r["y"]: r for r in h.get("readings", []) if "at" not in r}
    woken, wasted = (reading.get(y) for y in ("woken_per_event.mean", "wasted_per_event.mean"))
    rows = {r["arrangement"]: r for r in h.get("rows", []) if r.get("status") == "ok"}
    if not woken or not wasted:
        return None
    first = rows.get(next(iter(woken["values"])), {})
    m, rounds = first.get("waiters", "?"), first.get("rounds", "?")
    each = "; ".join(f"`{a}` {w:.1f} woken, {wasted['values'].get(a, float('nan')):.1f} of them "
                     f"for nothing" for a, w in woken["values"].items())
    ratio = woken.get("ratio")
    return (f"Thundering herd (`muxprof run --experiment herd`, same host, {m} threads waiting "
            f"on one pipe, {rounds} bytes written one at a time, {load_text(herd)}), means per "
            f"byte: {each}. `{woken['highest']}` wakes "
            f"{ratio if ratio is not None else float('nan'):.1f}x "
            f"as many waiters as `{woken['lowest']}`; a waiter woken for nothing rescans "
            f"and sleeps again, in the kernel for level-triggered sets "
            f"([docs/experiments.md](docs/experiments.md)).")


BENCH_RES = {
    "secs": re.compile(r"^sweep wall time: ([0-9.]+) s"),
    "line": re.compile(r"^epoll ready N=10: p50 ([0-9.]+) ns, bare loop ([0-9.]+) ns per call: "
                       r"median of ([0-9]+) repeat ratios ([0-9.]+) \[([0-9.]+)-([0-9.]+), "
                       r"([0-9.]+)%\]"),
}


def read_bench(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        fail(f"cannot read the bench output {path}: {e}")
    b = {"secs": None, "ratio": None}
    for line in text.splitlines():
        m = BENCH_RES["secs"].match(line)
        if m:
            b["secs"] = float(m.group(1))
            b["secs_missed"] = "MISSED" in line
        m = BENCH_RES["line"].match(line)
        if m:
            (b["p50"], b["bare"], b["repeats"], b["ratio"], b["lo"], b["hi"],
             b["level"]) = (float(x) for x in m.groups())
            b["ratio_missed"] = "MISSED" in line
            b["ratio_unresolved"] = "not resolved" in line
    if b["secs"] is None and b["ratio"] is None:
        fail(f"{path} is not bench_sweep output (no 'sweep wall time' or 'repeat ratios' line)")
    return b


def block(run, rep, fds, prof=None, herd=None, bench=None, herd_rep=None):
    cs = cells(rep)
    ns = sorted({k[2] for k in cs})
    rows = [n for n in fds if n in ns] if fds else ns
    if not rows:
        fail("the default run has no pipe cells at the N asked for")
    lines = [BEGIN, "", host_para(run, cs, rows), ""] + table(cs, series(rep), rows)
    lines += ["", "What it says, next to the three articles muxprof started from ([docs/sources.md](docs/sources.md)):", ""]
    lines += bullets(run, rep, raw_cells(run), ns, bench)
    for para in (profile_para(prof) if prof else None, herd_para(herd, herd_rep) if herd else None):
        if para:
            lines += ["", para]
    lines += ["", "Every number in this section comes from four runs of one build, remade with "
              "`scripts/readme-runs.sh OUTDIR` (the seeds' figures are quoted from the "
              "articles).", "", END]
    return "\n".join(lines) + "\n"


def sweep_text(run):
    s = seconds(run)
    cpus = run.get("context", {}).get("nr_cpus", "?")
    la = (run.get("context", {}).get("noise") or {}).get("loadavg_start")
    at = f" at load average {la[0]:.1f}" if isinstance(la, list) else ""
    return f"{s:.0f} s on the {cpus}-core development VM{at}" if s is not None else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--profile", help="a `muxprof run --profile` directory")
    ap.add_argument("--herd", help="a `muxprof run --experiment herd` directory")
    ap.add_argument("--bench", help="bench/bench_sweep's output")
    ap.add_argument("--readme", default=os.path.join(os.path.dirname(__file__), "..",
                                                     "README.md"))
    ap.add_argument("--fds", default="10,100,1000,2000,10000",
                    help="the N to show in the table (those the run has); 'all' for every N")
    ap.add_argument("--muxprof", default=os.path.join(TOP, "build", "bin", "muxprof"),
                    help="the muxprof binary whose `report --json` is read")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--stdout", action="store_true")
    a = ap.parse_args()
    try:
        fds = None if a.fds == "all" else [int(x) for x in a.fds.split(",")]
    except ValueError:
        fail(f"--fds: '{a.fds}' is not a comma list of counts or 'all'", 2)
    run = load_run(a.run_dir, "the default run")
    prof = load_run(a.profile, "the profile run") if a.profile else None
    herd = load_run(a.herd, "the herd run") if a.herd else None
    bench = read_bench(a.bench) if a.bench else None
    rep = report_json(a.muxprof, a.run_dir)
    herd_rep = report_json(a.muxprof, a.herd) if a.herd else None
    new = block(run, rep, fds, prof, herd, bench, herd_rep)
    if a.stdout:
        sys.stdout.write(new)
        return
    try:
        with open(a.readme) as f:
            text = f.read()
    except OSError as e:
        fail(f"cannot read {a.readme}: {e}")
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        fail(f"{a.readme} has no '{BEGIN}' ... '{END}' block to replace")
    out = text[:i] + new + text[j + len(END) + 1:]
    st = sweep_text(run)
    if st is not None:
        out = SWEEP_RE.sub(lambda m: m.group(1) + st + m.group(3), out)
    if a.check:
        if out != text:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True),
                                                       out.splitlines(True),
                                                       "README.md", "from the runs"))
            sys.exit(1)
        return
    tmp = f"{a.readme}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(out)
    os.replace(tmp, a.readme)


if __name__ == "__main__":
    main()
