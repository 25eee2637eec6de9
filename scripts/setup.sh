#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup.sh - install what muxprof needs on Debian/Ubuntu (only what is
# missing), then configure ./build and build the muxprof program, its man
# page and completion there (scripts/test.sh builds the test programs and
# runs them; `cmake --build build` builds everything).
#
# Usage: scripts/setup.sh [extra cmake arguments, e.g. -DMUXPROF_TESTS=OFF]
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(build-essential cmake pkg-config git libpfm4-dev libhwloc-dev hwloc libcjson-dev
      libcmocka-dev liburing-dev gnuplot-nox strace clang libbpf-dev bpftool)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "setup: need root to install: apt-get install ${missing[*]}" >&2; exit 1
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j"$(nproc)" --target muxprof mp_manual
