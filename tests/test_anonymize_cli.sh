#!/usr/bin/env bash
# test_anonymize_cli.sh - `run --anonymize`, `report --anonymize` and
# `compare --anonymize` leave no host name, user name or home path in any
# output file (figures included), and no output carries a kernel address;
# CPU model, kernel version and the measured values are kept.  The runs
# happen in a UTS namespace with a distinctive host name, as a user whose
# name and home directory are distinctive too, with --profile on.
#
#   test_anonymize_cli.sh MUXPROF
#
# Exits 77 where no UTS namespace can be made (neither root nor
# unprivileged user namespaces).
set -uo pipefail
bin=${1:?usage: test_anonymize_cli.sh MUXPROF}
skip() { echo "SKIP: $1"; exit 77; }
host=mpsecrethost$$ user=mpsecretuser
if unshare --uts true 2>/dev/null; then ns=(unshare --uts)
elif unshare -r --uts true 2>/dev/null; then ns=(unshare -r --uts)
else skip "cannot make a UTS namespace (not root, no user namespaces)"; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
home=$tmp/home/$user
mkdir -p "$home"
tiny=(--backends poll,epoll --fds 10,50 --mode ready --samples 20 --repeats 1 --warmup 5
      --events software --profile --quiet)

HOME=$home USER=$user LOGNAME=$user "${ns[@]}" bash -c '
  hostname "$1" || exit 77
  bin=$2 home=$3; shift 3
  "$bin" run "$@" --out "$home/runs/r0" >/dev/null &&
  "$bin" run "$@" --anonymize --out "$home/runs/r1" >/dev/null &&
  md5sum "$home/runs/r0/results.json" >"$home/r0.md5" &&
  "$bin" report "$home/runs/r0" --anonymize --out "$home/pub0" >/dev/null &&
  md5sum -c --quiet "$home/r0.md5" &&
  "$bin" compare "$home/runs/r0" "$home/runs/r1" --anonymize --out "$home/cmp" >/dev/null
' _ "$host" "$bin" "$home" "${tiny[@]}"
rc=$?
[ "$rc" = 77 ] && skip "cannot set a host name in the UTS namespace"
[ "$rc" = 0 ] || { echo "FAIL: a muxprof command failed (exit $rc)"; exit 1; }

fails=0
check() { if "$@"; then echo "ok   $*"; else echo "FAIL $*"; fails=$((fails + 1)); fi; }
leaks() { grep -rlFa -e "$host" -e "$user" -e "$home" "$1"; }
no_leak() { local l; l=$(leaks "$1"); [ -z "$l" ] || { echo "     leaks in: $l"; return 1; }; }
kaddr() { grep -rlEa --include='*.json' --include='*.md' --include='*.csv' --include='*.gp' \
            --include='*.dat' --include='*.svg' '(0x)?ffff[0-9a-f]{12}' "$1"; }
no_kaddr() { local l; l=$(kaddr "$1"); [ -z "$l" ] || { echo "     kernel addresses in: $l"; return 1; }; }
field() { grep -o "\"$2\":[^,]*" "$1/results.json" | head -1; }
same() { [ "$1" = "$2" ] || { echo "     '$1' != '$2'"; return 1; }; }
figures() { ls "$1"/figures/*.png "$1"/figures/*.pdf >/dev/null 2>&1; }

# Without --anonymize the secrets are there: the checks below can fail.
check grep -q "\"host\":.*\"$host\"" "$home/runs/r0/results.json"
check grep -qF "$home/runs/r0" "$home/runs/r0/report.md"
for d in runs/r1 pub0 cmp; do
  check no_leak "$home/$d"
  check figures "$home/$d"
done
for d in runs/r0 runs/r1 pub0 cmp; do check no_kaddr "$home/$d"; done
for d in runs/r1 pub0; do
  check same "$(field "$home/$d" cpu_model)" "$(field "$home/runs/r0" cpu_model)"
  check same "$(field "$home/$d" kernel)" "$(field "$home/runs/r0" kernel)"
  check grep -q '"host":.*"host-1"' "$home/$d/results.json"
done
check cmp -s "$home/runs/r0/results.csv" "$home/pub0/results.csv"
check cmp -s "$home/runs/r0/samples.csv" "$home/pub0/samples.csv"
((fails)) && { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
