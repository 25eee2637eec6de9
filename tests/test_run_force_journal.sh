#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_run_force_journal.sh - `run --force` over a directory holding a
# journal.jsonl never loses measurements:
#   a run still writing it:        refused (2), nothing of it removed;
#   a killed run not recovered:     refused (2), the journal (the only copy) kept;
#   recovered by `report DIR`:      the old journal and outputs replaced, exit 0,
#                                   and the new run's own journal gone at its end.
#
#   test_run_force_journal.sh MUXPROF
set -u
bin=${1:?usage: test_run_force_journal.sh MUXPROF}
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

long=(run --backends poll,epoll --mode ready --fds 10,100,1000 --repeats 9 --samples 50000
      --events none --no-plots --quiet)
short=(run --backends poll --mode ready --fds 10 --repeats 3 --samples 20 --events none
       --no-plots --quiet --force)

# start DIR: a long run into DIR in the background, once its journal holds a
# pass record (at most 60 s); sets pid.
start() {
  "$bin" "${long[@]}" --out "$1" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    [ "$({ wc -l <"$1/journal.jsonl"; } 2>/dev/null || echo 0)" -ge 2 ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  no "no journal record from the run into $1 within 60 s"
  return 1
}

# A run still going.
if start "$tmp/busy"; then
  before=$(ls -A "$tmp/busy" | tr '\n' ' ')
  timeout 60 "$bin" "${short[@]}" --out "$tmp/busy" >/dev/null 2>"$tmp/busy.err"
  st=$?
  [ "$st" = 2 ] || no "--force over a run still going: exit $st, not 2"
  grep -q 'still going' "$tmp/busy.err" || no "--force over a run still going: $(cat "$tmp/busy.err")"
  [ "$(ls -A "$tmp/busy" | tr '\n' ' ')" = "$before" ] ||
    no "--force over a run still going changed its directory: $before -> $(ls -A "$tmp/busy" | tr '\n' ' ')"
  kill -0 "$pid" 2>/dev/null || no "the run still going was stopped"
  kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
fi

# A killed run, not recovered.
if start "$tmp/dead"; then
  kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
  sum=$(md5sum <"$tmp/dead/journal.jsonl")
  timeout 60 "$bin" "${short[@]}" --out "$tmp/dead" >/dev/null 2>"$tmp/dead.err"
  st=$?
  [ "$st" = 2 ] || no "--force over an unrecovered journal: exit $st, not 2"
  grep -q "muxprof report $tmp/dead" "$tmp/dead.err" ||
    no "--force over an unrecovered journal does not say how to recover it: $(cat "$tmp/dead.err")"
  [ -f "$tmp/dead/journal.jsonl" ] && [ "$(md5sum <"$tmp/dead/journal.jsonl")" = "$sum" ] ||
    no "--force over an unrecovered journal changed or removed it"

  # Recovered: --force writes over it all.
  timeout 120 "$bin" report "$tmp/dead" --no-plots >/dev/null 2>&1 || no "report of the killed run failed"
  [ -f "$tmp/dead/results.json" ] || no "report wrote no results.json from the journal"
  timeout 60 "$bin" "${short[@]}" --out "$tmp/dead" >/dev/null 2>"$tmp/rec.err"
  st=$?
  [ "$st" = 0 ] || no "--force over a recovered run: exit $st: $(cat "$tmp/rec.err")"
  [ -e "$tmp/dead/journal.jsonl" ] && no "the recovered run's journal is still there"
  grep -q '"nfds": *1000' "$tmp/dead/results.json" && no "results.json still holds the old run's cells"
fi

[ "$fail" = 0 ] && echo "run --force: a journal in use or not recovered is refused and kept"
exit "$fail"
