# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# guest.sh - a small Linux guest under qemu-system-aarch64 or qemu-system-x86_64
# (TCG), for running a program of that ISA against a real kernel (its PMU
# driver included, where the emulated CPU has one) on any host.  Sourced by
# bash scripts (scripts/arm64-vm.sh, scripts/x86-vm.sh, through
# scripts/lib/arm64-guest.sh for the arm64 ones); it defines functions and
# variables prefixed ag_ / AG_ and runs nothing by itself.  AG_ARCH, set
# before sourcing, picks the guest: arm64 (the default) or x86_64.
#
#   AG_ARCH=x86_64; . scripts/lib/guest.sh
#   ag_need_tools                        # qemu-system-*, qemu-user (arm64), cpio, file
#   ag_fetch_kernel                      # AG_KERNEL: Debian's kernel of the ISA (cached)
#   ag_fetch_busybox                     # AG_BUSYBOX: a static busybox of the ISA (cached)
#   root=$(mktemp -d); ag_root_new "$root"
#   ag_root_add_prog "$root" build/bin/muxprof /bin/muxprof   # + its libraries
#   ag_fetch_perf                        # AG_PERF_ROOT: Debian's perf and its libraries
#   ag_root_add_prog "$root" "$AG_PERF_ROOT/usr/bin/perf" /usr/bin/perf "$AG_PERF_LIBDIRS"
#   ag_root_add_file "$root" some/data /data                          # any file
#   ag_root_job "$root" job.sh           # the job: sh script run as root in the guest;
#                                        # what it leaves in /out comes back
#   ag_pack "$root" initrd.gz
#   ag_boot initrd.gz OUTDIR console.log [qemu args...] [-- kernel args...]
#
# Per ISA (ag_set_arch ARCH sets these; sourcing calls it with AG_ARCH):
#
#   AG_ARCH      arm64                        x86_64
#   AG_DEB_ARCH  arm64                        amd64
#   AG_QEMU      qemu-system-aarch64 -M virt  qemu-system-x86_64 -M pc -accel tcg
#   AG_CONSOLE   ttyAMA0                      ttyS0 (8250, built into Debian's kernel)
#   AG_LIBDIR    /usr/lib/aarch64-linux-gnu   /usr/lib/x86_64-linux-gnu
#   AG_LOADER    $AG_LIBDIR/ld-linux-aarch64.so.1, /lib/ld-linux-aarch64.so.1 in the guest;
#                $AG_LIBDIR/ld-linux-x86-64.so.2, /lib64/ld-linux-x86-64.so.2 in the guest
#   AG_USER_QEMU qemu-aarch64 (lists a program's libraries with the arm64 loader);
#                qemu-x86_64 for x86_64 on another host;
#                empty for x86_64 on an x86_64 host (the host's loader lists them)
#   kernel       the newest linux-image-*-arm64-unsigned apt-cache knows;
#                linux-image-amd64's dependency (linux-image-6.1.*-amd64)
#
# ag_boot starts `$AG_QEMU -nographic -no-reboot` with the initrd, waits at
# most AG_TIMEOUT seconds, keeps the console in console.log, and unpacks what
# the job left in /out into OUTDIR.  Files come back over the serial console
# (tar.gz in base64 between two marker lines, checked with its sha256), so no
# module (9p, virtio) is needed in the guest.  Its status: the job's exit
# status; 124 when the guest did not finish in time; 125 when it finished
# without sending its files back intact.  Default qemu arguments: -cpu max
# -smp 2 -m 1024 (later ones win: pass -cpu neoverse-n1, -icount shift=0,
# ...).  Default kernel arguments: console=$AG_CONSOLE quiet panic=-1.
#
# The guest's /init mounts proc, sysfs, devtmpfs and a tmpfs on /tmp, sets
# kernel.perf_event_paranoid=-1, installs the busybox applets, sources
# /etc/guest-setup.sh (below), runs /job.sh with its output on the console and
# in /out/job.log, sends /out back, powers off.
#
# /etc/guest-setup.sh gives every job room for large descriptor sets, TCP
# sockets included: the loopback interface up (nothing else brings it up in
# an initramfs, and a TCP connection to 127.0.0.1 is then "Network is
# unreachable"), net.ipv4.ip_local_port_range 1024-65535 (each tcp
# connection takes a local port of its source address: 64,512 of them,
# against 28,232 by default), net.core.somaxconn 65535, fs.nr_open and RLIMIT_NOFILE
# 4,194,304, fs.file-max 8,388,608 and fs.epoll.max_user_watches 4,194,304.
# It reads each setting back and prints one line per setting (console and
# /out/guest-setup.txt), "could not ..." for one that did not take.
# AG_SYSROOT, when set, prefixes its /proc and /sys (a check of the file
# outside a guest, on a tree of plain files).
#
# Downloads (apt-get download: nothing is installed, no root needed) and their
# unpacked files are cached in AG_CACHE (default
# ~/.cache/muxprof/$AG_ARCH-guest: arm64-guest, x86_64-guest).  AG_KERNEL_PKG
# names the kernel package.  Needs the qemu-system package of the ISA
# (qemu-system-arm, qemu-system-x86), qemu-user for arm64, cpio, gzip, and
# apt with the guest's architecture known to dpkg (dpkg --add-architecture
# arm64 on an amd64 host), or AG_KERNEL / AG_BUSYBOX set to files already there.

