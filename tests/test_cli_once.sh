#!/bin/sh
# SPDX-License-Identifier: MIT
# Every verb takes each option once (compare's --label once per input), and
# an error message echoes a user's value only up to a bound, with its length.
#   test_cli_once.sh MUXPROF
bin=${1:?usage: test_cli_once.sh MUXPROF}
tmp=$(mktemp -d /tmp/mp-cli-once.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# twice WANT_OPTION VERB ARGS...: exit 2 and "WANT_OPTION given twice" on stderr.
twice() {
  want=$1; shift
  (cd "$tmp" && "$bin" "$@") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$want given twice" "$tmp/err"; then
    echo "FAIL: muxprof $*: exit $rc, stderr: $(head -c 300 "$tmp/err")"
    fail=1
  else
    echo "ok: muxprof $* -> $(cat "$tmp/err")"
  fi
}

twice --out run --out a --out b --fds 0
twice --out run --out=a --out b --fds 0
twice --quiet run --quiet --quiet --fds 0
twice --fds run --fds 10 --fds 10
twice --no-plots report no-such-dir --no-plots --no-plots
twice --out report no-such-dir --anonymize --out a --out=b
twice --out compare --out x --out y no-such-a no-such-b
twice --json compare --json --json no-such-a no-such-b
twice --json events --json --json
twice --events events --events cache --events=tlb
twice --json doctor --json --json
twice --json topology --json --json
twice --xml topology --xml a --xml b
twice --fds loop --fds 1 --fds=2 --backend poll
twice --quiet loop --quiet --quiet --fds 1 --backend poll

# compare's --label is given once per input: not refused as a repeat.
(cd "$tmp" && "$bin" compare no-such-a no-such-b --label x --label y --json) \
  >"$tmp/out" 2>"$tmp/err"
if grep -q "given twice" "$tmp/err"; then
  echo "FAIL: compare refused a --label per input: $(cat "$tmp/err")"
  fail=1
fi

# A 120 KB value is echoed as its first bytes and its length, in every verb.
big=$(head -c 120000 /dev/zero | tr '\0' x)
echoed() {
  (cd "$tmp" && "$bin" "$@") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  n=$(wc -c <"$tmp/err")
  if [ "$rc" -eq 0 ] || [ "$n" -gt 2000 ] || ! grep -q "bytes)" "$tmp/err"; then
    echo "FAIL: muxprof $(echo "$*" | cut -c1-40)...: exit $rc, $n bytes on stderr"
    fail=1
  else
    echo "ok: $(echo "$*" | cut -c1-30)...: exit $rc, $n bytes: $(head -c 200 "$tmp/err" | head -1)"
  fi
}
echoed "$big"
echoed run "--$big"
echoed run "$big"
echoed report "$big"
echoed report a "$big"
echoed report "--$big"
echoed compare a b "--$big"
echoed compare "$big" b --out out
echoed events "$big"
echoed doctor "$big"
echoed topology "$big"
echoed loop --backend "$big" --fds 1
echoed loop "--$big"
exit $fail
