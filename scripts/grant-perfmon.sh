#!/usr/bin/env bash
# grant-perfmon.sh - let the members of one group count kernel work with
# muxprof, as the kernel's perf-security guide advises
# (Documentation/admin-guide/perf-security.rst): the binary becomes
# root:GROUP mode 0750 with cap_perfmon (and cap_syslog with --syslog) in its
# file capabilities, so only members of GROUP can run it at all.  Idempotent;
# --revoke undoes it (root:root 0755, no capabilities; the group is removed
# once it has no members).
#
#   scripts/grant-perfmon.sh GROUP [--binary PATH] [--user USER]... [--syslog]
#   scripts/grant-perfmon.sh GROUP --revoke [--binary PATH] [--user USER]...
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

if [ -z "$binary" ]; then
  binary=$(command -v muxprof) || die "no muxprof on PATH: give the installed binary with --binary PATH"
fi
binary=$(readlink -f -- "$binary") || die "cannot resolve $binary"
[ -f "$binary" ] || die "$binary is not a regular file"
if [ -u "$binary" ] || [ -g "$binary" ]; then
  die "$binary is setuid/setgid: remove that first (chmod ug-s)"
fi

if ! command -v setcap >/dev/null || ! command -v getcap >/dev/null; then
  command -v apt-get >/dev/null || die "setcap/getcap missing: install libcap2-bin (or your distribution's libcap tools)"
  echo "$me: installing libcap2-bin (setcap, getcap)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcap2-bin >/dev/null
fi

members() { getent group "$group" | cut -d: -f4; }
primary_users() {
  local gid
  gid=$(getent group "$group" | cut -d: -f3)
  getent passwd | awk -F: -v g="$gid" '$4 == g { printf "%s%s", s, $1; s = "," }'
}

if ((revoke)); then
  if [ -n "$(getcap "$binary")" ]; then setcap -r "$binary"; fi
  chown root:root "$binary"
  chmod 0755 "$binary"
  echo "$me: $binary: no capabilities, root:root 0755"
  if getent group "$group" >/dev/null; then
    for u in "${users[@]}"; do
      if id -nG "$u" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        gpasswd -d "$u" "$group" >/dev/null
        echo "$me: removed $u from $group"
      fi
    done
    left=$(members)
    prim=$(primary_users)
    if [ -z "$left" ] && [ -z "$prim" ]; then
      groupdel "$group"
      echo "$me: group $group removed (no members left)"
    else
      echo "$me: group $group kept: members ${left}${left:+${prim:+,}}${prim} (groupdel $group to remove it)"
    fi
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
if ! getent group "$group" >/dev/null; then
  groupadd --system "$group"
  echo "$me: group $group created"
fi
for u in "${users[@]}"; do
  if ! id -nG "$u" | tr ' ' '\n' | grep -qx "$group"; then
    usermod -aG "$group" "$u"
    echo "$me: added $u to $group (takes effect at the next login)"
  fi
done

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
