#!/usr/bin/env bash
# cachesim.sh - cache misses per call without a PMU: QEMU's own cache model
# (contrib/plugins/cache.c, built from Debian's qemu source package) watches
# every load, store and instruction fetch of an emulated arm64 guest, kernel
# included, while `muxprof loop` makes K and then 2K calls; the difference
# divided by K is the cost of one call.  Writes DIR/results.json in the
# results schema (docs/results-schema.md) and the report.  See docs/cachesim.md.
#
#   scripts/cachesim.sh --out DIR [--geometry NAME | --l1d SIZE,WAYS --l2 SIZE,WAYS
#                       [--l1i SIZE,WAYS] [--line B]] [--backends LIST] [--fds LIST]
#                       [--fd-kind KIND] [--calls K] [--jobs J] [--force]
#
# Geometries are the files in scripts/cachesim/geometry/ plus "host" (this
# machine's L1d, L1i and L2 as hwloc reports them).  Boots run --jobs at a
# time (2).  Needs: qemu-system-arm (with plugin support, as Debian's),
# qemu-user, gcc, libglib2.0-dev, apt-get (to fetch the qemu source, the
# arm64 kernel and busybox; nothing is installed from them), python3, hwloc,
# the arm64 cross build (scripts/cross-aarch64.sh builds it) and the host
# build (scripts/setup.sh).
# Exit status: 0 done, 1 a boot or build failed (results.json still says
# which cells), 2 usage error, 130 interrupted.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
AG_NAME=cachesim
AG_TIMEOUT=${AG_TIMEOUT:-1800}   # one instrumented boot: 30 s idle, 5+ min on a loaded host
CS_CACHE=${CS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/muxprof/cachesim}
HOST_BIN=${HOST_BIN:-$ROOT/build/bin/muxprof}
ARM_BIN=${ARM_BIN:-$ROOT/build-aarch64/bin/muxprof}
GUEST_MEM=256M
TOP_LIMIT=3000     # instructions listed per top-miss table (attribution)

DEF_BACKENDS=poll,epoll,select
# The default N are muxprof run's own, as its --help prints them from its option table.
DEF_FDS=$("$HOST_BIN" run --help 2>/dev/null | sed -n '/^  --fds /,/]/p' | tr -d ' \n' |
          sed -n 's/.*\[\([0-9,]*\)[];].*/\1/p')
out="" geometry="" l1d="" l1i="" l2="" line=64 backends=$DEF_BACKENDS fds=$DEF_FDS
kind=pipe calls=100 jobs=2 force=0 dry=0

ARGS="$*"
say() { printf 'cachesim: %s\n' "$*" >&2; }
usage_error() { say "$*"; exit 2; }

