#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_json_utf8.sh - every JSON document muxprof prints is valid UTF-8,
# whatever bytes its strings came from: `compare --json` with a --label and a
# run directory whose names hold bytes that are not UTF-8, `report --json` of
# that directory.  Each such byte is written as \ufffd (U+FFFD); the document
# parses strictly (python's json over the raw bytes).  A results.json that is
# not UTF-8 is refused on input (test_strict_json).
#
#   test_json_utf8.sh MUXPROF FIXTURES
set -u
bin=${1:?usage: test_json_utf8.sh MUXPROF FIXTURES}
fix=${2:?usage}
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to parse the documents"; exit 77; }
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
bad=$tmp/$'run\xff\xc0'
mkdir "$bad" "$tmp/b" || exit 1
cp "$fix/report/synthetic/results.json" "$bad/" && cp "$fix/report/synthetic/results.json" "$tmp/b/" || exit 1

# utf8 NAME WANT CMD...: exit 0, stdout one valid UTF-8 JSON document holding WANT
# (python's \u escapes, so the test does not depend on the locale)
utf8() {
  local name=$1 want=$2
  shift 2
  timeout 60 "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
  local st=$?
  [ "$st" = 0 ] || { no "$name: exit $st: $(head -c 300 "$tmp/$name.err")"; return; }
  python3 - "$tmp/$name.json" "$want" <<'PY' || no "$name: not a valid UTF-8 JSON document"
import json, sys
raw = open(sys.argv[1], "rb").read()
doc = json.loads(raw.decode("utf-8", "strict"))
want = sys.argv[2].encode("ascii").decode("unicode_escape")
assert want in json.dumps(doc, ensure_ascii=False), "no %r" % want
PY
}
utf8 compare 'lab\ufffd' "$bin" compare "$bad" "$tmp/b" --label $'lab\xfe' --json
utf8 compare-arg 'run\ufffd\ufffd' "$bin" compare "$bad" "$tmp/b" --json
utf8 report '"schema"' "$bin" report "$bad" --json
[ "$fail" = 0 ] && echo "ok: JSON output is valid UTF-8, each byte that was not written as U+FFFD"
exit "$fail"
