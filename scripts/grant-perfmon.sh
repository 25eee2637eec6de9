#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# grant-perfmon.sh - let the members of one group count kernel work with
# muxprof, as the kernel's perf-security guide advises
# (Documentation/admin-guide/perf-security.rst): the binary becomes
# root:GROUP mode 0750 with cap_perfmon (and cap_syslog with --syslog) in its
# file capabilities, so only members of GROUP can run it at all.  Idempotent;
# --revoke undoes it (the owner, group, mode and capabilities recorded at the
# first grant are restored; the group is removed once it has no members, and
# only when this script created it and no granted binary is still in it).
#
#   scripts/grant-perfmon.sh GROUP [--binary PATH] [--user USER]... [--syslog]
#   scripts/grant-perfmon.sh GROUP --revoke [--binary PATH] [--user USER]...
#
# The binary must be a muxprof binary (an ELF file holding muxprof's marker
# string; it is never run), not a symbolic link, owned by root, with one hard
# link, writable by root alone, neither setuid nor setgid, at a path without
# control characters, in a directory that only root can write (and so every
# directory above it).  What it was before the grant is recorded in
# /var/lib/muxprof/grants/ (MUXPROF_GRANT_STATE overrides; it must be
# root's alone as well); --revoke refuses without a record.
#
# GROUP is best a new name: the script creates it.  An existing group it did
# not create is refused when it is a system group (a gid outside the user
# range of /etc/adduser.conf FIRST_GID..LAST_GID and /etc/login.defs
# GID_MIN..GID_MAX, 1000..60000 by default: shadow, disk, adm), owns a file
# under /etc, /usr or /var (other than binaries granted to it), or has a
# member not named with --user.
#
# Run as root.  Installs libcap2-bin (setcap, getcap) when it is missing.
# Exit status: 0 done, 1 cannot be done here, 2 usage error.
set -euo pipefail

me=grant-perfmon.sh
usage() {
  sed -n '2,/^# Exit status/s/^# \{0,1\}//p' "$0"
}
die() { echo "$me: $1" >&2; exit "${2:-1}"; }

group="" binary="" revoke=0 syslog=0 users=()
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --revoke) revoke=1 ;;
    --syslog) syslog=1 ;;
    --binary) (($# > 1)) || die "--binary needs a path" 2; binary=$2; shift ;;
    --binary=*) binary=${1#--binary=} ;;
    --user) (($# > 1)) || die "--user needs a user name" 2; users+=("$2"); shift ;;
    --user=*) users+=("${1#--user=}") ;;
    -*) die "unknown option '$1' (see $me --help)" 2 ;;
    *) [ -z "$group" ] || die "one group only ('$group' and '$1')" 2; group=$1 ;;
  esac
  shift
