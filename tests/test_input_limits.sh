#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_input_limits.sh - the limits on a results.json are enforced, with the numbers:
# a file one byte over MP_RM_MAX_FILE_BYTES (64 MiB; valid JSON padded with spaces) and
# one with MP_RM_MAX_CELLS + 1 cells (50,001) are refused by `report` and `compare`
# (exit 2, one line); the same file with 50,000 cells is within the cell limit.
#
#   test_input_limits.sh MUXPROF FIXTURES SCRATCH_DIR
set -u
bin=${1:?usage: test_input_limits.sh MUXPROF FIXTURES SCRATCH_DIR}
fix=${2:?usage} tmp=${3:?usage}
command -v python3 >/dev/null || { echo "SKIP: no python3 to write the inputs"; exit 77; }
rm -rf "$tmp" && mkdir -p "$tmp/big" "$tmp/cells" "$tmp/cells-ok" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

python3 - "$fix/report/synthetic/results.json" "$tmp" <<'PY' || exit 1
import json, sys
src, tmp = sys.argv[1], sys.argv[2]
doc = json.load(open(src))
text = json.dumps(doc)
limit = 64 << 20
with open(tmp + "/big/results.json", "w") as f:
    f.write(text + " " * (limit + 1 - len(text)))
cell = doc["results"][0]
for n, d in ((50001, "cells"), (50000, "cells-ok")):
    doc["results"] = [cell] * n
    with open("%s/%s/results.json" % (tmp, d), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
PY

# refused VERB NAME PATTERN: exit 2 and one line on stderr matching PATTERN.
refused() {
    local args
    if [ "$1" = report ]; then args=(report "$tmp/$2" --no-plots)
    else args=(compare "$tmp/$2" "$fix/report/synthetic" --out "$tmp/cmp-$2" --no-plots); fi
    "$bin" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
    local st=$?
    [ "$st" = 2 ] || no "$1 $2: exit $st, expected 2: $(head -c 300 "$tmp/err")"
    grep -q -- "$3" "$tmp/err" || no "$1 $2: no '$3' in: $(head -c 300 "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" = 1 ] || no "$1 $2: not one line on stderr"
}
for verb in report compare; do
    refused $verb big "results.json is 67108865 bytes (64.0 MiB), over the limit of 64 MiB"
    refused $verb cells "50001 cells, more than the 50000 a report can hold"
done
"$bin" report "$tmp/cells-ok" --no-plots >"$tmp/out" 2>"$tmp/err" ||
    no "report of 50000 cells: exit $?: $(head -c 300 "$tmp/err")"

[ "$fail" = 0 ] && echo "ok: results.json over 64 MiB or 50000 cells refused"
exit "$fail"
