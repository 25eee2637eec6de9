#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trace-memcached.py - memcached (libevent) traced by `muxprof trace`, its
event backend forced with libevent's environment (epoll; poll: EVENT_NOEPOLL;
select: EVENT_NOEPOLL and EVENT_NOPOLL), with N idle client connections and
one active client, all over loopback (docs/trace.md).

Usage: scripts/trace-memcached.py --muxprof BIN --backend epoll|poll|select
           --idle N[,N...] --out DIR [--requests K] [--rounds R] [--port P]
           [--duration S] [--against RUN]

Starts memcached -t 1 (one worker thread, so one event loop watches every
connection) on 127.0.0.1:P, opens N idle connections, attaches
`muxprof trace --pid` to it, makes K get requests one after the other on one
more connection, then ends the trace and memcached.  With several N, the
idle connections are opened and closed to each N in turn, R rounds (default
4; 0 is that default), K / (R x the N given), rounded down, requests at each: the cells of every N in one
trace, taken at the same host level.  Every step is bounded:
memcached's start 10 s, the trace's attach 30 s, the requests 60 s, the
trace itself --duration S (default 30; it ends earlier, with the requests).
--against RUN is handed to muxprof trace (a `muxprof run` directory whose
cells the report sets beside the traced ones).
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time


def wait_port(port, deadline):
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--muxprof", required=True)
    ap.add_argument("--backend", choices=["epoll", "poll", "select"], required=True)
    ap.add_argument("--idle", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--port", type=int, default=11911)
    ap.add_argument("--duration", type=float, default=0)
    ap.add_argument("--against")
    a = ap.parse_args()
    try:
        levels = [int(x) for x in a.idle.split(",")]
    except ValueError:
        ap.error("--idle: a count or a comma-separated list of counts, not %r" % a.idle)
    rounds = a.rounds or (4 if len(levels) > 1 else 1)
    if min(levels) < 0 or a.requests < 1 or a.rounds < 0:
        ap.error("--idle >= 0, --requests >= 1 and --rounds >= 0 (0: the default)")
    phases = [n for _ in range(rounds) for n in levels]
    per = a.requests // len(phases)
    if per < 1:
        ap.error("--requests: at least one per round and N (%d)" % len(phases))
    env = dict(os.environ)
    if a.backend in ("poll", "select"):
        env["EVENT_NOEPOLL"] = "1"
    if a.backend == "select":
        env["EVENT_NOPOLL"] = "1"
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    mc = subprocess.Popen(["memcached", "-l", "127.0.0.1", "-p", str(a.port), "-U", "0",
                           "-t", "1", "-c", str(max(levels) + 64), "-u", "nobody"], env=env)
    trace = None
    idle = []
    try:
        if not wait_port(a.port, time.monotonic() + 10) or mc.poll() is not None:
            print("trace-memcached: memcached did not listen on %d" % a.port, file=sys.stderr)
            return 1
        def to_level(n):   # open or close idle connections until there are n
            while len(idle) < n:
                idle.append(socket.create_connection(("127.0.0.1", a.port), timeout=5))
            while len(idle) > n:
                idle.pop().close()
        to_level(phases[0])
        active = socket.create_connection(("127.0.0.1", a.port), timeout=5)
        active.sendall(b"set k 0 0 5\r\nvalue\r\n")
        active.recv(64)
        time.sleep(0.2)   # memcached has taken every connection into its loop
        dur = a.duration or 30
        err = tempfile.TemporaryFile("w+")   # trace's messages, read while it attaches
        trace = subprocess.Popen([a.muxprof, "trace", "--no-plots", "--pid", str(mc.pid),
                                  "--duration", str(dur), "--out", a.out] +
                                 (["--against", a.against] if a.against else []), stderr=err)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and trace.poll() is None:
            err.seek(0)
            if "tracing" in err.read():
                break
            time.sleep(0.05)
        t0 = time.monotonic()
        made = 0
        for i, n in enumerate(phases):
            if i and n != phases[i - 1]:
                to_level(n)
                time.sleep(0.2)   # memcached has taken the change into its loop
            for _ in range(per):
                if time.monotonic() - t0 > 60:
                    break
                active.sendall(b"get k\r\n")
                buf = b""
                while not buf.endswith(b"END\r\n"):
                    got = active.recv(256)
                    if not got:
                        print("trace-memcached: memcached closed the active connection",
                              file=sys.stderr)
                        return 1
                    buf += got
                made += 1
        took = time.monotonic() - t0
        trace.send_signal(signal.SIGINT)   # the window ends with the requests
        trace.wait(timeout=60)
        err.seek(0)
        sys.stderr.write(err.read())
        print("trace-memcached: %s, %s idle, %d requests in %.3f s" %
              (a.backend, a.idle, made, took), file=sys.stderr)
        return 0 if trace.returncode in (0, 130) else 1
    finally:
        if trace and trace.poll() is None:
            trace.kill()
        mc.terminate()
        try:
            mc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            mc.kill()


if __name__ == "__main__":
    sys.exit(main())