usage() {
    cat <<EOF
usage: scripts/cachesim.sh --out DIR [options]

Simulated cache misses per call of select/poll/epoll over N fds, kernel
included: QEMU's cache plugin in an emulated arm64 guest, K and 2K calls of
\`muxprof loop\` per (backend, N), the difference divided by K.

  --out DIR          run directory (results.json, report.md, boots/)
  --geometry NAME    $(ls "$HERE/cachesim/geometry" | sed 's/\.conf$//' | tr '\n' ' ')host
                     [neoverse-n1 unless --l1d/--l2 are given]
  --l1d SIZE,WAYS    L1 data cache, SIZE in bytes or with K/M (e.g. 32K,8)
  --l1i SIZE,WAYS    L1 instruction cache [as --l1d]
  --l2 SIZE,WAYS     unified L2 (e.g. 1M,8)
  --line B           line size in bytes, all levels [64]
  --backends LIST    select, poll, epoll, ppoll, ... [$DEF_BACKENDS]
  --fds LIST         watched descriptor counts [$DEF_FDS]
  --fd-kind KIND     pipe, socketpair, tcp, eventfd [pipe]
  --calls K          calls in the short boot; the long one makes 2K [100]
  --jobs J           boots at a time [2]
  --force            reuse a non-empty DIR
  --dry-run          check every prerequisite, print the geometry, the boots
                     and an estimate of the time; build and boot nothing
                     (--out not needed)
EOF
}

bytes() {   # 32K -> 32768, 1M -> 1048576, 4096 -> 4096; empty on a bad value
    case $1 in
        *[kK]) [[ ${1%?} =~ ^[0-9]+$ ]] && echo $(( ${1%?} * 1024 )) ;;
        *[mM]) [[ ${1%?} =~ ^[0-9]+$ ]] && echo $(( ${1%?} * 1048576 )) ;;
        *) [[ $1 =~ ^[0-9]+$ ]] && echo "$1" ;;
    esac
}
pow2() { [ "$1" -gt 0 ] && [ $(( $1 & ($1 - 1) )) = 0 ]; }

# SIZE,WAYS -> "bytes ways", checked against the plugin's indexing: the
# number of sets (size / (ways * line)) must be a power of two.
cache_spec() {
    local opt=$1 v=$2 size ways sets
    [[ $v == *,* ]] || usage_error "$opt: '$v' is not SIZE,WAYS (e.g. 32K,8)"
    size=$(bytes "${v%%,*}") ways=${v#*,}
    [ -n "$size" ] && [[ $ways =~ ^[0-9]+$ ]] && [ "$ways" -gt 0 ] ||
        usage_error "$opt: '$v' is not SIZE,WAYS (e.g. 32K,8)"
    sets=$(( size / (ways * line) ))
    [ $(( sets * ways * line )) = "$size" ] && pow2 "$sets" ||
        usage_error "$opt: $size bytes in $ways ways of $line-byte lines is $sets sets; QEMU's cache model needs a power of two"
    echo "$size $ways"
}

while [ $# -gt 0 ]; do
    case $1 in
        --help|-h) usage; exit 0 ;;
        --force) force=1; shift; continue ;;
        --dry-run) dry=1; shift; continue ;;
        --out|--geometry|--l1d|--l1i|--l2|--line|--backends|--fds|--fd-kind|--calls|--jobs)
            [ $# -ge 2 ] || usage_error "$1 needs a value (--help)" ;;
        *) usage_error "unknown option '$1' (--help)" ;;
    esac
    case $1 in
        --out) out=$2 ;; --geometry) geometry=$2 ;; --l1d) l1d=$2 ;; --l1i) l1i=$2 ;;
        --l2) l2=$2 ;; --line) line=$2 ;; --backends) backends=$2 ;; --fds) fds=$2 ;;
        --fd-kind) kind=$2 ;; --calls) calls=$2 ;; --jobs) jobs=$2 ;;
    esac
    shift 2
done

[ -n "$out" ] || [ "$dry" = 1 ] || usage_error "--out DIR is required (--help)"
[[ $calls =~ ^[0-9]+$ ]] && [ "$calls" -ge 1 ] && [ "$calls" -le 100000 ] ||
    usage_error "--calls: '$calls' is not a whole number in 1..100000"
[[ $jobs =~ ^[0-9]+$ ]] && [ "$jobs" -ge 1 ] && [ "$jobs" -le 64 ] ||
    usage_error "--jobs: '$jobs' is not a whole number in 1..64"
[[ $line =~ ^[0-9]+$ ]] && pow2 "$line" && [ "$line" -ge 16 ] ||
    usage_error "--line: '$line' is not a power of two of at least 16"
[ -n "$fds" ] || { say "no --fds given and $HOST_BIN run --help gave no default: build muxprof (cmake --build build) or set HOST_BIN"; exit 1; }
[[ $fds =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--fds: '$fds' is not a list of counts (10,100)"
for n in ${fds//,/ }; do   # muxprof's own range, so that the loop refuses no N for every backend
    [ $((10#$n)) -ge 1 ] && [ $((10#$n)) -le 1048576 ] ||
        usage_error "--fds: $n is not a count in 1..1048576"
done
[[ $backends =~ ^[a-z0-9_-]+(,[a-z0-9_-]+)*$ ]] ||
    usage_error "--backends: '$backends' is not a list of names (poll,epoll)"
if [ -n "$geometry" ] && [ -n "$l1d$l2$l1i" ]; then
    usage_error "--geometry and --l1d/--l1i/--l2 exclude each other"
fi

# The geometry: "name description l1d_size l1d_ways l1i_size l1i_ways l2_size l2_ways".
if [ -n "$l1d$l2$l1i" ]; then
    [ -n "$l1d" ] && [ -n "$l2" ] || usage_error "--l1d and --l2 go together"
    v=$(cache_spec --l1d "$l1d") || exit 2; read -r d_size d_ways <<<"$v"
    v=$(cache_spec --l1i "${l1i:-$l1d}") || exit 2; read -r i_size i_ways <<<"$v"
    v=$(cache_spec --l2 "$l2") || exit 2; read -r u_size u_ways <<<"$v"
    geometry="custom-l1d${d_size}x${d_ways}-l2${u_size}x${u_ways}"
    g_desc="custom: L1d $d_size B $d_ways-way, L2 $u_size B $u_ways-way, $line-B lines"
elif [ "${geometry:-neoverse-n1}" = host ]; then
    command -v lstopo-no-graphics >/dev/null ||
        { say "--geometry host needs hwloc's lstopo-no-graphics (package hwloc)"; exit 1; }
    topo=$(lstopo-no-graphics -v --no-io 2>/dev/null)
    hw() {   # hwloc object name -> "size ways line" of its first instance
        printf '%s\n' "$topo" | grep -m1 " $1 " | sed -E 's/.*size=([0-9]+)KB linesize=([0-9]+) ways=(-?[0-9]+).*/\1 \3 \2/'
    }
    read -r d_kb d_ways line <<<"$(hw L1dCache)"; read -r i_kb i_ways _ <<<"$(hw L1iCache)"
    read -r u_kb u_ways _ <<<"$(hw L2Cache)"
    [ -n "${d_kb:-}" ] && [ -n "${u_kb:-}" ] && [ -n "${line:-}" ] ||
        { say "--geometry host: hwloc reports no L1d/L2 size here; give --l1d and --l2"; exit 1; }
    [ -n "${i_kb:-}" ] || { i_kb=$d_kb; i_ways=$d_ways; }
    v=$(cache_spec "host L1d" "${d_kb}K,$d_ways") || exit 1; read -r d_size d_ways <<<"$v"
    v=$(cache_spec "host L1i" "${i_kb}K,$i_ways") || exit 1; read -r i_size i_ways <<<"$v"
    v=$(cache_spec "host L2" "${u_kb}K,$u_ways") || exit 1; read -r u_size u_ways <<<"$v"
    geometry=host
    g_desc="this host ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), from hwloc)"
else
    geometry=${geometry:-neoverse-n1}
    gf=$HERE/cachesim/geometry/$geometry.conf
    [ -f "$gf" ] || usage_error "--geometry: unknown '$geometry'; expected $(ls "$HERE/cachesim/geometry" | sed 's/\.conf$//' | tr '\n' ' ')host"
    gv() { sed -n "s/^$1=//p" "$gf"; }
    line=$(gv line)
    v=$(cache_spec "$gf: l1d" "$(gv l1d)") || exit 1; read -r d_size d_ways <<<"$v"
    v=$(cache_spec "$gf: l1i" "$(gv l1i)") || exit 1; read -r i_size i_ways <<<"$v"
    v=$(cache_spec "$gf: l2" "$(gv l2)") || exit 1; read -r u_size u_ways <<<"$v"
    g_desc=$(gv description)
fi

# Backend and fd kind names: the loop's own check (exit 2 is a usage error).
for b in ${backends//,/ }; do
    [ -x "$HOST_BIN" ] || break
    why=$("$HOST_BIN" loop --backend "$b" --fds 1 --calls 1 --fd-kind "$kind" --quiet 2>&1)
    [ $? = 2 ] && { why=${why#muxprof loop: }; why=${why//--backend:/--backends:}; usage_error "${why//--backend /--backends: }"; }
done

# refused B N: prints why and succeeds when `muxprof loop` refuses the cell on
# this host too (select beyond FD_SETSIZE, exit 2; names and counts were
# checked above): such a cell costs no boot.  Without the host build every
# cell boots, and the guest's loop says why it refuses one.
refused() {
    local why rc=0
    [ -x "$HOST_BIN" ] || return 1
    why=$("$HOST_BIN" loop --backend "$1" --fds "$2" --calls 1 --fd-kind "$kind" --quiet 2>&1) ||
        rc=$?
    [ "$rc" = 2 ] || return 1
    printf '%s\n' "${why#muxprof loop: }"
}

# ---- prerequisites: all checked before anything is built or written ----

[ -f "$HERE/lib/arm64-guest.sh" ] ||
    { say "needs the arm64 guest library scripts/lib/arm64-guest.sh"; exit 1; }
# shellcheck source=lib/arm64-guest.sh
. "$HERE/lib/arm64-guest.sh"

qemu_src_version() {   # the installed qemu-system-arm's source version (no binNMU +bN)
    dpkg-query -W -f='${source:Version}' qemu-system-arm 2>/dev/null
}

# One line per prerequisite: "ok WHAT", "todo WHAT: what the run will do
# about it", "warn WHAT: what is lost without it" or "missing WHAT: how to
# get it".  Fails when one is missing.
prereqs() {
    local bad=0 t ver missing=""
    if [ -x "$ARM_BIN" ]; then echo "ok      the arm64 build $ARM_BIN"
    else echo "missing the arm64 build $ARM_BIN: run scripts/cross-aarch64.sh (or set ARM_BIN)"; bad=1; fi
    if [ -x "$HOST_BIN" ]; then echo "ok      the host build $HOST_BIN"
    else echo "warn    no host build $HOST_BIN: every cell boots and no report.md is written (scripts/setup.sh builds it)"; fi
    if command -v python3 >/dev/null; then echo "ok      python3"
    else echo "missing python3: apt-get install python3"; bad=1; fi
    for t in qemu-system-aarch64:qemu-system-arm qemu-aarch64:qemu-user cpio:cpio file:file; do
        command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
    done
    if [ -z "$missing" ]; then echo "ok      qemu-system-aarch64, qemu-aarch64, cpio, file"
    elif [ "$(id -u)" = 0 ] || command -v sudo >/dev/null; then
        echo "todo    packages$missing: installed with apt-get first"
    else echo "missing packages$missing: apt-get install$missing (as root)"; bad=1; fi
    ver=$(qemu_src_version)
    if [ -n "$ver" ] && [ -f "$CS_CACHE/plugin-${ver//[:+~]/_}/libcache.so" ]; then
        echo "ok      QEMU's cache plugin for qemu $ver (cached in $CS_CACHE)"
    elif [ -z "$ver" ] && [[ $missing != *qemu-system-arm* ]]; then
        echo "missing the qemu-system-arm package (the plugin is built from its source version): apt-get install qemu-system-arm"; bad=1
    elif ! command -v gcc >/dev/null; then
        echo "missing gcc, to build QEMU's cache plugin once: apt-get install gcc"; bad=1
    else
        echo "todo    QEMU's cache plugin: built once from Debian's qemu source (apt-get source --download-only; about 1 min)"
    fi
    if [ -n "${AG_KERNEL:-}" ] && [ -f "$AG_KERNEL" ] || ls "$AG_CACHE"/linux-image-*/boot/vmlinuz-* >/dev/null 2>&1; then
        echo "ok      the arm64 kernel (cached in $AG_CACHE)"
    else
        echo "todo    the arm64 kernel: downloaded once with apt-get download (linux-image-*-arm64-unsigned; the arm64 architecture must be added to dpkg)"
    fi
    if ls "$CS_CACHE"/kallsyms-*.txt >/dev/null 2>&1; then echo "ok      the guest kernel's symbols (cached)"
    else echo "todo    the guest kernel's symbols: read in one boot, once (about 1 min)"; fi
    return $bad
}

# Seconds one boot takes: the mean of the last run's boots on this host,
# else what a boot took on the 2-vCPU development VM.
boot_seconds() {
    local s
    s=$(cat "$CS_CACHE/boot-seconds" 2>/dev/null)
    [[ $s =~ ^[0-9]+$ ]] && [ "$s" -gt 0 ] && { echo "$s this host's last run"; return; }
    echo "38 the 2-vCPU development VM"
}

if [ "$dry" = 1 ]; then
    echo "geometry $geometry: $g_desc"
    echo "L1d $d_size B $d_ways-way, L1i $i_size B $i_ways-way, L2 $u_size B $u_ways-way, $line-B lines"
    nboots=0
    for b in ${backends//,/ }; do for n in ${fds//,/ }; do
        if why=$(refused "$b" "$n"); then
            echo "no boot $b N=$n: unsupported: $why"
        else
            echo "boot $b N=$n: $calls and $((2 * calls)) calls"
            nboots=$((nboots + 2))
        fi
    done; done
    echo "prerequisites:"
    report=$(prereqs); ok=$?
    printf '%s\n' "$report" | sed 's/^/  /'
    read -r per from <<<"$(boot_seconds)"
    once=$(printf '%s\n' "$report" | grep -c '^todo .*once' || true)
    echo "estimate: $nboots boots x ${per} s / $jobs at a time = about $(( (nboots * per / jobs + 59) / 60 )) min (a boot's time from $from)$([ "$once" -gt 0 ] && echo ", plus about $once min for the one-time steps")"
    [ "$ok" = 0 ] || { say "a prerequisite is missing (above)"; exit 1; }
    exit 0
fi
if [ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ "$force" = 0 ]; then
    usage_error "--out: $out exists and is not empty; choose another directory or add --force"
fi
report=$(prereqs) || { printf '%s\n' "$report" | grep '^missing' | sed 's/^missing */cachesim: needs /' >&2; exit 1; }
# A start that fails before the first boot leaves no directory behind
# (only one this run created is removed).
created=0
[ -e "$out" ] || created=1
mkdir -p "$out/boots" || { say "--out: cannot create $out"; exit 2; }
out=$(cd "$out" && pwd)
start_failed() {
    say "$1"
    [ "$created" = 1 ] && rm -rf "$out"
    exit 1
}

# ---- the plugin: QEMU's cache.c from the source of the installed qemu ----

build_plugin() {
    local ver dir apt src orig codename mirror O
    ver=$(qemu_src_version)
    [ -n "$ver" ] || { say "qemu-system-arm is not installed (apt-get install qemu-system-arm)"; return 1; }
    dir=$CS_CACHE/plugin-${ver//[:+~]/_}
    PLUGIN=$dir/libcache.so
    [ -f "$PLUGIN" ] && return 0
    pkg-config --exists glib-2.0 2>/dev/null || {
        [ "$(id -u)" = 0 ] || { say "needs libglib2.0-dev (apt-get install libglib2.0-dev)"; return 1; }
        say "installing libglib2.0-dev"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q libglib2.0-dev >/dev/null ||
            { say "could not install libglib2.0-dev"; return 1; }; }
    say "building QEMU's cache plugin from the qemu $ver source (once; cached in $dir)"
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/apt/lists/partial" "$dir.tmp/apt/cache/archives/partial" \
        "$dir.tmp/dl" || return 1
    apt=$dir.tmp/apt
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    mirror=${CS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
    # A deb-src list of our own: the system's apt sources are never touched.
    {
        echo "deb-src $mirror $codename main"
        echo "deb-src $mirror $codename-updates main"
        echo "deb-src ${CS_DEBIAN_SECURITY:-http://deb.debian.org/debian-security} $codename-security main"
    } > "$apt/sources.list"
    O=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=-
       -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
    apt-get "${O[@]}" update -q >"$dir.tmp/apt.log" 2>&1 ||
        { say "apt-get update of the deb-src list failed (log: $dir.tmp/apt.log)"; return 1; }
    (cd "$dir.tmp/dl" && apt-get "${O[@]}" source --download-only "qemu=$ver") >>"$dir.tmp/apt.log" 2>&1 ||
        { say "apt-get source --download-only qemu=$ver failed (log: $dir.tmp/apt.log)"; return 1; }
    orig=$(ls "$dir.tmp"/dl/qemu_*.orig.tar.* 2>/dev/null | head -n 1)
    [ -n "$orig" ] || { say "no qemu orig tarball downloaded (log: $dir.tmp/apt.log)"; return 1; }
    tar -xf "$orig" -C "$dir.tmp" --wildcards --no-wildcards-match-slash \
        '*/contrib/plugins/*' '*/include/qemu/qemu-plugin.h' ||
        { say "could not unpack contrib/plugins from $orig"; return 1; }
    src=$(ls -d "$dir.tmp"/qemu-*/ | head -n 1)
    # shellcheck disable=SC2046
    gcc -O2 -shared -fPIC -I"$src/include/qemu" $(pkg-config --cflags glib-2.0) \
        -o "$dir.tmp/libcache.so" "$src/contrib/plugins/cache.c" $(pkg-config --libs glib-2.0) \
        2>"$dir.tmp/gcc.log" || { say "gcc failed on cache.c (log: $dir.tmp/gcc.log)"; return 1; }
    # Keep the plugin and its source; drop the lists and the tarballs.
    mkdir -p "$dir.tmp/source" && mv "$src/contrib/plugins/cache.c" "$src/include/qemu/qemu-plugin.h" \
        "$dir.tmp/source/" && rm -rf "$src" "$dir.tmp/dl" "$apt" &&
        echo "qemu $ver, contrib/plugins/cache.c" > "$dir.tmp/source/VERSION" &&
        rm -rf "$dir" && mv "$dir.tmp" "$dir" || return 1
}

# ---- the guest: kernel symbols once, then one initrd for every boot ----

KARGS=(isolcpus=1 nokaslr cryptomgr.notests)

kernel_symbols() {   # SYMS: the kernel's text symbols, from a boot of that kernel (nokaslr)
    SYMS=$CS_CACHE/kallsyms-$(basename "$AG_KERNEL").txt
    [ -s "$SYMS" ] && return 0
    say "reading the guest kernel's symbols (one boot, once; Debian's System.map is a stub)"
    local r=$out/.syms
    rm -rf "$r" && ag_root_new "$r/root" || return 1
    printf '%s\n' "grep ' [tTwW] ' /proc/kallsyms > /out/kallsyms" > "$r/job.sh"
    ag_root_job "$r/root" "$r/job.sh" && ag_pack "$r/root" "$r/initrd.gz" || return 1
    ag_boot "$r/initrd.gz" "$r/out" "$r/console.log" -m "$GUEST_MEM" -- "${KARGS[@]}" ||
        { say "the symbol boot failed (console: $r/console.log)"; return 1; }
    [ -s "$r/out/kallsyms" ] && grep -q ' _stext$' "$r/out/kallsyms" ||
        { say "the guest listed no kernel symbols (console: $r/console.log)"; return 1; }
    mkdir -p "$CS_CACHE" && mv "$r/out/kallsyms" "$SYMS.tmp" && mv "$SYMS.tmp" "$SYMS" && rm -rf "$r"
}

make_initrd() {
    local r=$out/.initrd
    rm -rf "$r" && ag_root_new "$r" || return 1
    ag_root_add_prog "$r" "$ARM_BIN" /bin/muxprof || return 1
    # Parameters come on the kernel command line, so one initrd serves every boot.
    cat > "$out/.job.sh" <<'EOF'
arg() { sed -n "s/.* cs_$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
grep 'Kernel code' /proc/iomem > /out/iomem
muxprof loop --backend "$(arg backend)" --fds "$(arg fds)" --calls "$(arg calls)" \
    --fd-kind "$(arg kind)" --cpu 1 > /out/loop.log 2>&1
echo $? > /out/loop.rc
EOF
    ag_root_job "$r" "$out/.job.sh" && ag_pack "$r" "$out/initrd.gz" && rm -rf "$r" "$out/.job.sh"
}

# boot BACKEND N K: one instrumented boot into boots/B-N-K/.
boot() {
    local b=$1 n=$2 k=$3 d=$out/boots/$1-$2-$3 t0 rc watcher
    rm -rf "$d" && mkdir -p "$d"
    t0=$(date +%s)
    # The plugin names instructions by host address: guest RAM's host base
    # (a memfd, named in qemu's /proc maps) turns them into guest addresses.
    ( for _ in $(seq 600); do
          if [ -s "$d/qemu.pid" ] && grep -m1 'memfd:memory-backend-memfd' \
                 "/proc/$(cat "$d/qemu.pid")/maps" > "$d/ram.maps" 2>/dev/null; then exit 0; fi
          sleep 0.2
      done ) &
    watcher=$!
    ag_boot "$out/initrd.gz" "$d" "$d/console.log" \
        -m "$GUEST_MEM" -object "memory-backend-memfd,id=mem,size=$GUEST_MEM" \
        -machine memory-backend=mem -icount shift=0,sleep=off -pidfile "$d/qemu.pid" \
        -plugin "$PLUGIN,cores=2,l2=on,evict=lru,limit=$TOP_LIMIT,dcachesize=$d_size,dassoc=$d_ways,dblksize=$line,icachesize=$i_size,iassoc=$i_ways,iblksize=$line,l2cachesize=$u_size,l2assoc=$u_ways,l2blksize=$line" \
        -d plugin -D "$d/plugin.log" \
        -- "${KARGS[@]}" "cs_backend=$b" "cs_fds=$n" "cs_calls=$k" "cs_kind=$kind"
    rc=$?
    kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
    echo "$rc $(( $(date +%s) - t0 ))" > "$d/boot.status"
}

# ---- main ----

if declare -F ag_need_tools >/dev/null; then ag_need_tools || start_failed "could not install the guest's tools"; fi
build_plugin || start_failed "could not build QEMU's cache plugin (above)"
ag_fetch_kernel && ag_fetch_busybox || start_failed "could not fetch the arm64 kernel or busybox (above)"
kernel_symbols || start_failed "could not read the guest kernel's symbols (above)"
make_initrd || start_failed "could not build the guest's initrd"

# A cell the loop refuses on this host too (select beyond FD_SETSIZE) is
# unsupported, with the loop's own reason, and costs no boot.
list=()
for b in ${backends//,/ }; do
    for n in ${fds//,/ }; do
        if why=$(refused "$b" "$n"); then
            printf '%s\n' "$why" > "$out/boots/$b-$n.unsupported"
            continue
        fi
        list+=("$b $n $calls" "$b $n $((2 * calls))")
    done
done
total=${#list[@]}
cat > "$out/plan.env" <<EOF
geometry=$geometry
description=$g_desc
l1d=$d_size,$d_ways
l1i=$i_size,$i_ways
l2=$u_size,$u_ways
line=$line
backends=$backends
fds=$fds
fd_kind=$kind
calls=$calls
jobs=$jobs
kernel=$AG_KERNEL
symbols=$SYMS
host_bin=$HOST_BIN
plugin=$PLUGIN
top_limit=$TOP_LIMIT
qemu=$(qemu-system-aarch64 --version | head -n 1)
qemu_source=$(qemu_src_version)
command=scripts/cachesim.sh $ARGS
started=$(date -u +%FT%TZ)
load=$(cut -d' ' -f1-3 /proc/loadavg)
EOF

trap 'say "interrupted"; kill $(jobs -p) 2>/dev/null; wait; exit 130' INT TERM
say "$total boots ($((total / 2)) pairs of $calls and $((2 * calls)) calls), $jobs at a time, geometry $geometry: $g_desc"
start=$(date +%s) done=0 running=0
progress() {
    local el=$(( $(date +%s) - start )) eta="?"
    [ "$done" -gt 0 ] && eta=$(( el * (total - done) / done ))
    say "$done/$total boots done, ${el}s elapsed, ETA ${eta}s (load $(cut -d' ' -f1 /proc/loadavg))"
}
for item in "${list[@]}"; do
    read -r b n k <<<"$item"
    boot "$b" "$n" "$k" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n; running=$((running - 1)); done=$((done + 1)); progress
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n; running=$((running - 1)); done=$((done + 1)); progress
done
echo "finished=$(date -u +%FT%TZ)" >> "$out/plan.env"
# The mean boot time, for the next --dry-run's estimate.
cat "$out"/boots/*/boot.status 2>/dev/null | awk '$1 == 0 {s += $2; n++} END {if (n) printf "%d\n", s / n}' \
    > "$CS_CACHE/boot-seconds.tmp" 2>/dev/null && [ -s "$CS_CACHE/boot-seconds.tmp" ] &&
    mv "$CS_CACHE/boot-seconds.tmp" "$CS_CACHE/boot-seconds" || rm -f "$CS_CACHE/boot-seconds.tmp"
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/plan.env"

python3 "$HERE/cachesim/assemble.py" "$out" || { say "could not assemble $out/results.json"; exit 1; }
status=0
grep -q '"status": "error"' "$out/results.json" && status=1
if [ -x "$HOST_BIN" ]; then
    "$HOST_BIN" report "$out" >/dev/null || say "muxprof report $out failed"
fi
say "wrote $out/results.json ($(( $(date +%s) - start ))s of boots)"
exit $status