# ag_set_arch ARCH: the per-ISA variables above (status 1 for another ARCH).
ag_set_arch() {
    case $1 in
        arm64|aarch64)
            AG_ARCH=arm64 AG_DEB_ARCH=arm64 AG_TRIPLET=aarch64-linux-gnu
            AG_QEMU=qemu-system-aarch64 AG_QEMU_PKG=qemu-system-arm AG_QEMU_MACHINE="-M virt"
            AG_CONSOLE=ttyAMA0 AG_LOADER_NAME=ld-linux-aarch64.so.1
            AG_INTERP=/lib/ld-linux-aarch64.so.1 AG_FILE_RE='ARM aarch64'
            AG_USER_QEMU=qemu-aarch64
            ;;
        x86_64|amd64)
            AG_ARCH=x86_64 AG_DEB_ARCH=amd64 AG_TRIPLET=x86_64-linux-gnu
            AG_QEMU=qemu-system-x86_64 AG_QEMU_PKG=qemu-system-x86 AG_QEMU_MACHINE="-M pc -accel tcg"
            AG_CONSOLE=ttyS0 AG_LOADER_NAME=ld-linux-x86-64.so.2
            AG_INTERP=/lib64/ld-linux-x86-64.so.2 AG_FILE_RE='x86-64'
            AG_USER_QEMU=qemu-x86_64
            if [ "$(uname -m)" = x86_64 ]; then AG_USER_QEMU=""; fi
            ;;
        *) ag_say "unknown guest architecture '$1' (arm64 or x86_64)"; return 1 ;;
    esac
    AG_LIBDIR=/usr/lib/$AG_TRIPLET
    AG_LOADER=$AG_LIBDIR/$AG_LOADER_NAME
}

ag_say() { printf '%s: %s\n' "${AG_NAME:-${AG_ARCH:-arm64}-guest}" "$*" >&2; }

ag_set_arch "${AG_ARCH:-arm64}" || return 1
AG_CACHE=${AG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/muxprof/$AG_ARCH-guest}
AG_TIMEOUT=${AG_TIMEOUT:-300}

