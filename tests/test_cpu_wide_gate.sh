#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_cpu_wide_gate.sh - an event of a PMU that counts per CPU (a cpumask in
# sysfs, as uncore PMUs have) is opened only with the privilege for CPU-wide
# counting, and is otherwise unavailable with the reason.  The host's msr PMU
# is given a cpumask inside a private mount namespace (a bind mount over its
# sysfs directory), then `muxprof events --events msr/tsc/` runs as root
# (allowed) and as nobody with perf_event_paranoid=2 (refused, not widened).
#
#   test_cpu_wide_gate.sh MUXPROF
#
# Root only; exits 77 where it cannot run (not root, no msr PMU, no unshare).
set -uo pipefail
bin=${1:?usage: test_cpu_wide_gate.sh MUXPROF}
skip() { echo "SKIP: $1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (mount namespace, another user)"
command -v unshare >/dev/null && command -v runuser >/dev/null || skip "no unshare/runuser"
msr=$(readlink -f /sys/bus/event_source/devices/msr 2>/dev/null) && [ -r "$msr/type" ] ||
  skip "no msr PMU in /sys/bus/event_source/devices"
[ -e "$msr/cpumask" ] && skip "the msr PMU already has a cpumask here"

tmp=$(mktemp -d)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
chmod 0755 "$tmp"
fake=$tmp/msr
mkdir -p "$fake/events" "$fake/format"
cat "$msr/type" >"$fake/type"
for f in "$msr"/events/* "$msr"/format/*; do cat "$f" >"$fake/${f#"$msr"/}"; done
echo 0-1 >"$fake/cpumask"
chmod -R a+rX "$fake"
cp "$bin" "$tmp/muxprof"
chmod 0755 "$tmp/muxprof"
echo 2 >/proc/sys/kernel/perf_event_paranoid || skip "cannot set kernel.perf_event_paranoid"

unshare -m --propagation private -- bash -c '
  mount --bind "$1" "$2" || exit 77
  "$3" events --events msr/tsc/ >"$4/root.txt" 2>&1
  runuser -u nobody -- "$3" events --events msr/tsc/ >"$4/nobody.txt" 2>&1
' _ "$fake" "$msr" "$tmp/muxprof" "$tmp"
rc=$?
[ "$rc" = 77 ] && skip "cannot bind-mount over $msr"

fails=0
check() { if "$@"; then echo "ok   $*"; else echo "FAIL $*"; fails=$((fails + 1)); fi; }
row() { grep -E "^  msr/tsc/ " "$tmp/$1.txt"; }
echo "-- root:"; cat "$tmp/root.txt"; echo "-- nobody:"; cat "$tmp/nobody.txt"
check grep -q "cpu-wide" <(row root)
check grep -q " opened " <(row root)
check grep -q " unavailable " <(row nobody)
check grep -q "needs CPU-wide counting" "$tmp/nobody.txt"
check grep -q "grant-perfmon.sh perf_users" "$tmp/nobody.txt"
# The software group is per thread and still opens for nobody.
check grep -qE "^  task-clock +opened" "$tmp/nobody.txt"
((fails)) && { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
