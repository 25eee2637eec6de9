#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# host-run.sh - one host's part of muxprof.yml, run there by the playbook (the
# script module copies it over): under the machine's muxprof lock, build with
# scripts/setup.sh and measure with `muxprof run ARGS` into MP_OUT, then pack
# MP_OUT as MP_OUT.tgz for the controller to fetch.
#
#   MP_SRC=DIR MP_OUT=DIR MP_LOCK=FILE MP_LOCK_WAIT=S MP_SETUP_TIMEOUT=S \
#   MP_RUN_TIMEOUT=S [MP_SETUP_ARGS="cmake args"] host-run.sh [muxprof run args]
#   MP_BIN=PROGRAM MP_OUT=... (no MP_SRC)   host-run.sh [muxprof run args]
#
# With MP_BIN (a bundle's bin/muxprof, unpacked by the playbook) nothing is
# built: the host needs no compiler and no package, and setup_s is 0.
# The lock is held across the build as well: a compiler running beside a
# measurement on the same machine would be measured with it.  MP_OUT is
# written under MP_OUT.tmp and renamed when the run succeeded, so MP_OUT and
# MP_OUT.tgz are whole or absent.  The last line of stdout is
# "host-run: done: arch=A lock_wait_s=W setup_s=S run_s=R lock_held=T0..T1"
# (T0, T1: Unix times the lock was taken and about to be let go).
# Exit status: 0 done, 1 the build or the run failed (the reason on stderr),
# 75 the lock stayed taken for MP_LOCK_WAIT seconds.
case ${1-} in
  -h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -euo pipefail

need="MP_SRC MP_OUT"
[ -n "${MP_BIN:-}" ] && need=MP_OUT
for v in $need MP_LOCK MP_LOCK_WAIT MP_SETUP_TIMEOUT MP_RUN_TIMEOUT; do
  if [ -z "${!v:-}" ]; then
    echo "host-run: $v is not set (this script is run by deploy/ansible/muxprof.yml)" >&2
    exit 1
  fi
done

# MP_OUT's last component is the inventory host name: a safe path
# component, and no ".." anywhere, so that what is removed below stays
# under the work directory.
name=${MP_OUT##*/}
if ! [[ "$name" =~ ^[A-Za-z0-9._-]{1,64}$ ]] || [ "$name" = . ] || [ "$name" = .. ] ||
   [[ "/$MP_OUT/" == */../* || "/$MP_OUT/" == */./* ]]; then
  echo "host-run: MP_OUT=$(printf '%q' "$MP_OUT") is not a work directory's runs/HOST" \
       "(HOST: letters, digits, . _ -, at most 64; no . or .. in the path)" >&2
  exit 1
fi

# Anyone may open the lock file: flock needs only a read descriptor.
[ -e "$MP_LOCK" ] || (umask 0 && : >>"$MP_LOCK")
exec 9<"$MP_LOCK"
t0=$SECONDS
if ! flock -w "$MP_LOCK_WAIT" 9; then
  echo "host-run: another muxprof run held $MP_LOCK for ${MP_LOCK_WAIT} s;" \
       "run the playbook again later (or raise muxprof_lock_wait)" >&2
  exit 75
fi
lock_wait=$((SECONDS - t0))
held_from=$(date +%s)

if [ -n "${MP_BIN:-}" ]; then
  [ -x "$MP_BIN" ] || { echo "host-run: $MP_BIN is not an executable muxprof" >&2; exit 1; }
  bin=$MP_BIN
  setup_s=0
else
  cd "$MP_SRC"
  log="$MP_OUT.setup.log"
  t0=$SECONDS
  rc=0
  # shellcheck disable=SC2086  # MP_SETUP_ARGS is a list of cmake arguments
  timeout --kill-after=30 "$MP_SETUP_TIMEOUT" scripts/setup.sh $MP_SETUP_ARGS >"$log" 2>&1 || rc=$?
  if ((rc)); then
    why="exit $rc"
    ((rc == 124)) && why="stopped after ${MP_SETUP_TIMEOUT} s (muxprof_setup_timeout)"
    echo "host-run: scripts/setup.sh failed ($why); its last lines:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  setup_s=$((SECONDS - t0))
  bin=build/bin/muxprof
fi

rm -rf "$MP_OUT.tmp" "$MP_OUT" "$MP_OUT.tgz" "$MP_OUT.tgz.tmp"
t0=$SECONDS
rc=0
# SIGINT first: muxprof writes what it measured and exits 130.
timeout --signal=INT --kill-after=30 "$MP_RUN_TIMEOUT" \
  "$bin" run --quiet "$@" --out "$MP_OUT.tmp" || rc=$?
if ((rc)); then
  why="exit $rc"
  ((rc == 124)) && why="stopped after ${MP_RUN_TIMEOUT} s (muxprof_run_timeout)"
  echo "host-run: muxprof run $* failed ($why)" >&2
  exit 1
fi
run_s=$((SECONDS - t0))
mv "$MP_OUT.tmp" "$MP_OUT"
tar -C "$(dirname "$MP_OUT")" -czf "$MP_OUT.tgz.tmp" "$(basename "$MP_OUT")"
mv "$MP_OUT.tgz.tmp" "$MP_OUT.tgz"
echo "host-run: done: arch=$(uname -m) lock_wait_s=$lock_wait setup_s=$setup_s run_s=$run_s" \
     "lock_held=$held_from..$(date +%s)"
