#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/readme-results.py on fixture runs: the block holds the table and the numbers
# the runs' reports computed (muxprof report --json) and the seeds' figures from their
# reference datasets, a README rewritten from them passes --check, a stale one fails it, and
# input that is not bench output, or a muxprof that fails, is refused.
# usage: test_readme_results.sh SOURCE_DIR SCRATCH_DIR MUXPROF
set -u
src=$1 tmp=$2 mp=$3
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
rr=$src/scripts/readme-results.py
fx=$src/tests/fixtures
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
set -- "$fx/report/synthetic" --profile "$fx/report/profile" \
    --herd "$fx/report/experiments_only" --bench "$fx/readme/bench.txt" --muxprof "$mp"
fail=0
no() { echo "FAIL: $*"; fail=1; }

python3 "$rr" "$@" --stdout >"$tmp/block.md" || no "--stdout exited $?"
for want in \
    '| 10,000 | unsupported | 200,050 | 300 | 667 | unsupported | 1,802,000 | 2,500 | 721 |' \
    'ns/fd: 20 (10→100), 20 (100→1,000)' 'between 300 and 300 ns' 'highest fd 1,002' 'from N = 2,000' \
    'costs 20 ns (p50)' 'ratios is 1.04 [0.98-1.09, 96.1%]' 'took 21 s' \
    '48% fd-lookup (`fdget`), 47% file-poll (`eventfd_poll`)' \
    'cpu-clock samples of the waiter, the harness between calls included' \
    '`own-sets` 4.0 woken, 3.0 of them for nothing' 'the sweep took 600 s' \
    'against about **1,540** in seed 002 (an arm64 container: 203,307 / 132 ns)' \
    'against 2.4 µs on the EPYC 9354P' '**240.75** in seed 000' \
    'In wakeup mode "poll grows with N, about linearly; epoll does not" **holds** on pipe fds (seed 000 measured tcp): poll grows yes, about linearly yes, epoll flat yes.' \
    '<!-- results:end -->'; do
    grep -qF -- "$want" "$tmp/block.md" || no "block lacks: $want"
done

cp "$fx/readme/README.md" "$tmp/README.md"
python3 "$rr" "$@" --check --readme "$tmp/README.md" >/dev/null && no "--check passed a stale README"
python3 "$rr" "$@" --readme "$tmp/README.md" || no "rewriting the README exited $?"
python3 "$rr" "$@" --check --readme "$tmp/README.md" || no "--check failed right after a rewrite"
grep -qF 'runs the sweep (<!-- sweep-time -->600 s on the 2-core development VM<!-- /sweep-time -->).' \
    "$tmp/README.md" || no "the quick start's sweep time was not rewritten"
grep -qF '## After' "$tmp/README.md" || no "text after the block was lost"

# A profile that kept only the calls' samples says so, with the count it left out.
mkdir -p "$tmp/windowed" && python3 - "$fx/report/profile/results.json" \
    "$tmp/windowed/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["results"]:
    if c.get("profile"):
        c["profile"].update(window="calls", outside_calls=10)
json.dump(d, open(sys.argv[2], "w"))
PY
n=$(python3 -c 'import json,sys; print(sum(1 for c in json.load(open(sys.argv[1]))["results"] if c.get("profile")))' \
    "$tmp/windowed/results.json")
python3 "$rr" "$fx/report/synthetic" --profile "$tmp/windowed" --muxprof "$mp" --stdout \
    >"$tmp/windowed.md" ||
    no "--profile (windowed) exited $?"
grep -qF "cpu-clock samples taken inside the calls ($((n * 10)) taken between them, in the harness, left out)" \
    "$tmp/windowed.md" || no "the windowed profile is not described: $(grep -o 'cpu-clock[^)]*)' "$tmp/windowed.md")"

python3 "$rr" "$fx/report/synthetic" --bench "$fx/readme/README.md" --muxprof "$mp" --stdout \
    >/dev/null 2>&1
[ $? -eq 1 ] || no "a bench file without bench lines was not refused with exit 1"
python3 "$rr" "$fx/report/synthetic" --fds x --muxprof "$mp" --stdout >/dev/null 2>&1
[ $? -eq 2 ] || no "a bad --fds was not a usage error (exit 2)"
python3 "$rr" "$fx/report/synthetic" --muxprof false --stdout >/dev/null 2>"$tmp/false.err"
[ $? -eq 1 ] && grep -q 'report.*--json' "$tmp/false.err" || no "a failing muxprof was not refused"
[ $fail -eq 0 ] && echo "ok"
exit $fail
