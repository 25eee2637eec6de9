#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_wakeup_partner.sh - wakeup mode when the poker process fails its side.
# A wakeup run of epoll and poll at N = 10, 100 is started and its poker (the
# child of muxprof named muxprof-poker) is
#   killed:   muxprof must end by itself with every wakeup cell failed (an
#             "error", or "ok" from the repeats timed before) and a reason
#             that says the poker died and by which signal;
#   stopped:  the same, with a reason that says it did not poke;
#   stopped, then muxprof gets SIGINT: exit 130 within a few seconds (the
#             wait for the poker's answer must not outlast the interruption);
# and a run with a healthy poker given SIGINT during its wakeup cells ends
# with 130 as well.  Each run is killed and the case failed when it has not
# ended within its bound (the waits that used to hang have none).
#
#   test_wakeup_partner.sh MUXPROF SCRATCH_DIR
set -u
bin=${1:?usage: test_wakeup_partner.sh MUXPROF SCRATCH_DIR}
tmp=${2:?usage: test_wakeup_partner.sh MUXPROF SCRATCH_DIR}
command -v python3 >/dev/null || { echo "SKIP: no python3 to read results.json"; exit 77; }
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

pid= poker=
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    [ -n "$poker" ] && kill -9 "$poker" 2>/dev/null
}
trap cleanup EXIT

# The poker among the children of $1: named muxprof-poker; a binary that does
# not name it forks it after the helper, so the youngest of two children is
# taken then (with one child, the helper alone, nothing yet: the poker is
# still to come, or still to name itself).
find_poker() {
    local best= best_start=0 c stat rest ppid start n=0
    for c in /proc/[0-9]*; do
        stat=$(cat "$c/stat" 2>/dev/null) || continue
        rest=${stat##*) }
        read -r _ ppid _ <<<"$rest"
        [ "$ppid" = "$1" ] || continue
        n=$((n + 1))
        if [ "$(cat "$c/comm" 2>/dev/null)" = muxprof-poker ]; then
            echo "${c#/proc/}"
            return
        fi
        start=$(awk '{print $20}' <<<"$rest")
        if [ "$start" -ge "$best_start" ]; then best=${c#/proc/} best_start=$start; fi
    done
    [ "$n" -ge 2 ] && echo "$best"
}

# start NAME: a wakeup run in the background; sets pid, out, and poker once
# the poker exists and a block has had time to start.
start() {
    out=$tmp/$1
    "$bin" run --mode wakeup --backends epoll,poll --fds 10,100 --samples 100000 --repeats 2 \
        --events none --no-plots --quiet --out "$out" >"$tmp/$1.log" 2>&1 &
    pid=$! poker=
    for _ in $(seq 200); do
        kill -0 "$pid" 2>/dev/null || break
        poker=$(find_poker "$pid")
        [ -n "$poker" ] && break
        sleep 0.05
    done
    [ -n "$poker" ] || { no "$1: no poker process found under muxprof (pid $pid)"; return 1; }
    sleep 1
}

# finish NAME LIMIT_S: wait for muxprof at most LIMIT_S; sets st (124: killed).
finish() {
    local waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $(($2 * 10)) ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -9 "$pid"
        wait "$pid" 2>/dev/null
        st=124
        no "$1: muxprof still ran ${2} s after the poker failed (killed)"
    else
        wait "$pid"
        st=$?
    fi
    kill -9 "$poker" 2>/dev/null
    pid= poker=
}

# cells DIR PATTERN: every wakeup cell failed, with a reason matching PATTERN.
cells() {
    python3 - "$1/results.json" "$2" <<'PY'
import json, re, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    sys.exit("no readable results.json: %s" % e)
bad = []
for c in doc.get("results", []):
    if c.get("mode") != "wakeup":
        continue
    reason = c.get("reason") or ""
    # a cell timed in some repeats before the poker failed keeps them: "ok",
    # its reason saying which were timed and why the rest are missing
    failed = c.get("status") == "error" or (c.get("status") == "ok" and reason.startswith("timed in "))
    if not failed or not re.search(sys.argv[2], reason):
        bad.append("%s N=%s: %s: %s" % (c.get("backend"), c.get("nfds"), c.get("status"),
                                        c.get("reason")))
if bad:
    sys.exit("cells not failed with the reason /%s/:\n  %s" % (sys.argv[2], "\n  ".join(bad)))
PY
}

# The poker killed: the cells say it died, and how.
if start killed; then
    kill -KILL "$poker"
    finish killed 30
    case $st in 0|1) ;; *) no "killed: exit status $st, expected 0 or 1" ;; esac
    why=$(cells "$tmp/killed" 'poker process .*killed by signal 9' 2>&1) || no "killed: $why"
fi

# The poker stopped: it does not poke; the cells say so.
if start stopped; then
    kill -STOP "$poker"
    finish stopped 40
    case $st in 0|1) ;; *) no "stopped: exit status $st, expected 0 or 1" ;; esac
    why=$(cells "$tmp/stopped" 'poker process .*did not poke' 2>&1) || no "stopped: $why"
fi

# The poker stopped, then Ctrl-C: the run ends as interrupted, promptly.
if start stopped-int; then
    kill -STOP "$poker"
    sleep 0.3
    kill -INT "$pid"
    finish stopped-int 5
    [ "$st" = 130 ] || no "stopped-int: exit status $st, expected 130"
fi

# A healthy poker, Ctrl-C during the wakeup cells.
if start int; then
    kill -INT "$pid"
    finish int 5
    [ "$st" = 130 ] || no "int: exit status $st, expected 130"
fi

for c in /proc/[0-9]*; do
    [ "$(cat "$c/comm" 2>/dev/null)" = muxprof-poker ] && grep -qF "$tmp/" "$c/cmdline" 2>/dev/null &&
        no "a poker process outlived its run: ${c#/proc/}"
done
[ "$fail" = 0 ] && echo "ok: poker killed, stopped, stopped then SIGINT, SIGINT"
exit "$fail"
