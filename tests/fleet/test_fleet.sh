#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_fleet.sh - deploy/ansible/muxprof.yml against two inventory hosts on
# this machine: "here" (ansible_connection=local) and "loop" (ssh to
# 127.0.0.1 on a free loopback port, served by an sshd of our own with a host
# key and a client key generated for the run, and stopped at the end).
#
#   1. both hosts build and measure a small sweep; both runs come back, the
#      compare report has both labels, each host had its own work directory,
#      and the two hosts' turns under the lock did not overlap;
#   2. again, plus "gone" (an unreachable port): the two runs that came back
#      are not measured again, "gone" is named as failed, the playbook exits
#      non-zero, and the other two are still compared;
#   3. with every host on the local connection and force=true: "here" is
#      measured again, "loop" came back earlier;
#   4. "here" from a bundle (scripts/bundle.sh on BUILD_DIR), with PATH holding no
#      compiler, cmake or make, and other muxprof_args: measured again (the
#      arguments changed, fleet.txt says so), nothing built (setup_s=0); then the
#      same again: reused;
#   0. before those: a controller that cannot compare (muxprof_bin missing) and a
#      fleet_dir inside the checkout both stop the playbook before any host
#      work, with what to do.
#
#   tests/fleet/test_fleet.sh [BUILD_DIR]      (BUILD_DIR: the controller's
#                                               build, for compare [build])
# Installs ansible and openssh-server when missing (apt-get, as root or with
# sudo -n); exit 77 when it cannot, or when sshd cannot be started.  Two
# builds and three playbook runs: 130 s of CPU, 275-452 s on the 2-core
# development VM shared with other builds (docs/fleet.md has the times).
# FLEET_KEEP=1 keeps the work directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$PWD
bin="$(cd "${1:-build}" 2>/dev/null && pwd)/bin/muxprof" || true
[ -x "$bin" ] || { echo "test_fleet: no $bin: build first (scripts/setup.sh)" >&2; exit 1; }

skip() { echo "SKIP: test_fleet: $*"; exit 77; }
fail() { echo "FAIL: test_fleet: $*" >&2; exit 1; }
say() { printf '== test_fleet: %s\n' "$*"; }

# --- what it needs -------------------------------------------------------------
missing=()
for p in ansible openssh-server openssh-client; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    skip "needs ${missing[*]} (apt-get install ${missing[*]}) and cannot install them"
  fi
  say "installing ${missing[*]}"
  $sudo apt-get update -qq || skip "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null ||
    skip "apt-get install ${missing[*]} failed"
fi
[ "$(id -u)" = 0 ] || skip "starts its own sshd, which needs root"
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || skip "no sshd"

t=$(mktemp -d /tmp/muxprof-fleet-test.XXXXXX)
sshd_pid=""
cleanup() {
  if [ -n "$sshd_pid" ]; then
    kill "$sshd_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$sshd_pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$sshd_pid" 2>/dev/null || true
  fi
  if [ -n "${FLEET_KEEP:-}" ]; then echo "test_fleet: kept $t"; else rm -rf "$t"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- our own sshd on 127.0.0.1 ---------------------------------------------------
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$t/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$t/client_key"
cp "$t/client_key.pub" "$t/authorized_keys"
chmod 600 "$t/authorized_keys"
mkdir -p /run/sshd            # privilege separation directory, when no sshd service ran yet
user=$(id -un)
start_sshd() {
  port=$(free_port)
  cat >"$t/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $t/host_key
PidFile $t/sshd.pid
AuthorizedKeysFile $t/authorized_keys
AllowUsers $user
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
EOF
  "$sshd" -t -f "$t/sshd_config" || skip "sshd refuses its configuration"
  "$sshd" -D -e -f "$t/sshd_config" 2>>"$t/sshd.log" &
  sshd_pid=$!
}
ssh_ok() {
  timeout 10 ssh -F none -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$t/known_hosts" -o ConnectTimeout=5 -i "$t/client_key" \
    -p "$port" "$user@127.0.0.1" true 2>>"$t/ssh.log"
}
up=""
for _ in 1 2 3; do                # a port taken between the pick and the bind: pick again
  start_sshd
  for _ in $(seq 50); do
    if ssh_ok; then up=1; break; fi
    kill -0 "$sshd_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$up" ] && break
  kill "$sshd_pid" 2>/dev/null || true
  wait "$sshd_pid" 2>/dev/null || true
  sshd_pid=""