done
[ -n "$group" ] || die "which group? usage: $me GROUP [--binary PATH] [--user USER]... [--revoke]" 2
[[ "$group" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] ||
  die "'$group' is not a valid group name (lower case, digits, _ and -, at most 32)" 2
[ "$(id -u)" = 0 ] || die "needs root (group, owner and capabilities change): sudo $0 $*"

marker=muxprof-grantable-binary/1
state_dir=${MUXPROF_GRANT_STATE:-/var/lib/muxprof/grants}

# root_only DIR: DIR (a path without symbolic links) and every directory
# above it are owned by root and writable by no one else; a sticky one of
# root's (/tmp) may be writable by all, since only root may move root's
# entries in it.  Else 1 with the reason in $why.
root_only() {
  local d=$1 st
  while :; do
    st=$(stat -c '%u %a' -- "$d") || { why="cannot stat $d"; return 1; }
    if [ "${st% *}" != 0 ]; then why="$d is owned by uid ${st% *}, not root"; return 1; fi
    if (((8#${st#* } & 8#022) && !(8#${st#* } & 8#1000))); then
      why="$d (mode ${st#* }) is writable by its group or by others"; return 1
    fi
    [ "$d" = / ] && return 0
    d=$(dirname -- "$d")
  done
}

# The binary as given, checked, made absolute in $binary.  A symbolic link
# is refused, never followed: whoever owns it chooses what it points to.
check_binary() {
  if [ -z "$binary" ]; then
    binary=$(command -v muxprof) || die "no muxprof on PATH: give the installed binary with --binary PATH"
  fi
  [[ "$binary" == *[[:cntrl:]]* ]] && die "the binary's path holds a control character (a newline?): give a plain path" 2
  [ -L "$binary" ] && die "$binary is a symbolic link (to $(readlink -- "$binary")): give the muxprof binary itself with --binary PATH"
  [ -e "$binary" ] || die "$binary: no such file"
  [ -f "$binary" ] || die "$binary is not a regular file"
  local dir st
  dir=$(cd -P -- "$(dirname -- "$binary")" && pwd) || die "cannot enter the directory of $binary"
  binary=${dir%/}/$(basename -- "$binary")
  [[ "$binary" == *[[:cntrl:]]* ]] && die "the binary's directory $(printf '%q' "$dir") holds a control character: give a plain path" 2
  st=$(stat -c '%u %h %a' -- "$binary") || die "cannot stat $binary"
  local mode=${st##* }; st=${st% *}
  [ "${st% *}" = 0 ] || die "$binary is owned by uid ${st% *}, not root: install it as root (cmake --install) and give that copy"
  [ "${st#* }" = 1 ] || die "$binary has ${st#* } hard links: a mode or capability set on it would apply to all of them; give a copy of its own"
  root_only "$dir" || die "$binary lies where others than root can write ($why): install it in a directory only root can write, such as /usr/local/bin"
  if [ "$(head -c 4 -- "$binary" | od -An -tx1 | tr -d ' \n')" != 7f454c46 ] ||
     ! grep -qaF -- "$marker" "$binary"; then
    die "$binary is not a muxprof binary (no ELF header or no muxprof marker): give the muxprof that cmake --install installed"
  fi
  if [ -u "$binary" ] || [ -g "$binary" ]; then
    die "$binary is setuid/setgid: remove that first (chmod ug-s)"
  fi
  if ((8#$mode & 8#022)); then
    die "$binary (mode $mode) is writable by its group or by others, who could replace what it runs: chmod go-w $binary first"
  fi
}
check_binary

if ! command -v setcap >/dev/null || ! command -v getcap >/dev/null; then
  command -v apt-get >/dev/null || die "setcap/getcap missing: install libcap2-bin (or your distribution's libcap tools)"
  echo "$me: installing libcap2-bin (setcap, getcap)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcap2-bin >/dev/null
fi

# The record of the binary's state before the first grant: one file per
# binary path in $state_dir, lines "KEY VALUE" (path, file = device:inode,
# owner, group, mode, caps as they were; grant = the group granted; state =
# granted, or revoked for a record kept until its group can be removed).  A
# record without grant/state lines reads as granted to an unknown group.
# A group this script created is marked by the file
# $state_dir/made-group.GROUP holding its gid; no other group is ever
# removed (nor one of that name made again by hand: another gid).  Read
# back strictly, never sourced.
record=$state_dir/$(printf '%s' "$binary" | sha256sum | cut -c1-32)
made_mark=$state_dir/made-group.$group
file_id() { stat -c '%d:%i' -- "$binary"; }
caps_now() {
  local c
  c=$(getcap "$binary")
  c=${c#"$binary"}; c=${c# }; c=${c#= }
  printf '%s' "$c"
}
check_state_dir() {
  local real
  [ -L "$state_dir" ] && die "the grant records' directory $state_dir is a symbolic link: give a directory"
  real=$(cd -P -- "$state_dir" && pwd) || die "cannot enter $state_dir"
  root_only "$real" || die "the grant records' directory $state_dir is not root's alone ($why)"
}
# write_record FILE OWNER GROUP MODE CAPS GRANT STATE
write_record() {
  local tmp
  (umask 077 && mkdir -p -- "$state_dir") || die "cannot create $state_dir"
  check_state_dir
  tmp=$(umask 077 && mktemp "$state_dir/.record.XXXXXX") || die "cannot write in $state_dir"
  printf 'path %s\nfile %s\nowner %s\ngroup %s\nmode %s\ncaps %s\ngrant %s\nstate %s\n' \
    "$binary" "$@" >"$tmp" && mv -f -- "$tmp" "$record" ||
    { rm -f -- "$tmp"; die "cannot write $record"; }
}
# rec_* from the record; 1 when it is missing or malformed.
read_record() {
  local k v
  rec_path="" rec_file="" rec_owner="" rec_group="" rec_mode="" rec_caps=""
  rec_grant="" rec_state=granted
  [ -f "$record" ] && [ ! -L "$record" ] || return 1
  while IFS=' ' read -r k v; do
    case "$k" in
      path) rec_path=$v ;; file) rec_file=$v ;; owner) rec_owner=$v ;;
      group) rec_group=$v ;; mode) rec_mode=$v ;; caps) rec_caps=$v ;;
      grant) rec_grant=$v ;; state) rec_state=$v ;;
      *) return 1 ;;
    esac
  done <"$record"
  [ "$rec_path" = "$binary" ] && [[ "$rec_file" =~ ^[0-9]+:[0-9]+$ ]] &&
    [[ "$rec_owner" =~ ^[0-9]+$ ]] && [[ "$rec_group" =~ ^[0-9]+$ ]] &&
    [[ "$rec_mode" =~ ^[0-7]{3,4}$ ]] && [[ "$rec_caps" =~ ^[a-z0-9_,=+\ -]*$ ]] &&
    [[ "$rec_grant" =~ ^([a-z_][a-z0-9_-]{0,31})?$ ]] &&
    [[ "$rec_state" =~ ^(granted|revoked)$ ]]
}
# group_in_use: 0 when a file that a record names (this one's included)
# belongs to $group now, or another record is a grant to $group not revoked;
# the reason in $why.
group_in_use() {
  local gid f p g st
  gid=$(getent group "$group" | cut -d: -f3)
  for f in "$state_dir"/*; do
    [ -f "$f" ] && [ ! -L "$f" ] && [[ "$f" != */made-group.* ]] || continue
    p=$(sed -n 's/^path //p' -- "$f" | head -1)
    g=$(sed -n 's/^grant //p' -- "$f" | head -1)
    st=$(sed -n 's/^state //p' -- "$f" | head -1)
    if [ -n "$p" ] && [ "$(stat -c %g -- "$p" 2>/dev/null)" = "$gid" ]; then
      why="$p belongs to it"; return 0
    fi
    if [ "$f" != "$record" ] && [ "$g" = "$group" ] && [ "$st" != revoked ]; then
      why="${p:-a binary} is granted to it"; return 0
    fi
  done
  return 1
}

