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
      libcmocka-dev liburing-dev gnuplot-nox strace)
# `muxprof trace` is built where these are (an Ubuntu without a bpftool
# package has it in linux-tools): installed when the distribution offers
# them, else the rest is built and trace says what it lacks.
trace_pkgs=(clang libbpf-dev bpftool)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=() trace_missing=()
for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${trace_pkgs[@]}"; do installed "$p" || trace_missing+=("$p"); done
if ((${#missing[@]} + ${#trace_missing[@]})); then
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "setup: need root to install: apt-get install ${missing[*]} ${trace_missing[*]}" >&2
    exit 1
  fi
  $sudo apt-get update -qq
  offered=()
  for p in "${trace_missing[@]}"; do
    if apt-cache show "$p" >/dev/null 2>&1; then offered+=("$p"); else
      echo "setup: $p is not offered here: muxprof trace will not be built" >&2
    fi
  done
  echo "setup: installing ${missing[*]} ${offered[*]}" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" "${offered[@]}" \
    >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j"$(nproc)" --target muxprof mp_manual
