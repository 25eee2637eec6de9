#!/bin/sh
# SPDX-License-Identifier: MIT
# cross-aarch64.sh - cross-build muxprof for Arm AArch64 and run its tests
# under qemu-user.  Installs what is missing (Debian/Ubuntu multiarch arm64
# packages, the cross compiler and qemu-user), configures build-aarch64 with
# cmake/toolchain-aarch64.cmake, builds, and runs ctest there; ctest runs
# every test program through qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR).
#
# Usage: scripts/cross-aarch64.sh [extra ctest arguments, e.g. -L compare]
#        scripts/cross-aarch64.sh --build-only     install, configure, build the muxprof
#                                                  program only; no ctest
# Environment: BUILD_DIR (default build-aarch64), JOBS (default: nproc),
#              CTEST_JOBS (default 6: most qemu time is waiting, not CPU),
#              CTEST_BUDGET seconds for the whole ctest (default 300): tests that
#              hang under qemu are stopped by then (ctest --stop-time) and count
#              as timeouts, so the step has a bounded run time,
#              NO_INSTALL=1 to never call apt-get.
# Exit status: ctest's (0 when every test passed or skipped), or 1 when the
# toolchain cannot be installed or the build fails.  Timings under qemu mean
# nothing, and perf_event_open gives ENOSYS there: PMU tests skip (77).
# See docs/arm64.md for what runs, what skips and why.
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -eu

cd "$(dirname "$0")/.."
BUILD_ONLY=0
if [ "${1:-}" = --build-only ]; then BUILD_ONLY=1; shift; fi
BUILD_DIR=${BUILD_DIR:-build-aarch64}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CTEST_JOBS=${CTEST_JOBS:-6}
CTEST_BUDGET=${CTEST_BUDGET:-300}
TRIPLE=aarch64-linux-gnu

say() { printf 'cross-aarch64: %s\n' "$*"; }

missing=""
command -v ${TRIPLE}-gcc >/dev/null 2>&1 || missing="$missing gcc-${TRIPLE}"
command -v qemu-aarch64 >/dev/null 2>&1 || missing="$missing qemu-user"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
for pair in hwloc:libhwloc-dev libpfm.so:libpfm4-dev libcjson:libcjson-dev \
            cmocka:libcmocka-dev liburing:liburing-dev; do
    file=${pair%%:*} pkg=${pair#*:}
    case $file in
        libpfm.so) test -e /usr/lib/${TRIPLE}/libpfm.so ;;
        *) test -e /usr/lib/${TRIPLE}/pkgconfig/${file}.pc ;;
    esac || missing="$missing ${pkg}:arm64"
done

if [ -n "$missing" ]; then
    if [ "${NO_INSTALL:-0}" = 1 ]; then
        say "missing:$missing (NO_INSTALL=1 set; install them and rerun)"; exit 1
    fi
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    say "installing:$missing"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $SUDO dpkg --add-architecture arm64
    fi
    $SUDO apt-get update -q || { say "apt-get update failed"; exit 1; }
    # --no-remove: a multiarch install must never take host packages away
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-remove $missing || {
        say "could not install:$missing (see docs/arm64.md)"; exit 1; }
fi

say "configuring $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMUXPROF_WERROR=ON >/dev/null
say "building with $JOBS jobs"
if [ "$BUILD_ONLY" = 1 ]; then
    cmake --build "$BUILD_DIR" -j "$JOBS" --target muxprof
else
    cmake --build "$BUILD_DIR" -j "$JOBS"
fi
file "$BUILD_DIR/bin/muxprof" 2>/dev/null | grep -q 'ARM aarch64' ||
    say "warning: $BUILD_DIR/bin/muxprof does not look like an aarch64 program"
[ "$BUILD_ONLY" = 1 ] && exit 0
stop=$(date -d "@$(( $(date +%s) + CTEST_BUDGET ))" +%H:%M:%S)
say "running ctest under qemu-aarch64 ($CTEST_JOBS at a time, all stopped at $stop)"
ctest --test-dir "$BUILD_DIR" -j "$CTEST_JOBS" --stop-time "$stop" --output-on-failure "$@"
