#!/bin/sh
# SPDX-License-Identifier: MIT
# A run on a machine without gnuplot says so once on stderr, naming how to
# draw the figures later; the run itself succeeds, the figure scripts are
# written, and `muxprof report DIR` on a machine with gnuplot draws them.
#   test_run_no_gnuplot.sh MUXPROF WORK_DIR
bin=${1:?usage: test_run_no_gnuplot.sh MUXPROF WORK_DIR}
work=${2:?usage: test_run_no_gnuplot.sh MUXPROF WORK_DIR}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/empty" || exit 1
run="$work/run"
PATH="$work/empty" "$bin" run --quick --backends poll --fds 10 --samples 50 --out "$run" \
    >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; fail "the run without gnuplot failed"; }
n=$(grep -c gnuplot "$work/err")
[ "$n" = 1 ] || { cat "$work/err" >&2; fail "stderr names gnuplot $n times, not once"; }
grep -q "figures not drawn: gnuplot not found in PATH.*muxprof report $run" "$work/err" ||
    fail "the gnuplot line does not say how to draw them: $(grep gnuplot "$work/err")"
ls "$run"/figures/*.gp >/dev/null 2>&1 || fail "no figure scripts in $run/figures"
! ls "$run"/figures/*.png >/dev/null 2>&1 || fail "figures drawn without gnuplot?"
# With gnuplot on PATH the run says nothing of it.
if command -v gnuplot >/dev/null 2>&1; then
    "$bin" run --quick --backends poll --fds 10 --samples 50 --out "$work/run2" \
        >/dev/null 2>"$work/err2" || fail "the run with gnuplot failed"
    ! grep -q "gnuplot not found" "$work/err2" || fail "gnuplot is on PATH, yet the run says it is not"
    "$bin" report "$run" >"$work/report.out" 2>&1 || fail "muxprof report $run: $(cat "$work/report.out")"
    ls "$run"/figures/*.png >/dev/null 2>&1 || fail "muxprof report did not draw the figures"
fi
rm -rf "$work"
echo "a run without gnuplot says so once; muxprof report draws the figures later"
