#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_corpus_simimport.py - write the seed corpus of fuzz_simimport
(tests/fuzz/corpus_simimport/).

Each seed is one scripts/muxsim.sh run directory in the container format of
fuzz_simimport.c (a line "=== NAME" before each file), made from the recorded
boot tests/fixtures/muxsim (poll and epoll at N = 100 and 1,000 under
neoverse-n1): the whole run, a two-cell cut of it, loops that failed in the
guest, functions.json, a geometry file inside the directory, a measured
run's results.json already there, and broken variants of each file.  Seeds
stay under 16 KiB (the fuzz run's -max_len).  Rerun after a format change:
    python3 tests/fuzz/make_corpus_simimport.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..")
FIX = os.path.join(SRC, "tests", "fixtures", "muxsim")
OUT = os.path.join(HERE, "corpus_simimport")


def read(*path):
    with open(os.path.join(*path), "rb") as f:
        return f.read()


def container(files):
    """files: (name, bytes) pairs, in order."""
    return b"".join(b"=== " + n.encode() + b"\n" + d for n, d in files)


def write(name, files=None, raw=None):
    data = raw if raw is not None else container(files)
    assert len(data) < 16384, (name, len(data))
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    plan = read(FIX, "plan.env")
    cells = read(FIX, "cells.txt")
    tsv = read(FIX, "muxsim.tsv")
    plugin_log = read(FIX, "guest", "plugin.log")
    lines = tsv.split(b"\n")
    head, rows = lines[:2], [r for r in lines[2:] if r]

    def cut(keep):   # muxsim.tsv with the rows of cells `keep` only, renumbered
        out = list(head)
        for i, c in enumerate(keep):
            for r in rows:
                f = r.split(b"\t")
                if f[0] == str(c).encode():
                    out.append(b"\t".join([str(i).encode()] + f[1:]))
        return b"\n".join(out) + b"\n"

    small_plan = plan.replace(b"fds=100,1000", b"fds=100")
    small_cells = b"poll 100 0\nepoll 100 0\n"
    small_tsv = cut([0, 2])
    small = [("plan.env", small_plan), ("cells.txt", small_cells), ("muxsim.tsv", small_tsv)]

    write("full.txt", [("plan.env", plan), ("cells.txt", cells), ("muxsim.tsv", tsv),
                       ("guest/plugin.log", plugin_log)])
    write("small.txt", small)
    write("name_geometry.txt", [("plan.env", small_plan.replace(
        b"geometry=sim/geometries/neoverse-n1.conf", b"geometry=neoverse-n1"))] + small[1:])
    write("failed_loops.txt", small[:1] + [
        ("cells.txt", small_cells + b"epoll 200000 1\nselect 2000 3\n"),
        ("muxsim.tsv", small_tsv),
        ("guest/loop-epoll-200000.log",
         b"muxprof loop: epoll_ctl(ADD, fd 48822): No space left on device\n")])
    write("functions.txt", small + [("functions.json", b"""{"cells": [
 {"backend": "poll", "nfds": 100, "kept": 100, "all_rows_L1d": 4399.0,
  "functions": [{"name": "do_sys_poll", "L1d-misses": 3500.0, "L2-misses": 30.5, "LLC-load-misses": 1.5},
                {"name": "__fget_light", "L1d-misses": 800.0, "L2-misses": 0, "LLC-load-misses": 0}],
  "attributed_L1d_share": 0.978},
 {"backend": "epoll", "nfds": 100, "kept": 100, "functions": [], "attributed_L1d_share": null}]}
""")])
    write("geometry_file.txt", [("plan.env", small_plan.replace(
        b"geometry=sim/geometries/neoverse-n1.conf", b"geometry=geometry.conf"))] + small[1:] +
        [("geometry.conf", read(SRC, "sim", "geometries", "neoverse-n1.conf"))])
    write("measured_results_there.txt", small + [
        ("results.json", read(SRC, "tests", "fixtures", "muxsim-pmu", "guest", "run",
                              "results.json"))])

    # broken variants
    write("broken_plan_fds.txt", [("plan.env", small_plan.replace(b"fds=100", b"fds=1e3,-5"))] +
          small[1:])
    write("broken_plan_geometry.txt", [("plan.env", small_plan.replace(
        b"geometry=sim/geometries/neoverse-n1.conf", b"geometry=../../etc/passwd"))] + small[1:])
    write("broken_geometry_file.txt", [("plan.env", small_plan.replace(
        b"geometry=sim/geometries/neoverse-n1.conf", b"geometry=geometry.conf"))] + small[1:] +
        [("geometry.conf", b"line=64\nL1d=oops\n")])
    write("broken_cells_more.txt", small[:1] + [("cells.txt", small_cells + b"select 10 0\n"),
                                                ("muxsim.tsv", small_tsv)])
    write("broken_tsv_order.txt", small[:2] + [("muxsim.tsv", cut([2, 0]).replace(
        b"\n0\t", b"\n9\t", 1))])
    write("broken_tsv_header.txt", small[:2] + [("muxsim.tsv", small_tsv.replace(b"p10", b"p11"))])
    write("broken_functions.txt", small + [("functions.json", b'{"cells": [,{"backend": 1}]}\n')])
    write("crlf_no_final_newline.txt", [("plan.env", small_plan.replace(b"\n", b"\r\n")),
                                        ("muxsim.tsv", small_tsv),
                                        ("cells.txt", small_cells.rstrip(b"\n"))])
    write("missing_tsv.txt", small[:2])
    write("empty.txt", raw=b"")


if __name__ == "__main__":
    main()
