#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_topology_limits.sh - `topology --synthetic` is bounded: more objects under one parent
# than MP_TOPO_SYNTHETIC_MAX_ARITY (1024; hwloc builds a level in time that grows with its
# square: pu:65536 took minutes), whether a level is given as type:N or by its
# count alone ("65536", "2 8 2"), or more PUs than MP_TOPO_MAX_PUS (4096) are refused as
# usage errors with the numbers; a topology at both limits loads.  Each command runs under
# `timeout 240` (a hang bound a loaded host cannot reach: the unbounded build did not end).
#
#   test_topology_limits.sh MUXPROF
set -u
bin=${1:?usage: test_topology_limits.sh MUXPROF}
fail=0
no() { echo "FAIL: $*"; fail=1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# check DESC STATUS PATTERN
check() {
    timeout 240 "$bin" topology --synthetic "$1" >/dev/null 2>"$err"
    local st=$?
    [ "$st" = 124 ] && { no "'$1': still running after 240 s"; return; }
    [ "$st" = "$2" ] || no "'$1': exit $st, expected $2: $(head -c 300 "$err")"
    [ -z "$3" ] || grep -q -- "$3" "$err" || no "'$1': no '$3' in: $(head -c 300 "$err")"
}
check "pu:65536" 2 "has 65536 objects under one parent; at most 1024 are accepted"
check "65536" 2 "has 65536 objects under one parent; at most 1024 are accepted"
check "2 65536" 2 "has 65536 objects under one parent; at most 1024 are accepted"
check "package:2 0x10000" 2 "has 65536 objects under one parent; at most 1024 are accepted"
check "4 1024 2" 2 "has 8192 PUs; muxprof handles at most 4096"
check "package:2 core:1024 pu:4" 2 "has 8192 PUs; muxprof handles at most 4096"
check "package:4 core:1024 pu:1" 0 ""
check "4 1024 1" 0 ""
[ "$fail" = 0 ] && echo "ok: synthetic topologies past the limits refused, at them loaded"
exit "$fail"
