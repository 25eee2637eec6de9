#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_anonymize_cli.sh - `run --anonymize`, `report --anonymize` and
# `compare --anonymize` leave no host name, user name or home path in any
# output file (figures included), no output carries a kernel address, and
# the data is what the run measured.
#
# 1. A run in a UTS namespace with a distinctive host name, as a user whose
#    name and home are distinctive too, with --profile on: every output of
#    the three verbs is grepped for them (PNG and PDF included).
# 2. The anonymized results.json equals the run's field by field, but for
#    context.host ("host-1"), context.command (its paths "<path>") and
#    context.anonymized.
#    A gnuplot that fails naming its directory: the errors that report.md
#    lists name no path either, and with a relative run directory named
#    HOST-STAMP they name the figure as figures/X.gp; the default copy of
#    report --anonymize is anonymized-STAMP.  A run whose --out was given by
#    a prefix (--ou, --o=), relative, with a space: its anonymized command
#    names no part of it.
# 3. Host names that are also words of the data or too short to search
#    for (q, poll, Intel, epoll, 1): copies of that run that differ only in
#    the host name (context.host, and the run directory named HOST-STAMP as
#    the default is) are anonymized in a UTS namespace of that name; every
#    text output must be byte for byte what the distinctive host gave, so
#    nothing in it depends on the host name, and the data is unchanged.  The
#    copies say their CPU is an Intel Xeon, so a host "Intel" has data to
#    spoil on any machine.
#
#   test_anonymize_cli.sh MUXPROF
#
# Exits 77 where no UTS namespace can be made (neither root nor
# unprivileged user namespaces) or python3 is missing.
set -uo pipefail
bin=${1:?usage: test_anonymize_cli.sh MUXPROF}
skip() { echo "SKIP: $1"; exit 77; }
host=mpsecrethost$$ user=mpsecretuser
if unshare --uts true 2>/dev/null; then ns=(unshare --uts)
elif unshare -r --uts true 2>/dev/null; then ns=(unshare -r --uts)
else skip "cannot make a UTS namespace (not root, no user namespaces)"; fi
command -v python3 >/dev/null || skip "python3 is needed to compare results.json field by field"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
home=$tmp/home/$user
mkdir -p "$home/runs"
tiny=(--backends poll,epoll --fds 10,50 --mode ready --samples 20 --repeats 1 --warmup 5
      --events software --profile --quiet)
stamp=20261201T000000Z

# in_host NAME COMMAND...: COMMAND as the distinctive user in a UTS namespace
# whose host name is NAME.
in_host() {
  HOME=$home USER=$user LOGNAME=$user "${ns[@]}" bash -c 'hostname "$1" || exit 77; shift; "$@"' \
    _ "$@"
}

r0=$home/runs/$host-20261130T120000Z
in_host "$host" bash -c '
  bin=$1 home=$2 r0=$3; shift 3
  "$bin" run "$@" --out "$r0" >/dev/null &&
  "$bin" run "$@" --anonymize --out "$home/runs/r1" >/dev/null &&
  md5sum "$r0/results.json" >"$home/r0.md5" &&
  "$bin" report "$r0" --anonymize --out "$home/pub0" >/dev/null &&
  md5sum -c --quiet "$home/r0.md5" &&
  "$bin" compare "$r0" "$home/runs/r1" --anonymize --out "$home/cmp" >/dev/null
