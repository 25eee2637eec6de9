#!/bin/sh
# SPDX-License-Identifier: MIT
# ci-trace.sh - `muxprof trace` on a real server nobody here wrote, as a CI
# step: Debian's memcached (libevent) with its backend forced to poll
# (EVENT_NOEPOLL) and left at epoll, one client making get requests one after
# the other while 100 and 1000 idle loopback connections take turns, four
# rounds of each in one trace per backend (scripts/trace-memcached.py), so
# that both N are measured at the same host level.  Checked for each trace:
#   - no call dropped; the target's descriptors counted mostly tcp;
#   - for each of 100 and 1000 idle, at least 90% of that level's requests
#     made a call of N = idle + 2 (the idle connections, the active one and
#     libevent's notification descriptor), calls.csv's n;
#   - poll's median call (wall_ns of those calls) at 1000 idle connections
#     more than 3x its median at 100; epoll's within 1.5x.  The calls, not
#     the cells: a cell's N bucket also holds the calls made while the idle
#     connections were opened and closed.
# Installs memcached when it is missing (apt-get; root).
# Usage: scripts/ci-trace.sh [BUILD_DIR]      (default build; root)
# Exit status: 0 all checked, 1 a check or a trace failed (said on one
# line), 2 usage.  Every trace is bounded (trace-memcached.py's bounds and a
# timeout of 180 s each).
set -eu
case ${1:-} in -h|--help) sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
               -*) echo "ci-trace: unknown option $1 (see --help)" >&2; exit 2 ;; esac
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" 2>/dev/null && pwd) || { echo "ci-trace: no build folder ${1:-$src/build}" >&2; exit 2; }
say() { echo "ci-trace: $*"; }
fail() { echo "ci-trace: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "tracing another program needs root here (or CAP_BPF and CAP_PERFMON: scripts/grant-perfmon.sh)"
bin=$build/bin/muxprof
[ -x "$bin" ] || fail "no $bin: run scripts/setup.sh"
command -v python3 >/dev/null 2>&1 || fail "python3 not found"
if ! command -v memcached >/dev/null 2>&1; then
    say "installing memcached"
    { timeout 300 apt-get update -q && timeout 300 apt-get install -y -q memcached; } >/dev/null 2>&1 ||
        fail "could not install memcached (apt-get install memcached)"
    # the package's own service is not wanted: trace-memcached.py starts its own
    if command -v systemctl >/dev/null 2>&1; then systemctl stop memcached >/dev/null 2>&1 || true; fi
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ci-trace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
timeout -k 5 60 "$bin" trace --quiet --no-plots --out "$tmp/probe" -- true >/dev/null 2>"$tmp/probe.err" ||
    fail "$(head -n 1 "$tmp/probe.err")"
requests=1000
# below the kernel's default ephemeral range (32768-60999)
port=$((10000 + $$ % 20000))
# not memcached's own 11211, where the package's service may listen
[ $port -lt 11211 ] || [ $port -gt 11212 ] || port=11213
for b in poll epoll; do
    timeout -k 5 180 python3 "$src/scripts/trace-memcached.py" --muxprof "$bin" --backend $b \
        --idle 100,1000 --rounds 4 --requests $((2 * requests)) --port $port --duration 120 \
        --out "$tmp/$b" >"$tmp/$b.log" 2>&1 ||
        fail "trace of memcached ($b): $(tail -n 3 "$tmp/$b.log" | tr '\n' ' ')"
    port=$((port + 1))
done
python3 - "$tmp" "$requests" <<'PY' || exit 1
import csv, json, statistics, sys
d, requests = sys.argv[1], int(sys.argv[2])
call = {"poll": "poll", "epoll": "epoll_wait"}
p50, bad = {}, []
for b in ("poll", "epoll"):
    doc = json.load(open("%s/%s/results.json" % (d, b)))
    t = doc["trace"]
    cells = [c for c in doc["results"] if c["syscall"] == call[b]]
    if t["calls_dropped"] or not cells:
        bad.append("%s: %d calls dropped, %d %s cells"
                   % (b, t["calls_dropped"], len(cells), call[b]))
        continue
    if t.get("fd_kind") != "tcp":
        bad.append("%s: the descriptors counted as %r (%s), not tcp"
                   % (b, t.get("fd_kind"), t.get("fd_kinds")))
    rows = list(csv.DictReader(open("%s/%s/calls.csv" % (d, b))))
    for n in (100, 1000):
        wall = [int(r["wall_ns"]) for r in rows if r["syscall"] == call[b] and int(r["n"]) == n + 2]
        print("ci-trace: %s, %d idle: %d %s calls of N %d, median %.1f us"
              % (b, n, len(wall), call[b], n + 2, statistics.median(wall) / 1e3 if wall else 0))
        if len(wall) < 0.9 * requests:
            bad.append("%s %d idle: %d calls of N %d (want >= %d)"
                       % (b, n, len(wall), n + 2, int(0.9 * requests)))
            continue
        p50[b, n] = statistics.median(wall)
if not bad:
    rp, re = p50["poll", 1000] / p50["poll", 100], p50["epoll", 1000] / p50["epoll", 100]
    print("ci-trace: from 102 to 1002 descriptors poll x%.2f (want > 3), epoll x%.2f (want < 1.5)" % (rp, re))
    if not (rp > 3):
        bad.append("poll's call did not grow with N (x%.2f)" % rp)
    if not (re < 1.5):
        bad.append("epoll's call grew with N (x%.2f)" % re)
if bad:
    print("ci-trace: FAIL: " + "; ".join(bad), file=sys.stderr)
    sys.exit(1)
PY
say "memcached traced on poll and epoll: N as connected, poll grows with N, epoll does not"
