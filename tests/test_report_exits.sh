#!/bin/sh
# SPDX-License-Identifier: MIT
# test_report_exits.sh MUXPROF SRC - exit statuses and messages that are true:
# a top-level status that is none of complete, interrupted, errors is refused
# (exit 2, named); a run with no cell ("results": []) is exit 1 with one line
# saying so; SIGINT or SIGTERM while gnuplot draws a figure stops the report
# (no further figure, no report.md) with 130 or 143, even where the signal
# is ignored (a background job); a second report of a DIR another report is
# writing is refused (exit 1, one line); a journal whose records make a
# results.json report would refuse is not recovered (exit 2, one line,
# nothing written); an unknown option of events or topology is one line,
# not the usage.
set -u
mp=$1 src=$2
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
valid=$src/tests/fuzz/corpus_json/valid_small.json

mkdir "$t/status" && sed 's/"status": *"complete"/"status": "bogus-status"/' "$valid" > "$t/status/results.json"
grep -q bogus-status "$t/status/results.json" || fail "could not edit the status"
"$mp" report "$t/status" --no-plots >/dev/null 2>"$t/err"; rc=$?
[ "$rc" = 2 ] && grep -q "field status: expected one of complete, interrupted, errors" "$t/err" ||
    fail "status bogus-status: exit $rc: $(cat "$t/err")"
[ ! -e "$t/status/report.md" ] || fail "a report of a bogus status was written"

mkdir "$t/empty" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["results"] = []
json.dump(d, open(sys.argv[2], "w"))' "$valid" "$t/empty/results.json" || fail "python3"
for how in "--no-plots" "--json"; do
    "$mp" report "$t/empty" $how >/dev/null 2>"$t/err"; rc=$?
    [ "$rc" = 1 ] && [ "$(wc -l < "$t/err")" = 1 ] && grep -q 'holds no cell ("results": \[\])' "$t/err" ||
        fail "report $how of no cell: exit $rc: $(cat "$t/err")"
done

# a gnuplot that takes its time: the signal comes while it runs
mkdir "$t/bin" && printf '#!/bin/sh\nsleep 30\n' > "$t/bin/gnuplot" && chmod +x "$t/bin/gnuplot"
for sig in INT:130 TERM:143; do
    rm -rf "$t/sig" && mkdir "$t/sig" && cp "$valid" "$t/sig/results.json"
    PATH="$t/bin:$PATH" "$mp" report "$t/sig" >/dev/null 2>"$t/err" &
    p=$!
    i=0
    while [ $i -lt 100 ] && ! pgrep -P $p >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
    kill -"${sig%:*}" $p
    wait $p; rc=$?
    [ "$rc" = "${sig#*:}" ] || fail "SIG${sig%:*} during report: exit $rc, not ${sig#*:}: $(cat "$t/err")"
    [ ! -e "$t/sig/report.md" ] || fail "SIG${sig%:*}: report.md written after the stop"
done

# two reports of one DIR: the second, while the first draws, is refused (exit 1,
# one line) and writes nothing
rm -rf "$t/two" && mkdir "$t/two" && cp "$valid" "$t/two/results.json"
PATH="$t/bin:$PATH" "$mp" report "$t/two" >/dev/null 2>"$t/err1" &
p=$!
i=0
while [ $i -lt 100 ] && ! pgrep -P $p >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
"$mp" report "$t/two" --no-plots >/dev/null 2>"$t/err"; rc=$?
kill -INT $p; wait $p
[ "$rc" = 1 ] && [ "$(wc -l < "$t/err")" = 1 ] && grep -q "another muxprof report is writing" "$t/err" ||
    fail "a second report while one draws: exit $rc: $(cat "$t/err")"
[ ! -e "$t/two/report.md" ] || fail "the second report wrote report.md"
"$mp" report "$t/two" --no-plots >/dev/null 2>"$t/err" || fail "a report after the first ended: $(cat "$t/err")"

# a journal whose records make a results.json report would refuse (a cell of
# nfds 1e308; cells of another shape): not recovered, exit 2 in one line,
# nothing written beside the journal, which is left as it was
for seed in hostile_huge_cell hostile_other_schema_cells; do
    rm -rf "$t/j" && mkdir "$t/j" && cp "$src/tests/fuzz/corpus_journal/$seed.jsonl" "$t/j/journal.jsonl"
    "$mp" report "$t/j" --no-plots >/dev/null 2>"$t/err"; rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$t/err")" = 1 ] &&
        grep -q "journal.jsonl: not recovered, \`muxprof report\` would refuse the results.json" "$t/err" ||
        fail "journal $seed: exit $rc: $(cat "$t/err")"
    [ "$(ls -A "$t/j")" = journal.jsonl ] || fail "journal $seed: left $(ls -A "$t/j" | tr '\n' ' ')"
    cmp -s "$t/j/journal.jsonl" "$src/tests/fuzz/corpus_journal/$seed.jsonl" || fail "journal $seed changed"
done
# a killed run's journal is still recovered
rm -rf "$t/j" && mkdir "$t/j" && cp "$src/tests/fuzz/corpus_journal/killed_8_passes.jsonl" "$t/j/journal.jsonl"
"$mp" report "$t/j" --no-plots >/dev/null 2>"$t/err" && [ -s "$t/j/results.json" ] ||
    fail "a killed run's journal: $(cat "$t/err")"

for verb in events topology; do
    "$mp" $verb --bogus >/dev/null 2>"$t/err"; rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$t/err")" = 1 ] || fail "$verb --bogus: exit $rc, $(wc -l < "$t/err") lines"
done
echo ok