' _ "$bin" "$home" "$r0" "${tiny[@]}"
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
figures() { ls "$1"/figures/*.png "$1"/figures/*.pdf >/dev/null 2>&1; }
equals_1() { [ "$1" = 1 ] || { echo "     exit $1, want 1"; return 1; }; }
equals_0() { [ "$1" = 0 ] || { echo "     exit $1, want 0"; return 1; }; }

# same_data A B: results.json A and B hold the same values in the same
# fields, but for the three that --anonymize rewrites; B's host is host-1
# and B's command names no path.
same_data() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rewritten = {"context.host", "context.command", "context.anonymized"}
bad = []
def walk(x, y, path):
    if path in rewritten:
        return
    if type(x) is not type(y):
        bad.append(f"{path}: {x!r:.60} != {y!r:.60}")
    elif isinstance(x, dict):
        for k in x.keys() | y.keys():
            if k not in x or k not in y:
                bad.append(f"{path}.{k}: only in {'the original' if k in x else 'the copy'}")
            else:
                walk(x[k], y[k], f"{path}.{k}" if path else k)
    elif isinstance(x, list):
        if len(x) != len(y):
            bad.append(f"{path}: {len(x)} != {len(y)} elements")
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, f"{path}[]")
    elif x != y:
        bad.append(f"{path}: {x!r:.60} != {y!r:.60}")
ctx = b.get("context", {})
if ctx.get("host") != "host-1":
    bad.append(f"context.host is {ctx.get('host')!r}, not 'host-1'")
if "/" in ctx.get("command", "").replace("<path>", ""):
    bad.append(f"context.command names a path: {ctx.get('command')!r}")
if "anonymized" not in ctx:
    bad.append("no context.anonymized")
for line in sorted(set(bad))[:10]:
    print("     " + line)
sys.exit(1 if bad else 0)
EOF
}

# Without --anonymize the secrets are there: the checks below can fail.
check grep -q "\"host\":.*\"$host\"" "$r0/results.json"
check grep -qF "$r0" "$r0/report.md"
for d in runs/r1 pub0 cmp; do
  check no_leak "$home/$d"
  check figures "$home/$d"
done
for d in "$r0" "$home/runs/r1" "$home/pub0" "$home/cmp"; do check no_kaddr "$d"; done
check same_data "$r0/results.json" "$home/pub0/results.json"
check cmp -s "$r0/results.csv" "$home/pub0/results.csv"
check cmp -s "$r0/samples.csv" "$home/pub0/samples.csv"

# A gnuplot that fails and names where it ran: report and compare list the
# error in report.md (and exit 1: figures were not drawn).
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\necho "gnuplot: cannot write $PWD/x.png" >&2\nexit 1\n' >"$tmp/fakebin/gnuplot"
chmod +x "$tmp/fakebin/gnuplot"
in_host "$host" env PATH="$tmp/fakebin:$PATH" "$bin" report "$r0" --anonymize \
  --out "$home/pubfail" >/dev/null 2>&1
check equals_1 $?
in_host "$host" env PATH="$tmp/fakebin:$PATH" "$bin" compare "$r0" "$home/runs/r1" --anonymize \
  --out "$home/cmpfail" >/dev/null 2>&1
for d in pubfail cmpfail; do
  check grep -q "cannot write" "$home/$d/report.md"
  check no_leak "$home/$d"
done

# A relative run directory named as the default is (reports/runs/HOST-STAMP)
# and a gnuplot that fails: report.md names the figure as figures/X.gp, never
# the run directory; the default copy is reports/runs/anonymized-STAMP (no
# host in its name); compare's "Figures:" line names figures/X.gp too.
rel=reports/runs/$host-20261130T120000Z rel1=reports/runs/$host-20261130T130000Z
mkdir -p "$home/rel/reports/runs" && cp -r "$r0" "$home/rel/$rel" &&
  cp -r "$home/runs/r1" "$home/rel/$rel1"
in_host "$host" bash -c 'cd "$1" && PATH="$2:$PATH"; "$3" report "$4" --anonymize >/dev/null 2>&1
  "$3" compare "$4" "$6" --anonymize --out "cmp-$5" >/dev/null 2>&1; exit 0' \
  _ "$home/rel" "$tmp/fakebin" "$bin" "$rel" "$host" "$rel1"
pubrel=$(ls -d "$home/rel/reports/runs/anonymized-"* 2>/dev/null | head -1)
check test -n "$pubrel"
check grep -q "gnuplot figures/[a-z0-9_-]*\.gp failed" "${pubrel:-/nonexistent}/report.md"
check no_leak "${pubrel:-/nonexistent}"
check grep -q "^Figures: gnuplot figures/[a-z0-9_-]*\.gp failed" "$home/rel/cmp-$host/report.md"
check no_leak "$home/rel/cmp-$host"

# --out given by a prefix getopt takes for it (--ou, --o=), relative, with a
# space in it: context.command in the anonymized copy names none of it.
in_host "$host" bash -c 'cd "$1" && shift && "$@" >/dev/null' _ "$home/runs" \
  "$bin" run "${tiny[@]}" --no-plots --ou "sp $host" &&
in_host "$host" bash -c 'cd "$1" && shift && "$@" >/dev/null' _ "$home/runs" \
  "$bin" run "${tiny[@]}" --no-plots --o="$home/runs/sp2 $host"
check equals_0 $?
for d in "sp $host" "sp2 $host"; do
  in_host "$host" "$bin" report "$home/runs/$d" --anonymize --no-plots \
    --out "$home/pub-${d%% *}" >/dev/null 2>&1
  check grep -q '"command":.*--o[u=]*[ ]*<path>' "$home/pub-${d%% *}/results.json"
  check no_leak "$home/pub-${d%% *}"
done

# copy_as NAME DIR: the run r0 as host NAME made it, in DIR.
copy_as() {
  mkdir -p "$2" && cp "$r0/results.csv" "$r0/samples.csv" "$2/" &&
  python3 - "$r0/results.json" "$2/results.json" "$1" "$r0" "$2" <<'EOF'
import json, sys
src, dst, name, old_dir, new_dir = sys.argv[1:6]
d = json.load(open(src))
d["context"]["host"] = name
d["context"]["command"] = d["context"]["command"].replace(old_dir, new_dir)
intel = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"
d["context"]["cpu_model"] = intel
if isinstance(d.get("topology"), dict) and "cpu_model" in d["topology"]:
    d["topology"]["cpu_model"] = intel
json.dump(d, open(dst, "w"), indent=1)
EOF
}

# anonymize_as NAME: the copies of host NAME, anonymized by report and by
# compare in a UTS namespace of that name, into $tmp/out/NAME/{pub,cmp}.
anonymize_as() {
  local a=$home/runs/$1-$stamp b=$home/runs/$1-${stamp%Z}1Z o=$tmp/out/$1
  copy_as "$1" "$a" && copy_as "$1" "$b" && mkdir -p "$o" &&
  in_host "$1" bash -c '"$1" report "$2" --anonymize --out "$4/pub" --no-plots >/dev/null &&
                        "$1" compare "$2" "$3" --anonymize --out "$4/cmp" --no-plots >/dev/null' \
    _ "$bin" "$a" "$b" "$o"
}

# same_text A B: every text file of A is in B with the same bytes, and B has
# no other.
same_text() {
  local f l
  l=$(cd "$1" && find . -type f | sort) || return 1
  [ "$l" = "$(cd "$2" && find . -type f | sort)" ] || { echo "     files differ"; return 1; }
  for f in $l; do
    if [ "$f" = ./.muxprof-manifest ]; then   # inodes and times differ: the names must not
      [ "$(cut -d' ' -f3- "$1/$f" | sort)" = "$(cut -d' ' -f3- "$2/$f" | sort)" ] ||
        { echo "     $f lists other files"; return 1; }
      continue
    fi
    cmp -s "$1/$f" "$2/$f" || { echo "     $f differs:"; diff "$1/$f" "$2/$f" | head -4; return 1; }
  done
}

check anonymize_as "$host"
for name in q poll Intel epoll 1; do
  if ! anonymize_as "$name"; then check false "muxprof report/compare --anonymize on host $name"
    continue; fi
  check same_data "$home/runs/$name-$stamp/results.json" "$tmp/out/$name/pub/results.json"
  check same_text "$tmp/out/$host/pub" "$tmp/out/$name/pub"
  check same_text "$tmp/out/$host/cmp" "$tmp/out/$name/cmp"
done
((fails)) && { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
