#!/usr/bin/env bash
# validate-host.sh - the check to run on a host with a real PMU (bare metal,
# or a VM with a virtual PMU): what the host offers, then a quick run with
# the cache preset, with everything printed kept under docs/validation/.
#   scripts/validate-host.sh [OUTDIR]     (default docs/validation/<host>-<date>)
# Needs a built tree (scripts/setup.sh).  Takes about a minute.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/muxprof
[ -x "$bin" ] || { echo "validate-host: build first: scripts/setup.sh" >&2; exit 1; }
out=${1:-docs/validation/$(hostname -s)-$(date -u +%Y%m%d)}
mkdir -p "$out"
{
  echo "# muxprof validation on $(hostname -s), $(date -u +%FT%TZ)"
  echo "\$ uname -a"; uname -a
  echo "\$ muxprof --version"; "$bin" --version
  echo "\$ muxprof doctor"; "$bin" doctor
  echo "\$ muxprof events --events cache"; "$bin" events --events cache
  echo "\$ muxprof topology"; "$bin" topology
} >"$out/doctor.txt" 2>&1
"$bin" run --quick --events cache --out "$out/run" --force >"$out/run.txt" 2>&1
echo "exit status of the quick run: $?" >>"$out/run.txt"
echo "validate-host: wrote $out/doctor.txt, $out/run.txt and $out/run/"
