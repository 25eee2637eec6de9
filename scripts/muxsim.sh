#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# muxsim.sh - simulated L1, L2, L3 (LLC) and TLB counts per call, kernel
# included, from muxprof's own cache and TLB model (sim/, the QEMU plugin
# libmuxsim.so) watching an emulated guest of the geometry's own ISA: arm64
# (qemu-system-aarch64, Debian's arm64 kernel) or x86_64 (qemu-system-x86_64,
# Debian's amd64 kernel).  One boot runs every (backend, N) cell one after
# another; `muxprof loop` marks each call (sim/marker.h: HINTs on arm64, a
# seven-byte nopl on x86_64), so every call is one counting window and each
# cell gets a distribution (p10, p50, p90 after the warm-up calls).  See
# docs/cachesim.md.
#
#   scripts/muxsim.sh --out DIR [--geometry NAME|FILE[,NAME|FILE...]]
#                     [--arch arm64|x86_64] [--backends LIST] [--fds LIST]
#                     [--fd-kind KIND] [--calls K] [--warmup W] [--prefetch P]
#                     [--mem MB] [--timeout S] [--scope all|calls] [--with-contrib]
#                     [--pmu-check] [--with-insn] [--no-cross] [--force]
#
# --arch picks the guest; without it, the geometry's isa= (x86_64 for
# epyc-9354p and sapphire-rapids, arm64 for neoverse-n1 and neoverse-v1),
# else arm64.  The arm64 guest runs the arm64 build (ARM_BIN, default
# build-aarch64/bin/muxprof), the x86_64 guest the host's (HOST_BIN; an
# x86_64 host only).
#
# Several geometries (--geometry epyc-9354p,neoverse-v1) compare hosts: each
# geometry runs on its own ISA with the same options, in DIR/GEOMETRY-ISA/
# (a whole run directory each, as below), then `muxprof compare` of them
# writes DIR/compare/ (report.md and figures: the counts per call, per fd and
# per array line side by side, where each miss count starts growing, the
# poll/epoll ratios).  When the ISAs differ, one more boot runs the first
# geometry under the second geometry's ISA (DIR/GEOMETRY-ISA too), so that
# the comparison can take the difference apart: the same geometry under two
# ISAs is what the ISA changes, the same ISA under two geometries what the
# cache sizes change (only the first two geometries are taken apart so);
# --no-cross leaves that boot out.  --arch is refused there (each geometry
# names its ISA).  A run that fails does not stop the others: the runs that
# wrote results.json are compared, and the exit status is 1.
#
# --pmu-check (arm64 only) also runs `muxprof run` (ready mode, the
# instructions counter read with mrs from the emulated PMU, --quick) over the
# same cells in the same boot: scripts/muxsim/pmugap.py sets the PMU's instructions per call
# beside the model's between the markers (DIR/pmugap.md).
#
# --scope calls models only while a call's counting window is open (every
# core's accesses then): boot, set-up and tear-down run without the model's
# work, and the caches carry over from call to call, filled by the warm-up
# calls.  The default, all, models the whole boot.  DIR/times.tsv has the
# host's clock at each cell's marker, first call and last call, and the
# callback counts: where the time went.
#
# --fd-kind takes muxprof's fd kinds (pipe, the default, socketpair, tcp,
# eventfd).  The guest's /init (scripts/lib/guest.sh) brings its
# loopback up and widens its local port range to 1024-65535 (28,224 tcp
# connections from each loopback source address muxprof uses); a large N
# needs guest memory: give --mem.
#
# --with-contrib loads QEMU's contrib cache plugin (libcache.so, built once
# by scripts/lib/qemu-source.sh) into the same boot with the geometry's L1d,
# L1i and L2: both models see the same accesses at the same physical
# addresses, and DIR/crosscheck.md sets their per-core totals side by side.
#
# --with-insn (x86_64 only) loads QEMU's own instruction counter
# (tests/plugin/insn.c, libinsn-quiet-SUM.so, built once like libcache.so) with
# match= on the loop's markers: it logs the instructions each marker's CPU
# ran since the marker before, so each call's count between its markers is
# there a second way, and DIR/insncheck.md (scripts/muxsim/insncheck.py)
# sets it beside the model's per call.  On arm64 the markers disassemble as
# plain NOPs, which match= cannot tell apart: there --pmu-check does it.
#
# Writes DIR/muxsim.tsv (the plugin's summaries), DIR/samples.tsv (every
# call), DIR/cells.txt (backend, N and the loop's exit status, in the order
# they ran), DIR/plan.env (what was run), DIR/table.md (the per-call table),
# DIR/functions.json and .md (the kernel functions that hold each cell's
# misses, scripts/muxsim/functions.py, named from the guest kernel's
# /proc/kallsyms, read once and cached), DIR/results.json (`muxprof
# sim-import DIR`, with the host build; it takes each cell's sim_functions
# from functions.json) and report.md (`muxprof report DIR`), and DIR/guest/
# (console, the loop's messages).  DIR: new, or an empty directory of yours
# that its group and others cannot write (with --force, one not empty); a
# symbolic link, another user's or a writable directory is refused (exit 1,
# scripts/lib/outdir.sh).  Exit status: 0 done, 1 the build, the
# boot or a cell
# failed, 2 usage error.
set -uo pipefail
# The whole script is one compound command: bash reads it before running it,
# so an edit of this file during a run does not change that run.
{

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
AG_NAME=muxsim
ARM_BIN=${ARM_BIN:-$ROOT/build-aarch64/bin/muxprof}
HOST_BIN=${HOST_BIN:-$ROOT/build/bin/muxprof}

out="" geometry=neoverse-n1 backends=poll,epoll fds=100,1000 kind=pipe calls=110 warmup=10
prefetch=none mem=512 timeout=1800 force=0 contrib=0 scope=all pmucheck=0 arch="" cross=1
insn=0
pass=()   # the options every geometry's run gets when several are compared
say() { printf 'muxsim: %s\n' "$*" >&2; }
usage_error() { say "$*"; exit 2; }
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case $1 in
        --help|-h) usage; exit 0 ;;
        --force) force=1; shift; continue ;;
        --no-cross) cross=0; shift; continue ;;
        --with-contrib) contrib=1; pass+=("$1"); shift; continue ;;
        --pmu-check) pmucheck=1; pass+=("$1"); shift; continue ;;
        --with-insn) insn=1; pass+=("$1"); shift; continue ;;
        --out|--geometry|--arch|--backends|--fds|--fd-kind|--calls|--warmup|--prefetch|--mem|--timeout|--scope)
            [ $# -ge 2 ] || usage_error "$1 needs a value (--help)" ;;
        *) usage_error "unknown option '$1' (--help)" ;;
    esac
    case $1 in
        --out) out=$2 ;; --geometry) geometry=$2 ;; --arch) arch=$2 ;; --backends) backends=$2 ;;
        --fds) fds=$2 ;;
        --fd-kind) kind=$2 ;; --calls) calls=$2 ;; --warmup) warmup=$2 ;;
        --prefetch) prefetch=$2 ;; --mem) mem=$2 ;; --timeout) timeout=$2 ;; --scope) scope=$2 ;;
    esac
    case $1 in --out|--geometry|--arch) ;; *) pass+=("$1" "$2") ;; esac
    shift 2
