#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_ci_run.sh - .ci/run stops at the first failed command: its steps are
# replaced by stubs that record that they ran, and one of them fails.  A
# failure in the README's test command (setup, then ctest) must end the run
# with a non-zero status before any later step starts; with every stub
# passing, every step runs and the run exits 0.
#   tests/test_ci_run.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: test_ci_run.sh SOURCE_DIR}
work=$(mktemp -d "${TMPDIR:-/tmp}/muxprof-ci-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Every script .ci/run calls by its path in the tree, and the commands it
# calls by name that a stub must stand in for.
mapfile -t steps < <(grep -oE '(scripts|tests)/[A-Za-z0-9_./-]+\.sh' "$src/.ci/run" | sort -u)
((${#steps[@]} >= 3)) || { echo "FAIL: found only ${#steps[@]} steps in .ci/run" >&2; exit 1; }

setup_tree() {   # setup_tree FAILING_STEP
  rm -rf "$work/t"
  mkdir -p "$work/t/.ci" "$work/t/bin"
  cp "$src/.ci/run" "$work/t/.ci/run"
  for s in "${steps[@]}" ctest; do
    local p="$work/t/$s"
    [ "$s" = ctest ] && p="$work/t/bin/ctest"
    mkdir -p "$(dirname "$p")"
    printf '#!/bin/sh\necho "%s" >> "%s/ran"\n[ "%s" != "%s" ]\n' \
      "$s" "$work/t" "$s" "$1" > "$p"
    chmod +x "$p"
  done
}

run_ci() {
  (cd "$work/t" && PATH="$work/t/bin:$PATH" bash .ci/run > "$work/out" 2>&1)
}

fails=0
for failing in scripts/setup.sh ctest; do
  setup_tree "$failing"
  if run_ci; then
    echo "FAIL: .ci/run exited 0 although $failing failed" >&2; fails=$((fails + 1)); continue
  fi
  last=$(tail -n 1 "$work/t/ran")
  if [ "$last" != "$failing" ]; then
    echo "FAIL: after $failing failed, .ci/run went on to $last" >&2; fails=$((fails + 1))
  fi
done

setup_tree none
if ! run_ci; then
  echo "FAIL: .ci/run failed with every step passing:" >&2; cat "$work/out" >&2; exit 1
fi
ran=$(sort -u "$work/t/ran" | wc -l)
if [ "$ran" -ne $((${#steps[@]} + 1)) ]; then
  echo "FAIL: $ran of $((${#steps[@]} + 1)) steps ran with every step passing" >&2
  fails=$((fails + 1))
fi
((fails == 0)) || exit 1
echo "ok: .ci/run stops at a failed setup or ctest; ${#steps[@]} steps and ctest all run otherwise"
