#!/bin/sh
# test_cachesim.sh SRC BIN - scripts/cachesim.sh without booting anything:
# usage errors and --dry-run, then results.json assembled from the recorded
# boots of one real pair (tests/fixtures/cachesim: poll at N = 100 with 100
# and 200 calls under neoverse-n1, plugin logs cut to their top 60
# instructions, the kernel symbols they need): the K..2K difference per
# call, the kernel functions, a missing boot as an error cell, a cell the
# loop refuses as unsupported, and the report labelled "simulated".
set -u
src=$1 bin=$2
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cs=$src/scripts/cachesim.sh
export HOST_BIN=$bin

"$cs" --out "$t/x" --geometry nope >/dev/null 2>"$t/err"; [ $? = 2 ] && grep -q "unknown 'nope'" "$t/err" ||
    fail "unknown geometry: $(cat "$t/err")"
"$cs" --out "$t/x" --l1d 48K,8 --l2 1M,8 >/dev/null 2>"$t/err"; [ $? = 2 ] &&
    grep -q "96 sets; QEMU's cache model needs a power of two" "$t/err" || fail "48K,8: $(cat "$t/err")"
"$cs" --out "$t/x" --backends poll,nope >/dev/null 2>"$t/err"; [ $? = 2 ] &&
    grep -q "unknown backend 'nope'" "$t/err" || fail "bad backend: $(cat "$t/err")"
"$cs" --help | grep -qF -- "--fds LIST         watched descriptor counts [$("$bin" run --help |
    sed -n '/^  --fds /,/]/p' | tr -d ' \n' | sed -n 's/.*\[\([0-9,]*\)[];].*/\1/p')]" &&
    "$cs" --help | grep -qF "[10,20,50,100," || fail "the default --fds is not muxprof run's"
"$cs" --out "$t/x" --fds 10,0 >/dev/null 2>"$t/err"; [ $? = 2 ] &&
    grep -q -- "--fds: 0 is not a count in 1..1048576" "$t/err" || fail "--fds 0: $(cat "$t/err")"
[ ! -e "$t/x" ] || fail "a usage error left $t/x behind"
# The prerequisites: a stand-in arm64 build (nothing is booted), caches of our own.
printf '#!/bin/sh\nexit 0\n' > "$t/arm-muxprof" && chmod +x "$t/arm-muxprof"
export ARM_BIN=$t/arm-muxprof CS_CACHE=$t/cs-cache AG_CACHE=$t/ag-cache
"$cs" --geometry epyc-9354p --backends poll,epoll --fds 10,100 --dry-run > "$t/dry" 2>"$t/err" ||
    fail "--dry-run without --out: $(cat "$t/dry" "$t/err")"
grep -q '^prerequisites:' "$t/dry" && grep -q "^  ok      the arm64 build $t/arm-muxprof" "$t/dry" &&
    grep -q "^  todo    QEMU's cache plugin" "$t/dry" &&
    grep -q '^estimate: 8 boots x 38 s / 2 at a time = about 3 min' "$t/dry" ||
    fail "--dry-run prerequisites and estimate: $(cat "$t/dry")"
ARM_BIN=$t/none "$cs" --fds 10 --backends poll --dry-run > "$t/dry" 2>"$t/err"; [ $? = 1 ] &&
    grep -q "^  missing the arm64 build $t/none: run scripts/cross-aarch64.sh" "$t/dry" &&
    grep -q 'a prerequisite is missing' "$t/err" || fail "--dry-run, no arm64 build: $(cat "$t/dry" "$t/err")"
# A real start with a prerequisite missing fails at once and leaves no --out.
ARM_BIN=$t/none "$cs" --out "$t/new" --fds 10 --backends poll > /dev/null 2>"$t/err"; [ $? = 1 ] &&
    grep -q "needs the arm64 build $t/none" "$t/err" || fail "no arm64 build: $(cat "$t/err")"
[ ! -e "$t/new" ] || fail "a start that failed left $t/new behind"
"$cs" --out "$t/x" --geometry epyc-9354p --backends poll,epoll --fds 10,100 --dry-run > "$t/dry" ||
    fail "--dry-run failed"
grep -q "L1d 32768 B 8-way, L1i 32768 B 8-way, L2 1048576 B 8-way, 64-B lines" "$t/dry" &&
    [ "$(grep -c '^boot ' "$t/dry")" = 4 ] || fail "--dry-run printed: $(cat "$t/dry")"
# select beyond FD_SETSIZE is refused on the host already: planned without a boot.
"$cs" --out "$t/x" --geometry epyc-9354p --backends select --fds 100,2000 --dry-run > "$t/dry" ||
    fail "--dry-run (select) failed"
