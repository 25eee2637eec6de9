#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_grant_perfmon.sh - scripts/grant-perfmon.sh on this host, end to end:
# the group is created, the binary becomes root:GROUP 0750 with cap_perfmon
# (getcap), a member without any privilege of their own counts kernel work
# (scope user+kernel, and the one context switch per wakeup-mode call that
# only a kernel-inclusive count sees), a non-member cannot run the binary,
# a second grant changes nothing, --syslog adds cap_syslog (and with it the
# member's --profile names kernel functions), --revoke restores root:root 0755 without
# capabilities and the member is back to user-only counts; the opt-in
# install component does the same for an installed binary.  Attacks: a
# user's symbolic link to a root-only file (given, or found on PATH), a root
# symlink, a binary that is not muxprof (an ELF, a script holding the marker),
# a muxprof copy in a user's directory, under a directory writable by all,
# owned by a user, or with a second hard link: each refused with the file
# unchanged; --revoke restores the owner, mode and capabilities recorded at
# the grant, refuses without a record and on a binary replaced since.
# An existing group is refused when it is a system group (shadow, gid 0),
# owns a file under /etc, /usr or /var, or has a member not named with
# --user; with its member named, an ordinary group is granted and revoked.
# --revoke refuses a group other than the granted one, removes only a group
# the script created and no granted binary belongs to, and forgets what it
# restored (a grant after it records afresh); a binary its group or others
# can write, one carrying cap_perfmon with no record, and a path with a
# newline are refused.
#
#   test_grant_perfmon.sh MUXPROF GRANT_SCRIPT [BUILD_DIR]
#
# Runs as root: makes throw-away users and a group (removed on exit), sets
# kernel.perf_event_paranoid=2 for the test (restored on exit), and works on
# a copy of the binary in a temporary directory.  Exit 77 where it cannot
# run (not root, no setcap, a file system without xattrs, no runuser).
set -uo pipefail

