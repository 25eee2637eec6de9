#!/bin/sh
# SPDX-License-Identifier: MIT
# test_loop_tcp.sh BIN - tcp fds in a network namespace of their own
# (unshare -n, as root).  With the loopback interface down, as in a bare
# initramfs guest, `muxprof loop --fd-kind tcp` fails (exit 1) with "Network
# is unreachable" and says the loopback is down; with it up it succeeds.
# With net.ipv4.ip_local_port_range cut to 10 ports (the listener takes one)
# 200 connections still succeed, from further loopback addresses (127.0.0.2,
# ...: ss shows them while the loop runs); 3,000 need more than the 250
# addresses give, and fail saying that no local port is left and how to
# widen the range.
set -u
bin=$1
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unshare -n true 2>/dev/null || { echo "SKIP: no unshare -n here (needs root)"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: no ip (iproute2)"; exit 77; }
# ns SCRIPT: SCRIPT in a new network namespace, with loop() running muxprof loop on tcp fds
ns() { unshare -n sh -c "bin='$bin'; loop() { \"\$bin\" loop --backend poll --fd-kind tcp --quiet \"\$@\"; }; $1"; }
narrow='ip link set lo up && echo "40000 40009" > /proc/sys/net/ipv4/ip_local_port_range'

ns 'loop --fds 10 --calls 3' > "$t/out" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "lo down: exit $rc, not 1: $(cat "$t/out")"
grep -q "tcp: connect from 127.0.0.1 to 127.0.0.1:[0-9]*: Network is unreachable (the loopback interface is down: bring it up as root, ip link set lo up)" "$t/out" ||
    fail "lo down said: $(cat "$t/out")"
ns 'ip link set lo up && loop --fds 100 --calls 3' > "$t/out" 2>&1 || fail "lo up, 100 tcp fds: $(cat "$t/out")"
# 200 connections in 10 ports: the sources the loop's peer holds, counted while it calls
# (muxprof itself in the background, not the function's subshell: kill reaches it; a
# timeout bounds it if the kill never comes)
ns "$narrow"' && { timeout 60 "$bin" loop --backend poll --fd-kind tcp --quiet --fds 200 \
    --calls 3000000 & p=$!; }; i=0
    while [ $i -lt 100 ] && [ "$(ss -Htn state established | wc -l)" -lt 400 ]; do sleep 0.1; i=$((i+1)); done
    ss -Htn state established > '"$t/ss"'; kill $p; wait $p' > "$t/out" 2>&1
[ "$(wc -l < "$t/ss")" = 400 ] || fail "200 connections in 10 ports: $(wc -l < "$t/ss") sockets established: $(cat "$t/out")"
srcs=$(awk '$4 ~ /^127\.0\.0\.1:/ {sub(/:[0-9]+$/, "", $3); print $3}' "$t/ss" | sort -u | wc -l)
[ "$srcs" -gt 1 ] || fail "200 connections from $srcs source address: $(head -5 "$t/ss")"
ns "$narrow"' && loop --fds 3000 --calls 3' > "$t/out" 2>&1; rc=$?
[ "$rc" = 1 ] || fail "3,000 connections in 10 ports: exit $rc, not 1: $(cat "$t/out")"
grep -qF "(no local port left: each connection from 127.0.0.1 ... 127.0.0.250 takes one port of net.ipv4.ip_local_port_range; widen it as root" "$t/out" &&
    grep -q "tcp: connect from 127.0.0.250 to 127.0.0.1:" "$t/out" || fail "ports used up said: $(cat "$t/out")"
echo ok
