#!/bin/sh
# SPDX-License-Identifier: MIT
# test_loop_tcp.sh BIN - tcp fds where the network is not set up, in a network
# namespace of their own (unshare -n, as root): with the loopback interface
# down, as in a bare initramfs guest, `muxprof loop --fd-kind tcp` fails
# (exit 1) with "Network is unreachable" and says the loopback is down; with
# it up it succeeds; with net.ipv4.ip_local_port_range cut to 10 ports (the
# listener takes one) 9 connections succeed and 20 fail, saying that no local
# port is left and how to widen the range.
set -u
bin=$1
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unshare -n true 2>/dev/null || { echo "SKIP: no unshare -n here (needs root)"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: no ip (iproute2)"; exit 77; }
# ns SCRIPT: SCRIPT in a new network namespace, loop() and $bin defined
ns() { unshare -n sh -c "bin='$bin'; loop() { \"\$bin\" loop --backend poll --fd-kind tcp --calls 3 --quiet \"\$@\"; }; $1"; }

ns 'loop --fds 10' > "$t/out" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "lo down: exit $rc, not 1: $(cat "$t/out")"
grep -q "tcp: connect to 127.0.0.1:[0-9]*: Network is unreachable (the loopback interface is down: bring it up as root, ip link set lo up)" "$t/out" ||
    fail "lo down said: $(cat "$t/out")"
ns 'ip link set lo up && loop --fds 100' > "$t/out" 2>&1 || fail "lo up, 100 tcp fds: $(cat "$t/out")"
ns 'ip link set lo up && echo "40000 40009" > /proc/sys/net/ipv4/ip_local_port_range && loop --fds 9' \
    > "$t/out" 2>&1 || fail "9 connections in 10 ports: $(cat "$t/out")"
ns 'ip link set lo up && echo "40000 40009" > /proc/sys/net/ipv4/ip_local_port_range && loop --fds 20' \
    > "$t/out" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "20 connections in 10 ports: exit $rc, not 1: $(cat "$t/out")"
grep -qF "(no local port left: each connection from 127.0.0.1 takes one port of net.ipv4.ip_local_port_range; widen it as root" "$t/out" ||
    fail "ports used up said: $(cat "$t/out")"
echo ok
