#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ci-muxsim.sh - CI's check of the simulated caches (docs/cachesim.md): poll
# and epoll at N = 100 and 1000 in one boot of the arm64 guest under
# muxprof's own cache and TLB model, QEMU's contrib cache plugin beside it
# (scripts/muxsim.sh --with-contrib), then scripts/muxsim/check.py: every
# loop succeeded, poll's simulated L1d and dTLB misses per call grow with N
# and epoll's stay flat, the two models' L1d and L2 totals agree, and
# results.json and report.md say "simulated"; then the L3 and dTLB of
# muxprof's model in the arm64 guest: poll and epoll at 1,000, 4,000 and
# 16,000 eventfds and at 100, 1,000 and 4,000 TCP sockets, under two
# geometries whose L3 is cut to a few MiB (tests/fixtures/geometries/
# ci-*.conf), so that poll passes its L3 knee within the sweep, one boot each
# with --scope calls, and scripts/muxsim/check-llc.py: poll's LLC-load misses
# per fd grow past the knee while epoll's stay flat, poll's dTLB misses per
# fd are there and epoll's are not; then the same check in the x86_64 guest
# on TCP sockets (the 2 MiB-L3 EPYC geometry, --arch x86_64, N = 100, 1,000
# and 4,000).
#   scripts/ci-muxsim.sh [OUTDIR]     (default build/ci-muxsim; the L3 runs
#                                      in OUTDIR-llc-GEOMETRY, the x86_64 one
#                                      in OUTDIR-x86-tcp)
# Installs what is missing (qemu-system-arm, qemu-system-x86, qemu-user,
# libglib2.0-dev, python3, cpio); needs the host build (scripts/setup.sh) and
# builds the arm64 muxprof when build-aarch64 lacks it.  CI_MUXSIM_BUDGET
# seconds bound the first boot and its import (default 600),
# CI_MUXSIM_LLC_BUDGET seconds the two L3 boots together (default 180),
# CI_MUXSIM_X86_BUDGET seconds the x86_64 boot (default 240).
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/ci-muxsim}
budget=${CI_MUXSIM_BUDGET:-600}
say() { printf 'ci-muxsim: %s\n' "$*" >&2; }

missing=()
for pair in qemu-system-aarch64:qemu-system-arm qemu-system-x86_64:qemu-system-x86 \
            qemu-aarch64:qemu-user python3:python3 cpio:cpio; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
pkg-config --exists glib-2.0 2>/dev/null || missing+=(libglib2.0-dev)
if ((${#missing[@]})); then
    [ "$(id -u)" = 0 ] || { say "missing: ${missing[*]} (install them as root)"; exit 1; }
    say "installing ${missing[*]}"
    apt-get update -q >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-remove "${missing[@]}" >/dev/null ||
        { say "could not install ${missing[*]}"; exit 1; }
fi
[ -x build/bin/muxprof ] || { say "no host build: run scripts/setup.sh first"; exit 1; }
if [ ! -x build-aarch64/bin/muxprof ]; then
    say "building the arm64 muxprof"
    { cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
      cmake --build build-aarch64 -j2 --target muxprof >/dev/null; } ||
        { say "the arm64 build failed (scripts/cross-aarch64.sh installs its libraries)"; exit 1; }
fi
start=$(date +%s)
timeout --kill-after=10 "$budget" scripts/muxsim.sh --out "$out" --force \
    --geometry neoverse-n1 --backends poll,epoll --fds 100,1000 --calls 40 --with-contrib
rc=$?
[ "$rc" = 124 ] && { say "did not finish within $budget s"; exit 1; }
[ "$rc" = 0 ] || { say "scripts/muxsim.sh failed ($rc)"; exit 1; }
python3 scripts/muxsim/check.py "$out" || exit 1
# The L3 (LLC) and dTLB of muxprof's model in the arm64 guest, two
# geometries: eventfds under one, TCP sockets under the other.
llc_budget=${CI_MUXSIM_LLC_BUDGET:-180}
llc_start=$(date +%s) llc=()
for run in "ci-epyc-l3-2m eventfd 1000,4000,16000" "ci-n1-slc-4m tcp 100,1000,4000"; do
    read -r g kind ns <<<"$run"
    left=$(( llc_budget - ($(date +%s) - llc_start) ))
    [ "$left" -gt 10 ] || { say "the L3 check ran out of its $llc_budget s"; exit 1; }
    timeout --kill-after=10 "$left" scripts/muxsim.sh --out "$out-llc-$g" --force \
        --geometry "tests/fixtures/geometries/$g.conf" --arch arm64 --backends poll,epoll \
        --fds "$ns" --fd-kind "$kind" --calls 8 --warmup 3 --scope calls ||
        { say "scripts/muxsim.sh --geometry $g --fd-kind $kind failed"; exit 1; }
    llc+=("$out-llc-$g")
done
python3 scripts/muxsim/check-llc.py "${llc[@]}" || exit 1
say "the L3 check took $(( $(date +%s) - llc_start )) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
x86_start=$(date +%s)
timeout --kill-after=10 "${CI_MUXSIM_X86_BUDGET:-240}" scripts/muxsim.sh --out "$out-x86-tcp" \
    --force --geometry tests/fixtures/geometries/ci-epyc-l3-2m.conf --arch x86_64 \
    --backends poll,epoll --fds 100,1000,4000 --fd-kind tcp --calls 8 --warmup 3 --scope calls ||
    { say "scripts/muxsim.sh --arch x86_64 --fd-kind tcp failed"; exit 1; }
python3 scripts/muxsim/check-llc.py "$out-x86-tcp" || exit 1
say "the x86_64 tcp check took $(( $(date +%s) - x86_start )) s"
say "passed in $(( $(date +%s) - start )) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
