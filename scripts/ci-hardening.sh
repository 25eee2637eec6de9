#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ci-hardening.sh - the hardening checks (docs/hardening.md says
# what each finds and how to read a failure):
#   asan      build-asan: ASan + UBSan, -Werror; the whole ctest suite, and any
#             sanitizer report (also one in a child process whose exit status a
#             test does not look at) fails the step
#   fuzz      build-fuzz (clang, libFuzzer + ASan + UBSan): fuzz_json (the
#             results.json reader and the report writer), fuzz_compare (compare
#             with one hostile input), fuzz_cli (the run option parser),
#             fuzz_journal (journal.jsonl recovered as `muxprof report DIR` does)
#             and fuzz_simimport (a scripts/muxsim.sh run directory through
#             sim-import), side by side for FUZZ_SECONDS each; a crash fails the
#             step and its input is kept in build-fuzz/crashes/ (commit it to
#             tests/fuzz/regress/)
#   valgrind  build-hard (plain, -Werror): memcheck on `muxprof run --quick`,
#             on a run stopped by SIGINT and on `muxprof report` of the run: no
#             invalid access, no definite leak
#
#   scripts/ci-hardening.sh [asan] [fuzz] [valgrind]     (no argument: all three)
#   FUZZ_SECONDS=60 (per target)  JOBS=$(nproc)
#   ASAN_WERROR=ON (OFF only to see the sanitizer results while a warning that
#   appears only in the sanitizer build is being fixed)
# Every step runs even when an earlier one failed; the exit status is 1 when
# any failed.  About 8 minutes on a 2-core VM from scratch (less when the
# build trees exist).
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -uo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
ASAN_WERROR=${ASAN_WERROR:-ON}
JOBS=${JOBS:-$(nproc)}
steps=("$@")
((${#steps[@]})) || steps=(asan fuzz valgrind)
failed=()
summary=()

say() { printf '\n== ci-hardening: %s\n' "$*"; }

# Packages beyond scripts/setup.sh: clang + its runtime (libFuzzer), valgrind.
need_pkgs() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "ci-hardening: installing ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "ci-hardening: need root: apt-get install ${missing[*]}" >&2; return 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# ---- asan ---------------------------------------------------------------------
step_asan() {
  say "asan: configure and build build-asan (-DMUXPROF_SANITIZE=ON -DMUXPROF_WERROR=$ASAN_WERROR)"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMUXPROF_SANITIZE=ON \
        -DMUXPROF_WERROR="$ASAN_WERROR" >/dev/null || return 1
  cmake --build build-asan -j"$JOBS" >build-asan/build.log 2>&1 || { tail -40 build-asan/build.log; return 1; }
  local logs=build-asan/sanitizer-logs
  rm -rf "$logs" && mkdir -p "$logs" && chmod 1777 "$logs"   # tests run some as a second user
  # A report aborts the process (a test sees a signal death, not exit 1) and is
  # also written to $logs/, so one in a child nobody checks still counts.
  local common="halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$PWD/$logs/report"
  export ASAN_OPTIONS="$common:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:detect_invalid_pointer_pairs=0"
  export UBSAN_OPTIONS="$common"
  export LSAN_OPTIONS="$common"
  say "asan: ctest (whole suite) with ASAN_OPTIONS=$ASAN_OPTIONS"
  local rc=0
  ctest --test-dir build-asan --output-on-failure -j"$JOBS" || rc=1
  unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
  if compgen -G "$logs/report*" >/dev/null; then
    say "asan: sanitizer reports:"
    for f in "$logs"/report*; do echo "--- $f"; head -60 "$f"; done
    rc=1
  fi
  return $rc
}

# ---- fuzz ---------------------------------------------------------------------
fuzz_one() {   # fuzz_one json|compare|cli|journal|simimport MAXLEN SEEDS
  local t=$1 maxlen=$2 seeds=$3 work=build-fuzz/corpus/$1 crashes=build-fuzz/crashes/$1
  mkdir -p "$work" "$crashes"
  local regress=()
  [ -d tests/fuzz/regress/$t ] && regress=(tests/fuzz/regress/$t)
  # work/ keeps what earlier runs learnt (first directory: new inputs go there)
  ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1" \
  UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1" \
    build-fuzz/bin/fuzz_$t -max_total_time="$FUZZ_SECONDS" -max_len="$maxlen" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes/" \
      "$work" "$seeds" "${regress[@]}" >build-fuzz/fuzz_$t.log 2>&1
}

step_fuzz() {
  command -v clang >/dev/null || need_pkgs clang || return 1
  local major
  major=$(clang -dumpversion | cut -d. -f1)
  if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}' |
       clang -fsanitize=fuzzer -x c - -o /tmp/mp-fuzz-probe.$$ 2>/dev/null; then
    need_pkgs "libclang-rt-$major-dev" || return 1
  fi
  rm -f /tmp/mp-fuzz-probe.$$
  local targets=(json compare cli journal simimport)
  say "fuzz: configure and build build-fuzz (clang $major, libFuzzer + ASan + UBSan)"
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMUXPROF_FUZZ=ON \
        -DMUXPROF_SANITIZE=ON -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link" >/dev/null || return 1
  cmake --build build-fuzz -j"$JOBS" --target "${targets[@]/#/fuzz_}" >build-fuzz/build.log 2>&1 ||
    { tail -40 build-fuzz/build.log; return 1; }
  say "fuzz: ${targets[*]/#/fuzz_}, ${FUZZ_SECONDS} s each, side by side"
  local rc=0 pids=()
  fuzz_one json 16384 tests/fuzz/corpus_json & pids+=($!)
  fuzz_one compare 16384 tests/fuzz/corpus_json & pids+=($!)
  fuzz_one cli 512 tests/fuzz/corpus_cli & pids+=($!)
  fuzz_one journal 16384 tests/fuzz/corpus_journal & pids+=($!)
  fuzz_one simimport 16384 tests/fuzz/corpus_simimport & pids+=($!)
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  for t in "${targets[@]}"; do
    local execs speed cov
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' build-fuzz/fuzz_$t.log | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' build-fuzz/fuzz_$t.log | tail -1)
    cov=$(grep -o 'cov: [0-9]*' build-fuzz/fuzz_$t.log | tail -1)
    summary+=("fuzz_$t: ${execs:-?} executions in ${FUZZ_SECONDS} s (${speed:-?}/s), ${cov:-cov: ?}, corpus $(ls build-fuzz/corpus/$t | wc -l) inputs")
    echo "fuzz_$t: ${execs:-?} executions (${speed:-?}/s), ${cov:-cov: ?}"
    if compgen -G "build-fuzz/crashes/$t/*" >/dev/null; then
      say "fuzz_$t: crash inputs kept in build-fuzz/crashes/$t/ (commit them to tests/fuzz/regress/$t/):"
      ls -l build-fuzz/crashes/$t/
      grep -E "ERROR|SUMMARY|fuzz_$t:|runtime error" build-fuzz/fuzz_$t.log | head -20
      rc=1
    fi
  done
  return $rc
}

# ---- valgrind -------------------------------------------------------------------
step_valgrind() {
  command -v valgrind >/dev/null || need_pkgs valgrind || return 1
  say "valgrind: build build-hard (plain, -Werror)"
  cmake -S . -B build-hard -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMUXPROF_WERROR=ON >/dev/null || return 1
  cmake --build build-hard -j"$JOBS" --target muxprof >build-hard/build.log 2>&1 ||
    { tail -40 build-hard/build.log; return 1; }
  local out=build-hard/valgrind vg rc=0
  rm -rf "$out" && mkdir -p "$out"
  # The peer helper is a fork (no exec): it stays under valgrind but is silenced;
  # gnuplot (exec) is not traced.
  vg=(valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
      --show-leak-kinds=definite --trace-children=no --child-silent-after-fork=yes
      --num-callers=30)
  say "valgrind: muxprof run --quick --no-plots --quiet"
  "${vg[@]}" --log-file="$out/run.vg" build-hard/bin/muxprof run --quick --no-plots --quiet \
      --out "$out/run" >"$out/run.stdout" 2>"$out/run.stderr" || { rc=1; cat "$out/run.vg" "$out/run.stderr"; }
  say "valgrind: muxprof report (figures drawn by gnuplot, not traced)"
  "${vg[@]}" --log-file="$out/report.vg" build-hard/bin/muxprof report "$out/run" \
      >"$out/report.stdout" 2>"$out/report.stderr" || { rc=1; cat "$out/report.vg" "$out/report.stderr"; }
  say "valgrind: muxprof run stopped by SIGINT 3 s into its sweep (the interrupt path frees too)"
  # 1000 samples: long enough under valgrind for the signal to land in the sweep
  "${vg[@]}" --log-file="$out/sigint.vg" build-hard/bin/muxprof run --quick --samples 1000 \
      --no-wait --no-plots --quiet --out "$out/sigint" >"$out/sigint.stdout" 2>"$out/sigint.stderr" &
  local pid=$! st=0 waited=0
  # The handler is installed once the run directory exists; under valgrind
  # on a loaded host that can take longer than any fixed delay, so wait for
  # it (at most 120 s), then let the sweep start.
  while [ ! -d "$out/sigint" ] && [ $waited -lt 120 ] && kill -0 $pid 2>/dev/null; do
    sleep 1; waited=$((waited + 1))
  done
  sleep 3
  kill -INT $pid
  wait $pid || st=$?
  if [ $st != 130 ]; then
    echo "valgrind: interrupted run ended with status $st, expected 130"
    cat "$out/sigint.vg" "$out/sigint.stderr"
    rc=1
  fi
  for f in "$out"/*.vg; do
    if [ -s "$f" ]; then echo "--- $f"; cat "$f"; fi
  done
  return $rc
}

t0=$SECONDS
for s in "${steps[@]}"; do
  case $s in
    asan|fuzz|valgrind) ;;
    *) echo "usage: scripts/ci-hardening.sh [asan] [fuzz] [valgrind]" >&2; exit 2 ;;
  esac
  ts=$SECONDS
  if "step_$s"; then
    summary+=("$s: passed in $((SECONDS - ts)) s")
  else
    summary+=("$s: FAILED after $((SECONDS - ts)) s")
    failed+=("$s")
  fi
done
say "summary ($((SECONDS - t0)) s)"
printf '  %s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "ci-hardening: failed: ${failed[*]}"
  exit 1
fi
echo "ci-hardening: all passed"
