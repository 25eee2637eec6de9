#!/bin/sh
# SPDX-License-Identifier: MIT
# A run that did not do all it was asked says so and exits non-zero.
#   test_run_outcome.sh MUXPROF CASE
# CASE report-fails: a gnuplot that fails draws no figure: run exits 1 and
#   names the figures on stderr, the results are kept; --no-plots exits 0.
# CASE helper-killed: the descriptor helper killed mid-run: the cells after
#   it end in error or keep the repeats timed before, results.json's status
#   is "errors", the run exits 1.
# CASE sigstop: the run stopped (SIGSTOP) for a second and continued: the
#   cell in progress records its samples that spanned the stop.
bin=${1:?usage: test_run_outcome.sh MUXPROF CASE}
case=${2:?usage: test_run_outcome.sh MUXPROF CASE}
tmp=$(mktemp -d /tmp/mp-run-outcome.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tiny="--fds 10 --samples 20 --repeats 1 --warmup 1 --backends poll --mode ready --events none"
status_of() { sed -n 's/^[[:space:]]"status":[[:space:]]*"\([a-z]*\)".*/\1/p' "$1/results.json"; }

# The first child process of pid whose parent is pid, or nothing.
child_of() {
  for s in /proc/[0-9]*/stat; do
    set -- $(sed 's/^.*) //' "$s" 2>/dev/null)
    [ "${2:-}" = "$want_parent" ] && { echo "${s#/proc/}" | cut -d/ -f1; return; }
  done
}

case $case in
report-fails)
  mkdir "$tmp/bin"
  printf '#!/bin/sh\necho "fake gnuplot: cannot draw" >&2\nexit 1\n' >"$tmp/bin/gnuplot"
  chmod +x "$tmp/bin/gnuplot"
  PATH=$tmp/bin:$PATH "$bin" run $tiny --quiet --out "$tmp/plots" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  echo "run with a failing gnuplot: exit $rc; stderr: $(cat "$tmp/err")"
  [ $rc -eq 1 ] || fail "expected exit 1"
  grep -q "figures were not drawn" "$tmp/err" || fail "stderr does not say the figures failed"
  grep -q "$tmp/plots" "$tmp/err" || fail "stderr does not say where the results are"
  [ -s "$tmp/plots/results.json" ] || fail "the results were not kept"
  [ "$(status_of "$tmp/plots")" = complete ] || fail "status $(status_of "$tmp/plots")"
  PATH=$tmp/bin:$PATH "$bin" run $tiny --quiet --no-plots --out "$tmp/noplots" \
    >"$tmp/out" 2>"$tmp/err" || fail "--no-plots run: exit $?: $(cat "$tmp/err")"
  echo "ok"
  ;;
helper-killed)
  # ready mode only: the one child of muxprof is the descriptor helper
  # long enough (about 4 s) that a loaded host's slow /proc scan finds the helper while
  # passes still need it
  "$bin" run --fds 10,100,1000 --samples 2000 --repeats 30 --backends poll,epoll \
    --mode ready --events none --no-plots --quiet --out "$tmp/killed" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  want_parent=$pid
  helper=
  for i in $(seq 1 500); do
    helper=$(child_of)
    [ -n "$helper" ] && break
    sleep 0.01
  done
  [ -n "$helper" ] || { kill -9 $pid; fail "no helper process of muxprof (pid $pid) found"; }
  kill -9 "$helper"
  wait $pid
  rc=$?
  echo "helper $helper killed: exit $rc; stderr: $(cat "$tmp/err")"
  grep "ended in error" "$tmp/out"
  st=$(status_of "$tmp/killed")
  [ "$st" = errors ] || fail "results.json status '$st', expected errors"
  [ $rc -eq 1 ] || fail "expected exit 1"
  # a cell timed before the helper died keeps those repeats (status ok, the reason says so)
  grep -q -e '"status":[[:space:]]*"error"' -e 'timed in [0-9]* of 30 repeats' \
    "$tmp/killed/results.json" || fail "no cell in error or kept from its earlier repeats"
  grep -q "ended in error" "$tmp/out" || fail "the summary does not say cells ended in error"
  "$bin" report "$tmp/killed" --no-plots >/dev/null 2>"$tmp/err" ||
    fail "report refused the run: $(cat "$tmp/err")"
  grep -q "ended in error" "$tmp/killed/report.md" || fail "report.md does not say so"
  # compare takes a run with status "errors" too, and says so
  "$bin" run $tiny --quiet --no-plots --out "$tmp/whole" >/dev/null 2>"$tmp/err" ||
    fail "tiny run: $(cat "$tmp/err")"
  mkdir "$tmp/errs"
  sed 's/^\([[:space:]]"status":[[:space:]]*\)"complete"/\1"errors"/' "$tmp/whole/results.json" \
    >"$tmp/errs/results.json"
  [ "$(status_of "$tmp/errs")" = errors ] || fail "the edited copy says $(status_of "$tmp/errs")"
  "$bin" compare "$tmp/whole" "$tmp/errs" --no-plots --out "$tmp/cmp" >/dev/null 2>"$tmp/err" ||
    fail "compare refused a run with status errors: $(cat "$tmp/err")"
  grep -q "run with errors" "$tmp/cmp/report.md" || fail "compare's report.md does not say so"
  echo "ok"
  ;;
sigstop)
  hard=$(ulimit -Hn)
  [ "$hard" = unlimited ] || [ "$hard" -ge 11000 ] ||
    { echo "SKIP: RLIMIT_NOFILE hard limit $hard: 10,000 watched pipes need about 11,000"; exit 77; }
  # One cell of slow calls (poll on 10,000 fds: seconds of timed calls).
  # Once its descriptors exist it is stopped for 1 s, three times 0.3 s
  # apart: the first stop may still fall in the set-up after them (a scan
  # of /proc/self/fd), the later ones fall in the timed calls.
  "$bin" run --fds 10000 --samples 5000 --repeats 1 --warmup 1 --backends poll \
    --mode ready --events none --no-plots --quiet --out "$tmp/stopped" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for i in $(seq 1 3000); do
    [ "$(ls /proc/$pid/fd 2>/dev/null | wc -l)" -ge 10000 ] && break
    sleep 0.01
  done
  stops=0
  for k in 1 2 3; do
    sleep 0.3
    kill -STOP $pid 2>/dev/null || break
    stops=$((stops + 1))
    sleep 1
    kill -CONT $pid
  done
  wait $pid
  rc=$?
  echo "stopped $stops times for 1 s: exit $rc; stderr: $(cat "$tmp/err")"
  [ $rc -eq 0 ] || fail "expected exit 0"
  n=$(sed -n 's/.*"samples_stopped":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/stopped/results.json")
  echo "samples_stopped: ${n:-absent}"
  [ -n "$n" ] && [ "$n" -ge 1 ] || fail "the cell does not record a sample that spanned the stop"
  grep -q "stopped" "$tmp/out" || fail "the summary does not say a sample spanned a stop"
  echo "ok"
  ;;
*) fail "unknown case $case" ;;
esac
