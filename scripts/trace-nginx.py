#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trace-nginx.py - nginx's worker (epoll) traced by `muxprof trace`, with N
idle keep-alive connections and one active client, all over loopback
(docs/trace.md).

Usage: scripts/trace-nginx.py --muxprof BIN --idle N --out DIR [--requests K]
           [--port P] [--duration S] [--follow]

Starts nginx (one worker, its own prefix and configuration in a temporary
folder, `return 200` on 127.0.0.1:P), opens N connections that each make one
request and then stay open, idle, attaches `muxprof trace --pid` to the
worker, makes K requests one after the other on one more keep-alive
connection, then ends the trace and nginx.  Every step is bounded: nginx's
start 10 s, the trace's attach 30 s, the requests 60 s, the trace --duration
S (default 30; it ends earlier, with the requests).

With --follow, `muxprof trace --follow -- nginx ...` starts nginx itself: the
master is the target and the worker it forks is followed; after the requests
nginx is stopped (SIGTERM to the master), and the trace ends when the master
and the worker have exited.
"""
import argparse
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

CONF = """daemon off;
master_process on;
worker_processes 1;
pid %(dir)s/nginx.pid;
error_log %(dir)s/error.log;
events { worker_connections %(conns)d; use epoll; }
http {
    access_log off;
    keepalive_timeout 300s;
    keepalive_requests 1000000;
    client_body_temp_path %(dir)s/body;
    proxy_temp_path %(dir)s/proxy;
    fastcgi_temp_path %(dir)s/fastcgi;
    uwsgi_temp_path %(dir)s/uwsgi;
    scgi_temp_path %(dir)s/scgi;
    server {
        listen 127.0.0.1:%(port)d;
        location / { return 200 "ok\\n"; }
    }
}
"""
REQ = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


def get(s):
    s.sendall(REQ)
    buf = b""
    while not buf.endswith(b"ok\n"):
        b = s.recv(4096)
        if not b:
            raise OSError("nginx closed the connection")
        buf += b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--muxprof", required=True)
    ap.add_argument("--idle", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--port", type=int, default=11912)
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--follow", action="store_true")
    a = ap.parse_args()
    if a.idle < 0 or a.requests < 1:
        ap.error("--idle >= 0 and --requests >= 1")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.mkdtemp(prefix="trace-nginx.")
    with open(os.path.join(tmp, "nginx.conf"), "w") as f:
        f.write(CONF % {"dir": tmp, "port": a.port, "conns": 2 * a.idle + 64})   # nginx drains idle keep-alive connections when under 1/16 are free
    nginx = ["nginx", "-p", tmp, "-c", os.path.join(tmp, "nginx.conf")]
    err = open(os.path.join(tmp, "trace.err"), "w+")
    trace = None
    if a.follow:
        trace = subprocess.Popen([a.muxprof, "trace", "--no-plots", "--follow", "--duration",
                                  str(a.duration), "--out", a.out, "--"] + nginx, stderr=err)
        ng = trace
    else:
        ng = subprocess.Popen(nginx)
    idle = []
    try:
        deadline = time.monotonic() + 10
        active = None
        while time.monotonic() < deadline and active is None:
            try:
                active = socket.create_connection(("127.0.0.1", a.port), timeout=5)
            except OSError:
                time.sleep(0.05)
        if active is None:
            print("trace-nginx: nginx did not listen on %d" % a.port, file=sys.stderr)
            return 1
        get(active)
        master = int(open(os.path.join(tmp, "nginx.pid")).read()) if a.follow else ng.pid
        workers = subprocess.run(["pgrep", "-P", str(master)], capture_output=True,
                                 text=True).stdout.split()
        if len(workers) != 1:
            print("trace-nginx: expected one worker, found %s" % workers, file=sys.stderr)
            return 1
        for _ in range(a.idle):
            s = socket.create_connection(("127.0.0.1", a.port), timeout=5)
            get(s)
            idle.append(s)
        if not a.follow:
            trace = subprocess.Popen([a.muxprof, "trace", "--no-plots", "--pid", workers[0],
                                      "--duration", str(a.duration), "--out", a.out],
                                     stderr=err)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and trace.poll() is None:
            err.seek(0)
            if "tracing" in err.read():
                break
            time.sleep(0.05)
        t0 = time.monotonic()
        for _ in range(a.requests):
            get(active)
            if time.monotonic() - t0 > 60:
                break
        took = time.monotonic() - t0
        if a.follow:   # nginx stopped: the trace ends when master and worker have exited
            for s in idle + [active]:
                s.close()
            os.kill(master, signal.SIGTERM)
        else:          # the window ends with the requests
            trace.send_signal(signal.SIGINT)
        trace.wait(timeout=60)
        err.seek(0)
        sys.stderr.write(err.read())
        print("trace-nginx: %d idle, %d requests in %.3f s" % (a.idle, a.requests, took),
              file=sys.stderr)
        return 0 if trace.returncode in (0, 130) else 1
    except OSError as e:
        log = os.path.join(tmp, "error.log")
        tail = open(log).read().strip().splitlines()[-1:] if os.path.exists(log) else []
        print("trace-nginx: %s%s" % (e, "; nginx: " + tail[0] if tail else ""), file=sys.stderr)
        return 1
    finally:
        if trace and trace.poll() is None:
            trace.kill()   # with --follow it kills the nginx it started too
        if not a.follow:
            ng.send_signal(signal.SIGQUIT)
            try:
                ng.wait(timeout=5)
            except subprocess.TimeoutExpired:
                ng.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