# apt-get download PKG into the cache, once; prints the .deb's path.
ag__download() {
    local pkg=$1 dir=$AG_CACHE/deb deb
    mkdir -p "$dir"
    deb=$(ls "$dir"/"${pkg%%:*}"_*.deb 2>/dev/null | tail -n 1)
    if [ -z "$deb" ]; then
        ag_say "downloading $pkg"
        (cd "$dir" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
            { ag_say "apt-get download $pkg failed (does dpkg know the $AG_DEB_ARCH architecture? dpkg --add-architecture $AG_DEB_ARCH && apt-get update)"; return 1; }
        deb=$(ls "$dir"/"${pkg%%:*}"_*.deb 2>/dev/null | tail -n 1)
    fi
    [ -n "$deb" ] && printf '%s\n' "$deb"
}

# The kernel image package: for arm64 the newest generic one apt knows
# (linux-image-*-arm64-unsigned), for x86_64 the one linux-image-amd64
# depends on (linux-image-6.1.*-amd64 on Debian 12).
ag__kernel_pkg() {
    case $AG_ARCH in
        arm64)
            apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-arm64-unsigned$' 2>/dev/null |
                awk '{print $1}' | sort -V | tail -n 1 ;;
        x86_64)
            apt-cache depends linux-image-amd64:amd64 2>/dev/null |
                awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9.]+-[0-9]+-amd64(:amd64)?$/ {sub(/:amd64$/, "", $2); print $2}' |
                sort -V | tail -n 1 ;;
    esac
}

# Sets AG_KERNEL to a cached vmlinuz of the ISA (downloaded and unpacked once).
ag_fetch_kernel() {
    if [ -n "${AG_KERNEL:-}" ] && [ -f "$AG_KERNEL" ]; then return 0; fi
    local pkg=${AG_KERNEL_PKG:-$(ag__kernel_pkg)} deb dir
    [ -n "$pkg" ] || { ag_say "apt-cache knows no $AG_ARCH kernel package (linux-image-*-arm64-unsigned, linux-image-amd64's dependency: add the $AG_DEB_ARCH architecture and run apt-get update)"; return 1; }
    dir=$AG_CACHE/$pkg
    AG_KERNEL=$(ls "$dir"/boot/vmlinuz-* 2>/dev/null | head -n 1)
    if [ -z "$AG_KERNEL" ]; then
        deb=$(ag__download "$pkg:$AG_DEB_ARCH") || return 1
        rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" &&
            dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./boot &&
            rm -rf "$dir" && mv "$dir.tmp" "$dir" ||
            { ag_say "could not unpack $deb"; return 1; }
        AG_KERNEL=$(ls "$dir"/boot/vmlinuz-* 2>/dev/null | head -n 1)
    fi
    [ -n "$AG_KERNEL" ] || { ag_say "no vmlinuz in $pkg"; return 1; }
}

# Sets AG_BUSYBOX to a static busybox of the ISA: the installed one when it
# is that, else busybox-static of the ISA downloaded and unpacked once.
ag_fetch_busybox() {
    if [ -n "${AG_BUSYBOX:-}" ] && [ -f "$AG_BUSYBOX" ]; then return 0; fi
    local b deb
    for b in /bin/busybox /usr/bin/busybox; do
        if [ -f "$b" ] && file -L "$b" | grep -q "$AG_FILE_RE.*statically linked"; then
            AG_BUSYBOX=$b; return 0
        fi
    done
    AG_BUSYBOX=$AG_CACHE/busybox/busybox
    [ -f "$AG_BUSYBOX" ] && return 0
    deb=$(ag__download "busybox-static:$AG_DEB_ARCH") || return 1
    rm -rf "$AG_CACHE/busybox.tmp" && mkdir -p "$AG_CACHE/busybox.tmp" &&
        dpkg-deb -x "$deb" "$AG_CACHE/busybox.tmp" &&
        mkdir -p "$AG_CACHE/busybox" &&
        mv "$AG_CACHE/busybox.tmp/bin/busybox" "$AG_BUSYBOX" &&
        rm -rf "$AG_CACHE/busybox.tmp" || { ag_say "could not unpack $deb"; return 1; }
}

