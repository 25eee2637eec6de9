#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_ci_run.sh - .ci/run stops at the first failed command: its steps are
# replaced by stubs that record that they ran, and one of them fails.  A
# failure in the README's test command (setup, then scripts/test.sh) must end the run
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
  for s in "${steps[@]}"; do
    local p="$work/t/$s"
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
# The README's test command, as a reader copies it, is CI's first step.
readme_cmd=$(grep -E '^scripts/setup\.sh && ' "$src/README.md" | grep -v -m1 'muxprof run') ||
  { echo "FAIL: no test command (scripts/setup.sh && ...) in README.md" >&2; exit 1; }
grep -qF "($readme_cmd)" "$src/.ci/run" ||
  { echo "FAIL: .ci/run does not run the README's test command '$readme_cmd'" >&2; fails=$((fails + 1)); }
for failing in scripts/setup.sh scripts/test.sh; do
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
if [ "$ran" -ne ${#steps[@]} ]; then
  echo "FAIL: $ran of ${#steps[@]} steps ran with every step passing" >&2
  fails=$((fails + 1))
fi
((fails == 0)) || exit 1
echo "ok: .ci/run runs the README's test command and stops at a failed setup or test run; all ${#steps[@]} steps run otherwise"