done
[ -n "$up" ] || { cat "$t/sshd.log" "$t/ssh.log" >&2; skip "could not start sshd on 127.0.0.1"; }
say "sshd on 127.0.0.1:$port (pid $sshd_pid)"
gone_port=$(free_port)           # nothing listens there

# --- ansible, isolated from the user's configuration -------------------------------
cat >"$t/ansible.cfg" <<EOF
[defaults]
host_key_checking = False
retry_files_enabled = False
nocolor = True
timeout = 10
local_tmp = $t/ansible-local
remote_tmp = $t/ansible-remote
forks = 5
callbacks_enabled = ansible.posix.profile_tasks
[ssh_connection]
ssh_args = -o ControlMaster=no -o ControlPersist=no -o UserKnownHostsFile=$t/known_hosts
pipelining = True
EOF
export ANSIBLE_CONFIG="$t/ansible.cfg"
common_vars="ansible_python_interpreter=$(command -v python3)
muxprof_remote_root=$t/remote
muxprof_lock=$t/muxprof.lock
muxprof_lock_wait=400
muxprof_setup_timeout=400
muxprof_run_timeout=120"
loop_host="loop ansible_host=127.0.0.1 ansible_port=$port ansible_user=$user ansible_ssh_private_key_file=$t/client_key"
fleet="$t/fleet"
args="--quick --backends poll,epoll --fds 10,100"

playbook() {   # playbook N INVENTORY [extra -e ...]: exit status; output in $t/play-N.log
  local n=$1 inv=$2 rc=0
  shift 2
  timeout 450 ansible-playbook -i "$inv" deploy/ansible/muxprof.yml -e muxprof_src="$top" \
    -e fleet_dir="$fleet" -e "muxprof_args='$args'" -e muxprof_bin="$bin" "$@" \
    >"$t/play-$n.log" 2>&1 || rc=$?
  echo "$rc"
}
has() { grep -qF -- "$2" "$1" || fail "expected \"$2\" in $1:
$(cat "$1")"; }
done_field() { # done_field HOST FIELD: from logs/HOST.log's host-run line
  sed -n "s/^host-run: done: .*$2=\\([^ ]*\\).*/\\1/p" "$fleet/logs/$1.log"
}

printf '[muxprof]\nhere ansible_connection=local\n%s\n[muxprof:vars]\n%s\n' \
  "$loop_host" "$common_vars" >"$t/inv-two.ini"

# --- 0. stopped before any host work ------------------------------------------------
say "0: a controller that cannot compare; a fleet_dir inside the checkout"
rc=$(playbook 0a "$t/inv-two.ini" -e muxprof_bin=/nonexistent/muxprof)
[ "$rc" != 0 ] || fail "a controller without muxprof did not stop the playbook"
has "$t/play-0a.log" "the controller cannot run muxprof compare"
has "$t/play-0a.log" "muxprof_bin=PATH"
! grep -q 'TASK \[reach the host\]' "$t/play-0a.log" || fail "hosts were worked on before the compare check"
[ ! -e "$fleet" ] || fail "fleet_dir was made although the controller cannot compare"
inside="$top/fleet-test-inside-$$"
rc=$(playbook 0b "$t/inv-two.ini" -e fleet_dir="$inside")
[ "$rc" != 0 ] || fail "a fleet_dir inside the checkout was accepted"
has "$t/play-0b.log" "is inside muxprof_src"
[ ! -e "$inside" ] || { rm -rf "$inside"; fail "a fleet_dir inside the checkout was created"; }

# --- 1. both hosts, measured ------------------------------------------------------
say "1: here (local) and loop (ssh 127.0.0.1:$port)"
s=$SECONDS
rc=$(playbook 1 "$t/inv-two.ini")
say "1: ansible-playbook exit $rc after $((SECONDS - s)) s"
[ "$rc" = 0 ] || fail "first playbook run exited $rc: $(tail -n 40 "$t/play-1.log")"
for h in here loop; do
  python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["status"] != "complete")' \
    "$fleet/$h/results.json" || fail "$h: no complete results.json"
  [ -f "$fleet/$h/report.md" ] || fail "$h: no report.md came back"
  [ -d "$t/remote/$h/src/build" ] || fail "$h: did not build in its own $t/remote/$h/src"
  has "$fleet/fleet.txt" "$h: ok, measured now (arch=$(uname -m)"
