#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_corpus_json.py - write the seed corpus of fuzz_json (tests/fuzz/corpus_json/).

Seeds are small (a few KB: libFuzzer mutates small inputs much faster) and
minified, cut from the report fixtures (tests/fixtures/report/): a valid run
with few cells, one with counters and a kernel profile, one per arch, one
interrupted, plus short hostile shapes and strings that inject gnuplot,
shell and Markdown/HTML where they are written unquoted.  Rerun after a schema change:
    python3 tests/fuzz/make_corpus_json.py
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "report")
OUT = os.path.join(HERE, "corpus_json")


def load(name):
    with open(os.path.join(FIX, name)) as f:
        return json.load(f)


def trim(d, cells, keep_profile=False, counters=2):
    d = copy.deepcopy(d)
    d["results"] = [c for c in d["results"] if c["nfds"] in cells]
    for c in d["results"]:
        if not keep_profile:
            c.pop("profile", None)
        m = c.get("metrics", {})
        names = [k for k in m if k not in ("wall_ns", "wall_raw_ns")]
        for k in names[counters:]:
            del m[k]
    ctr = d.get("counters")
    if isinstance(ctr, dict) and isinstance(ctr.get("events"), list):
        ctr["events"] = ctr["events"][:4]
        for e in ctr["events"]:
            for k in ("reason", "encoding", "config"):
                e.pop(k, None)
    topo = d.get("topology")
    if isinstance(topo, dict):
        topo.pop("placements_offered", None)
    return d


def write(name, obj=None, text=None):
    if text is None:
        text = json.dumps(obj, separators=(",", ":"))
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def main():
    os.makedirs(OUT, exist_ok=True)
    syn = load("synthetic/results.json")
    arm = load("arm64/results.json")
    ns = sorted({c["nfds"] for c in syn["results"]})
    small = trim(syn, set(ns[:2]), counters=1)
    write("valid_small.json", small)
    write("valid_profile.json", trim(syn, set(ns[-2:]), keep_profile=True, counters=2))
    write("valid_arm64.json", trim(arm, set(sorted({c["nfds"] for c in arm["results"]})[:2])))
    intr = copy.deepcopy(small)
    intr["status"] = "interrupted"
    intr["interrupted_cell"] = "poll pipe N=100 ready"
    write("interrupted.json", intr)
    uns = copy.deepcopy(small)
    for c in uns["results"][:2]:
        c["status"] = "unsupported"
        c["reason"] = "fd 1100 >= FD_SETSIZE (1024)"
        c.pop("metrics", None)
    write("unsupported.json", uns)
    # hostile shapes: each small, each hitting one check
    wrong = copy.deepcopy(small)
    wrong["results"][0]["nfds"] = "10"
    write("wrong_type.json", wrong)
    huge = copy.deepcopy(small)
    huge["results"][0]["metrics"]["wall_ns"]["p50"] = 1e308
    write("huge.json", huge)
    text = json.dumps(small, separators=(",", ":"))
    write("nan.json", text=text.replace('"p50":', '"p50":NaN,"x":', 1))
    write("truncated.json", text=text[: len(text) // 2])
    write("dupkey.json", text=text.replace('"backend":', '"backend":"x","backend":', 1))
    write("minimal.json", {"schema": "muxprof-results/1", "results": []})
    write("deep.json", text="[" * 64 + "]" * 64)
    write("empty.json", text="")
    inject(small, load("profile/results.json"))


# Strings that are commands or markup where an unquoted copy lands: a gnuplot
# double-quoted string (a quote ends it, a backtick runs a command even
# inside it, a newline ends the command), a '#' comment line, Markdown/HTML.
GNUPLOT = 'x";system "touch PWN";#'
BACKTICK = "CPU `touch PWN` \\\" <img src=x onerror=alert(1)>\nsystem \"touch PWN\""
MARKUP = "<script>alert(1)</script>|`x`[l](javascript:alert(1))"


def tiny(d):
    """select, poll and epoll in one mode and fd kind of a trimmed run, four
    profile functions, no experiments: a few KB."""
    d = copy.deepcopy(d)
    d.pop("experiments", None)
    first = d["results"][0]
    seen = set()
    cells = []
    for c in d["results"]:
        key = (c["backend"], c["nfds"])
        if (c["mode"] == first["mode"] and c.get("fd_kind") == first.get("fd_kind") and
                c["backend"] in ("select", "poll", "epoll") and key not in seen):
            seen.add(key)
            cells.append(c)
    d["results"] = cells
    for c in d["results"]:
        if "functions" in c.get("profile", {}):
            c["profile"]["functions"] = c["profile"]["functions"][:4]
    return d


def inject(small, prof):
    small = tiny(small)
    g = copy.deepcopy(small)
    g["context"]["arch"] = GNUPLOT
    g["context"]["cpu_model"] = BACKTICK
    write("inject_gnuplot.json", g)
    md = copy.deepcopy(small)
    md["context"]["host"] = MARKUP
    md["context"]["kernel"] = MARKUP
    for c in md["results"]:
        m = c.get("metrics", {})
        for k in [k for k in m if k not in ("wall_ns", "wall_raw_ns")][:1]:
            m["<img/src=x/onerror=alert(1)>"] = m.pop(k)
    write("inject_markdown.json", md)
    p = tiny(trim(prof, set(sorted({c["nfds"] for c in prof["results"]})[:1]),
                  keep_profile=True))
    p["context"]["cpu_model"] = BACKTICK
    for c in p["results"]:
        for f in c.get("profile", {}).get("functions", [])[:2]:
            f["name"] = "`touch PWN`<img src=x onerror=alert(1)>"
    write("inject_profile.json", p)


if __name__ == "__main__":
    main()
