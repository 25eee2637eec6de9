#!/bin/sh
# SPDX-License-Identifier: MIT
# results.json is parsed strictly by every reader: text after the document,
# a second document, a key twice in one object, or bytes that are not UTF-8
# (a stray byte, an overlong form, a surrogate, a sequence cut short) are
# refused (exit 2, the
# file and what is wrong named), by report, report --anonymize and compare.
#   test_strict_json.sh MUXPROF FUZZ_DIR
bin=${1:?usage: test_strict_json.sh MUXPROF FUZZ_DIR}
fuzz=${2:?usage: test_strict_json.sh MUXPROF FUZZ_DIR}
tmp=$(mktemp -d /tmp/mp-strict-json.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
valid=$fuzz/corpus_json/valid_small.json

# The base they are made from is accepted: the refusals below are the edits'.
mkdir "$tmp/valid" && cp "$valid" "$tmp/valid/results.json"
if ! "$bin" report "$tmp/valid" --no-plots >/dev/null 2>"$tmp/err"; then
  echo "FAIL: the valid base was refused: $(cat "$tmp/err")"
  exit 1
fi

n=0
for f in "$fuzz"/regress/json/strict-*.json; do
  n=$((n + 1))
  name=$(basename "$f" .json)
  case $name in
    *duplicate*) want="appears twice" ;;
    *utf8*) want="not valid UTF-8 at line" ;;
    *) want="text after the end of the JSON document" ;;
  esac
  d=$tmp/$name
  mkdir "$d" && cp "$f" "$d/results.json"
  "$bin" report "$d" --no-plots >/dev/null 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q "results.json: .*$want" "$tmp/err" || [ -e "$d/report.md" ]; then
    echo "FAIL: report $name: exit $rc, stderr: $(cat "$tmp/err")"
    fail=1
  else
    echo "ok: report $name: $(cat "$tmp/err")"
  fi
  "$bin" report "$d" --no-plots --anonymize --out "$d-pub" >/dev/null 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q "$want" "$tmp/err"; then
    echo "FAIL: report --anonymize $name: exit $rc, stderr: $(cat "$tmp/err")"
    fail=1
  fi
  "$bin" compare "$d" "$tmp/valid" --json >/dev/null 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q "$want" "$tmp/err"; then
    echo "FAIL: compare $name: exit $rc, stderr: $(cat "$tmp/err")"
    fail=1
  else
    echo "ok: compare $name"
  fi
done
[ $n -ge 4 ] || { echo "FAIL: $n regression inputs found under $fuzz/regress/json"; fail=1; }
exit $fail
