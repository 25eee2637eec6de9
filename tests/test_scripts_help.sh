#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_scripts_help.sh - every script a user may call (scripts/*.sh and *.py,
# scripts/muxsim/*.py, bench/*.py, deploy/ansible/host-run.sh, .ci/run) answers --help and -h with
# its usage on stdout, exit 0, and does nothing else: run from an empty
# directory (HOME and TMPDIR there too), that directory stays empty and the
# source tree's folders keep their entries.
#
#   tests/test_scripts_help.sh SOURCE_DIR
set -u
src=${1:?usage: test_scripts_help.sh SOURCE_DIR}
command -v python3 >/dev/null || { echo "SKIP: no python3 for the Python scripts"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/muxprof-help.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
fail=0
no() { echo "FAIL: $*"; fail=1; }

tree() { (cd "$src" && ls -A . scripts scripts/muxsim bench deploy/ansible .ci); }
before=$(tree)
n=0
for f in "$src"/scripts/*.sh "$src"/scripts/*.py "$src"/scripts/muxsim/*.py "$src"/bench/*.py \
         "$src"/deploy/ansible/host-run.sh "$src"/.ci/run; do
  name=${f#"$src"/}
  base=$(basename "$f")
  for opt in --help -h; do
    rm -rf "$work/cwd" && mkdir -p "$work/cwd/home" "$work/cwd/tmp"
    (cd "$work/cwd" && HOME="$work/cwd/home" TMPDIR="$work/cwd/tmp" timeout 30 "$f" "$opt" \
       >"$work/out" 2>"$work/err" </dev/null)
    st=$?
    [ "$st" = 0 ] || { no "$name $opt: exit $st: $(head -c 300 "$work/err")"; continue; }
    grep -qF "${base%.*}" "$work/out" || no "$name $opt: the usage does not name the script: $(head -n 2 "$work/out")"
    [ "$(wc -l <"$work/out")" -ge 2 ] || no "$name $opt: a usage of under two lines"
    left=$(cd "$work/cwd" && find . -mindepth 1 ! -path ./home ! -path ./tmp | head -n 3)
    [ -z "$left" ] && [ -z "$(ls -A "$work/cwd/home" "$work/cwd/tmp" | grep -v ':$' | grep .)" ] ||
      no "$name $opt wrote into the directory it ran from: $left $(ls -A "$work/cwd/home" "$work/cwd/tmp")"
  done
  n=$((n + 1))
done
[ "$(tree)" = "$before" ] || no "the source tree changed: $(diff <(echo "$before") <(tree) | head -n 5)"
((n >= 20)) || no "only $n scripts found"
[ "$fail" = 0 ] && echo "test_scripts_help: $n scripts answer --help and -h with their usage and touch nothing"
exit "$fail"
