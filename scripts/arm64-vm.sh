#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# arm64-vm.sh - run muxprof on an emulated arm64 machine with a PMU: the arm64
# build in a qemu-system-aarch64 guest (TCG) booting Debian's arm64 kernel,
# whose arm_pmu driver serves real perf_event counters (cycles as virtual
# time; instructions exactly with --icount).  Runs `muxprof doctor`,
# `muxprof events` and `muxprof run ARGS` in the guest and brings the run
# directory back.
#
#   scripts/arm64-vm.sh --out DIR [--cpu max|neoverse-n1|cortex-a72|...] [--icount]
#                       [--user-access 0|1] [--smp N] [--mem MB] [--timeout S]
#                       [--tests "test_pmu_hw ..."] -- [muxprof run arguments]
#
# DIR receives the run directory (results.json, results.csv, samples.csv,
# report.md) and DIR/guest/ the guest's side: doctor.txt, events.txt,
# job.log, console.log and guest-setup.txt (the loopback and descriptor
# limits its /init set: scripts/lib/arm64-guest.sh).  DIR (relative: to the
# source tree) is new, or an empty directory of yours that its group and
# others cannot write; a symbolic link, another user's or a writable
# directory is refused (exit 1, scripts/lib/outdir.sh).  Exit status: 0 when
# every command in the guest succeeded, 1 when one failed or the guest did
# not finish within --timeout seconds (default 240), 2 on bad arguments.
# --tests runs those test programs of the arm64 build in the guest first
# (output in DIR/guest/tests.log; 77 counts as a skip, anything else but 0
# fails the job).
# --user-access sets kernel.perf_user_access (default 1: counters read with
# mrs, as `muxprof doctor` advises).  The arm64 build comes from
# scripts/cross-aarch64.sh --build-only (BUILD_DIR, default build-aarch64);
# the kernel and busybox are downloaded once into a cache (scripts/lib/arm64-guest.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/arm64-guest.sh
AG_NAME=arm64-vm

usage() { sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0; }
bad() { echo "arm64-vm: $*" >&2; echo "usage: scripts/arm64-vm.sh --out DIR [options] -- [muxprof run arguments] (--help)" >&2; exit 2; }

out="" cpu=max icount=0 ua=1 smp=2 mem=1024 AG_TIMEOUT=240 tests=""
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=${2:-}; shift 2 || bad "--out needs a directory" ;;
        --cpu) cpu=${2:-}; shift 2 || bad "--cpu needs a qemu CPU model" ;;
        --icount) icount=1; shift ;;
        --user-access) ua=${2:-}; shift 2 || bad "--user-access needs 0 or 1" ;;
        --smp) smp=${2:-}; shift 2 || bad "--smp needs a number" ;;
        --mem) mem=${2:-}; shift 2 || bad "--mem needs megabytes" ;;
        --timeout) AG_TIMEOUT=${2:-}; shift 2 || bad "--timeout needs seconds" ;;
        --tests) tests=${2:-}; shift 2 || bad "--tests needs test program names" ;;
        -h|--help) usage ;;
        --) shift; break ;;
        *) bad "unknown option '$1'" ;;
    esac
done
[ -n "$out" ] || bad "--out DIR is required"
case $ua in 0|1) ;; *) bad "--user-access takes 0 or 1, not '$ua'" ;; esac
for n in "$smp" "$mem" "$AG_TIMEOUT"; do
    case $n in ''|*[!0-9]*) bad "'$n' is not a positive number" ;; esac
done
. scripts/lib/outdir.sh
outdir_check arm64-vm --out "$out"
[ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && bad "$out exists and is not empty"

BUILD_DIR=${BUILD_DIR:-build-aarch64}
BUILD_DIR=$BUILD_DIR scripts/cross-aarch64.sh --build-only >&2 ||
    { echo "arm64-vm: the arm64 build failed" >&2; exit 1; }
for t in $tests; do
    case $t in test_*) ;; *) bad "--tests: '$t' is not a test program name (test_...)" ;; esac
    cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target "$t" >/dev/null ||
        { echo "arm64-vm: building $t failed" >&2; exit 1; }
done
ag_need_tools && ag_fetch_kernel && ag_fetch_busybox || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/arm64-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
ag_root_new "$root"
ag_root_add_prog "$root" "$BUILD_DIR/bin/muxprof" /bin/muxprof
for t in $tests; do ag_root_add_prog "$root" "$BUILD_DIR/tests/$t" "/tests/$t"; done
printf '%s\n' "$@" > "$root/args"
events=minimal
prev=""
for a in "$@"; do
    case $a in --events=*) events=${a#--events=} ;; esac
    [ "$prev" = --events ] && events=$a
    prev=$a
done
cat > "$work/job.sh" <<EOF
hostname qemu-arm64-$cpu
echo $ua > /proc/sys/kernel/perf_user_access
mkdir -p /out/guest
set --
while IFS= read -r a; do set -- "\$@" "\$a"; done < /args
muxprof doctor > /out/guest/doctor.txt 2>&1 || echo "(muxprof doctor found something to fix: guest/doctor.txt)"
st=0
for t in $tests; do
    echo "+ \$t"
    /tests/\$t >> /out/guest/tests.log 2>&1; r=\$?
    echo "\$t: exit \$r" >> /out/guest/tests.log
    case \$r in 0) ;; 77) echo "\$t: skipped" ;; *) echo "\$t: FAILED (exit \$r)"; st=1 ;; esac
done
[ -f /out/guest/tests.log ] && cat /out/guest/tests.log
muxprof events --events '$events' > /out/guest/events.txt 2>&1 || { echo "muxprof events: exit \$?"; st=1; }
cat /out/guest/events.txt
echo "+ muxprof run \$*"
muxprof run --out /out/run "\$@" || { echo "muxprof run: exit \$?"; st=1; }
exit \$st
EOF
ag_root_job "$root" "$work/job.sh"
ag_pack "$root" "$work/initrd.gz"

# -cpu max emulates pointer authentication with the architected QARMA
# cipher, slow in TCG and run in every kernel function; qemu's own cipher
# (pauth-impdef) changes no instruction count and saves much of the boot.
qcpu=$cpu
[ "$cpu" = max ] && qcpu=max,pauth-impdef=on
qargs=(-cpu "$qcpu" -smp "$smp" -m "$mem")
[ "$icount" = 1 ] && qargs+=(-icount shift=0)
echo "arm64-vm: booting qemu-system-aarch64 -cpu $cpu$([ "$icount" = 1 ] && echo ' -icount shift=0'), perf_user_access=$ua, at most $AG_TIMEOUT s" >&2
outdir_make arm64-vm --out "$out"
ag_boot_run arm64-vm "$work" "$OUTDIR" "${qargs[@]}"