# Install what the guest needs on the host when missing (apt-get, as root
# or through sudo): the qemu-system package of the ISA, qemu-user when the
# loader of the ISA cannot run on the host, cpio, file.
ag_need_tools() {
    local missing="" SUDO=""
    command -v "$AG_QEMU" >/dev/null || missing="$missing $AG_QEMU_PKG"
    [ -z "$AG_USER_QEMU" ] || command -v "$AG_USER_QEMU" >/dev/null || missing="$missing qemu-user"
    command -v cpio >/dev/null || missing="$missing cpio"
    command -v file >/dev/null || missing="$missing file"
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || SUDO=sudo
    ag_say "installing:$missing"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-remove $missing >/dev/null ||
        { ag_say "could not install:$missing"; return 1; }
}

# A new root tree in DIR: busybox, the /init, empty mount points.
ag_root_new() {
    local root=$1
    mkdir -p "$root"/bin "$root"/sbin "$root"/proc "$root"/sys "$root"/dev "$root"/tmp \
             "$root"/out "$root"/etc "$root$AG_LIBDIR" "$root"/lib || return 1
    cp "$AG_BUSYBOX" "$root"/bin/busybox && ln -sf busybox "$root"/bin/sh || return 1
    cat > "$root"/init <<'EOF'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin LD_LIBRARY_PATH=@AG_LIBDIR@ HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
echo 1 > /proc/sys/kernel/printk
echo -1 > /proc/sys/kernel/perf_event_paranoid
# sourced: RLIMIT_NOFILE must be raised in this shell for the job to inherit it
. /etc/guest-setup.sh > /out/guest-setup.txt 2>&1
cat /out/guest-setup.txt
echo "@@AG-JOB-START@@"
{ sh /job.sh; echo $? > /tmp/.rc; } 2>&1 | tee /out/job.log
rc=$(cat /tmp/.rc 2>/dev/null || echo 125)
cd /out && tar -czf /tmp/.out.tgz . && sum=$(sha256sum /tmp/.out.tgz | cut -d' ' -f1)
echo "@@AG-OUT-BEGIN@@"
base64 /tmp/.out.tgz
echo "@@AG-OUT-END@@ rc=$rc sha256=$sum"
sync
poweroff -f
EOF
    sed -i "s|@AG_LIBDIR@|$AG_LIBDIR|" "$root"/init && chmod 755 "$root"/init
    ag__setup_script > "$root"/etc/guest-setup.sh
}

# The text of /etc/guest-setup.sh (see the top of this file).
ag__setup_script() {
    cat <<'EOF'
# guest-setup.sh - loopback up and room for large descriptor sets; sourced by /init.
ag_s=${AG_SYSROOT:-}
ag_bad=0
ag_set() {   # ag_set KEY VALUE: the sysctl KEY (dotted) set to VALUE and read back
    ag_f=$ag_s/proc/sys/$(echo "$1" | tr . /)
    echo "$2" > "$ag_f" 2>/dev/null
    ag_got=$(tr '\t' ' ' < "$ag_f" 2>/dev/null)
    if [ "$ag_got" = "$2" ]; then
        echo "guest-setup: $1 = $2"
    else
        echo "guest-setup: could not set $1 to $2 (it reads '$ag_got')"; ag_bad=1
    fi
}
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
ag_flags=$(cat "$ag_s/sys/class/net/lo/flags" 2>/dev/null) || ag_flags=0
if [ $(( ag_flags & 1 )) = 1 ]; then
    echo "guest-setup: lo up"
else
    echo "guest-setup: could not bring the loopback interface up (flags $ag_flags)"; ag_bad=1
fi
ag_set net.ipv4.ip_local_port_range "1024 65535"
ag_set net.core.somaxconn 65535
ag_set fs.nr_open 4194304
ag_set fs.file-max 8388608
ag_set fs.epoll.max_user_watches 4194304
if ulimit -Hn 4194304 2>/dev/null && ulimit -Sn 4194304 2>/dev/null; then
    echo "guest-setup: RLIMIT_NOFILE = $(ulimit -n)"
else
    echo "guest-setup: could not raise RLIMIT_NOFILE to 4194304 (it is $(ulimit -n))"; ag_bad=1
fi
[ "$ag_bad" = 0 ] || echo "guest-setup: not all of the settings above took"
unset ag_s ag_f ag_got ag_flags ag_bad
EOF
}