members() { getent group "$group" | cut -d: -f4; }
primary_users() {
  local gid
  gid=$(getent group "$group" | cut -d: -f3)
  getent passwd | awk -F: -v g="$gid" '$4 == g { printf "%s%s", s, $1; s = "," }'
}

if [ -e "$state_dir" ] || [ -L "$state_dir" ]; then check_state_dir; fi

if ((revoke)); then
  read_record || die "no record of a grant of $binary in $state_dir (or a malformed one): nothing to restore; set its owner, mode and capabilities by hand"
  if [ -n "$rec_grant" ] && [ "$rec_grant" != "$group" ]; then
    die "$binary was granted to group $rec_grant, not $group: revoke with $me $rec_grant --revoke --binary $binary"
  fi
  if [ "$rec_state" = granted ]; then
    [ "$rec_file" = "$(file_id)" ] ||
      die "$binary is not the file that was granted (device:inode $(file_id), recorded $rec_file): it was replaced since; nothing restored"
    if [ -n "$(caps_now)" ]; then setcap -r "$binary"; fi
    chown "$rec_owner:$rec_group" "$binary"
    chmod "$rec_mode" "$binary"
    if [ -n "$rec_caps" ]; then setcap "$rec_caps" "$binary"; fi
    echo "$me: $binary: restored as recorded at the grant: $(stat -c '%U:%G %a' -- "$binary"), capabilities ${rec_caps:-none}"
  else
    echo "$me: $binary: restored already (an earlier --revoke); only the group is left to tidy"
  fi
  made=0
  if [ -f "$made_mark" ] && [ ! -L "$made_mark" ] &&
     [ "$(head -c 32 -- "$made_mark")" = "$(getent group "$group" | cut -d: -f3)" ]; then
    made=1
  fi
  if getent group "$group" >/dev/null; then
    for u in "${users[@]}"; do
      if id -nG "$u" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        gpasswd -d "$u" "$group" >/dev/null
        echo "$me: removed $u from $group"
      fi
    done
    left=$(members)
    prim=$(primary_users)
    if ((!made)); then
      echo "$me: group $group kept: this script did not create it (groupdel $group to remove it)"
    elif group_in_use; then
      echo "$me: group $group kept: $why"
    elif [ -z "$left" ] && [ -z "$prim" ]; then
      groupdel "$group"
      rm -f -- "$made_mark"
      echo "$me: group $group removed (no members left)"
    else
      echo "$me: group $group kept: members ${left}${left:+${prim:+,}}${prim} (groupdel $group to remove it)"
    fi
  fi
  # The record stays (as revoked) only while a group this script created is
  # left to remove, so that a later --revoke can remove it.
  if ((made)) && getent group "$group" >/dev/null; then
    write_record "$rec_file" "$rec_owner" "$rec_group" "$rec_mode" "$rec_caps" "$group" revoked
  else
    rm -f -- "$record" "$made_mark"
  fi
  exit 0
