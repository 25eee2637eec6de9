#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# arm64-validate.sh - validate-host.sh from the arm64 bundle, in the emulated
# arm64 guest (scripts/lib/arm64-guest.sh: Debian's arm64 kernel under
# qemu-system-aarch64 -M virt, TCG, -icount shift=0), as a user runs it on a
# bare Graviton host: the bundle's .tar.gz unpacked in the guest and its
# validate-host.sh run by the guest's only shell (busybox ash), with Debian's
# arm64 perf (linux-perf:arm64 and its libraries) as the second method.
#
#   scripts/arm64-validate.sh --out DIR [--cpu neoverse-n1|max|...] [--no-perf]
#                             [--timeout S] [-- validate-host arguments]
#
# The emulated PMU counts cycles as virtual time and, under -icount shift=0,
# instructions exactly (one per virtual ns), so both are deterministic and
# perf stat must agree with muxprof on them: cycles and instructions are
# required to come out "agrees", and every other counter muxprof opened must
# have been checked (cache and TLB events open on an Arm model, -cpu
# neoverse-n1, and count 0 both ways).  --no-perf leaves perf out of the
# guest: validate-host then says it had no second method.
#
# DIR receives everything validate-host printed (summary.txt, doctor.txt,
# events-*.txt, run-*.txt and run-*/, perf.txt) and DIR/guest/ the guest's
# side (job.log, console.log, validate-host.rc).  DIR: new, or an empty
# directory of yours that its group and others cannot write; a symbolic link,
# another user's or a writable directory is refused (exit 1,
# scripts/lib/outdir.sh).  validate-host's arguments
# default to --fds 100 --calls 1000 --tolerance 5 --run-args '--backends
# poll,epoll --mode ready': under TCG the guest ran about 33 million
# instructions a second on the loaded 2-CPU development VM, an emulated poll
# over 1000 fds costs about 130,000,
# and validate-host starts perf stat 6 times per counter; the quick runs of
# every backend in both modes cost more than the check needs.  The counts are
# exact, so the two methods differ only by the loop's own instructions per
# call (under 1%): 5% is a tight bound.  Times in the guest (validate-host's
# "Took") are virtual, one ns per instruction; the host's wall time is
# printed here.
# Exit status: 0 validate-host passed and cycles and instructions agree with
# perf stat; 3 a counter differs, or cycles or instructions were not checked
# (with perf); 1 the build, the bundle or the guest failed or ran past
# --timeout (default 600 s); 2 bad arguments.
# Environment: BUILD_DIR (the arm64 build, default build-aarch64).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
# shellcheck source=lib/arm64-guest.sh
. scripts/lib/arm64-guest.sh
export AG_NAME=arm64-validate   # read by the library's messages

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
bad() { echo "arm64-validate: $*" >&2; echo "usage: scripts/arm64-validate.sh --out DIR [options] [-- validate-host arguments] (--help)" >&2; exit 2; }