done
has "$fleet/compare/report.md" "| N | here | loop |"
has "$fleet/compare/report.md" "| here: "
has "$fleet/compare/report.md" "| loop: "
has "$fleet/fleet.txt" "compare: compare/report.md over here, loop"
grep -q "Accepted publickey for $user from 127.0.0.1" "$t/sshd.log" ||
  fail "loop did not come over ssh: $(cat "$t/sshd.log")"
# the lock: one host's turn (build and run) ended before the other's began
IFS=. read -r a0 _ a1 <<<"$(done_field here lock_held)"
IFS=. read -r b0 _ b1 <<<"$(done_field loop lock_held)"
{ [ -n "$a0" ] && [ -n "$b0" ]; } || fail "no lock_held in the logs"
((a1 <= b0 || b1 <= a0)) || fail "the two turns overlapped: here $a0..$a1, loop $b0..$b1"
for h in here loop; do stat -c %Y "$fleet/$h/results.json"; done >"$t/mtimes"

# --- 2. again, with an unreachable host ------------------------------------------
printf '[muxprof]\nhere ansible_connection=local\n%s\ngone ansible_host=127.0.0.1 ansible_port=%s ansible_user=%s ansible_ssh_private_key_file=%s\n[muxprof:vars]\n%s\n' \
  "$loop_host" "$gone_port" "$user" "$t/client_key" "$common_vars" >"$t/inv-three.ini"
say "2: again, plus gone (127.0.0.1:$gone_port, nothing listening)"
s=$SECONDS
rc=$(playbook 2 "$t/inv-three.ini")
say "2: ansible-playbook exit $rc after $((SECONDS - s)) s"
[ "$rc" != 0 ] || fail "a failed host must make the playbook exit non-zero"
has "$fleet/fleet.txt" "gone: FAILED: unreachable"
has "$fleet/fleet.txt" "here: ok, came back earlier"
has "$fleet/fleet.txt" "loop: ok, came back earlier"
has "$t/play-2.log" "hosts failed: gone"
has "$fleet/compare/report.md" "| N | here | loop |"
[ ! -e "$fleet/gone" ] || fail "a run directory for the unreachable host"
for h in here loop; do stat -c %Y "$fleet/$h/results.json"; done | cmp -s - "$t/mtimes" ||
  fail "a run that had come back was measured again without force"

# --- 3. every host local, force=true for one, from an edited copy of the tree --------
src3="$t/src-copy"
mkdir "$src3"
git ls-files -z -c -o --exclude-standard | tar --null -T - --ignore-failed-read -cf - |
  tar -C "$src3" -xf -
# the same version string: a new one would rebuild everything (it is in every object)
git describe --always --dirty --tags >"$src3/.git-describe" 2>/dev/null || true
echo "fleet test: an edit" >>"$src3/README.md"
rm "$src3/docs/arm64.md"
echo "fleet test: a new file" >"$src3/docs/fleet-test-new.md"
kept=$(stat -c %Y "$t/remote/here/src/CMakeLists.txt")
printf '[muxprof]\nhere ansible_connection=local force=true\nloop ansible_connection=local\n[muxprof:vars]\n%s\n' \
  "$common_vars" >"$t/inv-local.ini"
