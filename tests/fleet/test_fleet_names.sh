#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_fleet_names.sh - inventory host names are data to deploy/ansible/muxprof.yml:
#
#   1. an inventory with a host named by a Jinja expression (a lookup('pipe')
#      that would make a file on the controller), one named ../../vict and an
#      unreachable ../../../unreach: the playbook stops in its first task with
#      one message naming them, non-zero; the lookup never ran, fleet_dir was
#      not made, no host task ran, nothing was written outside fleet_dir;
#   2. a host that is not measured (--limit leaves it out, no earlier run):
#      the playbook exits non-zero naming it;
#   3. host-run.sh given an MP_OUT with .. in it, or a last component that is
#      not a safe name: refused, exit 1, the directory it points to kept.
#
#   tests/fleet/test_fleet_names.sh [BUILD_DIR]      (BUILD_DIR: for muxprof_bin [build])
# Needs ansible-playbook (installed with apt-get as root when missing, else
# exit 77). Two short playbook runs on the local connection only: no host is
# built or measured.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$PWD
bin="$(cd "${1:-build}" 2>/dev/null && pwd)/bin/muxprof" || true
[ -x "$bin" ] || { echo "test_fleet_names: no $bin: build first (scripts/setup.sh)" >&2; exit 1; }
skip() { echo "SKIP: test_fleet_names: $*"; exit 77; }
fail() { echo "FAIL: test_fleet_names: $*" >&2; exit 1; }
say() { printf '== test_fleet_names: %s\n' "$*"; }

if ! command -v ansible-playbook >/dev/null || ! command -v ansible-inventory >/dev/null; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "no ansible-playbook (apt-get install ansible)"
  say "installing ansible"
  timeout 500 apt-get update -qq || skip "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive timeout 500 apt-get install -y -qq ansible >/dev/null ||
    skip "apt-get install ansible failed"
fi

t=$(mktemp -d /tmp/muxprof-fleet-names.XXXXXX)
trap 'rm -rf "$t"' EXIT
trap 'exit 130' INT TERM
cat >"$t/ansible.cfg" <<EOF
[defaults]
retry_files_enabled = False
nocolor = True
local_tmp = $t/ansible-local
remote_tmp = $t/ansible-remote
EOF
export ANSIBLE_CONFIG="$t/ansible.cfg"
py=$(command -v python3)
playbook() {   # playbook N INVENTORY [extra args]: exit status; output in $t/play-N.log
  local n=$1 inv=$2 rc=0
  shift 2
  timeout 300 ansible-playbook -i "$inv" deploy/ansible/muxprof.yml -e muxprof_src="$top" \
    -e fleet_dir="$t/base/root/fleet" -e muxprof_bin="$bin" -e muxprof_remote_root="$t/base/root/remote" \
    -e "muxprof_args='--quick'" "$@" >"$t/play-$n.log" 2>&1 || rc=$?
  echo "$rc"
}
has() { grep -qF -- "$2" "$1" || fail "expected \"$2\" in $1:
$(cat "$1")"; }

# --- 1. hostile names ------------------------------------------------------------------
mkdir -p "$t/base/root"
cat >"$t/inv-hostile.yml" <<EOF
all:
  vars:
    ansible_python_interpreter: $py
  children:
    muxprof:
      hosts:
        good:
          ansible_connection: local
        "{{ lookup('pipe', 'touch $t/PWNED') }}":
          ansible_connection: local
        "../../vict":
          ansible_connection: local
        "../../../unreach":
          ansible_host: 127.0.0.1
          ansible_port: 1
EOF
say "1: a Jinja host name, ../../vict, an unreachable ../../../unreach"
rc=$(playbook 1 "$t/inv-hostile.yml")
[ "$rc" != 0 ] || fail "hostile host names: the playbook exited 0: $(tail -n 30 "$t/play-1.log")"
[ ! -e "$t/PWNED" ] || fail "a host name's lookup('pipe', ...) ran on the controller"
has "$t/play-1.log" "not a safe path component"
has "$t/play-1.log" "'../../vict'"
has "$t/play-1.log" "'../../../unreach'"
has "$t/play-1.log" "lookup("
! grep -qF "'good'" "$t/play-1.log" || fail "the safe name 'good' was named as unsafe"
! grep -q 'TASK \[reach the host\]' "$t/play-1.log" || fail "a host task ran with unsafe names in the inventory"
[ ! -e "$t/base/root/fleet" ] || fail "fleet_dir was made with unsafe names in the inventory"
[ -z "$(ls -A "$t/base" | grep -vx root)" ] && [ -z "$(ls -A "$t" | grep -v -e '^base$' -e '^ansible' \
  -e '^inv-' -e '^play-')" ] || fail "something was written outside fleet_dir: $(ls -A "$t" "$t/base")"

# --- 2. a host that was not measured ----------------------------------------------------
printf '[controller]\nlocalhost ansible_connection=local\n[muxprof]\nhere ansible_connection=local\n[all:vars]\nansible_python_interpreter=%s\n' "$py" >"$t/inv-here.ini"
say "2: --limit localhost: here is not measured"
rc=$(playbook 2 "$t/inv-here.ini" --limit localhost)
[ "$rc" != 0 ] || fail "a host not measured: the playbook exited 0: $(tail -n 30 "$t/play-2.log")"
has "$t/play-2.log" "hosts not measured: here"
has "$t/base/root/fleet/fleet.txt" "here: not measured"

# --- 3. host-run.sh keeps to its work directory -------------------------------------------
say "3: host-run.sh with .. in MP_OUT"
mkdir -p "$t/hr/root/w/runs" "$t/hr/root/vict"
echo keep >"$t/hr/root/vict/f"
for out in "$t/hr/root/w/runs/../../vict" "$t/hr/root/w/runs/../../vict/." "$t/hr/root/w/runs/a{{b}}"; do
  rc=0
  MP_BIN=/bin/true MP_OUT=$out MP_LOCK=$t/hr/lock MP_LOCK_WAIT=5 MP_SETUP_TIMEOUT=5 MP_RUN_TIMEOUT=5 \
    deploy/ansible/host-run.sh >"$t/hr.log" 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "host-run.sh MP_OUT=$out: exit $rc, not 1: $(cat "$t/hr.log")"
  has "$t/hr.log" "is not a work directory's runs/HOST"
  [ "$(cat "$t/hr/root/vict/f" 2>/dev/null)" = keep ] || fail "host-run.sh MP_OUT=$out removed $t/hr/root/vict"
done
say "passed in $SECONDS s"