out="" cpu=neoverse-n1 perf=1 AG_TIMEOUT=600
while [ $# -gt 0 ]; do
    case $1 in
        --out) [ $# -ge 2 ] || bad "--out needs a directory"; out=$2; shift 2 ;;
        --cpu) [ $# -ge 2 ] || bad "--cpu needs a qemu CPU model"; cpu=$2; shift 2 ;;
        --no-perf) perf=0; shift ;;
        --timeout) [ $# -ge 2 ] || bad "--timeout needs seconds"; AG_TIMEOUT=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) bad "unknown option '$1'" ;;
    esac
done
[ -n "$out" ] || bad "--out DIR is required"
case $out in /*) ;; *) out=$caller/$out ;; esac   # relative to where it was run
case $AG_TIMEOUT in ''|0*|*[!0-9]*) bad "--timeout takes a positive number of seconds, not '$AG_TIMEOUT'" ;; esac
case $cpu in ''|*[!a-z0-9_-]*) bad "--cpu takes a qemu CPU model name, not '$cpu'" ;; esac
# shellcheck source=lib/outdir.sh
. scripts/lib/outdir.sh
outdir_check arm64-validate --out "$out"
[ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && bad "$out exists and is not empty"
[ $# -gt 0 ] || set -- --fds 100 --calls 1000 --tolerance 5 --run-args '--backends poll,epoll --mode ready'
for a in "$@"; do
    case $a in *"'"*) bad "a validate-host argument may not contain a single quote: $a" ;; esac
done

BUILD_DIR=${BUILD_DIR:-build-aarch64}
BUILD_DIR=$BUILD_DIR scripts/cross-aarch64.sh --build-only >&2 ||
    { echo "arm64-validate: the arm64 build failed" >&2; exit 1; }
# The bundle carries the manual page and the completion.
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target mp_manual >/dev/null ||
    { echo "arm64-validate: building the manual page in $BUILD_DIR failed" >&2; exit 1; }
ag_need_tools && ag_fetch_kernel && ag_fetch_busybox || exit 1
[ "$perf" = 0 ] || ag_fetch_perf || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/arm64-validate.XXXXXX")
trap 'rm -rf "$work"' EXIT
scripts/bundle.sh --out "$work/dist" "$BUILD_DIR" >&2 ||
    { echo "arm64-validate: scripts/bundle.sh $BUILD_DIR failed" >&2; exit 1; }
tgz=$(ls "$work"/dist/muxprof-*-aarch64.tar.gz)
name=$(basename "$tgz" .tar.gz)

# The guest holds busybox, the bundle's .tar.gz and (unless --no-perf) perf
# with its libraries; muxprof's libraries come only from the bundle.
root=$work/root
ag_root_new "$root"
ag_root_add_file "$root" "$tgz" "/$name.tar.gz"
[ "$perf" = 0 ] ||
    ag_root_add_prog "$root" "$AG_PERF_ROOT/usr/bin/perf" /usr/bin/perf "$AG_PERF_LIBDIRS"
vh_args=$(printf " '%s'" "$@")
cat > "$work/job.sh" <<EOF
hostname qemu-arm64-$cpu
export PATH=/usr/bin:\$PATH
echo 1 > /proc/sys/kernel/perf_user_access
mkdir -p /opt /out/guest && tar -xzf /$name.tar.gz -C /opt || exit 1
cd /tmp
echo "+ sh /opt/$name/validate-host.sh$vh_args /out/validation"
sh /opt/$name/validate-host.sh$vh_args /out/validation
rc=\$?
echo \$rc > /out/guest/validate-host.rc
exit \$rc
EOF
ag_root_job "$root" "$work/job.sh"
ag_pack "$root" "$work/initrd.gz"

qcpu=$cpu
[ "$cpu" = max ] && qcpu=max,pauth-impdef=on   # see scripts/arm64-vm.sh
echo "arm64-validate: booting qemu-system-aarch64 -cpu $cpu -icount shift=0 with $name$([ "$perf" = 1 ] && echo " and perf"), at most $AG_TIMEOUT s" >&2
mkdir -p "$work/back"
t0=$(date +%s)
set +e
ag_boot "$work/initrd.gz" "$work/back" "$work/console.log" -cpu "$qcpu" -icount shift=0
rc=$?
set -e
echo "arm64-validate: the guest ran $(( $(date +%s) - t0 )) s" >&2
outdir_make arm64-validate --out "$out"
out=$OUTDIR
mkdir -p "$out/guest"
cp "$work/console.log" "$out/guest/console.log"
[ -d "$work/back/guest" ] && cp -r "$work/back/guest/." "$out/guest/"
[ -f "$work/back/job.log" ] && cp "$work/back/job.log" "$out/guest/job.log"
[ -f "$work/back/guest-setup.txt" ] && cp "$work/back/guest-setup.txt" "$out/guest/"
[ -d "$work/back/validation" ] && cp -r "$work/back/validation/." "$out/"
if [ ! -f "$out/summary.txt" ]; then
    echo "arm64-validate: validate-host wrote no summary (guest status $rc); see $out/guest/job.log and console.log" >&2
    exit 1
fi
case $rc in 0|3) ;; *) echo "arm64-validate: validate-host failed in the guest (status $rc): $out/summary.txt" >&2; exit 1 ;; esac

# cycles and instructions must have been checked against perf stat, and
# agree; every other counter muxprof opened must have been checked.
status=$rc
if [ "$perf" = 1 ]; then
    for c in cycles instructions; do
        row=$(awk -v c="$c" '$1 == c {print; exit}' "$out/summary.txt")
        case $row in
            *" agrees"*) echo "arm64-validate: $c agrees with perf stat: $row" >&2 ;;
            "") echo "arm64-validate: no $c row in $out/summary.txt" >&2; status=3 ;;
            *) echo "arm64-validate: $c was not confirmed by perf stat: $row" >&2; status=3 ;;
        esac
    done
    unchecked=$(grep ' not checked: ' "$out/summary.txt" | grep -v ' not checked: muxprof could not open it' || true)
    if [ -n "$unchecked" ]; then
        echo "arm64-validate: counters muxprof opened that perf stat did not check:" >&2
        printf '%s\n' "$unchecked" >&2
        status=3
    fi
fi
echo "arm64-validate: validate-host's output in $out (summary.txt)" >&2
exit "$status"
