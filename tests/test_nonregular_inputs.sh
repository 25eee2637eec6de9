#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_nonregular_inputs.sh - inputs that are not regular files are refused,
# never waited on: `topology --xml` of a FIFO, of a directory and of
# /dev/zero (usage error, one line naming the path and what it is);
# `compare` of a run whose samples.csv is a FIFO or a directory (the
# comparison is written, its changes not testable, with that reason);
# `report` of a run whose results.json is a FIFO (exit 2); `report
# --anonymize` of a run whose samples.csv or results.csv is a FIFO, a link to
# /dev/zero or a link to a file outside the run, or one over the copy limit
# (a sparse 9 GiB file) (exit 2, no copy left, the
# linked file's content in no output).  Each command runs
# under `timeout 20`: a blocking open of a FIFO with no writer never returns.
#
#   test_nonregular_inputs.sh MUXPROF FIXTURES SCRATCH_DIR
set -u
bin=${1:?usage: test_nonregular_inputs.sh MUXPROF FIXTURES SCRATCH_DIR}
fix=${2:?usage} tmp=${3:?usage}
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

# expect NAME STATUS PATTERN CMD...: exit STATUS and PATTERN (if any) in stderr, at most
# one line there, and no timeout.
expect() {
    local name=$1 want=$2 pat=$3
    shift 3
    timeout 20 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local st=$?
    [ "$st" = 124 ] && { no "$name: still blocked after 20 s"; return; }
    [ "$st" = "$want" ] || no "$name: exit $st, expected $want: $(head -c 300 "$tmp/$name.err")"
    [ -z "$pat" ] || grep -q -- "$pat" "$tmp/$name.err" ||
        no "$name: no '$pat' in: $(head -c 300 "$tmp/$name.err")"
    [ "$(wc -l <"$tmp/$name.err")" -le 1 ] || no "$name: more than one line on stderr"
}

mkfifo "$tmp/topo.xml" "$tmp/results.fifo"
mkdir "$tmp/topo.dir"
expect xml-fifo 2 "topo.xml is a FIFO, not a regular file" "$bin" topology --xml "$tmp/topo.xml"
expect xml-dir 2 "topo.dir is a directory, not a regular file" "$bin" topology --xml "$tmp/topo.dir"
expect xml-dev 2 "/dev/zero is a character device, not a regular file" \
    "$bin" topology --xml /dev/zero

# Two runs of the report fixture; the first's samples.csv a FIFO, then a directory:
# compare tests repeat medians from results.json and never opens samples.csv.
for r in a b; do
    mkdir -p "$tmp/$r" && cp "$fix/report/synthetic/results.json" "$tmp/$r/" || exit 1
done
mkfifo "$tmp/a/samples.csv"
expect compare-fifo 0 "" "$bin" compare "$tmp/a" "$tmp/b" --out "$tmp/cmp1" --no-plots
rm "$tmp/a/samples.csv" && mkdir "$tmp/a/samples.csv"
expect compare-dir 0 "" "$bin" compare "$tmp/a" "$tmp/b" --out "$tmp/cmp2" --no-plots

# results.json a FIFO: refused as bad input (2), as every unreadable results.json is.
mkdir "$tmp/c" && mkfifo "$tmp/c/results.json"
expect report-fifo 2 "results.json is a FIFO, not a regular file" "$bin" report "$tmp/c" --no-plots

# report --anonymize copies results.csv and samples.csv as the run's inputs are
# read: never through a link, never a FIFO or device.
secret=$tmp/secret.txt
printf 'mp-secret-line\n' >"$secret"
anon() {   # anon NAME FILE-IN-RUN PATTERN SETUP...
    local name=$1 file=$2 pat=$3
    shift 3
    rm -rf "$tmp/anon-$name" "$tmp/pub-$name"
    mkdir "$tmp/anon-$name" && cp "$fix/report/synthetic/results.json" "$tmp/anon-$name/" || exit 1
    "$@" "$tmp/anon-$name/$file"
    expect "anon-$name" 2 "$pat" "$bin" report "$tmp/anon-$name" --anonymize \
        --out "$tmp/pub-$name" --no-plots
    [ ! -e "$tmp/pub-$name" ] || no "anon-$name: a copy was left in $tmp/pub-$name"
    ! grep -rqs mp-secret-line "$tmp/pub-$name" || no "anon-$name: the linked file was copied"
}
anon samples-fifo samples.csv "samples.csv is a FIFO, not a regular file" mkfifo
anon samples-zero samples.csv "samples.csv is a symbolic link, not followed" ln -s /dev/zero
anon samples-link samples.csv "samples.csv is a symbolic link, not followed" ln -s "$secret"
anon results-link results.csv "results.csv is a symbolic link, not followed" ln -s "$secret"
anon samples-dir samples.csv "samples.csv is a directory, not a regular file" mkdir
anon samples-big samples.csv "over the limit of 8192 MiB" truncate -s 9G   # sparse

[ "$fail" = 0 ] && echo "ok: FIFOs, directories and devices refused without blocking"
exit "$fail"