done
[ -n "$out" ] || usage_error "--out DIR is required (--help)"
num() { [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
            usage_error "$1: '$2' is not a whole number in $3..$4"; }
num --calls "$calls" 1 1000000; num --warmup "$warmup" 0 1000000; num --mem "$mem" 256 16384
num --timeout "$timeout" 10 86400
[ "$warmup" -lt "$calls" ] || usage_error "--warmup $warmup leaves none of --calls $calls"
[[ $fds =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--fds: '$fds' is not a list of counts (100,1000)"
for n in ${fds//,/ }; do num --fds "$n" 1 1048576; done
[[ $backends =~ ^[a-z0-9_-]+(,[a-z0-9_-]+)*$ ]] ||
    usage_error "--backends: '$backends' is not a list of names (poll,epoll)"
case $prefetch in none|l1d|l2|l1d+l2) ;; *) usage_error "--prefetch: '$prefetch' is not none, l1d, l2 or l1d+l2" ;; esac
case $scope in all|calls) ;; *) usage_error "--scope: '$scope' is not all or calls" ;; esac
[ "$scope" = all ] || [ "$contrib" = 0 ] ||
    usage_error "--with-contrib compares whole-boot totals: it needs --scope all"
# geometry_file NAME|FILE: its file, absolute (the plugin is given it from
# another directory), or a usage error naming the geometries there are.
geometry_file() {
    local f
    case $1 in
        */*|*.conf) f=$1 ;;
        *) f=$ROOT/sim/geometries/$1.conf ;;
    esac
    [ -f "$f" ] || usage_error "--geometry: no $f; expected a file or one of $(ls "$ROOT/sim/geometries" | sed 's/\.conf$//' | tr '\n' ' ')"
    echo "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
}
# geometry_arch FILE [ARCH]: ARCH, else the file's isa=, else arm64, spelled
# arm64 or x86_64.
geometry_arch() {
    local a=${2:-$(sed -n 's/^isa=//p' "$1" | tail -n 1)}
    case ${a:-arm64} in
        arm64|aarch64) echo arm64 ;;
        x86_64|amd64) echo x86_64 ;;
        *) usage_error "--arch: '$a' is not arm64 or x86_64" ;;
    esac
}
if [[ $geometry == *,* ]]; then
    [ -z "$arch" ] || usage_error "--arch: several geometries each run on their own ISA (isa= of each file); give one geometry to choose its ISA"
    [ "$pmucheck" = 0 ] || usage_error "--pmu-check reads the arm64 guest's PMU: give one geometry"
    [ "$insn" = 0 ] || usage_error "--with-insn checks the x86_64 guest: give one geometry"
    compare_hosts=1
else
    compare_hosts=0
    gf=$(geometry_file "$geometry") || exit 2
    arch=$(geometry_arch "$gf" "$arch") || exit 2
fi
[ "$compare_hosts" = 1 ] || [ "$arch" = x86_64 ] || [ "$insn" = 0 ] ||
    usage_error "--with-insn matches the x86_64 markers (on arm64 they disassemble as NOPs): it needs --arch x86_64; --pmu-check counts them on arm64"
[ "$arch" = arm64 ] || [ "$pmucheck" = 0 ] ||
    usage_error "--pmu-check reads the arm64 guest's emulated PMU: it needs --arch arm64"
# shellcheck source=lib/outdir.sh
. "$HERE/lib/outdir.sh"
outdir_check muxsim --out "$out"
if [ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ "$force" = 0 ]; then
    usage_error "--out: $out exists and is not empty; choose another directory or add --force"
fi

# ---- several geometries: one run each on its own ISA, then compare ----
if [ "$compare_hosts" = 1 ]; then
    runs=() names=() isas=() files=() failed=()
    [[ $geometry =~ ^[^,]+(,[^,]+)+$ ]] ||
        usage_error "--geometry: '$geometry' is not a list of geometries (epyc-9354p,neoverse-v1)"
    IFS=, read -r -a glist <<<"$geometry"
    for g in "${glist[@]}"; do
        f=$(geometry_file "$g") || exit 2
        a=$(geometry_arch "$f") || exit 2
        n=$(basename "$f" .conf)-$a
        for m in "${names[@]}"; do [ "$m" != "$n" ] || usage_error "--geometry: $g is named twice"; done
        files+=("$f") isas+=("$a") names+=("$n")
    done
    [ "${#files[@]}" -le 7 ] || usage_error "--geometry: at most 7 geometries (muxprof compare sets 8 inputs side by side)"
    # the first geometry under the second's ISA: the ISA apart from the caches
    if [ "$cross" = 1 ] && [ "${isas[0]}" != "${isas[1]}" ]; then
        files+=("${files[0]}") isas+=("${isas[1]}") names+=("$(basename "${files[0]}" .conf)-${isas[1]}")
    fi
    # every run's builds before the first boot
    [ -x "$HOST_BIN" ] || { say "needs the host build $HOST_BIN (it writes results.json): run scripts/setup.sh (or set HOST_BIN)"; exit 1; }
    for a in "${isas[@]}"; do
        case $a in
            arm64) [ -x "$ARM_BIN" ] || { say "needs the arm64 build $ARM_BIN: run scripts/cross-aarch64.sh --build-only (or set ARM_BIN)"; exit 1; } ;;
            x86_64) [ "$(uname -m)" = x86_64 ] || { say "the x86_64 guest runs the host's build in the guest: the host is $(uname -m)"; exit 1; } ;;
        esac
    done
    outdir_make muxsim --out "$out"
    rm -rf "${out:?}/compare"   # never a comparison of an earlier try left beside these runs
    say "${#files[@]} runs: ${names[*]}; then muxprof compare into $out/compare"
    t_all=$(date +%s)
    for i in "${!files[@]}"; do
        rm -rf "${out:?}/${names[$i]}"
        "$0" --out "$out/${names[$i]}" --geometry "${files[$i]}" --arch "${isas[$i]}" "${pass[@]}" ||
            failed+=("${names[$i]}")
        # a run whose cell failed still wrote its results.json (that cell an error)
        [ -s "$out/${names[$i]}/results.json" ] && runs+=("$out/${names[$i]}")
    done
    if [ "${#runs[@]}" -lt 2 ]; then
        say "fewer than two runs finished (failed: ${failed[*]}): no comparison"; exit 1
    fi
    "$HOST_BIN" compare "${runs[@]}" --out "$out/compare" ||
        { say "muxprof compare failed (above)"; exit 1; }
    if [ "${#failed[@]}" -gt 0 ]; then
        say "done in $(( $(date +%s) - t_all )) s, but ${failed[*]} failed (above; compared as far as they wrote results.json): $out/compare/report.md"
        exit 1
    fi
    say "done in $(( $(date +%s) - t_all )) s: $out/compare/report.md"
    exit 0
fi

# ---- prerequisites ----
[ -x "$HOST_BIN" ] || { say "needs the host build $HOST_BIN (it writes results.json): run scripts/setup.sh (or set HOST_BIN)"; exit 1; }
if [ "$arch" = arm64 ]; then
    GUEST_BIN=$ARM_BIN
    [ -x "$ARM_BIN" ] || { say "needs the arm64 build $ARM_BIN: run scripts/cross-aarch64.sh --build-only (or set ARM_BIN)"; exit 1; }
    GUEST_CPU=max,pauth-impdef=on
else
    GUEST_BIN=$HOST_BIN
    [ "$(uname -m)" = x86_64 ] || { say "--arch x86_64 runs the host's build in the guest: the host is $(uname -m)"; exit 1; }
    GUEST_CPU=max
fi
command -v gcc >/dev/null || { say "needs gcc: apt-get install gcc"; exit 1; }
AG_ARCH=$arch
# shellcheck source=lib/guest.sh
. "$HERE/lib/guest.sh"
command -v "$AG_QEMU" >/dev/null || { say "needs $AG_QEMU: apt-get install $AG_QEMU_PKG"; exit 1; }
# One TCG thread runs both vCPUs in turn in either guest.  On arm64 -icount
# shift=0 does it (and makes the emulated PMU's instructions exact for
# --pmu-check); QEMU 7.2's x86_64 guest does not bring up its second CPU
# under -icount, so there thread=single does it, and no PMU is emulated.
if [ "$arch" = x86_64 ]; then
    AG_QEMU_MACHINE="-M pc -accel tcg,thread=single"
    TCG_ARGS=()
else
    TCG_ARGS=(-icount shift=0,sleep=off)
fi

# shellcheck source=lib/qemu-source.sh
. "$HERE/lib/qemu-source.sh"

created=0
[ -e "$out" ] || created=1
start_failed() { say "$1"; [ "$created" = 1 ] && rm -rf "$out"; exit 1; }
outdir_make muxsim --out "$out"
mkdir -p "$OUTDIR/guest" || usage_error "--out: cannot create $out"
out=$(cd "$out" && pwd)

qs_fetch || start_failed "no qemu-plugin.h (above)"
HDR=$QS_DIR/source/qemu-plugin.h
PLUGIN=$out/libmuxsim.so
gcc -O2 -shared -fPIC -std=gnu11 -I"$(dirname "$HDR")" -I"$ROOT/sim" -I"$ROOT/src" \
    -o "$PLUGIN" "$ROOT"/sim/{plugin,model,geometry,window}.c "$ROOT"/src/common/{stats,mp_err}.c \
    -lm -lpthread 2>"$out/gcc.log" || start_failed "building the plugin failed (log: $out/gcc.log)"
qargs=()
if [ "$contrib" = 1 ]; then
    qs_contrib_cache || start_failed "--with-contrib: QEMU's cache plugin could not be built (above)"
    CONTRIB=$QS_CONTRIB
    gsize() {   # geometry key -> "bytes ways"
        local v; v=$(sed -n "s/^$1=//p" "$gf")
        local sz=${v%%,*} w=${v#*,}
        case $sz in *K) sz=$(( ${sz%K} * 1024 )) ;; *M) sz=$(( ${sz%M} * 1048576 )) ;; esac
        echo "$sz $w"
    }
    read -r ds dw <<<"$(gsize l1d)"; read -r is iw <<<"$(gsize l1i)"; read -r us uw <<<"$(gsize l2)"
    line=$(sed -n 's/^line=//p' "$gf")
    qargs+=(-plugin "$CONTRIB,cores=2,l2=on,evict=lru,limit=1,dcachesize=$ds,dassoc=$dw,dblksize=$line,icachesize=$is,iassoc=$iw,iblksize=$line,l2cachesize=$us,l2assoc=$uw,l2blksize=$line")
fi
if [ "$insn" = 1 ]; then
    qs_contrib_insn || start_failed "--with-insn: QEMU's insn plugin could not be built (above)"
    # the markers' disassembly in QEMU: nopl 0x4d58507N(%rax), N = 0 cell, 1 begin, 2 end
    qargs+=(-plugin "$QS_INSN,match=nopl 0x4d58507")
fi
ag_need_tools && ag_fetch_kernel && ag_fetch_busybox || start_failed "could not fetch the $arch kernel or busybox"

# ---- the guest: every cell in one boot ----
work=$(mktemp -d "${TMPDIR:-/tmp}/muxsim.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
: > "$work/cells"
for b in ${backends//,/ }; do for n in ${fds//,/ }; do echo "$b $n" >> "$work/cells"; done; done
ag_root_new "$work/root" && ag_root_add_prog "$work/root" "$GUEST_BIN" /bin/muxprof &&
    ag_root_add_file "$work/root" "$work/cells" /cells || start_failed "could not build the initrd"
# The guest's /init (scripts/lib/guest.sh) has brought the loopback up
# and raised the port range, fs.nr_open, RLIMIT_NOFILE and the epoll watches.
cat > "$work/job.sh" <<EOF
grep -E 'MemTotal|PageTables' /proc/meminfo > /out/meminfo
i=0
while read -r b n; do
    i=\$((i + 1))
    echo "@@MUXSIM-CELL \$i \$b \$n@@"
    muxprof loop --backend \$b --fds \$n --calls $calls --fd-kind $kind --cpu 1 --quiet \
        > /out/loop-\$b-\$n.log 2>&1
    echo "\$b \$n \$?" >> /out/cells.txt
done < /cells
EOF
if [ "$pmucheck" = 1 ]; then
    cat >> "$work/job.sh" <<EOF
echo "@@MUXSIM-RUN@@"
echo 1 > /proc/sys/kernel/perf_user_access
muxprof run --backends $backends --fds $fds --fd-kind $kind --mode ready --events minimal \\
    --quick --no-plots --quiet --out /out/run > /out/run.log 2>&1
echo "run \$?" > /out/run.status
EOF
fi
# The guest kernel's text symbols (nokaslr: the same addresses every boot),
# read by this boot when no earlier one left them in the cache.
SYMS=$CS_CACHE/kallsyms-$(basename "$AG_KERNEL").txt
[ -s "$SYMS" ] || echo "grep ' [tTwW] ' /proc/kallsyms > /out/kallsyms" >> "$work/job.sh"
ag_root_job "$work/root" "$work/job.sh" && ag_pack "$work/root" "$work/initrd.gz" ||
    start_failed "could not pack the initrd"

ncells=$(wc -l < "$work/cells")
say "one $arch boot, $ncells cells x $calls calls, geometry $(basename "$gf" .conf), prefetch $prefetch, scope $scope, guest ${mem} MiB (load $(cut -d' ' -f1-3 /proc/loadavg))"
t0=$(date +%s)
# Progress: the guest names each cell on its console as it starts it.  The
# ETA weighs a cell by N + 1,000 (set-up and, for poll and select, the call
# grow with N): a rough guide, not a measurement.
progress() {
    local seen=0 k b n w dw=0 total=0 t tc=0 line
    while read -r b n; do total=$(( total + n + 1000 )); done < "$work/cells"
    while sleep 5; do
        k=$(grep -ac '^@@MUXSIM-CELL ' "$out/guest/console.log" 2>/dev/null) || k=0
        [ "$k" -gt "$seen" ] || continue
        t=$(( $(date +%s) - t0 ))
        [ "$seen" = 0 ] && tc=$t
        dw=0
        while read -r b n; do w=$(( n + 1000 )); [ "$k" -le 1 ] && break; dw=$(( dw + w )); k=$(( k - 1 )); done < "$work/cells"
        k=$(grep -ac '^@@MUXSIM-CELL ' "$out/guest/console.log")
        line=$(grep -a '^@@MUXSIM-CELL ' "$out/guest/console.log" | tail -n 1 | tr -d '@\r')
        if [ "$dw" -gt 0 ] && [ "$t" -gt "$tc" ]; then
            say "cell $k/$ncells (${line#MUXSIM-CELL * }) at $t s; about $(( (t - tc) * (total - dw) / dw )) s to go (load $(cut -d' ' -f1 /proc/loadavg))"
        else
            say "cell $k/$ncells (${line#MUXSIM-CELL * }) at $t s, the boot done (load $(cut -d' ' -f1 /proc/loadavg))"
        fi
        seen=$k
    done
}
progress & progress_pid=$!
AG_TIMEOUT=$timeout ag_boot "$work/initrd.gz" "$work/back" "$out/guest/console.log" \
    -cpu "$GUEST_CPU" -smp 2 -m "$mem" "${TCG_ARGS[@]}" \
    -plugin "$PLUGIN,geometry=$gf,out=$out/muxsim.tsv,samples=$out/samples.tsv,totals=$out/totals.tsv,times=$out/times.tsv,functions=$out/functions.tsv,scope=$scope,warmup=$warmup,prefetch=$prefetch,cores=2" \
    "${qargs[@]}" -d plugin -D "$out/guest/plugin.log" \
    -- isolcpus=1 nokaslr cryptomgr.notests
rc=$?
kill "$progress_pid" 2>/dev/null; wait "$progress_pid" 2>/dev/null
secs=$(( $(date +%s) - t0 ))
[ -d "$work/back" ] && cp -r "$work/back/." "$out/guest/" 2>/dev/null
[ -f "$out/guest/cells.txt" ] && mv "$out/guest/cells.txt" "$out/cells.txt"
# plan.env names a geometry of sim/geometries by name, any other by a copy in
# the directory (sim-import reads none from outside it)
case $gf in
    "$ROOT"/sim/geometries/*.conf) geo=$(basename "$gf" .conf) ;;
    *) mkdir -p "$out/geometry" && cp "$gf" "$out/geometry/" && geo=geometry/$(basename "$gf") ;;
esac
cat > "$out/plan.env" <<EOF
geometry=$geo
backends=$backends
fds=$fds
fd_kind=$kind
calls=$calls
warmup=$warmup
prefetch=$prefetch
scope=$scope
guest_mem_mib=$mem
arch=$arch
kernel=$AG_KERNEL
qemu=$("$AG_QEMU" --version | head -n 1)
boot_seconds=$secs
boot_status=$rc
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
EOF
[ "$rc" = 0 ] || { say "the guest failed (status $rc, $secs s; console: $out/guest/console.log)"; exit 1; }
[ -s "$out/muxsim.tsv" ] && [ -s "$out/cells.txt" ] || { say "the plugin or the guest wrote no counts"; exit 1; }
python3 "$HERE/muxsim/table.py" "$out" > "$out/table.md" || { say "could not make $out/table.md"; exit 1; }
cat "$out/table.md"
if [ ! -s "$SYMS" ] && [ -s "$out/guest/kallsyms" ]; then
    mkdir -p "$CS_CACHE" && mv "$out/guest/kallsyms" "$SYMS.tmp" && mv "$SYMS.tmp" "$SYMS"
fi
# functions.json first: sim-import reads it into each cell's sim_functions.
if [ -s "$SYMS" ] && [ -f "$out/functions.tsv" ]; then
    python3 "$HERE/muxsim/functions.py" "$out" "$SYMS" > "$out/functions.md" ||
        say "could not name the kernel functions (functions.py)"
fi
"$HOST_BIN" sim-import "$out" >/dev/null || { say "muxprof sim-import $out failed (above)"; exit 1; }
"$HOST_BIN" report "$out" >/dev/null || say "muxprof report $out failed"
if [ "$pmucheck" = 1 ]; then
    python3 "$HERE/muxsim/pmugap.py" "$out" > "$out/pmugap.md" ||
        { say "could not compare with the PMU (log: $out/guest/run.log)"; exit 1; }
    cat "$out/pmugap.md"
fi
if [ "$insn" = 1 ]; then
    python3 "$HERE/muxsim/insncheck.py" "$out" > "$out/insncheck.md" ||
        { say "could not compare with QEMU's insn plugin"; exit 1; }
    cat "$out/insncheck.md"
fi
if [ "$contrib" = 1 ]; then
    python3 "$HERE/muxsim/crosscheck.py" "$out" > "$out/crosscheck.md" ||
        { say "could not compare with the contrib plugin"; exit 1; }
    cat "$out/crosscheck.md"
fi
say "done in $secs s of boot (load $(cut -d' ' -f1-3 /proc/loadavg)): $out"
# Exit status 2 of the loop is a refusal of its arguments (select beyond
# FD_SETSIZE): that cell is unsupported, not failed.
if grep -q ' 2$' "$out/cells.txt"; then
    say "refused by muxprof loop (unsupported): $(grep ' 2$' "$out/cells.txt" | cut -d' ' -f1,2 | tr '\n' ';')"
fi
if grep -qv ' [02]$' "$out/cells.txt"; then
    say "a cell failed: $(grep -v ' [02]$' "$out/cells.txt" | tr '\n' ';')"
    exit 1
fi
exit 0
}
