#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_reference_names.sh - a bare reference name is the built-in dataset,
# whatever the current directory holds: a directory `epyc-9354p` with a
# forged results.json (its source "FORGED", "reference": true) does not stand
# in for it in `compare epyc-9354p`.  The local one is read only as a path
# (./epyc-9354p), and is then said not to be a built-in dataset, in report.md,
# on the terminal and in --json ("builtin").
#
#   test_reference_names.sh MUXPROF SOURCE_DIR
set -u
bin=${1:?usage: test_reference_names.sh MUXPROF SOURCE_DIR}
src=${2:?usage}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cd "$tmp" || exit 1
mkdir epyc-9354p
sed 's/"source": *"/"source": "FORGED /' "$src/reports/reference/epyc-9354p.json" \
    >epyc-9354p/results.json || exit 1
grep -q FORGED epyc-9354p/results.json || { echo "cannot forge the fixture"; exit 1; }

timeout 60 "$bin" compare epyc-9354p ./epyc-9354p --out out --no-plots >term.txt 2>err.txt
st=$?
[ "$st" = 0 ] || no "compare epyc-9354p ./epyc-9354p: exit $st: $(head -c 300 err.txt)"
row1=$(grep -m1 '^| AMD EPYC 9354P' out/report.md)
row2=$(grep '^| AMD EPYC 9354P' out/report.md | sed -n 2p)
case $row1 in
  *FORGED*) no "the local epyc-9354p replaced the built-in dataset: $row1" ;;
  *"built into muxprof"*) ;;
  *) no "report.md does not say host 1 is built in: $row1" ;;
esac
case $row2 in
  *FORGED*"calls itself"*|*"calls itself"*FORGED*) ;;
  *) no "report.md does not tell the local file from a built-in dataset: $row2" ;;
esac
grep -q '^host 1: .*(published reference, built in)  <- reference epyc-9354p (built in' term.txt ||
    no "the terminal does not say host 1 is built in: $(head -1 term.txt)"
grep -q 'the local path of that name is not read' term.txt ||
    no "the terminal does not say the local epyc-9354p was not read: $(head -1 term.txt)"
grep -q '^host 2: .*a file that calls itself a reference, not built in' term.txt ||
    no "the terminal does not say host 2 is not built in: $(sed -n 2p term.txt)"

timeout 60 "$bin" compare epyc-9354p ./epyc-9354p --json >doc.json 2>err.txt
if command -v python3 >/dev/null; then
  python3 - doc.json <<'PY' || no "--json: inputs do not say which is built in"
import json, sys
d = json.load(open(sys.argv[1]))["comparison"]["inputs"]
assert d[0]["builtin"] is True and d[0]["reference"] is True, d[0]
assert d[1]["builtin"] is False and d[1]["reference"] is True, d[1]
PY
fi
[ "$fail" = 0 ] && echo "ok: a bare reference name is the built-in dataset, a local one is named as a path"
exit "$fail"