fi

# CAP_PERFMON is capability 38, from Linux 5.8; without it only CAP_SYS_ADMIN
# would do, which grants far more than counting: refuse rather than widen.
last=$(cat /proc/sys/kernel/cap_last_cap 2>/dev/null || echo 0)
((last >= 38)) || die "this kernel has no CAP_PERFMON (cap_last_cap $last < 38, Linux < 5.8): use sysctl -w kernel.perf_event_paranoid=1 on a single-user host instead"

for u in "${users[@]}"; do
  id "$u" >/dev/null 2>&1 || die "no such user '$u'"
done

# What the binary was, recorded once: a later grant keeps that record; a
# binary replaced since (another inode), or restored by a --revoke since, is
# recorded afresh.  A binary that carries cap_perfmon already, with no
# record, is in a granted state that no record describes (set by hand, or
# by a grant that kept no record): recording that would make --revoke
# restore the capability.
fresh=1
if read_record && [ "$rec_file" = "$(file_id)" ] && [ "$rec_state" = granted ]; then
  fresh=0
  if [ -n "$rec_grant" ] && [ "$rec_grant" != "$group" ]; then
    die "$binary is granted to group $rec_grant: revoke that first ($me $rec_grant --revoke --binary $binary)"
  fi
else
  if [[ "$(caps_now)" == *cap_perfmon* ]]; then
    die "$binary carries cap_perfmon already and has no record of what it was: reset it first (chown root:root $binary; chmod 755 $binary; setcap -r $binary), then grant"
  fi
  rec_file=$(file_id)
  read -r rec_owner rec_group rec_mode < <(stat -c '%u %g %a' -- "$binary")
  rec_caps=$(caps_now)
