#!/usr/bin/env python3
"""readme-results.py - regenerate the README's results table from a run directory.

    scripts/readme-results.py RUN_DIR [--readme README.md] [--fds 10,100,1000,2000,10000]
                              [--check] [--stdout]

Reads RUN_DIR/results.json (nothing else) and rewrites the block of README.md between
the lines `<!-- results:begin -->` and `<!-- results:end -->`: one paragraph saying where,
when, with which commit and command the run was made and how noisy the host was, then the
table of median ns per call (ready and wakeup, select/poll/epoll, poll/epoll), then the
figures the prose quotes (poll/epoll at the largest N, the empty bracket). Text and numbers
therefore come from one run.

--check   exit 1 (and print the difference) when the README's block differs from the run
--stdout  print the block instead of writing README.md
Exit status: 0 done, 1 failure or --check found a difference, 2 usage error.
"""
import argparse
import difflib
import json
import os
import sys

BEGIN = "<!-- results:begin -->"
END = "<!-- results:end -->"
BACKENDS = ("select", "poll", "epoll")


def fail(msg, code=1):
    print(f"readme-results: {msg}", file=sys.stderr)
    sys.exit(code)


def num(v, digits=0):
    """1234.5 -> '1,235'; ratios get significant digits like the report."""
    if v is None:
        return "–"
    if digits:
        return f"{v:,.{digits}f}"
    return f"{v:,.0f}"


def ratio(v):
    if v is None:
        return "–"
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}" if v < 1.95 else f"{v:.1f}"


def cells(run):
    out = {}
    for c in run.get("results", []):
        if c.get("fd_kind", "pipe") != "pipe" or c.get("active", 1) != 1:
            continue
        if c.get("fd_table", "private") != "private":
            continue
        key = (c.get("mode"), c.get("backend"), c.get("nfds"))
        if c.get("status") == "ok":
            out[key] = c["metrics"]["wall_ns"]["p50"]
        else:
            out[key] = c.get("status", "missing")
    return out


def cell_text(v):
    if v is None:
        return "not run"
    if isinstance(v, str):
        return v
    return num(v)


def poll_epoll(cs, mode, n):
    p, e = cs.get((mode, "poll", n)), cs.get((mode, "epoll", n))
    if isinstance(p, (int, float)) and isinstance(e, (int, float)) and e > 0:
        return p / e
    return None


def block(run, fds):
    ctx = run.get("context", {})
    cfg = run.get("config", {})
    cs = cells(run)
    have = sorted({k[2] for k in cs})
    rows = [n for n in fds if n in have] if fds else have
    if not rows:
        fail("the run has no pipe cells at the N asked for")
    noise = ctx.get("noise") or {}
    load = noise.get("loadavg_start"), noise.get("loadavg_end")
    steal = noise.get("steal_share")
    when = (run.get("started_utc") or "?")[:10]
    lines = [BEGIN, ""]
    para = (f"Measured on {ctx.get('host', '?')}: {ctx.get('nr_cpus', '?')} CPUs, "
            f"{ctx.get('cpu_model', '?')}{' (VM)' if ctx.get('hypervisor') else ''}, "
            f"Linux {ctx.get('kernel', '?')}, {ctx.get('git_describe', '?')}, {when}, with "
            f"`{ctx.get('command', '?')}` ({cfg.get('samples', '?')} samples x "
            f"{cfg.get('repeats', '?')} repeats per cell after {cfg.get('warmup', '?')} warm-up "
            f"calls, pipes, ready fd {cfg.get('ready_pos', 'last')}).")
    if isinstance(load[0], list) and isinstance(load[1], list):
        para += (f" Load average {load[0][0]:.2f} at the start and {load[1][0]:.2f} at the end"
                 + (f", {steal * 100:.1f}% of CPU time stolen by the hypervisor"
                    if isinstance(steal, (int, float)) else "") + ".")
    para += (" Median ns per call; the run's report.md has p90/p99, the spread across "
             "repeats, fits and figures.")
    lines += [para, ""]
    lines.append("| N | ready: select | poll | epoll | poll/epoll | wakeup: select | poll | epoll "
                 "| poll/epoll |")
    lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in rows:
        row = [num(n)]
        for mode in ("ready", "wakeup"):
            row += [cell_text(cs.get((mode, b, n))) for b in BACKENDS]
            row.append(ratio(poll_epoll(cs, mode, n)))
        lines.append("| " + " | ".join(row) + " |")
    top = rows[-1]
    cal = run.get("calibration", {}).get("empty_bracket_ns", {})
    lines += ["", f"Quoted below: poll/epoll at {num(top)} fds is "
              f"**{ratio(poll_epoll(cs, 'ready', top))}** in ready mode and "
              f"**{ratio(poll_epoll(cs, 'wakeup', top))}** in wakeup mode; an empty clock "
              f"bracket costs {num(cal.get('p50'))} ns (p50). Regenerate this block with "
              f"`scripts/readme-results.py RUN_DIR`.", "", END]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--readme", default=os.path.join(os.path.dirname(__file__), "..",
                                                     "README.md"))
    ap.add_argument("--fds", default="10,100,1000,2000,10000",
                    help="the N to show (those the run has); 'all' for every N")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--stdout", action="store_true")
    a = ap.parse_args()
    path = a.run_dir
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    try:
        with open(path) as f:
            run = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e}; give a run directory made by `muxprof run`")
    try:
        fds = None if a.fds == "all" else [int(x) for x in a.fds.split(",")]
    except ValueError:
        fail(f"--fds: '{a.fds}' is not a comma list of counts or 'all'", 2)
    new = block(run, fds)
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
    old = text[i:j + len(END)] + "\n"
    if a.check:
        if old != new:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       "README.md", path))
            sys.exit(1)
        return
    out = text[:i] + new + text[j + len(END) + 1:]
    tmp = f"{a.readme}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(out)
    os.replace(tmp, a.readme)


if __name__ == "__main__":
    main()