# Copy FILE to DEST (a path inside the root).
ag_root_add_file() {
    local root=$1 src=$2 dest=$3
    mkdir -p "$root$(dirname "$dest")" && cp -L "$src" "$root$dest"
}

# Copy a program of the ISA to DEST with every shared library it loads (as
# the multiarch loader of the ISA resolves them, run under qemu-user when the
# host cannot run it) and the loader.
# LIBDIRS (colon-separated, optional) are searched before the multiarch folders.
ag_root_add_prog() {
    local root=$1 prog=$2 dest=$3 libs lib interp
    ag_root_add_file "$root" "$prog" "$dest" || return 1
    chmod 755 "$root$dest"
    libs=$($AG_USER_QEMU "$AG_LOADER" --library-path "${4:+$4:}$AG_LIBDIR:/lib/$AG_TRIPLET" \
               --list "$prog" 2>&1) || { ag_say "cannot list the libraries of $prog: $libs"; return 1; }
    for lib in $(printf '%s\n' "$libs" | awk '/=> \//{print $3}'); do
        cp -L "$lib" "$root$AG_LIBDIR/$(basename "$lib")" || return 1
    done
    cp -L "$AG_LOADER" "$root$AG_LIBDIR/" || return 1
    interp=$(printf '%s\n' "$libs" | awk '$1 ~ /^\/.*ld-linux/{print $1; exit}')
    interp=${interp:-$AG_INTERP}
    mkdir -p "$root$(dirname "$interp")"
    [ -e "$root$interp" ] || ln -sf "$AG_LOADER" "$root$interp"
}

# The job: a sh script (busybox ash) run in the guest from /.
ag_root_job() {
    cp "$2" "$1"/job.sh && chmod 755 "$1"/job.sh
}

