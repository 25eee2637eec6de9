#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_guest_arch.sh SRC - the guest library's per-ISA parts without booting
# (scripts/lib/guest.sh, and arm64-guest.sh that sets arm64 for muxsim.sh,
# arm64-vm.sh and arm64-validate.sh): the variables each ISA sets, an unknown
# ISA refused with one line, the /init's library path, the default cache,
# and the qemu command line and kernel arguments ag_boot gives a stand-in
# qemu (which sends an empty /out back the way the guest's /init does).
set -u
src=${1:?usage: test_guest_arch.sh SRC}
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for c in tar gzip base64 sha256sum timeout; do
    command -v "$c" >/dev/null || { echo "SKIP: no $c"; exit 77; }
done

vars() {   # vars LIB [ARCH]: the per-ISA variables after sourcing LIB with AG_ARCH=ARCH
    HOME=$t/home XDG_CACHE_HOME='' AG_CACHE='' AG_ARCH=${2:-} bash -c \
        '. "$1" || exit 1; echo "$AG_ARCH|$AG_DEB_ARCH|$AG_QEMU|$AG_QEMU_MACHINE|$AG_CONSOLE|$AG_LIBDIR|$AG_LOADER|$AG_INTERP|$AG_USER_QEMU|$AG_CACHE"' \
        _ "$src/scripts/lib/$1"
}
H=$t/home/.cache/muxprof
got=$(vars arm64-guest.sh x86_64) || fail "arm64-guest.sh did not source"
want="arm64|arm64|qemu-system-aarch64|-M virt|ttyAMA0|/usr/lib/aarch64-linux-gnu|/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1|/lib/ld-linux-aarch64.so.1|qemu-aarch64|$H/arm64-guest"
[ "$got" = "$want" ] || fail "arm64-guest.sh (AG_ARCH=x86_64 in the environment): $got, not $want"
got=$(vars guest.sh) || fail "guest.sh did not source"
[ "$got" = "$want" ] || fail "guest.sh without AG_ARCH: $got, not $want (arm64)"
uq=qemu-x86_64; [ "$(uname -m)" = x86_64 ] && uq=""
got=$(vars guest.sh x86_64) || fail "guest.sh with AG_ARCH=x86_64 did not source"
want="x86_64|amd64|qemu-system-x86_64|-M pc -accel tcg|ttyS0|/usr/lib/x86_64-linux-gnu|/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2|/lib64/ld-linux-x86-64.so.2|$uq|$H/x86_64-guest"
[ "$got" = "$want" ] || fail "guest.sh x86_64: $got, not $want"

if vars guest.sh sparc > "$t/out" 2> "$t/err"; then fail "AG_ARCH=sparc was taken"; fi
[ "$(wc -l < "$t/err")" = 1 ] && grep -q "unknown guest architecture 'sparc'" "$t/err" ||
    fail "AG_ARCH=sparc: not one line naming it: $(cat "$t/err")"

printf 'not a busybox\n' > "$t/busybox"
for a in arm64:aarch64 x86_64:x86_64; do
    arch=${a%%:*} trip=${a#*:}
    AG_ARCH=$arch AG_BUSYBOX=$t/busybox bash -c '. "$1/scripts/lib/guest.sh" && ag_root_new "$2"' \
        _ "$src" "$t/root-$arch" || fail "ag_root_new ($arch)"
    grep -q "LD_LIBRARY_PATH=/usr/lib/$trip-linux-gnu HOME" "$t/root-$arch/init" ||
        fail "$arch /init: $(grep LD_LIBRARY_PATH "$t/root-$arch/init")"
    grep -q '@AG_' "$t/root-$arch/init" && fail "$arch /init keeps a placeholder"
    [ -d "$t/root-$arch/usr/lib/$trip-linux-gnu" ] || fail "$arch root: no /usr/lib/$trip-linux-gnu"
done

# A stand-in qemu: its arguments to a file, and an empty /out sent back as the /init sends it.
mkdir -p "$t/bin" "$t/empty"
tar -czf "$t/out.tgz" -C "$t/empty" . || fail "tar"
cat > "$t/bin/qemu-system-x86_64" <<EOF
#!/bin/sh
printf '%s\n' "\$@" > "$t/qargs"
echo "@@AG-OUT-BEGIN@@"
base64 "$t/out.tgz"
echo "@@AG-OUT-END@@ rc=3 sha256=$(sha256sum "$t/out.tgz" | cut -d' ' -f1)"
EOF
chmod 755 "$t/bin/qemu-system-x86_64"
: > "$t/initrd.gz"
PATH=$t/bin:$PATH AG_ARCH=x86_64 AG_KERNEL=$t/vmlinuz AG_TIMEOUT=20 bash -c \
    '. "$1/scripts/lib/guest.sh" && ag_boot "$2/initrd.gz" "$2/back" "$2/console.log" -cpu EPYC -- nokaslr' _ "$src" "$t"
st=$?
[ "$st" = 3 ] || fail "ag_boot: status $st, not the job's 3"
q=$(tr '\n' ' ' < "$t/qargs")
case $q in
    "-M pc -accel tcg -cpu max -smp 2 -m 1024 -nographic -no-reboot -monitor none -serial stdio -cpu EPYC -kernel $t/vmlinuz -initrd $t/initrd.gz -append console=ttyS0 quiet panic=-1 nokaslr ") ;;
    *) fail "ag_boot's qemu arguments: $q" ;;
esac
echo "test_guest_arch: arm64 and x86_64 variables, an unknown ISA refused, /init library paths and x86_64 qemu arguments as expected"