say "3: every host local; here with force=true, from an edited copy"
s=$SECONDS
rc=$(playbook 3 "$t/inv-local.ini" -e muxprof_src="$src3")
say "3: ansible-playbook exit $rc after $((SECONDS - s)) s"
[ "$rc" = 0 ] || fail "third playbook run exited $rc: $(tail -n 40 "$t/play-3.log")"
has "$fleet/fleet.txt" "here: ok, measured now"
has "$fleet/fleet.txt" "loop: ok, came back earlier"
[ "$(stat -c %Y "$fleet/here/results.json")" != "$(head -n 1 "$t/mtimes")" ] ||
  fail "force=true did not measure here again"
has "$fleet/compare/report.md" "| N | here | loop |"
# the host's tree follows the source file by file; an unchanged file keeps its time
has "$t/remote/here/src/README.md" "fleet test: an edit"
[ -f "$t/remote/here/src/docs/fleet-test-new.md" ] || fail "a new file did not reach the host"
[ ! -e "$t/remote/here/src/docs/arm64.md" ] || fail "a deleted file stayed on the host"
[ "$(stat -c %Y "$t/remote/here/src/CMakeLists.txt")" = "$kept" ] ||
  fail "an unchanged file was rewritten on the host (every build would start over)"

# --- 4. one host from a bundle, no compiler on PATH, other arguments ------------------
sh scripts/bundle.sh --out "$t/dist" "$(dirname "$(dirname "$bin")")" >"$t/bundle.log" 2>&1 ||
  fail "scripts/bundle.sh: $(cat "$t/bundle.log")"
set -- "$t"/dist/muxprof-*-"$(uname -m)".tar.gz
[ -f "$1" ] || fail "no bundle .tar.gz in $t/dist"
bundle=$1
mkdir "$t/nocc"                  # every program on PATH but compilers, cmake and make
for d in /usr/local/bin /usr/bin /bin /usr/local/sbin /usr/sbin /sbin; do
  for f in "$d"/*; do
    n=$(basename "$f")
    case $n in
      cc|c89|c99|c++|cpp|cpp-*|gcc|gcc-*|g++|g++-*|*-gcc|*-gcc-*|*-g++*|clang*|tcc|as|ld|ld.*|\
      cmake|ctest|cpack|ccmake|make|gmake|ninja|x86_64-linux-gnu-*|aarch64-linux-gnu-*) continue ;;
    esac
    [ -e "$t/nocc/$n" ] || ln -s "$f" "$t/nocc/$n"
  done
done
for c in cc gcc cmake make; do
  ! PATH=$t/nocc command -v $c >/dev/null 2>&1 || fail "$c is still on the PATH without compilers"
done
printf '[muxprof]\nhere ansible_connection=local\n[muxprof:vars]\n%s\n' "$common_vars" >"$t/inv-here.ini"
args="--quick --backends epoll --fds 10"
say "4: here from $(basename "$bundle"), no compiler on PATH, muxprof_args '$args'"
s=$SECONDS
rc=$(PATH=$t/nocc playbook 4 "$t/inv-here.ini" -e muxprof_bundle="$bundle")
say "4: ansible-playbook exit $rc after $((SECONDS - s)) s"
[ "$rc" = 0 ] || fail "the bundle playbook run exited $rc: $(tail -n 40 "$t/play-4.log")"
has "$fleet/fleet.txt" "here: ok, measured now (arch=$(uname -m)"
has "$fleet/fleet.txt" "its earlier run was not reused: made with muxprof_args=--quick --backends poll,epoll --fds 10,100"
[ "$(done_field here setup_s)" = 0 ] || fail "here built something from the bundle (setup_s=$(done_field here setup_s))"
[ -x "$t/remote/here/bundle/$(basename "$bundle" .tar.gz)/bin/muxprof" ] || fail "the bundle was not unpacked on here"
grep -q '"epoll"' "$fleet/here/results.json" && ! grep -q '"backend":[[:space:]]*"poll"' "$fleet/here/results.json" ||
  fail "here's run is not the one with the new arguments"
rc=$(PATH=$t/nocc playbook 5 "$t/inv-here.ini" -e muxprof_bundle="$bundle")
[ "$rc" = 0 ] || fail "the second bundle run exited $rc: $(tail -n 40 "$t/play-5.log")"
has "$fleet/fleet.txt" "here: ok, came back earlier, made with the same muxprof_args and muxprof"
say "passed in $SECONDS s"
