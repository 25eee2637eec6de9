#!/bin/sh
# SPDX-License-Identifier: MIT
# test_guest_setup.sh SRC - the arm64 guest's set-up without booting
# (scripts/lib/arm64-guest.sh, used by scripts/muxsim.sh, arm64-vm.sh and
# arm64-validate.sh): ag_root_new writes an /init that sources
# /etc/guest-setup.sh before the job; that file, run on a tree of plain files
# standing for /proc and /sys (AG_SYSROOT) with a stand-in `ip`, brings the
# loopback up, sets the local port range to 1024-65535 (room for 50,000 TCP
# connections from one source address), somaxconn, fs.nr_open, fs.file-max and the
# epoll watches, reads each back, tries RLIMIT_NOFILE 4,194,304, and names a
# setting that did not take.
set -u
src=$1
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v bash >/dev/null || { echo "SKIP: no bash (the guest scripts are bash)"; exit 77; }
printf 'not a busybox\n' > "$t/busybox"
AG_BUSYBOX=$t/busybox bash -c '. "$1/scripts/lib/arm64-guest.sh" && ag_root_new "$2"' _ "$src" "$t/root" ||
    fail "ag_root_new"
init=$t/root/init setup=$t/root/etc/guest-setup.sh
[ -s "$setup" ] || fail "no /etc/guest-setup.sh in the root"
# sourced by /init itself (so the job inherits RLIMIT_NOFILE), before the job
grep -n '^\. /etc/guest-setup.sh' "$init" > "$t/at" || fail "/init does not source /etc/guest-setup.sh"
job=$(grep -n 'sh /job.sh' "$init" | cut -d: -f1)
[ -n "$job" ] && [ "$(cut -d: -f1 "$t/at")" -lt "$job" ] || fail "/init runs the job before the set-up"

# a /proc and /sys of plain files, as a fresh kernel has them; `ip` sets lo's IFF_UP
sys=$t/sys
mkdir -p "$sys/proc/sys/net/ipv4" "$sys/proc/sys/net/core" "$sys/proc/sys/fs/epoll" \
         "$sys/sys/class/net/lo" "$t/bin"
printf '32768\t60999\n' > "$sys/proc/sys/net/ipv4/ip_local_port_range"
echo 4096 > "$sys/proc/sys/net/core/somaxconn"
echo 1048576 > "$sys/proc/sys/fs/nr_open"
echo 52000 > "$sys/proc/sys/fs/file-max"
echo 100000 > "$sys/proc/sys/fs/epoll/max_user_watches"
echo 0x8 > "$sys/sys/class/net/lo/flags"
cat > "$t/bin/ip" <<'IP'
#!/bin/sh
echo "ip $*" >> "$AG_SYSROOT/ip.log"
[ "$*" = "link set lo up" ] && echo 0x9 > "$AG_SYSROOT/sys/class/net/lo/flags"
IP
chmod +x "$t/bin/ip"
run() { AG_SYSROOT=$sys PATH=$t/bin:$PATH sh -c '. "$1"' _ "$setup" > "$t/out" 2>&1; }
run || fail "guest-setup.sh exited $?: $(cat "$t/out")"
grep -qx "ip link set lo up" "$sys/ip.log" || fail "lo not brought up: $(cat "$sys/ip.log" 2>&1)"
for want in "lo up" "net.ipv4.ip_local_port_range = 1024 65535" "net.core.somaxconn = 65535" \
            "fs.nr_open = 4194304" "fs.file-max = 8388608" "fs.epoll.max_user_watches = 4194304"; do
    grep -qxF "guest-setup: $want" "$t/out" || fail "no 'guest-setup: $want' in: $(cat "$t/out")"
done
read -r lo hi < "$sys/proc/sys/net/ipv4/ip_local_port_range"
[ $(( hi - lo + 1 )) -ge 50001 ] || fail "port range $lo-$hi: fewer than 50,000 connections"
# the descriptor limit is tried at 4,194,304 (this host's nr_open may refuse it)
grep -qE "^guest-setup: (RLIMIT_NOFILE = 4194304|could not raise RLIMIT_NOFILE to 4194304 )" "$t/out" ||
    fail "RLIMIT_NOFILE: $(cat "$t/out")"

# a setting that does not take, and a loopback that stays down, are named
echo 0x8 > "$sys/sys/class/net/lo/flags"
printf '#!/bin/sh\nexit 1\n' > "$t/bin/ip" && printf '#!/bin/sh\nexit 1\n' > "$t/bin/ifconfig"
chmod +x "$t/bin/ip" "$t/bin/ifconfig"
rm "$sys/proc/sys/net/core/somaxconn" && mkdir "$sys/proc/sys/net/core/somaxconn"
run
grep -qF "guest-setup: could not bring the loopback interface up (flags 0x8)" "$t/out" &&
    grep -qF "guest-setup: could not set net.core.somaxconn to 65535" "$t/out" &&
    grep -qxF "guest-setup: not all of the settings above took" "$t/out" ||
    fail "failures not named: $(cat "$t/out")"
echo ok
