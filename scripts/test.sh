#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test.sh - build the test programs in ./build (configured by scripts/setup.sh)
# and run the test suite, several tests at a time; then name each skipped
# test with the reason it gave (a hardware PMU this host lacks, a tool not
# installed), which ctest's own summary leaves out.
#
# Usage: scripts/test.sh [extra ctest arguments, e.g. -L report, -R test_run]
# Environment: CTEST_JOBS (default: the number of CPUs), BUILD_DIR (default build).
# Exit status: ctest's (0 when every test passed or was skipped), 1 when the
# build fails or there is no configured build, 2 for a usage error.
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
jobs=${CTEST_JOBS:-$(nproc)}
case $jobs in ''|*[!0-9]*|0) echo "test.sh: CTEST_JOBS=$jobs is not a positive number" >&2; exit 2 ;; esac
[ -f "$build/CMakeCache.txt" ] || { echo "test.sh: no configured $build/: run scripts/setup.sh first" >&2; exit 1; }

cmake --build "$build" -j"$(nproc)" >"$build/test-build.log" 2>&1 ||
  { tail -n 30 "$build/test-build.log" >&2; echo "test.sh: the build failed (log: $build/test-build.log)" >&2; exit 1; }

out=$(mktemp "${TMPDIR:-/tmp}/muxprof-ctest.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
ctest --test-dir "$build" -j"$jobs" --output-on-failure "$@" | tee "$out"
rc=${PIPESTATUS[0]}

# Each skipped test's reason: the SKIP line of its output (else its last line)
# in ctest's log of this run.
mapfile -t skipped < <(sed -n 's/^.*Test *#[0-9]*: \([^ ]*\) \.*\*\*\*Skipped.*$/\1/p' "$out")
if ((${#skipped[@]})); then
  echo
  echo "skipped, with the reasons they gave:"
  for t in "${skipped[@]}"; do
    why=$(awk -v t="$t" '
      $0 ~ "^[0-9]+/[0-9]+ Test: " t "$" { on = 1; out = 0; next }
      on && /^Output:/ { out = 1; getline; next }
      on && out && /^<end of output>/ { exit }
      on && out { last = $0; if (!skip && /SKIP|[Ss]kipp/) skip = $0 }
      END { print (skip != "" ? skip : last) }' "$build/Testing/Temporary/LastTest.log")
    printf '  %-28s %s\n' "$t" "${why:-(no reason printed)}"
  done
fi
exit "$rc"
