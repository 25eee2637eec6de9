#!/bin/sh
# SPDX-License-Identifier: MIT
# A helper process that cannot be forked (RLIMIT_NPROC) ends the run with
# the reason on stderr, exit 1, and no run directory left that it created;
# a directory that was there before stays.  Root ignores RLIMIT_NPROC, so
# the runs are made as a user this test creates (and deletes).
#   test_run_fork_fail.sh MUXPROF
bin_src=${1:?usage: test_run_fork_fail.sh MUXPROF}
skip() { echo "SKIP: $1"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (to create a user that RLIMIT_NPROC applies to)"
command -v useradd >/dev/null || skip "no useradd"
command -v prlimit >/dev/null || skip "no prlimit"
command -v runuser >/dev/null || skip "no runuser"
user=mpfork$$
tmp=$(mktemp -d /tmp/mp-fork-fail.XXXXXX) || exit 1
cleanup() { userdel "$user" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || skip "useradd failed"
chmod 755 "$tmp"
cp "$bin_src" "$tmp/muxprof" && chmod 755 "$tmp/muxprof"
mkdir "$tmp/work" && chown "$user" "$tmp/work"
fail=0

# LeakSanitizer stops the world with a thread of its own at exit, which the
# process limit forbids too: under a sanitizer build only leak checking is off.
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
[ -n "${LSAN_OPTIONS:-}" ] && export LSAN_OPTIONS="$LSAN_OPTIONS:detect_leaks=0"

# run NPROC WANT OUT ARGS...: as the user, at most NPROC processes
run() {
  nproc=$1 want=$2 out=$3; shift 3
  (cd "$tmp/work" && runuser -u "$user" -- prlimit --nproc="$nproc:$nproc" \
     "$tmp/muxprof" run --quick --no-plots --quiet "$@") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  echo "nproc $nproc, muxprof run $*: exit $rc; stderr: $(cat "$tmp/err")"
  if [ $rc -ne 1 ] || ! grep -q "$want: fork: .*RLIMIT_NPROC" "$tmp/err"; then
    echo "FAIL: expected exit 1 and '$want: fork: ... (RLIMIT_NPROC?...'"
    fail=1
  fi
}

run 1 "cannot start the descriptor helper" new1 --out "$tmp/work/new1"
[ -e "$tmp/work/new1" ] && { echo "FAIL: the run directory new1 it created is left"; fail=1; }
run 2 "cannot start the poker process" new2 --mode wakeup --out "$tmp/work/new2"
[ -e "$tmp/work/new2" ] && { echo "FAIL: the run directory new2 it created is left"; fail=1; }
run 1 "cannot start the descriptor helper" default
left=$(ls "$tmp/work/reports/runs" 2>/dev/null)
[ -n "$left" ] && { echo "FAIL: a default run directory is left: $left"; fail=1; }
mkdir "$tmp/work/before" && chown "$user" "$tmp/work/before"
run 1 "cannot start the descriptor helper" before --out "$tmp/work/before"
[ -d "$tmp/work/before" ] || { echo "FAIL: the directory that was there before is gone"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
