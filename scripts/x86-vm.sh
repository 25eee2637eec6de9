#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# x86-vm.sh - run muxprof in an emulated x86_64 machine: the host's build in
# a qemu-system-x86_64 guest (TCG, -M pc) booting Debian's amd64 kernel
# (linux-image-amd64's dependency).  Runs `muxprof doctor`, `muxprof events`
# and `muxprof run ARGS` in the guest and brings the run directory back.
#
#   scripts/x86-vm.sh --out DIR [--cpu max|EPYC-Genoa|...] [--smp N] [--mem MB]
#                     [--timeout S] -- [muxprof run arguments]
#
# e.g. scripts/x86-vm.sh --out /tmp/x86 -- --quick --backends poll,epoll \
#          --fd-kind tcp --fds 10,100 --mode ready --no-plots
#
# DIR receives the run directory (results.json, results.csv, samples.csv,
# report.md) and DIR/guest/ the guest's side: doctor.txt, events.txt,
# uname.txt, job.log, console.log and guest-setup.txt (the loopback and
# descriptor limits its /init set: scripts/lib/guest.sh).  DIR (relative: to
# the source tree) is new, or an empty directory of yours that its group and
# others cannot write; a symbolic link, another user's or a writable
# directory is refused (exit 1, scripts/lib/outdir.sh).  Exit status: 0
# when `muxprof run` succeeded in the guest, 1 when it failed or the guest
# did not finish within --timeout seconds (default 240), 2 on bad arguments.
# doctor and events only inform (TCG emulates no x86 PMU).  The program is
# BUILD_DIR/bin/muxprof (default build; configured with
# -DCMAKE_BUILD_TYPE=RelWithDebInfo when it is not, built with JOBS jobs,
# default 1); the host must be x86_64.  The kernel and busybox are
# downloaded once into a cache (scripts/lib/guest.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0; }
bad() { echo "x86-vm: $*" >&2; echo "usage: scripts/x86-vm.sh --out DIR [options] -- [muxprof run arguments] (--help)" >&2; exit 2; }

out="" cpu=max smp=2 mem=1024 AG_TIMEOUT=240
while [ $# -gt 0 ]; do
    case $1 in
        --out) [ $# -ge 2 ] || bad "--out needs a directory"; out=$2; shift 2 ;;
        --cpu) [ $# -ge 2 ] || bad "--cpu needs a qemu CPU model"; cpu=$2; shift 2 ;;
        --smp) [ $# -ge 2 ] || bad "--smp needs a number"; smp=$2; shift 2 ;;
        --mem) [ $# -ge 2 ] || bad "--mem needs megabytes"; mem=$2; shift 2 ;;
        --timeout) [ $# -ge 2 ] || bad "--timeout needs seconds"; AG_TIMEOUT=$2; shift 2 ;;
        -h|--help) usage ;;
        --) shift; break ;;
        *) bad "unknown option '$1'" ;;
    esac
done
[ -n "$out" ] || bad "--out DIR is required"
for n in "$smp" "$mem" "$AG_TIMEOUT"; do
    case $n in ''|0*|*[!0-9]*) bad "'$n' is not a positive number" ;; esac
done
# shellcheck source=lib/outdir.sh
. scripts/lib/outdir.sh
outdir_check x86-vm --out "$out"
[ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && bad "$out exists and is not empty"
[ "$(uname -m)" = x86_64 ] || { echo "x86-vm: the host is $(uname -m), not x86_64: its build cannot run in the x86_64 guest" >&2; exit 1; }

AG_ARCH=x86_64
# shellcheck source=lib/guest.sh
. scripts/lib/guest.sh
AG_NAME=x86-vm

BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
        { echo "x86-vm: configuring $BUILD_DIR failed" >&2; exit 1; }
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-1}" --target muxprof >/dev/null ||
    { echo "x86-vm: building muxprof in $BUILD_DIR failed" >&2; exit 1; }
ag_need_tools && ag_fetch_kernel && ag_fetch_busybox || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/x86-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
ag_root_new "$root" && ag_root_add_prog "$root" "$BUILD_DIR/bin/muxprof" /bin/muxprof ||
    { echo "x86-vm: could not build the guest's root" >&2; exit 1; }
printf '%s\n' "$@" > "$root/args"
cat > "$work/job.sh" <<EOF
hostname qemu-x86_64-$cpu
mkdir -p /out/guest
uname -a | tee /out/guest/uname.txt
set --
while IFS= read -r a; do set -- "\$@" "\$a"; done < /args
muxprof doctor > /out/guest/doctor.txt 2>&1 || echo "(muxprof doctor found something to fix: guest/doctor.txt)"
muxprof events > /out/guest/events.txt 2>&1 || echo "(muxprof events: exit \$?: guest/events.txt)"
echo "+ muxprof run \$*"
muxprof run --out /out/run "\$@" || { st=\$?; echo "muxprof run: exit \$st"; exit \$st; }
EOF
ag_root_job "$root" "$work/job.sh" && ag_pack "$root" "$work/initrd.gz" ||
    { echo "x86-vm: could not pack the initrd" >&2; exit 1; }

echo "x86-vm: booting qemu-system-x86_64 -accel tcg -cpu $cpu -smp $smp -m $mem ($(basename "$AG_KERNEL")), at most $AG_TIMEOUT s" >&2
outdir_make x86-vm --out "$out"
ag_boot_run x86-vm "$work" "$OUTDIR" -cpu "$cpu" -smp "$smp" -m "$mem"