grep -q '^boot select N=100: ' "$t/dry" &&
    grep -q '^no boot select N=2000: unsupported: select() cannot watch fd' "$t/dry" &&
    [ "$(grep -c 'boot ' "$t/dry")" = 2 ] || fail "select --dry-run printed: $(cat "$t/dry")"

d=$t/run
mkdir -p "$d" && cp -r "$src/tests/fixtures/cachesim/boots" "$d/" || fail "fixture copy"
echo "select() cannot watch fd 2005: fd_set holds descriptors 0..1023 (FD_SETSIZE 1024)" \
    > "$d/boots/select-2000.unsupported"
cat > "$d/plan.env" <<PLAN
geometry=neoverse-n1
description=Arm Neoverse N1
l1d=65536,4
l1i=65536,4
l2=1048576,8
line=64
backends=poll,select
fds=100,2000
fd_kind=pipe
calls=100
jobs=2
kernel=/nonexistent/vmlinuz-6.1.0-57-arm64
symbols=$src/tests/fixtures/cachesim/kallsyms.txt
plugin=libcache.so
top_limit=3000
qemu=QEMU emulator version 7.2.22
qemu_source=1:7.2+dfsg-7+deb12u18
command=scripts/cachesim.sh (fixture)
started=2026-11-30T12:14:47Z
finished=2026-11-30T12:19:52Z
PLAN
python3 "$src/scripts/cachesim/assemble.py" "$d" 2>"$t/err" || fail "assemble.py: $(cat "$t/err")"
"$bin" events --json >"$t/events.json" || fail "muxprof events --json"
python3 - "$d/results.json" "$t/events.json" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
tool = json.load(open(sys.argv[2]))["tool"]
cells = {(c["backend"], c["nfds"]): c for c in j["results"]}
def want(ok, what):
    if not ok:
        print("FAIL: " + what); sys.exit(1)
want(j["tool"] == dict(tool, assembled_by="scripts/cachesim/assemble.py"),
     "the tool object is muxprof's own: %r" % j["tool"])
want(j["context"]["simulated"] is True and j["context"]["label"] == "simulated (neoverse-n1)",
     "context labelled simulated")
c = cells[("poll", 100)]
want(c["status"] == "ok" and "wall_ns" not in c["metrics"], "poll 100 ok, no wall_ns")
m = c["metrics"]
# core 1: 1480771 -> 2066910 accesses, 20161 -> 24623 misses over 100 more calls
want(m["sim:L1d-accesses"]["p50"] == 5861.39 and m["sim:L1d-accesses"]["counts"] == [1480771, 2066910],
     "L1d accesses per call %r" % m["sim:L1d-accesses"])
want(m["sim:L1d-misses"]["p50"] == 44.62 and m["sim:L1d-misses"]["source"] == "simulated",
     "L1d misses per call %r" % m["sim:L1d-misses"])
want(m["sim:L2-misses"]["p50"] == 0.36 and m["sim:L1i-misses"]["p50"] == 1.43, "L2, L1i")
want(c["sim_other_core"]["L1d-misses"] == 145.74, "core 0's difference %r" % c["sim_other_core"])
names = [f["name"] for f in c["sim_functions"]["functions"]]
want("pipe_poll" in names and "__fget_light" in names, "functions %r" % names)
want(c["sim_functions"]["mapping_check"] is None, "no kernel image here: mapping not checked")
want(cells[("poll", 2000)]["status"] == "error" and
     "did not finish" in cells[("poll", 2000)]["reason"], "missing boot is an error cell")
want(cells[("select", 2000)]["status"] == "unsupported" and
     "FD_SETSIZE" in cells[("select", 2000)]["reason"], "refused cell is unsupported")
want(cells[("select", 100)]["status"] == "error", "select 100 had no boots")
PY
"$bin" report "$d" >/dev/null 2>"$t/err" || fail "muxprof report: $(cat "$t/err")"
grep -q "^# muxprof report: simulated (neoverse-n1) on " "$d/report.md" &&
    grep -q "| poll | 100 | 5,861 | 44.6 | 0.446 | 3.43 | 46 | 0.36 | 1.43 |" "$d/report.md" ||
    fail "report.md: $(grep -n 'poll | 100' "$d/report.md")"
python3 "$src/scripts/cachesim/check.py" "$d" >/dev/null 2>"$t/err" && fail "check.py passed a run without epoll"
grep -q "no ok epoll cells" "$t/err" || fail "check.py said: $(cat "$t/err")"
echo "ok"