# Pack the root as a gzipped newc cpio.
ag_pack() {
    local root=$1 out=$2
    (cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp" &&
        mv "$out.tmp" "$out"
}

# ag_boot INITRD OUTDIR LOG [qemu args...] [-- kernel args...]
ag_boot() {
    local initrd=$1 outdir=$2 log=$3 qargs=() kargs=("console=$AG_CONSOLE" quiet panic=-1) rc end sum got
    shift 3
    while [ $# -gt 0 ] && [ "$1" != -- ]; do qargs+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    kargs+=("$@")
    command -v "$AG_QEMU" >/dev/null ||
        { ag_say "$AG_QEMU is missing (package $AG_QEMU_PKG)"; return 1; }
    # shellcheck disable=SC2086 # AG_QEMU_MACHINE is words
    timeout --kill-after=5 "$AG_TIMEOUT" "$AG_QEMU" $AG_QEMU_MACHINE -cpu max -smp 2 -m 1024 \
        -nographic -no-reboot -monitor none -serial stdio "${qargs[@]}" \
        -kernel "$AG_KERNEL" -initrd "$initrd" -append "${kargs[*]}" \
        </dev/null > "$log" 2>&1
    rc=$?
    tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        ag_say "the guest did not finish within $AG_TIMEOUT s (console: $log)"; return 124
    fi
    end=$(grep -a '^@@AG-OUT-END@@' "$log" | tail -n 1)
    if [ -z "$end" ]; then
        ag_say "the guest ended (qemu status $rc) without sending its files back (console: $log)"
        return 125
    fi
    sum=${end##*sha256=}
    mkdir -p "$outdir"
    sed -n '/^@@AG-OUT-BEGIN@@/,/^@@AG-OUT-END@@/p' "$log" | sed '1d;$d' | grep -E '^[A-Za-z0-9+/=]+$' |
        base64 -d > "$outdir/.guest-out.tgz" 2>/dev/null
    got=$(sha256sum "$outdir/.guest-out.tgz" | cut -d' ' -f1)
    if [ "$got" != "$sum" ] || ! tar -xzf "$outdir/.guest-out.tgz" -C "$outdir"; then
        rm -f "$outdir/.guest-out.tgz"
        ag_say "the files sent back over the console are damaged (console: $log)"; return 125
    fi
    rm -f "$outdir/.guest-out.tgz"
    rc=${end#*rc=}; rc=${rc%% *}
    return "$rc"
}

# Sets AG_PERF_ROOT to a folder holding Debian's perf of the ISA (usr/bin/perf
# of linux-perf) and the library packages it depends on, unpacked, and
# AG_PERF_LIBDIRS to its library folders (for ag_root_add_prog).  The packages
# are the libraries of the ISA in linux-perf's dependency closure (apt-cache depends
# --recurse), downloaded once into the cache; nothing is installed.
ag_fetch_perf() {
    local dir=$AG_CACHE/perf pkgs p deb native=""
    # apt-cache names the host's own packages without :ARCH
    [ "$(dpkg --print-architecture 2>/dev/null)" = "$AG_DEB_ARCH" ] && native="/:/!s/\$/:$AG_DEB_ARCH/"
    AG_PERF_ROOT=$dir
    AG_PERF_LIBDIRS=$dir/usr/lib/$AG_TRIPLET:$dir/lib/$AG_TRIPLET
    [ -x "$dir/usr/bin/perf" ] && return 0
    pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
               --no-replaces --no-enhances "linux-perf:$AG_DEB_ARCH" 2>/dev/null |
           sed "$native" |
           grep -E "^(lib[^ ]*|zlib1g):$AG_DEB_ARCH\$" | grep -v -E 'stdlib|minimal' | sort -u)
    [ -n "$pkgs" ] || { ag_say "apt-cache knows no linux-perf:$AG_DEB_ARCH (add the $AG_DEB_ARCH architecture and run apt-get update)"; return 1; }
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || return 1
    for p in "linux-perf:$AG_DEB_ARCH" $pkgs; do
        deb=$(ag__download "$p") && dpkg-deb -x "$deb" "$dir.tmp" ||
            { ag_say "could not fetch or unpack $p (for the guest's perf)"; rm -rf "$dir.tmp"; return 1; }
    done
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# ag_boot_run NAME WORK OUT [qemu args...]: ag_boot of WORK/initrd.gz, then
# what the job left laid out in OUT as a run directory (the run's files at
# its top; the console, the job's log and the guest's settings in OUT/guest).
# Says how long the guest ran; exits 1 with one line (prefixed NAME) when
# the job failed or no results.json came back.
ag_boot_run() {
    local name=$1 work=$2 out=$3 rc t0
    shift 3
    mkdir -p "$work/back"
    t0=$(date +%s)
    rc=0
    ag_boot "$work/initrd.gz" "$work/back" "$work/console.log" "$@" || rc=$?
    echo "$name: the guest ran $(( $(date +%s) - t0 )) s" >&2
    mkdir -p "$out/guest"
    cp "$work/console.log" "$out/guest/console.log"
    [ ! -d "$work/back/guest" ] || cp -r "$work/back/guest/." "$out/guest/"
    [ ! -f "$work/back/job.log" ] || cp "$work/back/job.log" "$out/guest/job.log"
    [ ! -f "$work/back/guest-setup.txt" ] || cp "$work/back/guest-setup.txt" "$out/guest/"
    [ ! -d "$work/back/run" ] || cp -r "$work/back/run/." "$out/"
    if [ "$rc" != 0 ]; then
        echo "$name: the guest job failed (status $rc); see $out/guest/job.log and console.log" >&2
        exit 1
    fi
    [ -f "$out/results.json" ] || { echo "$name: no results.json came back" >&2; exit 1; }
    echo "$name: run directory in $out" >&2
}
