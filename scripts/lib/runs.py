# SPDX-License-Identifier: MIT
"""runs.py - what the measuring scripts beside it (bias-check.py, uncertainty-check.py) share
about the runs they make: how loaded the host was, and the run options after `--`."""


def noise_text(docs):
    """The 1-minute load and the steal share over the runs' results.json documents, as one
    phrase; "" when no run recorded them."""
    loads, steal = [], []
    for d in docs:
        n = (d.get("context") or {}).get("noise") or {}
        loads += [v[0] for v in (n.get("loadavg_start"), n.get("loadavg_end")) if v]
        if isinstance(n.get("steal_share"), (int, float)):
            steal.append(n["steal_share"])
    if not loads:
        return ""
    s = "1-minute load %.2f to %.2f" % (min(loads), max(loads))
    if steal:
        s += ", steal %.1f%% to %.1f%% of CPU time" % (min(steal) * 100, max(steal) * 100)
    return s


def split_run_options(argv):
    """(the script's own arguments, the muxprof run options after `--`)."""
    if "--" not in argv:
        return argv, []
    k = argv.index("--")
    return argv[:k], argv[k + 1:]
