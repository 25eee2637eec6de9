#!/bin/sh
# SPDX-License-Identifier: MIT
# test_topology_geometry.sh BIN FIXTURES - `muxprof topology --geometry`: the
# caches of an hwloc XML export with ways (tests/fixtures/topology/
# vm-2core-ways.xml, this development VM: 32 KiB 8-way L1d and L1i, 1 MiB 8-way
# L2, 32 MiB 16-way non-inclusive L3) as a geometry file of the model, the
# L1i included; the TLB lines say they are placeholders; an export whose
# caches have no ways (associativity 0) is refused with exit 1, naming the
# level, and prints nothing on stdout.
set -u
bin=$1 fx=$2
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$bin" topology --xml "$fx/vm-2core-ways.xml" --geometry > "$t/g" 2>"$t/err" ||
    fail "--geometry: $(cat "$t/err")"
for want in line=64 l1d=32K,8 l1i=32K,8 l2=1M,8 l3=32M,16 l3_policy=victim page=4K \
            dtlb=64,64 itlb=64,64 l2tlb=2048,8; do
    grep -qx "$want" "$t/g" || fail "no line $want in: $(cat "$t/g")"
done
grep -q "^# .*hwloc knows no TLBs: dtlb, itlb, l2tlb and" "$t/g" || fail "TLBs not flagged: $(cat "$t/g")"
"$bin" topology --xml "$fx/vm-smt-cpuset-0_2.xml" --geometry > "$t/g2" 2>"$t/err"
[ $? = 1 ] || fail "an export without ways was not refused with 1"
grep -q "hwloc does not know the ways of the l1d cache" "$t/err" || fail "said: $(cat "$t/err")"
[ ! -s "$t/g2" ] || fail "a refusal printed: $(cat "$t/g2")"
"$bin" topology --json --geometry >/dev/null 2>"$t/err"
[ $? = 2 ] && grep -q "give --json or --geometry, not both" "$t/err" || fail "--json --geometry: $(cat "$t/err")"
echo ok