bin_src=${1:?usage: test_grant_perfmon.sh MUXPROF GRANT_SCRIPT [BUILD_DIR]}
grant=${2:?usage: test_grant_perfmon.sh MUXPROF GRANT_SCRIPT [BUILD_DIR]}
build=${3:-}
skip() { echo "SKIP: $1"; exit 77; }
fails=0
check() { # check "what" command...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}

[ "$(id -u)" = 0 ] || skip "needs root (creates users and a group, sets capabilities)"
command -v runuser >/dev/null || skip "no runuser (util-linux)"
command -v useradd >/dev/null && command -v groupadd >/dev/null || skip "no useradd/groupadd"
command -v setcap >/dev/null || command -v apt-get >/dev/null ||
  skip "no setcap and no apt-get to install libcap2-bin"
[ -r /proc/sys/kernel/perf_event_paranoid ] || skip "no kernel.perf_event_paranoid (no perf events)"
last=$(cat /proc/sys/kernel/cap_last_cap 2>/dev/null || echo 0)
((last >= 38)) || skip "kernel without CAP_PERFMON (cap_last_cap $last)"

tag=$$
grp=mpperf$tag member=mpmem$tag outsider=mpout$tag
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mp-grant-XXXXXX")
export MUXPROF_GRANT_STATE=$tmp/state   # the grant records, in place of /var/lib/muxprof
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
cleanup() {
  echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid 2>/dev/null
  userdel "$member" 2>/dev/null
  userdel "$outsider" 2>/dev/null
  for g in "$grp" "mpga$tag" "mpgs$tag" "mpgo$tag" "mpgm$tag"; do
    getent group "$g" >/dev/null && groupdel "$g" 2>/dev/null
  done
  rm -f "/var/tmp/mp-grant-owned.$tag"
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

chmod 0755 "$tmp"
mkdir -p "$tmp/bin"
bin=$tmp/bin/muxprof
cp "$bin_src" "$bin"
chown root:root "$bin"
chmod 0755 "$bin"
if command -v setcap >/dev/null; then
  cp /bin/true "$tmp/probe"
  setcap cap_perfmon+ep "$tmp/probe" 2>/dev/null ||
    skip "$(df --output=fstype "$tmp" | tail -1) at $tmp keeps no security.capability xattr"
fi

useradd --system --no-create-home --shell /usr/sbin/nologin "$member" || skip "useradd failed"
useradd --system --no-create-home --shell /usr/sbin/nologin "$outsider" || skip "useradd failed"
echo 2 >/proc/sys/kernel/perf_event_paranoid || skip "cannot set kernel.perf_event_paranoid"
for u in "$member" "$outsider"; do install -d -o "$u" -m 0700 "$tmp/out-$u"; done

# runuser changes every uid, so no capability of root's is left at exec time
# (setpriv --reuid keeps CAP_DAC_OVERRIDE up to the exec, which would let the
# outsider in).
as() { local u=$1; shift; runuser -u "$u" -- "$@"; }
scope_of() { as "$1" "$bin" events --events software 2>&1 | sed -n 's/^  scope: \([^ ]*\) .*/\1/p'; }
# Median context switches per wakeup-mode poll() call, counted by muxprof as USER.
cs_of() {
  local out=$tmp/out-$1/run$2
  as "$1" "$bin" run --backends poll --fds 10 --mode wakeup --samples 20 --repeats 1 \
     --warmup 5 --events software --no-plots --quiet --out "$out" >/dev/null 2>&1 || return 1
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $col["mode"] == "wakeup" && $col["metric"] == "context-switches" { print $col["p50"] }' \
      "$out/results.csv"
}
# The status muxprof gave context-switches in USER's last cs_of run (an
# event it cannot count is "unavailable", never a 0).
cs_status_of() {
  grep -A12 '"name":[[:space:]]*"context-switches"' "$tmp/out-$1/run$2/results.json" |
    sed -n 's/.*"status":[[:space:]]*"\([a-z]*\)".*/\1/p' | head -1
}
# How the member's --profile run could name kernel functions ("kallsyms" or "hidden").
symbols_of() {
  local out=$tmp/out-$1/prof$2
  as "$1" "$bin" run --backends poll --fds 100 --mode ready --samples 50 --repeats 1 \
     --warmup 5 --events software --profile --no-plots --quiet --out "$out" >/dev/null 2>&1 ||
    return 1
  sed -n 's/.*"symbols":[[:space:]]*"\([a-z]*\).*/\1/p' "$out/results.json" | head -1
}
mode_of() { stat -c '%U:%G %a' "$bin"; }
caps_of() { getcap "$bin"; }
equals() { [ "$1" = "$2" ] || { echo "     got '$1', want '$2'"; return 1; }; }
member_of() { id -nG "$1" | tr ' ' '\n' | grep -qx "$grp"; }

echo "== before: $member has no privilege of its own"
check "scope user-only before the grant" equals "$(scope_of "$member")" user
check "no context switch counted without kernel scope" equals "$(cs_of "$member" 0)" ""
check "context-switches unavailable (not 0) without kernel scope" \
  equals "$(cs_status_of "$member" 0)" unavailable

echo "== grant"
check "grant exits 0" "$grant" "$grp" --binary "$bin" --user "$member"
check "group $grp created" getent group "$grp"
check "$member is in $grp" member_of "$member"
check "binary root:$grp 0750" equals "$(mode_of)" "root:$grp 750"
check "getcap shows cap_perfmon=ep" equals "$(caps_of)" "$bin cap_perfmon=ep"
check "second grant exits 0 (idempotent)" "$grant" "$grp" --binary "$bin" --user "$member"
check "same mode after the second grant" equals "$(mode_of)" "root:$grp 750"
check "same capabilities after the second grant" equals "$(caps_of)" "$bin cap_perfmon=ep"
check "grant --syslog exits 0" "$grant" "$grp" --binary "$bin" --syslog
check "--syslog adds cap_syslog" equals "$(caps_of)" "$bin cap_syslog,cap_perfmon=ep"
kptr=$(cat /proc/sys/kernel/kptr_restrict 2>/dev/null || echo 2)
if ((kptr < 2)); then   # 2 hides kernel addresses from everyone
  check "member with cap_syslog: kernel symbols named" equals "$(symbols_of "$member" 1)" kallsyms
fi
check "grant without --syslog takes it away" "$grant" "$grp" --binary "$bin"
check "cap_perfmon only again" equals "$(caps_of)" "$bin cap_perfmon=ep"
((kptr < 2)) &&
  check "member without cap_syslog: symbols hidden" equals "$(symbols_of "$member" 2)" hidden

echo "== member counts kernel work; outsider cannot run it"
check "member: scope user+kernel" equals "$(scope_of "$member")" user+kernel
check "member: one context switch per wakeup call" equals "$(cs_of "$member" 1)" 1
as "$member" "$bin" doctor >"$tmp/doctor.txt" 2>&1
check "member: doctor reports the grouped setup" \
  grep -q 'OK  \] privilege setup      grouped' "$tmp/doctor.txt"
check "member: may run the binary" as "$member" "$bin" --version
as "$outsider" "$bin" --version >"$tmp/outsider.txt" 2>&1
check "outsider: exec refused" test $? -ne 0
check "outsider: permission denied" grep -qi "permission denied" "$tmp/outsider.txt"

echo "== revoke"
check "revoke exits 0" "$grant" "$grp" --binary "$bin" --revoke
check "binary root:root 0755" equals "$(mode_of)" "root:root 755"
check "no capabilities" equals "$(caps_of)" ""
check "group kept while $member is in it" getent group "$grp"
check "member: user-only again" equals "$(scope_of "$member")" user
userdel "$member"
check "second revoke exits 0 (idempotent)" "$grant" "$grp" --binary "$bin" --revoke
check "group removed once empty" bash -c "! getent group $grp"

echo "== bad input"
"$grant" >/dev/null 2>&1; check "no group: exit 2" equals "$?" 2
"$grant" 'Bad Group' >/dev/null 2>&1; check "bad group name: exit 2" equals "$?" 2
"$grant" "$grp" --binary "$tmp/absent" >/dev/null 2>&1; check "missing binary: exit 1" equals "$?" 1

echo "== attacks: only a muxprof binary of root's, in directories only root can write"
# refused FILE WHY ARGS...: the grant (or revoke) of ARGS exits 1 saying WHY,
# and FILE keeps its owner, group, mode and (no) capabilities; the script's
# PATH is $refused_path when that is set.
refused() {
  local file=$1 why=$2 before; shift 2
  before="$(stat -c '%U:%G %a' "$file") $(getcap "$file")"
  PATH=${refused_path:-$PATH} "$grant" "$@" >"$tmp/refused.txt" 2>&1
  local rc=$?
  equals "$rc" 1 || return 1
  grep -q -- "$why" "$tmp/refused.txt" || { echo "     said: $(cat "$tmp/refused.txt")"; return 1; }
  equals "$(stat -c '%U:%G %a' "$file") $(getcap "$file")" "$before"
}
fresh() { cp "$bin_src" "$1" && chown root:root "$1" && chmod 0755 "$1"; }
secret=$tmp/secret
printf 'for root only\n' >"$secret"; chown root:root "$secret"; chmod 0600 "$secret"
ubin=$tmp/home-$outsider/bin
install -d -o "$outsider" -m 0755 "$tmp/home-$outsider" "$ubin"
as "$outsider" ln -s "$secret" "$ubin/muxprof"
check "a user's symlink to a root-only file: refused, file unchanged" \
  refused "$secret" "symbolic link" "$grp" --binary "$ubin/muxprof"
refused_path=$ubin:$PATH check "the same symlink found on PATH: refused" \
  refused "$secret" "symbolic link" "$grp"
check "--revoke through the symlink: refused, file unchanged" \
  refused "$secret" "symbolic link" "$grp" --binary "$ubin/muxprof" --revoke
fresh "$tmp/bin/mp-target"; ln -s "$tmp/bin/mp-target" "$tmp/bin/mp-link"
check "root's own symlink to a muxprof: refused" \
  refused "$tmp/bin/mp-target" "symbolic link" "$grp" --binary "$tmp/bin/mp-link"
cp /bin/true "$tmp/bin/other"; chown root:root "$tmp/bin/other"; chmod 0755 "$tmp/bin/other"
check "an ELF that is not muxprof: refused, unchanged" \
  refused "$tmp/bin/other" "not a muxprof binary" "$grp" --binary "$tmp/bin/other"
printf '#!/bin/sh\n# muxprof-grantable-binary/1\n' >"$tmp/bin/script"
chown root:root "$tmp/bin/script"; chmod 0755 "$tmp/bin/script"
check "a script holding the marker (no ELF header): refused" \
  refused "$tmp/bin/script" "not a muxprof binary" "$grp" --binary "$tmp/bin/script"
fresh "$ubin/mp-copy"
check "a root-owned muxprof in a user's directory: refused, unchanged" \
  refused "$ubin/mp-copy" "where others than root can write" "$grp" --binary "$ubin/mp-copy"
mkdir -p "$tmp/open/sub"; chmod 0777 "$tmp/open"; chmod 0755 "$tmp/open/sub"
fresh "$tmp/open/sub/muxprof"
check "a muxprof below a directory writable by all (not sticky): refused" \
  refused "$tmp/open/sub/muxprof" "writable by its group or by others" "$grp" \
  --binary "$tmp/open/sub/muxprof"
fresh "$tmp/bin/mp-user"; chown "$outsider" "$tmp/bin/mp-user"
check "a muxprof owned by a user: refused" \
  refused "$tmp/bin/mp-user" "not root" "$grp" --binary "$tmp/bin/mp-user"
fresh "$tmp/bin/mp-hard"; ln "$tmp/bin/mp-hard" "$tmp/bin/mp-hard2"
check "a muxprof with a second hard link: refused" \
  refused "$tmp/bin/mp-hard" "hard links" "$grp" --binary "$tmp/bin/mp-hard"

echo "== attacks: only a group that grants nothing else, with only the members named"
sbin=$tmp/bin/mp-sys
fresh "$sbin"
if getent group shadow >/dev/null; then
  check "the shadow group (a system group) with --user: refused, binary unchanged" \
    refused "$sbin" "is a system group" shadow --binary "$sbin" --user "$outsider"
  check "and $outsider was not added to shadow" bash -c "! id -nG $outsider | tr ' ' '\n' | grep -qx shadow"
fi
check "a system group made by hand: refused" \
  refused "$sbin" "is a system group" "$(getent group 0 | cut -d: -f1)" --binary "$sbin" --user "$outsider"
go=mpgo$tag gm=mpgm$tag
groupadd "$go"
touch "/var/tmp/mp-grant-owned.$tag"; chgrp "$go" "/var/tmp/mp-grant-owned.$tag"
check "a user group that owns a file under /var: refused" \
  refused "$sbin" "owns /var/tmp/mp-grant-owned.$tag" "$go" --binary "$sbin" --user "$outsider"
check "and $outsider was not added to it" bash -c "! id -nG $outsider | tr ' ' '\n' | grep -qx $go"
groupadd "$gm"; usermod -aG "$gm" "$outsider"
check "a user group with a member not named with --user: refused" \
  refused "$sbin" "did not name with --user ($outsider)" "$gm" --binary "$sbin"
check "the same group with its member named: granted" "$grant" "$gm" --binary "$sbin" --user "$outsider"
check "granted: root:$gm 750" equals "$(stat -c '%U:%G %a' "$sbin")" "root:$gm 750"
check "a second grant to it" \
  "$grant" "$gm" --binary "$sbin" --user "$outsider"
check "revoke of it" "$grant" "$gm" --binary "$sbin" --revoke
check "revoked: root:root 755" equals "$(stat -c '%U:%G %a' "$sbin")" "root:root 755"
check "the group that existed before is kept" getent group "$gm"

echo "== revoke restores what the grant recorded"
rbin=$tmp/bin/mp-rec
fresh "$rbin"; chmod 0711 "$rbin"; setcap cap_net_bind_service=ep "$rbin"
check "grant of a 0711 binary with cap_net_bind_service" "$grant" "$grp" --binary "$rbin"
check "granted: root:$grp 750" equals "$(stat -c '%U:%G %a' "$rbin")" "root:$grp 750"
check "second grant keeps the first record" "$grant" "$grp" --binary "$rbin"
check "revoke exits 0" "$grant" "$grp" --binary "$rbin" --revoke
check "revoked: root:root 711 as recorded" equals "$(stat -c '%U:%G %a' "$rbin")" "root:root 711"
check "revoked: cap_net_bind_service=ep as recorded" equals "$(getcap "$rbin")" \
  "$rbin cap_net_bind_service=ep"
fresh "$tmp/bin/mp-norec"; chmod 0750 "$tmp/bin/mp-norec"
check "revoke without a record: refused, unchanged" \
  refused "$tmp/bin/mp-norec" "no record" "$grp" --binary "$tmp/bin/mp-norec" --revoke
"$grant" "$grp" --binary "$rbin" >/dev/null
fresh "$rbin.new"; mv -f "$rbin.new" "$rbin"
check "revoke of a binary replaced since the grant: refused" \
  refused "$rbin" "replaced" "$grp" --binary "$rbin" --revoke
ls -ld "$MUXPROF_GRANT_STATE" "$MUXPROF_GRANT_STATE"/* | sed 's/^/     /'
check "records: a root-only directory" equals "$(stat -c '%U %a' "$MUXPROF_GRANT_STATE")" "root 700"
chmod 0755 "$MUXPROF_GRANT_STATE"; chown "$outsider" "$MUXPROF_GRANT_STATE"
check "records in a user's directory: refused" \
  refused "$rbin" "not root's alone" "$grp" --binary "$rbin" --revoke
chown root "$MUXPROF_GRANT_STATE"; chmod 0700 "$MUXPROF_GRANT_STATE"

echo "== revoke: only the granted group, and only a group the script created"
g1=mpga$tag g2=mpgs$tag
gbin=$tmp/bin/mp-grp gbin2=$tmp/bin/mp-grp2
fresh "$gbin"; fresh "$gbin2"
"$grant" "$g1" --binary "$gbin" >/dev/null 2>&1
groupadd "$g2"
check "revoke naming another group: refused, binary unchanged" \
  refused "$gbin" "granted to group $g1" "$g2" --binary "$gbin" --revoke
check "the group named by mistake is not removed" getent group "$g2"
check "grant to another group while granted: refused" \
  refused "$gbin" "granted to group $g1" "$g2" --binary "$gbin"
"$grant" "$g1" --binary "$gbin2" >/dev/null 2>&1
check "revoke of one of two binaries granted to a group" "$grant" "$g1" --binary "$gbin" --revoke
check "group kept while another granted binary belongs to it" getent group "$g1"
check "revoke of the other one" "$grant" "$g1" --binary "$gbin2" --revoke
check "the group the script created is removed with its last binary" bash -c "! getent group $g1"
"$grant" "$g2" --binary "$gbin" >/dev/null 2>&1
check "revoke of a grant to a group that existed before" "$grant" "$g2" --binary "$gbin" --revoke
check "a group the script did not create is kept" getent group "$g2"
check "and the binary is restored" equals "$(stat -c '%U:%G %a' "$gbin") $(getcap "$gbin")" "root:root 755 "
groupdel "$g2"
fresh "$gbin"
"$grant" "$g1" --binary "$gbin" --user "$outsider" >/dev/null 2>&1
"$grant" "$g1" --binary "$gbin" --revoke >/dev/null 2>&1   # kept: $outsider is in it
gid=$(getent group "$g1" | cut -d: -f3) new=$((gid - 1))
while getent group "$new" >/dev/null; do new=$((new - 1)); done
groupdel "$g1" && groupadd --system -g "$new" "$g1"
check "a revoke after the group was made again by hand" \
  "$grant" "$g1" --binary "$gbin" --revoke --user "$outsider"
check "a group of that name made by hand (another gid) is kept" getent group "$g1"
groupdel "$g1"

echo "== a revoke forgets the state it restored"
fresh "$gbin"
"$grant" "$g1" --binary "$gbin" >/dev/null 2>&1
"$grant" "$g1" --binary "$gbin" --revoke >/dev/null 2>&1
chmod 0700 "$gbin"; setcap cap_net_raw=p "$gbin"
check "grant after a revoke and a change by hand" "$grant" "$g1" --binary "$gbin"
check "revoke after it" "$grant" "$g1" --binary "$gbin" --revoke
check "restored as it was at the second grant: 0700, cap_net_raw=p" \
  equals "$(stat -c '%U:%G %a' "$gbin") $(getcap "$gbin")" "root:root 700 $gbin cap_net_raw=p"
getent group "$g1" >/dev/null && groupdel "$g1"

echo "== refused: a binary others can write, one granted already without a record, a path with a newline"
fresh "$gbin"; chmod 0775 "$gbin"
check "a binary its group can write: refused, unchanged" \
  refused "$gbin" "writable by its group or by others" "$g1" --binary "$gbin"
fresh "$gbin"; chmod 0757 "$gbin"
check "a binary others can write: refused, unchanged" \
  refused "$gbin" "writable by its group or by others" "$g1" --binary "$gbin"
fresh "$gbin"; chmod 0750 "$gbin"; setcap cap_perfmon=ep "$gbin"
check "a binary with cap_perfmon and no record: refused, unchanged" \
  refused "$gbin" "carries cap_perfmon already" "$g1" --binary "$gbin"
check "no record written for it" \
  bash -c "! grep -rqsF -- 'path $gbin' '$MUXPROF_GRANT_STATE'"
check "no group created for it" bash -c "! getent group $g1"
nl=$tmp/bin/'mp
nl'
fresh "$nl"
"$grant" "$g1" --binary "$nl" >"$tmp/refused.txt" 2>&1
check "a path with a newline: exit 2" equals "$?" 2
check "a path with a newline: said so" grep -q "control character" "$tmp/refused.txt"
check "a path with a newline: unchanged" equals "$(stat -c '%U:%G %a' "$nl") $(getcap "$nl")" "root:root 755 "
check "a path with a newline: no group created" bash -c "! getent group $g1"
getent group "$g1" >/dev/null && groupdel "$g1"

if [ -n "$build" ] && command -v cmake >/dev/null; then
  echo "== install: plain install sets nothing; the perfmon component grants"
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >/dev/null
  ibin=$prefix/bin/muxprof
  check "installed binary without capabilities" equals "$(getcap "$ibin")" ""
  check "installed binary 0755" equals "$(stat -c %a "$ibin")" 755
  check "component perfmon" env MUXPROF_PERF_GROUP="$grp" \
    cmake --install "$build" --prefix "$prefix" --component perfmon
  check "component: root:$grp 0750" equals "$(stat -c '%U:%G %a' "$ibin")" "root:$grp 750"
  check "component: cap_perfmon=ep" equals "$(getcap "$ibin")" "$ibin cap_perfmon=ep"
  check "installed script revokes" "$prefix/libexec/muxprof/grant-perfmon.sh" "$grp" \
    --binary "$ibin" --revoke
  check "revoked: no capabilities" equals "$(getcap "$ibin")" ""
fi

if ((fails)); then echo "$fails check(s) failed"; exit 1; fi
echo "all checks passed"
