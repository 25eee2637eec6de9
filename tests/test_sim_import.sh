#!/bin/sh
# SPDX-License-Identifier: MIT
# test_sim_import.sh MUXPROF SRC - `muxprof sim-import DIR` on the recorded
# outputs of one scripts/muxsim.sh boot (tests/fixtures/muxsim: poll and epoll
# at N = 100 and 1,000 under neoverse-n1): results.json holds the plugin's
# summaries as sim: metrics and says simulated and the geometry; a loop that
# failed in the guest is an "error" cell with the loop's message; a missing
# input is exit 1 and a malformed one exit 2, each with one line naming the
# file, and then DIR is left exactly as it was (a muxsim.tsv summary out of
# order, below 0 or of no kept call is malformed); a results.json muxprof did
# not write, or a measured run's, is never replaced; DIR/functions.json (scripts/muxsim/
# functions.py) gives each ok cell it names its sim_functions, and a
# malformed one is refused; a symbolic link inside DIR (an input, or the
# guest/ directory above one) is refused, never followed; usage errors are
# exit 2.
set -u
mp=$1 src=$2
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
geo=$src/sim/geometries/neoverse-n1.conf
fresh() {   # fresh NAME: a copy of the recorded boot, its geometry where it lies here
    rm -rf "${t:?}/$1" && cp -r "$src/tests/fixtures/muxsim" "$t/$1" &&
        sed -i "s|^geometry=.*|geometry=$geo|" "$t/$1/plan.env" || exit 1
}
listing() { (cd "$1" && find . | sort && cat ./* 2>/dev/null | cksum); }
# refused DIR WANT STATUS [ARGS]: sim-import exits STATUS with the one line WANT
# on stderr and leaves DIR as it was
refused() {
    d=$1 want=$2 st=$3; shift 3
    listing "$d" > "$t/before"
    "$mp" sim-import "$d" "$@" >"$t/out" 2>"$t/err"; rc=$?
    [ "$rc" = "$st" ] || fail "$want: exit $rc, not $st: $(cat "$t/err")"
    [ "$(wc -l < "$t/err")" = 1 ] && grep -qF -- "$want" "$t/err" || fail "said: $(cat "$t/err")"
    listing "$d" | cmp -s - "$t/before" || fail "$want: $d changed"
}

# ---- a good boot ----
fresh good
"$mp" sim-import "$t/good" >"$t/out" 2>"$t/err" || fail "sim-import: $(cat "$t/err")"
grep -qF "wrote $t/good/results.json: 4 cells" "$t/out" || fail "said: $(cat "$t/out")"
[ ! -s "$t/err" ] || fail "stderr on a good boot: $(cat "$t/err")"
python3 - "$t/good/results.json" <<'PY' || fail "results.json"
import json, sys
j = json.load(open(sys.argv[1]))
def want(what, got, exp):
    if got != exp:
        sys.exit("%s: %r, not %r" % (what, got, exp))
want("schema", j["schema"], "muxprof-results/1")
want("tool", j["tool"]["name"], "muxprof")
want("status", j["status"], "complete")
c = j["context"]
want("simulated", (c["simulated"], c["emulated"], c["label"]), (True, True, "simulated (neoverse-n1)"))
g = c["geometry"]
want("geometry", (g["name"], g["l1d"], g["l3"]["policy"], g["dtlb"], g["page_bytes"], g["prefetch"]),
     ("neoverse-n1", {"size_bytes": 65536, "ways": 4}, "victim", "48,48", 4096, "none"))
want("kernel", (c["guest_kernel"], c["boot_seconds_total"]), ("6.1.0-57-arm64", 317))
want("arch (plan.env has no arch=: an arm64 boot)", c["arch"], "aarch64")
want("method", "(-icount shift=0)" in c["method"] and "markers (HINTs)" in c["method"], True)
want("caches", [(x["level"], x["size_bytes"]) for x in j["topology"]["caches"]],
     [(1, 65536), (1, 65536), (2, 1048576), (3, 33554432)])
ev = [e["name"] for e in j["counters"]["events"]]
want("events", (len(ev), ev[0], ev[-1]), (17, "sim:instructions", "sim:prefetches"))
cells = [(x["backend"], x["nfds"], x["status"]) for x in j["results"]]
want("cells", cells, [("poll", 100, "ok"), ("poll", 1000, "ok"), ("epoll", 100, "ok"),
                      ("epoll", 1000, "ok")])
p = j["results"][1]
want("cell keys", list(p), ["backend", "fd_kind", "mode", "nfds", "active", "status", "reason",
                            "metrics"])
m = p["metrics"]["sim:L1d-misses"]   # muxsim.tsv: 1 1 110 100 L1-dcache-misses all ...
want("poll 1000 L1d misses", (m["p10"], m["p50"], m["p90"], m["n"], m["p99"], m["scope"], m["source"]),
     (4393.0, 4399.0, 4405.0, 100, None, "user+kernel, simulated core 1", "simulated"))
want("metrics", sorted(p["metrics"]) == sorted(ev), True)
PY
"$mp" report "$t/good" --no-plots >/dev/null 2>"$t/err" || fail "muxprof report: $(cat "$t/err")"
grep -q "^## Simulated cache counts per call: simulated (neoverse-n1)" "$t/good/report.md" &&
    grep -qF "| poll | 1,000 | 52,860 | 4,399 | 4.4 | 35.2 | 4,399 | 17 | 0 |" "$t/good/report.md" ||
    fail "report.md: $(grep -n 'poll | 1,000' "$t/good/report.md")"
# the guest's side of the context is listed with the host's
for row in "| guest_kernel | 6.1.0-57-arm64 |" "| boot_seconds_total | 317 |" "| qemu | QEMU emulator"; do
    grep -qF "$row" "$t/good/report.md" || fail "report.md's context lacks '$row'"
done
# its own results.json is replaced; one it did not write is not
"$mp" sim-import "$t/good" >/dev/null 2>"$t/err" || fail "a second import: $(cat "$t/err")"
fresh foreign && echo '{}' > "$t/foreign/results.json"
refused "$t/foreign" "$t/foreign/results.json was not written by muxprof" 2
# a measured run's results.json (muxprof's manifest lists it, context says
# nothing of simulated) is the measurement: never replaced
"$mp" run --backends poll --fds 10 --mode ready --samples 20 --repeats 1 --warmup 5 \
    --events software --no-plots --quiet --out "$t/measured" >/dev/null 2>"$t/err" ||
    fail "muxprof run: $(cat "$t/err")"
cp -r "$src/tests/fixtures/muxsim/"* "$t/measured/" &&
    sed -i "s|^geometry=.*|geometry=$geo|" "$t/measured/plan.env" || exit 1
refused "$t/measured" "$t/measured holds a measured run's results.json; give sim-import the muxsim.sh output directory" 2

# ---- loops that failed in the guest: error cells with their messages ----
fresh failed
printf 'epoll 200000 1\nselect 2000 3\n' >> "$t/failed/cells.txt"
echo "muxprof loop: epoll_ctl(ADD, fd 48822): No space left on device" \
    > "$t/failed/guest/loop-epoll-200000.log"
"$mp" sim-import "$t/failed" >"$t/out" 2>"$t/err" || fail "failed loops: exit $?: $(cat "$t/err")"
grep -qF "2 loops failed in the guest (epoll 200000, select 2000)" "$t/err" || fail "said: $(cat "$t/err")"
python3 - "$t/failed/results.json" <<'PY' || fail "results.json of failed loops"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["results"]
assert j["status"] == "errors", j["status"]
assert len(r) == 6 and [x["status"] for x in r] == ["ok"] * 4 + ["error"] * 2, r
assert r[4]["reason"] == "muxprof loop: epoll_ctl(ADD, fd 48822): No space left on device", r[4]
assert r[5]["reason"] == "muxprof loop exited 3", r[5]
assert "metrics" not in r[4], r[4]
PY
"$mp" report "$t/failed" --no-plots >/dev/null 2>"$t/err" || fail "report of failed loops: $(cat "$t/err")"
grep -qF "| epoll | 200,000 | error |" "$t/failed/report.md" &&
    grep -q "Cells of this run ended in error" "$t/failed/report.md" || fail "report.md: no error cell"

# ---- links inside DIR are not followed: the file, or the directory above it ----
fresh link && printf 'epoll 200000 1\n' >> "$t/link/cells.txt" &&
    ln -s /etc/passwd "$t/link/guest/loop-epoll-200000.log"
refused "$t/link" "$t/link/guest/loop-epoll-200000.log: a symbolic link: sim-import reads only the files themselves" 2
fresh link && mv "$t/link/plan.env" "$t/link/plan.real" && ln -s plan.real "$t/link/plan.env"
refused "$t/link" "$t/link/plan.env: a symbolic link" 2
fresh link && printf 'epoll 200000 1\n' >> "$t/link/cells.txt" && mkdir "$t/elsewhere" &&
    ln -s /etc/passwd "$t/elsewhere/loop-epoll-200000.log" && rm -r "$t/link/guest" &&
    ln -s "$t/elsewhere" "$t/link/guest"
refused "$t/link" "$t/link/guest/loop-epoll-200000.log: a symbolic link" 2
fresh link && ln -s /etc/passwd "$t/link/functions.json"
refused "$t/link" "$t/link/functions.json: a symbolic link" 2

# ---- DIR/functions.json (functions.py): each ok cell's sim_functions ----
fns() {   # fns DIR: a functions.json for poll 1000, epoll 200000 and select 5 (a share over 1:
          # exact sums over muxsim.tsv's rounded mean)
    cat > "$1/functions.json" <<'EOF'
{"cells": [
 {"backend": "poll", "nfds": 1000, "kept": 100, "all_rows_L1d": 4399.0,
  "functions": [{"name": "do_sys_poll", "L1d-misses": 3500.0, "L2-misses": 30.5, "LLC-load-misses": 1.5},
                {"name": "__fget_light", "L1d-misses": 800.0, "L2-misses": 0, "LLC-load-misses": 0}],
  "attributed_L1d_share": 0.978},
 {"backend": "epoll", "nfds": 200000, "kept": 100, "functions": [], "attributed_L1d_share": null},
 {"backend": "select", "nfds": 5, "kept": 30, "functions": [], "attributed_L1d_share": 1.0256}]}
EOF
}
fresh fn && fns "$t/fn" && printf 'epoll 200000 1\n' >> "$t/fn/cells.txt"
"$mp" sim-import "$t/fn" >/dev/null 2>"$t/err"; rc=$?
[ "$rc" = 0 ] || fail "functions.json: exit $rc: $(cat "$t/err")"
python3 - "$t/fn/results.json" <<'PY' || fail "sim_functions in results.json"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
got = {(x["backend"], x["nfds"]): x.get("sim_functions") for x in r}
want = {"functions": [{"name": "do_sys_poll", "L1d-misses": 3500, "L2-misses": 30.5,
                       "LLC-load-misses": 1.5},
                      {"name": "__fget_light", "L1d-misses": 800, "L2-misses": 0,
                       "LLC-load-misses": 0}],
        "attributed_L1d_share": 0.978}
assert got[("poll", 1000)] == want, got[("poll", 1000)]
assert list(r[1])[-1] == "sim_functions", list(r[1])
# cells without an entry, and the loop that failed, have none
assert [k for k, v in got.items() if v is not None] == [("poll", 1000)], got
PY
"$mp" report "$t/fn" --no-plots >/dev/null 2>"$t/err" || fail "report with functions: $(cat "$t/err")"
grep -qF "| \`do_sys_poll\` | 3,500 | 3.5 | 30.5 | 1.5 |" "$t/fn/report.md" &&
    grep -qF "the listed functions hold 98% of its L1d misses" "$t/fn/report.md" ||
    fail "report.md: $(grep -n -A4 'kernel function' "$t/fn/report.md")"
fresh bad && fns "$t/bad" && sed -i 's/"cells": \[/"cells": [,/' "$t/bad/functions.json"
refused "$t/bad" "$t/bad/functions.json line 1: not JSON (scripts/muxsim/functions.py writes it" 2
fresh bad && fns "$t/bad" && sed -i 's/"name": "__fget_light", //' "$t/bad/functions.json"
refused "$t/bad" "$t/bad/functions.json: cell 0: expected backend, nfds (1..16777216), functions" 2
fresh bad && fns "$t/bad" && sed -i 's/"nfds": 5,/"nfds": "5",/' "$t/bad/functions.json"
refused "$t/bad" "$t/bad/functions.json: cell 2: expected backend, nfds" 2
fresh bad && fns "$t/bad" && sed -i 's/0.978/-0.5/' "$t/bad/functions.json"
refused "$t/bad" "$t/bad/functions.json: cell 0: expected backend" 2
fresh bad && fns "$t/bad" && sed -i 's/"L2-misses": 30.5/"L2-misses": -30.5/' "$t/bad/functions.json"
refused "$t/bad" "$t/bad/functions.json: cell 0: expected backend" 2
# 1.0256 above is the plugin's rounding; 1.6 is past what rounding can give
fresh bad && fns "$t/bad" && sed -i 's/1.0256/1.6/' "$t/bad/functions.json"
refused "$t/bad" "$t/bad/functions.json: cell 2: expected backend" 2

# ---- missing and malformed inputs: one line, exit 1 or 2, nothing written ----
fresh bad
rm "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv: no such file" 1
fresh bad && sed -i '6s/\t[^\t]*$//' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 6: expected 12 tab-separated fields" 2
fresh bad && sed -i '5s/\t14542.0\t/\tlots\t/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 5: p10, p50, p90, mean, min and max must be finite" 2
# summaries report would refuse: out of order, below 0, of no call
fresh bad && sed -i '5s/\t14522.0\t14542.0\t/\t14600.0\t14542.0\t/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 5: p10 14600 is over p50 14542: expected min <= p10 <= p50 <= p90 <= max" 2
fresh bad && sed -i '5s/\t14522\t17892$/\t14522\t14000/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 5: p90 14546 is over max 14000" 2
fresh bad && sed -i '5s/\t14522\t17892$/\t20000\t17892/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 5: min 20000 is over p10 14522" 2
fresh bad && sed -i '5s/\t14522.0\t14542.0\t/\t-1\t14542.0\t/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 5: p10 is -1: a count per call is never below 0" 2
fresh bad && sed -i '5s/^0\t1\t110\t100\t/0\t1\t110\t0\t/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 5: kept is 0" 2
fresh bad && sed -i '2s/^cell/cel/' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv line 2: expected the header" 2
fresh bad && sed -i '/\tL2-misses\tall\t/d' "$t/bad/muxsim.tsv"
refused "$t/bad" "$t/bad/muxsim.tsv: cell 0 has no \"all\" row of L2-misses" 2
fresh bad && echo "select 10 0" >> "$t/bad/cells.txt"
refused "$t/bad" "5 loops succeeded (cells.txt) but the plugin saw 4 cells (muxsim.tsv)" 2
fresh bad && echo "poll lots 0" >> "$t/bad/cells.txt"
refused "$t/bad" "$t/bad/cells.txt line 5: expected \"BACKEND N STATUS\"" 2
fresh bad && sed -i '/^calls=/d' "$t/bad/plan.env"
refused "$t/bad" "$t/bad/plan.env: no calls= line" 2
fresh bad && sed -i 's/^fds=.*/fds=100,,1000/' "$t/bad/plan.env"
refused "$t/bad" "$t/bad/plan.env: fds= must be counts separated by commas" 2
fresh bad && sed -i 's/^fds=.*/fds=100,99999999999999999999/' "$t/bad/plan.env"
refused "$t/bad" "$t/bad/plan.env: fds= must be counts from 1 to 16777216" 2
fresh bad && sed -i 's/^fds=.*/fds=0,100/' "$t/bad/plan.env"
refused "$t/bad" "$t/bad/plan.env: fds= must be counts from 1 to 16777216" 2
fresh bad && echo "arch=sparc" >> "$t/bad/plan.env"
refused "$t/bad" "$t/bad/plan.env: arch= must be arm64 or x86_64" 2
fresh bad && sed -i 's/^prefetch=.*/prefetch=l3/' "$t/bad/plan.env"
refused "$t/bad" "prefetch: 'l3' is not one of none, l1d, l2, l1d+l2" 2
fresh bad && printf 'line=64\n' > "$t/bad.conf"
refused "$t/bad" "no description= line" 2 --geometry "$t/bad.conf"
refused "$t/bad" "$t/nope.conf: no such geometry file" 1 --geometry "$t/nope.conf"

# ---- an x86_64 boot: plan.env's arch= names the guest's ISA ----
fresh x86 && echo "arch=x86_64" >> "$t/x86/plan.env"
"$mp" sim-import "$t/x86" >/dev/null 2>"$t/err" || fail "sim-import arch=x86_64: $(cat "$t/err")"
python3 - "$t/x86/results.json" <<'PY' || fail "results.json of an x86_64 boot"
import json, sys
c = json.load(open(sys.argv[1]))["context"]
if c["arch"] != "x86_64" or "x86_64 guest (one TCG thread)" not in c["method"] or \
        "markers (nopl)" not in c["method"]:
    sys.exit("arch %r, method %r" % (c["arch"], c["method"]))
PY

# ---- usage ----
for args in "" "$t/good $t/bad" "$t/good --bogus"; do
    # shellcheck disable=SC2086
    "$mp" sim-import $args >/dev/null 2>"$t/err"; rc=$?
    [ "$rc" = 2 ] || fail "sim-import $args: exit $rc: $(cat "$t/err")"
done
"$mp" sim-import --help | grep -q "^usage: muxprof sim-import DIR" || fail "--help"
echo ok
