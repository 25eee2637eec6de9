# SPDX-License-Identifier: MIT
"""muxsim_cells.py - what the scripts of scripts/muxsim/ share about a run directory of
scripts/muxsim.sh: DIR/cells.txt, one line "BACKEND N STATUS" per loop the guest
ran, in the order it ran them (status 0: the loop succeeded; 2: it refused its
arguments, unsupported)."""
import os


def loops(d, ok_only=True):
    """The loops of run directory d as (backend, N, status), in order; with
    ok_only, those that succeeded as (backend, N)."""
    out = []
    with open(os.path.join(d, "cells.txt")) as f:
        for line in f:
            b, n, rc = line.split()
            if not ok_only:
                out.append((b, int(n), int(rc)))
            elif rc == "0":
                out.append((b, int(n)))
    return out