fi
# An existing group other than one this script created is granted only when
# it is an ordinary user group that grants nothing else and whose members are
# all named with --user: not a system group (gid outside the distribution's
# user range), owning no file under /etc, /usr or /var (but binaries granted
# to it), with no member the caller did not name.  A group such as shadow
# or disk would give the binary's users what the group reads.
conf_num() { # conf_num FILE KEY: the number KEY is set to in FILE (KEY=N or KEY N)
  [ -f "$1" ] && sed -n "s/^[[:space:]]*$2[[:space:]=][[:space:]=]*\([0-9][0-9]*\)[[:space:]]*\$/\1/p" -- "$1" | tail -n 1
}
user_gid_range() { # "FIRST LAST": the larger first and the smaller last of adduser.conf and login.defs
  local a b c d
  a=$(conf_num /etc/adduser.conf FIRST_GID); b=$(conf_num /etc/login.defs GID_MIN)
  c=$(conf_num /etc/adduser.conf LAST_GID); d=$(conf_num /etc/login.defs GID_MAX)
  a=${a:-1000}; b=${b:-1000}; c=${c:-60000}; d=${d:-60000}
  echo "$((a > b ? a : b)) $((c < d ? c : d))"
}
made_by_me() {
  [ -f "$made_mark" ] && [ ! -L "$made_mark" ] &&
    [ "$(head -c 32 -- "$made_mark")" = "$(getent group "$group" | cut -d: -f3)" ]
}
check_existing_group() {
  local gid first last f p g others=() not_named=() m u found rc=0
  gid=$(getent group "$group" | cut -d: -f3)
  read -r first last < <(user_gid_range)
  if ((gid < first || gid > last)); then
    die "group $group (gid $gid) is a system group (user groups here are gids $first..$last): its members may read what it owns; give a new group name, which this script creates"
  fi
  others=(! -samefile "$binary")
  for f in "$state_dir"/*; do
    [ -f "$f" ] && [ ! -L "$f" ] && [[ "$f" != */made-group.* ]] || continue
    p=$(sed -n 's/^path //p' -- "$f" | head -1)
    g=$(sed -n 's/^grant //p' -- "$f" | head -1)
    [ "$g" = "$group" ] && [ -e "$p" ] && others+=(! -samefile "$p")
  done
  found=$(timeout 120 find /etc /usr /var -xdev -group "$gid" "${others[@]}" -print -quit 2>/dev/null) || rc=$?
  ((rc != 124 && rc != 137)) ||
    die "could not check within 120 s whether group $group owns files under /etc, /usr, /var: give a new group name, which this script creates"
  [ -z "$found" ] ||
    die "group $group owns $found: its members may read or write that; give a new group name, which this script creates"
  IFS=, read -r -a m <<<"$(members),$(primary_users)"
  for u in "${m[@]}"; do
    [ -n "$u" ] || continue
    [[ " ${users[*]} " == *" $u "* ]] || not_named+=("$u")
  done
  if ((${#not_named[@]})); then
    die "group $group has members you did not name with --user (${not_named[*]}): they would run the binary with cap_perfmon; name each with --user, or give a new group name"
  fi
}
if getent group "$group" >/dev/null && ! made_by_me; then
  check_existing_group
fi
if ! getent group "$group" >/dev/null; then
  (umask 077 && mkdir -p -- "$state_dir") || die "cannot create $state_dir"
  check_state_dir
  groupadd --system "$group"
  (umask 077 && getent group "$group" | cut -d: -f3 >"$made_mark") || die "cannot write $made_mark"
  echo "$me: group $group created"
fi
for u in "${users[@]}"; do
  if ! id -nG "$u" | tr ' ' '\n' | grep -qx "$group"; then
    usermod -aG "$group" "$u"
    echo "$me: added $u to $group (takes effect at the next login)"
  fi
done

write_record "$rec_file" "$rec_owner" "$rec_group" "$rec_mode" "$rec_caps" "$group" granted
((fresh)) && echo "$me: $binary: owner, group, mode and capabilities recorded in $record (--revoke restores them)"

caps=cap_perfmon
((syslog)) && caps=cap_perfmon,cap_syslog
chown "root:$group" "$binary"
chmod 0750 "$binary"
if ! setcap "$caps=ep" "$binary" 2>/dev/null; then
  die "setcap on $binary failed: its file system keeps no security.capability xattr (tmpfs without xattrs, NFS, overlay?); install the binary on a local file system such as ext4 or xfs"
fi
getcap "$binary" | grep -q cap_perfmon || die "getcap does not show cap_perfmon on $binary"
if command -v findmnt >/dev/null &&
   findmnt -no OPTIONS -T "$binary" 2>/dev/null | tr ',' '\n' | grep -qx nosuid; then
  echo "$me: warning: $(findmnt -no TARGET -T "$binary") is mounted nosuid, which ignores file capabilities" >&2
fi
echo "$me: $binary: root:$group 0750, $caps=ep; members of $group count kernel work" \
     "(members: $(members))"
