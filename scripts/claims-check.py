#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How often identical runs resolve the seeds' growth claim, per mode.

Runs `muxprof run` K times with the same options (or reads run directories
given with --dirs), reads each run's claims from `muxprof report DIR --json`
and counts, per mode, the runs in which "poll grows" and "epoll flat" were
resolved as yes, the verdicts of the whole claim, and contradictions (one
run says yes where another says no).  The 1-minute load average before each
run is printed beside it: the host's load decides much of the answer.

usage: claims-check.py [--runs K] [--muxprof PATH] [--out DIR] [--dirs DIR...]
                       [-- RUN OPTIONS]   (default run options: --quick)

--out DIR receives the runs (DIR/run1 ...): a new directory, or an existing
one of yours that its group and others cannot write (a symbolic link, or
another user's or a writable directory, is refused, exit 1).  Default: a new
directory claims-check.XXXXXXXX under $TMPDIR or /tmp (mkdtemp, mode 0700),
named on stderr.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from outdir import outdir  # noqa: E402


def fmt(v, digits=2):
    return "none" if v is None else f"{v:.{digits}f}"


def claims_of(mp, d):
    out = subprocess.run([mp, "report", d, "--json"], capture_output=True, text=True,
                         check=True).stdout
    doc = json.loads(out)
    return [c for c in doc["claims"]["checks"] if c["claim"].startswith("poll grows with N")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog=__doc__[__doc__.index("--out DIR receives"):],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--muxprof", default="build/bin/muxprof")
    ap.add_argument("--out", help="directory for the runs (see below) [a new one under "
                    "$TMPDIR or /tmp]")
    ap.add_argument("--dirs", nargs="*")
    ap.add_argument("run_opts", nargs="*")
    a = ap.parse_args()
    opts = a.run_opts or ["--quick"]
    dirs, loads = list(a.dirs or []), {}
    if not a.dirs:
        a.out = outdir("claims-check", a.out)
        print(f"claims-check: the runs go to {a.out}", file=sys.stderr)
    for i in range(0 if a.dirs else a.runs):
        d = os.path.join(a.out, f"run{i + 1}")
        loads[d] = os.getloadavg()[0]
        r = subprocess.run([a.muxprof, "run", "--out", d, "--force"] + opts,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            print(f"{d}: muxprof run exited {r.returncode}", file=sys.stderr)
            continue
        dirs.append(d)
    tally = collections.defaultdict(collections.Counter)
    for d in dirs:
        row = []
        for c in claims_of(a.muxprof, d):
            m = c["mode"]
            for key in ("poll_grows_verdict", "poll_about_linear_verdict", "epoll_flat_verdict",
                        "verdict"):
                tally[(m, key)][c.get(key, "not measured")] += 1
            row.append(f"{m}: {c['verdict']} (grows {c.get('poll_grows_verdict')}, linear "
                       f"{c.get('poll_about_linear_verdict')}, flat {c.get('epoll_flat_verdict')}, "
                       f"slope {fmt(c.get('poll_loglog_slope_lo'))}-{fmt(c.get('poll_loglog_slope_hi'))}, "
                       f"from N={fmt(c.get('poll_linear_from_nfds'), 0)} "
                       f"{fmt(c.get('poll_linear_slope_lo'))}-{fmt(c.get('poll_linear_slope_hi'))})")
        load = f"load {loads[d]:.2f}" if d in loads else "load not measured"
        print(f"{d} ({load}): " + "; ".join(row))
    what = "run directories given" if a.dirs else " ".join(opts)
    print(f"\n{len(dirs)} runs ({what}):")
    bad = 0
    for (m, key), cnt in sorted(tally.items()):
        contra = cnt["yes"] and cnt["no"]
        bad += bool(contra)
        print(f"  {m:7} {key:26} " + ", ".join(f"{v} {k}" for k, v in cnt.most_common())
              + ("  CONTRADICTION" if contra else ""))
    print(f"contradictions between runs: {bad}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
