#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trace-lab.py - a program for `muxprof trace` to measure (docs/trace.md):
N idle TCP connections on loopback and one more that a second thread pokes
with one byte at a time, all watched by one of Python's selectors
(SelectSelector, PollSelector, EpollSelector); each wait call returns one
ready descriptor, K times, then the program exits.  With several N, one
selector each, taken in turn call by call: their cells in one trace see the
same host.

Usage: scripts/trace-lab.py --selector select|poll|epoll --pairs N[,N...]
                            [--pokes K] [--seconds S] [--ready]

  --pairs N    idle connections (each is two descriptors in this process; the
               selector watches the N accepted ends and the poked one: N + 1)
  --pokes K    wait calls, each woken by one byte (default 2000), in all
  --seconds S  give up after S seconds whatever is left (default 60)
  --ready      the poke comes first, from this thread, and the call is made with
               timeout 0 (again until it sees the byte): the scan cost without the
               sleep, as `muxprof run`'s ready mode
"""
import argparse
import resource
import selectors
import socket
import sys
import threading
import time

KINDS = {"select": selectors.SelectSelector, "poll": selectors.PollSelector,
         "epoll": getattr(selectors, "EpollSelector", None)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--selector", choices=sorted(KINDS), required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--pokes", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--ready", action="store_true")
    a = ap.parse_args()
    try:
        pairs = [int(x) for x in a.pairs.split(",")]
    except ValueError:
        ap.error("--pairs: a count or a comma-separated list of counts, not %r" % a.pairs)
    if min(pairs) < 0 or a.pokes < 1 or a.seconds <= 0:
        ap.error("--pairs >= 0, --pokes >= 1 and --seconds > 0")
    if KINDS[a.selector] is None:
        print("trace-lab: no %s selector here" % a.selector, file=sys.stderr)
        return 1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * sum(pairs) + 16 * len(pairs) + 64
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    if a.selector == "select" and 2 * sum(pairs) + 16 * len(pairs) > 1024:
        print("trace-lab: select watches descriptors below 1024: at most 500 pairs in all",
              file=sys.stderr)
        return 2
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(1024)
    keep = []

    def pair():
        c = socket.create_connection(lst.getsockname())
        s, _ = lst.accept()
        keep.append((c, s))
        return c, s

    groups = []   # (selector, poker): one per N
    for n in pairs:
        sel = KINDS[a.selector]()
        for _ in range(n):
            _, s = pair()
            sel.register(s, selectors.EVENT_READ)
        poker, poked = pair()
        sel.register(poked, selectors.EVENT_READ)
        groups.append((sel, poker))
    current = [groups[0]]
    go = threading.Semaphore(0)
    end = time.monotonic() + a.seconds
    done = False

    def poke():
        while not done:
            if not go.acquire(timeout=0.5):
                continue
            if not done:
                current[0][1].send(b"x")

    made = 0
    if a.ready:
        for i in range(a.pokes):
            if time.monotonic() > end:
                break
            sel, poker = groups[i % len(groups)]
            poker.send(b"x")
            ready = []
            while not ready and time.monotonic() < end:
                ready = sel.select(timeout=0)
            for key, _ in ready:
                key.fileobj.recv(16)
            made += 1
        print("trace-lab: %s, %s idle pairs, %d ready calls" % (a.selector, a.pairs, made),
              file=sys.stderr)
        return 0 if made == a.pokes else 1
    t = threading.Thread(target=poke, daemon=True)
    t.start()
    for i in range(a.pokes):
        if time.monotonic() > end:
            break
        current[0] = groups[i % len(groups)]
        sel = current[0][0]
        go.release()
        while True:
            ready = sel.select(timeout=1.0)
            if ready:
                break
            if time.monotonic() > end:
                break
        for key, _ in ready:
            key.fileobj.recv(16)
        made += 1
    done = True
    go.release()
    t.join(2)
    print("trace-lab: %s, %s idle pairs, %d wakeups" % (a.selector, a.pairs, made),
          file=sys.stderr)
    return 0 if made == a.pokes else 1


if __name__ == "__main__":
    sys.exit(main())
