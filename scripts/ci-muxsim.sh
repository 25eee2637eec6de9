#!/usr/bin/env bash
# ci-muxsim.sh - CI's check of the simulated caches (docs/cachesim.md): poll
# and epoll at N = 100 and 1000 in one boot of the arm64 guest under
# muxprof's own cache and TLB model, QEMU's contrib cache plugin beside it
# (scripts/muxsim.sh --with-contrib), then scripts/muxsim/check.py: every
# loop succeeded, poll's simulated L1d and dTLB misses per call grow with N
# and epoll's stay flat, the two models' L1d and L2 totals agree, and
# results.json and report.md say "simulated".
#   scripts/ci-muxsim.sh [OUTDIR]     (default build/ci-muxsim)
# Installs what is missing (qemu-system-arm, qemu-user, libglib2.0-dev,
# python3, cpio); needs the host build (scripts/setup.sh) and builds the arm64
# muxprof when build-aarch64 lacks it.  CI_MUXSIM_BUDGET seconds bound the
# boot and its import (default 600).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/ci-muxsim}
budget=${CI_MUXSIM_BUDGET:-600}
say() { printf 'ci-muxsim: %s\n' "$*" >&2; }

missing=()
for pair in qemu-system-aarch64:qemu-system-arm qemu-aarch64:qemu-user python3:python3 \
            cpio:cpio; do
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
say "passed in $(( $(date +%s) - start )) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
