#!/bin/sh
# SPDX-License-Identifier: MIT
# ci-trace.sh - `muxprof trace` on a real server nobody here wrote, as a CI
# step: Debian's memcached (libevent) with its backend forced to poll
# (EVENT_NOEPOLL) and left at epoll, 100 and 1000 idle loopback connections
# and one client making get requests one after the other
# (scripts/trace-memcached.py).  Checked for each of the four traces:
#   - no call dropped; the target's descriptors counted mostly tcp;
#   - the worker's cell with the most calls watched N = idle + 2 (the idle
#     connections, the active one and libevent's notification descriptor),
#     with at least 90% of the requests in it;
# and across them: poll's p50 per call at 1000 idle connections more than 3x
# its p50 at 100; epoll's within 1.5x.  Installs memcached when it is
# missing (apt-get; root).
# Usage: scripts/ci-trace.sh [BUILD_DIR]      (default build; root)
# Exit status: 0 all checked, 1 a check or a trace failed (said on one
# line), 2 usage.  Every trace is bounded (trace-memcached.py's bounds and a
# timeout of 120 s each).
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
timeout -k 5 60 "$bin" trace --quiet --no-plots --out "$tmp/probe" -- true >/dev/null 2>"$tmp/probe.err" ||
    fail "$(head -n 1 "$tmp/probe.err")"
requests=1000
port=$((20000 + $$ % 20000))
for b in poll epoll; do
    for n in 100 1000; do
        timeout -k 5 120 python3 "$src/scripts/trace-memcached.py" --muxprof "$bin" --backend $b \
            --idle $n --requests $requests --port $port --duration 60 --out "$tmp/$b-$n" \
            >"$tmp/$b-$n.log" 2>&1 || fail "trace of memcached ($b, $n idle): $(tail -n 3 "$tmp/$b-$n.log" | tr '\n' ' ')"
        port=$((port + 1))
    done
done
python3 - "$tmp" "$requests" <<'PY' || exit 1
import json, sys
d, requests = sys.argv[1], int(sys.argv[2])
call = {"poll": "poll", "epoll": "epoll_wait"}
p50, bad = {}, []
for b in ("poll", "epoll"):
    for n in (100, 1000):
        doc = json.load(open("%s/%s-%d/results.json" % (d, b, n)))
        t = doc["trace"]
        cells = [c for c in doc["results"] if c["syscall"] == call[b]]
        if t["calls_dropped"] or not cells:
            bad.append("%s %d idle: %d calls dropped, %d %s cells"
                       % (b, n, t["calls_dropped"], len(cells), call[b]))
            continue
        if t.get("fd_kind") != "tcp":
            bad.append("%s %d idle: the descriptors counted as %r (%s), not tcp"
                       % (b, n, t.get("fd_kind"), t.get("fd_kinds")))
        top = max(cells, key=lambda c: c["trace"]["calls"])
        k = top["trace"]["calls"]
        print("ci-trace: %s, %d idle: %s N %d, %d calls, p50 %.1f us"
              % (b, n, call[b], top["nfds"], k, top["metrics"]["wall_ns"]["p50"] / 1e3))
        if top["nfds"] != n + 2 or k < 0.9 * requests:
            bad.append("%s %d idle: the busiest cell has N %d and %d calls (want N %d, >= %d calls)"
                       % (b, n, top["nfds"], k, n + 2, int(0.9 * requests)))
        p50[b, n] = top["metrics"]["wall_ns"]["p50"]
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
